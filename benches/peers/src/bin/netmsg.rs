//! Every net message of the corpus demos (message chunks) and teehistorian
//! recordings (MESSAGE records), decoded by gamefmt::netmsg and by libtw2's
//! gamenet crates (pre-rfc3243-libtw2-gamenet-ddnet for 0.6/DDNet,
//! -teeworlds-0-7 for 0.7), compared kind by kind and field by field.
//!
//! Kinds are compared by name with underscores and the `NETMSG_` prefix
//! dropped, case ignored (`Sv_DDRaceTime` ~ `SvDdraceTime`,
//! `NETMSG_SNAPEMPTY` ~ `SnapEmpty`). Fields are compared by name where
//! both sides name them alike: ints, bools and strings (libtw2's bytes
//! against gamefmt's serialized text; invalid UTF-8 as U+FFFD), arrays
//! as text; fields libtw2 turns into enums (`Weapon::Gun`) are not
//! compared. `cargo run --release --bin netmsg -- [--facts | --bench |
//! --objects]` from this folder: `--facts` prints
//! `tests/data/netmsg_libtw2.tsv` (and the map changes libtw2 decodes, on
//! stderr); `--bench` times typed decoding of every corpus message, both
//! sides, best of 31 passes (`--bench-ours`, `--bench-theirs`: one side,
//! `ROUNDS` passes, for callgrind); `--json` prints every message as
//! gamefmt serializes it, one a line; `--objects` types every snapshot
//! item of the corpus demos and compares each with libtw2's
//! `SnapObj::decode_obj` (kind, and whether libtw2's fields re-encode to
//! the item's ints; with `SHOW=1` it prints one serialized object per
//! kind). The corpus is
//! `$GAMEFMT_CORPUS` or `../../../shared/corpus`. "Typed before" counts
//! what the hand-written tables before issue 30 typed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gamefmt::demo::{Chunk, ChunkKind, DemoView, decode_payload};
use gamefmt::netmsg::{self, NetMsg, Protocol};
use gamefmt::teehistorian::{ClientProtocols, Message, TeehistorianIter};
use libtw2_packer::Unpacker;
use serde_json::Value;
use zerocopy::IntoBytes;
use zerocopy::little_endian::I32;

use libtw2_gamenet_ddnet as ddnet;
use libtw2_gamenet_teeworlds_0_7 as tw07;

/// `--bench-ours` / `--bench-theirs`: time one side only (1 ours, 2 libtw2).
static ONE_SIDE: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

fn norm(name: &str) -> String {
    name.trim_start_matches("NETMSG_")
        .replace('_', "")
        .to_lowercase()
}

/// Split `a: 1, b: [1, 2], c: b"x, y"` at top-level commas.
fn split_top(s: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start, mut in_str, mut esc) = (Vec::new(), 0i32, 0, false, false);
    let bytes = s.as_bytes();
    for (i, &c) in bytes.iter().enumerate() {
        if in_str {
            if esc {
                esc = false;
            } else if c == b'\\' {
                esc = true;
            } else if c == b'"' {
                in_str = false;
            }
            continue;
        }
        match c {
            b'"' => in_str = true,
            b'[' | b'{' | b'(' => depth += 1,
            b']' | b'}' | b')' => depth -= 1,
            b',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s[start..].trim().is_empty() {
        out.push(s[start..].trim());
    }
    out
}

