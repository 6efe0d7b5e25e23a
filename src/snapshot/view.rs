//! The borrowed snapshot view.

use core::iter::FusedIterator;

use uuid::Uuid;
use zerocopy::FromBytes;
use zerocopy::little_endian::I32;

use super::{EX_TYPES, TYPE_EX, at};
use crate::error::{Error, Result};

/// A validated snapshot in int form, borrowed from its ints.
///
/// Layout: `data_size`, `num_items`, `num_items` byte offsets, then the items
/// (`data_size` bytes), each a key and its data ints.
#[derive(Clone, Copy, Debug)]
pub struct SnapshotView<'a> {
    /// The whole snapshot, header included.
    ints: &'a [I32],
    /// Item offsets, in ints from the start of `data`.
    offsets: &'a [I32],
    /// The item section.
    data: &'a [I32],
}

/// One snapshot item: its key and its data ints, borrowed in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Item<'a> {
    key: u32,
    data: &'a [I32],
}

impl<'a> Item<'a> {
    /// The item key, `type_id << 16 | id`.
    #[must_use]
    pub const fn key(&self) -> u32 {
        self.key
    }

    /// The item type.
    #[must_use]
    pub const fn type_id(&self) -> u16 {
        (self.key >> 16) as u16
    }

    /// The item id.
    #[must_use]
    pub const fn id(&self) -> u16 {
        (self.key & 0xFFFF) as u16
    }

    /// The item's data ints (the key excluded).
    #[must_use]
    pub const fn data(&self) -> &'a [I32] {
        self.data
    }

    /// Data int `index`, or `None` past the end.
    #[must_use]
    pub fn int(&self, index: usize) -> Option<i32> {
        self.data.get(index).map(|v| v.get())
    }
}

/// The checksum DDNet uses: the wrapping sum of every data int.
fn sum(ints: &[I32]) -> i32 {
    ints.iter().fold(0i32, |s, v| s.wrapping_add(v.get()))
}

/// The header of a snapshot without items.
#[cfg(feature = "alloc")]
const EMPTY_INTS: [I32; 2] = [I32::ZERO; 2];

