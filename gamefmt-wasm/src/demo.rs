//! Teeworlds/DDNet demos: `DemoFile`, its header, chunks (messages typed,
//! snapshots with their players), reconstructed snapshots as typed
//! objects, chat, and the embedded map.

use std::collections::BTreeMap;

use gamefmt::demo::{Chunk, ChunkKind, DemoHeader, OwnedBuffers, Reconstructor, message_id};
use gamefmt::netmsg::{self, Game07, NetMsg};
use gamefmt::snapshot::objects::Object;
use gamefmt::stream::{Decoded, End};
use gamefmt::zerocopy::IntoBytes;
use gamefmt::{Error, Protocol};
use js_sys::Uint8Array;
use wasm_bindgen::prelude::*;

use crate::js::{self, Obj, array, decode_error};
use gamefmt::netmsg::{Chat, ChatKind, ChatLine};
use gamefmt::snapshot::{player_name, players};

/// A Teeworlds/DDNet demo, held in the module's memory.
#[wasm_bindgen]
pub struct DemoFile {
    bytes: Vec<u8>,
    header: DemoHeader,
}

/// What `walk` hands each chunk: the chunk, the tick in effect, the
/// reconstructor (its snapshot in effect) and a message chunk's bytes.
type Each<'e> = dyn FnMut(&Chunk<'_>, Option<i32>, &Reconstructor<'_>, Option<&[u8]>) -> Result<bool, JsValue>
    + 'e;

impl DemoFile {
    /// Parses the header.
    pub fn new(bytes: Vec<u8>) -> Result<Self, JsValue> {
        let header = DemoHeader::parse(&bytes).map_err(decode_error)?;
        Ok(Self { bytes, header })
    }

    fn protocol(&self) -> Protocol {
        Protocol::of_net_version(self.header.net_version())
    }

    /// Decodes every chunk (payloads included) and rebuilds the snapshot
    /// at every tick, as `gamefmt dump` does; `each` returns whether to go
    /// on. Returns how the stream ended.
    fn walk(&self, each: &mut Each<'_>) -> Result<End, JsValue> {
        let mut decoder = self.header.chunk_decoder();
        let mut rest = self
            .bytes
            .get(self.header.chunks_offset()..)
            .unwrap_or_default();
        let mut owned = OwnedBuffers::new();
        let mut rec = Reconstructor::new(owned.buffers(), self.header.item_sizes());
        let mut tick = None;
        let mut message = Vec::new();
        let chunk_error = |e: Error, at: usize| decode_error(Error::new(e.kind, at));
        loop {
            let at = decoder.offset();
            let (chunk, consumed) = match decoder.decode(rest).map_err(decode_error)? {
                Decoded::Record { record, consumed } => (record, consumed),
                Decoded::NeedMore { .. } | Decoded::Done { .. } => break,
            };
            rest = rest.get(consumed..).unwrap_or_default();
            let mut is_message = false;
            match chunk {
                Chunk::Tick { tick: t, .. } => tick = Some(t),
                Chunk::Data { kind, payload } => {
                    match kind {
                        ChunkKind::Message => {
                            let ints = rec.decode(payload).map_err(|e| chunk_error(e, at))?;
                            message.clear();
                            message.extend_from_slice(ints.as_bytes());
                            is_message = true;
                        }
                        ChunkKind::Unknown => {
                            rec.decode(payload).map_err(|e| chunk_error(e, at))?;
                        }
                        ChunkKind::Snapshot | ChunkKind::Delta => {}
                    }
                    rec.feed(&chunk).map_err(|e| chunk_error(e, at))?;
                }
            }
            let msg = is_message.then_some(message.as_slice());
            if !each(&chunk, tick, &rec, msg)? {
                break;
            }
        }
        Ok(decoder.end(rest.len()))
    }
}

#[wasm_bindgen]
impl DemoFile {
    /// `"demo"`.
    #[wasm_bindgen(getter)]
    pub fn format(&self) -> String {
        "demo".into()
    }

