//! Creating deltas (feature `alloc`), byte for byte as DDNet's
//! `CSnapshotDelta::CreateDelta` does.
// Positions in the output are bounded by the worst-case size computed from
// the two (validated) snapshots before writing.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "output positions are bounded by the worst case computed up front from validated views"
)]

use alloc::vec::Vec;

use zerocopy::IntoBytes;
use zerocopy::little_endian::I32;

use super::index::Slots;
use super::{MAX_ITEMS, MAX_TYPE, SnapshotView, static_size};
use crate::error::{Error, Result};

/// Computes deltas between snapshots, reusing its buffers: after the first
/// call of the largest size, [`DeltaCreator::create`] allocates nothing.
///
/// The output is DDNet's: the keys of `from` missing in `to` (in `from`
/// order), then for each item of `to` in order either the whole item (new
/// key) or its wrapping difference against the `from` item with that key
/// (first such item), left out when nothing changed; the size field only
/// for types `sizes` has no static size for. DDNet finds keys through a
/// hash of 256 buckets that holds at most 64 keys each; keys beyond that
/// (only more than 64 keys with one djb2 hash can get there) count as
/// absent, and so they do here. Where DDNet's `CreateDelta` returns 0
/// (nothing removed or changed), this returns the three-int empty delta.
///
/// ```
/// # fn main() -> Result<(), gamefmt::Error> {
/// use gamefmt::snapshot::{DeltaCreator, DeltaView, ITEM_SIZES_06, SnapshotBuilder};
/// let (mut a, mut b) = (SnapshotBuilder::new(), SnapshotBuilder::new());
/// a.add(5, 0, &[1, 2, 3])?;
/// b.add(5, 0, &[1, 2, 4])?;
/// let mut creator = DeltaCreator::new();
/// let delta = creator.create(&a.snapshot(), &b.snapshot(), ITEM_SIZES_06)?;
/// // No removed keys, one item delta: type 5 (static size), id 0, [0, 0, 1].
/// let ints: Vec<i32> = delta.iter().map(|v| v.get()).collect();
/// assert_eq!(ints, [0, 1, 0, 5, 0, 0, 0, 1]);
/// assert_eq!(DeltaView::from_ints(delta, ITEM_SIZES_06)?.update_count(), 1);
/// # Ok(()) }
/// ```
#[derive(Clone, Debug, Default)]
pub struct DeltaCreator {
    slots: Slots,
    out: Vec<I32>,
}

/// Buckets of DDNet's key hash, and the keys each holds at most.
const BUCKETS: usize = 256;
const BUCKET_KEYS: u8 = 64;

/// DDNet's bucket of `key`: djb2 over its four bytes, low byte first,
/// modulo 256.
fn bucket(key: u32) -> usize {
    let hash = key.to_le_bytes().iter().fold(5381u32, |h, &b| {
        h.wrapping_mul(33).wrapping_add(u32::from(b))
    });
    hash as usize % BUCKETS
}

/// An index of a snapshot's keys in [`Slots`].
#[derive(Clone, Copy)]
struct Index {
    stamp: u8,
    /// Every key went in once: no duplicate, no bucket overflow.
    unique: bool,
    /// At least the most keys any one of DDNet's buckets holds.
    fullest: usize,
}

/// Indexes the items of `snap` by key (first index wins), leaving out the
/// keys DDNet's full buckets would drop.
fn index(slots: &mut Slots, snap: &SnapshotView<'_>) -> Index {
    let n = snap.item_count();
    let stamp = slots.next_stamp();
    let mut table = slots.table(n, stamp);
    let mut unique = true;
    if n <= usize::from(BUCKET_KEYS) {
        // No bucket can overflow.
        for (i, key) in snap.keys().enumerate() {
            unique &= table.insert(key, i as u32) == Some(true);
        }
        return Index {
            stamp,
            unique,
            fullest: n,
        };
    }
    // Every key, counting DDNet's buckets on the way (four histograms, so
    // that keys in a row hitting one bucket do not wait on each other).
    let mut counts = [[0u16; BUCKETS]; 4];
    for (i, key) in snap.keys().enumerate() {
        unique &= table.insert(key, i as u32) == Some(true);
        if let Some(c) = counts.get_mut(i % 4).and_then(|h| h.get_mut(bucket(key))) {
            *c += 1;
        }
    }
    let fullest = (0..BUCKETS)
        .map(|b| counts.iter().filter_map(|h| h.get(b)).sum::<u16>())
        .max()
        .unwrap_or(0);
    if fullest <= u16::from(BUCKET_KEYS) {
        return Index {
            stamp,
            unique,
            fullest: fullest.into(),
        };
    }
    // Some bucket holds more than 64: again, dropping what DDNet drops.
    let stamp = slots.next_stamp();
    let mut table = slots.table(n, stamp);
    let mut fill = [0u8; BUCKETS];
    for (i, key) in snap.keys().enumerate() {
        if let Some(count) = fill.get_mut(bucket(key)) {
            if *count < BUCKET_KEYS {
                *count += 1;
                table.insert(key, i as u32);
            }
        }
    }
    Index {
        stamp,
        unique: false,
        fullest: fullest.into(),
    }
}

