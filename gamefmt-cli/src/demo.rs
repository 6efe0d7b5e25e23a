//! `gamefmt` on Teeworlds/DDNet demos.

use std::io::{Read, Write};

use gamefmt::demo::{
    Chunk, ChunkKind, DemoHeader, DemoView, Item, OwnedBuffers, Reader, Reconstructor, message_id,
};
use gamefmt::stream::End;
use gamefmt::zerocopy::IntoBytes;
use serde_json::{Value, json};

use gamefmt::Protocol;
use gamefmt::netmsg;

use crate::netmsg::{add_names, message_json, players_json};
use crate::{CliError, json_line};
use gamefmt::snapshot::{player_name, players};
use gamefmt_cli::input::Input;

/// Counts and ticks over the whole chunk stream.
#[derive(Default)]
pub struct Facts {
    chunks: u64,
    tick_markers: u64,
    snapshots: u64,
    deltas: u64,
    messages: u64,
    first_tick: Option<i32>,
    last_tick: Option<i32>,
    final_items: Option<usize>,
    final_crc: Option<i32>,
    end: &'static str,
}

/// Reads a demo's header and embedded map from `reader` (a new one),
/// which is left at the first chunk; appends their bytes to `prelude` if
/// given. A file that ends before the chunks is an error.
pub fn open<R: Read>(
    reader: &mut Reader<R>,
    mut prelude: Option<&mut Vec<u8>>,
) -> Result<DemoHeader, CliError> {
    loop {
        let (bytes, done) = match reader.next() {
            Some(Ok(Item::Header { bytes })) => (bytes, false),
            Some(Ok(Item::MapPiece { bytes, last })) => (bytes, last),
            Some(Ok(Item::Chunk(_))) => break,
            Some(Err(e)) => return Err(e.into()),
            None => return Err(gamefmt::Error::truncated(reader.offset()).into()),
        };
        if let Some(prelude) = prelude.as_deref_mut() {
            prelude.extend_from_slice(bytes);
        }
        let header = reader.header().filter(|h| done || h.map_size() == 0);
        if let Some(header) = header {
            return Ok(header.clone());
        }
    }
    Err(CliError::Invalid("a demo chunk before the header".into()))
}

/// Decodes every chunk (payloads included) of a reader past the header
/// and the map ([`open`]) and rebuilds the snapshot at every tick; `each`
/// sees every chunk with the tick and snapshot in effect and, for a
/// message chunk, the message bytes.
pub fn walk<R: Read>(
    reader: &mut Reader<R>,
    mut each: impl FnMut(
        &Chunk<'_>,
        Option<i32>,
        &Reconstructor<'_>,
        Option<&[u8]>,
    ) -> Result<(), CliError>,
) -> Result<Facts, CliError> {
    let mut owned = OwnedBuffers::new();
    let sizes = reader.header().map_or(&[][..], DemoHeader::item_sizes);
    let mut rec = Reconstructor::new(owned.buffers(), sizes);
    let mut facts = Facts::default();
    let mut tick = None;
    // The message's bytes, in one buffer reused for every message chunk:
    // they must outlive `rec.decode`'s borrow of `rec`, which `each` sees.
    let mut message = Vec::new();
    loop {
        let at = reader.offset();
        let chunk = match reader.next() {
            Some(Ok(Item::Chunk(chunk))) => chunk,
            Some(Ok(_)) => return Err(CliError::Invalid("demo header or map not read".into())),
            Some(Err(e)) => return Err(e.into()),
            None => break,
        };
        facts.chunks = facts.chunks.saturating_add(1);
        let mut is_message = false;
        match chunk {
            Chunk::Tick { tick: t, .. } => {
                facts.tick_markers = facts.tick_markers.saturating_add(1);
                facts.first_tick.get_or_insert(t);
                facts.last_tick = Some(t);
                tick = Some(t);
            }
            Chunk::Data { kind, payload } => {
                match kind {
                    ChunkKind::Snapshot => facts.snapshots = facts.snapshots.saturating_add(1),
                    ChunkKind::Delta => facts.deltas = facts.deltas.saturating_add(1),
                    ChunkKind::Message => {
                        facts.messages = facts.messages.saturating_add(1);
                        let ints = rec.decode(payload).map_err(|e| chunk_error(e, at))?;
                        message.clear();
                        message.extend_from_slice(ints.as_bytes());
                        is_message = true;
                    }
                    ChunkKind::Unknown => {
                        rec.decode(payload).map_err(|e| chunk_error(e, at))?;
                    }
                }
                rec.feed(&chunk).map_err(|e| chunk_error(e, at))?;
            }
        }
        let msg = is_message.then_some(message.as_slice());
        each(&chunk, tick, &rec, msg)?;
    }
    if let Some(snap) = rec.snapshot() {
        facts.final_items = Some(snap.item_count());
        facts.final_crc = Some(snap.checksum());
    }
    facts.end = match reader.end() {
        End::Truncated { .. } => "truncated",
        _ => "complete",
    };
    Ok(facts)
}