    /// The header: `version`, `net_version`, `map_name`, `map_size`,
    /// `map_crc`, `map_sha256` (hex or `null`), `kind`, `length_seconds`,
    /// `timestamp`, `markers`.
    pub fn header(&self) -> JsValue {
        let h = &self.header;
        let sha = h.map_sha256().map_or(JsValue::NULL, |s| {
            s.iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
                .into()
        });
        Obj::new()
            .set("version", h.version())
            .set("net_version", h.net_version())
            .set("map_name", h.map_name())
            .set("map_size", h.map_size())
            .set("map_crc", h.map_crc())
            .set("map_sha256", sha)
            .set("kind", h.kind())
            .set("length_seconds", h.length_seconds())
            .set("timestamp", h.timestamp())
            .set(
                "markers",
                array(h.markers().iter().map(|m| JsValue::from(*m))),
            )
            .done()
    }

    /// The embedded map's bytes (open them with `open()`), or `null` when
    /// the demo has none or it is cut.
    #[wasm_bindgen(js_name = mapBytes)]
    pub fn map_bytes(&self) -> JsValue {
        let start = self.header.map_offset();
        let len = usize::try_from(self.header.map_size()).unwrap_or(0);
        if len == 0 {
            return JsValue::NULL;
        }
        start
            .checked_add(len)
            .and_then(|end| self.bytes.get(start..end))
            .map_or(JsValue::NULL, |m| Uint8Array::from(m).into())
    }

    /// Every chunk as `gamefmt dump` prints it: `tick`, `kind` (`tick`,
    /// `snapshot`, `delta`, `message`, ...), `size`; snapshots and deltas
    /// with `items`, `crc` and `players` (`client_id`, `name`, `team`,
    /// `score`, `pos`); messages with `msg_id`, `system` and `message` (the
    /// core's serialized net message, names added from the snapshot).
    pub fn chunks(&self) -> Result<JsValue, JsValue> {
        let protocol = self.protocol();
        let out = js_sys::Array::new();
        self.walk(&mut |chunk, tick, rec, msg| {
            let line = match *chunk {
                Chunk::Tick { tick, keyframe } => Obj::new()
                    .set("tick", tick)
                    .set("kind", "tick")
                    .set("keyframe", keyframe)
                    .done(),
                Chunk::Data { kind, payload } => {
                    let line = Obj::new();
                    line.set("tick", js::opt_num(tick))
                        .set("kind", kind.name())
                        .set("size", payload.len() as f64);
                    let snap = rec
                        .snapshot()
                        .filter(|_| matches!(kind, ChunkKind::Snapshot | ChunkKind::Delta));
                    if let Some(snap) = snap {
                        line.set("items", snap.item_count() as f64)
                            .set("crc", snap.checksum())
                            .ser("players", &players(protocol, &snap))?;
                    }
                    if let Some(bytes) = msg {
                        if let Some((id, system)) = message_id(bytes) {
                            line.set("msg_id", id).set("system", system);
                        }
                        if let Ok(m) = netmsg::decode(protocol, bytes) {
                            let message = Obj::from_ser(&m)?;
                            if let Some(snap) = rec.snapshot() {
                                let players = players(protocol, &snap);
                                add_names(&message, |id| player_name(&players, id));
                            }
                            line.set("message", message.done());
                        }
                    }
                    line.done()
                }
            };
            out.push(&line);
            Ok(true)
        })?;
        Ok(out.into())
    }

    /// How the chunk stream ended: `{kind, offset, error}`.
    pub fn end(&self) -> Result<JsValue, JsValue> {
        let end = self.walk(&mut |_, _, _, _| Ok(true))?;
        js::ser(&end)
    }

    /// The number of snapshots (snapshot and delta chunks) in the demo.
    #[wasm_bindgen(js_name = snapshotCount)]
    pub fn snapshot_count(&self) -> Result<usize, JsValue> {
        let mut n = 0usize;
        self.walk(&mut |chunk, _, _, _| {
            if let Chunk::Data {
                kind: ChunkKind::Snapshot | ChunkKind::Delta,
                ..
            } = chunk
            {
                n = n.saturating_add(1);
            }
            Ok(true)
        })?;
        Ok(n)
    }

