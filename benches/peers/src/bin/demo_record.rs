//! gamefmt's demo `Recorder` against DDNet's `CDemoRecorder` (demo.cpp,
//! compiled from `DDNET_SRC` with the stubs of `ddnet/demo_shim.cpp`):
//! both are fed the same snapshots, messages and timeline markers, and
//! their files are compared byte for byte; then each records every
//! sequence again, in rounds, for the time.
//!
//! The sequences: every corpus demo (`teeworlds/demos`), decoded by
//! gamefmt's reader — every tick's reconstructed snapshot (a tick marker
//! without a chunk is the snapshot of the tick before again: DDNet wrote
//! no delta because it was empty), every message's bytes, the header's
//! markers, map and names — recorded as version 6 (the only one DDNet
//! writes) with the map embedded and again without it; and generated
//! sequences (random items, gaps of up to 90 ticks, repeated snapshots,
//! messages of every length modulo 4, markers too close and too many).
//!
//! `DDNET_SRC=/path/to/ddnet cargo run --release --bin demo_record [ROUNDS]`
//! from this folder; `--vectors DIR` also writes each generated sequence's
//! DDNet file there; `repeat ours|ddnet N` records the corpus sequences N
//! times with one side only (for callgrind). The corpus is `$GAMEFMT_CORPUS` or
//! `../../../shared/corpus`.

use std::path::{Path, PathBuf};
#[cfg(ddnet)]
use std::time::Duration;
use std::time::Instant;

use gamefmt::demo::{
    Chunk, ChunkKind, DemoMap, DemoView, OwnedBuffers, Reconstructor, Recorder, RecorderOptions,
};
use gamefmt::snapshot::SnapshotView;
use zerocopy::IntoBytes;
use zerocopy::little_endian::I32;

/// One call to a recorder.
#[derive(Clone, Debug)]
enum Event {
    /// Validated once, when the sequence is made (leaked: the program
    /// keeps every sequence to its end), so that the timing is the
    /// recorders' alone.
    Snapshot(i32, SnapshotView<'static>),
    Message(Vec<u8>),
    Marker(i32),
}

/// A recording to make: the header's settings and the calls.
#[derive(Clone, Debug)]
struct Sequence {
    name: String,
    net_version: String,
    kind: String,
    timestamp: String,
    map_name: String,
    crc: u32,
    sha256: [u8; 32],
    map: Option<Vec<u8>>,
    events: Vec<Event>,
}

fn corpus() -> PathBuf {
    std::env::var_os("GAMEFMT_CORPUS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
        PathBuf::from,
    )
}

/// A snapshot kept to the end of the program.
fn keep(ints: &[I32]) -> SnapshotView<'static> {
    SnapshotView::from_ints(Box::leak(ints.to_vec().into_boxed_slice())).expect("valid snapshot")
}

/// The calls that record `bytes` again, decoded by gamefmt.
fn from_demo(name: &str, bytes: &[u8]) -> Result<Sequence, String> {
    let view = DemoView::parse(bytes).map_err(|e| e.to_string())?;
    let h = view.header();
    let mut owned = OwnedBuffers::new();
    let mut rec = Reconstructor::new(owned.buffers(), h.item_sizes());
    let mut events = Vec::new();
    let mut pending: Option<i32> = None;
    let flush = |pending: &mut Option<i32>, rec: &Reconstructor<'_>, events: &mut Vec<Event>| {
        if let (Some(tick), Some(snap)) = (pending.take(), rec.snapshot()) {
            events.push(Event::Snapshot(tick, keep(snap.as_ints())));
        }
    };
    for chunk in view.chunks() {
        let chunk = chunk.map_err(|e| e.to_string())?;
        match chunk {
            Chunk::Tick { tick, .. } => {
                flush(&mut pending, &rec, &mut events);
                pending = Some(tick);
            }
            Chunk::Data {
                kind: ChunkKind::Snapshot | ChunkKind::Delta,
                ..
            } => {
                rec.feed(&chunk).map_err(|e| e.to_string())?;
                if let (Some(tick), Some(snap)) = (pending.take(), rec.snapshot()) {
                    events.push(Event::Snapshot(tick, keep(snap.as_ints())));
                }
            }
            Chunk::Data {
                kind: ChunkKind::Message,
                payload,
            } => {
                flush(&mut pending, &rec, &mut events);
                let ints = rec.decode(payload).map_err(|e| e.to_string())?;
                events.push(Event::Message(ints.as_bytes().to_vec()));
            }
            Chunk::Data { .. } => {}
        }
    }
    flush(&mut pending, &rec, &mut events);
    events.extend(h.markers().iter().map(|&t| Event::Marker(t)));
    Ok(Sequence {
        name: name.to_string(),
        net_version: h.net_version().to_string(),
        kind: h.kind().to_string(),
        timestamp: h.timestamp().to_string(),
        map_name: h.map_name().to_string(),
        crc: h.map_crc(),
        sha256: h.map_sha256().copied().unwrap_or_default(),
        map: Some(view.map_data().to_vec()),
        events,
    })
}