fn unescape(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            match b[i + 1] {
                b'x' => {
                    out.push(u8::from_str_radix(&s[i + 2..i + 4], 16).unwrap());
                    i += 4;
                    continue;
                }
                b'n' => out.push(b'\n'),
                b'r' => out.push(b'\r'),
                b't' => out.push(b'\t'),
                b'0' => out.push(0),
                c => out.push(c),
            }
            i += 2;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

/// libtw2's Debug output: (struct name, [(field, value text)]).
fn parse_debug(d: &str) -> (String, Vec<(String, String)>) {
    match d.find(" { ") {
        Some(at) => {
            let name = d[..at]
                .rsplit(|c: char| !c.is_alphanumeric())
                .next()
                .unwrap()
                .to_owned();
            let end = d.rfind(" }").unwrap();
            let body = &d[at + 3..end];
            let fields = split_top(body)
                .into_iter()
                .filter_map(|f| {
                    f.split_once(": ")
                        .map(|(k, v)| (k.to_owned(), v.to_owned()))
                })
                .collect();
            (name, fields)
        }
        None => {
            let inner = d.trim_end_matches(')');
            let name = inner
                .rsplit(|c: char| !c.is_alphanumeric())
                .next()
                .unwrap()
                .to_owned();
            (name, Vec::new())
        }
    }
}

/// A libtw2 value in the form of gamefmt's JSON, when comparable.
fn theirs_value(v: &str) -> Option<Value> {
    if v == "None" {
        return Some(Value::Null);
    }
    if let Some(inner) = v.strip_prefix("Some(").and_then(|s| s.strip_suffix(')')) {
        return theirs_value(inner);
    }
    if let Ok(i) = v.parse::<i64>() {
        return Some(Value::from(i));
    }
    if v == "true" || v == "false" {
        return Some(Value::from(v == "true"));
    }
    if let Some(s) = v.strip_prefix("b\"").and_then(|s| s.strip_suffix('"')) {
        // Kept as raw bytes too (gamefmt serializes raw fields as bytes).
        let raw = unescape(s);
        return Some(serde_json::json!({"text": String::from_utf8_lossy(&raw), "raw": raw}));
    }
    if let Some(s) = v.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        return Some(Value::from(
            String::from_utf8_lossy(&unescape(s)).into_owned(),
        ));
    }
    if let Some(inner) = v.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
        let items: Option<Vec<Value>> = split_top(inner).into_iter().map(theirs_value).collect();
        return items.map(Value::from);
    }
    None
}

#[derive(Default)]
struct Tally {
    messages: u64,
    typed_before: u64,
    typed_after: u64,
    libtw2_ok: u64,
    libtw2_refused: BTreeMap<String, u64>,
    kind_equal: u64,
    kind_differs: BTreeMap<String, u64>,
    fields_equal: u64,
    fields_differ: BTreeMap<String, u64>,
    fields_not_compared: BTreeMap<String, u64>,
    untyped_after: BTreeMap<String, u64>,
    libtw2_kinds: BTreeMap<(String, String), u64>,
    our_kinds: BTreeMap<String, u64>,
    examples: Vec<String>,
}

/// Whether the code before this change typed the message (its game06.rs
/// and game07.rs decoded these game ids; nothing else).
fn typed_before(protocol: Protocol, bytes: &[u8]) -> bool {
    let Ok(msg) = netmsg::decode(protocol, bytes) else {
        return false;
    };
    let (system, id) = match msg {
        NetMsg::Game06(g) => (false, g.id()),
        NetMsg::Game07(g) => (false, g.id()),
        _ => (true, 0),
    };
    if system {
        return false;
    }
    match protocol {
        Protocol::V06 => matches!(id, 1..=5 | 8..=11 | 13..=25),
        _ => matches!(id, 1..=5 | 8..=11 | 13..=16 | 18 | 20 | 22..=32),
    }
}

