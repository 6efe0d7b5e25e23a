//! What each side does, per format. Both sides get the same bytes in
//! memory and return the counts they must agree on.

use std::hint::black_box;
use std::io::Cursor;
use std::time::Instant;

use gamefmt::datafile::DatafileView;
use gamefmt::demo::{Chunk, ChunkKind, DemoView, OwnedBuffers, Reconstructor};
use gamefmt::map::MapView;
use gamefmt::slippi::{Event, GeckoList, Reassembler, SlippiEventIter, SlippiView};
use gamefmt::teehistorian::{Message, PackedInput, Record, TeehistorianIter, TeehistorianWriter};

use crate::{Count, Side, median};

#[path = "../../common/slippi_fields.rs"]
mod slippi_fields;
use slippi_fields::{AsF64, Bits, Fold, read_all, read_all_call};

fn e<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

// ---------------------------------------------------------------- Slippi

/// `bits`: each field's own bits folded into the checksum, the reads
/// inlined into the event loop; else each field as an `f64` through a call
/// per event (the consumer of the first rounds, unchanged: its three
/// conversion instructions per field and the call are the consumer's
/// costs, not the decoder's).
pub fn slippi_sides(bits: bool) -> (Side<'static>, Side<'static>) {
    let mut gecko_buf = vec![0u8; 1 << 17];
    let ours = Side {
        name: "gamefmt",
        work: if bits {
            "the same with each field's own bits added (f32 bit patterns, \
             integers zero-extended) instead of its f64 form, the reads \
             inlined into the event loop instead of a call per event"
        } else {
            "SlippiView::parse, metadata read (start time, last frame, platform, \
             console, every player's names and characters), every event of \
             the stream through SlippiEventIter and every field of every \
             typed event read and folded into a checksum (as f64, bits \
             added), Gecko list reassembled and its codes walked; count = \
             frames"
        },
        run: if bits {
            Box::new(move |b| slippi_full::<Bits, true>(b, &mut gecko_buf))
        } else {
            Box::new(move |b| slippi_full::<AsF64, false>(b, &mut gecko_buf))
        },
    };
    let peer = Side {
        name: "peppi 2.1.2",
        work: "peppi::io::slippi::read(Cursor, None): full parse into its \
               columnar frames (every field of every event), start/end, \
               metadata to a JSON map, Gecko codes kept; count = frames.len()",
        run: Box::new(|b| {
            let g = peppi::io::slippi::read(Cursor::new(b), None).map_err(e)?;
            Ok((black_box(g).frames.len() as u64, 0))
        }),
    };
    (ours, peer)
}

fn slippi_full<A: Fold + Copy + Default, const INLINE: bool>(
    bytes: &[u8],
    gecko_buf: &mut [u8],
) -> Result<Count, String> {
    let view = SlippiView::parse(bytes).map_err(e)?;
    let mut acc = A::default();
    if let Ok(Some(m)) = view.metadata() {
        acc.f(m.start_at().map(|s| s.len() as u32));
        acc.f(m.last_frame().map(|v| v as f64));
        acc.f(m.played_on().map(|s| s.len() as u32));
        acc.f(m.console_nick().map(|s| s.len() as u32));
        for p in m.players() {
            acc.f(p.index());
            acc.f(p.netplay_name().map(|s| s.len() as u32));
            acc.f(p.connect_code().map(|s| s.len() as u32));
            for (c, n) in p.characters() {
                acc.f(Some(c));
                acc.f(Some(n as f64));
            }
        }
    }
    let mut gecko = Reassembler::new(gecko_buf);
    let (mut starts, mut frames, mut last) = (0u64, 0u64, None);
    for ev in view.events() {
        let ev = ev.map_err(e)?;
        match &ev {
            Event::FrameStart(_) => starts += 1,
            Event::PreFrame(p) => {
                if p.frame() != last {
                    last = p.frame();
                    frames += 1;
                }
            }
            Event::MessageSplitter(s) => {
                if gecko.push(s).map_err(e)? {
                    let Some((_, list)) = gecko.message() else {
                        return Err("gecko".into());
                    };
                    acc.f(Some(GeckoList::new(list).codes().count() as u32));
                }
            }
            _ => {}
        }
        if INLINE {
            read_all(&ev, &mut acc);
        } else {
            read_all_call(&ev, &mut acc);
        }
    }
    black_box(acc);
    // Replays from before FrameStart (2.2) have one frame per new pre-frame
    // frame number, as peppi counts them.
    Ok((if starts > 0 { starts } else { frames }, 0))
}

