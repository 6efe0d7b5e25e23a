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
/// 0x7FFF (DDNet refuses those too). Never allocates; takes 1 to 18 KiB of
/// stack for its key index (by input size). Linear in the items of `base`
/// and `delta` (a removed key that occurs more than once in `base` costs a
/// pass over `base`).
pub fn apply<'o>(
    base: &SnapshotView<'_>,
    delta: &DeltaView<'_>,
    out: &'o mut [I32],
) -> Result<SnapshotView<'o>> {
    // The key index on the stack, no bigger than the keys need: zeroing
    // it is part of every call.
    match base.item_count().saturating_add(delta.update_count()) {
        0..=64 => apply_in::<128, 64>(base, delta, out),
        65..=256 => apply_in::<512, 256>(base, delta, out),
        _ => apply_in::<SLOTS, MAX_ITEMS>(base, delta, out),
    }
}

/// [`apply`] with a key index of `S` slots and room for `N` new items
/// (`S` at least twice the base items and item deltas, `N` at least the
/// item deltas, or both the largest).
fn apply_in<'o, const S: usize, const N: usize>(
    base: &SnapshotView<'_>,
    delta: &DeltaView<'_>,
    out: &'o mut [I32],
) -> Result<SnapshotView<'o>> {
    let limits = || Error::corrupt("snapshot limits exceeded", 0);
    let n = base.item_count();
    if n > MAX_ITEMS {
        return Err(limits());
    }
    // Per key: its first base item, and the output item of a key the
    // delta adds.
    let mut slots = [0u64; S];
    let mut table = KeyIndex::new(&mut slots, n.saturating_add(delta.update_count()), 1);
    let mut duplicates = false;
    for (i, key) in base.keys().enumerate() {
        duplicates |= !table.insert(key, entry_bits(i)).ok_or_else(limits)?;
    }

    // The base items kept: all but those with a removed key.
    let mut kept = [0u64; MAX_ITEMS / 64];
    for (w, word) in kept.iter_mut().enumerate() {
        let bits = n.saturating_sub(w.saturating_mul(64)).min(64);
        *word = u64::MAX
            .checked_shr(64u32.saturating_sub(bits as u32))
            .unwrap_or(0);
    }
    let mut drop = |i: usize| {
        if let Some(word) = kept.get_mut(i / 64) {
            *word &= !(1 << (i % 64));
        }
    };
    for key in delta.removed_keys() {
        let Some(first) = table.get(key).and_then(entry_base) else {
            continue;
        };
        if duplicates {
            let later = base.keys().enumerate().skip(first);
            later.filter(|&(_, k)| k == key).for_each(|(i, _)| drop(i));
        } else {
            drop(first);
        }
    }
    // Kept items before each bitmap word: a kept base item's output index
    // is its rank among them.
    let mut ranks = [0u16; MAX_ITEMS / 64];
    let mut kept_items = 0u16;
    for (r, word) in ranks.iter_mut().zip(&kept) {
        *r = kept_items;
        kept_items = kept_items.saturating_add(word.count_ones() as u16);
    }
    let is_kept = |b: usize| kept.get(b / 64).is_some_and(|w| w >> (b % 64) & 1 != 0);
    let rank = |b: usize| {
        let below = kept
            .get(b / 64)
            .map_or(0, |w| (w & !(u64::MAX << (b % 64))).count_ones());
        usize::from(ranks.get(b / 64).copied().unwrap_or(0)).saturating_add(below as usize)
    };
    // The output item of `v`'s key, and whether it is a kept base item.
    let out_item = |v: u32| match entry_base(v).filter(|&b| is_kept(b)) {
        Some(b) => Some(rank(b)),
        None => entry_out(v),
    };

    // Pass 1: sizes, output item indices and offsets (written while `out`
    // has room; they do not depend on the item count).
    let mut new_sizes = [0u16; N];
    let mut items = 0usize;
    let mut data_ints = 0usize;
    let mut push = |len: usize, out: &mut [I32]| -> Result<usize> {
        let index = items;
        if index >= MAX_ITEMS {
            return Err(limits());
        }
        if let Some(o) = out.get_mut(index.saturating_add(2)) {
            *o = I32::new(i32::try_from(at(data_ints)).unwrap_or(i32::MAX));
        }
        data_ints = data_ints.saturating_add(len).saturating_add(1);
        items = index.saturating_add(1);
        Ok(index)
    };
    for (i, item) in base.items().enumerate() {
        if !is_kept(i) {
            continue;
        }
        if item.type_id() > MAX_TYPE {
            return Err(Error::corrupt("base item type out of range", 0));
        }
        push(item.data().len(), out)?;
    }
    let kept_items = usize::from(kept_items);
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
        let out_len = match out_item(v) {
            None => {
                let index = push(len, out)?;
                let new = index.saturating_sub(kept_items);
                if let Some(s) = new_sizes.get_mut(new) {
                    *s = u16::try_from(len).map_err(|_| limits())?;
                }
                let bits = v | entry_bits(index) << INDEX_BITS;
                if v == 0 {
                    table.insert(key, bits).ok_or_else(limits)?;
                } else {
                    table.update(key, bits);
                }
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
    let mut i = 0usize;
    while i < n {
        if !is_kept(i) {
            i = i.saturating_add(1);
            continue;
        }
        let mut end = i.saturating_add(1);
        while end < n && is_kept(end) {
            end = end.saturating_add(1);
        }
        let span = base.item_span(i..end).unwrap_or_default();
        let to = pos.saturating_add(span.len());
        if let Some(dst) = data.get_mut(pos..to) {
            dst.copy_from_slice(span);
        }
        pos = to;
        i = end;
    }
    for d in delta.items() {
        let key = d.key();
        let v = table.get(key).unwrap_or(0);
        let Some(start) = out_item(v)
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

// What `apply` keeps per key: its first base item + 1 (bits 0..11) and,
// for a key the delta adds, its output item + 1 (bits 11..22). Item
// indices are below MAX_ITEMS = 1024.
const INDEX_BITS: u32 = 11;
const INDEX_MASK: u32 = (1 << INDEX_BITS) - 1;

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
