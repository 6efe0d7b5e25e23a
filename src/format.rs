//! Recognising a format from the first bytes of a file.

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
        if head.starts_with(crate::demo::raw::MAGIC) {
            return Some(Self::Demo);
        }
        if head.starts_with(crate::slippi::SIGNATURE) {
            return Some(Self::Slippi);
        }
        if head.get(..16) == Some(crate::teehistorian::uuids::TEEHISTORIAN.as_bytes()) {
            return Some(Self::Teehistorian);
        }
        match head.get(..4)? {
            b"DATA" | b"ATAD" => Some(Self::Datafile),
            _ => None,
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
