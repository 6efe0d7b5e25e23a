//! The borrowed delta view and delta application into a caller buffer.

use core::iter::FusedIterator;

use zerocopy::FromBytes;
use zerocopy::little_endian::I32;

use super::index::{KeyIndex, SLOTS};
use super::{MAX_ITEMS, MAX_SIZE, MAX_TYPE, SnapshotView, at, static_size};
use crate::error::{Error, ErrorKind, Result};

/// A validated snapshot delta in int form, borrowed from its ints.
///
/// Layout: `num_removed`, `num_updates`, a zero int, `num_removed` keys,
/// then `num_updates` item deltas (`type`, `id`, the size in ints unless
/// the type has a static size, the data).
#[derive(Clone, Copy, Debug)]
pub struct DeltaView<'a> {
    removed: &'a [I32],
    updates: &'a [I32],
    num_updates: usize,
    sizes: &'a [u16],
}

/// One item delta: absolute data for a new item, or the wrapping
/// difference against the base item with the same key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ItemDelta<'a> {
    type_id: u16,
    id: u16,
    data: &'a [I32],
}

impl<'a> ItemDelta<'a> {
    /// The item type.
    #[must_use]
    pub const fn type_id(&self) -> u16 {
        self.type_id
    }

    /// The item id.
    #[must_use]
    pub const fn id(&self) -> u16 {
        self.id
    }

    /// The item key, `type_id << 16 | id`.
    #[must_use]
    pub const fn key(&self) -> u32 {
        (self.type_id as u32) << 16 | self.id as u32
    }

    /// The delta (or new item) data.
    #[must_use]
    pub const fn data(&self) -> &'a [I32] {
        self.data
    }
}

/// Reads the item delta at `ints[pos..]`; returns it and the position after
/// it. Error offsets are relative to `ints`.
fn read_item_delta<'a>(
    ints: &'a [I32],
    pos: usize,
    sizes: &[u16],
) -> Result<(ItemDelta<'a>, usize)> {
    let int = |i: usize| {
        ints.get(i)
            .map(|v| v.get())
            .ok_or(Error::truncated(at(ints.len())))
    };
    let type_id = int(pos)?;
    let type_id = u16::try_from(type_id)
        .ok()
        .filter(|&t| t <= MAX_TYPE)
        .ok_or(Error::corrupt("item delta type out of range", at(pos)))?;
    let id_at = pos.saturating_add(1);
    let id = u16::try_from(int(id_at)?)
        .map_err(|_| Error::corrupt("item delta id out of range", at(id_at)))?;
    let mut data_at = pos.saturating_add(2);
    let size = match static_size(sizes, type_id) {
        Some(n) => n,
        None => {
            let size = usize::try_from(int(data_at)?)
                .map_err(|_| Error::corrupt("negative item delta size", at(data_at)))?;
            data_at = data_at.saturating_add(1);
            size
        }
    };
    let end = data_at.saturating_add(size);
    let data = ints
        .get(data_at..end)
        .ok_or(Error::truncated(at(ints.len())))?;
    Ok((ItemDelta { type_id, id, data }, end))
}

impl<'a> DeltaView<'a> {
    /// Validates a delta given as little-endian bytes (a multiple of 4),
    /// reading sizes from the static size table `sizes` (for example
    /// [`super::ITEM_SIZES_06`]).
    pub fn parse(bytes: &'a [u8], sizes: &'a [u16]) -> Result<Self> {
        let ints = <[I32]>::ref_from_bytes(bytes)
            .map_err(|_| Error::corrupt("delta length is not a multiple of 4", bytes.len() & !3))?;
        Self::from_ints(ints, sizes)
    }

