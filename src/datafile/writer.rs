//! [`DatafileWriter`]: builds version 3 and 4 datafiles (feature `alloc`).

use alloc::vec::Vec;

use uuid::Uuid;

use super::ITEMTYPE_EX;
use super::raw::HEADER_LEN;
use crate::error::{Error, ErrorKind, Result};
use crate::format::DATAFILE_MAGIC;

/// Which datafile version [`DatafileWriter::finish`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum WriteVersion {
    /// Version 3: data items stored as they are.
    V3,
    /// Version 4: data items zlib-compressed, with a table of their sizes.
    V4,
}

/// Builds a datafile from items and data items.
///
/// Items are written grouped by type in ascending type order, and in the
/// order they were added within a type — the layout DDNet writes.
///
/// ```
/// # fn main() -> Result<(), gamefmt::Error> {
/// use gamefmt::datafile::{DatafileView, DatafileWriter, WriteVersion};
/// let mut w = DatafileWriter::new();
/// w.add_item(0, 0, &[1])?;
/// let data = w.add_data(b"hello\0");
/// let bytes = w.finish(WriteVersion::V4)?;
/// let view = DatafileView::parse(&bytes)?;
/// assert_eq!(view.decompress(data)?, b"hello\0");
/// # Ok(()) }
/// ```
#[derive(Clone, Debug, Default)]
pub struct DatafileWriter {
    items: Vec<(u16, u16, Vec<i32>)>,
    data: Vec<Vec<u8>>,
    /// Extended types handed out so far, with their internal numbers.
    ex_types: Vec<(Uuid, u16)>,
}

impl DatafileWriter {
    /// An empty writer.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an item. Fails if an item with this type and id exists already
    /// (type 0xFFFF excepted, as readers tolerate duplicates there).
    pub fn add_item(&mut self, type_id: u16, id: u16, data: &[i32]) -> Result<()> {
        if type_id != ITEMTYPE_EX && self.items.iter().any(|(t, i, _)| *t == type_id && *i == id) {
            return Err(Error::corrupt("duplicate item (type, id)", 0));
        }
        self.add_duplicate_item(type_id, id, data)
    }

    /// Adds an item even if one with this type and id exists already: the
    /// [`DuplicateItemId`](crate::WarningKind::DuplicateItemId) quirk of
    /// some real maps, for tests of readers.
    pub fn add_duplicate_item(&mut self, type_id: u16, id: u16, data: &[i32]) -> Result<()> {
        if data.len() > (i32::MAX as usize) / 4 {
            return Err(Error::new(ErrorKind::OutOfBounds, 0));
        }
        self.items.push((type_id, id, data.to_vec()));
        Ok(())
    }

    /// Adds an item of the extended type `uuid`, registering the type (the
    /// first UUID gets internal type 0xFFFE, the next 0xFFFD, …) and its
    /// 0xFFFF index item on first use. Returns the internal type number.
    pub fn add_uuid_item(&mut self, uuid: Uuid, id: u16, data: &[i32]) -> Result<u16> {
        let type_id = match self.ex_types.iter().find(|(u, _)| *u == uuid) {
            Some(&(_, t)) => t,
            None => {
                let count = u16::try_from(self.ex_types.len())
                    .map_err(|_| Error::corrupt("too many extended item types", 0))?;
                let t = 0xFFFEu16
                    .checked_sub(count)
                    .filter(|&t| t > 0x8000)
                    .ok_or(Error::corrupt("too many extended item types", 0))?;
                let mut ints = [0i32; 4];
                for (int, chunk) in ints.iter_mut().zip(uuid.as_bytes().chunks_exact(4)) {
                    let mut b = [0u8; 4];
                    b.copy_from_slice(chunk);
                    *int = i32::from_be_bytes(b);
                }
                self.add_item(ITEMTYPE_EX, t, &ints)?;
                self.ex_types.push((uuid, t));
                t
            }
        };
        self.add_item(type_id, id, data)?;
        Ok(type_id)
    }

    /// Adds a data item (stored uncompressed; compressed when written as
    /// version 4) and returns its index.
    pub fn add_data(&mut self, bytes: &[u8]) -> usize {
        self.data.push(bytes.to_vec());
        self.data.len().saturating_sub(1)
    }

