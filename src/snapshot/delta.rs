//! The borrowed delta view and delta application into a caller buffer.

use core::iter::FusedIterator;

use zerocopy::FromBytes;
use zerocopy::little_endian::I32;

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

    /// Whether `key` is among the removed keys.
    fn removes(&self, key: u32) -> bool {
        self.removed.iter().any(|k| (k.get() as u32) == key)
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
/// Follows DDNet's `UnpackDelta`: the base items that are not removed keep
/// their order, new items follow in delta order; an item delta whose key
/// exists in the base is added element-wise with wrapping arithmetic (its
/// size must equal the base item's), otherwise it is the new item's data.
/// The result may hold at most [`MAX_ITEMS`] items and [`MAX_SIZE`] bytes of
/// item data.
///
/// Fails with [`ErrorKind::BufferTooSmall`] (`needed` in ints) when `out`
/// is too short, and with [`ErrorKind::Corrupt`] on size mismatches. Never
/// allocates.
pub fn apply<'o>(
    base: &SnapshotView<'_>,
    delta: &DeltaView<'_>,
    out: &'o mut [I32],
) -> Result<SnapshotView<'o>> {
    // Pass 1: check sizes and count the result's items and data ints.
    let mut items = 0usize;
    let mut data_ints = 0usize;
    for item in base.items().filter(|i| !delta.removes(i.key())) {
        items = items.saturating_add(1);
        data_ints = data_ints
            .saturating_add(item.data().len())
            .saturating_add(1);
    }
    for (index, d) in delta.items().enumerate() {
        let key = d.key();
        if let Some(b) = base.find_key(key) {
            if b.data().len() != d.data().len() {
                return Err(Error::corrupt(
                    "item delta size differs from the base item",
                    0,
                ));
            }
            if !delta.removes(key) {
                continue; // updates a kept item in place
            }
        }
        match delta.items().take(index).find(|e| e.key() == key) {
            Some(e) if e.data().len() != d.data().len() => {
                return Err(Error::corrupt(
                    "item delta size differs from an earlier one",
                    0,
                ));
            }
            Some(_) => {}
            None => {
                items = items.saturating_add(1);
                data_ints = data_ints.saturating_add(d.data().len()).saturating_add(1);
            }
        }
    }
    if items > MAX_ITEMS || data_ints.saturating_mul(4) > MAX_SIZE {
        return Err(Error::corrupt("snapshot limits exceeded", 0));
    }
    let needed = items.saturating_add(data_ints).saturating_add(2);
    let Some(out) = out.get_mut(..needed) else {
        return Err(Error::new(ErrorKind::BufferTooSmall { needed }, 0));
    };
    // Pass 2: write. The counts above make every index below in range.
    let (header, rest) = out.split_at_mut(2);
    if let [size, count] = header {
        *size = I32::new(i32::try_from(at(data_ints)).unwrap_or(i32::MAX));
        *count = I32::new(i32::try_from(items).unwrap_or(i32::MAX));
    }
    let (offsets, data) = rest.split_at_mut(items);
    let mut w = Writer {
        offsets,
        data,
        written: 0,
        pos: 0,
    };
    for item in base.items().filter(|i| !delta.removes(i.key())) {
        let start = w.push(item.key(), item.data().len());
        w.fill(start, item.data());
    }
    for d in delta.items() {
        let key = d.key();
        let start = match w.find(key) {
            Some(start) => start,
            None => w.push(key, d.data().len()),
        };
        match base.find_key(key) {
            Some(b) => w.add(start, b.data(), d.data()),
            None => w.fill(start, d.data()),
        }
    }
    SnapshotView::from_ints(out)
}

/// Writes items into the offsets and data sections of a snapshot.
struct Writer<'o> {
    offsets: &'o mut [I32],
    data: &'o mut [I32],
    written: usize,
    pos: usize,
}

impl Writer<'_> {
    /// Appends an item header for `key` with `len` data ints; returns where
    /// its data starts.
    fn push(&mut self, key: u32, len: usize) -> usize {
        if let Some(o) = self.offsets.get_mut(self.written) {
            *o = I32::new(i32::try_from(at(self.pos)).unwrap_or(i32::MAX));
        }
        if let Some(k) = self.data.get_mut(self.pos) {
            *k = I32::new(key as i32);
        }
        self.written = self.written.saturating_add(1);
        let start = self.pos.saturating_add(1);
        self.pos = start.saturating_add(len);
        start
    }

    /// Where the data of the written item with `key` starts, if any.
    fn find(&self, key: u32) -> Option<usize> {
        self.offsets.get(..self.written)?.iter().find_map(|off| {
            let start = usize::try_from(off.get()).ok()? / 4;
            let k = self.data.get(start)?;
            ((k.get() as u32) == key).then_some(start.saturating_add(1))
        })
    }

    /// Copies `src` to the data at `start`.
    fn fill(&mut self, start: usize, src: &[I32]) {
        if let Some(dst) = self.data.get_mut(start..start.saturating_add(src.len())) {
            dst.copy_from_slice(src);
        }
    }

    /// Writes `base + diff` (wrapping, element-wise) to the data at `start`.
    fn add(&mut self, start: usize, base: &[I32], diff: &[I32]) {
        let Some(dst) = self.data.get_mut(start..start.saturating_add(diff.len())) else {
            return;
        };
        for ((o, b), d) in dst.iter_mut().zip(base).zip(diff) {
            *o = I32::new(b.get().wrapping_add(d.get()));
        }
    }
}
