//! The robustness sweep every stream format shares: every prefix of a file
//! up to 64 KiB (a few thousand evenly spaced ones beyond), and fixed-seed
//! single-byte corruptions, each of which must end in a clean result or a
//! clean error within a bounded number of steps. Prefixes must deliver
//! exactly the records of the whole file that lie wholly inside them.
//!
//! Decoding every prefix from the start would cost the square of the file
//! size, so each prefix and corruption is first checked *incrementally*:
//! the format's push decoder is resumed from its state at a record boundary
//! of the clean decode (its state there depends only on the bytes before
//! it) and fed the prefix's or corrupted copy's bytes from there on. A
//! corrupted copy is decoded until it fails, ends, or its decoder state
//! equals the clean decode's at the same offset (the rest is then the
//! clean file's). On top of that an evenly spaced subsample of prefixes and
//! corruptions is decoded *from scratch* through the format's slice
//! iterator or view, which must agree.
//!
//! `GAMEFMT_SWEEP=full` samples ten times more of everything.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects,
    reason = "test helper: panics are the failure report"
)]

use std::fmt::Debug;
use std::time::{Duration, Instant};

/// Files up to this size get every prefix checked.
pub const ALL_PREFIXES_UP_TO: usize = 64 << 10;

/// Whether `GAMEFMT_SWEEP=full` asks for the large sample.
pub fn full() -> bool {
    std::env::var("GAMEFMT_SWEEP").is_ok_and(|v| v == "full")
}

fn scale() -> usize {
    if full() { 10 } else { 1 }
}

/// A fixed-seed xorshift generator.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The prefix lengths to check: all of them (`0..len`) up to 64 KiB, else
/// 2000 evenly spaced ones (20 000 with `GAMEFMT_SWEEP=full`).
pub fn prefix_lengths(len: usize) -> Vec<usize> {
    if len <= ALL_PREFIXES_UP_TO {
        (0..len).collect()
    } else {
        let n = 2000 * scale();
        (0..n).map(|k| k * len / n).collect()
    }
}

/// Fixed-seed single-byte corruptions (offset, new value differing from
/// the old): 1000 per file up to 16 KiB, 300 beyond; ten times more with
/// `GAMEFMT_SWEEP=full`.
pub fn corruptions(bytes: &[u8], seed: u64) -> Vec<(usize, u8)> {
    if bytes.is_empty() {
        return Vec::new();
    }
    let n = if bytes.len() <= 16 << 10 { 1000 } else { 300 } * scale();
    let mut rng = Rng::new(seed ^ bytes.len() as u64);
    (0..n)
        .map(|_| {
            let at = rng.below(bytes.len());
            let flip = (rng.next() as u8) | 1;
            (at, bytes[at] ^ flip)
        })
        .collect()
}

/// Evenly spaced picks of `n` out of `items` (all when fewer).
pub fn spaced<T: Copy>(items: &[T], n: usize) -> Vec<T> {
    if items.len() <= n {
        return items.to_vec();
    }
    (0..n).map(|k| items[k * items.len() / n]).collect()
}

/// One step of a format's push decoder.
pub enum Step<R> {
    /// A record, and the bytes it used.
    Record(R, usize),
    /// Something that is not a record (a header), and the bytes it used.
    Skip(usize),
    /// No whole record in the input.
    NeedMore,
    /// The format's end marker was passed; nothing more is read.
    Done,
    /// A clean decoding error.
    Error,
}

/// What decoding a whole input from scratch (slice iterator or view)
/// delivered: records with the offset just past each, and the ending
/// (`None` after an error).
pub struct Scratch<R> {
    pub records: Vec<(usize, R)>,
    pub end: Option<String>,
}

/// A stream format as the sweep drives it.
pub trait Stream {
    /// The push decoder's state.
    type State: Clone;
    /// What the sweep compares of a record (owned: corrupted copies die).
    type Record: PartialEq + Debug;
    /// Reads what precedes the first step (a header outside the push
    /// decoder); the state and the offset of the first step, `None` for a
    /// clean error.
    fn start(&mut self, bytes: &[u8]) -> Option<(Self::State, usize)>;
    /// One push-decoder step on `input`, which starts at file offset `at`.
    /// Implementations also read the record through its typed accessors.
    fn step(&mut self, state: &mut Self::State, input: &[u8], at: usize) -> Step<Self::Record>;
    /// The ending the decoder reports with `unconsumed` bytes left over.
    fn end(&self, state: &Self::State, unconsumed: usize) -> String;
    /// Whether two decoder states are equal.
    fn same(&self, a: &Self::State, b: &Self::State) -> bool;
    /// Decodes `bytes` from scratch through the slice iterator or view
    /// (and whatever the format builds on it).
    fn scratch(&mut self, bytes: &[u8]) -> Scratch<Self::Record>;
}

