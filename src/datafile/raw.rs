//! Wire layouts of the datafile's fixed-size parts, read in place.

use zerocopy::little_endian::I32;
use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

/// Bytes in [`Header`]: the 8-byte version header plus seven ints.
pub const HEADER_LEN: usize = 36;

/// The file header: magic, version and the seven size fields.
#[derive(Debug, FromBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Header {
    /// `DATA`, or `ATAD` as written by big-endian machines.
    pub magic: [u8; 4],
    /// 3 or 4.
    pub version: I32,
    /// File length minus 16 (see the old-v4 quirk in the module docs).
    pub size: I32,
    /// File length minus the data section minus 16.
    pub swaplen: I32,
    /// Entries in the item type table.
    pub num_item_types: I32,
    /// Items in the file.
    pub num_items: I32,
    /// Data items in the file.
    pub num_data: I32,
    /// Bytes in the item section.
    pub item_size: I32,
    /// Bytes in the data section.
    pub data_size: I32,
}

/// One entry of the item type table.
#[derive(Debug, FromBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ItemType {
    /// The item type (0..=65535).
    pub type_id: I32,
    /// Index of the first item of this type.
    pub start: I32,
    /// Number of items of this type.
    pub num: I32,
}

/// The two ints before each item's data.
#[derive(Debug, FromBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ItemHeader {
    /// Type in the upper 16 bits, id in the lower 16.
    pub type_and_id: I32,
    /// Bytes of item data that follow.
    pub size: I32,
}
