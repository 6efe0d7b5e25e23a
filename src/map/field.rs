//! Reading map item fields: ints by index, "−1 means none" indices, ranges
//! of items of one type, and data items inflated into caller buffers. Every
//! item view of the map module reads its fields through these.

use zerocopy::little_endian::I32;

use crate::datafile::{DatafileView, Item, ItemTypeEntry};
use crate::error::{Error, Result};

/// Fails with a [`Corrupt`](crate::ErrorKind::Corrupt) error at the item
/// when it is shorter than `min` ints.
pub(super) fn require_len(item: &Item<'_>, min: usize, what: &'static str) -> Result<()> {
    if item.data().len() < min {
        return Err(Error::corrupt(what, item.offset()));
    }
    Ok(())
}

/// The int at `index`, or 0 past the end (callers checked the length).
pub(super) fn int(data: &[I32], index: usize) -> i32 {
    data.get(index).map_or(0, |v| v.get())
}

/// A non-negative int as an index; −1 (or any negative) means "none".
pub(super) fn index(value: i32) -> Option<usize> {
    usize::try_from(value).ok()
}

/// The items of one type: first item index and count.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ItemRange {
    start: usize,
    /// Number of items of the type.
    pub(super) count: usize,
}

impl ItemRange {
    /// The items of `type_id` in `df` (empty when there are none).
    pub(super) fn of(df: &DatafileView<'_>, type_id: u16) -> Self {
        df.item_type(type_id)
            .map_or(Self::default(), |t: ItemTypeEntry| Self {
                start: t.start,
                count: t.count,
            })
    }

    /// Item `index` of the range, or `None` past its end.
    pub(super) fn nth<'a>(&self, df: &DatafileView<'a>, index: usize) -> Option<Item<'a>> {
        if index >= self.count {
            return None;
        }
        df.item(self.start.checked_add(index)?)
    }
}

/// Data item `index` (an item field) as a data string in `buf`: `Ok(None)`
/// for −1 or an index past the data items; see
/// [`MapView::string`](super::MapView::string).
pub(super) fn data_string<'b>(
    df: &DatafileView<'_>,
    index: i32,
    buf: &'b mut [u8],
) -> Result<Option<&'b str>> {
    match self::index(index).filter(|&i| i < df.data_count()) {
        Some(i) => df.data_str(i, buf).map(Some),
        None => Ok(None),
    }
}

/// Inflates data item `index` (an item field; `None` for −1 or out of
/// range) into `buf`. `what` names the field for the error.
pub(super) fn data_into<'b>(
    df: &DatafileView<'_>,
    item: &Item<'_>,
    index: i32,
    buf: &'b mut [u8],
    what: &'static str,
) -> Result<&'b [u8]> {
    match self::index(index).filter(|&i| i < df.data_count()) {
        Some(i) => df.decompress_into(i, buf),
        None => Err(Error::corrupt(what, item.offset())),
    }
}

/// Inflates `count` records of `size` bytes from data item `data_index`
/// into `buf`; the data item may be longer. No records need no data.
pub(super) fn read_records<'b>(
    df: &DatafileView<'_>,
    item: &Item<'_>,
    data_index: i32,
    count: usize,
    size: usize,
    buf: &'b mut [u8],
) -> Result<&'b [u8]> {
    if count == 0 {
        return Ok(&[]);
    }
    let needed = count
        .checked_mul(size)
        .ok_or(Error::corrupt("layer too large", item.offset()))?;
    let Some(data) = index(data_index).filter(|&i| i < df.data_count()) else {
        return Err(Error::corrupt(
            "layer data index out of range",
            item.offset(),
        ));
    };
    let at = df.data_offset(data).unwrap_or(0);
    if df.data_size(data).unwrap_or(0) < needed {
        return Err(Error::corrupt("layer data shorter than its records", at));
    }
    let out = df.decompress_into(data, buf)?;
    Ok(out.get(..needed).unwrap_or_default())
}