impl Tally {
    fn add(&mut self, file: &str, protocol: Protocol, bytes: &[u8], demo: bool) {
        self.messages += 1;
        if typed_before(protocol, bytes) {
            self.typed_before += 1;
        }
        let ours = netmsg::decode(protocol, bytes);
        let ours_json = ours.as_ref().ok().map(|m| serde_json::to_value(m).unwrap());
        let our_name = match &ours {
            Ok(m) => {
                if m.is_known() {
                    self.typed_after += 1;
                } else {
                    let key = match m {
                        NetMsg::System { id, .. } => format!("sys {id}"),
                        NetMsg::Ex { system, uuid, .. } => format!("ex {system} {uuid}"),
                        NetMsg::Game06(g) => format!("game06 {}", g.id()),
                        NetMsg::Game07(g) => format!("game07 {}", g.id()),
                        _ => "?".into(),
                    };
                    *self.untyped_after.entry(key).or_default() += 1;
                }
                m.name().to_owned()
            }
            Err(e) => format!("error {e}"),
        };
        *self.our_kinds.entry(our_name.clone()).or_default() += 1;
        let mut padded;
        let data = if demo && bytes.len() % 4 != 0 {
            padded = bytes.to_vec();
            padded.resize(bytes.len().div_ceil(4) * 4, 0);
            &padded[..]
        } else {
            bytes
        };
        let mut p = if demo {
            Unpacker::new_from_demo(data)
        } else {
            Unpacker::new(data)
        };
        let theirs = match protocol {
            Protocol::V06 => {
                ddnet::msg::decode(&mut libtw2_warn::Ignore, &mut p).map(|m| format!("{m:?}"))
            }
            _ => tw07::msg::decode(&mut libtw2_warn::Ignore, &mut p).map(|m| format!("{m:?}")),
        };
        let theirs = match theirs {
            Ok(t) => t,
            Err(e) => {
                *self
                    .libtw2_refused
                    .entry(format!("{our_name}: {e:?}"))
                    .or_default() += 1;
                return;
            }
        };
        self.libtw2_ok += 1;
        let (their_name, their_fields) = parse_debug(&theirs);
        if their_name == "MapChange" || their_name == "MapDetails" {
            self.examples.push(format!("fact {file}: {theirs}"));
        }
        *self
            .libtw2_kinds
            .entry((file.to_owned(), their_name.clone()))
            .or_default() += 1;
        if norm(&their_name) != norm(&our_name) {
            *self
                .kind_differs
                .entry(format!("{our_name} vs {their_name}"))
                .or_default() += 1;
            return;
        }
        self.kind_equal += 1;
        let Some(Value::Object(ours)) = ours_json else {
            return;
        };
        for (k, v) in their_fields {
            let key = format!("{our_name}.{k}");
            // The same field under another name (libtw2 names the engine
            // messages' fields itself).
            let ours_key = match (our_name.as_str(), k.as_str()) {
                ("NETMSG_INPUTTIMING", "input_pred_tick") => "intended_tick",
                ("NETMSG_MAP_CHANGE", "crc") => "map_crc",
                ("NETMSG_MAP_CHANGE", "size") => "map_size",
                ("NETMSG_RCONTYPE", "username_required") => "username_req",
                ("NETMSG_MAPLIST_GROUP_START", "length") => "num_entries",
                ("NETMSG_RCON_CMD_GROUP_START", "length") => "num_commands",
                ("NETMSG_RCON_AUTH_STATUS", "auth_level") => "authed",
                (_, k) => k,
            };
            if our_name == "Sv_VoteOptionListAdd" && k == "description" {
                let ok = theirs_value(&v).and_then(|tv| {
                    let items = tv.as_array()?.clone();
                    Some(
                        items
                            .iter()
                            .enumerate()
                            .all(|(i, t)| ours.get(&format!("description{i}")) == Some(&t["text"])),
                    )
                });
                match ok {
                    Some(true) => self.fields_equal += 1,
                    _ => *self.fields_differ.entry(key).or_default() += 1,
                }
                continue;
            }
            let (Some(tv), Some(ov)) = (theirs_value(&v), ours.get(ours_key)) else {
                *self.fields_not_compared.entry(key).or_default() += 1;
                continue;
            };
            let equal = match (&tv, ov) {
                (Value::Object(t), Value::String(_)) => &t["text"] == ov,
                (Value::Object(t), Value::Array(_)) => &t["raw"] == ov,
                // libtw2 keeps bools it reads as ints in a few places.
                (Value::Number(n), Value::Bool(b)) => n.as_i64() == Some(i64::from(*b)),
                (Value::Array(a), Value::Array(b)) => {
                    a.len() == b.len()
                        && a.iter().zip(b).all(|(x, y)| {
                            x == y
                                || (x.as_i64().is_some()
                                    && y.as_bool().map(i64::from) == x.as_i64())
                                || (x.is_object() && x["text"] == *y)
                        })
                }
                _ => &tv == ov,
            };
            if equal {
                self.fields_equal += 1;
            } else {
                *self.fields_differ.entry(key).or_default() += 1;
                if self.examples.len() < 60 {
                    self.examples
                        .push(format!("{file}: {our_name}.{k}: ours {ov} libtw2 {v}"));
                }
            }
        }
    }
}

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == ext))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn report(label: &str, t: &Tally) {
    println!("== {label}: {} messages", t.messages);
    let pct = |n: u64| 100.0 * n as f64 / t.messages.max(1) as f64;
    println!(
        "typed before: {} ({:.1}%), untyped {}",
        t.typed_before,
        pct(t.typed_before),
        t.messages - t.typed_before
    );
    println!(
        "typed after:  {} ({:.1}%), untyped {}",
        t.typed_after,
        pct(t.typed_after),
        t.messages - t.typed_after
    );
    println!("untyped after, by id: {:?}", t.untyped_after);
    println!(
        "libtw2 decoded {}; refused: {:?}",
        t.libtw2_ok, t.libtw2_refused
    );
    println!("kind equal {}; differs: {:?}", t.kind_equal, t.kind_differs);
    println!(
        "fields equal {}; differ: {:?}",
        t.fields_equal, t.fields_differ
    );
    println!(
        "fields not compared (libtw2 enum or name differs): {:?}",
        t.fields_not_compared
    );
    for e in t.examples.iter().filter(|e| !e.starts_with("fact")) {
        println!("  {}", &e[..e.len().min(400)]);
    }
    println!("our kinds: {:?}", t.our_kinds);
}

