//! `gamefmt` on Slippi `.slp` replays.

use std::io::Write;

use gamefmt::slippi::{
    CMD_GECKO_LIST, Event, FinalPosts, GameEnd, GameStart, GeckoList, HEADER_LEN, Item, Metadata,
    Reader, StartingCharacters, VecReassembler, character_name, stage_name, winners,
};
use gamefmt::stream::End;
use serde_json::{Value, json};

use crate::frame_set::FrameSet;
use crate::{CliError, Ctx, json_line};
use gamefmt_cli::input::Input;

/// The quirks of the Event Payloads event (the first in the stream, at
/// byte [`HEADER_LEN`]), as `SlippiView::parse_with` and `parse_strict`
/// see them: refused when `ctx` is strict, collected in it otherwise.
fn payload_quirks(event: &Event<'_>, ctx: &mut Ctx) -> Result<(), CliError> {
    if let Event::EventPayloads(p) = event {
        p.report_quirks(HEADER_LEN, ctx.strict, &mut ctx.warnings)?;
    }
    Ok(())
}

/// The facts `inspect` reports, from one full walk of the events.
struct Facts {
    /// The raw array's declared length.
    raw_len: u32,
    /// The Game Start event's bytes (owned: the reader lends events only
    /// until the next one).
    game_start: Option<Vec<u8>>,
    /// The metadata element's UBJSON value, if it decodes.
    metadata: Option<Vec<u8>>,
    /// Why the metadata does not decode.
    metadata_error: Option<gamefmt::Error>,
    /// External character per port after the pre-1.6.0 Zelda/Sheik fix.
    characters: Option<StartingCharacters>,
    frames: FrameSet,
    /// The last Game End's bytes.
    game_end: Option<Vec<u8>>,
    /// The Post-Frame Updates before it.
    final_posts: FinalPosts,
    end_method: Option<u8>,
    /// The LRAS initiator as the core's `Serialize` gives it (`dump`'s
    /// `game_end`): a 1-based port, null for none.
    lras_initiator: Value,
    placements: Option<[i8; 4]>,
    /// Events per command byte.
    event_counts: [u64; 256],
    gecko_codes: Option<usize>,
    events: u64,
    ending: End,
}

impl Facts {
    fn game_start(&self) -> Option<GameStart<'_>> {
        match Event::parse(self.game_start.as_deref()?) {
            Event::GameStart(g) => Some(g),
            _ => None,
        }
    }

    fn metadata(&self) -> Option<Metadata<'_>> {
        Metadata::parse(self.metadata.as_deref()?).ok()
    }

    /// The winners, as `SlippiView::winners` tells them.
    fn winners(&self) -> gamefmt::slippi::Winners {
        match (self.game_start(), self.game_end.as_deref()) {
            (Some(start), Some(end)) => winners(&start, &GameEnd::new(end), self.final_posts.get()),
            _ => gamefmt::slippi::Winners::new(),
        }
    }
}

