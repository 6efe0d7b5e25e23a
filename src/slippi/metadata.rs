//! The metadata element: a UBJSON object written after the raw events.

use crate::error::{Error, Result};

use super::ubjson::{self, Container, Value};

/// The metadata object (`startAt`, `lastFrame`, `players`, `playedOn`,
/// `consoleNick`, …); every accessor is `None` when the key is missing or
/// has another type. Unknown keys are reachable through [`Metadata::object`].
///
/// The values of the keys the accessors read are found once, by
/// [`Metadata::parse`] (one walk of the object instead of one per
/// accessor); two `Metadata` are equal when their objects are.
#[derive(Clone, Copy, Debug)]
pub struct Metadata<'a> {
    object: Container<'a>,
    /// The values of the keys the accessors read, as [`Container::get`]
    /// finds them.
    start_at: Option<Value<'a>>,
    last_frame: Option<Value<'a>>,
    played_on: Option<Value<'a>>,
    console_nick: Option<Value<'a>>,
    players: Option<Value<'a>>,
}

impl PartialEq for Metadata<'_> {
    fn eq(&self, other: &Self) -> bool {
        // The values are a function of `object`.
        self.object == other.object
    }
}

impl Eq for Metadata<'_> {}

impl<'a> Metadata<'a> {
    /// Parses the metadata value (starting at its `{`).
    ///
    /// # Errors
    /// Malformed UBJSON, or a value that is not an object.
    pub fn parse(value: &'a [u8]) -> Result<Self> {
        match ubjson::parse_value(value)?.0 {
            Value::Object(object) => Ok(Self::of(object)),
            _ => Err(Error::corrupt("metadata is not a UBJSON object", 0)),
        }
    }

    /// [`parse`](Self::parse) of a value known to be one whole UBJSON
    /// value (its length measured by [`ubjson::value_len`]), without
    /// walking it again: the same result.
    pub(crate) fn parse_whole(value: &'a [u8]) -> Result<Self> {
        match ubjson::whole_object(value) {
            Some(object) => Ok(Self::of(object)),
            None => Err(Error::corrupt("metadata is not a UBJSON object", 0)),
        }
    }

    /// The metadata of `object`, its keys found in one walk.
    fn of(object: Container<'a>) -> Self {
        let [start_at, last_frame, played_on, console_nick, players] =
            object.get_many(["startAt", "lastFrame", "playedOn", "consoleNick", "players"]);
        Self {
            object,
            start_at,
            last_frame,
            played_on,
            console_nick,
            players,
        }
    }

    /// The whole object.
    #[must_use]
    pub const fn object(&self) -> Container<'a> {
        self.object
    }

    /// `startAt`: ISO-8601 start time.
    #[must_use]
    pub fn start_at(&self) -> Option<&'a str> {
        self.start_at?.as_str()
    }

    /// `lastFrame`: the number of the last frame (absent in 0.1.0 files).
    #[must_use]
    pub fn last_frame(&self) -> Option<i64> {
        self.last_frame?.as_int()
    }

    /// `playedOn`: "dolphin", "network", "nintendont", …
    #[must_use]
    pub fn played_on(&self) -> Option<&'a str> {
        self.played_on?.as_str()
    }

    /// `consoleNick`: the console's name.
    #[must_use]
    pub fn console_nick(&self) -> Option<&'a str> {
        self.console_nick?.as_str()
    }

    /// The entries of `players`, keyed by port index.
    pub fn players(&self) -> impl Iterator<Item = MetaPlayer<'a>> + 'a {
        self.players
            .and_then(|v| v.as_object())
            .into_iter()
            .flat_map(|o| o.entries().map_while(core::result::Result::ok))
            .filter_map(|(key, v)| {
                let object = v.as_object()?;
                let [names, characters] = object.get_many(["names", "characters"]);
                Some(MetaPlayer {
                    key,
                    object,
                    names: names.and_then(|v| v.as_object()),
                    characters: characters.and_then(|v| v.as_object()),
                })
            })
    }
}

/// One player's metadata (`players."<index>"`).
///
/// Its `names` and `characters` objects are found once, when
/// [`Metadata::players`] yields it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MetaPlayer<'a> {
    key: &'a [u8],
    object: Container<'a>,
    names: Option<Container<'a>>,
    characters: Option<Container<'a>>,
}

impl<'a> MetaPlayer<'a> {
    /// The port index (0–3) this entry is keyed by.
    #[must_use]
    pub fn index(&self) -> Option<u8> {
        core::str::from_utf8(self.key).ok()?.parse().ok()
    }

    /// The whole player object.
    #[must_use]
    pub const fn object(&self) -> Container<'a> {
        self.object
    }

    /// `names.netplay`: the netplay / display name.
    #[must_use]
    pub fn netplay_name(&self) -> Option<&'a str> {
        self.names?.get("netplay")?.as_str()
    }

    /// `names.code`: the connect code.
    #[must_use]
    pub fn connect_code(&self) -> Option<&'a str> {
        self.names?.get("code")?.as_str()
    }

    /// `characters`: (internal character id, frames played as it).
    pub fn characters(&self) -> impl Iterator<Item = (u8, i64)> + 'a {
        self.characters
            .into_iter()
            .flat_map(|o| o.entries().map_while(core::result::Result::ok))
            .filter_map(|(k, v)| {
                let id = core::str::from_utf8(k).ok()?.parse().ok()?;
                Some((id, v.as_int()?))
            })
    }
}
