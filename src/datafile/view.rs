//! [`DatafileView`]: the validated, borrowed view of a datafile.

use core::borrow::BorrowMut;
use core::iter::FusedIterator;

use uuid::Uuid;
use zerocopy::FromBytes;
use zerocopy::little_endian::I32;

use super::raw::{HEADER_LEN, Header, ItemHeader, ItemType};
use super::{ITEMTYPE_EX, data_string};
use miniz_oxide::inflate::core::DecompressorOxide;

use crate::error::{Error, ErrorKind, Result};
use crate::format::{DATAFILE_MAGIC, DATAFILE_MAGIC_SWAPPED};
use crate::warning::{Warn, Warning, WarningKind, report};

/// Highest number of item types a datafile may declare (DDNet's limit).
const MAX_ITEM_TYPES: u64 = 65_536;

/// A datafile, validated once by [`DatafileView::parse`] and then read in
/// place: every accessor is cheap and none can panic.
#[derive(Clone, Copy, Debug)]
pub struct DatafileView<'a> {
    file: &'a [u8],
    version: u32,
    item_types: &'a [ItemType],
    item_offsets: &'a [I32],
    data_offsets: &'a [I32],
    /// Empty for version 3.
    data_sizes: &'a [I32],
    items_start: usize,
    items: &'a [u8],
    data_start: usize,
    data: &'a [u8],
    strict: bool,
}

/// One item: a type, an id and little-endian ints borrowed from the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Item<'a> {
    type_id: u16,
    id: u16,
    data: &'a [I32],
    offset: usize,
}

impl<'a> Item<'a> {
    /// The item's type (for UUID types, the file's internal type number).
    #[must_use]
    pub const fn type_id(&self) -> u16 {
        self.type_id
    }

    /// The item's id, unique within its type (except in files with the
    /// [`DuplicateItemId`](WarningKind::DuplicateItemId) quirk).
    #[must_use]
    pub const fn id(&self) -> u16 {
        self.id
    }

    /// The item's data ints, borrowed in place.
    #[must_use]
    pub const fn data(&self) -> &'a [I32] {
        self.data
    }

    /// The data int at `index` as an `i32`, if the item is long enough.
    #[must_use]
    pub fn int(&self, index: usize) -> Option<i32> {
        self.data.get(index).map(|v| v.get())
    }

    /// Byte offset of the item's header in the file.
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.offset
    }
}

/// One entry of the item type table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ItemTypeEntry {
    /// The item type.
    pub type_id: u16,
    /// Index of its first item.
    pub start: usize,
    /// Number of its items.
    pub count: usize,
}

fn header_field(file_offset: usize, value: I32) -> Result<u64> {
    u64::try_from(value.get()).map_err(|_| Error::corrupt("negative header field", file_offset))
}

/// Reads a table of `n` `T`s at `*pos` and advances `*pos`.
fn table<'a, T: FromBytes + zerocopy::KnownLayout + zerocopy::Immutable>(
    file: &'a [u8],
    pos: &mut usize,
    n: usize,
) -> Result<&'a [T]> {
    let rest = file.get(*pos..).unwrap_or_default();
    let (out, tail) =
        <[T]>::ref_from_prefix_with_elems(rest, n).map_err(|_| Error::truncated(file.len()))?;
    *pos = file.len().saturating_sub(tail.len());
    Ok(out)
}

/// Checks that `offsets` start at 0, strictly increase and stay below
/// `section_len`; `table_at` is the table's file offset, for errors.
fn check_offsets(offsets: &[I32], section_len: usize, table_at: usize) -> Result<()> {
    let mut prev: Option<i32> = None;
    for (i, off) in offsets.iter().enumerate() {
        let at = table_at.saturating_add(i.saturating_mul(4));
        let off = off.get();
        let ok_order = match prev {
            None => off == 0,
            Some(p) => off > p,
        };
        if !ok_order {
            return Err(Error::corrupt("offsets do not start at 0 and increase", at));
        }
        if usize::try_from(off).map_or(true, |o| o >= section_len) {
            return Err(Error::new(ErrorKind::OutOfBounds, at));
        }
        prev = Some(off);
    }
    if offsets.is_empty() && section_len != 0 {
        return Err(Error::corrupt("section has bytes but no entries", table_at));
    }
    Ok(())
}

