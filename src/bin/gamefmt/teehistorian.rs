//! `gamefmt` on DDNet teehistorian recordings.

use std::collections::BTreeMap;
use std::io::Write;

use gamefmt::Protocol;
use gamefmt::netmsg;
use gamefmt::stream::End;
use gamefmt::teehistorian::{
    ClientProtocols, CommandSource, Ex, ExMessage, Header, Item, Message, PlayerNames, PlayerState,
    Reader, Record,
};
use serde_json::{Value, json};

use crate::netmsg::message_json;
use gamefmt::input::Input;

use crate::{CliError, json_line};

/// The header's JSON text, owned (the reader lends records only until the
/// next one).
struct HeaderText(String);

impl HeaderText {
    fn header(&self) -> Result<Header<'_>, CliError> {
        Ok(Header::parse(&self.0)?)
    }
}

/// Opens the recording: a reader past its header, and the header's text
/// (joined from pieces if it came in several).
fn open(input: &mut Input) -> Result<(Reader<&mut Input>, HeaderText), CliError> {
    let mut reader = Reader::new(input);
    let mut pieces = Vec::new();
    loop {
        match reader.next() {
            Some(Ok(Item::Header(h))) => {
                let text = HeaderText(h.json().to_owned());
                return Ok((reader, text));
            }
            Some(Ok(Item::HeaderPiece { json, last })) => {
                pieces.extend_from_slice(json);
                if last {
                    let text = String::from_utf8(pieces)
                        .map_err(|_| CliError::Invalid("header is not UTF-8".into()))?;
                    return Ok((reader, HeaderText(text)));
                }
            }
            Some(Ok(Item::Message(_))) => {
                return Err(CliError::Invalid("message before the header".into()));
            }
            Some(Err(e)) => return Err(e.into()),
            None => return Err(gamefmt::Error::truncated(reader.offset()).into()),
        }
    }
}

/// The next message, `None` at the end of the stream.
fn next_record<'r>(reader: &'r mut Reader<&mut Input>) -> Option<Result<Record<'r>, CliError>> {
    match reader.next()? {
        Ok(Item::Message(record)) => Some(Ok(record)),
        Ok(_) => Some(Err(CliError::Invalid("second header".into()))),
        Err(e) => Some(Err(e.into())),
    }
}

/// The facts `inspect` reports about a recording.
struct Facts {
    messages: u64,
    counts: BTreeMap<&'static str, u64>,
    ex_counts: BTreeMap<String, u64>,
    /// The same counts keyed by UUID string (unknown UUIDs told apart).
    ex_counts_by_uuid: BTreeMap<String, u64>,
    last_tick: i32,
    end: End,
}

/// How the CLI names an ending: FINISH for a complete recording.
fn end_name(end: End) -> &'static str {
    match end {
        End::Complete => "finish",
        other => other.name(),
    }
}

/// A recording cut inside a message is an error for `dump` and
/// `validate` (after everything before the cut).
fn not_cut(end: End) -> Result<(), CliError> {
    match end {
        End::Truncated { offset } => Err(gamefmt::Error::truncated(offset).into()),
        _ => Ok(()),
    }
}

/// The key of an EX message in `ex_counts`: its UUID name, or "unknown".
fn ex_key(ex: &Ex<'_>) -> String {
    ex.name().unwrap_or("unknown").to_owned()
}

/// Walks every message; a decoding error other than truncation fails.
fn facts(input: &mut Input) -> Result<(HeaderText, Facts), CliError> {
    let (mut reader, header) = open(input)?;
    let mut f = Facts {
        messages: 0,
        counts: BTreeMap::new(),
        ex_counts: BTreeMap::new(),
        ex_counts_by_uuid: BTreeMap::new(),
        last_tick: 0,
        end: End::Eof,
    };
    while let Some(record) = next_record(&mut reader) {
        let record = record?;
        f.messages = f.messages.saturating_add(1);
        let count = f.counts.entry(record.message.kind().name()).or_default();
        *count = count.saturating_add(1);
        if let Message::Ex(ex) = record.message {
            let count = f.ex_counts.entry(ex_key(&ex)).or_default();
            *count = count.saturating_add(1);
            let count = f.ex_counts_by_uuid.entry(ex.uuid.to_string()).or_default();
            *count = count.saturating_add(1);
        }
        f.last_tick = record.tick;
    }
    f.end = reader.end();
    Ok((header, f))
}