/// How a run of push-decoder steps stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    NeedMore,
    Done,
    Error,
    /// Back in the clean decode's state at the same offset.
    Converged,
    /// [`WINDOW`] records past the damage without converging.
    Window,
}

/// Records a corrupted copy is decoded past the damage, at most, when its
/// decoder does not return to the clean state (a changed tick carried to
/// the end of a teehistorian file, say). The from-scratch subsample
/// decodes corrupted copies to their end.
const WINDOW: usize = 2048;

struct Run<S, R> {
    records: Vec<(usize, usize, R)>,
    state: S,
    pos: usize,
    stop: Stop,
}

/// The clean decode of a whole file: every record with its byte range,
/// every step boundary, and the decoder state at every 16th boundary.
struct Trace<S, R> {
    first: usize,
    records: Vec<(usize, usize, R)>,
    boundaries: Vec<usize>,
    states: Vec<(usize, S)>,
    stop: Stop,
}

const STATE_EVERY: usize = 16;

/// The clean trace of a stream format, and the offset of the damage.
type Converge<'t, T> = (
    &'t Trace<<T as Stream>::State, <T as Stream>::Record>,
    usize,
);

/// Steps from `state` at `pos` through `input`. Every step must consume
/// bytes or stop, so the number of steps is bounded by the input length.
/// With `converge`, stops once past `after` in a state equal to the clean
/// decode's at the same offset, or [`WINDOW`] records later.
fn run<T: Stream>(
    stream: &mut T,
    mut state: T::State,
    input: &[u8],
    mut pos: usize,
    converge: Option<Converge<'_, T>>,
) -> Run<T::State, T::Record> {
    let mut records = Vec::new();
    let max_steps = input.len().saturating_sub(pos) + 2;
    let mut steps = 0usize;
    let stop = loop {
        steps += 1;
        assert!(steps <= max_steps, "more steps than bytes from {pos}");
        let (record, used) = match stream.step(&mut state, &input[pos..], pos) {
            Step::Record(r, used) => (Some(r), used),
            Step::Skip(used) => (None, used),
            Step::NeedMore => break Stop::NeedMore,
            Step::Done => break Stop::Done,
            Step::Error => break Stop::Error,
        };
        assert!(
            used > 0 && pos + used <= input.len(),
            "step at {pos} used {used} of {}",
            input.len() - pos
        );
        if let Some(r) = record {
            records.push((pos, pos + used, r));
        }
        pos += used;
        if let Some((trace, _)) = converge.filter(|&(_, after)| pos > after) {
            if let Ok(i) = trace.states.binary_search_by_key(&pos, |(at, _)| *at) {
                if stream.same(&state, &trace.states[i].1) {
                    break Stop::Converged;
                }
            }
        }
        if converge.is_some() && records.len() > WINDOW {
            break Stop::Window;
        }
    };
    Run {
        records,
        state,
        pos,
        stop,
    }
}

/// The clean decode of `bytes`, or `None` if it does not even start.
fn trace<T: Stream>(
    stream: &mut T,
    name: &str,
    bytes: &[u8],
) -> Option<Trace<T::State, T::Record>> {
    let (mut state, first) = stream.start(bytes)?;
    let mut t = Trace {
        first,
        records: Vec::new(),
        boundaries: vec![first],
        states: vec![(first, state.clone())],
        stop: Stop::NeedMore,
    };
    let mut pos = first;
    loop {
        let used = match stream.step(&mut state, &bytes[pos..], pos) {
            Step::Record(r, used) => {
                t.records.push((pos, pos + used, r));
                used
            }
            Step::Skip(used) => used,
            Step::NeedMore => break,
            Step::Done => {
                t.stop = Stop::Done;
                break;
            }
            Step::Error => {
                t.stop = Stop::Error;
                break;
            }
        };
        assert!(used > 0, "{name}: step at {pos} used nothing");
        pos += used;
        t.boundaries.push(pos);
        if t.boundaries.len() % STATE_EVERY == 0 {
            t.states.push((pos, state.clone()));
        }
    }
    Some(t)
}