/// A set of 16-bit ids on the stack (8 KiB), for the uniqueness checks.
pub(crate) struct IdSet([u64; 1024]);

impl IdSet {
    /// An empty set.
    pub(crate) const fn new() -> Self {
        Self([0; 1024])
    }

    /// Inserts `id`; returns false if it was present.
    pub(crate) fn insert(&mut self, id: u16) -> bool {
        let (word, bit) = (usize::from(id >> 6), 1u64 << (id & 63));
        match self.0.get_mut(word) {
            Some(w) if *w & bit == 0 => {
                *w |= bit;
                true
            }
            _ => false,
        }
    }

    fn remove(&mut self, id: u16) {
        if let Some(w) = self.0.get_mut(usize::from(id >> 6)) {
            *w &= !(1u64 << (id & 63));
        }
    }
}

impl<'a> DatafileView<'a> {
    /// Validates `file` as a version 3 or 4 datafile and returns a view of
    /// it, reading the quirks engines accept (warnings are dropped; see
    /// [`parse_with`](Self::parse_with)).
    ///
    /// Applies every structural rule DDNet checks when it opens a map: the
    /// magic and version, non-negative counts, the exact file length, the
    /// `size`/`swaplen` fields (accepting the old-v4 writers that left the
    /// data size table out of them), a consistent item type table, increasing
    /// item and data offsets, and per item a size matching its offsets and
    /// the type of its table entry. Work is proportional to the file's real
    /// size, never to a count it claims.
    pub fn parse(file: &'a [u8]) -> Result<Self> {
        Self::parse_with(file, &mut ())
    }

    /// [`parse`](Self::parse), reporting each quirk to `warn`:
    /// [`DuplicateItemId`](WarningKind::DuplicateItemId) for two items of
    /// one type with the same id (type 0xFFFF excepted: DDNet tools wrote
    /// many such duplicates), [`EmptyDataItem`](WarningKind::EmptyDataItem)
    /// for each version 4 data item declared 0 bytes long.
    pub fn parse_with<W: Warn + ?Sized>(file: &'a [u8], warn: &mut W) -> Result<Self> {
        Self::parse_mode(file, false, warn)
    }

    /// Validates `file` as current DDNet does: a duplicate item id within a
    /// type refuses the file (DDNet since 4de2f4f6, 2025-03), and a version
    /// 4 data item declared 0 bytes long fails when it is read (DDNet since
    /// e3d028bd, 2025-05, opens the file and declines that one item; see
    /// `CDataFileReader` in `src/engine/shared/datafile.cpp` at 28baa427).
    /// The errors are [`ErrorKind::Refused`].
    pub fn parse_strict(file: &'a [u8]) -> Result<Self> {
        Self::parse_mode(file, true, &mut ())
    }

    /// Whether this view was made by [`parse_strict`](Self::parse_strict).
    #[must_use]
    pub const fn is_strict(&self) -> bool {
        self.strict
    }

