//! `gamefmt` on DDNet teehistorian recordings.

use std::collections::BTreeMap;
use std::io::Write;

use gamefmt::Protocol;
use gamefmt::netmsg;
use gamefmt::stream::End;
use gamefmt::teehistorian::{
    ClientProtocols, Ex, Header, Item, Message, PlayerNames, PlayerState, Reader, Record,
};
use gamefmt::uuid::Uuid;
use serde_json::{Value, json};

use crate::netmsg::message_json;
use gamefmt_cli::input::Input;

use crate::{CliError, json_line};

/// The header's JSON text, owned (the reader lends records only until the
/// next one).
pub struct HeaderText(String);

impl HeaderText {
    /// The parsed header (checked whole when the recording was opened).
    pub fn header(&self) -> Result<Header<'_>, CliError> {
        Ok(Header::parse_in_file(self.0.as_bytes())?)
    }
}

/// Opens the recording: a reader past its header, and the header's text
/// (joined from pieces if it came in several), checked whole: a damaged
/// header is the recording's first error, before any message's.
pub fn open(input: &mut Input) -> Result<(Reader<&mut Input>, HeaderText), CliError> {
    let mut reader = Reader::new(input);
    let mut pieces = Vec::new();
    loop {
        match reader.next() {
            Some(Ok(Item::Header(h))) => {
                h.validate()?;
                let text = HeaderText(h.json().to_owned());
                return Ok((reader, text));
            }
            Some(Ok(Item::HeaderPiece { json, last })) => {
                pieces.extend_from_slice(json);
                if last {
                    let text = Header::parse_in_file(&pieces)?.json().to_owned();
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
pub fn next_record<'r>(reader: &'r mut Reader<&mut Input>) -> Option<Result<Record<'r>, CliError>> {
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
    ex_counts: BTreeMap<&'static str, u64>,
    /// The same counts keyed by UUID (unknown UUIDs told apart); a
    /// UUID's order is its string's.
    ex_counts_by_uuid: BTreeMap<Uuid, u64>,
    last_tick: i32,
    end: End,
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
fn ex_key(ex: &Ex<'_>) -> &'static str {
    ex.name().unwrap_or("unknown")
}

/// What `validate` checks of each message, and `inspect` with it (so that
/// the two fail at the same first damage): the player state the message
/// moves, and its EX payload when the UUID is known.
struct Checks {
    players: PlayerState<{ gamefmt::teehistorian::MAX_CLIENTS }>,
}

impl Checks {
    fn new() -> Self {
        Self {
            players: PlayerState::new(),
        }
    }

    fn check(&mut self, record: &Record<'_>) -> Result<(), CliError> {
        // The player state's offsets are relative to the message: the
        // error is the message's, at its offset (as the Arrow tables say).
        self.players
            .apply(&record.message)
            .map_err(|e| e.shifted(record.offset))?;
        if let Message::Ex(ex) = record.message {
            ex.parse().map_err(|e| {
                CliError::Invalid(format!(
                    "EX payload of the message at byte offset {}: {} at payload byte {}",
                    record.offset, e.kind, e.offset
                ))
            })?;
        }
        Ok(())
    }
}

/// Walks every message, with [`Checks`]; a decoding error other than
/// truncation fails.
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
    let mut checks = Checks::new();
    while let Some(record) = next_record(&mut reader) {
        let record = record?;
        checks.check(&record)?;
        f.messages = f.messages.saturating_add(1);
        let count = f.counts.entry(record.message.kind().name()).or_default();
        *count = count.saturating_add(1);
        if let Message::Ex(ex) = record.message {
            let count = f.ex_counts.entry(ex_key(&ex)).or_default();
            *count = count.saturating_add(1);
            let count = f.ex_counts_by_uuid.entry(*ex.uuid).or_default();
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
                "ex_counts_by_uuid": f
                    .ex_counts_by_uuid
                    .iter()
                    .map(|(uuid, n)| (uuid.to_string(), json!(n)))
                    .collect::<serde_json::Map<_, _>>(),
                "last_tick": f.last_tick,
                "end": f.end.name(),
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
        f.end.name()
    )?;
    for (kind, n) in &f.counts {
        writeln!(out, "    {kind:<16} {n}")?;
    }
    for (name, n) in &f.ex_counts {
        writeln!(out, "    EX {name:<40} {n}")?;
    }
    Ok(())
}

/// One record as a JSON object: the core's serialized record (see
/// `gamefmt::vocabulary`), with `player`, the name of the client it is
/// about when known, and for a MESSAGE record `message`, the network
/// message decoded with that client's protocol.
fn record_json(r: &Record<'_>, player: Option<&[u8]>, protocol: Protocol) -> Value {
    let mut v = serde_json::to_value(r).unwrap_or(Value::Null);
    if let Some(obj) = v.as_object_mut() {
        if let Message::PlayerMessage { data, .. } = r.message {
            let message = netmsg::decode(protocol, data)
                .ok()
                .map(|m| message_json(&m));
            obj.insert("message".into(), json!(message));
        }
        if let Some(name) = player {
            obj.insert("player".into(), json!(String::from_utf8_lossy(name)));
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
    json_line(out, &json!({ "end": end.name() }))?;
    not_cut(end)
}

/// `gamefmt validate` for a teehistorian recording: every message, every
/// known EX payload and the player state must be consistent; the file may
/// end without FINISH (a crashed server) but not inside a message.
pub fn validate(input: &mut Input, out: &mut dyn Write) -> Result<(), CliError> {
    let (mut reader, text) = open(input)?;
    let version = text.header()?.version();
    let mut checks = Checks::new();
    let mut messages = 0u64;
    while let Some(record) = next_record(&mut reader) {
        checks.check(&record?)?;
        messages = messages.saturating_add(1);
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