    /// Validates a delta given as ints: the counts are non-negative, every
    /// removed key and item delta lies inside `ints`, types are at most
    /// 0x7FFF, ids at most 0xFFFF and sizes non-negative. Ints after the
    /// last item delta are ignored, as in DDNet. Error offsets are byte
    /// offsets into the int array.
    pub fn from_ints(ints: &'a [I32], sizes: &'a [u16]) -> Result<Self> {
        let [num_removed, num_updates, _zero, rest @ ..] = ints else {
            return Err(Error::truncated(at(ints.len())));
        };
        let num_removed = usize::try_from(num_removed.get())
            .map_err(|_| Error::corrupt("negative removed item count", 0))?;
        let num_updates = usize::try_from(num_updates.get())
            .map_err(|_| Error::corrupt("negative item delta count", 4))?;
        let removed = rest
            .get(..num_removed)
            .ok_or(Error::truncated(at(ints.len())))?;
        let tail = rest.get(num_removed..).unwrap_or_default();
        let base = num_removed.saturating_add(3);
        let mut pos = 0usize;
        // Each item delta takes at least two ints, so a hostile count ends
        // at the end of the input.
        for _ in 0..num_updates {
            let (_, end) = read_item_delta(tail, pos, sizes).map_err(|e| e.shifted(at(base)))?;
            pos = end;
        }
        Ok(Self {
            removed,
            updates: tail.get(..pos).unwrap_or_default(),
            num_updates,
            sizes,
        })
    }

    /// The keys of items removed from the base snapshot.
    #[must_use]
    pub fn removed_keys(&self) -> impl ExactSizeIterator<Item = u32> + 'a {
        self.removed.iter().map(|k| k.get() as u32)
    }

    /// The number of item deltas.
    #[must_use]
    pub const fn update_count(&self) -> usize {
        self.num_updates
    }

    /// The item deltas in order.
    #[must_use]
    pub fn items(&self) -> ItemDeltas<'a> {
        ItemDeltas {
            ints: self.updates,
            pos: 0,
            left: self.num_updates,
            sizes: self.sizes,
        }
    }
}

/// Iterator over a delta's item deltas; see [`DeltaView::items`].
#[derive(Clone, Debug)]
pub struct ItemDeltas<'a> {
    ints: &'a [I32],
    pos: usize,
    left: usize,
    sizes: &'a [u16],
}

impl<'a> Iterator for ItemDeltas<'a> {
    type Item = ItemDelta<'a>;

    fn next(&mut self) -> Option<ItemDelta<'a>> {
        self.left = self.left.checked_sub(1)?;
        // Validated in `from_ints`, so this cannot fail.
        let (item, end) = read_item_delta(self.ints, self.pos, self.sizes).ok()?;
        self.pos = end;
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for ItemDeltas<'_> {}
impl FusedIterator for ItemDeltas<'_> {}

/// Applies `delta` to `base`, writing the new snapshot into `out`; returns a
/// view of it (a prefix of `out`).
///
/// The output is byte for byte DDNet's `UnpackDelta`: the base items whose
/// key is not removed keep their order, new items follow in delta order; an
/// item delta whose key exists in the base is added element-wise with
/// wrapping arithmetic to the first base item with that key (their sizes
/// must be equal), otherwise it is the new item's data; a second item delta
/// for a key overwrites the first. The result may hold at most
/// [`MAX_ITEMS`] items and [`MAX_SIZE`] bytes in all (header included).
///
/// Fails with [`ErrorKind::BufferTooSmall`] (`needed` in ints) when `out`
/// is too short, and with [`ErrorKind::Corrupt`] on size mismatches, a base
/// of more than [`MAX_ITEMS`] items or a kept base item of a type above
/// 0x7FFF (DDNet refuses those too). Never allocates; takes up to 19 KiB
/// of stack for its key index (by the delta's key count). Linear in the
/// items of `base` and `delta` (every further 1024 removed keys past the
/// first cost one more pass over the keys of `base`).
pub fn apply<'o>(
    base: &SnapshotView<'_>,
    delta: &DeltaView<'_>,
    out: &'o mut [I32],
) -> Result<SnapshotView<'o>> {
    // The key index on the stack, no bigger than the delta's keys need:
    // zeroing it is part of every call.
    match delta.removed.len().saturating_add(delta.update_count()) {
        0..=8 => apply_in::<16, 8>(base, delta, out),
        9..=64 => apply_in::<128, 64>(base, delta, out),
        _ => apply_in::<SLOTS, MAX_ITEMS>(base, delta, out),
    }
}