    fn parse_mode<W: Warn + ?Sized>(file: &'a [u8], strict: bool, warn: &mut W) -> Result<Self> {
        let Some(magic) = file.get(..4) else {
            return Err(Error::truncated(file.len()));
        };
        if magic != DATAFILE_MAGIC && magic != DATAFILE_MAGIC_SWAPPED {
            return Err(Error::new(ErrorKind::BadMagic, 0));
        }
        let (header, _) = Header::ref_from_prefix(file).map_err(|_| {
            // A short file with a valid magic: report the version first if
            // it is readable and wrong.
            let version = file
                .get(4..8)
                .and_then(|v| <[u8; 4]>::try_from(v).ok())
                .map(i32::from_le_bytes);
            match version {
                Some(v) if v != 3 && v != 4 => {
                    Error::new(ErrorKind::UnsupportedVersion(i64::from(v)), 4)
                }
                _ => Error::truncated(file.len()),
            }
        })?;
        let version = match header.version.get() {
            3 => 3u32,
            4 => 4u32,
            v => return Err(Error::new(ErrorKind::UnsupportedVersion(i64::from(v)), 4)),
        };
        let num_item_types = header_field(16, header.num_item_types)?;
        let num_items = header_field(20, header.num_items)?;
        let num_data = header_field(24, header.num_data)?;
        let item_size = header_field(28, header.item_size)?;
        let data_size = header_field(32, header.data_size)?;
        if num_item_types > MAX_ITEM_TYPES {
            return Err(Error::corrupt("more than 65536 item types", 16));
        }
        if item_size % 4 != 0 {
            return Err(Error::corrupt("item section size not a multiple of 4", 28));
        }

        // Every field is below 2^31, so this u64 arithmetic never saturates.
        let data_tables = if version == 4 { 8 } else { 4 };
        let expected_len = [
            HEADER_LEN as u64,
            num_item_types.saturating_mul(12),
            num_items.saturating_mul(4),
            num_data.saturating_mul(data_tables),
            item_size,
            data_size,
        ]
        .iter()
        .fold(0u64, |sum, &n| sum.saturating_add(n));
        let file_len = file.len() as u64;
        if expected_len != file_len {
            return Err(Error::corrupt(
                "header sizes do not match the file length",
                8,
            ));
        }
        // i64 arithmetic on values below 2^33: cannot overflow.
        let size = i64::from(header.size.get()).saturating_add(16);
        let swaplen = i64::from(header.swaplen.get()).saturating_add(16);
        let file_len_i = i64::try_from(file_len).unwrap_or(i64::MAX);
        let swap_end = file_len_i.saturating_sub(i64::try_from(data_size).unwrap_or(i64::MAX));
        // Old v4 writers left the data size table out of size and swaplen.
        let quirk = if version == 4 {
            i64::try_from(num_data).unwrap_or(0).saturating_mul(4)
        } else {
            0
        };
        let sizes_ok = size == file_len_i && swaplen == swap_end;
        let quirk_ok = quirk != 0
            && size.saturating_add(quirk) == file_len_i
            && swaplen.saturating_add(quirk) == swap_end;
        if !sizes_ok && !quirk_ok {
            return Err(Error::corrupt(
                "size/swaplen fields do not match the file",
                8,
            ));
        }

        // All counts fit the file, so they fit usize.
        let to_usize = |v: u64| usize::try_from(v).unwrap_or(usize::MAX);
        let mut pos = HEADER_LEN;
        let item_types = table::<ItemType>(file, &mut pos, to_usize(num_item_types))?;
        let item_offsets_at = pos;
        let item_offsets = table::<I32>(file, &mut pos, to_usize(num_items))?;
        let data_offsets_at = pos;
        let data_offsets = table::<I32>(file, &mut pos, to_usize(num_data))?;
        let data_sizes_at = pos;
        let data_sizes = if version == 4 {
            table::<I32>(file, &mut pos, to_usize(num_data))?
        } else {
            &[]
        };
        let items_start = pos;
        let items = crate::bytes::subslice(file, pos, to_usize(item_size))?;
        let data_start = items_start.saturating_add(items.len());
        let data = file.get(data_start..).unwrap_or_default();

        check_offsets(item_offsets, items.len(), item_offsets_at)?;
        check_offsets(data_offsets, data.len(), data_offsets_at)?;
        for (i, s) in data_sizes.iter().enumerate() {
            let at = data_sizes_at.saturating_add(i.saturating_mul(4));
            if s.get() < 0 {
                return Err(Error::corrupt("negative data size", at));
            }
            if s.get() == 0 && !strict {
                let offset = data_offsets.get(i).map_or(0, |o| o.get());
                let at = data_start.saturating_add(usize::try_from(offset).unwrap_or(0));
                warn.warn(Warning::new(WarningKind::EmptyDataItem { index: i }, at));
            }
        }

        let view = Self {
            file,
            version,
            item_types,
            item_offsets,
            data_offsets,
            data_sizes,
            items_start,
            items,
            data_start,
            data,
            strict,
        };
        view.check_items(warn)?;
        Ok(view)
    }

