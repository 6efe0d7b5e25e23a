//! Warnings: the oddities real files have that the engines playing them
//! read anyway, shared by every format.
//!
//! By default the decoders read what the engines that play these files
//! read (Teeworlds 0.6/0.7, DDNet and the mods built on them; slippi-js for
//! Slippi) and report each oddity as a [`Warning`] to a sink the caller
//! passes: anything implementing [`Warn`]. A closure, `()` (ignore),
//! [`Warnings<N>`] (no allocation; warnings past `N` are counted and
//! dropped) and, with `alloc`, a `Vec<Warning>` all are sinks. The sink is
//! a generic parameter, so ignoring warnings costs nothing, and warnings
//! are found while validating (`parse`), never on a per-record hot path.
//!
//! A *strict* parse (`parse_strict` on the views) instead refuses each
//! quirk where current DDNet refuses it, with
//! [`ErrorKind::Refused`](crate::ErrorKind::Refused) naming the quirk. See
//! the crate documentation for the table of quirks.
//!
//! ```
//! # fn main() -> Result<(), gamefmt::Error> {
//! use gamefmt::datafile::DatafileView;
//! use gamefmt::warning::{Warning, Warnings};
//!
//! let mut warnings = Warnings::<8>::new();
//! let view = DatafileView::parse_with(gamefmt::datafile::SAMPLE, &mut warnings)?;
//! assert!(warnings.as_slice().is_empty()); // the sample has no datafile quirk
//!
//! let mut count = 0;
//! DatafileView::parse_with(view.as_bytes(), &mut |_w: Warning| count += 1)?;
//! assert_eq!(count, 0);
//! # Ok(()) }
//! ```

use core::fmt;

/// Which quirk a [`Warning`] reports.
///
/// New kinds may be added in minor releases, so match with a wildcard arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum WarningKind {
    /// A version 4 datafile data item declared 0 bytes long (the stock 0.6
    /// editor writes empty quad layers so). Its zlib stream is read and
    /// must inflate to nothing; the item reads as empty.
    EmptyDataItem {
        /// The data item's index.
        index: usize,
    },
    /// Two items of one type share an id. Lookups by id
    /// ([`find_item`](crate::datafile::DatafileView::find_item)) return the
    /// first in file order; iteration yields both.
    DuplicateItemId {
        /// The item type.
        type_id: u16,
        /// The shared id.
        id: u16,
    },
    /// A 2010-era DDRace switch layer storing 2 bytes a tile (number,
    /// type); decoded into today's 4-byte switch tiles. The offset is the
    /// layer item's.
    OldSwitchLayout,
    /// A 2010-era DDRace speedup layer storing 4 bytes a tile (force,
    /// type, angle); decoded into today's 6-byte speedup tiles. The offset
    /// is the layer item's.
    OldSpeedupLayout,
    /// A map that current DDNet's loader refuses by a rule Teeworlds does
    /// not have (`CMap::Load`, DDNet 28baa427): a layer in two groups, a
    /// tile layer narrower or lower than 2 tiles or with a name that is not
    /// UTF-8, a design layer colour
    /// outside 0..=255, no game layer, a tile data index out of range or
    /// shared by two layers, a physics layer smaller than the game layer.
    /// The offset is the offending item's.
    DdnetRule {
        /// The rule, in words.
        rule: &'static str,
    },
    /// More than one tile layer of one physics kind (game, front, tele,
    /// speedup, switch, tune), as some 2010-era DDRace maps hold two sets.
    /// DDNet's loader (`CLayers::Init`) and its editor both use the last
    /// of each kind, in group order; the others are drawn as design
    /// layers by the editor and ignored by the game.
    /// [`MapView::physics_layer`](crate::map::MapView::physics_layer) gives
    /// the one DDNet uses. The offset is the ignored layer item's.
    DuplicatePhysicsLayer {
        /// The kind (`tele`, `front`, ...).
        kind: &'static str,
    },
    /// An embedded image whose item says RGBA (version 1 items always do)
    /// while its data is exactly width × height × 3 bytes: RGB pixels.
    /// Teeworlds 0.6 uploads width × height × 4 bytes from it (reading
    /// past the data); DDNet leaves the image out (`CMapImages`, "failed
    /// to load data"), and the map plays. Its pixels are read as the RGB
    /// bytes they are ([`Image::data_format`](crate::map::Image::data_format));
    /// a strict view refuses them, as DDNet does. The offset is the
    /// image item's.
    RgbDataInRgbaImage,
    /// A Slippi command whose Event Payloads entry says payload size 0:
    /// each such event is its command byte alone.
    ZeroSizeEvent {
        /// The command byte.
        command: u8,
    },
}

