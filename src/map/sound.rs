//! [`Sound`]: a SOUND item (DDNet), external or embedded (an Opus file in a
//! data item).

use zerocopy::little_endian::I32;

use super::field::{data_into, data_string, index, int};
use crate::datafile::{DatafileView, Item};
use crate::error::{Error, ErrorKind, Result};

/// Ints of the layout: version, external, name, data, data size.
const INTS: usize = 5;

/// A SOUND item.
#[derive(Clone, Copy, Debug)]
pub struct Sound<'a> {
    df: DatafileView<'a>,
    item: Item<'a>,
}

impl<'a> Sound<'a> {
    pub(super) const fn new(df: DatafileView<'a>, item: Item<'a>) -> Self {
        Self { df, item }
    }

    /// The raw item.
    #[must_use]
    pub const fn item(&self) -> Item<'a> {
        self.item
    }

    /// The item version.
    #[must_use]
    pub fn version(&self) -> i32 {
        int(self.item.data(), 0)
    }

    /// Whether the sound is external (no data in the map).
    #[must_use]
    pub fn is_external(&self) -> bool {
        int(self.item.data(), 1) != 0
    }

    /// Data index of the name string.
    #[must_use]
    pub fn name_index(&self) -> i32 {
        int(self.item.data(), 2)
    }

    /// Data index of the sound file.
    #[must_use]
    pub fn data_index(&self) -> i32 {
        int(self.item.data(), 3)
    }

    /// The sound file's size as the item records it.
    #[must_use]
    pub fn data_size(&self) -> i32 {
        int(self.item.data(), 4)
    }

    /// Ints after the known layout.
    #[must_use]
    pub fn extra(&self) -> &'a [I32] {
        self.item.data().get(INTS..).unwrap_or_default()
    }

    /// The name, read into `buf`.
    pub fn name<'b>(&self, buf: &'b mut [u8]) -> Result<Option<&'b str>> {
        data_string(&self.df, self.name_index(), buf)
    }

    /// The declared (inflated) size of the embedded data item, if any.
    #[must_use]
    pub fn data_len(&self) -> Option<usize> {
        if self.is_external() {
            return None;
        }
        index(self.data_index()).and_then(|i| self.df.data_size(i))
    }

    /// Inflates the embedded sound file (Opus) into `buf`.
    pub fn data_into<'b>(&self, buf: &'b mut [u8]) -> Result<&'b [u8]> {
        if self.is_external() {
            return Err(Error::new(ErrorKind::OutOfBounds, self.item.offset()));
        }
        data_into(
            &self.df,
            &self.item,
            self.data_index(),
            buf,
            "sound data index out of range",
        )
    }

    pub(super) fn check(item: &Item<'_>) -> Result<()> {
        super::field::require_len(item, INTS, "SOUND item shorter than 5 ints")
    }
}
