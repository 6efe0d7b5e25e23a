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

use serde::Serializer;

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