/// The generated sequences, shared with `tests/demo_record.rs`.
#[path = "../../../../tests/common/demo_gen.rs"]
mod demo_gen;

/// A generated sequence as this program's.
fn generate(seed: u64, net_version: &str, small: bool) -> Sequence {
    let g = demo_gen::generated(seed, net_version, small);
    Sequence {
        name: g.name,
        net_version: g.net_version,
        kind: g.kind,
        timestamp: g.timestamp,
        map_name: g.map_name,
        crc: g.crc,
        sha256: g.sha256,
        map: g.map,
        events: g
            .events
            .into_iter()
            .map(|e| match e {
                demo_gen::Event::Snapshot(t, ints) => Event::Snapshot(t, keep(&ints)),
                demo_gen::Event::Message(m) => Event::Message(m),
                demo_gen::Event::Marker(t) => Event::Marker(t),
            })
            .collect(),
    }
}

fn record_ours(seq: &Sequence) -> Vec<u8> {
    let options = RecorderOptions {
        version: 6,
        net_version: &seq.net_version,
        kind: &seq.kind,
        timestamp: &seq.timestamp,
        trailing_zero: false,
    };
    let map = DemoMap {
        name: &seq.map_name,
        crc: seq.crc,
        sha256: seq.sha256,
        data: seq.map.as_deref(),
    };
    let mut rec = Recorder::new(&options, &map).expect("valid options");
    for e in &seq.events {
        match e {
            Event::Snapshot(tick, snap) => {
                if let Err(e) = rec.snapshot(*tick, snap) {
                    eprintln!("{}: ours refused a snapshot at {tick}: {e}", seq.name);
                }
            }
            Event::Message(bytes) => {
                if let Err(e) = rec.message(bytes) {
                    eprintln!("{}: ours refused a message: {e}", seq.name);
                }
            }
            Event::Marker(tick) => {
                rec.add_marker(*tick);
            }
        }
    }
    rec.finish()
}

#[cfg(ddnet)]
mod ddnet {
    use super::{Event, Sequence};
    use std::ffi::{CString, c_char, c_void};
    use zerocopy::IntoBytes;

    unsafe extern "C" {
        fn ddnet_demo_new(sizes: *const u16, n: i32) -> *mut c_void;
        fn ddnet_demo_start(
            p: *mut c_void,
            net_version: *const c_char,
            map: *const c_char,
            sha256: *const u8,
            crc: u32,
            kind: *const c_char,
            map_size: u32,
            map_data: *const u8,
            timestamp: *const c_char,
        ) -> i32;
        fn ddnet_demo_snapshot(p: *mut c_void, tick: i32, data: *const c_void, size: i32);
        fn ddnet_demo_message(p: *mut c_void, data: *const c_void, size: i32);
        fn ddnet_demo_marker(p: *mut c_void, tick: i32);
        fn ddnet_demo_stop(p: *mut c_void, len: *mut usize) -> *const u8;
        fn ddnet_demo_free(p: *mut c_void);
    }

    fn c(s: &str) -> CString {
        CString::new(s).expect("no NUL")
    }

