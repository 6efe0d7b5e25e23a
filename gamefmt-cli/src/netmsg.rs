//! Net messages and snapshot players as JSON, for `dump` and `chat`.

use std::collections::BTreeMap;

use gamefmt::Protocol;
use gamefmt::netmsg::{ClientInfo06, ClientInfo07, Game06, Game07, NetMsg, NetStr};
use gamefmt::snapshot::SnapshotView;
use gamefmt::snapshot::objects::{Object, Object06, Object07};
use serde_json::{Value, json};

/// A string field as shown to people (sanitised).
pub fn text(s: NetStr<'_>) -> String {
    s.to_string()
}

fn info06(i: &ClientInfo06<'_>) -> Value {
    json!({
        "name": text(i.name), "clan": text(i.clan), "country": i.country, "skin": text(i.skin),
        "use_custom_color": i.use_custom_color, "color_body": i.color_body, "color_feet": i.color_feet,
    })
}

fn info07(i: &ClientInfo07<'_>) -> Value {
    json!({
        "name": text(i.name), "clan": text(i.clan), "country": i.country,
        "skin_parts": i.skin_parts.map(text), "use_custom_colors": i.use_custom_colors,
        "skin_part_colors": i.skin_part_colors,
    })
}

fn game06(g: &Game06<'_>) -> Value {
    match *g {
        Game06::SvMotd { message } => json!({"kind": "Sv_Motd", "message": text(message)}),
        Game06::SvBroadcast { message } => {
            json!({"kind": "Sv_Broadcast", "message": text(message)})
        }
        Game06::SvChat {
            team,
            client_id,
            message,
        } => json!({
            "kind": "Sv_Chat", "team": team, "client_id": client_id, "message": text(message),
        }),
        Game06::SvKillMsg {
            killer,
            victim,
            weapon,
            mode_special,
        } => json!({
            "kind": "Sv_KillMsg", "killer": killer, "victim": victim, "weapon": weapon,
            "mode_special": mode_special,
        }),
        Game06::SvSoundGlobal { sound_id } => {
            json!({"kind": "Sv_SoundGlobal", "sound_id": sound_id})
        }
        Game06::SvReadyToEnter => json!({"kind": "Sv_ReadyToEnter"}),
        Game06::SvWeaponPickup { weapon } => json!({"kind": "Sv_WeaponPickup", "weapon": weapon}),
        Game06::SvEmoticon {
            client_id,
            emoticon,
        } => {
            json!({"kind": "Sv_Emoticon", "client_id": client_id, "emoticon": emoticon})
        }
        Game06::SvVoteClearOptions => json!({"kind": "Sv_VoteClearOptions"}),
        Game06::SvVoteOptionAdd { description } => {
            json!({"kind": "Sv_VoteOptionAdd", "description": text(description)})
        }
        Game06::SvVoteOptionRemove { description } => {
            json!({"kind": "Sv_VoteOptionRemove", "description": text(description)})
        }
        Game06::SvVoteSet {
            timeout,
            description,
            reason,
        } => json!({
            "kind": "Sv_VoteSet", "timeout": timeout, "description": text(description),
            "reason": text(reason),
        }),
        Game06::SvVoteStatus {
            yes,
            no,
            pass,
            total,
        } => json!({
            "kind": "Sv_VoteStatus", "yes": yes, "no": no, "pass": pass, "total": total,
        }),
        Game06::ClSay { team, message } => {
            json!({"kind": "Cl_Say", "team": team, "message": text(message)})
        }
        Game06::ClSetTeam { team } => json!({"kind": "Cl_SetTeam", "team": team}),
        Game06::ClSetSpectatorMode { spectator_id } => {
            json!({"kind": "Cl_SetSpectatorMode", "spectator_id": spectator_id})
        }
        Game06::ClStartInfo(i) => json!({"kind": "Cl_StartInfo", "info": info06(&i)}),
        Game06::ClChangeInfo(i) => json!({"kind": "Cl_ChangeInfo", "info": info06(&i)}),
        Game06::ClKill => json!({"kind": "Cl_Kill"}),
        Game06::ClEmoticon { emoticon } => json!({"kind": "Cl_Emoticon", "emoticon": emoticon}),
        Game06::ClVote { vote } => json!({"kind": "Cl_Vote", "vote": vote}),
        Game06::ClCallVote {
            kind,
            value,
            reason,
        } => json!({
            "kind": "Cl_CallVote", "type": text(kind), "value": text(value), "reason": text(reason),
        }),
        Game06::Other { id, payload } => json!({"kind": "game", "id": id, "size": payload.len()}),
        _ => json!({"kind": "game"}),
    }
}