/// The bare event walk (command byte and declared size only), each file
/// walked `REPS` times in a row so that it is in cache after the first;
/// against a `memcpy` of each file, as often, into a buffer (the "peer"
/// column: the walk's speed as a fraction of memcpy's, per round).
pub fn slippi_walk(files: &[(String, Vec<u8>)], rounds: usize) -> String {
    const REPS: usize = 50;
    println!("\n== Slippi event walk (against memcpy) ==");
    println!(
        "  ours: SlippiEventIter over the raw stream, every event's command \
         byte summed; each file walked {REPS} times in a row (in cache)"
    );
    println!("  memcpy: each file copied {REPS} times in a row into one buffer");
    let files: Vec<&[u8]> = files
        .iter()
        .filter(|(_, b)| SlippiEventIter::new(b).all(|e| e.is_ok()))
        .map(|(_, b)| b.as_slice())
        .collect();
    let bytes: usize = files.iter().map(|b| b.len()).sum::<usize>() * REPS;
    let mut buf = vec![0u8; files.iter().map(|b| b.len()).max().unwrap_or(0)];
    let (mut t, mut tc, mut frac) = (Vec::new(), Vec::new(), Vec::new());
    for r in 0..rounds {
        let walk = || {
            let start = Instant::now();
            let mut n = 0u64;
            for b in &files {
                for _ in 0..REPS {
                    for ev in SlippiEventIter::new(black_box(b)) {
                        if let Ok(ev) = ev {
                            n += u64::from(ev.code());
                        }
                    }
                }
            }
            black_box(n);
            start.elapsed().as_secs_f64()
        };
        let mut copy = || {
            let start = Instant::now();
            for b in &files {
                for _ in 0..REPS {
                    buf[..b.len()].copy_from_slice(black_box(b));
                    black_box(&mut buf);
                }
            }
            start.elapsed().as_secs_f64()
        };
        let (w, c) = if r % 2 == 0 {
            let w = walk();
            (w, copy())
        } else {
            let c = copy();
            (walk(), c)
        };
        t.push(w);
        tc.push(c);
        frac.push(c / w);
    }
    let gbs = bytes as f64 / median(&mut t) / 1e9;
    let copy_gbs = bytes as f64 / median(&mut tc) / 1e9;
    let (lo, m, hi) = crate::spread(&mut frac);
    println!(
        "  {gbs:.2} GB/s over {} files; memcpy {copy_gbs:.2} GB/s; walk/memcpy median \
         {m:.2} (min {lo:.2}, max {hi:.2})",
        files.len()
    );
    format!(
        "| {:<24} | {:<30} | {:>9.0} | {:>9.0} | {:>6.2}x | {:>6.2}x | {:>6.2}x | {:>9} | {:>7} |",
        "Slippi event walk",
        "memcpy (target 12 GB/s)",
        gbs * 1e3,
        copy_gbs * 1e3,
        lo,
        m,
        hi,
        "-",
        files.len()
    )
}

// ---------------------------------------------------------- Teehistorian