/// The stored state at the last stored boundary at or before `at`.
fn state_before<S: Clone, R>(t: &Trace<S, R>, at: usize) -> Option<(usize, S)> {
    let i = t.states.partition_point(|(b, _)| *b <= at);
    i.checked_sub(1).map(|i| t.states[i].clone())
}

/// Figures of one format's sweep, for the report line.
#[derive(Default, Debug)]
pub struct Figures {
    pub files: usize,
    /// Of `files`, those whose start (what precedes the push decoder's
    /// first step, e.g. a demo header) refused the whole file.
    pub rejected: usize,
    /// Records of the whole files' clean decodes.
    pub records: usize,
    pub bytes: usize,
    pub prefixes: usize,
    pub corruptions: usize,
    pub scratch_prefixes: usize,
    pub scratch_corruptions: usize,
    pub elapsed: Duration,
}

impl Figures {
    /// Counts one swept file of `len` bytes, begun at `started`.
    fn add_file(&mut self, len: usize, started: Instant) {
        self.files += 1;
        self.bytes += len;
        self.elapsed += started.elapsed();
    }

    pub fn report(&self, format: &str) {
        eprintln!(
            "sweep {format}: {} files ({} rejected whole; {} bytes, {} records), {} prefixes and {} corruptions checked \
             incrementally, {} prefixes and {} corruptions from scratch, in {:.1?}{}",
            self.files,
            self.rejected,
            self.bytes,
            self.records,
            self.prefixes,
            self.corruptions,
            self.scratch_prefixes,
            self.scratch_corruptions,
            self.elapsed,
            if full() { " (GAMEFMT_SWEEP=full)" } else { "" },
        );
    }
}

/// Bytes decoded from scratch per file, about: the subsample is at most 48
/// prefixes (24 corruptions), fewer for files above 256 KiB, at least 4.
const SCRATCH_BYTES: usize = 12 << 20;