/// Snapshot objects of every corpus demo: typed before (the hand-written
/// kinds) and after, by kind.
fn objects(tw: &Path) {
    use gamefmt::demo::{Frames, OwnedBuffers};
    use gamefmt::snapshot::objects::Object;
    const HAND: [&str; 27] = [
        "Projectile",
        "Laser",
        "Pickup",
        "Flag",
        "GameInfo",
        "GameData",
        "CharacterCore",
        "Character",
        "PlayerInfo",
        "ClientInfo",
        "SpectatorInfo",
        "DDNetCharacter",
        "DDNetPlayer",
        "GameInfoEx",
        "Projectile",
        "Laser",
        "Pickup",
        "Flag",
        "GameData",
        "GameDataTeam",
        "GameDataFlag",
        "CharacterCore",
        "Character",
        "PlayerInfo",
        "SpectatorInfo",
        "De_ClientInfo",
        "De_GameInfo",
    ];
    let (mut total, mut before, mut after) = (0u64, 0u64, 0u64);
    let mut kinds: BTreeMap<String, u64> = BTreeMap::new();
    let mut unknown: BTreeMap<String, u64> = BTreeMap::new();
    let mut cmp: BTreeMap<String, u64> = BTreeMap::new();
    let mut shown = std::collections::BTreeSet::new();
    for path in files(&tw.join("demos"), "demo") {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(view) = DemoView::parse(&bytes) else {
            continue;
        };
        let protocol = Protocol::of_net_version(view.header().net_version());
        let mut owned = OwnedBuffers::new();
        let mut frames = Frames::new(&view, owned.buffers());
        while let Some(frame) = frames.next() {
            let Ok(frame) = frame else { break };
            let snap = frame.snapshot;
            for item in snap.items() {
                total += 1;
                let o = Object::parse(protocol, &snap, &item);
                let name = match o {
                    Object::V06(o) => o.name(),
                    Object::V07(o) => o.name(),
                };
                if std::env::var("SHOW").is_ok() && shown.insert(name) {
                    println!(
                        "{}",
                        serde_json::to_string(&match o {
                            Object::V06(o) => serde_json::to_value(o).unwrap(),
                            Object::V07(o) => serde_json::to_value(o).unwrap(),
                        })
                        .unwrap()
                    );
                }
                if name == "unknown" {
                    let key = match o {
                        Object::V06(gamefmt::snapshot::objects::Object06::Unknown {
                            type_id,
                            uuid,
                            data,
                        }) => format!("06 {type_id} {uuid:?} {}", data.len()),
                        Object::V07(gamefmt::snapshot::objects::Object07::Unknown {
                            type_id,
                            data,
                        }) => format!("07 {type_id} {}", data.len()),
                        _ => String::new(),
                    };
                    *unknown.entry(key).or_default() += 1;
                    continue;
                }
                // libtw2's kind of the same item, and whether its fields
                // re-encode to the item's ints.
                {
                    use libtw2_gamenet_common::snap_obj::TypeId;
                    use libtw2_packer::IntUnpacker;
                    let type_id = match snap.type_uuid(item.type_id()) {
                        Some(uuid) => TypeId::Uuid(uuid),
                        None => TypeId::Ordinal(item.type_id()),
                    };
                    let data: Vec<i32> = item.data().iter().map(|i| i.get()).collect();
                    let mut p = IntUnpacker::new(&data);
                    let theirs = match protocol {
                        Protocol::V06 => ddnet::snap_obj::SnapObj::decode_obj(
                            &mut libtw2_warn::Ignore,
                            type_id,
                            &mut p,
                        )
                        .map(|o| (format!("{o:?}"), o.encode().to_vec())),
                        _ => tw07::snap_obj::SnapObj::decode_obj(
                            &mut libtw2_warn::Ignore,
                            type_id,
                            &mut p,
                        )
                        .map(|o| (format!("{o:?}"), o.encode().to_vec())),
                    };
                    match theirs {
                        Ok((debug, enc)) => {
                            let kind = debug
                                .split(|c: char| !c.is_alphanumeric())
                                .next()
                                .unwrap_or_default()
                                .to_owned();
                            let same_kind = norm(&kind) == norm(name).replace("event", "")
                                || norm(&kind) == norm(name);
                            let same_ints = data.get(..enc.len()) == Some(&enc[..]);
                            if !same_ints && cmp.get("example").is_none_or(|&n| n < 4) {
                                *cmp.entry("example".into()).or_default() += 1;
                                println!("differ {name}: item {data:?} libtw2 {enc:?}");
                            }
                            let key = format!(
                                "{name} vs {kind}: kind {} ints {}",
                                if same_kind { "equal" } else { "DIFFER" },
                                if same_ints { "equal" } else { "DIFFER" }
                            );
                            *cmp.entry(key).or_default() += 1;
                        }
                        Err(e) => {
                            *cmp.entry(format!("{name}: libtw2 refuses ({e:?})"))
                                .or_default() += 1
                        }
                    }
                }
                after += 1;
                if HAND.contains(&name) {
                    before += 1;
                }
                *kinds.entry(name.to_owned()).or_default() += 1;
            }
        }
    }
    println!("== snapshot objects of the corpus demos (every frame's snapshot): {total}");
    println!(
        "typed before: {before}; typed after: {after}; untyped after: {}",
        total - after
    );
    println!("kinds: {kinds:?}");
    println!("untyped: {unknown:?}");
    println!("against libtw2 (item by item):");
    for (k, n) in &cmp {
        println!("  {k}: {n}");
    }
}

