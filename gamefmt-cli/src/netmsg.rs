//! Net messages and snapshot players as JSON, for `dump` and `chat`.

use gamefmt::netmsg::{NetMsg, NetStr};
use gamefmt::snapshot::Player;
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

/// Adds the names of the clients a message's or an event's JSON names
/// (`client_id` or `cid` → `name`, `killer` → `killer_name`, `victim` →
/// `victim_name`), as far as `name_of` knows them and the JSON has no such
/// string already (a join's own `name` stays; a `null` one is filled).
pub fn add_names(message: &mut Value, name_of: impl Fn(i32) -> Option<String>) {
    let Value::Object(fields) = message else {
        return;
    };
    for (id_key, name_key) in [
        ("client_id", "name"),
        ("cid", "name"),
        ("killer", "killer_name"),
        ("victim", "victim_name"),
    ] {
        let name = fields
            .get(id_key)
            .and_then(Value::as_i64)
            .and_then(|id| i32::try_from(id).ok())
            .and_then(&name_of);
        // Filled, unless the JSON names the client itself.
        if let Some(name) = name
            && !fields.get(name_key).is_some_and(Value::is_string)
        {
            fields.insert(name_key.into(), json!(name));
        }
    }
}

/// Players as JSON: the core's serialized [`Player`]s.
pub fn players_json(players: &[Player]) -> Value {
    serde_json::to_value(players).unwrap_or(Value::Null)
}