    /// Records `seq` with DDNet's CDemoRecorder; the file's bytes.
    pub fn record(seq: &Sequence) -> Vec<u8> {
        record_with(seq, |file| file.to_vec())
    }

    /// Records `seq` and hands the file's bytes to `f` (the timing takes
    /// their length only: no copy).
    pub fn record_with<T>(seq: &Sequence, f: impl FnOnce(&[u8]) -> T) -> T {
        let sizes = gamefmt::demo::net_item_sizes(&seq.net_version);
        let (nv, map, kind, ts) = (
            c(&seq.net_version),
            c(&seq.map_name),
            c(&seq.kind),
            c(&seq.timestamp),
        );
        // SAFETY: every pointer is valid for the call (the C side copies
        // what it keeps); sizes are the slices' lengths.
        unsafe {
            let p = ddnet_demo_new(sizes.as_ptr(), sizes.len() as i32);
            let (size, data) = match &seq.map {
                Some(m) => (m.len() as u32, m.as_ptr()),
                None => (0, std::ptr::null()),
            };
            let ok = ddnet_demo_start(
                p,
                nv.as_ptr(),
                map.as_ptr(),
                seq.sha256.as_ptr(),
                seq.crc,
                kind.as_ptr(),
                size,
                data,
                ts.as_ptr(),
            );
            assert_eq!(ok, 0, "DDNet's Start failed");
            for e in &seq.events {
                match e {
                    Event::Snapshot(tick, snap) => {
                        let bytes = snap.as_ints().as_bytes();
                        ddnet_demo_snapshot(p, *tick, bytes.as_ptr().cast(), bytes.len() as i32);
                    }
                    Event::Message(bytes) => {
                        ddnet_demo_message(p, bytes.as_ptr().cast(), bytes.len() as i32);
                    }
                    Event::Marker(tick) => ddnet_demo_marker(p, *tick),
                }
            }
            let mut len = 0usize;
            let out = ddnet_demo_stop(p, &mut len);
            let result = f(std::slice::from_raw_parts(out, len));
            ddnet_demo_free(p);
            result
        }
    }
}

#[cfg(ddnet)]
fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .or((a.len() != b.len()).then(|| a.len().min(b.len())))
}

