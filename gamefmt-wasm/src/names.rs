//! Teeworlds players and chat lines: the players of a snapshot (client id,
//! name, team, score, position) and one line of chat, in the shapes
//! `gamefmt dump` and `gamefmt chat --json` print.

use std::collections::BTreeMap;

use gamefmt::Protocol;
use gamefmt::snapshot::SnapshotView;
use gamefmt::snapshot::objects::{Object, Object06, Object07};
use serde::Serialize;

/// One line of chat.
#[derive(Serialize)]
pub struct ChatLine {
    /// Tick, when known.
    pub tick: Option<i32>,
    /// `chat` or `command` (a chat command, teehistorian).
    pub kind: &'static str,
    /// Author, −1 for the server.
    pub client_id: i32,
    /// The author's name, when known.
    pub name: Option<String>,
    /// `all`, `team`, `whisper`.
    pub channel: &'static str,
    /// The text.
    pub message: String,
}

/// A 0.6 chat team as a channel.
pub fn channel06(team: i32) -> &'static str {
    match team {
        1 => "team",
        2 | 3 => "whisper",
        _ => "all",
    }
}

/// A 0.7 chat mode as a channel.
pub fn channel07(mode: i32) -> &'static str {
    match mode {
        2 => "team",
        3 => "whisper",
        _ => "all",
    }
}

/// One player of a snapshot.
#[derive(Default, Serialize)]
pub struct Player {
    /// Client id.
    pub client_id: u16,
    /// Name from the client info object.
    pub name: Option<String>,
    /// Team.
    pub team: Option<i32>,
    /// Score.
    pub score: Option<i32>,
    /// Character position, when alive.
    pub pos: Option<(i32, i32)>,
}

/// The players of a snapshot, by client id.
pub fn players(protocol: Protocol, snap: &SnapshotView<'_>) -> Vec<Player> {
    let mut out: BTreeMap<u16, Player> = BTreeMap::new();
    for item in snap.items() {
        let id = item.id();
        let object = Object::parse(protocol, snap, &item);
        let id = match object {
            Object::V06(Object06::PlayerInfo(p)) => p.client_id.get().try_into().unwrap_or(id),
            _ => id,
        };
        let player = || Player {
            client_id: id,
            ..Player::default()
        };
        match object {
            Object::V06(Object06::ClientInfo(c)) => {
                out.entry(id).or_insert_with(player).name =
                    Some(String::from_utf8_lossy(c.name().as_bytes()).into_owned());
            }
            Object::V06(Object06::PlayerInfo(p)) => {
                let e = out.entry(id).or_insert_with(player);
                (e.team, e.score) = (Some(p.team.get()), Some(p.score.get()));
            }
            Object::V07(Object07::ClientInfo(c)) => {
                let e = out.entry(id).or_insert_with(player);
                e.name = Some(String::from_utf8_lossy(c.name().as_bytes()).into_owned());
                e.team = Some(c.team.get());
            }
            Object::V07(Object07::PlayerInfo(p)) => {
                out.entry(id).or_insert_with(player).score = Some(p.score.get());
            }
            Object::V06(Object06::Character(c)) => {
                out.entry(id).or_insert_with(player).pos = Some((c.core.x.get(), c.core.y.get()));
            }
            Object::V07(Object07::Character(c)) => {
                out.entry(id).or_insert_with(player).pos = Some((c.core.x.get(), c.core.y.get()));
            }
            _ => {}
        }
    }
    out.into_values().collect()
}

/// The name of client `id` among `players`, if known.
pub fn player_name(players: &[Player], id: i32) -> Option<String> {
    players
        .iter()
        .find(|p| i32::from(p.client_id) == id)?
        .name
        .clone()
}