/// `gamefmt inspect` for a teehistorian recording.
pub fn inspect(input: &mut Input, as_json: bool, out: &mut dyn Write) -> Result<(), CliError> {
    let (header, f) = facts(input)?;
    let size = input.finish()?;
    let header = header.header()?;
    let version_minor = header.version_minor_str().map(|v| v.to_string());
    let game_uuid = header.game_uuid().map(|u| u.to_string());
    let map_name = header.map_name().map(|v| v.to_string());
    if as_json {
        json_line(
            out,
            &json!({
                "format": "teehistorian",
                "version": header.version(),
                "version_minor": version_minor,
                "game_uuid": game_uuid,
                "map_name": map_name,
                "messages": f.messages,
                "counts": f.counts,
                "ex_counts": f.ex_counts,
                "ex_counts_by_uuid": f.ex_counts_by_uuid,
                "last_tick": f.last_tick,
                "end": end_name(f.end),
            }),
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "teehistorian version {}.{} ({} bytes)",
        header.version(),
        version_minor.as_deref().unwrap_or("-"),
        size
    )?;
    writeln!(out, "  game:     {}", game_uuid.as_deref().unwrap_or("-"))?;
    writeln!(out, "  map:      {}", map_name.as_deref().unwrap_or("-"))?;
    if let Some(v) = header.server_version() {
        writeln!(out, "  server:   {v}")?;
    }
    if let Some(v) = header.start_time() {
        writeln!(out, "  started:  {v}")?;
    }
    writeln!(
        out,
        "  messages: {} up to tick {} (end: {})",
        f.messages,
        f.last_tick,
        end_name(f.end)
    )?;
    for (kind, n) in &f.counts {
        writeln!(out, "    {kind:<16} {n}")?;
    }
    for (name, n) in &f.ex_counts {
        writeln!(out, "    EX {name:<40} {n}")?;
    }
    Ok(())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The fields of a typed EX message, as JSON.
fn ex_json(ex: &ExMessage<'_>) -> Value {
    match *ex {
        ExMessage::Test => json!({}),
        ExMessage::DdnetVersionOld { cid, version } => json!({"cid": cid, "version": version}),
        ExMessage::DdnetVersion {
            cid,
            connection_id,
            version,
            version_str,
        } => json!({
            "cid": cid,
            "connection_id": connection_id.to_string(),
            "version": version,
            "version_str": text(version_str),
        }),
        ExMessage::AuthInit {
            cid,
            level,
            auth_name,
        }
        | ExMessage::AuthLogin {
            cid,
            level,
            auth_name,
        } => json!({"cid": cid, "level": level, "auth_name": text(auth_name)}),
        ExMessage::AuthLogout { cid }
        | ExMessage::JoinVer6 { cid }
        | ExMessage::JoinVer7 { cid }
        | ExMessage::PlayerReady { cid }
        | ExMessage::PlayerRejoin { cid } => json!({"cid": cid}),
        ExMessage::PlayerSwitch { cid1, cid2 } => json!({"cid1": cid1, "cid2": cid2}),
        ExMessage::SaveSuccess {
            team,
            save_id,
            save,
        }
        | ExMessage::LoadSuccess {
            team,
            save_id,
            save,
        } => json!({"team": team, "save_id": save_id.to_string(), "save": text(save)}),
        ExMessage::SaveFailure { team } | ExMessage::LoadFailure { team } => json!({"team": team}),
        ExMessage::PlayerTeam { cid, team } => json!({"cid": cid, "team": team}),
        ExMessage::TeamPractice { team, practice } => json!({"team": team, "practice": practice}),
        ExMessage::PlayerName { cid, name } => json!({"cid": cid, "name": text(name)}),
        ExMessage::PlayerFinish { cid, time } => json!({"cid": cid, "time": time}),
        ExMessage::TeamFinish { team, time } => json!({"team": team, "time": time}),
        ExMessage::Antibot { data } | ExMessage::Unknown { data, .. } => {
            json!({"size": data.len()})
        }
        _ => json!({}),
    }
}

/// One message as a JSON object; `player` is the name of the client it is
/// about, when known; `protocol` that client's (for MESSAGE records).
fn record_json(r: &Record<'_>, player: Option<&[u8]>, protocol: Protocol) -> Value {
    let mut v = json!({
        "tick": r.tick,
        "offset": r.offset,
        "kind": r.message.kind().name(),
    });
    let fields = match r.message {
        Message::PlayerDiff { cid, dx, dy } => json!({"cid": cid, "dx": dx, "dy": dy}),
        Message::Finish => json!({}),
        Message::TickSkip { dt } => json!({"dt": dt}),
        Message::PlayerNew { cid, x, y } => json!({"cid": cid, "x": x, "y": y}),
        Message::PlayerOld { cid } | Message::Join { cid } => json!({"cid": cid}),
        Message::InputDiff { cid, diff } => json!({"cid": cid, "diff": diff}),
        Message::InputNew { cid, input } => json!({"cid": cid, "input": input}),
        Message::PlayerMessage { cid, data } => json!({
            "cid": cid,
            "data": data,
            "message": netmsg::decode(protocol, data).ok().map(|m| message_json(&m)),
        }),
        Message::Drop { cid, reason } => json!({"cid": cid, "reason": text(reason)}),
        Message::ConsoleCommand {
            cid,
            flags,
            cmd,
            args,
        } => json!({
            "cid": cid,
            "flags": flags,
            "source": CommandSource::of(cid, flags).name(),
            "cmd": text(cmd),
            "args": args.iter().map(text).collect::<Vec<_>>(),
        }),
        Message::Ex(ex) => match ex.parse() {
            Ok(typed) => {
                json!({"uuid": ex.uuid.to_string(), "name": ex.name(), "fields": ex_json(&typed)})
            }
            Err(err) => {
                json!({"uuid": ex.uuid.to_string(), "name": ex.name(), "error": err.to_string()})
            }
        },
    };
    if let (Some(v), Value::Object(fields)) = (v.as_object_mut(), fields) {
        v.extend(fields);
        if let Some(name) = player {
            v.insert("player".into(), json!(text(name)));
        }
    }
    v
}

/// `gamefmt dump` for a teehistorian recording: the header, then one JSON
/// line per message with its tick (and `player`, the name of the client it
/// is about, once an EX player-name record has named it).
pub fn dump(input: &mut Input, out: &mut dyn Write) -> Result<(), CliError> {
    let (mut reader, text) = open(input)?;
    let header: Value = serde_json::from_str(&text.0).unwrap_or_else(|_| json!(text.0));
    json_line(out, &json!({ "header": header }))?;
    let mut names = Box::new(PlayerNames::<{ gamefmt::teehistorian::MAX_CLIENTS }>::new());
    let mut protocols = Box::new(ClientProtocols::<{ gamefmt::teehistorian::MAX_CLIENTS }>::new());
    while let Some(record) = next_record(&mut reader) {
        let record = record?;
        names.apply(&record.message);
        protocols.apply(&record.message);
        let cid = record.message.client_id();
        let player = cid.and_then(|cid| names.get(cid));
        let protocol = cid.map_or(Protocol::V06, |c| protocols.get(c));
        json_line(out, &record_json(&record, player, protocol))?;
    }
    let end = reader.end();
    json_line(out, &json!({ "end": end_name(end) }))?;
    not_cut(end)
}

/// `gamefmt validate` for a teehistorian recording: every message, every
/// known EX payload and the player state must be consistent; the file may
/// end without FINISH (a crashed server) but not inside a message.
pub fn validate(input: &mut Input, out: &mut dyn Write) -> Result<(), CliError> {
    let (mut reader, text) = open(input)?;
    let version = text.header()?.version();
    let mut players = PlayerState::<{ gamefmt::teehistorian::MAX_CLIENTS }>::new();
    let mut messages = 0u64;
    while let Some(record) = next_record(&mut reader) {
        let record = record?;
        messages = messages.saturating_add(1);
        players.apply(&record.message).map_err(|e| {
            CliError::Invalid(format!(
                "message at byte offset {} (tick {}): {}",
                record.offset, record.tick, e.kind
            ))
        })?;
        if let Message::Ex(ex) = record.message {
            ex.parse().map_err(|e| {
                CliError::Invalid(format!(
                    "EX payload of the message at byte offset {}: {} at payload byte {}",
                    record.offset, e.kind, e.offset
                ))
            })?;
        }
    }
    let end = reader.end();
    not_cut(end)?;
    writeln!(
        out,
        "ok: teehistorian version {version}, {messages} messages up to tick {}, end: {}",
        reader.decoder().tick(),
        end.name()
    )?;
    Ok(())
}