impl<'a> SnapshotView<'a> {
    /// The snapshot without items.
    #[cfg(feature = "alloc")]
    pub(crate) const EMPTY: SnapshotView<'static> = SnapshotView {
        ints: &EMPTY_INTS,
        offsets: &[],
        data: &[],
    };

    /// Validates a snapshot given as little-endian bytes.
    ///
    /// The length must be a multiple of 4; see [`SnapshotView::from_ints`]
    /// for the rules.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        let ints = <[I32]>::ref_from_bytes(bytes).map_err(|_| {
            Error::corrupt("snapshot length is not a multiple of 4", bytes.len() & !3)
        })?;
        Self::from_ints(ints)
    }

    /// Validates a snapshot given as ints, as DDNet's `CSnapshot::IsValid`
    /// does: `num_items` and `data_size` are non-negative, the length is
    /// exactly `2 + num_items` ints plus `data_size` bytes, and every offset
    /// is 4-aligned, within the data and at least one key (4 bytes) before
    /// the next one. Error offsets are byte offsets into the int array.
    pub fn from_ints(ints: &'a [I32]) -> Result<Self> {
        let view = Self::from_valid_ints(ints)?;
        view.check_offsets()?;
        Ok(view)
    }

    /// The header part of [`SnapshotView::from_ints`] (counts and lengths,
    /// O(1)) without the check of every item offset: for ints that passed
    /// `from_ints` before and did not change since (the snapshot the demo
    /// `Reconstructor` keeps). On other ints no accessor
    /// panics either (every one is bounds-checked), but items may read
    /// oddly.
    pub(crate) fn from_valid_ints(ints: &'a [I32]) -> Result<Self> {
        let [data_size, num_items, rest @ ..] = ints else {
            return Err(Error::truncated(at(ints.len())));
        };
        let (data_size, num_items) = (data_size.get(), num_items.get());
        let (Ok(num_items), Ok(data_bytes)) =
            (usize::try_from(num_items), usize::try_from(data_size))
        else {
            return Err(Error::corrupt("negative snapshot size or item count", 0));
        };
        if data_bytes % 4 != 0 {
            return Err(Error::corrupt(
                "snapshot data size is not a multiple of 4",
                0,
            ));
        }
        let data_ints = data_bytes / 4;
        let Some(offsets) = rest.get(..num_items) else {
            return Err(Error::truncated(at(ints.len())));
        };
        let Some(data) = rest.get(num_items..num_items.saturating_add(data_ints)) else {
            return Err(Error::truncated(at(ints.len())));
        };
        if rest.len() != num_items.saturating_add(data_ints) {
            return Err(Error::corrupt(
                "snapshot size does not match its header",
                at(num_items.saturating_add(data_ints).saturating_add(2)),
            ));
        }
        Ok(Self {
            ints,
            offsets,
            data,
        })
    }

    /// The offset rules of [`SnapshotView::from_ints`].
    fn check_offsets(&self) -> Result<()> {
        // Each item is a key plus data: its offset is 4-aligned and at least
        // 4 bytes before the next offset (or the end).
        let data_size = i32::try_from(self.data_size()).unwrap_or(i32::MAX);
        let offsets = self.offsets;
        let ends = offsets
            .iter()
            .skip(1)
            .map(|o| o.get())
            .chain(core::iter::once(data_size));
        for (index, (offset, end)) in offsets.iter().zip(ends).enumerate() {
            let offset = offset.get();
            let ok =
                offset >= 0 && offset % 4 == 0 && end.checked_sub(offset).is_some_and(|n| n >= 4);
            if !ok {
                return Err(Error::corrupt(
                    "bad snapshot item offset",
                    at(index.saturating_add(2)),
                ));
            }
        }
        Ok(())
    }

    /// The whole snapshot in int form, header included.
    #[must_use]
    pub const fn as_ints(&self) -> &'a [I32] {
        self.ints
    }

    /// The number of items.
    #[must_use]
    pub const fn item_count(&self) -> usize {
        self.offsets.len()
    }

    /// Bytes in the item section (keys and data).
    #[must_use]
    pub const fn data_size(&self) -> usize {
        self.data.len().saturating_mul(4)
    }

    /// Item `index` (in snapshot order), or `None` past the end.
    #[must_use]
    pub fn item(&self, index: usize) -> Option<Item<'a>> {
        let next = self.offsets.get(index.saturating_add(1));
        item_at(self.data, self.offsets.get(index)?, next)
    }

    /// The item keys in snapshot order (cheaper than [`Self::items`] when
    /// only keys are needed).
    pub(crate) fn keys(&self) -> impl Iterator<Item = u32> + 'a {
        let data = self.data;
        self.offsets.iter().map(move |o| {
            let key = usize::try_from(o.get()).ok().and_then(|o| data.get(o / 4));
            key.map_or(0, |k| k.get() as u32)
        })
    }

    /// The item offsets (in bytes from the start of the item area).
    pub(crate) const fn offsets(&self) -> &'a [I32] {
        self.offsets
    }

    /// Items `range` as they lie in the item area (each key and data, back
    /// to back), or `None` if out of range.
    pub(crate) fn item_span(&self, range: core::ops::Range<usize>) -> Option<&'a [I32]> {
        let start = usize::try_from(self.offsets.get(range.start)?.get()).ok()? / 4;
        let end = match self.offsets.get(range.end) {
            Some(next) => usize::try_from(next.get()).ok()? / 4,
            None => self.data.len(),
        };
        self.data.get(start..end)
    }

    /// The key of item `index`.
    #[cfg(feature = "alloc")]
    pub(crate) fn key(&self, index: usize) -> Option<u32> {
        let offset = usize::try_from(self.offsets.get(index)?.get()).ok()?;
        Some(self.data.get(offset / 4)?.get() as u32)
    }

    /// The items in snapshot order.
    #[must_use]
    pub fn items(&self) -> Items<'a> {
        Items {
            offsets: self.offsets.iter(),
            data: self.data,
        }
    }

    /// The index of the first item with `key`, or `None`.
    #[must_use]
    pub fn index_of(&self, key: u32) -> Option<usize> {
        self.offsets.iter().position(|o| {
            usize::try_from(o.get())
                .ok()
                .and_then(|o| self.data.get(o / 4))
                .is_some_and(|k| k.get() as u32 == key)
        })
    }

    /// The item with `key` (`type_id << 16 | id`), without allocating.
    #[must_use]
    pub fn find_key(&self, key: u32) -> Option<Item<'a>> {
        self.item(self.index_of(key)?)
    }

    /// The item of `type_id` and `id`.
    #[must_use]
    pub fn find(&self, type_id: u16, id: u16) -> Option<Item<'a>> {
        self.find_key(u32::from(type_id) << 16 | u32::from(id))
    }

    /// The snapshot checksum: the wrapping sum of every item's data ints
    /// (keys excluded).
    #[must_use]
    pub fn checksum(&self) -> i32 {
        self.items()
            .fold(0i32, |s, item| s.wrapping_add(sum(item.data)))
    }

    /// The UUID of an extended item type (`0x4000..=0x7FFF`), declared by
    /// the type-0 item with that id in this snapshot; `None` for other types
    /// or when no such declaration (of at least 4 ints) exists.
    #[must_use]
    pub fn type_uuid(&self, type_id: u16) -> Option<Uuid> {
        if !EX_TYPES.contains(&type_id) {
            return None;
        }
        crate::bytes::uuid_from_ints(self.find(TYPE_EX, type_id)?.data)
    }

    /// The extended type number this snapshot uses for `uuid`, if declared.
    #[must_use]
    pub fn type_for_uuid(&self, uuid: &Uuid) -> Option<u16> {
        self.items()
            .find(|i| {
                i.type_id() == TYPE_EX
                    && EX_TYPES.contains(&i.id())
                    && crate::bytes::uuid_from_ints(i.data).as_ref() == Some(uuid)
            })
            .map(|i| i.id())
    }
}