impl DeltaCreator {
    /// A creator with empty buffers.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The delta from `from` to `to` in int form, in a buffer the creator
    /// keeps until the next call.
    ///
    /// Fails (where DDNet would write a delta its own `UnpackDelta`
    /// refuses) if an item of `to` has a type above 0x7FFF, a size other
    /// than its type's static size, or a size other than that of the item
    /// with its key in `from`, or if a snapshot holds more than
    /// [`MAX_ITEMS`] items.
    pub fn create(
        &mut self,
        from: &SnapshotView<'_>,
        to: &SnapshotView<'_>,
        sizes: &[u16],
    ) -> Result<&[I32]> {
        if from.item_count() > MAX_ITEMS || to.item_count() > MAX_ITEMS {
            return Err(Error::corrupt("snapshot limits exceeded", 0));
        }
        // Header, every key of `from` removed, every item of `to` with
        // type, id and size.
        let worst = 3 + from.item_count() + 2 * to.item_count() + to.data_size() / 4;
        if self.out.len() < worst {
            self.out.resize(worst, I32::ZERO);
        }
        let out = self.out.as_mut_slice();

        let to_index = index(&mut self.slots, to);
        let table = self.slots.table(to.item_count(), to_index.stamp);
        let mut pos = 3;
        for key in from.keys() {
            if table.get(key).is_none() {
                if let Some(slot) = out.get_mut(pos) {
                    *slot = I32::new(key as i32);
                }
                pos += 1;
            }
        }
        let removed = pos - 3;

        // The past item of each item of `to`, found by walking `from`
        // alongside while both hold the same keys in the same order, but
        // for keys of `from` missing in `to` (removed, skipped) and items
        // of `to` after the end of `from` (new). That gives what DDNet's
        // hash gives as long as `to` has every key once and no bucket
        // overflow, and no bucket can overflow in `from` before the item
        // found: the keys of `from` before it are keys of `to` before this
        // item (at most `fullest - 1` in its bucket) and skipped keys.
        // From the first other difference on, through the index of `from`.
        let mut walk = to_index.unique.then_some(0usize);
        let mut skipped = 0usize;
        let mut from_stamp = None;
        let mut updates = 0usize;
        for item in to.items() {
            let key = item.key();
            while let Some(at) = walk {
                match from.key(at) {
                    Some(k) if k != key => {
                        let room = to_index.fullest + skipped < usize::from(BUCKET_KEYS);
                        let missing = self.slots.table(to.item_count(), to_index.stamp).get(k);
                        if room && missing.is_none() {
                            skipped += 1;
                            walk = Some(at + 1);
                        } else {
                            walk = None;
                        }
                    }
                    _ => break,
                }
            }
            let past = match walk {
                Some(at) if at < from.item_count() => {
                    walk = Some(at + 1);
                    Some(at)
                }
                Some(_) => None,
                None => {
                    let stamp =
                        *from_stamp.get_or_insert_with(|| index(&mut self.slots, from).stamp);
                    let table = self.slots.table(from.item_count(), stamp);
                    table.get(key).map(|p| p as usize)
                }
            };
            let len = item.data().len();
            let fixed = static_size(sizes, item.type_id());
            if item.type_id() > MAX_TYPE {
                return Err(Error::corrupt("item type out of range", 0));
            }
            if fixed.is_some_and(|n| n != len) {
                return Err(Error::corrupt("item size differs from its static size", 0));
            }
            let head = if fixed.is_some() { 2 } else { 3 };
            let Some(dst) = out.get_mut(pos..pos + head + len) else {
                break; // cannot happen: `worst` bounds every write
            };
            let (header, body) = dst.split_at_mut(head);
            match past.and_then(|p| from.item(p)) {
                Some(past) => {
                    if past.data().len() != len {
                        return Err(Error::corrupt("item changed size between snapshots", 0));
                    }
                    let mut changed = 0i32;
                    for ((d, new), old) in body.iter_mut().zip(item.data()).zip(past.data()) {
                        let diff = new.get().wrapping_sub(old.get());
                        changed |= diff;
                        *d = I32::new(diff);
                    }
                    if changed == 0 {
                        continue;
                    }
                }
                None => body.copy_from_slice(item.data()),
            }
            write_header(header, item.type_id(), item.id(), len);
            pos += head + len;
            updates += 1;
        }
        if let [r, u, zero, ..] = out {
            *r = I32::new(removed as i32);
            *u = I32::new(updates as i32);
            *zero = I32::ZERO;
        }
        Ok(out.get(..pos).unwrap_or_default())
    }
}

/// Type, id and (for a header of three) the size of an item delta.
fn write_header(header: &mut [I32], type_id: u16, id: u16, len: usize) {
    let fields = [i32::from(type_id), i32::from(id), len as i32];
    for (h, v) in header.iter_mut().zip(fields) {
        *h = I32::new(v);
    }
}

/// The delta from `from` to `to` as little-endian bytes, in a new `Vec`:
/// [`DeltaCreator::create`] without keeping a creator.
pub fn create_delta(
    from: &SnapshotView<'_>,
    to: &SnapshotView<'_>,
    sizes: &[u16],
) -> Result<Vec<u8>> {
    Ok(DeltaCreator::new()
        .create(from, to, sizes)?
        .as_bytes()
        .to_vec())
}