/// One walk over every event. With `partial`, damage after Game Start ends
/// the walk like a truncation (stderr says why) and the facts gathered so
/// far are kept, as bulk indexers want; otherwise it is an error.
/// Damage in the metadata (after the events) is kept in
/// `metadata_error`, and the events' ending is kept.
fn facts(
    input: &mut Input,
    partial: bool,
    ctx: &mut Ctx,
    warnings: &mut Vec<String>,
) -> Result<Facts, CliError> {
    let mut f = Facts {
        raw_len: 0,
        game_start: None,
        metadata: None,
        metadata_error: None,
        characters: None,
        frames: FrameSet::default(),
        game_end: None,
        final_posts: FinalPosts::default(),
        end_method: None,
        lras_initiator: Value::Null,
        placements: None,
        event_counts: [0; 256],
        gecko_codes: None,
        events: 0,
        ending: End::Eof,
    };
    let mut splits = VecReassembler::new();
    let mut reader = Reader::new(input);
    let mut ending = None;
    loop {
        let in_raw = reader.decoder().in_raw();
        let event = match reader.next() {
            Some(Ok(Item::Event(event))) => event,
            Some(Ok(Item::Header { raw_len })) => {
                f.raw_len = raw_len;
                continue;
            }
            Some(Ok(Item::Metadata(m))) => {
                f.metadata = Some(m.to_vec());
                continue;
            }
            Some(Ok(_)) => continue,
            None => break,
            Some(Err(e)) if !in_raw && e.decode_error().is_some() => {
                // Damage after the events does not change how they ended.
                f.metadata_error = e.decode_error();
                ending = Some(reader.decoder().end(0));
                break;
            }
            Some(Err(e)) if partial && f.game_start.is_some() => {
                warnings.push(format!("events end early: {}", CliError::from(e)));
                break;
            }
            Some(Err(e)) => return Err(e.into()),
        };
        if f.events == 0 {
            payload_quirks(&event, ctx)?;
        }
        f.events = f.events.saturating_add(1);
        if let Some(count) = f.event_counts.get_mut(usize::from(event.code())) {
            *count = count.saturating_add(1);
        }
        if let Some(n) = event.frame() {
            f.frames.insert(n);
        }
        f.final_posts.observe(&event);
        StartingCharacters::track(&mut f.characters, &event);
        match event {
            Event::GameStart(g) if f.game_start.is_none() => {
                f.game_start = Some(g.bytes().to_vec());
            }
            Event::GameEnd(e) => {
                f.game_end = Some(e.bytes().to_vec());
                f.end_method = e.method();
                f.lras_initiator = serde_json::to_value(event)
                    .ok()
                    .and_then(|mut v| v.get_mut("lras_initiator").map(Value::take))
                    .unwrap_or(Value::Null);
                f.placements = e.placements();
            }
            Event::MessageSplitter(s) if splits.push(&s)? => {
                if let Some((CMD_GECKO_LIST, list)) = splits.message() {
                    f.gecko_codes = Some(GeckoList::new(list).codes().count());
                }
            }
            Event::GeckoList(list) => f.gecko_codes = Some(list.codes().count()),
            _ => {}
        }
    }
    f.ending = ending.unwrap_or_else(|| reader.end());
    Ok(f)
}

/// The external character of every non-empty port: from `characters`
/// (with the pre-1.6.0 Zelda/Sheik fix) when given, else Game Start's.
fn characters<'g>(
    g: &'g GameStart<'_>,
    fixed: Option<&'g StartingCharacters>,
) -> impl Iterator<Item = (usize, Option<u8>)> + 'g {
    g.players()
        .map(move |(i, p)| (i, fixed.and_then(|c| c.get(i)).or(p.character())))
}

/// `{"port", "character"}` for every non-empty port (see [`characters`]).
fn players(g: &GameStart<'_>, fixed: Option<&StartingCharacters>) -> Vec<Value> {
    characters(g, fixed)
        .map(|(i, c)| json!({"port": i.saturating_add(1), "character": c}))
        .collect()
}

/// The character name of every non-empty port (see [`characters`]).
fn character_names(g: &GameStart<'_>, fixed: Option<&StartingCharacters>) -> Vec<Value> {
    characters(g, fixed)
        .map(|(_, c)| json!(c.and_then(character_name)))
        .collect()
}