/// The item at byte offset `start` in `data`, the item area, which ends
/// at byte offset `next` (or with the area); `None` for a bad offset.
#[inline]
fn item_at<'a>(data: &'a [I32], start: &I32, next: Option<&I32>) -> Option<Item<'a>> {
    let start = usize::try_from(start.get()).ok()? / 4;
    let end = match next {
        Some(next) => usize::try_from(next.get()).ok()? / 4,
        None => data.len(),
    };
    let (key, data) = data.get(start..end)?.split_first()?;
    Some(Item {
        key: key.get() as u32,
        data,
    })
}

/// Iterator over a snapshot's items; see [`SnapshotView::items`].
#[derive(Clone, Debug)]
pub struct Items<'a> {
    /// The offsets of the items not yet returned.
    offsets: core::slice::Iter<'a, I32>,
    /// The item section.
    data: &'a [I32],
}

impl<'a> Iterator for Items<'a> {
    type Item = Item<'a>;

    #[inline]
    fn next(&mut self) -> Option<Item<'a>> {
        // Each item ends where the next begins: one offset read an item
        // (`SnapshotView::item` reads two).
        let start = self.offsets.next()?;
        let item = item_at(self.data, start, self.offsets.as_slice().first());
        if item.is_none() {
            // A bad offset ends the items, as `SnapshotView::item` does.
            self.offsets = [].iter();
        }
        item
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.offsets.len();
        (n, Some(n))
    }
}

impl ExactSizeIterator for Items<'_> {}
impl FusedIterator for Items<'_> {}