/// [`apply`] with a key index of `S` slots and room for `N` new items
/// (`N` = `S / 2`, and at least the item deltas unless `S` is the
/// largest).
fn apply_in<'o, const S: usize, const N: usize>(
    base: &SnapshotView<'_>,
    delta: &DeltaView<'_>,
    out: &'o mut [I32],
) -> Result<SnapshotView<'o>> {
    let n = base.item_count();
    if n > MAX_ITEMS {
        return Err(limits());
    }
    // The base items kept: all but those with a removed key.
    let mut kept = [0u64; MAX_ITEMS / 64];
    for (w, word) in kept.iter_mut().enumerate() {
        let bits = n.saturating_sub(w.saturating_mul(64)).min(64);
        *word = u64::MAX
            .checked_shr(64u32.saturating_sub(bits as u32))
            .unwrap_or(0);
    }

    // Pass 1: sizes, output item indices and offsets (written while `out`
    // has room; they do not depend on the item count).
    let mut new_sizes = [0u16; N];
    let mut layout = Layout {
        items: 0,
        data_ints: 0,
    };

    // The delta's keys, each with whether it is removed, its first base
    // item and its output item, found by a pass over the base keys: the
    // base items themselves are not indexed (a delta has a few keys, its
    // base hundreds of items). Removed keys that do not fit one table
    // beside the item deltas' keys take tables (and passes) of their own
    // first. Item deltas past the first MAX_ITEMS + 1 keys are never
    // looked up: pass 1 fails on an item count over MAX_ITEMS first.
    let mut slots = [0u64; S];
    let cap = S / 2;
    let updates = delta.update_count().min(MAX_ITEMS.saturating_add(1));
    let room = cap.saturating_sub(updates);
    let mut removed = delta.removed_keys();
    let mut stamp = 0u8;
    let mut table = loop {
        // At most 1 + 16 384 / 1024 tables: the stamp does not wrap.
        stamp = stamp.wrapping_add(1);
        let last = removed.len() <= room;
        let batch = if last { removed.len() } else { cap };
        let keys = if last {
            batch.saturating_add(updates)
        } else {
            batch
        };
        let mut table = KeyIndex::new(&mut slots, keys, stamp);
        let mut bloom = 0u64;
        for key in removed.by_ref().take(batch) {
            table.insert(key, REMOVED).ok_or_else(limits)?;
            bloom |= bloom_bit(key);
        }
        if last {
            let mut distinct = 0usize;
            for d in delta.items() {
                if distinct >= updates {
                    break;
                }
                let key = d.key();
                bloom |= bloom_bit(key);
                match table.find(key) {
                    Some((_, v)) if v & UPDATED != 0 => continue,
                    Some((pos, v)) => table.replace(pos, key, v | UPDATED),
                    None => {
                        table.insert(key, UPDATED).ok_or_else(limits)?;
                    }
                }
                distinct = distinct.saturating_add(1);
            }
        }
        for (i, key) in base.keys().enumerate() {
            // Most base keys are not the delta's: one bit test says so.
            let found = if bloom & bloom_bit(key) != 0 {
                table.find(key)
            } else {
                None
            };
            if let Some((pos, v)) = found {
                if v & REMOVED != 0 {
                    unkeep(&mut kept, i);
                }
                if last && entry_base(v).is_none() {
                    // The key's first base item, and its output item if
                    // kept: the kept items before it.
                    let out_bits = if is_kept(&kept, i) {
                        entry_bits(rank(&kept, i)) << INDEX_BITS
                    } else {
                        0
                    };
                    table.replace(pos, key, v | entry_bits(i) | out_bits);
                }
            }
            if last && key >> 16 > u32::from(MAX_TYPE) && is_kept(&kept, i) {
                return Err(Error::corrupt("base item type out of range", 0));
            }
        }
        if last {
            break table;
        }
    };
    // The kept items' offsets (while `out` has room; they do not depend on
    // the item count): each run of kept items keeps its offsets, less the
    // items dropped before it.
    let mut start = next_bit(&kept, 0, n, true);
    while start < n {
        let end = next_bit(&kept, start, n, false);
        let span = base.item_span(start..end).unwrap_or_default();
        let from = base.offsets().get(start..end).unwrap_or_default();
        let shift = from
            .first()
            .map_or(0, |o| o.get())
            .wrapping_sub(i32::try_from(at(layout.data_ints)).unwrap_or(0));
        let at_out = layout.items.saturating_add(2);
        let to = out.get_mut(at_out..).unwrap_or_default();
        for (o, f) in to.iter_mut().zip(from) {
            *o = I32::new(f.get().wrapping_sub(shift));
        }
        layout.items = layout.items.saturating_add(from.len());
        layout.data_ints = layout.data_ints.saturating_add(span.len());
        start = next_bit(&kept, end, n, true);
    }
    let kept_items = layout.items;
    for d in delta.items() {
        let key = d.key();
        let len = d.data().len();
        let v = table.get(key).unwrap_or(0);
        let base_len = entry_base(v)
            .and_then(|b| base.item(b))
            .map(|b| b.data().len());
        if base_len.is_some_and(|b| b != len) {
            return Err(Error::corrupt(
                "item delta size differs from the base item",
                0,
            ));
        }
        // The size of the output item the key already has, if any.
        let out_len = match entry_out(v) {
            None => {
                let index = layout.push(len, out)?;
                let new = index.saturating_sub(kept_items);
                if let Some(s) = new_sizes.get_mut(new) {
                    *s = u16::try_from(len).map_err(|_| limits())?;
                }
                table.update(key, v | entry_bits(index) << INDEX_BITS);
                continue;
            }
            Some(o) => match o.checked_sub(kept_items) {
                None => base_len,
                Some(new) => new_sizes.get(new).map(|&s| usize::from(s)),
            },
        };
        if out_len != Some(len) {
            return Err(Error::corrupt(
                "item delta size differs from an earlier one",
                0,
            ));
        }
    }
    let Layout { items, data_ints } = layout;
    let needed = items.saturating_add(data_ints).saturating_add(2);
    if at(needed) > MAX_SIZE {
        return Err(limits());
    }
    let Some(out) = out.get_mut(..needed) else {
        return Err(Error::new(ErrorKind::BufferTooSmall { needed }, 0));
    };

    // Pass 2: the header and the items.
    let (header, rest) = out.split_at_mut(2);
    if let [size, count] = header {
        *size = I32::new(i32::try_from(at(data_ints)).unwrap_or(i32::MAX));
        *count = I32::new(i32::try_from(items).unwrap_or(i32::MAX));
    }
    let (offsets, data) = rest.split_at_mut(items);
    // Kept items in a row lie back to back in the base as in the output:
    // one copy per run.
    let mut pos = 0usize;
    let mut start = next_bit(&kept, 0, n, true);
    while start < n {
        let end = next_bit(&kept, start, n, false);
        let span = base.item_span(start..end).unwrap_or_default();
        let to = pos.saturating_add(span.len());
        if let Some(dst) = data.get_mut(pos..to) {
            dst.copy_from_slice(span);
        }
        pos = to;
        start = next_bit(&kept, end, n, true);
    }
    for d in delta.items() {
        let key = d.key();
        let v = table.get(key).unwrap_or(0);
        let Some(start) = entry_out(v)
            .and_then(|o| offsets.get(o))
            .and_then(|off| usize::try_from(off.get() / 4).ok())
        else {
            continue; // cannot happen: pass 1 gave every key an output item
        };
        let end = start.saturating_add(d.data().len()).saturating_add(1);
        let Some((k, dst)) = data.get_mut(start..end).and_then(|s| s.split_first_mut()) else {
            continue; // cannot happen: pass 1 sized the item
        };
        *k = I32::new(key as i32);
        match entry_base(v).and_then(|b| base.item(b)) {
            Some(b) => {
                for ((o, b), d) in dst.iter_mut().zip(b.data()).zip(d.data()) {
                    *o = I32::new(b.get().wrapping_add(d.get()));
                }
            }
            None => dst.copy_from_slice(d.data()),
        }
    }
    SnapshotView::from_valid_ints(out)
}