impl WarningKind {
    /// A short stable name, e.g. `empty_data_item` (used in JSON output).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::EmptyDataItem { .. } => "empty_data_item",
            Self::DuplicateItemId { .. } => "duplicate_item_id",
            Self::OldSwitchLayout => "old_switch_layout",
            Self::OldSpeedupLayout => "old_speedup_layout",
            Self::DdnetRule { .. } => "ddnet_rule",
            Self::DuplicatePhysicsLayer { .. } => "duplicate_physics_layer",
            Self::RgbDataInRgbaImage => "rgb_data_in_rgba_image",
            Self::ZeroSizeEvent { .. } => "zero_size_event",
        }
    }
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::EmptyDataItem { index } => {
                write!(f, "data item {index} is declared 0 bytes long")
            }
            Self::DuplicateItemId { type_id, id } => {
                write!(f, "two items of type {type_id} have id {id}")
            }
            Self::OldSwitchLayout => f.write_str("2010-era switch layer, 2 bytes a tile"),
            Self::OldSpeedupLayout => f.write_str("2010-era speedup layer, 4 bytes a tile"),
            Self::DdnetRule { rule } => write!(f, "current DDNet refuses the map: {rule}"),
            Self::DuplicatePhysicsLayer { kind } => write!(
                f,
                "a second {kind} layer: DDNet uses the last {kind} layer and ignores this one"
            ),
            Self::RgbDataInRgbaImage => f.write_str(
                "embedded image says RGBA but holds width * height * 3 bytes (RGB): DDNet leaves it out",
            ),
            Self::ZeroSizeEvent { command } => {
                write!(f, "command {command:#04x} declared with payload size 0")
            }
        }
    }
}

/// One oddity found while decoding: what, and the byte offset in the input
/// where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Warning {
    /// What the oddity is.
    pub kind: WarningKind,
    /// Byte offset in the input.
    pub offset: usize,
}

impl Warning {
    /// A warning of `kind` at byte `offset`.
    #[must_use]
    pub const fn new(kind: WarningKind, offset: usize) -> Self {
        Self { kind, offset }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte offset {}", self.kind, self.offset)
    }
}

/// A sink for [`Warning`]s (in the spirit of libtw2's `Warn`).
pub trait Warn {
    /// Receives one warning.
    fn warn(&mut self, warning: Warning);
}

/// Ignores every warning.
impl Warn for () {
    #[inline]
    fn warn(&mut self, _: Warning) {}
}

/// Calls the closure with each warning.
impl<F: FnMut(Warning)> Warn for F {
    #[inline]
    fn warn(&mut self, warning: Warning) {
        self(warning);
    }
}

/// The first `N` warnings, kept without allocating; later ones are
/// counted and dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Warnings<const N: usize> {
    kept: [Warning; N],
    len: usize,
    dropped: usize,
}

impl<const N: usize> Warnings<N> {
    /// An empty collection.
    #[must_use]
    pub const fn new() -> Self {
        let none = Warning::new(WarningKind::EmptyDataItem { index: 0 }, 0);
        Self {
            kept: [none; N],
            len: 0,
            dropped: 0,
        }
    }

    /// The kept warnings, in the order they were found.
    #[must_use]
    pub fn as_slice(&self) -> &[Warning] {
        self.kept.get(..self.len).unwrap_or_default()
    }

    /// How many warnings came after the first `N`.
    #[must_use]
    pub const fn dropped(&self) -> usize {
        self.dropped
    }
}

impl<const N: usize> Default for Warnings<N> {
    fn default() -> Self {
        Self::new()
    }
}

/// Keeps the first `N` warnings; counts the rest.
impl<const N: usize> Warn for Warnings<N> {
    fn warn(&mut self, warning: Warning) {
        match self.kept.get_mut(self.len) {
            Some(slot) => {
                *slot = warning;
                self.len = self.len.saturating_add(1);
            }
            None => self.dropped = self.dropped.saturating_add(1),
        }
    }
}

/// Keeps every warning.
#[cfg(feature = "alloc")]
impl Warn for alloc::vec::Vec<Warning> {
    fn warn(&mut self, warning: Warning) {
        self.push(warning);
    }
}

/// Reports a quirk that current DDNet refuses where it is found: the
/// warning back as the error (`?` makes it an [`ErrorKind::Refused`]
/// error) in strict mode, to `sink` otherwise.
///
/// [`ErrorKind::Refused`]: crate::ErrorKind::Refused
#[cfg(any(feature = "datafile", feature = "slippi"))]
pub(crate) fn report<W: Warn + ?Sized>(
    sink: &mut W,
    strict: bool,
    warning: Warning,
) -> Result<(), Warning> {
    if strict {
        return Err(warning);
    }
    sink.warn(warning);
    Ok(())
}

#[cfg(any(feature = "datafile", feature = "slippi"))]
#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Error, ErrorKind};
    use std::string::ToString;

    #[test]
    fn strict_refuses_lenient_reports() {
        let w = Warning::new(WarningKind::DuplicateItemId { type_id: 3, id: 0 }, 52);
        let mut seen = Warnings::<1>::new();
        assert_eq!(report(&mut seen, false, w), Ok(()));
        assert_eq!(seen.as_slice(), &[w]);
        let e = Error::new(ErrorKind::Refused(w.kind), 52);
        assert_eq!(report(&mut (), true, w).map_err(Error::from), Err(e));
        assert_eq!(
            e.to_string(),
            "refused in strict mode: two items of type 3 have id 0 at byte offset 52"
        );
        // A full sink counts and drops the rest instead of failing.
        seen.warn(w);
        assert_eq!((seen.as_slice().len(), seen.dropped()), (1, 1));
    }
}
