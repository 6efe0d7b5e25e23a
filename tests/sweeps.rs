//! Robustness sweeps over every corpus stream (teehistorian, Slippi, demos
//! with the snapshots they carry): every prefix up to 64 KiB, 2000 evenly
//! spaced prefixes of larger files, and 1000 (files up to 16 KiB) or 300 fixed-seed
//! single-byte corruptions per file, through the shared sweep in
//! `common/sweep.rs`. Each ends in a clean result or a clean error within a
//! bounded number of steps; prefixes deliver exactly the records of the
//! whole file that lie wholly inside them; corrupted files deliver every
//! record before the damage unchanged. `GAMEFMT_SWEEP=full` samples ten
//! times more. `damaged_files_sweep` sweeps damaged copies of small corpus
//! files too, as files nobody has seen may be. Datafiles and maps:
//! `datafile_sweep.rs`.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::panic,
    reason = "tests: a panic is the failure report"
)]

use crate::common;
use crate::sweep;

use gamefmt::demo::{self, Chunk, ChunkKind, DemoView, Frames, OwnedBuffers};
use gamefmt::snapshot::{DeltaView, SnapshotView};
use gamefmt::stream::{Decoded, End};
use gamefmt::{slippi, teehistorian};
use sweep::{Figures, Scratch, Step, Stream, sweep_file};
use zerocopy::little_endian::I32;

// ---------------------------------------------------------------- teehistorian

struct Teehistorian;

fn exercise_message(m: &teehistorian::Message<'_>) {
    if let teehistorian::Message::Ex(ex) = m {
        let _ = ex.parse();
    }
}

impl Stream for Teehistorian {
    type State = teehistorian::Decoder;
    /// Tick and message kind.
    type Record = (i32, &'static str);

    fn start(&mut self, _: &[u8]) -> Option<(Self::State, usize)> {
        Some((teehistorian::Decoder::new(), 0))
    }

    fn step(&mut self, d: &mut Self::State, input: &[u8], _: usize) -> Step<Self::Record> {
        match d.decode(input) {
            Ok(Decoded::Record {
                record: teehistorian::Item::Header(header),
                consumed,
            }) => {
                let _ = header.for_each_config(|_, _| {});
                let _ = (header.game_uuid(), header.map_sha256(), header.version());
                Step::Skip(consumed)
            }
            Ok(Decoded::Record {
                record: teehistorian::Item::Message(record),
                consumed,
            }) => {
                exercise_message(&record.message);
                Step::Record((record.tick, record.message.kind().name()), consumed)
            }
            Ok(Decoded::Record { consumed, .. }) => Step::Skip(consumed),
            Ok(Decoded::NeedMore { .. }) => Step::NeedMore,
            Ok(Decoded::Done { .. }) => Step::Done,
            Err(_) => Step::Error,
        }
    }

    fn end(&self, d: &Self::State, unconsumed: usize) -> String {
        d.end(unconsumed).name().to_owned()
    }

    fn same(&self, a: &Self::State, b: &Self::State) -> bool {
        a == b
    }

    fn scratch(&mut self, bytes: &[u8]) -> Scratch<Self::Record> {
        let mut out = Scratch {
            records: Vec::new(),
            end: None,
        };
        let mut it = match teehistorian::TeehistorianIter::new(bytes) {
            Ok(it) => it,
            Err(e) => {
                if e.kind == gamefmt::ErrorKind::Truncated {
                    out.end = Some(End::Truncated { offset: 0 }.name().to_owned());
                }
                return out;
            }
        };
        let mut players = teehistorian::PlayerState::<128>::new();
        while let Some(r) = it.next() {
            match r {
                Ok(r) => {
                    exercise_message(&r.message);
                    let _ = players.apply(&r.message);
                    out.records
                        .push((it.offset(), (r.tick, r.message.kind().name())));
                }
                Err(e) if e.kind == gamefmt::ErrorKind::Truncated => break,
                Err(_) => return out,
            }
        }
        out.end = Some(it.end().name().to_owned());
        out
    }
}

#[test]
fn teehistorian_sweep() {
    let Some(files) = common::corpus_files(
        "teehistorian_sweep",
        "teeworlds/teehistorian",
        ".teehistorian",
    ) else {
        return;
    };
    let mut figures = Figures::default();
    for (name, bytes) in &files {
        sweep_file(&mut Teehistorian, name, bytes, 0x7EE, &mut figures);
    }
    figures.report("teehistorian");
    assert!(figures.records > 0, "no file decoded a record: {figures:?}");
}

// ---------------------------------------------------------------------- slippi

struct Slippi;

fn exercise_event(e: &slippi::Event<'_>) {
    let _ = (e.frame(), e.code(), e.payload().len());
    match e {
        slippi::Event::GameStart(g) => {
            let _ = (g.version(), g.stage(), g.is_pal(), g.players().count());
        }
        slippi::Event::GameEnd(g) => {
            let _ = (g.method(), g.placements(), g.lras_initiator());
        }
        slippi::Event::PostFrame(p) => {
            let _ = (p.internal_character(), p.player_index());
        }
        _ => {}
    }
}

impl Stream for Slippi {
    type State = slippi::Decoder;
    /// Command byte and payload length.
    type Record = (u8, usize);