/// Typed decoding of every corpus message, gamefmt against libtw2: the
/// best of `rounds` passes each.
fn bench(tw: &Path, rounds: usize) {
    use std::hint::black_box;
    use std::time::Instant;
    let mut msgs: Vec<(Protocol, Vec<u8>, bool)> = Vec::new();
    let mut scratch = vec![0u8; gamefmt::demo::MAX_PAYLOAD];
    let mut ints = vec![I32::ZERO; gamefmt::demo::MAX_PAYLOAD_INTS];
    for path in files(&tw.join("demos"), "demo") {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(view) = DemoView::parse(&bytes) else {
            continue;
        };
        let protocol = Protocol::of_net_version(view.header().net_version());
        for chunk in view.chunks() {
            let Ok(Chunk::Data {
                kind: ChunkKind::Message,
                payload,
            }) = chunk
            else {
                if chunk.is_err() {
                    break;
                }
                continue;
            };
            let Ok(msg) = decode_payload(payload, &mut scratch, &mut ints) else {
                continue;
            };
            // Demo message chunks are whole ints: both sides get the padded bytes.
            msgs.push((protocol, msg.as_bytes().to_vec(), true));
        }
    }
    for path in files(&tw.join("teehistorian"), "teehistorian") {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(iter) = TeehistorianIter::new(&bytes) else {
            continue;
        };
        let mut protocols = ClientProtocols::<128>::new();
        for record in iter {
            let Ok(record) = record else { break };
            protocols.apply(&record.message);
            if let Message::PlayerMessage { cid, data } = record.message {
                msgs.push((protocols.get(cid), data.to_vec(), false));
            }
        }
    }
    if rounds == 0 {
        // `--json`: every message as gamefmt serializes it, one a line (to
        // compare the serialized form before and after a change).
        for (p, b, _) in &msgs {
            match netmsg::decode(*p, b) {
                Ok(m) => println!("{}", serde_json::to_string(&m).unwrap()),
                Err(e) => println!("error {e}"),
            }
        }
        return;
    }
    let total: usize = msgs.iter().map(|m| m.1.len()).sum();
    // Every message in one buffer, in file order (as a reader meets them).
    let mut arena = Vec::with_capacity(total);
    let mut spans = Vec::with_capacity(msgs.len());
    for (p, b, demo) in &msgs {
        spans.push((*p, arena.len(), b.len(), *demo));
        arena.extend_from_slice(b);
    }
    let msgs: Vec<(Protocol, &[u8], bool)> = spans
        .iter()
        .map(|&(p, at, len, demo)| (p, &arena[at..at + len], demo))
        .collect();
    let ours = || {
        let mut n = 0;
        for (p, b, _) in &msgs {
            if let Ok(m) = netmsg::decode(*p, b) {
                n += usize::from(black_box(m).is_known());
            }
        }
        n
    };
    let ours_lists = || {
        // Also reads every int of the fields that run to the end (libtw2
        // decodes tune parameters and team states eagerly).
        let mut n = 0;
        for (p, b, _) in &msgs {
            if let Ok(m) = netmsg::decode(*p, b) {
                n += match m {
                    NetMsg::Game06(netmsg::Game06::SvTuneParams { params })
                    | NetMsg::Game07(netmsg::Game07::SvTuneParams { params }) => {
                        params.iter().count()
                    }
                    NetMsg::Extended(netmsg::Extended::SvTeamsState { teams }) => {
                        teams.iter().count()
                    }
                    m => usize::from(black_box(m).is_known()),
                };
            }
        }
        n
    };
    let theirs = || {
        let mut n = 0;
        for (p, b, demo) in &msgs {
            let mut u = if *demo {
                Unpacker::new_from_demo(b)
            } else {
                Unpacker::new(b)
            };
            n += match p {
                Protocol::V06 => usize::from(
                    black_box(ddnet::msg::decode(&mut libtw2_warn::Ignore, &mut u)).is_ok(),
                ),
                _ => usize::from(
                    black_box(tw07::msg::decode(&mut libtw2_warn::Ignore, &mut u)).is_ok(),
                ),
            };
        }
        n
    };
    let side = ONE_SIDE.load(std::sync::atomic::Ordering::Relaxed);
    // The sides take turns within each round (and which goes first
    // alternates), so that a busy moment of a shared machine slows both
    // sides of a round: the per-round ratios are steadier than the ratio
    // of each side's best.
    let sides: [&dyn Fn() -> usize; 3] = [&ours, &ours_lists, &theirs];
    let mut best = [f64::MAX; 3];
    let mut ratios = Vec::with_capacity(rounds);
    for round in 0..rounds {
        let mut t = [0.0f64; 3];
        for k in 0..3 {
            let i = if round % 2 == 0 { k } else { 2 - k };
            if (side == 1 && i != 0) || (side == 2 && i != 2) {
                continue;
            }
            let start = Instant::now();
            black_box(sides[i]());
            t[i] = start.elapsed().as_secs_f64();
            best[i] = best[i].min(t[i]);
        }
        ratios.push((t[2] / t[0], t[2] / t[1]));
    }
    let [ours, ours_lists, theirs] = best;
    if side == 1 {
        println!("gamefmt: {:.3} ms", ours * 1e3);
        return;
    }
    if side == 2 {
        println!("libtw2 gamenet: {:.3} ms", theirs * 1e3);
        return;
    }
    println!(
        "size_of NetMsg {} Game06 {} Game07 {} System06 {} Extended {}",
        std::mem::size_of::<NetMsg>(),
        std::mem::size_of::<netmsg::Game06>(),
        std::mem::size_of::<netmsg::Game07>(),
        std::mem::size_of::<netmsg::System06>(),
        std::mem::size_of::<netmsg::Extended>()
    );
    println!(
        "== typed decoding of {} corpus messages ({total} bytes), best of {rounds}",
        msgs.len()
    );
    println!(
        "gamefmt:              {:.3} ms ({:.1} ns/message)",
        ours * 1e3,
        ours * 1e9 / msgs.len() as f64
    );
    println!(
        "gamefmt, lists read:  {:.3} ms ({:.1} ns/message)",
        ours_lists * 1e3,
        ours_lists * 1e9 / msgs.len() as f64
    );
    println!(
        "libtw2 gamenet:       {:.3} ms ({:.1} ns/message)",
        theirs * 1e3,
        theirs * 1e9 / msgs.len() as f64
    );
    println!(
        "ratio libtw2/gamefmt: {:.2}x (lists read: {:.2}x)",
        theirs / ours,
        theirs / ours_lists
    );
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        (v[0], v[v.len() / 2], v[v.len() - 1])
    };
    let (lo, mid, hi) = median(ratios.iter().map(|r| r.0).collect());
    let (llo, lmid, lhi) = median(ratios.iter().map(|r| r.1).collect());
    println!(
        "per-round ratio: min {lo:.2}x median {mid:.2}x max {hi:.2}x (lists read: {llo:.2}x {lmid:.2}x {lhi:.2}x)"
    );
}

