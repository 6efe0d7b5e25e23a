//! Slippi replays: `SlippiFile`, its events, Game Start, metadata,
//! winners, stats and frames as typed-array columns.

use gamefmt::slippi::ubjson::{self, Value};
use gamefmt::slippi::{
    Decoder, Event, GameStart, Item, SlippiEventIter, SlippiStats, SlippiView, StartingCharacters,
    character_name,
};
use gamefmt::stream::{Decoded, End};
use js_sys::{Float32Array, Int32Array, Uint8Array, Uint16Array, Uint32Array};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use crate::columns::{EventColumns, NotFlat};
use crate::js::{self, Obj, decode_error};

/// A Slippi `.slp` replay, held in the module's memory.
#[wasm_bindgen]
pub struct SlippiFile {
    bytes: Vec<u8>,
    /// The rows of the last [`SlippiFile::frame_rows_view`], which its
    /// view shows.
    rows: Vec<u32>,
}

/// Walks the stream: `each` sees every record with its file offset.
/// Returns how the stream ended; the first error is thrown.
fn walk<'a>(
    bytes: &'a [u8],
    mut each: impl FnMut(usize, Item<'a>, &Decoder) -> Result<bool, JsValue>,
) -> Result<End, JsValue> {
    let mut decoder = Decoder::new();
    let mut rest = bytes;
    loop {
        let at = decoder.offset();
        match decoder.decode(rest).map_err(decode_error)? {
            Decoded::Record { record, consumed } => {
                rest = rest.get(consumed..).unwrap_or_default();
                if !each(at, record, &decoder)? {
                    return Ok(decoder.end(rest.len()));
                }
            }
            Decoded::NeedMore { .. } | Decoded::Done { .. } => {
                return Ok(decoder.end(rest.len()));
            }
        }
    }
}

/// Every event of the raw array, in order, through the slice iterator
/// (its fast path for the ordinary events: `slippiJsStats()` on the 60
/// corpus replays 340 -> 278 ms against the general loop of `walk`);
/// damage inside the raw array throws, as in `walk`.
fn each_event<'a>(
    bytes: &'a [u8],
    mut each: impl FnMut(Event<'a>) -> Result<(), JsValue>,
) -> Result<(), JsValue> {
    for event in SlippiEventIter::new(bytes) {
        each(event.map_err(decode_error)?)?;
    }
    Ok(())
}

/// One event as `gamefmt dump` prints it: `offset` and the core's
/// serialized event (`kind`, `code`, fields).
pub fn event(offset: usize, e: &Event<'_>) -> Result<JsValue, JsValue> {
    let o = Obj::from_ser(e)?;
    o.set("offset", offset as f64);
    Ok(o.done())
}

/// A UBJSON value as JavaScript (objects as plain objects).
fn ubjson_value(v: Value<'_>) -> Result<JsValue, JsValue> {
    Ok(match v {
        Value::Null => JsValue::NULL,
        Value::Bool(b) => b.into(),
        Value::Int(i) => (i as f64).into(),
        Value::Float(f) => f.into(),
        Value::Char(c) => char::from(c).to_string().into(),
        Value::Str(s) | Value::HighPrecision(s) => String::from_utf8_lossy(s).as_ref().into(),
        Value::Array(c) => {
            let out = js_sys::Array::new();
            for entry in c.entries() {
                let (_, v) = entry.map_err(decode_error)?;
                out.push(&ubjson_value(v)?);
            }
            out.into()
        }
        Value::Object(c) => {
            let o = Obj::new();
            for entry in c.entries() {
                let (k, v) = entry.map_err(decode_error)?;
                o.set(&String::from_utf8_lossy(k), ubjson_value(v)?);
            }
            o.done()
        }
    })
}