/// The output items so far and their data ints (keys included).
struct Layout {
    items: usize,
    data_ints: usize,
}

impl Layout {
    /// Adds an item of `len` data ints; writes its offset into `out` while
    /// `out` has room (offsets do not depend on the item count); returns
    /// its index.
    fn push(&mut self, len: usize, out: &mut [I32]) -> Result<usize> {
        let index = self.items;
        if index >= MAX_ITEMS {
            return Err(limits());
        }
        if let Some(o) = out.get_mut(index.saturating_add(2)) {
            *o = I32::new(i32::try_from(at(self.data_ints)).unwrap_or(i32::MAX));
        }
        self.data_ints = self.data_ints.saturating_add(len).saturating_add(1);
        self.items = index.saturating_add(1);
        Ok(index)
    }
}

/// The error for a snapshot over [`MAX_ITEMS`] or [`MAX_SIZE`].
fn limits() -> Error {
    Error::corrupt("snapshot limits exceeded", 0)
}

/// Whether base item `i` is kept.
fn is_kept(kept: &[u64], i: usize) -> bool {
    kept.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 != 0)
}

/// The kept items before item `i`.
fn rank(kept: &[u64], i: usize) -> usize {
    let (words, bit) = (i / 64, i % 64);
    let below = kept.get(..words).unwrap_or_default();
    let whole = below.iter().map(|w| w.count_ones() as usize).sum::<usize>();
    let part = kept
        .get(words)
        .map_or(0, |w| (w & !(u64::MAX << bit)).count_ones());
    whole.saturating_add(part as usize)
}

