//! Net messages and snapshot players as JSON, for `dump` and `chat`.

use std::collections::BTreeMap;

use gamefmt::Protocol;
use gamefmt::netmsg::{NetMsg, NetStr};
use gamefmt::snapshot::SnapshotView;
use gamefmt::snapshot::objects::{Object, Object06, Object07};
use serde_json::{Value, json};

/// A string field as shown to people (sanitised).
pub fn text(s: NetStr<'_>) -> String {
    s.to_string()
}

/// A network message as JSON: the core's serialized message (`kind` is
/// DDNet's name of it, fields are datasrc's names in snake_case).
pub fn message_json(msg: &NetMsg<'_>) -> Value {
    serde_json::to_value(msg).unwrap_or(Value::Null)
}

/// Adds the names of the clients a message's JSON names (`client_id` →
/// `name`, `killer` → `killer_name`, `victim` → `victim_name`), as far as
/// `name_of` knows them.
pub fn add_names(message: &mut Value, name_of: impl Fn(i32) -> Option<String>) {
    let Value::Object(fields) = message else {
        return;
    };
    for (id_key, name_key) in [
        ("client_id", "name"),
        ("killer", "killer_name"),
        ("victim", "victim_name"),
    ] {
        let name = fields
            .get(id_key)
            .and_then(Value::as_i64)
            .and_then(|id| i32::try_from(id).ok())
            .and_then(&name_of);
        if let Some(name) = name {
            fields.insert(name_key.into(), json!(name));
        }
    }
}

/// One player of a snapshot: client id, name, team, score, position.
#[derive(Default)]
pub struct Player {
    /// Client id (the item id).
    pub client_id: u16,
    /// Name from the client info object.
    pub name: Option<String>,
    /// Team from the player info object (0.6; 0.7 client info).
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
        // 0.6 player info names its client; every other object is keyed by
        // the item id.
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

/// Players as JSON.
pub fn players_json(players: &[Player]) -> Value {
    players
        .iter()
        .map(|p| {
            json!({
                "client_id": p.client_id, "name": p.name, "team": p.team, "score": p.score,
                "pos": p.pos.map(|(x, y)| [x, y]),
            })
        })
        .collect()
}
