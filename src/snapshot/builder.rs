//! Building snapshots (feature `alloc`).
// Sizes and counts here are bounded by MAX_ITEMS and MAX_SIZE (checked in
// `SnapshotBuilder::add` before anything is stored).
#![allow(
    clippy::arithmetic_side_effects,
    reason = "sizes and counts are bounded by MAX_ITEMS and MAX_SIZE, checked before use"
)]

use alloc::vec::Vec;

use zerocopy::IntoBytes;
use zerocopy::little_endian::I32;

use super::index::Slots;
use super::{MAX_ITEMS, MAX_SIZE, MAX_SNAPSHOT_INTS, MAX_TYPE, SnapshotView};
use crate::error::{Error, Result};

/// Builds snapshots in int form, laid out exactly as DDNet's
/// `CSnapshotBuilder` lays them out: items in the order added, each its key
/// then its data, offsets in bytes from the start of the item area.
///
/// A builder is meant to be reused: [`SnapshotBuilder::clear`] starts the
/// next snapshot and keeps every buffer, so that adding items and taking
/// the [`SnapshotBuilder::snapshot`] allocate nothing once the buffers have
/// grown (they are sized for the largest snapshot at creation). Unlike
/// DDNet's builder it refuses a key it already holds.
///
/// ```
/// # fn main() -> Result<(), gamefmt::Error> {
/// use gamefmt::snapshot::{SnapshotBuilder, SnapshotView};
/// let mut b = SnapshotBuilder::new();
/// b.add(5, 0, &[1, 2, 3])?;
/// assert_eq!(b.snapshot().checksum(), 6);
///
/// // The next tick: same buffers.
/// b.clear();
/// b.add(5, 0, &[1, 2, 4])?;
/// assert!(b.add(5, 0, &[0, 0, 0]).is_err(), "duplicate key");
/// let bytes = b.finish();
/// let snap = SnapshotView::parse(&bytes)?;
/// assert_eq!((snap.item_count(), snap.checksum()), (1, 7));
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct SnapshotBuilder {
    /// Byte offset of each item in `items`.
    offsets: Vec<I32>,
    /// The item area: each item's key, then its data.
    items: Vec<I32>,
    /// The keys added, for refusing duplicates.
    keys: Slots,
    /// Which table of `keys` this snapshot uses.
    stamp: u8,
    /// The finished snapshot of [`SnapshotBuilder::snapshot`].
    out: Vec<I32>,
}

impl Default for SnapshotBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl SnapshotBuilder {
    /// An empty builder, its buffers sized for the largest snapshot.
    #[must_use]
    pub fn new() -> Self {
        let mut keys = Slots::default();
        Self {
            offsets: Vec::with_capacity(MAX_ITEMS),
            items: Vec::with_capacity(MAX_SIZE / 4),
            stamp: keys.next_stamp(),
            keys,
            out: Vec::with_capacity(MAX_SNAPSHOT_INTS),
        }
    }

    /// Forgets every item, keeping the buffers, to build the next snapshot.
    pub fn clear(&mut self) {
        self.offsets.clear();
        self.items.clear();
        self.stamp = self.keys.next_stamp();
    }

    /// Appends an item. Fails, leaving the builder as it was, if `type_id`
    /// exceeds 0x7FFF, the key is already present, or the snapshot would
    /// exceed [`MAX_ITEMS`] items or [`MAX_SIZE`] bytes in all (header,
    /// offsets and items, DDNet's limit).
    pub fn add(&mut self, type_id: u16, id: u16, data: &[i32]) -> Result<()> {
        if type_id > MAX_TYPE {
            return Err(Error::corrupt("item type out of range", 0));
        }
        let n = self.offsets.len();
        // Header, offsets with this item's, items, this key and data.
        let bytes = (2 + n + 1 + self.items.len() + 1).saturating_add(data.len());
        if n >= MAX_ITEMS || bytes.saturating_mul(4) > MAX_SIZE {
            return Err(Error::corrupt("snapshot limits exceeded", 0));
        }
        let key = u32::from(type_id) << 16 | u32::from(id);
        if self.keys.table(MAX_ITEMS, self.stamp).insert(key, 0) != Some(true) {
            return Err(Error::corrupt("duplicate item key", 0));
        }
        self.offsets.push(I32::new((self.items.len() * 4) as i32));
        self.items.push(I32::new(key as i32));
        self.items.extend(data.iter().map(|&v| I32::new(v)));
        Ok(())
    }

    /// The number of items added.
    #[must_use]
    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    /// Whether no item was added.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// Writes the snapshot (header, offsets, items) to `out`, replacing
    /// its contents.
    fn write(&self, out: &mut Vec<I32>) {
        out.clear();
        out.push(I32::new((self.items.len() * 4) as i32));
        out.push(I32::new(self.offsets.len() as i32));
        out.extend_from_slice(&self.offsets);
        out.extend_from_slice(&self.items);
    }

    /// The snapshot so far, in a buffer the builder keeps (no allocation
    /// after the first call).
    pub fn snapshot(&mut self) -> SnapshotView<'_> {
        let mut out = core::mem::take(&mut self.out);
        self.write(&mut out);
        self.out = out;
        // The layout is valid by construction; `from_valid_ints` only
        // reads the header.
        SnapshotView::from_valid_ints(&self.out).unwrap_or(SnapshotView::EMPTY)
    }

    /// The snapshot as little-endian bytes, in a new `Vec`.
    #[must_use]
    pub fn finish(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(2 + self.offsets.len() + self.items.len());
        self.write(&mut out);
        out.as_bytes().to_vec()
    }
}