    /// Adds `text` followed by a NUL as a data item, the form of data
    /// strings; returns its index.
    pub fn add_data_string(&mut self, text: &str) -> usize {
        let mut bytes = Vec::with_capacity(text.len().saturating_add(1));
        bytes.extend_from_slice(text.as_bytes());
        bytes.push(0);
        self.data.push(bytes);
        self.data.len().saturating_sub(1)
    }

    /// Writes the file.
    ///
    /// Fails if the file would exceed the format's 2 GiB limits, or for
    /// version 3 if a data item is empty (readers require increasing data
    /// offsets).
    pub fn finish(&self, version: WriteVersion) -> Result<Vec<u8>> {
        let too_big = || Error::corrupt("datafile too large for 32-bit sizes", 0);
        let int = |n: usize| i32::try_from(n).map_err(|_| too_big());

        let mut order: Vec<usize> = (0..self.items.len()).collect();
        order.sort_by_key(|&i| self.items.get(i).map_or(0, |it| it.0));

        let stored: Vec<Vec<u8>> = match version {
            WriteVersion::V3 => {
                if self.data.iter().any(Vec::is_empty) {
                    return Err(Error::corrupt(
                        "version 3 cannot store an empty data item",
                        0,
                    ));
                }
                self.data.clone()
            }
            WriteVersion::V4 => self
                .data
                .iter()
                .map(|d| miniz_oxide::deflate::compress_to_vec_zlib(d, 6))
                .collect(),
        };

        // Item type table.
        let mut types: Vec<(u16, usize, usize)> = Vec::new();
        for (pos, &i) in order.iter().enumerate() {
            let t = self.items.get(i).map_or(0, |it| it.0);
            match types.last_mut() {
                Some(last) if last.0 == t => last.2 = last.2.saturating_add(1),
                _ => types.push((t, pos, 1)),
            }
        }

        let mut item_offsets = Vec::with_capacity(order.len());
        let mut item_size = 0usize;
        for &i in &order {
            item_offsets.push(int(item_size)?);
            let len = self.items.get(i).map_or(0, |it| it.2.len());
            item_size = item_size
                .checked_add(8)
                .and_then(|s| s.checked_add(len.checked_mul(4)?))
                .ok_or_else(too_big)?;
        }
        let mut data_offsets = Vec::with_capacity(stored.len());
        let mut data_size = 0usize;
        for d in &stored {
            data_offsets.push(int(data_size)?);
            data_size = data_size.checked_add(d.len()).ok_or_else(too_big)?;
        }

        let tables_per_data = if version == WriteVersion::V4 { 8 } else { 4 };
        let file_len = [
            HEADER_LEN,
            types.len().saturating_mul(12),
            order.len().saturating_mul(4),
            stored.len().saturating_mul(tables_per_data),
            item_size,
            data_size,
        ]
        .iter()
        .try_fold(0usize, |sum, &n| sum.checked_add(n))
        .ok_or_else(too_big)?;
        let file_len_i = int(file_len)?;

        let mut out = Vec::with_capacity(file_len);
        let mut put = |v: i32| out.extend_from_slice(&v.to_le_bytes());
        put(i32::from_le_bytes(*DATAFILE_MAGIC));
        put(if version == WriteVersion::V4 { 4 } else { 3 });
        put(file_len_i.saturating_sub(16));
        put(file_len_i
            .saturating_sub(int(data_size)?)
            .saturating_sub(16));
        put(int(types.len())?);
        put(int(order.len())?);
        put(int(stored.len())?);
        put(int(item_size)?);
        put(int(data_size)?);
        for &(t, start, count) in &types {
            put(i32::from(t));
            put(int(start)?);
            put(int(count)?);
        }
        item_offsets.iter().for_each(|&o| put(o));
        data_offsets.iter().for_each(|&o| put(o));
        if version == WriteVersion::V4 {
            for d in &self.data {
                put(int(d.len())?);
            }
        }
        for &i in &order {
            if let Some((t, id, data)) = self.items.get(i) {
                put(((u32::from(*t) << 16) | u32::from(*id)) as i32);
                put(int(data.len().saturating_mul(4))?);
                data.iter().for_each(|&v| put(v));
            }
        }
        for d in &stored {
            out.extend_from_slice(d);
        }
        Ok(out)
    }
}