    /// Checks the item type table and every item against it.
    fn check_items<W: Warn + ?Sized>(&self, warn: &mut W) -> Result<()> {
        let mut types_seen = IdSet::new();
        let mut ids = IdSet::new();
        let mut running = 0usize;
        for (t, entry) in self.item_types.iter().enumerate() {
            let at = HEADER_LEN.saturating_add(t.saturating_mul(12));
            let type_id = u16::try_from(entry.type_id.get())
                .map_err(|_| Error::corrupt("item type outside 0..=65535", at))?;
            if !types_seen.insert(type_id) {
                return Err(Error::corrupt("item type listed twice", at));
            }
            let count = usize::try_from(entry.num.get())
                .ok()
                .filter(|&n| n > 0)
                .ok_or(Error::corrupt(
                    "item type with no items",
                    at.saturating_add(8),
                ))?;
            if usize::try_from(entry.start.get()).ok() != Some(running) {
                return Err(Error::corrupt(
                    "item type start is not the running count",
                    at.saturating_add(4),
                ));
            }
            let end = running.saturating_add(count);
            if end > self.item_offsets.len() {
                return Err(Error::corrupt(
                    "item types claim more items than the file has",
                    at,
                ));
            }
            for index in running..end {
                let item = self.check_item(index)?;
                if item.type_id != type_id {
                    return Err(Error::corrupt(
                        "item type differs from its table entry",
                        item.offset,
                    ));
                }
                if !ids.insert(item.id) && type_id != ITEMTYPE_EX {
                    let kind = WarningKind::DuplicateItemId {
                        type_id,
                        id: item.id,
                    };
                    report(warn, self.strict, Warning::new(kind, item.offset))?;
                }
            }
            for index in running..end {
                ids.remove(self.item(index).map_or(0, |i| i.id));
            }
            running = end;
        }
        if running != self.item_offsets.len() {
            return Err(Error::corrupt("item types do not cover every item", 20));
        }
        Ok(())
    }