fn game07(g: &Game07<'_>) -> Value {
    match *g {
        Game07::SvMotd { message } => json!({"kind": "Sv_Motd", "message": text(message)}),
        Game07::SvBroadcast { message } => {
            json!({"kind": "Sv_Broadcast", "message": text(message)})
        }
        Game07::SvChat {
            mode,
            client_id,
            target_id,
            message,
        } => json!({
            "kind": "Sv_Chat", "mode": mode, "client_id": client_id, "target_id": target_id,
            "message": text(message),
        }),
        Game07::SvTeam {
            client_id,
            team,
            silent,
            cooldown_tick,
        } => json!({
            "kind": "Sv_Team", "client_id": client_id, "team": team, "silent": silent,
            "cooldown_tick": cooldown_tick,
        }),
        Game07::SvKillMsg {
            killer,
            victim,
            weapon,
            mode_special,
        } => json!({
            "kind": "Sv_KillMsg", "killer": killer, "victim": victim, "weapon": weapon,
            "mode_special": mode_special,
        }),
        Game07::SvReadyToEnter => json!({"kind": "Sv_ReadyToEnter"}),
        Game07::SvWeaponPickup { weapon } => json!({"kind": "Sv_WeaponPickup", "weapon": weapon}),
        Game07::SvEmoticon {
            client_id,
            emoticon,
        } => {
            json!({"kind": "Sv_Emoticon", "client_id": client_id, "emoticon": emoticon})
        }
        Game07::SvVoteClearOptions => json!({"kind": "Sv_VoteClearOptions"}),
        Game07::SvVoteOptionAdd { description } => {
            json!({"kind": "Sv_VoteOptionAdd", "description": text(description)})
        }
        Game07::SvVoteOptionRemove { description } => {
            json!({"kind": "Sv_VoteOptionRemove", "description": text(description)})
        }
        Game07::SvVoteSet {
            client_id,
            kind,
            timeout,
            description,
            reason,
        } => json!({
            "kind": "Sv_VoteSet", "client_id": client_id, "type": kind, "timeout": timeout,
            "description": text(description), "reason": text(reason),
        }),
        Game07::SvVoteStatus {
            yes,
            no,
            pass,
            total,
        } => json!({
            "kind": "Sv_VoteStatus", "yes": yes, "no": no, "pass": pass, "total": total,
        }),
        Game07::SvClientInfo {
            client_id,
            local,
            team,
            info,
            silent,
        } => json!({
            "kind": "Sv_ClientInfo", "client_id": client_id, "local": local, "team": team,
            "info": info07(&info), "silent": silent,
        }),
        Game07::SvClientDrop {
            client_id,
            reason,
            silent,
        } => json!({
            "kind": "Sv_ClientDrop", "client_id": client_id, "reason": text(reason), "silent": silent,
        }),
        Game07::DeClientEnter {
            name,
            client_id,
            team,
        } => json!({
            "kind": "De_ClientEnter", "name": text(name), "client_id": client_id, "team": team,
        }),
        Game07::DeClientLeave {
            name,
            client_id,
            reason,
        } => json!({
            "kind": "De_ClientLeave", "name": text(name), "client_id": client_id,
            "reason": text(reason),
        }),
        Game07::ClSay {
            mode,
            target,
            message,
        } => json!({
            "kind": "Cl_Say", "mode": mode, "target": target, "message": text(message),
        }),
        Game07::ClSetTeam { team } => json!({"kind": "Cl_SetTeam", "team": team}),
        Game07::ClSetSpectatorMode {
            spec_mode,
            spectator_id,
        } => json!({
            "kind": "Cl_SetSpectatorMode", "spec_mode": spec_mode, "spectator_id": spectator_id,
        }),
        Game07::ClStartInfo(i) => json!({"kind": "Cl_StartInfo", "info": info07(&i)}),
        Game07::ClKill => json!({"kind": "Cl_Kill"}),
        Game07::ClReadyChange => json!({"kind": "Cl_ReadyChange"}),
        Game07::ClEmoticon { emoticon } => json!({"kind": "Cl_Emoticon", "emoticon": emoticon}),
        Game07::ClVote { vote } => json!({"kind": "Cl_Vote", "vote": vote}),
        Game07::ClCallVote {
            kind,
            value,
            reason,
            force,
        } => json!({
            "kind": "Cl_CallVote", "type": text(kind), "value": text(value), "reason": text(reason),
            "force": force,
        }),
        Game07::Other { id, payload } => json!({"kind": "game", "id": id, "size": payload.len()}),
        _ => json!({"kind": "game"}),
    }
}

/// A decoded message as JSON: `kind` (the message name, or `system`,
/// `game`, `ex`) and its fields.
pub fn message_json(msg: &NetMsg<'_>) -> Value {
    match msg {
        NetMsg::System { id, payload } => {
            json!({"kind": "system", "id": id, "size": payload.len()})
        }
        NetMsg::Game06(g) => game06(g),
        NetMsg::Game07(g) => game07(g),
        NetMsg::Ex {
            system,
            uuid,
            payload,
        } => json!({
            "kind": "ex", "system": system, "uuid": uuid.to_string(), "size": payload.len(),
        }),
        _ => json!({"kind": "other"}),
    }
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