/// An error inside the payload of the chunk at file offset `at`.
fn chunk_error(e: gamefmt::Error, at: usize) -> CliError {
    CliError::Decode(gamefmt::Error::new(e.kind, at))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `gamefmt inspect` for a demo.
pub fn inspect(input: &mut Input, as_json: bool, out: &mut dyn Write) -> Result<(), CliError> {
    let mut reader = Reader::new(&mut *input);
    let h = open(&mut reader, None)?;
    let f = walk(&mut reader, |_, _, _, _| Ok(()))?;
    drop(reader);
    let size = input.finish()?;
    let sha = h.map_sha256().map(|s| hex(s));
    if as_json {
        json_line(
            out,
            &json!({
                "format": "demo",
                "version": h.version(),
                "net_version": h.net_version(),
                "map_name": h.map_name(),
                "map_size": h.map_size(),
                "map_sha256": sha,
                "length_seconds": h.length_seconds(),
                "markers": h.markers().len(),
                "chunks": f.chunks,
                "tick_markers": f.tick_markers,
                "snapshots": f.snapshots,
                "deltas": f.deltas,
                "messages": f.messages,
                "first_tick": f.first_tick,
                "last_tick": f.last_tick,
                "final_snapshot_items": f.final_items,
                "final_snapshot_crc": f.final_crc,
                "end": f.end,
            }),
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "demo version {} ({} bytes), {} recording",
        h.version(),
        size,
        h.kind()
    )?;
    writeln!(out, "  net version: {}", h.net_version())?;
    writeln!(
        out,
        "  map:         {} ({} bytes, crc {:08x}, sha256 {})",
        h.map_name(),
        h.map_size(),
        h.map_crc(),
        sha.as_deref().unwrap_or("-")
    )?;
    writeln!(
        out,
        "  length:      {} s, recorded {}",
        h.length_seconds(),
        h.timestamp()
    )?;
    writeln!(out, "  markers:     {:?}", h.markers())?;
    writeln!(
        out,
        "  chunks:      {} ({} ticks, {} snapshots, {} deltas, {} messages), {}",
        f.chunks, f.tick_markers, f.snapshots, f.deltas, f.messages, f.end
    )?;
    if let (Some(first), Some(last)) = (f.first_tick, f.last_tick) {
        writeln!(out, "  ticks:       {first}..={last}")?;
    }
    if let (Some(items), Some(crc)) = (f.final_items, f.final_crc) {
        writeln!(out, "  final snapshot: {items} items, crc {crc}")?;
    }
    Ok(())
}

/// `gamefmt dump` for a demo: one JSON line per chunk; messages typed,
/// snapshots with their players.
pub fn dump(input: &mut Input, out: &mut dyn Write) -> Result<(), CliError> {
    let mut reader = Reader::new(input);
    let protocol = Protocol::of_net_version(open(&mut reader, None)?.net_version());
    walk(&mut reader, |chunk, tick, rec, msg| {
        let line: Value = match *chunk {
            Chunk::Tick { tick, keyframe } => {
                json!({"tick": tick, "kind": "tick", "keyframe": keyframe})
            }
            Chunk::Data { kind, payload } => {
                let mut line = serde_json::Map::new();
                line.insert("tick".into(), json!(tick));
                line.insert("kind".into(), json!(kind.name()));
                line.insert("size".into(), json!(payload.len()));
                let snap = rec
                    .snapshot()
                    .filter(|_| matches!(kind, ChunkKind::Snapshot | ChunkKind::Delta));
                if let Some(snap) = snap {
                    line.insert("items".into(), json!(snap.item_count()));
                    line.insert("crc".into(), json!(snap.checksum()));
                    line.insert("players".into(), players_json(&players(protocol, &snap)));
                }
                if let Some(bytes) = msg {
                    if let Some((id, system)) = message_id(bytes) {
                        line.insert("msg_id".into(), json!(id));
                        line.insert("system".into(), json!(system));
                    }
                    if let Ok(m) = netmsg::decode(protocol, bytes) {
                        let mut message = message_json(&m);
                        if let Some(snap) = rec.snapshot() {
                            let players = players(protocol, &snap);
                            add_names(&mut message, |id| player_name(&players, id));
                        }
                        line.insert("message".into(), message);
                    }
                }
                Value::Object(line)
            }
        };
        json_line(out, &line).map_err(CliError::Io)
    })?;
    Ok(())
}

/// `gamefmt validate` for a demo: the header, every chunk and every
/// delta, then the embedded map (so that damage in the chunks is told as
/// the Arrow tables tell it: they do not read the map).
/// The header and the embedded map are kept in memory (maps are small)
/// while the chunks are streamed.
pub fn validate(input: &mut Input, out: &mut dyn Write) -> Result<(), CliError> {
    let mut prefix = Vec::new();
    let mut reader = Reader::new(input);
    let header = open(&mut reader, Some(&mut prefix))?;
    let f = walk(&mut reader, |_, _, _, _| Ok(()))?;
    drop(reader);
    let view = DemoView::parse(&prefix)?;
    // A demo recorded without its map (DDNet's recorder when told not to
    // embed it) names the map and carries no bytes of it.
    let map = if header.map_size() == 0 {
        "not embedded".to_owned()
    } else {
        format!("{} items", view.map()?.item_count())
    };
    writeln!(
        out,
        "ok: demo version {}, map {} ({map}), {} chunks, {}",
        header.version(),
        header.map_name(),
        f.chunks,
        f.end
    )?;
    Ok(())
}