    /// Locates and checks item `index` against its offsets.
    fn check_item(&self, index: usize) -> Result<Item<'a>> {
        let Some(off) = self.item_offsets.get(index) else {
            return Err(Error::new(ErrorKind::OutOfBounds, self.items_start));
        };
        let start = usize::try_from(off.get()).unwrap_or(usize::MAX);
        let end = match self.item_offsets.get(index.saturating_add(1)) {
            Some(next) => usize::try_from(next.get()).unwrap_or(usize::MAX),
            None => self.items.len(),
        };
        let at = self.items_start.saturating_add(start);
        let body = self.items.get(start..end).unwrap_or_default();
        let Ok((head, rest)) = ItemHeader::ref_from_prefix(body) else {
            return Err(Error::corrupt("item shorter than its header", at));
        };
        if usize::try_from(head.size.get()).ok() != Some(rest.len()) {
            return Err(Error::corrupt(
                "item size does not match its offsets",
                at.saturating_add(4),
            ));
        }
        let data = <[I32]>::ref_from_bytes(rest)
            .map_err(|_| Error::corrupt("item size not a multiple of 4", at.saturating_add(4)))?;
        let v = head.type_and_id.get() as u32;
        Ok(Item {
            type_id: (v >> 16) as u16,
            id: (v & 0xFFFF) as u16,
            data,
            offset: at,
        })
    }

    /// The datafile version: 3 or 4.
    #[must_use]
    pub const fn version(&self) -> u32 {
        self.version
    }

    /// The whole file this view reads.
    #[must_use]
    pub const fn as_bytes(&self) -> &'a [u8] {
        self.file
    }

    /// Number of entries in the item type table.
    #[must_use]
    pub const fn item_type_count(&self) -> usize {
        self.item_types.len()
    }

    /// Number of items.
    #[must_use]
    pub const fn item_count(&self) -> usize {
        self.item_offsets.len()
    }

    /// Number of data items.
    #[must_use]
    pub const fn data_count(&self) -> usize {
        self.data_offsets.len()
    }

    /// The item type table, in file order.
    pub fn item_types(&self) -> impl ExactSizeIterator<Item = ItemTypeEntry> + 'a {
        self.item_types.iter().map(|t| ItemTypeEntry {
            // Validated in parse: 0..=65535 and non-negative counts.
            type_id: u16::try_from(t.type_id.get()).unwrap_or(0),
            start: usize::try_from(t.start.get()).unwrap_or(0),
            count: usize::try_from(t.num.get()).unwrap_or(0),
        })
    }

    /// Item number `index` in file order, or `None` past the end.
    #[must_use]
    pub fn item(&self, index: usize) -> Option<Item<'a>> {
        // Validated in parse, so this cannot fail for an index in range.
        self.check_item(index).ok()
    }

    /// Every item in file order.
    #[must_use]
    pub fn items(&self) -> Items<'a> {
        Items {
            view: *self,
            next: 0,
            end: self.item_count(),
        }
    }

    /// The item type table entry of `type_id`, if the file has that type.
    #[must_use]
    pub fn item_type(&self, type_id: u16) -> Option<ItemTypeEntry> {
        self.item_types().find(|t| t.type_id == type_id)
    }

    /// The items of one type, in file order (empty if the type is absent).
    #[must_use]
    pub fn items_of_type(&self, type_id: u16) -> Items<'a> {
        match self.item_type(type_id) {
            Some(t) => Items {
                view: *self,
                next: t.start,
                end: t.start.saturating_add(t.count),
            },
            None => Items {
                view: *self,
                next: 0,
                end: 0,
            },
        }
    }

    /// The item with this type and id; the first in file order when the
    /// file has the [`DuplicateItemId`](WarningKind::DuplicateItemId) quirk.
    #[must_use]
    pub fn find_item(&self, type_id: u16, id: u16) -> Option<Item<'a>> {
        self.items_of_type(type_id).find(|i| i.id == id)
    }

    /// The UUID of an extended item type: `Some` when `type_id` is above
    /// 0x8000, is not 0xFFFF, and a 0xFFFF index item with that id holds at
    /// least 16 bytes. Other types are plain numbers and give `None`.
    #[must_use]
    pub fn type_uuid(&self, type_id: u16) -> Option<Uuid> {
        if type_id <= 0x8000 || type_id == ITEMTYPE_EX {
            return None;
        }
        self.find_item(ITEMTYPE_EX, type_id)
            .and_then(|i| crate::bytes::uuid_from_ints(i.data))
    }

    /// The internal type number this file uses for the extended type `uuid`.
    #[must_use]
    pub fn type_for_uuid(&self, uuid: &Uuid) -> Option<u16> {
        self.items_of_type(ITEMTYPE_EX)
            .find(|i| {
                i.id > 0x8000
                    && i.id != ITEMTYPE_EX
                    && crate::bytes::uuid_from_ints(i.data).as_ref() == Some(uuid)
            })
            .map(|i| i.id)
    }

    /// The items of the extended type `uuid` (empty if the file has none).
    #[must_use]
    pub fn items_of_uuid(&self, uuid: &Uuid) -> Items<'a> {
        match self.type_for_uuid(uuid) {
            Some(t) => self.items_of_type(t),
            None => Items {
                view: *self,
                next: 0,
                end: 0,
            },
        }
    }

    /// The stored bytes of data item `index` (zlib-compressed in version 4).
    #[must_use]
    pub fn data_raw(&self, index: usize) -> Option<&'a [u8]> {
        let start = usize::try_from(self.data_offsets.get(index)?.get()).ok()?;
        let end = match self.data_offsets.get(index.saturating_add(1)) {
            Some(next) => usize::try_from(next.get()).ok()?,
            None => self.data.len(),
        };
        self.data.get(start..end)
    }

    /// Byte offset of data item `index` in the file.
    #[must_use]
    pub fn data_offset(&self, index: usize) -> Option<usize> {
        let start = usize::try_from(self.data_offsets.get(index)?.get()).ok()?;
        Some(self.data_start.saturating_add(start))
    }

    /// The size data item `index` has once inflated: the declared size in
    /// version 4, the stored size in version 3.
    #[must_use]
    pub fn data_size(&self, index: usize) -> Option<usize> {
        if self.version == 3 {
            return self.data_raw(index).map(<[u8]>::len);
        }
        usize::try_from(self.data_sizes.get(index)?.get()).ok()
    }

    /// Inflates data item `index` into `out` without allocating, and
    /// returns the filled part of `out`.
    ///
    /// `out` must hold [`data_size`](Self::data_size) bytes, otherwise the
    /// error is [`ErrorKind::BufferTooSmall`] with that size. The zlib stream
    /// is never inflated past the declared size: a stream that would produce
    /// more, or less, is an [`ErrorKind::Decompress`] error. A declared size
    /// of 0 ([`EmptyDataItem`](WarningKind::EmptyDataItem)) reads as empty
    /// when its stream inflates to nothing, and is
    /// [`ErrorKind::Refused`] in a strict view (DDNet declines to load such
    /// items). Version 3 data is copied.
    pub fn decompress_into<'o>(&self, index: usize, out: &'o mut [u8]) -> Result<&'o [u8]> {
        // A state made only when miniz_oxide inflates (feature
        // `fast-inflate`: not for the items libdeflate takes).
        self.decompress_by(index, out, |src, dst| {
            inflate_item(src, dst, DecompressorOxide::new)
        })
    }

    /// [`decompress_into`](Self::decompress_into) with the caller's inflate
    /// state (about 11 KB), which it resets: on a small target, a static
    /// one instead of 11 KB of stack at every call. With feature
    /// `fast-inflate` the state is used only for the items libdeflate does
    /// not take (see there).
    pub fn decompress_with<'o>(
        &self,
        index: usize,
        out: &'o mut [u8],
        state: &mut DecompressorOxide,
    ) -> Result<&'o [u8]> {
        self.decompress_by(index, out, |src, dst| inflate_item(src, dst, || state))
    }

    /// [`decompress_into`](Self::decompress_into) with `inflate`, which
    /// fills its `dst` exactly from the zlib stream `src`.
    fn decompress_by<'o>(
        &self,
        index: usize,
        out: &'o mut [u8],
        inflate: impl FnOnce(&[u8], &mut [u8]) -> Result<()>,
    ) -> Result<&'o [u8]> {
        let (raw, at) = match (self.data_raw(index), self.data_offset(index)) {
            (Some(raw), Some(at)) => (raw, at),
            _ => return Err(Error::new(ErrorKind::OutOfBounds, self.data_start)),
        };
        let size = self.data_size(index).unwrap_or(0);
        let Some(dst) = out.get_mut(..size) else {
            return Err(Error::new(ErrorKind::BufferTooSmall { needed: size }, at));
        };
        if self.version == 3 {
            dst.copy_from_slice(raw);
            return Ok(dst);
        }
        if size == 0 && self.strict {
            return Err(Error::from(Warning::new(
                WarningKind::EmptyDataItem { index },
                at,
            )));
        }
        inflate(raw, dst).map_err(|e| e.shifted(at))?;
        Ok(dst)
    }

    /// Inflates data item `index` into a new `Vec` of its declared size.
    ///
    /// A declared size that the stored bytes cannot possibly inflate to (zlib
    /// expands at most 1032:1) fails before anything is allocated.
    #[cfg(feature = "alloc")]
    pub fn decompress(&self, index: usize) -> Result<alloc::vec::Vec<u8>> {
        let raw_len = self.data_raw(index).map_or(0, <[u8]>::len);
        let size = self.data_size(index).unwrap_or(0);
        let at = self.data_offset(index).unwrap_or(self.data_start);
        if self.version == 4 && size > raw_len.saturating_mul(1032).saturating_add(64) {
            return Err(Error::new(ErrorKind::Decompress, at));
        }
        let mut out = alloc::vec![0u8; size];
        self.decompress_into(index, &mut out)?;
        Ok(out)
    }

    /// Inflates data item `index` into `buf` and reads it as a data string:
    /// NUL exactly at the last byte, no NUL before it, valid UTF-8.
    pub fn data_str<'o>(&self, index: usize, buf: &'o mut [u8]) -> Result<&'o str> {
        let at = self.data_offset(index).unwrap_or(self.data_start);
        let bytes = self.decompress_into(index, buf)?;
        data_string(bytes).map_err(|e| e.shifted(at))
    }
}

