//! Recognising a format from the first bytes of a file.
//!
//! This module owns every format's magic bytes, so detection needs none of
//! the format modules: [`Format::detect`] recognises all formats whatever
//! features are enabled, and the format modules take their magic from here.

/// `DATA`, the first four bytes of a datafile (`ATAD` when written by a
/// big-endian host).
pub(crate) const DATAFILE_MAGIC: &[u8; 4] = b"DATA";
/// `ATAD`, the datafile magic as a big-endian host wrote it.
pub(crate) const DATAFILE_MAGIC_SWAPPED: &[u8; 4] = b"ATAD";
/// `TWDEMO\0`, the first seven bytes of every demo.
pub(crate) const DEMO_MAGIC: &[u8; 7] = b"TWDEMO\0";
/// The first 11 bytes of every `.slp` file: `{`, the key `raw`, and the
/// start of an optimized uint8 array with an int32 count.
pub(crate) const SLIPPI_SIGNATURE: &[u8; 11] = b"{U\x03raw[$U#l";
/// The first 16 bytes of every teehistorian file: the UUID
/// `699db17b-8efb-34ff-b1d8-da6f60c15dd1` of `teehistorian@ddnet.tw`.
pub(crate) const TEEHISTORIAN_MAGIC: [u8; 16] = [
    0x69, 0x9d, 0xb1, 0x7b, 0x8e, 0xfb, 0x34, 0xff, 0xb1, 0xd8, 0xda, 0x6f, 0x60, 0xc1, 0x5d, 0xd1,
];

/// A file format this crate decodes, as recognised by [`Format::detect`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum Format {
    /// A Teeworlds/DDNet datafile (`DATA` or `ATAD` magic).
    Datafile,
    /// A Teeworlds/DDNet demo (`TWDEMO\0` magic).
    Demo,
    /// A Slippi `.slp` replay (the UBJSON `{U\x03raw[$U#l` header).
    Slippi,
    /// A DDNet teehistorian recording (the 16-byte `teehistorian@ddnet.tw`
    /// UUID).
    Teehistorian,
}

impl Format {
    /// Recognises the format of a file from its first bytes, or `None`.
    ///
    /// Every format is recognised whatever features are enabled (a caller
    /// can then say which feature a file needs).
    ///
    /// ```
    /// assert_eq!(gamefmt::Format::detect(b"DATA\x04\0\0\0"), Some(gamefmt::Format::Datafile));
    /// assert_eq!(gamefmt::Format::detect(b"TWDEMO\0\x06"), Some(gamefmt::Format::Demo));
    /// assert_eq!(gamefmt::Format::detect(b"{U\x03raw[$U#l\0\0\0\0"), Some(gamefmt::Format::Slippi));
    /// assert_eq!(gamefmt::Format::detect(b"nothing"), None);
    /// assert_eq!(
    ///     gamefmt::Format::detect(gamefmt::teehistorian::SAMPLE),
    ///     Some(gamefmt::Format::Teehistorian)
    /// );
    /// ```
    #[must_use]
    pub fn detect(head: &[u8]) -> Option<Self> {
        if head.starts_with(DEMO_MAGIC) {
            return Some(Self::Demo);
        }
        if head.starts_with(SLIPPI_SIGNATURE) {
            return Some(Self::Slippi);
        }
        if head.starts_with(&TEEHISTORIAN_MAGIC) {
            return Some(Self::Teehistorian);
        }
        if head.starts_with(DATAFILE_MAGIC) || head.starts_with(DATAFILE_MAGIC_SWAPPED) {
            return Some(Self::Datafile);
        }
        None
    }

    /// Every format, in the order of this enum: the registry each surface
    /// walks. A surface outside this crate cannot match `Format`
    /// exhaustively (it is `#[non_exhaustive]`), so each one has a test
    /// that goes through `ALL` and fails when the surface misses a format.
    pub const ALL: [Self; 4] = [Self::Datafile, Self::Demo, Self::Slippi, Self::Teehistorian];

    /// The bytes every file of the format starts with (for a datafile, the
    /// little-endian `DATA`; `ATAD` is recognised too). Enough for
    /// [`Format::detect`]:
    ///
    /// ```
    /// for format in gamefmt::Format::ALL {
    ///     assert_eq!(gamefmt::Format::detect(format.magic()), Some(format));
    /// }
    /// ```
    #[must_use]
    pub const fn magic(self) -> &'static [u8] {
        match self {
            Self::Datafile => DATAFILE_MAGIC,
            Self::Demo => DEMO_MAGIC,
            Self::Slippi => SLIPPI_SIGNATURE,
            Self::Teehistorian => &TEEHISTORIAN_MAGIC,
        }
    }

    /// The format's short name, as printed by the `gamefmt` command.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Datafile => "datafile",
            Self::Demo => "demo",
            Self::Slippi => "slippi",
            Self::Teehistorian => "teehistorian",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Format;

    /// The match is exhaustive here, inside the crate: a new variant does
    /// not compile until it has a position, and the test fails until
    /// [`Format::ALL`] holds it there.
    #[test]
    fn all_lists_every_variant_once_in_order() {
        let position = |format: Format| match format {
            Format::Datafile => 0,
            Format::Demo => 1,
            Format::Slippi => 2,
            Format::Teehistorian => 3,
        };
        let positions: [usize; 4] = [0, 1, 2, 3];
        assert_eq!(Format::ALL.map(position), positions);
        for format in Format::ALL {
            assert_eq!(
                Format::detect(format.magic()),
                Some(format),
                "{}",
                format.name()
            );
        }
    }
}
