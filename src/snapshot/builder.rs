//! Building snapshots and deltas (feature `alloc`).
// Sizes and counts here are bounded by MAX_ITEMS and MAX_SIZE (checked in
// `SnapshotBuilder::add`) or by the length of an already validated view.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "sizes and counts are bounded by MAX_ITEMS and MAX_SIZE or by an already validated view"
)]

use alloc::vec::Vec;

use zerocopy::IntoBytes;
use zerocopy::little_endian::I32;

use super::{DeltaView, MAX_ITEMS, MAX_SIZE, MAX_TYPE, SnapshotView, apply, static_size};
use crate::error::{Error, ErrorKind, Result};

/// Builds a snapshot in int form: add items, then take the bytes.
///
/// ```
/// # fn main() -> Result<(), gamefmt::Error> {
/// use gamefmt::snapshot::{SnapshotBuilder, SnapshotView};
/// let mut b = SnapshotBuilder::new();
/// b.add(5, 0, &[1, 2, 3])?;
/// let bytes = b.finish();
/// let snap = SnapshotView::parse(&bytes)?;
/// assert_eq!((snap.item_count(), snap.checksum()), (1, 6));
/// # Ok(()) }
/// ```
#[derive(Clone, Debug, Default)]
pub struct SnapshotBuilder {
    keys: Vec<u32>,
    /// Start of each item's data in `data`.
    starts: Vec<usize>,
    data: Vec<i32>,
}

impl SnapshotBuilder {
    /// An empty builder.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends an item. Fails if `type_id` exceeds 0x7FFF, the key is
    /// already present, or the snapshot would exceed [`MAX_ITEMS`] items or
    /// [`MAX_SIZE`] bytes of item data.
    pub fn add(&mut self, type_id: u16, id: u16, data: &[i32]) -> Result<()> {
        if type_id > MAX_TYPE {
            return Err(Error::corrupt("item type out of range", 0));
        }
        let key = u32::from(type_id) << 16 | u32::from(id);
        if self.keys.contains(&key) {
            return Err(Error::corrupt("duplicate item key", 0));
        }
        let bytes = (self.data.len() + self.keys.len() + 1)
            .saturating_add(data.len())
            .saturating_mul(4);
        if self.keys.len() >= MAX_ITEMS || bytes > MAX_SIZE {
            return Err(Error::corrupt("snapshot limits exceeded", 0));
        }
        self.keys.push(key);
        self.starts.push(self.data.len());
        self.data.extend_from_slice(data);
        Ok(())
    }

    /// The number of items added.
    #[must_use]
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether no item was added.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The snapshot as little-endian bytes.
    #[must_use]
    pub fn finish(&self) -> Vec<u8> {
        let n = self.keys.len();
        let mut ints = Vec::with_capacity(2 + 2 * n + self.data.len());
        let data_size = (n + self.data.len()) * 4;
        ints.push(data_size as i32);
        ints.push(n as i32);
        for (i, &start) in self.starts.iter().enumerate() {
            ints.push(((start + i) * 4) as i32);
        }
        for (i, &key) in self.keys.iter().enumerate() {
            let start = self.starts.get(i).copied().unwrap_or_default();
            let end = self.starts.get(i + 1).copied().unwrap_or(self.data.len());
            ints.push(key as i32);
            ints.extend_from_slice(self.data.get(start..end).unwrap_or_default());
        }
        to_bytes(&ints)
    }
}

fn to_bytes(ints: &[i32]) -> Vec<u8> {
    ints.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Computes the delta that turns `from` into `to`, as DDNet's
/// `CreateDelta` does: keys of `from` missing in `to` are removed; items of
/// `to` that are new are sent whole, changed ones as wrapping differences,
/// unchanged ones not at all. The size field is written exactly for the
/// types `sizes` has no static size for.
///
/// Fails if an item of `to` does not have its type's static size, or has a
/// different size than the item with its key in `from` (a delta cannot
/// express that).
pub fn create_delta(
    from: &SnapshotView<'_>,
    to: &SnapshotView<'_>,
    sizes: &[u16],
) -> Result<Vec<u8>> {
    let mut ints: Vec<i32> = alloc::vec![0, 0, 0];
    let mut removed = 0i32;
    for item in from.items() {
        if to.index_of(item.key()).is_none() {
            ints.push(item.key() as i32);
            removed += 1;
        }
    }
    let mut updates = 0i32;
    for item in to.items() {
        let len = item.data().len();
        let fixed = static_size(sizes, item.type_id());
        if fixed.is_some_and(|n| n != len) {
            return Err(Error::corrupt("item size differs from its static size", 0));
        }
        let head = [i32::from(item.type_id()), i32::from(item.id())];
        match from.find_key(item.key()) {
            Some(old) if old.data().len() != len => {
                return Err(Error::corrupt("item changed size between snapshots", 0));
            }
            Some(old) if old.data() == item.data() => continue,
            Some(old) => {
                ints.extend_from_slice(&head);
                if fixed.is_none() {
                    ints.push(len as i32);
                }
                let diff = item
                    .data()
                    .iter()
                    .zip(old.data())
                    .map(|(n, o)| n.get().wrapping_sub(o.get()));
                ints.extend(diff);
            }
            None => {
                ints.extend_from_slice(&head);
                if fixed.is_none() {
                    ints.push(len as i32);
                }
                ints.extend(item.data().iter().map(|v| v.get()));
            }
        }
        updates += 1;
    }
    if let [r, u, ..] = ints.as_mut_slice() {
        *r = removed;
        *u = updates;
    }
    Ok(to_bytes(&ints))
}

/// Applies `delta` to `base` like [`apply`], into a new `Vec` of
/// little-endian bytes.
pub fn apply_to_vec(base: &SnapshotView<'_>, delta: &DeltaView<'_>) -> Result<Vec<u8>> {
    let needed = match apply(base, delta, &mut []) {
        Err(Error {
            kind: ErrorKind::BufferTooSmall { needed },
            ..
        }) => needed,
        Err(e) => return Err(e),
        Ok(view) => view.as_ints().len(),
    };
    let mut out = alloc::vec![I32::ZERO; needed];
    apply(base, delta, &mut out)?;
    Ok(out.as_bytes().to_vec())
}