/// `gamefmt inspect` for a replay.
pub fn inspect(
    input: &mut Input,
    as_json: bool,
    ctx: &mut Ctx,
    out: &mut dyn Write,
    warnings: &mut Vec<String>,
) -> Result<(), CliError> {
    let f = facts(input, true, ctx, warnings)?;
    let size = input.finish()?;
    let meta = f.metadata();
    let winners = f.winners();
    let g = f.game_start();
    let version = g.and_then(|g| g.version()).map(|v| v.to_string());
    let counts: serde_json::Map<String, Value> = (0u8..=u8::MAX)
        .zip(f.event_counts)
        .filter(|&(_, n)| n > 0)
        .map(|(c, n)| (format!("0x{c:02x}"), json!(n)))
        .collect();
    let value = json!({
        "format": "slippi",
        "warnings": ctx.warnings_json(),
        "version": version,
        "raw_len": f.raw_len,
        "stage": g.and_then(|g| g.stage()),
        "stage_name": g.and_then(|g| g.stage()).and_then(stage_name),
        "players": g.map(|g| players(&g, f.characters.as_ref())).unwrap_or_default(),
        "character_names": g
            .map(|g| character_names(&g, f.characters.as_ref()))
            .unwrap_or_default(),
        "winners": winners.as_slice(),
        "is_pal": g.and_then(|g| g.is_pal()),
        "metadata": meta.is_some(),
        "meta_last_frame": meta.and_then(|m| m.last_frame()),
        "meta_played_on": meta.and_then(|m| m.played_on()),
        "first_frame": f.frames.first(),
        "last_frame": f.frames.last(),
        "unique_frames": f.frames.len(),
        "end_method": f.end_method,
        "lras_initiator": f.lras_initiator,
        "placements": f.placements,
        "event_counts": counts,
        "gecko_codes": f.gecko_codes,
        "end": f.ending.name(),
    });
    if as_json {
        json_line(out, &value)?;
        return Ok(());
    }
    writeln!(
        out,
        "slippi replay {} ({} bytes, raw length {})",
        version.as_deref().unwrap_or("?"),
        size,
        f.raw_len
    )?;
    if let Some(g) = g {
        let stage = g.stage().unwrap_or_default();
        let name = stage_name(stage).unwrap_or("unknown");
        writeln!(out, "  stage:    {stage} ({name})")?;
        for ((i, c), (_, p)) in characters(&g, f.characters.as_ref()).zip(g.players()) {
            let c = c.unwrap_or_default();
            writeln!(
                out,
                "  port {}:   character {c} {} (type {})",
                i.saturating_add(1),
                character_name(c).unwrap_or("unknown"),
                p.player_type().unwrap_or_default()
            )?;
        }
    }
    writeln!(
        out,
        "  events:   {} ({} distinct frames)",
        f.events,
        f.frames.len()
    )?;
    if let Some(m) = f.end_method {
        writeln!(out, "  game end: method {m}")?;
    }
    if !winners.is_empty() {
        let ports: Vec<String> = winners
            .iter()
            .map(|w| format!("port {}", w.player_index.saturating_add(1)))
            .collect();
        writeln!(out, "  winners:  {}", ports.join(", "))?;
    }
    if let Some(n) = f.gecko_codes {
        writeln!(out, "  gecko:    {n} codes")?;
    }
    if let Some(m) = meta {
        writeln!(
            out,
            "  metadata: startAt {} lastFrame {} playedOn {}",
            m.start_at().unwrap_or("-"),
            m.last_frame().map_or_else(|| "-".into(), |v| v.to_string()),
            m.played_on().unwrap_or("-")
        )?;
    }
    writeln!(out, "  end:      {}", f.ending.name())?;
    Ok(())
}

/// One event as a JSON object: its `offset` in the file, then the core's
/// serialized event (see `gamefmt::vocabulary`).
fn event_json(offset: usize, event: &Event<'_>) -> Value {
    let mut v = json!({ "offset": offset });
    if let (Some(obj), Ok(Value::Object(fields))) = (v.as_object_mut(), serde_json::to_value(event))
    {
        obj.extend(fields);
    }
    v
}

/// `gamefmt dump` for a replay: one JSON line per event.
/// Stops after the raw events, as the metadata is not an event (damage in
/// it is `validate`'s business).
pub fn dump(input: &mut Input, ctx: &mut Ctx, out: &mut dyn Write) -> Result<(), CliError> {
    let mut reader = Reader::new(input);
    let mut first = true;
    loop {
        if !reader.decoder().in_raw() {
            return Ok(());
        }
        let offset = reader.offset();
        match reader.next() {
            Some(Ok(Item::Event(event))) => {
                if first {
                    payload_quirks(&event, ctx)?;
                    first = false;
                }
                json_line(out, &event_json(offset, &event))?;
            }
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(e.into()),
            None => return Ok(()),
        }
    }
}

/// `gamefmt validate` for a replay: decodes every event, the Gecko list and
/// the metadata. A live (truncated) file is reported but not an error.
pub fn validate(input: &mut Input, ctx: &mut Ctx, out: &mut dyn Write) -> Result<(), CliError> {
    let f = facts(input, false, ctx, &mut Vec::new())?;
    if let Some(e) = f.metadata_error {
        return Err(e.into());
    }
    if let Some(m) = &f.metadata {
        Metadata::parse(m)?;
    }
    if f.game_start.is_none() && !matches!(f.ending, End::Truncated { .. }) {
        return Err(CliError::Invalid("no Game Start event".into()));
    }
    writeln!(
        out,
        "ok: {} events, {} frames, end {}",
        f.events,
        f.frames.len(),
        f.ending.name()
    )?;
    Ok(())
}