impl SlippiFile {
    /// Every event through the stats, finished.
    fn finished_stats(&self) -> Result<Box<SlippiStats>, JsValue> {
        let mut stats = Box::new(SlippiStats::new());
        each_event(&self.bytes, |e| {
            stats.push(&e);
            Ok(())
        })?;
        stats.finish();
        Ok(stats)
    }

    /// Keeps the bytes (decoding happens per call).
    pub fn new(bytes: Vec<u8>) -> Result<Self, JsValue> {
        Ok(Self {
            bytes,
            rows: Vec::new(),
        })
    }
}

/// Frame columns: one slot per frame from the first to the last.
struct Columns {
    first: i32,
    len: usize,
}

#[wasm_bindgen]
impl SlippiFile {
    /// `"slippi"`.
    #[wasm_bindgen(getter)]
    pub fn format(&self) -> String {
        "slippi".into()
    }

    /// Every event of the raw array, in file order, as `gamefmt dump`
    /// prints them (`offset`, `kind`, `code`, fields; `port` 1-based). A
    /// file cut inside an event ends after the last whole one (see
    /// `end()`); damage throws.
    pub fn events(&self) -> Result<JsValue, JsValue> {
        let out = js_sys::Array::new();
        walk(&self.bytes, |at, item, decoder| {
            if let Item::Event(e) = item {
                out.push(&event(at, &e)?);
            }
            Ok(decoder.in_raw())
        })?;
        Ok(out.into())
    }

    /// How the event stream ended: `{kind, offset, error}` (`complete`,
    /// `eof`, `truncated`, `damaged`).
    pub fn end(&self) -> Result<JsValue, JsValue> {
        let mut decoder = Decoder::new();
        let mut rest: &[u8] = &self.bytes;
        loop {
            match decoder.decode(rest) {
                Ok(Decoded::Record { consumed, .. }) if decoder.in_raw() => {
                    rest = rest.get(consumed..).unwrap_or_default();
                }
                Ok(Decoded::Record { consumed, .. }) => {
                    rest = rest.get(consumed..).unwrap_or_default();
                    return js::ser(&decoder.end(rest.len()));
                }
                _ => return js::ser(&decoder.end(rest.len())),
            }
        }
    }

    /// Game Start (the settings) as the core serializes it.
    #[wasm_bindgen(js_name = gameStart)]
    pub fn game_start(&self) -> Result<JsValue, JsValue> {
        let mut found = JsValue::NULL;
        walk(&self.bytes, |_, item, _| {
            if let Item::Event(e @ Event::GameStart(_)) = item {
                found = js::ser(&e)?;
                return Ok(false);
            }
            Ok(true)
        })?;
        Ok(found)
    }

