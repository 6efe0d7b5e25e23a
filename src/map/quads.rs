//! [`QuadLayer`]: quad layers (layer type 3) and their quads.

use zerocopy::FromBytes;
use zerocopy::little_endian::I32;

use super::field::{index, int, read_records};
use super::raw::{NAMED_INTS, QUAD_SIZE, QUADS_V1_INTS, Quad};
use crate::datafile::{DatafileView, Item};
use crate::error::{Error, Result};
use crate::i32string::I32String;

/// A quads layer (layer type 3): version 1 has 7 ints, version 2 adds a
/// name (10).
#[derive(Clone, Copy, Debug)]
pub struct QuadLayer<'a> {
    df: DatafileView<'a>,
    item: Item<'a>,
}

impl<'a> QuadLayer<'a> {
    pub(super) const fn new(df: DatafileView<'a>, item: Item<'a>) -> Self {
        Self { df, item }
    }

    /// The raw item.
    #[must_use]
    pub const fn item(&self) -> Item<'a> {
        self.item
    }

    /// The quads layer version (1 or 2).
    #[must_use]
    pub fn version(&self) -> i32 {
        int(self.item.data(), 3)
    }

    /// Number of quads.
    #[must_use]
    pub fn quad_count(&self) -> usize {
        usize::try_from(int(self.item.data(), 4)).unwrap_or(0)
    }

    /// Data index of the quads.
    #[must_use]
    pub fn data_index(&self) -> i32 {
        int(self.item.data(), 5)
    }

    /// Image index (−1: none).
    #[must_use]
    pub fn image(&self) -> i32 {
        int(self.item.data(), 6)
    }

    /// The name (version 2 and later).
    #[must_use]
    pub fn name(&self) -> Option<I32String<'a>> {
        if self.version() < 2 {
            return None;
        }
        self.item
            .data()
            .get(QUADS_V1_INTS..NAMED_INTS)
            .map(I32String::new)
    }

    /// Ints after the known layout of the item's version.
    #[must_use]
    pub fn extra(&self) -> &'a [I32] {
        let known = if self.version() < 2 {
            QUADS_V1_INTS
        } else {
            NAMED_INTS
        };
        self.item.data().get(known..).unwrap_or_default()
    }

    /// Bytes a buffer needs for [`quads_into`](Self::quads_into): the data
    /// item's inflated size (0 without quads).
    #[must_use]
    pub fn buffer_len(&self) -> usize {
        if self.quad_count() == 0 {
            return 0;
        }
        index(self.data_index())
            .and_then(|i| self.df.data_size(i))
            .unwrap_or(0)
    }

    /// Inflates the quads into `buf` (at least [`buffer_len`](Self::buffer_len)
    /// bytes) and returns [`quad_count`](Self::quad_count) of them.
    pub fn quads_into<'b>(&self, buf: &'b mut [u8]) -> Result<&'b [Quad]> {
        let bytes = read_records(
            &self.df,
            &self.item,
            self.data_index(),
            self.quad_count(),
            QUAD_SIZE,
            buf,
        )?;
        <[Quad]>::ref_from_bytes(bytes).map_err(|_| Error::truncated(bytes.len()))
    }
}