    fn start(&mut self, _: &[u8]) -> Option<(Self::State, usize)> {
        Some((slippi::Decoder::new(), 0))
    }

    fn step(&mut self, d: &mut Self::State, input: &[u8], _: usize) -> Step<Self::Record> {
        match d.decode(input) {
            Ok(Decoded::Record {
                record: slippi::Item::Event(e),
                consumed: used,
            }) => {
                exercise_event(&e);
                Step::Record((e.code(), e.payload().len()), used)
            }
            Ok(Decoded::Record {
                record: slippi::Item::Metadata(m),
                consumed: used,
            }) => {
                if let Ok(m) = slippi::Metadata::parse(m) {
                    let _ = (m.last_frame(), m.played_on(), m.start_at());
                    for p in m.players() {
                        let _ = (p.index(), p.netplay_name(), p.characters().count());
                    }
                }
                Step::Skip(used)
            }
            Ok(Decoded::NeedMore { .. }) => Step::NeedMore,
            Ok(Decoded::Done { .. }) => Step::Done,
            Ok(Decoded::Record { consumed, .. }) => Step::Skip(consumed),
            Err(_) => Step::Error,
        }
    }

    fn end(&self, d: &Self::State, unconsumed: usize) -> String {
        d.end(unconsumed).name().to_owned()
    }

    fn same(&self, a: &Self::State, b: &Self::State) -> bool {
        a.offset() == b.offset() && format!("{a:?}") == format!("{b:?}")
    }

    fn scratch(&mut self, bytes: &[u8]) -> Scratch<Self::Record> {
        let mut out = Scratch {
            records: Vec::new(),
            end: None,
        };
        if let Ok(view) = slippi::SlippiView::parse(bytes) {
            let _ = (view.game_start(), view.game_end(), view.end());
            if let Ok(Some(m)) = view.metadata() {
                let _ = m.players().count();
            }
        }
        for frame in slippi::Frames::new(bytes) {
            if frame.is_err() {
                break;
            }
        }
        let mut it = slippi::SlippiEventIter::new(bytes);
        loop {
            match it.next().transpose() {
                Ok(Some(e)) => {
                    exercise_event(&e);
                    out.records
                        .push((it.decoder().offset(), (e.code(), e.payload().len())));
                }
                Ok(None) => break,
                Err(_) => return out,
            }
        }
        out.end = Some(it.end().name().to_owned());
        out
    }
}

#[test]
fn slippi_sweep() {
    let Some(files) = common::corpus_files("slippi_sweep", "slippi", ".slp") else {
        return;
    };
    let mut figures = Figures::default();
    for (name, bytes) in &files {
        sweep_file(&mut Slippi, name, bytes, 0x51A, &mut figures);
    }
    figures.report("slippi");
    assert!(figures.records > 0, "no file decoded a record: {figures:?}");
}

// ------------------------------------------------------------ demo + snapshot

struct Demo {
    scratch: Vec<u8>,
    ints: Vec<I32>,
    owned: OwnedBuffers,
    sizes: &'static [u16],
}

impl Demo {
    fn new() -> Self {
        Self {
            scratch: vec![0; demo::MAX_PAYLOAD],
            ints: vec![I32::ZERO; demo::MAX_PAYLOAD_INTS],
            owned: OwnedBuffers::new(),
            sizes: &[],
        }
    }
}

impl Stream for Demo {
    type State = demo::ChunkDecoder;
    /// Kind (0 tick, 1 snapshot, 2 message, 3 delta, 4 unknown), tick or
    /// payload length.
    type Record = (u8, i64);