    /// Game Start once slippi-js's `getSettings()` would give it: from
    /// 1.6.0 at once, before that after the first Post-Frame Update past
    /// frame −123, each player's `character` (and `character_name`) the
    /// starting character with the pre-1.6.0 Zelda/Sheik fix
    /// (`StartingCharacters`); `null` when the file never gets there.
    pub fn settings(&self) -> Result<JsValue, JsValue> {
        let mut found: Option<(GameStart<'_>, StartingCharacters)> = None;
        walk(&self.bytes, |_, item, d| {
            match item {
                Item::Event(Event::GameStart(g)) if found.is_none() => {
                    found = Some((g, StartingCharacters::new(&g)));
                }
                Item::Event(Event::PostFrame(p)) => {
                    if let Some((_, c)) = found.as_mut() {
                        c.observe(&p);
                    }
                }
                _ => {}
            }
            Ok(d.in_raw() && !found.as_ref().is_some_and(|(_, c)| c.is_complete()))
        })?;
        let Some((g, characters)) = found.filter(|(_, c)| c.is_complete()) else {
            return Ok(JsValue::NULL);
        };
        let out = js::ser(&Event::GameStart(g))?;
        let players = js_sys::Reflect::get(&out, &"players".into())?;
        // The serialized players are Game Start's `players()`, in order.
        for (player, (index, _)) in js_sys::Array::from(&players).iter().zip(g.players()) {
            if let Some(c) = characters.get(index) {
                Obj::wrap(player.into())
                    .set("character", f64::from(c))
                    .ser("character_name", &character_name(c))?;
            }
        }
        Ok(out)
    }

    /// Every event of the raw array in file order as columns (see
    /// `EventColumns::into_js`): `{order, tables: [{kind, rows, columns,
    /// present}]}`, each table one kind's events, each column one key of
    /// the core's serialized event as a `Float64Array` (booleans 0/1,
    /// `f32` exactly, text left out). Game Start, Game End and the events
    /// frames do not hold (Event Payloads, Gecko List, Message Splitter,
    /// unknown) are in the order without their fields. The fast way to hand a
    /// whole replay's frames to JavaScript.
    #[wasm_bindgen(js_name = eventColumns)]
    pub fn event_columns(&self) -> Result<JsValue, JsValue> {
        let mut out = EventColumns::default();
        let refused = |e: NotFlat| js::error("serialize", &e.to_string(), 0);
        each_event(&self.bytes, |e| {
            match e {
                Event::FrameStart(_)
                | Event::PreFrame(_)
                | Event::PostFrame(_)
                | Event::ItemUpdate(_)
                | Event::FrameBookend(_)
                | Event::FodPlatform(_)
                | Event::Whispy(_)
                | Event::StadiumTransformation(_) => out.push(e.name(), &e).map_err(refused)?,
                _ => out.push_kind(e.name()).map_err(refused)?,
            }
            Ok(())
        })?;
        Ok(out.into_js())
    }

    /// The events slippi-js's `getFrames()` files, in file order, as one
    /// `Uint32Array` of rows for the `SlippiGame` facade (see
    /// `FrameRow` below): each row a header, `kind | present << 8`, then the
    /// kind's fields in slippi-js's order, one 32-bit slot each, read by
    /// the core's accessors as slippi-js reads the bytes: integers as
    /// `i32` (`u32` fields as `u32`), `f32` as its bits (a `Float32Array`
    /// over the same buffer widens them as `DataView.getFloat32` does),
    /// booleans 0/1, indices raw. The fields are in offset order, so those
    /// past the end of a short (older) event are the last ones: `present`
    /// counts the others; the slots of the missing ones are 0.
    #[wasm_bindgen(js_name = frameRows)]
    pub fn frame_rows(&self) -> Result<Vec<u32>, JsValue> {
        let mut rows = FrameRows::default();
        // About one slot per three bytes of frame events.
        let _ = rows.out.try_reserve(self.bytes.len() / 3);
        each_event(&self.bytes, |e| {
            rows.push(&e);
            Ok(())
        })?;
        Ok(rows.out)
    }

    /// The rows of [`SlippiFile::frame_rows`] as a view of the module's
    /// memory instead of a copy (the facade's `getFrames()`: 8% faster on
    /// the corpus replays). The view shows them until the next
    /// `frameRowsView()` on this file or until the file is freed; a call
    /// that grows the module's memory (any call, into any object) empties
    /// it. Read it at once, or copy it with `slice()`.
    #[wasm_bindgen(js_name = frameRowsView)]
    pub fn frame_rows_view(&mut self) -> Result<Uint32Array, JsValue> {
        self.rows = self.frame_rows()?;
        let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().dyn_into()?;
        // Never refused on wasm32, whose addresses and lengths are 32-bit.
        let too_large = |_| js::error("out_of_memory", "frameRowsView: rows beyond 4 GiB", 0);
        let at = u32::try_from(self.rows.as_ptr().addr()).map_err(too_large)?;
        let len = u32::try_from(self.rows.len()).map_err(too_large)?;
        Ok(Uint32Array::new_with_byte_offset_and_length(
            &memory.buffer(),
            at,
            len,
        ))
    }

    /// Game End as the core serializes it, or `null`.
    #[wasm_bindgen(js_name = gameEnd)]
    pub fn game_end(&self) -> Result<JsValue, JsValue> {
        let mut found = JsValue::NULL;
        each_event(&self.bytes, |e| {
            if let Event::GameEnd(_) = e {
                found = js::ser(&e)?;
            }
            Ok(())
        })?;
        Ok(found)
    }

    /// The metadata element as a plain object, or `null` when the file has
    /// none.
    pub fn metadata(&self) -> Result<JsValue, JsValue> {
        let mut found = JsValue::NULL;
        walk(&self.bytes, |_, item, _| {
            if let Item::Metadata(m) = item {
                let (v, _) = ubjson::parse_value(m).map_err(decode_error)?;
                found = ubjson_value(v)?;
                return Ok(false);
            }
            Ok(true)
        })?;
        Ok(found)
    }

    /// The winners as slippi-js tells them: `[{port, position}]` (ports
    /// 1-based), empty when nobody won.
    pub fn winners(&self) -> Result<JsValue, JsValue> {
        let view = SlippiView::parse(&self.bytes).map_err(decode_error)?;
        js::ser(view.winners().as_slice())
    }

    /// The stats (the core's `SlippiStats`, slippi-js's computers), as the
    /// one vocabulary names them.
    pub fn stats(&self) -> Result<JsValue, JsValue> {
        js::ser(&*self.finished_stats()?)
    }

    /// The stats exactly as slippi-js 9.1.2's `getStats()` gives them
    /// (camelCase, its shapes; the core's `SlippiStats::slippi_js`), or
    /// `null` where it gives `undefined`.
    #[wasm_bindgen(js_name = slippiJsStats)]
    pub fn slippi_js_stats(&self) -> Result<JsValue, JsValue> {
        let stats = self.finished_stats()?;
        js::json(&stats.slippi_js())
    }

    /// `getStadiumStats()` of slippi-js 9.1.2, or `null` where it gives
    /// `undefined`.
    #[wasm_bindgen(js_name = slippiJsStadiumStats)]
    pub fn slippi_js_stadium_stats(&self) -> Result<JsValue, JsValue> {
        let stats = self.finished_stats()?;
        js::json(&stats.slippi_js_stadium())
    }

    /// The frames as typed-array columns, one slot per frame from the first
    /// to the last (the latest Post-Frame Update of a frame wins, as after
    /// a rollback): `{first_frame, frame: Int32Array, ports: {1: {...},
    /// ...}}`, each port's leader with `action_state` (Uint16Array),
    /// `position_x`, `position_y`, `facing_direction`, `percent`,
    /// `shield_size` (Float32Array), `stocks_remaining` (Uint8Array) and
    /// `present` (Uint8Array, 1 where the frame has an update).
    pub fn frames(&self) -> Result<JsValue, JsValue> {
        // First pass: the frame range and how many updates there are.
        let (mut lo, mut hi, mut posts) = (i32::MAX, i32::MIN, 0usize);
        let mut ports = [false; 4];
        each_event(&self.bytes, |e| {
            if let Event::PostFrame(p) = e
                && let (Some(f), Some(index)) = (p.frame(), p.player_index())
            {
                lo = lo.min(f);
                hi = hi.max(f);
                posts = posts.saturating_add(1);
                if let Some(slot) = ports.get_mut(usize::from(index)) {
                    *slot = true;
                }
            }
            Ok(())
        })?;
        let cols = if posts == 0 {
            Columns { first: 0, len: 0 }
        } else {
            let span = usize::try_from(i64::from(hi).saturating_sub(i64::from(lo))).unwrap_or(0);
            // A real replay has an update per frame; a wider span is a
            // damaged frame number, not a reason to allocate.
            if span >= posts.saturating_mul(2).saturating_add(1024) {
                return Err(js::error("corrupt", "frame numbers out of range", 0));
            }
            Columns {
                first: lo,
                len: span.saturating_add(1),
            }
        };
        let n = cols.len;
        let mut action = vec![[0u16; 4]; n];
        let mut f32s = vec![[[0f32; 4]; 5]; n];
        let mut stocks = vec![[0u8; 4]; n];
        let mut present = vec![[0u8; 4]; n];
        each_event(&self.bytes, |e| {
            if let Event::PostFrame(p) = e {
                let (Some(false), Some(frame), Some(index)) =
                    (p.is_follower(), p.frame(), p.player_index())
                else {
                    return Ok(());
                };
                let at = usize::try_from(i64::from(frame).saturating_sub(i64::from(cols.first)))
                    .unwrap_or(usize::MAX);
                let port = usize::from(index);
                if port < 4
                    && let (Some(a), Some(f), Some(s), Some(pr)) = (
                        action.get_mut(at).and_then(|r| r.get_mut(port)),
                        f32s.get_mut(at),
                        stocks.get_mut(at).and_then(|r| r.get_mut(port)),
                        present.get_mut(at).and_then(|r| r.get_mut(port)),
                    )
                {
                    *a = p.action_state().unwrap_or(0);
                    let values = [
                        p.position_x(),
                        p.position_y(),
                        p.facing_direction(),
                        p.percent(),
                        p.shield_size(),
                    ];
                    for (col, v) in f.iter_mut().zip(values) {
                        if let Some(c) = col.get_mut(port) {
                            *c = v.unwrap_or(f32::NAN);
                        }
                    }
                    *s = p.stocks_remaining().unwrap_or(0);
                    *pr = 1;
                }
            }
            Ok(())
        })?;
        let frame: Vec<i32> = (0..n)
            .map(|i| {
                cols.first
                    .saturating_add(i32::try_from(i).unwrap_or(i32::MAX))
            })
            .collect();
        let out_ports = Obj::new();
        for (port, _) in ports.iter().enumerate().filter(|(_, used)| **used) {
            let col_u16: Vec<u16> = action
                .iter()
                .map(|r| r.get(port).copied().unwrap_or(0))
                .collect();
            let col_u8 = |v: &Vec<[u8; 4]>| -> Vec<u8> {
                v.iter()
                    .map(|r| r.get(port).copied().unwrap_or(0))
                    .collect()
            };
            let col_f32 = |k: usize| -> Float32Array {
                let v: Vec<f32> = f32s
                    .iter()
                    .map(|r| r.get(k).and_then(|c| c.get(port)).copied().unwrap_or(0.0))
                    .collect();
                Float32Array::from(v.as_slice())
            };
            let o = Obj::new();
            o.set("action_state", Uint16Array::from(col_u16.as_slice()))
                .set("position_x", col_f32(0))
                .set("position_y", col_f32(1))
                .set("facing_direction", col_f32(2))
                .set("percent", col_f32(3))
                .set("shield_size", col_f32(4))
                .set(
                    "stocks_remaining",
                    Uint8Array::from(col_u8(&stocks).as_slice()),
                )
                .set("present", Uint8Array::from(col_u8(&present).as_slice()));
            out_ports.set(&port.saturating_add(1).to_string(), o.done());
        }
        Ok(Obj::new()
            .set("first_frame", cols.first)
            .set("frame", Int32Array::from(frame.as_slice()))
            .set("ports", out_ports.done())
            .done())
    }
}

/// The kind codes of [`SlippiFile::frame_rows`], each followed by its
/// fields (slippi-js's names, in its order, which is the order of their
/// offsets in the event).
#[repr(u8)]
#[derive(Clone, Copy)]
enum FrameRow {
    /// Game Start: no fields.
    GameStart = 0,
    /// `frame, seed (u32), sceneFrameCounter (u32)`.
    FrameStart = 1,
    /// `frame, playerIndex, isFollower, seed (u32), actionStateId,
    /// positionX (f32), positionY, facingDirection, joystickX, joystickY,
    /// cStickX, cStickY, trigger (f32), buttons (u32), physicalButtons,
    /// physicalLTrigger (f32), physicalRTrigger (f32), rawJoystickX,
    /// percent (f32)`.
    PreFrame = 2,
    /// `frame, playerIndex, isFollower, internalCharacterId,
    /// actionStateId, positionX (f32), positionY, facingDirection,
    /// percent, shieldSize (f32), lastAttackLanded, currentComboCount,
    /// lastHitBy, stocksRemaining, actionStateCounter (f32),
    /// miscActionState (f32), isAirborne, lastGroundId, jumpsRemaining,
    /// lCancelStatus, hurtboxCollisionState, airX (f32), y, attackX,
    /// attackY, groundX, hitlagRemaining (f32), animationIndex (u32),
    /// instanceHitBy, instanceId`.
    PostFrame = 3,
    /// `frame, typeId, state, facingDirection (f32), velocityX, velocityY,
    /// positionX, positionY (f32), damageTaken, expirationTimer (f32),
    /// spawnId (u32), missileType, turnipFace, chargeShotLaunched,
    /// chargePower, owner (signed), instanceId`.
    ItemUpdate = 4,
    /// `frame, latestFinalizedFrame`.
    FrameBookend = 5,
    /// Game End: no fields.
    GameEnd = 6,
    /// `frame, platform (signed), height (f32)`.
    FodPlatform = 7,
    /// `frame, direction (signed)`.
    Whispy = 8,
    /// `frame, event, transformation`.
    StadiumTransformation = 9,
}

/// A field as its 32-bit slot.
trait Slot {
    /// The slot's bits.
    fn slot(self) -> u32;
}

impl Slot for i32 {
    fn slot(self) -> u32 {
        u32::from_ne_bytes(self.to_ne_bytes())
    }
}

impl Slot for i8 {
    fn slot(self) -> u32 {
        i32::from(self).slot()
    }
}

impl Slot for u8 {
    fn slot(self) -> u32 {
        u32::from(self)
    }
}

impl Slot for u16 {
    fn slot(self) -> u32 {
        u32::from(self)
    }
}

impl Slot for u32 {
    fn slot(self) -> u32 {
        self
    }
}

impl Slot for f32 {
    fn slot(self) -> u32 {
        self.to_bits()
    }
}

impl Slot for bool {
    fn slot(self) -> u32 {
        u32::from(self)
    }
}

/// The rows of [`SlippiFile::frame_rows`].
#[derive(Default)]
struct FrameRows {
    out: Vec<u32>,
    /// Where the current row's header is.
    head: usize,
    /// The current row's fields before the first missing one.
    present: u32,
    /// Whether one is missing.
    short: bool,
}

impl FrameRows {
    #[inline]
    fn kind(&mut self, k: FrameRow) {
        self.head = self.out.len();
        self.present = 0;
        self.short = false;
        self.out.push(u32::from(k as u8));
    }

