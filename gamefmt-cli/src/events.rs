//! `gamefmt events`: kills, race finishes, votes and their results, joins
//! and leaves, map changes — over demos and teehistorian recordings, one
//! line each (tick, kind, what happened) or JSON Lines: the core's
//! [`Event`] as serialized (`kind`, `cid`, `killer`, …) with the `tick`
//! and the names of the clients it names (`name`, `killer_name`,
//! `victim_name`, as far as the file tells them).
//!
//! Demos: the events of their messages ([`Events`]); a 0.6 demo's joins and
//! leaves are client info objects appearing in and leaving its snapshots
//! (0.6 has no message for them); the map is the header's. Recordings:
//! JOIN, DROP, player and team finishes, vote calls and votes; the map is
//! the header's.

use std::collections::BTreeMap;
use std::io::Write;

use gamefmt::Protocol;
use gamefmt::netmsg::{self, Event, Events, NetStr, VoteResult};
use gamefmt::teehistorian::{ClientProtocols, PlayerNames};
use serde_json::{Value, json};

use crate::netmsg::add_names;
use crate::{CliError, demo, json_line, teehistorian};
use gamefmt::snapshot::players;
use gamefmt_cli::input::Input;

/// A race time as DDNet's server announces it (`CGameTeams::OnFinish`:
/// `"%d minute(s) %5.2f second(s)"`).
pub fn race_time(time_ms: i64) -> String {
    let minutes = time_ms.div_euclid(60_000);
    let rest = time_ms.rem_euclid(60_000);
    #[allow(clippy::cast_precision_loss, reason = "under a minute of ms")]
    let seconds = rest as f64 / 1000.0;
    format!("{minutes} minute(s) {seconds:5.2} second(s)")
}

/// Writes one event at `tick`, naming its clients with `name_of`.
fn write(
    out: &mut dyn Write,
    as_json: bool,
    tick: Option<i32>,
    event: &Event<'_>,
    name_of: impl Fn(i32) -> Option<String>,
) -> Result<(), CliError> {
    let mut value = serde_json::to_value(event).unwrap_or(Value::Null);
    if let Value::Object(fields) = &mut value {
        fields.insert("tick".into(), json!(tick));
    }
    add_names(&mut value, &name_of);
    if as_json {
        json_line(out, &value)?;
        return Ok(());
    }
    let who = |key: &str, id_key: &str| {
        value
            .get(key)
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or_else(|| value.get(id_key).map(|id| format!("#{id}")))
            .unwrap_or_default()
    };
    let text = |s: &NetStr<'_>| s.to_string();
    let what = match event {
        Event::Kill { weapon, .. } => format!(
            "{} killed {} (weapon {weapon})",
            who("killer_name", "killer"),
            who("victim_name", "victim")
        ),
        Event::Finish { time_ms, .. } => {
            format!(
                "{} finished in: {}",
                who("name", "cid"),
                race_time(*time_ms)
            )
        }
        Event::TeamFinish { team, time_ms, .. } => {
            format!("team {team} finished in: {}", race_time(*time_ms))
        }
        Event::VoteStart {
            description,
            reason,
            timeout,
            cid,
        } => {
            let by = cid.map(|_| format!(" by {}", who("name", "cid")));
            format!(
                "vote{}: {} ({}), {timeout} s",
                by.unwrap_or_default(),
                text(description),
                text(reason)
            )
        }
        Event::VoteEnd {
            result,
            yes,
            no,
            total,
            ..
        } => {
            let counts = match (yes, no, total) {
                (Some(y), Some(n), Some(t)) => format!(" (yes {y}, no {n} of {t})"),
                _ => String::new(),
            };
            format!("vote {}{counts}", result.map_or("ended", VoteResult::name))
        }
        Event::VoteCall {
            vote_type,
            value,
            reason,
            ..
        } => format!(
            "{} calls a {} vote: {} ({})",
            who("name", "cid"),
            text(vote_type),
            text(value),
            text(reason)
        ),
        Event::Vote { vote, .. } => format!("{} votes {vote}", who("name", "cid")),
        Event::Join { .. } => format!("{} joined", who("name", "cid")),
        Event::Leave { reason, .. } => {
            let why = reason
                .filter(|r| !r.0.is_empty())
                .map(|r| format!(" ({r})"))
                .unwrap_or_default();
            format!("{} left{why}", who("name", "cid"))
        }
        Event::MapChange { map, crc, size } => format!("map {map} ({size} bytes, crc {crc:08x})"),
        _ => String::new(),
    };
    let tick = tick.map_or_else(|| "-".to_owned(), |t| t.to_string());
    writeln!(out, "{tick}\t{}\t{what}", event.name())?;
    Ok(())
}