    fn start(&mut self, bytes: &[u8]) -> Option<(Self::State, usize)> {
        let view = DemoView::parse(bytes).ok()?;
        let _ = view.map().map(|m| m.item_count());
        self.sizes = view.header().item_sizes();
        Some((view.header().chunk_decoder(), view.chunks_offset()))
    }

    fn step(&mut self, d: &mut Self::State, input: &[u8], _: usize) -> Step<Self::Record> {
        match d.decode(input) {
            Ok(Decoded::Record { record, consumed }) => {
                let record = match record {
                    Chunk::Tick { tick, .. } => (0, i64::from(tick)),
                    Chunk::Data { kind, payload } => {
                        let code = match kind {
                            ChunkKind::Snapshot => 1,
                            ChunkKind::Message => 2,
                            ChunkKind::Delta => 3,
                            _ => 4,
                        };
                        // The snapshot layer on whatever the chunk holds.
                        if let Ok(ints) =
                            demo::decode_payload(payload, &mut self.scratch, &mut self.ints)
                        {
                            match kind {
                                ChunkKind::Snapshot => {
                                    if let Ok(s) = SnapshotView::from_ints(ints) {
                                        let _ = (s.items().count(), s.checksum());
                                    }
                                }
                                ChunkKind::Delta => {
                                    if let Ok(d) = DeltaView::from_ints(ints, self.sizes) {
                                        let _ = (d.removed_keys().count(), d.items().count());
                                    }
                                }
                                _ => {
                                    let _ = demo::message_id(zerocopy::IntoBytes::as_bytes(ints));
                                }
                            }
                        }
                        (code, payload.len() as i64)
                    }
                };
                Step::Record(record, consumed)
            }
            Ok(Decoded::NeedMore { .. }) => Step::NeedMore,
            Ok(Decoded::Done { .. }) => Step::Done,
            Err(_) => Step::Error,
        }
    }

    fn end(&self, _: &Self::State, unconsumed: usize) -> String {
        if unconsumed == 0 {
            "complete"
        } else {
            "truncated"
        }
        .to_owned()
    }

    fn same(&self, a: &Self::State, b: &Self::State) -> bool {
        format!("{a:?}") == format!("{b:?}")
    }

