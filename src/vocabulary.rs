//! The one vocabulary: how every record, header, ending and stat is named
//! when it leaves the core (feature `serde`).
//!
//! Every surface — the CLI's JSON, the Python objects, the JavaScript
//! values, the Arrow event tables — takes its field names, units and
//! numbering from the core's [`serde::Serialize`] impls, so two surfaces
//! never disagree. The impls are no_std and allocation-free: a view that
//! reads its fields by offset has a hand-written impl that reads them on
//! the fly.
//!
//! | convention | rule | example |
//! |---|---|---|
//! | names | snake_case, the format's own term | `game_tick`, `pre_frame`, `team_kill` |
//! | variants | an internally tagged map: `kind` holds the variant's `name()` | `{"kind": "player_new", "cid": 3, ...}` |
//! | enums of names | every record enum has `name()`, equal to its `kind` | [`End::name`](crate::stream::End::name) |
//! | Slippi players | `port`, 1-based as on the console (1..=4) | `{"kind": "pre_frame", "port": 1, ...}` |
//! | Teeworlds players | `cid`, the client id as the file stores it | `{"kind": "input_diff", "cid": 0, ...}` |
//! | time | the file's own numbers: `tick` (Teeworlds), `frame` (Slippi, from -123) | |
//! | how a stream ended | [`End::name`](crate::stream::End::name): `complete`, `eof`, `truncated`, `damaged` | |
//! | UUIDs | the hyphenated lower-case string | `"6bb8ba88-0f0b-382e-8dae-dbf4052b8b7d"` |
//! | raw payloads | bytes (`serialize_bytes`: a JSON array of numbers, Python `bytes`, a JS `Uint8Array`) | |
//! | absent fields | `null` (an `Option` that is `None`), never left out, so every record of a kind has the same keys | |
//!
//! ```
//! # #[cfg(feature = "teehistorian")] {
//! use gamefmt::stream::End;
//! // The ending's name is its serialized form everywhere.
//! assert_eq!(End::Complete.name(), "complete");
//! # }
//! ```

use serde::{Serialize, Serializer};

use crate::stream::End;
use crate::{Error, Warning};

/// Serializes a UUID as its hyphenated lower-case string, without
/// allocating (no `uuid/serde` feature needed).
///
/// # Errors
///
/// Whatever the serializer returns.
#[cfg(any(
    feature = "datafile",
    feature = "snapshot",
    feature = "teehistorian",
    feature = "netmsg"
))]
pub fn serialize_uuid<S: Serializer>(uuid: &uuid::Uuid, serializer: S) -> Result<S::Ok, S::Error> {
    let mut buf = uuid::Uuid::encode_buffer();
    serializer.serialize_str(uuid.hyphenated().encode_lower(&mut buf))
}

/// Serializes raw bytes as bytes (not as a sequence of numbers, which is
/// what serde does for `&[u8]` by default).
///
/// # Errors
///
/// Whatever the serializer returns.
pub fn serialize_bytes<S: Serializer>(bytes: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_bytes(bytes)
}

/// A UUID that serializes as its hyphenated lower-case string (see
/// [`serialize_uuid`]).
#[cfg(any(
    feature = "datafile",
    feature = "snapshot",
    feature = "teehistorian",
    feature = "netmsg"
))]
#[derive(Clone, Copy)]
pub struct UuidStr(pub uuid::Uuid);

#[cfg(any(
    feature = "datafile",
    feature = "snapshot",
    feature = "teehistorian",
    feature = "netmsg"
))]
impl Serialize for UuidStr {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_uuid(&self.0, serializer)
    }
}

/// Bytes that are meant as text, shown as UTF-8 with each invalid sequence
/// replaced by U+FFFD (as `String::from_utf8_lossy` does, without
/// allocating).
#[derive(Clone, Copy)]
pub struct LossyStr<'a>(pub &'a [u8]);

impl core::fmt::Display for LossyStr<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for chunk in self.0.utf8_chunks() {
            f.write_str(chunk.valid())?;
            if !chunk.invalid().is_empty() {
                f.write_str("\u{FFFD}")?;
            }
        }
        Ok(())
    }
}

impl Serialize for LossyStr<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Raw bytes that serialize as bytes (see [`serialize_bytes`]).
#[derive(Clone, Copy)]
pub struct Bytes<'a>(pub &'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0)
    }
}

/// Serializes a map of `key => value` entries (each value by reference;
/// `None` becomes `null`): the shape of every record's hand-written
/// `Serialize` impl.
macro_rules! map {
    ($serializer:expr, { $($key:literal => $value:expr),* $(,)? }) => {{
        let mut map = $serializer.serialize_map(None)?;
        $crate::vocabulary::entries!(map, { $($key => $value),* });
        serde::ser::SerializeMap::end(map)
    }};
}
#[allow(
    unused_imports,
    reason = "used by path only from the format modules enabled"
)]
pub(crate) use map;

/// Writes `key => value` entries into an open `SerializeMap` (for records
/// whose entries follow others, such as a message's after its tick).
macro_rules! entries {
    ($map:expr, { $($key:literal => $value:expr),* $(,)? }) => {{
        #[allow(unused_imports, reason = "the caller may have it in scope already")]
        use serde::ser::SerializeMap as _;
        $($map.serialize_entry($key, &$value)?;)*
    }};
}
pub(crate) use entries;

/// `{"kind": "truncated", "offset": 13383, "message": "..."}`: the
/// [`ErrorKind::name`](crate::ErrorKind::name), the byte offset, and the
/// text people read.
impl Serialize for Error {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        map!(s, {
            "kind" => self.kind.name(),
            "offset" => self.offset,
            "message" => Display(&self.kind),
        })
    }
}

/// `{"kind": "empty_data_item", "offset": 1234, "message": "..."}`, as
/// [`Error`].
impl Serialize for Warning {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        map!(s, {
            "kind" => self.kind.name(),
            "offset" => self.offset,
            "message" => Display(&self.kind),
        })
    }
}

/// `{"kind": "complete" | "eof" | "truncated" | "damaged", "offset": …,
/// "error": …}`: [`End::name`], the offset of a cut record or of the
/// damage (`null` otherwise) and the damage (`null` otherwise).
impl Serialize for End {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (offset, error) = match *self {
            Self::Complete | Self::Eof => (None, None),
            Self::Truncated { offset } => (Some(offset), None),
            Self::Damaged(e) => (Some(e.offset), Some(e)),
        };
        map!(s, { "kind" => self.name(), "offset" => offset, "error" => error })
    }
}

/// A `Display` value serialized as its text.
struct Display<'a, T>(&'a T);

impl<T: core::fmt::Display> Serialize for Display<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self.0)
    }
}
