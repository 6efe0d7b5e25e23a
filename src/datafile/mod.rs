//! Teeworlds/DDNet datafiles: the container of `.map` files.
//!
//! A datafile holds fixed-size *items* (a 16-bit type, a 16-bit id and an
//! array of little-endian `i32`s) and variable-size *data items* (byte
//! blobs, zlib-compressed in version 4). [`DatafileView::parse`] validates
//! the whole structure once, the way DDNet does when it opens a map, and
//! then lends items and data straight out of the input: nothing is copied
//! and nothing is allocated. Data items are inflated into a buffer the caller
//! owns with [`DatafileView::decompress_into`].
//!
//! Extended item types are named by UUIDs: items of type 0xFFFF map an
//! internal type number (their id) to a UUID (their data); see
//! [`DatafileView::type_uuid`] and the constants in this module.
//!
//! With the `alloc` feature, [`DatafileWriter`] builds version 3 and 4 files.
//!
//! ```
//! # fn main() -> Result<(), gamefmt::Error> {
//! use gamefmt::datafile::{DatafileView, SAMPLE};
//!
//! let map = DatafileView::parse(SAMPLE)?;
//! assert_eq!(map.version(), 3);
//! let version_item = map.find_item(0, 0).expect("the sample has a VERSION item");
//! assert_eq!(version_item.int(0), Some(1));
//!
//! // Inflate (here: copy, as version 3 is uncompressed) a data item.
//! let mut buf = [0u8; 64];
//! assert_eq!(map.data_str(0, &mut buf)?, "gamefmt");
//! # Ok(()) }
//! ```

pub mod raw;
mod view;
#[cfg(feature = "alloc")]
mod writer;

/// The inflate state [`DatafileView::decompress_with`] takes from the
/// caller (miniz_oxide's; not used with feature `fast-inflate`).
pub use miniz_oxide::inflate::core::DecompressorOxide;
#[cfg(feature = "map")]
pub(crate) use view::IdSet;
pub use view::{DatafileView, Item, ItemTypeEntry, Items};
#[cfg(feature = "alloc")]
pub use writer::{DatafileWriter, WriteVersion};

use uuid::{Uuid, uuid};

use crate::error::{Error, ErrorKind, Result};

/// The item type whose items map internal type numbers to UUIDs.
pub const ITEMTYPE_EX: u16 = 0xFFFF;

/// `mapitemtype-test@ddnet.tw`: DDNet's test item.
pub const UUID_TEST: Uuid = uuid!("b1ab2186-5ac3-39d9-9fbc-47cf03efdf1e");
/// `mapitemtype-automapper-config@ddnet.tw`: one item per automapped layer.
pub const UUID_AUTOMAPPER_CONFIG: Uuid = uuid!("3e1b2716-178c-3978-9bd9-b11ae0410dd8");
/// `mapitemtype-envpoints-bezier@ddnet.tw`: bezier tangents of envelope points.
pub const UUID_ENVPOINTS_BEZIER: Uuid = uuid!("3ab4f84d-d9cc-3c78-b585-0d6ccdb2e25c");

/// A small version 3 datafile embedded for examples and doctests: a
/// VERSION item (type 0, id 0, data `[1]`), an INFO item (type 1, id 0,
/// author = data item 0) and one data item, the string `"gamefmt"`.
/// It was written by [`DatafileWriter`].
pub const SAMPLE: &[u8] = include_bytes!("sample.map");

/// Reads a data string as DDNet does: `bytes` must end with its only NUL
/// and be valid UTF-8; the text before the NUL is returned.
pub fn data_string(bytes: &[u8]) -> Result<&str> {
    let Some((&0, text)) = bytes.split_last() else {
        return Err(Error::new(ErrorKind::InvalidString, bytes.len()));
    };
    if let Some(nul) = text.iter().position(|&b| b == 0) {
        return Err(Error::new(ErrorKind::InvalidString, nul));
    }
    core::str::from_utf8(text).map_err(|e| Error::new(ErrorKind::InvalidString, e.valid_up_to()))
}