/// `fold`: through `for_each` (the iterator's own loop); else a `for` loop
/// over `next`.
pub fn teehistorian_sides(fold: bool) -> (Side<'static>, Side<'static>) {
    let ours = Side {
        name: "gamefmt",
        work: if fold {
            "TeehistorianIter::for_each: header parsed, every message decoded \
             to its typed variant with its tick tracked (ticks summed), every \
             EX message parsed to its typed form, every input's ten ints \
             taken; count = messages until FINISH, the end or the first \
             error"
        } else {
            "the same through a `for` loop over TeehistorianIter::next"
        },
        // One closure per shape, as a program with one loop has: in one
        // closure holding both, each loop compiled under the other's
        // register and inlining pressure, and a change to `fold` moved the
        // `for` loop's count by 5% (callgrind).
        run: if fold {
            Box::new(|b| {
                let mut tally = Tally::default();
                TeehistorianIter::new(b)
                    .map_err(e)?
                    .for_each(|r| tally.add(r));
                Ok(tally.done())
            })
        } else {
            Box::new(|b| {
                let mut tally = Tally::default();
                for r in TeehistorianIter::new(b).map_err(e)? {
                    tally.add(r);
                }
                Ok(tally.done())
            })
        },
    };
    let peer = Side {
        name: "teehistorian 0.12",
        work: "Th::parse(&[u8]), header, next_chunk until EOS or error: every \
               chunk decoded to its typed variant, EX chunks by UUID (no tick \
               tracking); count = chunks",
        run: Box::new(|b| {
            let mut th = teehistorian::Th::parse(b).map_err(e)?;
            th.header().map_err(e)?;
            let mut n = 0u64;
            loop {
                match th.next_chunk() {
                    Ok(c) => {
                        n += 1;
                        if black_box(c) == teehistorian::Chunk::Eos {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
            Ok((n, 0))
        }),
    };
    (ours, peer)
}

/// What our side does with each record: counts it and sums its tick (an
/// EX message is parsed to its typed form, an input's ten ints are taken).
#[derive(Default)]
struct Tally {
    messages: u64,
    ticks: i64,
}

impl Tally {
    #[inline(always)]
    fn add(&mut self, r: Result<Record<'_>, gamefmt::Error>) {
        // The iterator is fused: after an error there are no more.
        let Ok(r) = r else { return };
        self.ticks += i64::from(r.tick);
        // What the peer decodes in its chunks, decoded here: EX payloads
        // by UUID, inputs to their ints.
        match &r.message {
            Message::Ex(ex) => {
                let _ = black_box(ex.parse());
            }
            Message::InputDiff { diff: input, .. } | Message::InputNew { input, .. } => {
                black_box(input.get());
            }
            _ => {}
        }
        black_box(&r);
        self.messages += 1;
    }

    /// The count (messages, 0).
    fn done(self) -> Count {
        black_box(self.ticks);
        (self.messages, 0)
    }
}

/// Tiny recordings like DDNet's unit-test ones (`src/test/teehistorian_test.cpp`:
/// the same messages at the same ticks, each test's expected bytes), written
/// with gamefmt's `TeehistorianWriter` after the minimal header
/// `{"version":"2"}` (DDNet's test header lists its config, tuning and
/// UUIDs; the tiny files here stay under 100 bytes): 33 to 98 bytes each.
pub fn teehistorian_tiny() -> Vec<(String, Vec<u8>)> {
    use Message::*;
    let input = PackedInput::from_ints(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    let diff = PackedInput::from_ints(&[-1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    let changed = PackedInput::from_ints(&[0, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    let tests: [(&str, &[(i32, Message<'_>)]); 9] = [
        ("Finished", &[]),
        (
            "TickImplicitOneTick",
            &[(1, PlayerNew { cid: 0, x: 1, y: 2 })],
        ),
        (
            "TickImplicitTwoTicks",
            &[
                (1, PlayerNew { cid: 0, x: 1, y: 2 }),
                (
                    2,
                    PlayerDiff {
                        cid: 0,
                        dx: 1,
                        dy: -1,
                    },
                ),
            ],
        ),
        (
            "TickImplicitDescendingClientId",
            &[
                (1, PlayerNew { cid: 1, x: 2, y: 3 }),
                (2, PlayerNew { cid: 0, x: 4, y: 5 }),
            ],
        ),
        (
            "TickExplicitAscendingClientId",
            &[
                (1, PlayerNew { cid: 0, x: 4, y: 5 }),
                (2, PlayerNew { cid: 1, x: 2, y: 3 }),
            ],
        ),
        (
            "TickExplicitStart",
            &[(
                500,
                PlayerNew {
                    cid: 0,
                    x: -1,
                    y: -1,
                },
            )],
        ),
        (
            "TickExplicitPlayerMessage",
            &[(
                1,
                PlayerMessage {
                    cid: 63,
                    data: &[0],
                },
            )],
        ),
        (
            "JoinLeave",
            &[
                (0, Join { cid: 6 }),
                (0, Join { cid: 7 }),
                (
                    0,
                    Drop {
                        cid: 6,
                        reason: b"too many pancakes",
                    },
                ),
            ],
        ),
        (
            "Input",
            &[
                (1, InputNew { cid: 0, input }),
                (
                    1,
                    InputDiff { cid: 0, diff },
                ),
                (
                    1,
                    InputNew {
                        cid: 0,
                        input: changed,
                    },
                ),
            ],
        ),
    ];
    tests
        .iter()
        .map(|(name, messages)| {
            let mut w = TeehistorianWriter::new(r#"{"version":"2"}"#).expect("header");
            let mut tick = 0;
            for (t, m) in messages.iter() {
                w.write(*t, m).expect("message");
                tick = *t;
            }
            w.write(tick, &Finish).expect("finish");
            (format!("{name}.teehistorian"), w.into_bytes())
        })
        .collect()
}

// ------------------------------------------------------------------- Maps

pub fn map_sides() -> (Side<'static>, Side<'static>) {
    let mut buf = Vec::new();
    // One inflate state for every data item, as a miniz_oxide user would
    // keep it (feature fast-inflate inflates through libdeflate, with a
    // decompressor of its own per thread, and does not use it).
    let mut state = gamefmt::datafile::DecompressorOxide::new();
    let ours = Side {
        name: "gamefmt",
        work: "DatafileView::parse + MapView::new (every map item checked), \
               groups/layers/images/envelope points walked, then every data \
               item of the file inflated (decompress_with, one reused \
               buffer; feature fast-inflate: libdeflate, miniz_oxide for short streams that expand much); count = (layers, images)",
        run: Box::new(move |b| {
            let df = DatafileView::parse(b).map_err(e)?;
            let map = MapView::new(df.clone()).map_err(e)?;
            let mut acc = 0usize;
            let mut layers = 0u64;
            for g in map.groups() {
                for l in g.layers() {
                    acc = acc.wrapping_add(l.flags() as usize);
                    layers += 1;
                }
            }
            acc = map
                .env_points()
                .fold(acc, |a, p| a.wrapping_add(p.time() as usize));
            let images = map.images().len() as u64;
            for i in 0..df.data_count() {
                let size = df.data_size(i).unwrap_or(0);
                if buf.len() < size {
                    buf.resize(size, 0);
                }
                let data = df.decompress_with(i, &mut buf, &mut state).map_err(e)?;
                acc = acc.wrapping_add(data.len());
            }
            black_box(acc);
            Ok((layers, images))
        }),
    };
    let peer = Side {
        name: "twmap 0.16",
        work: "TwMap::parse (datafile, every item, check) + TwMap::load \
               (every image, tile layer and sound inflated and converted); \
               count = (layers, images)",
        run: Box::new(|b| {
            let mut m = twmap::TwMap::parse(b).map_err(e)?;
            m.load().map_err(e)?;
            let layers = m.groups.iter().map(|g| g.layers.len() as u64).sum();
            Ok((layers, black_box(m).images.len() as u64))
        }),
    };
    (ours, peer)
}

// ------------------------------------------------------------------ Demos

pub fn demo_sides() -> (Side<'static>, Side<'static>) {
    let mut owned = OwnedBuffers::new();
    let ours = Side {
        name: "gamefmt",
        work: "DemoView::parse, every chunk: Huffman and packed ints of every \
               payload (messages too), keyframes and deltas applied so the \
               full snapshot is rebuilt at every tick; count = (snapshots, \
               items that are not UUID type items)",
        run: Box::new(move |b| {
            let view = DemoView::parse(b).map_err(e)?;
            let mut rec = Reconstructor::new(owned.buffers(), view.header().item_sizes());
            let (mut snaps, mut items) = (0u64, 0u64);
            for chunk in view.chunks() {
                let Ok(chunk) = chunk else { break };
                match chunk {
                    Chunk::Data {
                        kind: ChunkKind::Message | ChunkKind::Unknown,
                        payload,
                    } => {
                        if rec.decode(payload).is_err() {
                            break;
                        }
                    }
                    Chunk::Data { .. } => {
                        if rec.feed(&chunk).is_err() {
                            break;
                        }
                        if let Some(s) = rec.snapshot() {
                            snaps += 1;
                            items += s.items().filter(|i| i.type_id() != 0).count() as u64;
                        }
                    }
                    Chunk::Tick { .. } => {}
                }
            }
            Ok((snaps, items))
        }),
    };
    let mut delta = libtw2_snapshot::Delta::new();
    let mut snap = libtw2_snapshot::Snap::empty();
    let mut old = libtw2_snapshot::Snap::empty();
    let mut ints = Vec::new();
    let peer = Side {
        name: "libtw2 demo 0.3 + snapshot 0.2",
        work: "libtw2_demo::Reader over a Cursor: every chunk Huffman-decoded, \
               message ints unpacked; Snap::read for keyframes, Delta::read + \
               Snap::read_with_delta for deltas, so the full snapshot is \
               rebuilt at every tick (same item size table); count = \
               (snapshots, Snap::items)",
        run: Box::new(move |b| {
            let w = &mut libtw2_warn::Ignore;
            let mut r = libtw2_demo::Reader::new(Cursor::new(b), w).map_err(e)?;
            let nv = String::from_utf8_lossy(r.net_version()).into_owned();
            let sizes = gamefmt::demo::net_item_sizes(&nv);
            let size = |t: u16| match sizes.get(usize::from(t)) {
                Some(&s) if s != 0 => Some(u32::from(s)),
                _ => None,
            };
            let (mut snaps, mut items) = (0u64, 0u64);
            snap.clone_from(&libtw2_snapshot::Snap::empty());
            loop {
                let chunk = match r.read_chunk(w) {
                    Ok(Some(c)) => c,
                    _ => break,
                };
                match chunk {
                    libtw2_demo::RawChunk::Snapshot(data) => {
                        if snap.read(w, &mut ints, data).is_err() {
                            break;
                        }
                    }
                    libtw2_demo::RawChunk::SnapshotDelta(data) => {
                        let mut p = libtw2_packer::Unpacker::new(data);
                        if delta.read(w, size, &mut p).is_err()
                            || old.read_with_delta(w, &snap, &delta).is_err()
                        {
                            break;
                        }
                        std::mem::swap(&mut old, &mut snap);
                    }
                    libtw2_demo::RawChunk::Message(m) => {
                        black_box(m);
                        continue;
                    }
                    _ => continue,
                }
                snaps += 1;
                items += snap.items().count() as u64;
            }
            Ok((snaps, items))
        }),
    };
    (ours, peer)
}
