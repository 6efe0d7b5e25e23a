//! `Serialize` for teehistorian records (feature `serde`): the names every
//! surface uses for them (see [`crate::vocabulary`]).
//!
//! A [`Record`] is a map of `tick`, `offset`, `kind` (DDNet's name of the
//! message, [`Kind::name`](super::Kind::name): `PLAYER_DIFF`, `INPUT_NEW`,
//! …) and the message's fields: `cid`, `dx`/`dy`, `x`/`y`, `dt`, `input`
//! or `diff` (ten ints), `data` (bytes), `reason`, `flags`, `source`,
//! `cmd`, `args`; an EX record has `uuid`, `name` (the UUID's, or null)
//! and `fields` (the typed payload, with its own `kind`) or `error`.
//!
//! ```
//! # #[cfg(feature = "std")] {
//! use gamefmt::teehistorian::{Item, Reader, SAMPLE};
//! let mut reader = Reader::new(SAMPLE);
//! let mut kinds = Vec::new();
//! while let Some(item) = reader.next() {
//!     if let Item::Message(record) = item? {
//!         kinds.push(serde_json::to_value(&record).unwrap()["kind"].clone());
//!     }
//! }
//! assert_eq!(kinds.last().unwrap(), "FINISH");
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use super::{Args, CommandSource, Ex, ExMessage, Message, Record};
use crate::vocabulary::{Bytes, LossyStr, UuidStr, entries, map};

/// The arguments of a console command, each as text.
impl Serialize for Args<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter().map(LossyStr))
    }
}

/// Writes a message's `kind` and fields into `map`.
fn message_entries<M: SerializeMap>(m: &mut M, message: &Message<'_>) -> Result<(), M::Error> {
    entries!(m, { "kind" => message.kind().name() });
    match *message {
        Message::PlayerDiff { cid, dx, dy } => {
            entries!(m, { "cid" => cid, "dx" => dx, "dy" => dy })
        }
        Message::Finish => {}
        Message::TickSkip { dt } => entries!(m, { "dt" => dt }),
        Message::PlayerNew { cid, x, y } => entries!(m, { "cid" => cid, "x" => x, "y" => y }),
        Message::PlayerOld { cid } | Message::Join { cid } => entries!(m, { "cid" => cid }),
        Message::InputDiff { cid, diff } => entries!(m, { "cid" => cid, "diff" => diff.get() }),
        Message::InputNew { cid, input } => {
            entries!(m, { "cid" => cid, "input" => input.get() })
        }
        Message::PlayerMessage { cid, data } => {
            entries!(m, { "cid" => cid, "data" => Bytes(data) })
        }
        Message::Drop { cid, reason } => {
            entries!(m, { "cid" => cid, "reason" => LossyStr(reason) })
        }
        Message::ConsoleCommand { cid, flags, line } => entries!(m, {
            "cid" => cid,
            "flags" => flags,
            "source" => CommandSource::of(cid, flags).name(),
            "cmd" => LossyStr(line.cmd()),
            "args" => line.args(),
        }),
        Message::Ex(ex) => ex_entries(m, &ex)?,
    }
    Ok(())
}

/// An EX message's `uuid`, `name` and `fields` (or `error`).
fn ex_entries<M: SerializeMap>(m: &mut M, ex: &Ex<'_>) -> Result<(), M::Error> {
    entries!(m, { "uuid" => UuidStr(*ex.uuid), "name" => ex.name() });
    match ex.parse() {
        Ok(typed) => entries!(m, { "fields" => typed }),
        Err(e) => entries!(m, { "error" => e }),
    }
    Ok(())
}

impl Serialize for Message<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        message_entries(&mut m, self)?;
        m.end()
    }
}

impl Serialize for Record<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        entries!(m, { "tick" => self.tick, "offset" => self.offset });
        message_entries(&mut m, &self.message)?;
        m.end()
    }
}