/// A key's bit in a 64-bit filter of a set of keys (a Bloom filter with
/// one hash): no bit, no key.
fn bloom_bit(key: u32) -> u64 {
    1 << (key.wrapping_mul(0x9E37_79B1) >> 26)
}

/// Marks base item `i` as not kept.
fn unkeep(kept: &mut [u64], i: usize) {
    if let Some(word) = kept.get_mut(i / 64) {
        *word &= !(1 << (i % 64));
    }
}

/// The first item at or after `from` (below `n`) that is kept (`kept_or_not`
/// true) or not, or `n`: a word of the bitmap at a time.
fn next_bit(kept: &[u64], from: usize, n: usize, kept_or_not: bool) -> usize {
    let flip = if kept_or_not { 0 } else { u64::MAX };
    let mut w = from / 64;
    let mut word = kept.get(w).map_or(0, |&k| k ^ flip) & u64::MAX << (from % 64);
    while word == 0 {
        w = w.saturating_add(1);
        if w.saturating_mul(64) >= n {
            return n;
        }
        word = kept.get(w).map_or(0, |&k| k ^ flip);
    }
    w.saturating_mul(64)
        .saturating_add(word.trailing_zeros() as usize)
        .min(n)
}

// What `apply` keeps per delta key: its first base item + 1 (bits 0..11),
// its output item + 1 (bits 11..22), and whether it is removed (bit 22)
// and updated (bit 23). Item indices are below MAX_ITEMS = 1024.
const INDEX_BITS: u32 = 11;
const INDEX_MASK: u32 = (1 << INDEX_BITS) - 1;
const REMOVED: u32 = 1 << 22;
const UPDATED: u32 = 1 << 23;

/// Item `index` + 1, in the low index field.
fn entry_bits(index: usize) -> u32 {
    u32::try_from(index).map_or(0, |i| i.saturating_add(1) & INDEX_MASK)
}

fn entry_base(v: u32) -> Option<usize> {
    (v & INDEX_MASK).checked_sub(1).map(|i| i as usize)
}

fn entry_out(v: u32) -> Option<usize> {
    (v >> INDEX_BITS & INDEX_MASK)
        .checked_sub(1)
        .map(|i| i as usize)
}

/// Applies `delta` to `base` like [`apply`], into a new `Vec` of
/// little-endian bytes (feature `alloc`).
#[cfg(feature = "alloc")]
pub fn apply_to_vec(base: &SnapshotView<'_>, delta: &DeltaView<'_>) -> Result<alloc::vec::Vec<u8>> {
    use zerocopy::IntoBytes;
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