/// One round's time of a pass of `f` over all sequences: passes repeated
/// for at least 0.2 s, their mean.
#[cfg(ddnet)]
fn time<T>(seqs: &[Sequence], f: impl Fn(&Sequence) -> T) -> Duration {
    let start = Instant::now();
    let mut passes = 0u32;
    while start.elapsed() < Duration::from_millis(200) || passes == 0 {
        for s in seqs {
            std::hint::black_box(f(s));
        }
        passes += 1;
    }
    start.elapsed() / passes
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `repeat SIDE N`: one side (`ours` or `ddnet`) records the corpus
    // sequences N times and nothing else, for instruction counts
    // (callgrind; the difference of two N, divided, is one pass).
    let repeat = (args.first().map(String::as_str) == Some("repeat")).then(|| {
        let side = args.get(1).cloned().unwrap_or_default();
        let n: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
        (side, n)
    });
    let rounds: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(11);
    let vectors = args
        .iter()
        .position(|a| a == "--vectors")
        .and_then(|i| args.get(i + 1))
        .map(PathBuf::from);
    let dir = corpus().join("teeworlds/demos");
    let mut corpus_seqs = Vec::new();
    match std::fs::read_dir(&dir) {
        Ok(entries) => {
            let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            paths.sort();
            for path in paths {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                let bytes = std::fs::read(&path).expect("read");
                match from_demo(&name, &bytes) {
                    Ok(seq) => {
                        let mut stripped = seq.clone();
                        stripped.name = format!("{name} (no map)");
                        stripped.map = None;
                        corpus_seqs.push(seq);
                        corpus_seqs.push(stripped);
                    }
                    Err(e) => println!("{name}: not decoded ({e})"),
                }
            }
        }
        Err(e) => println!("corpus {}: SKIPPED ({e})", dir.display()),
    }
    if let Some((side, n)) = repeat {
        let timed: Vec<&Sequence> = corpus_seqs.iter().filter(|s| s.map.is_some()).collect();
        let mut total = 0usize;
        let start = Instant::now();
        for _ in 0..n {
            for s in &timed {
                total += match side.as_str() {
                    "ours" => record_ours(s).len(),
                    #[cfg(ddnet)]
                    "ddnet" => ddnet::record_with(s, <[u8]>::len),
                    _ => panic!("side: ours or ddnet (with DDNET_SRC)"),
                };
            }
        }
        println!("{side} x{n}: {total} bytes, {:?}", start.elapsed());
        return;
    }
    let net_version = demo_gen::net_version;
    let generated: Vec<Sequence> = (0..40)
        .map(|seed| generate(seed, net_version(seed), false))
        .collect();
    // The committed vectors (tests/data/demo-vectors): small ones.
    let small: Vec<Sequence> = (100..108)
        .map(|seed| generate(seed, net_version(seed), true))
        .collect();

    #[cfg(not(ddnet))]
    {
        let _ = (rounds, vectors);
        for s in corpus_seqs.iter().chain(&generated).chain(&small) {
            let ours = record_ours(s);
            println!(
                "{}: {} bytes (ours; no DDNet: build with DDNET_SRC)",
                s.name,
                ours.len()
            );
        }
    }
    #[cfg(ddnet)]
    {
        for (set, seqs) in [
            ("corpus", &corpus_seqs),
            ("generated", &generated),
            ("vectors", &small),
        ] {
            let mut same = 0;
            for s in seqs.iter() {
                let (ours, theirs) = (record_ours(s), ddnet::record(s));
                match first_difference(&ours, &theirs) {
                    None => same += 1,
                    Some(at) => println!(
                        "{}: DIFFERENT at byte {at} (ours {} bytes, DDNet {} bytes)",
                        s.name,
                        ours.len(),
                        theirs.len()
                    ),
                }
                if set == "vectors" {
                    if let Some(dir) = &vectors {
                        std::fs::create_dir_all(dir).expect("vector folder");
                        std::fs::write(dir.join(format!("{}.demo", s.name)), &theirs)
                            .expect("write vector");
                    }
                }
            }
            let snaps: usize = seqs
                .iter()
                .map(|s| {
                    s.events
                        .iter()
                        .filter(|e| matches!(e, Event::Snapshot(..)))
                        .count()
                })
                .sum();
            let msgs: usize = seqs
                .iter()
                .map(|s| {
                    s.events
                        .iter()
                        .filter(|e| matches!(e, Event::Message(..)))
                        .count()
                })
                .sum();
            println!(
                "{set}: identical {same}/{} files ({snaps} snapshots, {msgs} messages)",
                seqs.len()
            );
        }
        let ddnet_len = |s: &Sequence| ddnet::record_with(s, <[u8]>::len);
        // Time: the corpus sequences with their maps, each side alone per
        // round, sides alternating.
        let timed: Vec<Sequence> = corpus_seqs
            .iter()
            .filter(|s| s.map.is_some())
            .cloned()
            .collect();
        let mut ratios = Vec::new();
        let (mut ours_t, mut theirs_t) = (Vec::new(), Vec::new());
        for r in 0..rounds {
            let (o, t) = if r % 2 == 0 {
                let o = time(&timed, record_ours);
                (o, time(&timed, ddnet_len))
            } else {
                let t = time(&timed, ddnet_len);
                (time(&timed, record_ours), t)
            };
            ratios.push(o.as_secs_f64() / t.as_secs_f64());
            ours_t.push(o);
            theirs_t.push(t);
        }
        ratios.sort_by(f64::total_cmp);
        ours_t.sort();
        theirs_t.sort();
        let mid = rounds / 2;
        println!(
            "time per pass over {} corpus sequences: ours {:.2} ms, DDNet {:.2} ms; ours/DDNet min {:.2}x median {:.2}x max {:.2}x ({rounds} rounds)",
            timed.len(),
            ours_t[mid].as_secs_f64() * 1e3,
            theirs_t[mid].as_secs_f64() * 1e3,
            ratios[0],
            ratios[mid],
            ratios[rounds - 1]
        );
    }
}