/// `gamefmt events` on a demo.
pub fn demo(input: &mut Input, as_json: bool, out: &mut dyn Write) -> Result<(), CliError> {
    let mut reader = gamefmt::demo::Reader::new(&mut *input);
    let header = demo::open(&mut reader, None)?;
    let protocol = Protocol::of_net_version(header.net_version());
    let map = Event::MapChange {
        map: NetStr(header.map_name().as_bytes()),
        // The CRC's bits, as NETMSG_MAP_CHANGE sends them.
        crc: i32::from_ne_bytes(header.map_crc().to_ne_bytes()),
        size: i32::try_from(header.map_size()).unwrap_or(i32::MAX),
    };
    write(out, as_json, None, &map, |_| None)?;
    let mut last_map = Some((
        header.map_name().as_bytes().to_vec(),
        i32::from_ne_bytes(header.map_crc().to_ne_bytes()),
    ));
    let mut events = Events::new();
    // Names by client id: the snapshot's client infos (0.6), or what 0.7's
    // messages said.
    let mut names: BTreeMap<i32, String> = BTreeMap::new();
    // The clients of the previous snapshot (0.6), none before the first.
    let mut present: Option<BTreeMap<i32, String>> = None;
    let mut last_snapshot = None;
    demo::walk(&mut reader, |chunk, tick, rec, msg| {
        if let Some(msg) = msg {
            let Ok(msg) = netmsg::decode(protocol, msg) else {
                return Ok(());
            };
            if let netmsg::NetMsg::Game07(netmsg::Game07::SvClientInfo {
                client_id, info, ..
            }) = msg
            {
                names.insert(client_id, info.name.to_string());
            }
            for event in events.feed(&msg) {
                // The map sent again (to each client joining, in a server
                // demo) is no change.
                if let Event::MapChange { map, crc, .. } = event {
                    let this = (map.0.to_vec(), crc);
                    if last_map.as_ref() == Some(&this) {
                        continue;
                    }
                    last_map = Some(this);
                }
                write(out, as_json, tick, &event, |id| names.get(&id).cloned())?;
            }
            return Ok(());
        }
        // Joins and leaves of a 0.6 demo: its snapshots' client infos.
        let is_snapshot = matches!(
            chunk,
            gamefmt::demo::Chunk::Data {
                kind: gamefmt::demo::ChunkKind::Snapshot | gamefmt::demo::ChunkKind::Delta,
                ..
            }
        );
        if protocol != Protocol::V06 || !is_snapshot {
            return Ok(());
        }
        let Some(snap) = rec.snapshot() else {
            return Ok(());
        };
        if last_snapshot == Some(snap.checksum()) && present.is_some() {
            return Ok(());
        }
        last_snapshot = Some(snap.checksum());
        let now: BTreeMap<i32, String> = players(protocol, &snap)
            .into_iter()
            .filter_map(|p| Some((i32::from(p.client_id), p.name?)))
            .collect();
        if let Some(before) = &present {
            for (cid, name) in before {
                if now.get(cid) != Some(name) {
                    let leave = Event::Leave {
                        cid: *cid,
                        name: Some(NetStr(name.as_bytes())),
                        reason: None,
                    };
                    write(out, as_json, tick, &leave, |_| None)?;
                }
            }
            for (cid, name) in &now {
                if before.get(cid) != Some(name) {
                    let join = Event::Join {
                        cid: *cid,
                        name: Some(NetStr(name.as_bytes())),
                    };
                    write(out, as_json, tick, &join, |_| None)?;
                }
            }
        }
        names.extend(now.iter().map(|(k, v)| (*k, v.clone())));
        present = Some(now);
        Ok(())
    })?;
    if let Some(event) = events.finish() {
        write(out, as_json, None, &event, |_| None)?;
    }
    Ok(())
}

/// `gamefmt events` on a teehistorian recording.
pub fn teehistorian(input: &mut Input, as_json: bool, out: &mut dyn Write) -> Result<(), CliError> {
    let (mut reader, header) = teehistorian::open(input)?;
    let header = header.header()?;
    let map = header.map_name().map(|m| m.to_string()).unwrap_or_default();
    let map = Event::MapChange {
        map: NetStr(map.as_bytes()),
        crc: i32::from_ne_bytes(header.map_crc().unwrap_or(0).to_ne_bytes()),
        size: header
            .map_size()
            .and_then(|s| i32::try_from(s).ok())
            .unwrap_or(0),
    };
    write(out, as_json, Some(0), &map, |_| None)?;
    let mut names = Box::new(PlayerNames::<{ gamefmt::teehistorian::MAX_CLIENTS }>::new());
    let mut protocols = Box::new(ClientProtocols::<{ gamefmt::teehistorian::MAX_CLIENTS }>::new());
    while let Some(record) = teehistorian::next_record(&mut reader) {
        let record = record?;
        protocols.apply(&record.message);
        // Names before the record (a DROP forgets its client's name).
        let protocol = match record.message {
            gamefmt::teehistorian::Message::PlayerMessage { cid, .. } => protocols.get(cid),
            _ => Protocol::V06,
        };
        if let Some(event) = Event::of_teehistorian(&record.message, protocol) {
            let name_of = |cid: i32| {
                names
                    .get(cid)
                    .map(|n| String::from_utf8_lossy(n).into_owned())
            };
            write(out, as_json, Some(record.tick), &event, name_of)?;
        }
        names.apply(&record.message);
    }
    Ok(())
}