fn main() {
    let one_side = std::env::args().find_map(|a| match a.as_str() {
        "--bench-ours" => Some(1),
        "--bench-theirs" => Some(2),
        _ => None,
    });
    if let Some(one_side) = one_side {
        // For a profiler: one side only (gamefmt's plain decoding or
        // libtw2's), `ROUNDS` passes (default 300). Under callgrind, the
        // difference between two `ROUNDS`, divided, is the cost of one pass.
        let corpus =
            std::env::var("GAMEFMT_CORPUS").unwrap_or_else(|_| "../../../shared/corpus".into());
        let rounds = std::env::var("ROUNDS")
            .ok()
            .and_then(|r| r.parse().ok())
            .unwrap_or(300);
        ONE_SIDE.store(one_side, std::sync::atomic::Ordering::Relaxed);
        bench(&Path::new(&corpus).join("teeworlds"), rounds);
        return;
    }
    if std::env::args().any(|a| a == "--json") {
        let corpus =
            std::env::var("GAMEFMT_CORPUS").unwrap_or_else(|_| "../../../shared/corpus".into());
        bench(&Path::new(&corpus).join("teeworlds"), 0);
        return;
    }
    if std::env::args().any(|a| a == "--bench") {
        let corpus =
            std::env::var("GAMEFMT_CORPUS").unwrap_or_else(|_| "../../../shared/corpus".into());
        bench(&Path::new(&corpus).join("teeworlds"), 31);
        return;
    }
    if std::env::args().any(|a| a == "--objects") {
        let corpus =
            std::env::var("GAMEFMT_CORPUS").unwrap_or_else(|_| "../../../shared/corpus".into());
        objects(&Path::new(&corpus).join("teeworlds"));
        return;
    }
    let facts = std::env::args().any(|a| a == "--facts");
    let corpus =
        std::env::var("GAMEFMT_CORPUS").unwrap_or_else(|_| "../../../shared/corpus".into());
    let tw = Path::new(&corpus).join("teeworlds");
    let mut demos = Tally::default();
    let mut scratch = vec![0u8; gamefmt::demo::MAX_PAYLOAD];
    let mut ints = vec![I32::ZERO; gamefmt::demo::MAX_PAYLOAD_INTS];
    for path in files(&tw.join("demos"), "demo") {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(view) = DemoView::parse(&bytes) else {
            continue;
        };
        let protocol = Protocol::of_net_version(view.header().net_version());
        for chunk in view.chunks() {
            let Ok(Chunk::Data {
                kind: ChunkKind::Message,
                payload,
            }) = chunk
            else {
                if chunk.is_err() {
                    break;
                }
                continue;
            };
            let Ok(msg) = decode_payload(payload, &mut scratch, &mut ints) else {
                continue;
            };
            demos.add(&name, protocol, msg.as_bytes(), true);
        }
    }
    let mut th = Tally::default();
    for path in files(&tw.join("teehistorian"), "teehistorian") {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(iter) = TeehistorianIter::new(&bytes) else {
            continue;
        };
        let mut protocols = ClientProtocols::<128>::new();
        for record in iter {
            let Ok(record) = record else { break };
            protocols.apply(&record.message);
            if let Message::PlayerMessage { cid, data } = record.message {
                th.add(&name, protocols.get(cid), data, false);
            }
        }
    }
    if facts {
        println!("file\tkind\tcount");
        for t in [&demos, &th] {
            for ((f, k), n) in &t.libtw2_kinds {
                println!("{f}\t{k}\t{n}");
            }
        }
        for t in [&demos, &th] {
            for e in t.examples.iter().filter(|e| e.starts_with("fact")) {
                eprintln!("{e}");
            }
        }
        return;
    }
    report("demos", &demos);
    report("teehistorian", &th);
}