    /// The `index`th reconstructed snapshot (0-based, counting snapshot and
    /// delta chunks): `{tick, items, crc, players, objects}`, `objects` the
    /// core's typed snapshot objects (`kind`, `id`, fields); `null` past
    /// the end.
    pub fn snapshot(&self, index: usize) -> Result<JsValue, JsValue> {
        let protocol = self.protocol();
        let mut n = 0usize;
        let mut found = JsValue::NULL;
        self.walk(&mut |chunk, tick, rec, _| {
            if !matches!(
                chunk,
                Chunk::Data {
                    kind: ChunkKind::Snapshot | ChunkKind::Delta,
                    ..
                }
            ) {
                return Ok(true);
            }
            if n < index {
                n = n.saturating_add(1);
                return Ok(true);
            }
            let Some(snap) = rec.snapshot() else {
                return Ok(false);
            };
            let objects = js_sys::Array::new();
            for item in snap.items() {
                let o = match Object::parse(protocol, &snap, &item) {
                    Object::V06(o) => Obj::from_ser(&o)?,
                    Object::V07(o) => Obj::from_ser(&o)?,
                };
                o.set("id", item.id()).set("type_id", item.type_id());
                objects.push(&o.done());
            }
            found = Obj::new()
                .set("tick", js::opt_num(tick))
                .set("items", snap.item_count() as f64)
                .set("crc", snap.checksum())
                .ser("players", &players(protocol, &snap))?
                .set("objects", objects)
                .object()
                .into();
            Ok(false)
        })?;
        Ok(found)
    }

    /// The players of the last snapshot (the final scoreboard): `[{client_id,
    /// name, team, score, pos}]`.
    pub fn players(&self) -> Result<JsValue, JsValue> {
        let protocol = self.protocol();
        let mut last = Vec::new();
        self.walk(&mut |chunk, _, rec, _| {
            let snapshot = matches!(
                chunk,
                Chunk::Data {
                    kind: ChunkKind::Snapshot | ChunkKind::Delta,
                    ..
                }
            );
            if let Some(snap) = rec.snapshot().filter(|_| snapshot) {
                last = players(protocol, &snap);
            }
            Ok(true)
        })?;
        js::ser(&last)
    }

    /// The chat, as `gamefmt chat --json` prints it (without `file`):
    /// Sv_Chat messages, named from the snapshot in effect or, in 0.7, the
    /// latest Sv_ClientInfo.
    pub fn chat(&self) -> Result<JsValue, JsValue> {
        let protocol = self.protocol();
        let mut names07: BTreeMap<i32, String> = BTreeMap::new();
        let mut lines = Vec::new();
        self.walk(&mut |_, tick, rec, msg| {
            let Some(msg) = msg else { return Ok(true) };
            let Ok(msg) = netmsg::decode(protocol, msg) else {
                return Ok(true);
            };
            if let NetMsg::Game07(Game07::SvClientInfo {
                client_id, info, ..
            }) = msg
            {
                names07.insert(client_id, info.name.to_string());
                return Ok(true);
            }
            let Some(chat) = Chat::of_message(&msg, -1).filter(|c| c.kind == ChatKind::Chat) else {
                return Ok(true);
            };
            let client_id = chat.client_id;
            let from_snapshot = || player_name(&players(protocol, &rec.snapshot()?), client_id);
            let name = (client_id >= 0)
                .then(|| from_snapshot().or_else(|| names07.get(&client_id).cloned()))
                .flatten();
            lines.push(ChatLine::new(tick, &chat, name));
            Ok(true)
        })?;
        js::ser(&lines)
    }
}

/// Adds the names of the clients a message names (`client_id` → `name`,
/// `killer` → `killer_name`, `victim` → `victim_name`), as far as
/// `name_of` knows them.
fn add_names(message: &Obj, name_of: impl Fn(i32) -> Option<String>) {
    let o = message.object();
    for (id_key, name_key) in [
        ("client_id", "name"),
        ("killer", "killer_name"),
        ("victim", "victim_name"),
    ] {
        let id = js_sys::Reflect::get(&o, &id_key.into())
            .ok()
            .and_then(|v| v.as_f64())
            .filter(|v| v.fract() == 0.0 && *v >= f64::from(i32::MIN) && *v <= f64::from(i32::MAX));
        if let Some(name) = id.and_then(|id| name_of(id as i32)) {
            message.set(name_key, name);
        }
    }
}