/// Inflates the zlib stream `src` into exactly `dst.len()` bytes (for an
/// empty `dst`: checks that the stream is complete and inflates to nothing)
/// with `state`, which it resets.
fn inflate_exact(src: &[u8], dst: &mut [u8], state: &mut DecompressorOxide) -> Result<()> {
    use miniz_oxide::inflate::TINFLStatus;
    use miniz_oxide::inflate::core::{decompress, inflate_flags};
    state.init();
    let flags = inflate_flags::TINFL_FLAG_PARSE_ZLIB_HEADER
        | inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
    let (status, consumed, written) = decompress(state, src, dst, 0, flags);
    match status {
        TINFLStatus::Done if written == dst.len() => Ok(()),
        _ => Err(Error::new(ErrorKind::Decompress, consumed)),
    }
}

/// Inflates the zlib stream `src` into exactly `dst.len()` bytes: through
/// libdeflate when feature `fast-inflate` is on and [`by_libdeflate`] says
/// so, else through miniz_oxide with the state `state` gives (asked for
/// only then).
fn inflate_item<S: BorrowMut<DecompressorOxide>>(
    src: &[u8],
    dst: &mut [u8],
    state: impl FnOnce() -> S,
) -> Result<()> {
    #[cfg(feature = "fast-inflate")]
    if by_libdeflate(src, dst) {
        return inflate_libdeflate(src, dst);
    }
    inflate_exact(src, dst, state().borrow_mut())
}