impl ExMessage<'_> {
    /// The payload's name, the `kind` of its serialized form:
    /// `ddnet_version`, `player_name`, `save_success`, …, `unknown`.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::Test => "test",
            Self::DdnetVersionOld { .. } => "ddnet_version_old",
            Self::DdnetVersion { .. } => "ddnet_version",
            Self::AuthInit { .. } => "auth_init",
            Self::AuthLogin { .. } => "auth_login",
            Self::AuthLogout { .. } => "auth_logout",
            Self::JoinVer6 { .. } => "join_ver6",
            Self::JoinVer7 { .. } => "join_ver7",
            Self::PlayerSwitch { .. } => "player_switch",
            Self::SaveSuccess { .. } => "save_success",
            Self::SaveFailure { .. } => "save_failure",
            Self::LoadSuccess { .. } => "load_success",
            Self::LoadFailure { .. } => "load_failure",
            Self::PlayerTeam { .. } => "player_team",
            Self::TeamPractice { .. } => "team_practice",
            Self::PlayerReady { .. } => "player_ready",
            Self::PlayerRejoin { .. } => "player_rejoin",
            Self::Antibot { .. } => "antibot",
            Self::PlayerName { .. } => "player_name",
            Self::PlayerFinish { .. } => "player_finish",
            Self::TeamFinish { .. } => "team_finish",
            Self::Unknown { .. } => "unknown",
        }
    }
}

impl Serialize for ExMessage<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let kind = self.name();
        match *self {
            Self::Test => map!(s, { "kind" => kind }),
            Self::DdnetVersionOld { cid, version } => {
                map!(s, { "kind" => kind, "cid" => cid, "version" => version })
            }
            Self::DdnetVersion {
                cid,
                connection_id,
                version,
                version_str,
            } => map!(s, {
                "kind" => kind,
                "cid" => cid,
                "connection_id" => UuidStr(connection_id),
                "version" => version,
                "version_str" => LossyStr(version_str),
            }),
            Self::AuthInit {
                cid,
                level,
                auth_name,
            }
            | Self::AuthLogin {
                cid,
                level,
                auth_name,
            } => map!(s, {
                "kind" => kind, "cid" => cid, "level" => level, "auth_name" => LossyStr(auth_name),
            }),
            Self::AuthLogout { cid }
            | Self::JoinVer6 { cid }
            | Self::JoinVer7 { cid }
            | Self::PlayerReady { cid }
            | Self::PlayerRejoin { cid } => map!(s, { "kind" => kind, "cid" => cid }),
            Self::PlayerSwitch { cid1, cid2 } => {
                map!(s, { "kind" => kind, "cid1" => cid1, "cid2" => cid2 })
            }
            Self::SaveSuccess {
                team,
                save_id,
                save,
            }
            | Self::LoadSuccess {
                team,
                save_id,
                save,
            } => map!(s, {
                "kind" => kind, "team" => team, "save_id" => UuidStr(save_id), "save" => LossyStr(save),
            }),
            Self::SaveFailure { team } | Self::LoadFailure { team } => {
                map!(s, { "kind" => kind, "team" => team })
            }
            Self::PlayerTeam { cid, team } => {
                map!(s, { "kind" => kind, "cid" => cid, "team" => team })
            }
            Self::TeamPractice { team, practice } => {
                map!(s, { "kind" => kind, "team" => team, "practice" => practice })
            }
            Self::Antibot { data } => map!(s, { "kind" => kind, "data" => Bytes(data) }),
            Self::PlayerName { cid, name } => {
                map!(s, { "kind" => kind, "cid" => cid, "name" => LossyStr(name) })
            }
            Self::PlayerFinish { cid, time } => {
                map!(s, { "kind" => kind, "cid" => cid, "time" => time })
            }
            Self::TeamFinish { team, time } => {
                map!(s, { "kind" => kind, "team" => team, "time" => time })
            }
            Self::Unknown { uuid, data } => {
                map!(s, { "kind" => kind, "uuid" => UuidStr(uuid), "data" => Bytes(data) })
            }
        }
    }
}