    fn scratch(&mut self, bytes: &[u8]) -> Scratch<Self::Record> {
        let mut out = Scratch {
            records: Vec::new(),
            end: None,
        };
        let Ok(view) = DemoView::parse(bytes) else {
            return out;
        };
        // Snapshot reconstruction (every delta applied) over the input.
        let mut frames = Frames::new(&view, self.owned.buffers());
        while let Some(frame) = frames.next() {
            let Ok(frame) = frame else { break };
            let _ = frame.snapshot.items().count();
        }
        let mut chunks = view.chunks();
        let mut d = view.header().chunk_decoder();
        while let Some(c) = chunks.next() {
            let Ok(_) = c else { return out };
            // The record summary, from the same bytes through the step.
            let at = out.records.last().map_or(view.chunks_offset(), |(e, _)| *e);
            let Step::Record(r, _) = self.step(&mut d, &bytes[at..], at) else {
                panic!("chunk iterator and decoder disagree at {at}");
            };
            out.records.push((chunks.offset(), r));
        }
        out.end = match chunks.end() {
            End::Complete => Some("complete".to_owned()),
            End::Truncated { .. } => Some("truncated".to_owned()),
            _ => None,
        };
        out
    }
}

#[test]
fn demo_sweep() {
    let Some(files) = common::corpus_files("demo_sweep", "teeworlds/demos", ".demo") else {
        return;
    };
    let mut stream = Demo::new();
    let mut figures = Figures::default();
    for (name, bytes) in &files {
        sweep_file(&mut stream, name, bytes, 0xDE40, &mut figures);
    }
    figures.report("demo");
    assert!(figures.records > 0, "no file decoded a record: {figures:?}");
}

// ------------------------------------------------------------ damaged files

/// Damaged copies of the two smallest files of a folder, as real files
/// come damaged: cut short, a byte flipped, a run zeroed, the tail
/// randomised, the two concatenated; and an empty and a one-byte file.
fn damaged(files: &[(String, Vec<u8>)], seed: u64) -> Vec<(String, Vec<u8>)> {
    let mut small: Vec<_> = files.iter().filter(|(_, b)| b.len() >= 256).collect();
    small.sort_by_key(|(_, b)| b.len());
    small.truncate(2);
    let mut rng = sweep::Rng::new(seed);
    let mut out = vec![
        ("empty".to_owned(), Vec::new()),
        ("one byte".to_owned(), vec![0]),
    ];
    for (name, bytes) in &small {
        let n = bytes.len();
        let at = n / 4 + rng.below(n - n / 4);
        out.push((format!("{name} cut at {at}"), bytes[..at].to_vec()));
        let mut flipped = bytes.clone();
        flipped[at] ^= 0xFF;
        out.push((format!("{name} flipped at {at}"), flipped));
        let mut zeroed = bytes.clone();
        let from = n / 4 + rng.below(n / 2);
        zeroed[from..(from + 64).min(n)].fill(0);
        out.push((format!("{name} zeroed from {from}"), zeroed));
        let mut random = bytes.clone();
        let from = n / 2 + rng.below(n / 2);
        random[from..]
            .iter_mut()
            .for_each(|b| *b = rng.next() as u8);
        out.push((format!("{name} random from {from}"), random));
    }
    if let [(a, x), (b, y)] = small[..] {
        out.push((format!("{a} + {b}"), [x.as_slice(), y].concat()));
    }
    out
}

/// The sweeps' own promise for files nobody has seen: damaged files are
/// swept (up to their damage) like whole ones, never failed on.
#[test]
fn damaged_files_sweep() {
    let mut figures = Figures::default();
    if let Some(files) = common::corpus_files("damaged_files_sweep", "slippi", ".slp") {
        for (name, bytes) in damaged(&files, 0xDA51) {
            sweep_file(&mut Slippi, &name, &bytes, 0x51A, &mut figures);
        }
    }
    if let Some(files) = common::corpus_files(
        "damaged_files_sweep",
        "teeworlds/teehistorian",
        ".teehistorian",
    ) {
        for (name, bytes) in damaged(&files, 0xDA7E) {
            sweep_file(&mut Teehistorian, &name, &bytes, 0x7EE, &mut figures);
        }
    }
    if let Some(files) = common::corpus_files("damaged_files_sweep", "teeworlds/demos", ".demo") {
        let mut stream = Demo::new();
        for (name, bytes) in damaged(&files, 0xDADE) {
            sweep_file(&mut stream, &name, &bytes, 0xDE40, &mut figures);
        }
    }
    if figures.files == 0 {
        eprintln!("SKIPPED damaged_files_sweep: no corpus files to damage");
        return;
    }
    figures.report("damaged");
    assert!(
        figures.records > 0,
        "no damaged copy decoded a record: {figures:?}"
    );
}