/// Inflates the zlib stream `src` into exactly `dst.len()` bytes, through
/// libdeflate (feature `fast-inflate`): one decompressor per thread, reused.
/// On the corpus maps a load takes 40% fewer instructions and 21% less
/// time than with miniz_oxide (with its SIMD Adler-32), and the inflate 3
/// to 11 times fewer instructions on maps under 10 KB, where miniz_oxide
/// spends most of its time building its tables at each block (`init_tree`,
/// 84% of a 3 KB map's load). The same checks (header, Adler-32, exact
/// size); an error is reported at the data item's offset, as libdeflate
/// does not say where in the stream it stopped. Short streams that expand
/// much stay with miniz_oxide ([`by_libdeflate`]).
#[cfg(feature = "fast-inflate")]
fn inflate_libdeflate(src: &[u8], dst: &mut [u8]) -> Result<()> {
    use core::cell::RefCell;
    use libdeflater::Decompressor;
    std::thread_local! {
        static INFLATER: RefCell<Decompressor> = RefCell::new(Decompressor::new());
    }
    let len = dst.len();
    let mut inflate = |d: &mut Decompressor| d.zlib_decompress(src, dst);
    let written = INFLATER.with(|cell| match cell.try_borrow_mut() {
        Ok(mut d) => inflate(&mut d),
        // Not reentrant, but never a panic: a fresh one.
        Err(_) => inflate(&mut Decompressor::new()),
    });
    match written {
        Ok(n) if n == len => Ok(()),
        _ => Err(Error::new(ErrorKind::Decompress, 0)),
    }
}

/// Whether libdeflate inflates the stream `src` into `dst` (feature
/// `fast-inflate`), rather than miniz_oxide: not for a short stream that
/// expands more than 8 times. libdeflate's fast loop stops 25 bytes before
/// the end of its input, and its last loop copies matches byte by byte, so
/// a tile layer of 10 000 zero bytes in 33 bytes of stream was all copied
/// that way: maps made of such items (coverage.map, ctf7.map) took 1.4 to
/// 2.3 times as long as with miniz_oxide.
#[cfg(feature = "fast-inflate")]
fn by_libdeflate(src: &[u8], dst: &[u8]) -> bool {
    src.len() >= 1024 || dst.len() <= src.len().saturating_mul(8)
}

/// Iterator over items; see [`DatafileView::items`].
#[derive(Clone, Debug)]
pub struct Items<'a> {
    view: DatafileView<'a>,
    next: usize,
    end: usize,
}

impl<'a> Iterator for Items<'a> {
    type Item = Item<'a>;

    fn next(&mut self) -> Option<Item<'a>> {
        if self.next >= self.end {
            return None;
        }
        let item = self.view.item(self.next);
        self.next = if item.is_some() {
            self.next.saturating_add(1)
        } else {
            self.end
        };
        item
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.end.saturating_sub(self.next);
        (n, Some(n))
    }
}

impl ExactSizeIterator for Items<'_> {}
impl FusedIterator for Items<'_> {}