    #[inline]
    fn put<T: Slot>(&mut self, v: Option<T>) {
        match v {
            Some(v) => {
                self.out.push(v.slot());
                if !self.short {
                    self.present = self.present.saturating_add(1);
                }
            }
            None => {
                self.out.push(0);
                self.short = true;
            }
        }
    }

    /// A byte slippi-js reads signed.
    #[inline]
    fn signed(&mut self, v: Option<u8>) {
        self.put(v.map(|b| i8::from_ne_bytes([b])));
    }

    /// Closes the row: its header gets the count of present fields.
    #[inline]
    fn end(&mut self) {
        let present = self.present;
        if let Some(h) = self.out.get_mut(self.head) {
            *h |= present << 8;
        }
    }

    fn push(&mut self, e: &Event<'_>) {
        match e {
            Event::GameStart(_) => self.kind(FrameRow::GameStart),
            Event::GameEnd(_) => self.kind(FrameRow::GameEnd),
            Event::FrameStart(e) => {
                self.kind(FrameRow::FrameStart);
                self.put(e.frame());
                self.put(e.random_seed());
                self.put(e.scene_frame_counter());
            }
            Event::PreFrame(e) => {
                self.kind(FrameRow::PreFrame);
                self.put(e.frame());
                self.put(e.player_index());
                self.put(e.is_follower());
                self.put(e.random_seed());
                self.put(e.action_state());
                for v in [
                    e.position_x(),
                    e.position_y(),
                    e.facing_direction(),
                    e.joystick_x(),
                    e.joystick_y(),
                    e.cstick_x(),
                    e.cstick_y(),
                    e.trigger(),
                ] {
                    self.put(v);
                }
                self.put(e.buttons());
                self.put(e.physical_buttons());
                self.put(e.physical_l());
                self.put(e.physical_r());
                self.put(e.raw_joystick_x());
                self.put(e.percent());
            }
            Event::PostFrame(e) => {
                self.kind(FrameRow::PostFrame);
                self.put(e.frame());
                self.put(e.player_index());
                self.put(e.is_follower());
                self.put(e.internal_character());
                self.put(e.action_state());
                for v in [
                    e.position_x(),
                    e.position_y(),
                    e.facing_direction(),
                    e.percent(),
                    e.shield_size(),
                ] {
                    self.put(v);
                }
                for v in [
                    e.last_attack_landed(),
                    e.combo_count(),
                    e.last_hit_by(),
                    e.stocks_remaining(),
                ] {
                    self.put(v);
                }
                self.put(e.action_state_frame_counter());
                self.put(e.misc_action_state());
                self.put(e.is_airborne());
                self.put(e.last_ground_id());
                self.put(e.jumps_remaining());
                self.put(e.l_cancel_status());
                self.put(e.hurtbox_state());
                for v in [
                    e.self_induced_air_x_speed(),
                    e.self_induced_y_speed(),
                    e.attack_based_x_speed(),
                    e.attack_based_y_speed(),
                    e.self_induced_ground_x_speed(),
                    e.hitlag_remaining(),
                ] {
                    self.put(v);
                }
                self.put(e.animation_index());
                self.put(e.instance_hit_by());
                self.put(e.instance_id());
            }
            Event::ItemUpdate(e) => {
                self.kind(FrameRow::ItemUpdate);
                self.put(e.frame());
                self.put(e.type_id());
                self.put(e.state());
                for v in [
                    e.facing_direction(),
                    e.velocity_x(),
                    e.velocity_y(),
                    e.position_x(),
                    e.position_y(),
                ] {
                    self.put(v);
                }
                self.put(e.damage_taken());
                self.put(e.expiration_timer());
                self.put(e.spawn_id());
                for v in [
                    e.missile_type(),
                    e.turnip_face(),
                    e.charge_shot_launched(),
                    e.charge_power(),
                ] {
                    self.put(v);
                }
                self.put(e.owner());
                self.put(e.instance_id());
            }
            Event::FrameBookend(e) => {
                self.kind(FrameRow::FrameBookend);
                self.put(e.frame());
                self.put(e.latest_finalized_frame());
            }
            Event::FodPlatform(e) => {
                self.kind(FrameRow::FodPlatform);
                self.put(e.frame());
                self.signed(e.platform());
                self.put(e.height());
            }
            Event::Whispy(e) => {
                self.kind(FrameRow::Whispy);
                self.put(e.frame());
                self.signed(e.direction());
            }
            Event::StadiumTransformation(e) => {
                self.kind(FrameRow::StadiumTransformation);
                self.put(e.frame());
                self.put(e.event());
                self.put(e.transformation());
            }
            _ => return,
        }
        self.end();
    }
}