/// Sweeps one file: prefixes and corruptions, incrementally and (a
/// subsample of each) from scratch. `seed` fixes the corruptions. The
/// whole file may itself be damaged (real files are): its records up to
/// the error are then what prefixes must deliver, and a prefix that holds
/// the damage may end in the same error, at the same place.
pub fn sweep_file<T: Stream>(
    stream: &mut T,
    name: &str,
    bytes: &[u8],
    seed: u64,
    figures: &mut Figures,
) {
    let started = Instant::now();
    let scratch = (SCRATCH_BYTES * scale() / bytes.len().max(1)).clamp(4, 48 * scale());
    let Some(t) = trace(stream, name, bytes) else {
        sweep_rejected(stream, bytes, seed, scratch, figures);
        figures.rejected += 1;
        figures.add_file(bytes.len(), started);
        return;
    };
    figures.records += t.records.len();
    let whole = stream.scratch(bytes);
    let clean: Vec<_> = t.records.iter().map(|(_, e, r)| (*e, r)).collect();
    let scratch_whole: Vec<_> = whole.records.iter().map(|(e, r)| (*e, r)).collect();
    assert_eq!(
        scratch_whole, clean,
        "{name}: slice iterator vs push decoder"
    );

    // How many records lie wholly inside `len`.
    let inside = |len: usize| t.records.partition_point(|(_, end, _)| *end <= len);
    // The prefix `..len` decoded incrementally: the records delivered must
    // be exactly those of the clean decode wholly inside it, and the
    // decoder must stop at the last boundary, asking for more (or, if the
    // whole file fails there, failing the same way). Returns the ending
    // the decoder then reports (`None`: the start failed, or an error).
    let incremental = |stream: &mut T, len: usize| -> Option<String> {
        let prefix = &bytes[..len];
        let (from, state) = match state_before(&t, len) {
            Some(s) => s,
            // Inside what precedes the first step: a clean error, or a
            // start with nothing to deliver.
            None => {
                let (state, first) = stream.start(prefix)?;
                let r = run(stream, state, prefix, first, None);
                assert!(r.records.is_empty(), "{name}[..{len}]");
                return Some(stream.end(&r.state, len - r.pos));
            }
        };
        let r = run(stream, state, prefix, from, None);
        let n = inside(len);
        let want: Vec<_> = t.records[..n]
            .iter()
            .filter(|(start, _, _)| *start >= from)
            .collect();
        let got: Vec<_> = r.records.iter().collect();
        assert_eq!(got, want, "{name}[..{len}]: records");
        let last_boundary = t.boundaries[t.boundaries.partition_point(|b| *b <= len) - 1];
        match r.stop {
            Stop::NeedMore => assert_eq!(
                r.pos, last_boundary,
                "{name}[..{len}]: stopped before the last boundary"
            ),
            Stop::Done => assert_eq!(t.stop, Stop::Done, "{name}[..{len}]"),
            // The whole file's own damage, seen by the prefix too.
            Stop::Error if t.stop == Stop::Error && t.boundaries.last() == Some(&r.pos) => {
                return None;
            }
            Stop::Error | Stop::Converged | Stop::Window => panic!("{name}[..{len}]: {:?}", r.stop),
        }
        Some(stream.end(&r.state, len - r.pos))
    };
    let lengths = prefix_lengths(bytes.len());
    for &len in &lengths {
        incremental(stream, len);
        figures.prefixes += 1;
    }
    // From scratch: the same records, and the same ending.
    for len in spaced(&lengths, scratch) {
        let end = incremental(stream, len);
        let got = stream.scratch(&bytes[..len]);
        let want: Vec<_> = t.records[..inside(len)]
            .iter()
            .map(|(_, e, r)| (*e, r))
            .collect();
        let got_records: Vec<_> = got.records.iter().map(|(e, r)| (*e, r)).collect();
        assert_eq!(got_records, want, "{name}[..{len}] from scratch: records");
        assert_eq!(got.end, end, "{name}[..{len}] from scratch: ending");
        figures.scratch_prefixes += 1;
    }

    let corrupt = corruptions(bytes, seed);
    let mut copy = bytes.to_vec();
    for &(at, value) in &corrupt {
        copy[at] = value;
        match state_before(&t, at) {
            Some((from, state)) => {
                let r = run(stream, state, &copy, from, Some((&t, at)));
                // Whole records before the damage come through unchanged.
                for (start, end, record) in &r.records {
                    if *end <= at {
                        let i = t.records.partition_point(|(s, _, _)| s < start);
                        assert_eq!(
                            Some((start, end, record)),
                            t.records.get(i).map(|(s, e, r)| (s, e, r)),
                            "{name}: corruption at {at}"
                        );
                    }
                }
            }
            None => {
                if let Some((state, first)) = stream.start(&copy) {
                    run(stream, state, &copy, first, Some((&t, at)));
                }
            }
        }
        copy[at] = bytes[at];
        figures.corruptions += 1;
    }
    for (at, value) in spaced(&corrupt, scratch / 2) {
        copy[at] = value;
        let got = stream.scratch(&copy);
        // Every whole record before the damage, delivered unchanged.
        let n = t.records.partition_point(|(_, end, _)| *end <= at);
        let want: Vec<_> = t.records[..n].iter().map(|(_, e, r)| (*e, r)).collect();
        let got_records: Vec<_> = got.records.iter().take(n).map(|(e, r)| (*e, r)).collect();
        assert_eq!(got_records, want, "{name}: corruption at {at} from scratch");
        copy[at] = bytes[at];
        figures.scratch_corruptions += 1;
    }
    figures.add_file(bytes.len(), started);
}

/// The sweep of a file whose start (a header outside the push decoder) is
/// rejected as a whole: there are no records to compare, so each prefix
/// and corruption (the same ones as [`sweep_file`] takes) must only end
/// cleanly, within the bounded steps of [`run`], and a subsample of each
/// from scratch.
fn sweep_rejected<T: Stream>(
    stream: &mut T,
    bytes: &[u8],
    seed: u64,
    scratch: usize,
    figures: &mut Figures,
) {
    let incremental = |stream: &mut T, input: &[u8]| {
        if let Some((state, first)) = stream.start(input) {
            run(stream, state, input, first, None);
        }
    };
    let lengths = prefix_lengths(bytes.len());
    for &len in &lengths {
        incremental(stream, &bytes[..len]);
        figures.prefixes += 1;
    }
    for len in spaced(&lengths, scratch) {
        stream.scratch(&bytes[..len]);
        figures.scratch_prefixes += 1;
    }
    let corrupt = corruptions(bytes, seed);
    let mut copy = bytes.to_vec();
    for &(at, value) in &corrupt {
        copy[at] = value;
        incremental(stream, &copy);
        copy[at] = bytes[at];
        figures.corruptions += 1;
    }
    for (at, value) in spaced(&corrupt, scratch / 2) {
        copy[at] = value;
        stream.scratch(&copy);
        copy[at] = bytes[at];
        figures.scratch_corruptions += 1;
    }
}
