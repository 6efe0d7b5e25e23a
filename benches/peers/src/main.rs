//! gamefmt against its peers, on the same bytes in memory.
//!
//! `cargo run --release -- [ROUNDS] [FORMAT...]` from this folder; the
//! corpus is `$GAMEFMT_CORPUS` or `../../../shared/corpus`. FORMAT is any of
//! `slippi`, `walk`, `teehistorian` (the corpus folder, the large
//! recording in `teeworlds/large`, tiny generated files), `maps`, `demos`,
//! `snapshots` (all by default; `snapshots` compares with DDNet's C++ when
//! built with `DDNET_SRC`, see build.rs).
//!
//! `cargo run --release -- repeat SET FILE SIDE SHAPE N` runs one side of
//! a teehistorian row on some of its files N times and nothing else, for
//! instruction counts (`valgrind --tool=callgrind`; the difference
//! between two N, divided, is the cost per file): SET is `corpus`,
//! `large` or `tiny`, FILE a part of the file names (`""`: all), SIDE `ours` or
//! `peer`, SHAPE `for_each` or `for`; it prints the min and median time
//! of a pass (for a file's own ratio, timed apart from the other files'
//! noise: the min of many passes). SET `demos` runs the demo row's work
//! on the corpus demos instead (SHAPE is ignored); SET `slippi` runs a
//! side of a Slippi full-decode row (the corpus `slippi` folder; SHAPE
//! `bits` for the bits fold, anything else for the f64 consumer).
//!
//! For each format, every file is first decoded once by each side; a file
//! enters the timing only if both sides succeed and agree on a count
//! (frames, messages, layers, snapshots and items). Peer panics are caught
//! and reported. Then, for ROUNDS rounds, each side decodes each kept file
//! on its own, repeated for at least 5 ms (and 0.2 s per side and round
//! over all files), the sides alternating (the side that goes first
//! alternates too). Reported: MB/s per side at its median round (a round's
//! time: the sum of its per-file times), the min, median and max of the
//! per-round ratios peer time / our time, and per file the median of its
//! ratios (the lowest in the summary).

mod snapshots;
mod work;

use std::hint::black_box;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What a side reports for one file: two counts both sides must agree on.
pub type Count = (u64, u64);

/// One side of a comparison: a name, what it does, and its decoder.
pub struct Side<'a> {
    pub name: &'a str,
    pub work: &'a str,
    pub run: Box<dyn FnMut(&[u8]) -> Result<Count, String> + 'a>,
}

const MIN_ROUND: Duration = Duration::from_millis(200);
/// The head of the snapshot table (ratio: ours / DDNet, lower is better).
pub const SNAPSHOT_HEADER: &str = "| snapshot work                      |    ours ns |   DDNet ns |    min | median |    max |     identical |";
/// The least time each side spends on one file in a round.
const MIN_FILE: Duration = Duration::from_millis(5);

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("repeat") {
        repeat(&args[1..]);
        return;
    }
    let mut rounds = 11usize;
    let mut only = Vec::new();
    for a in std::env::args().skip(1) {
        match a.parse() {
            Ok(n) => rounds = n,
            Err(_) => only.push(a),
        }
    }
    let want = |f: &str| only.is_empty() || only.iter().any(|o| o == f);
    let corpus = corpus();
    println!("corpus: {}", corpus.display());
    println!("rounds: {rounds} (each side >= {MIN_ROUND:?} per round)");
    let mut summary = Vec::new();

    if want("slippi") {
        let files = load(&corpus.join("slippi"), "slp");
        for (bits, title) in [
            (false, "Slippi full decode"),
            (true, "Slippi full, bits fold"),
        ] {
            let (ours, peer) = work::slippi_sides(bits);
            summary.extend(compare(title, &files, ours, peer, rounds));
        }
    }
    if want("walk") {
        let files = load(&corpus.join("slippi"), "slp");
        summary.push(work::slippi_walk(&files, rounds));
    }
    if want("teehistorian") {
        for set in ["corpus", "large", "tiny"] {
            let files = &teehistorian_set(&corpus, set);
            for (fold, shape) in [(true, "for_each"), (false, "for loop")] {
                let (ours, peer) = work::teehistorian_sides(fold);
                let title = format!("Teehistorian {set}, {shape}");
                summary.extend(compare(&title, files, ours, peer, rounds));
            }
        }
    }
    if want("maps") {
        let files = load(&corpus.join("teeworlds/maps"), "map");
        let (ours, peer) = work::map_sides();
        summary.extend(compare("Map load", &files, ours, peer, rounds));
    }
    if want("demos") {
        let files = load(&corpus.join("teeworlds/demos"), "demo");
        let (ours, peer) = work::demo_sides();
        summary.extend(compare("Demo to snapshots", &files, ours, peer, rounds));
    }

    let mut snapshot_rows = Vec::new();
    if want("snapshots") {
        let files = load(&corpus.join("teeworlds/demos"), "demo");
        snapshot_rows = snapshots::compare(&files, rounds);
    }

    println!("\n== summary ==");
    println!(
        "| {:<24} | {:<30} | {:>9} | {:>9} | {:>7} | {:>7} | {:>7} | {:>9} | {:>7} |",
        "format", "peer", "ours MB/s", "peer MB/s", "min", "median", "max", "min file", "files"
    );
    for line in summary {
        println!("{line}");
    }
    if !snapshot_rows.is_empty() {
        println!("\n{SNAPSHOT_HEADER}");
        for line in snapshot_rows {
            println!("{line}");
        }
    }
}

/// The corpus folder: `$GAMEFMT_CORPUS` or the workplace's.
fn corpus() -> PathBuf {
    std::env::var_os("GAMEFMT_CORPUS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
        PathBuf::from,
    )
}

/// The files of a teehistorian row: `corpus`, `large` or `tiny`.
fn teehistorian_set(corpus: &Path, set: &str) -> Vec<(String, Vec<u8>)> {
    match set {
        "corpus" => load(&corpus.join("teeworlds/teehistorian"), "teehistorian"),
        "large" => load(&corpus.join("teeworlds/large"), "gz"),
        _ => work::teehistorian_tiny(),
    }
}

/// `repeat SET FILE SIDE SHAPE N` (see the top of this file).
fn repeat(args: &[String]) {
    let [set, file, side, shape, n] = args else {
        eprintln!("usage: repeat SET FILE SIDE SHAPE N");
        std::process::exit(2);
    };
    let corpus = corpus();
    let files = match set.as_str() {
        "demos" => load(&corpus.join("teeworlds/demos"), "demo"),
        "slippi" => load(&corpus.join("slippi"), "slp"),
        _ => teehistorian_set(&corpus, set),
    };
    let files: Vec<_> = files
        .into_iter()
        .filter(|(name, _)| name.contains(file.as_str()))
        .collect();
    let (ours, peer) = match set.as_str() {
        "demos" => work::demo_sides(),
        "slippi" => work::slippi_sides(shape == "bits"),
        _ => work::teehistorian_sides(shape == "for_each"),
    };
    let mut run = if side == "peer" { peer.run } else { ours.run };
    let n: u64 = n.parse().unwrap_or(1);
    // Messages (teehistorian), snapshots (demos) or frames (Slippi).
    let mut counted = 0;
    let mut times = Vec::new();
    for _ in 0..n {
        let start = Instant::now();
        for (_, bytes) in &files {
            counted += black_box(run(black_box(bytes))).map_or(0, |(m, _)| m);
        }
        times.push(start.elapsed().as_secs_f64() * 1e9);
    }
    let bytes: usize = files.iter().map(|(_, b)| b.len()).sum();
    let first = times.first().copied().unwrap_or(f64::NAN);
    let (lo, m, _) = spread(&mut times);
    println!(
        "{} files, {bytes} B: {side} {shape} x{n}: count {counted}; \
         ns a pass: min {lo:.0}, median {m:.0}, first {first:.0}",
        files.len()
    );
}

/// Every file of `dir` ending in `.ext`, sorted by name (`.gz` files
/// decompressed, their name without it).
fn load(dir: &Path, ext: &str) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .filter_map(|p| {
                let name = p.file_name()?.to_string_lossy().into_owned();
                let bytes = std::fs::read(&p).ok()?;
                if ext != "gz" {
                    return Some((name, bytes));
                }
                let mut out = Vec::new();
                let mut gz = flate2::read::GzDecoder::new(bytes.as_slice());
                std::io::Read::read_to_end(&mut gz, &mut out).ok()?;
                Some((name.trim_end_matches(".gz").to_string(), out))
            })
            .collect(),
        Err(e) => {
            println!("SKIPPED {}: {e}", dir.display());
            Vec::new()
        }
    };
    out.sort();
    out
}

/// Runs `f` with panics caught (and their message kept quiet).
fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = catch_unwind(AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    match r {
        Ok(r) => r,
        Err(p) => Err(format!(
            "PANIC: {}",
            p.downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| p.downcast_ref::<&str>().copied())
                .unwrap_or("?")
        )),
    }
}

/// Seconds per pass over `files` by `run`, from one stretch of at least
/// `min`.
fn time_pass(
    files: &[&[u8]],
    run: &mut dyn FnMut(&[u8]) -> Result<Count, String>,
    min: Duration,
) -> f64 {
    let start = Instant::now();
    let mut passes = 0u32;
    loop {
        for f in files {
            let _ = black_box(run(black_box(f)));
        }
        passes += 1;
        let t = start.elapsed();
        if t >= min {
            return t.as_secs_f64() / f64::from(passes);
        }
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Min, median and max of `v` (sorted in place).
fn spread(v: &mut [f64]) -> (f64, f64, f64) {
    let m = median(v);
    (v[0], m, v[v.len() - 1])
}

/// Checks agreement file by file, then times both sides alternately, each
/// file on its own (at least [`MIN_FILE`], and [`MIN_ROUND`] per side and
/// round over all files), so that a per-file ratio is known too. A round's
/// time per side is the sum of its per-file times (one pass over all
/// files). Returns the summary table line.
fn compare(
    title: &str,
    files: &[(String, Vec<u8>)],
    mut ours: Side<'_>,
    mut peer: Side<'_>,
    rounds: usize,
) -> Option<String> {
    println!("\n== {title}: {} vs {} ==", ours.name, peer.name);
    println!("  ours: {}", ours.work);
    println!("  peer: {}", peer.work);
    let mut kept: Vec<(&str, &[u8])> = Vec::new();
    for (name, bytes) in files {
        let a = guarded(|| (ours.run)(bytes));
        let b = guarded(|| (peer.run)(bytes));
        match (&a, &b) {
            (Ok(x), Ok(y)) if x == y => kept.push((name, bytes)),
            _ => println!("  excluded {name}: ours {a:?}, peer {b:?}"),
        }
    }
    let bytes: usize = kept.iter().map(|(_, b)| b.len()).sum();
    println!(
        "  {} of {} files agree, {:.2} MB timed",
        kept.len(),
        files.len(),
        bytes as f64 / 1e6
    );
    if kept.is_empty() {
        return None;
    }
    let min = MIN_FILE.max(MIN_ROUND / kept.len() as u32);
    let (mut to, mut tp, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
    let mut per_file = vec![Vec::new(); kept.len()];
    for r in 0..rounds {
        let (mut o, mut p) = (0.0, 0.0);
        for (i, (_, b)) in kept.iter().enumerate() {
            let one = &[*b][..];
            let (fo, fp) = if r % 2 == 0 {
                let fo = time_pass(one, &mut *ours.run, min);
                (fo, time_pass(one, &mut *peer.run, min))
            } else {
                let fp = time_pass(one, &mut *peer.run, min);
                (time_pass(one, &mut *ours.run, min), fp)
            };
            per_file[i].push(fp / fo);
            o += fo;
            p += fp;
        }
        to.push(o);
        tp.push(p);
        ratio.push(p / o);
    }
    let mbs = |t: f64| bytes as f64 / t / 1e6;
    let (o, p) = (median(&mut to), median(&mut tp));
    let (rmin, r, rmax) = spread(&mut ratio);
    let mut worst = (f64::INFINITY, "");
    for ((name, b), v) in kept.iter().zip(&mut per_file) {
        let (lo, m, hi) = spread(v);
        println!(
            "    {name} ({} B): ratio median {m:.2}x (min {lo:.2}x, max {hi:.2}x)",
            b.len()
        );
        if m < worst.0 {
            worst = (m, name);
        }
    }
    println!(
        "  ours {:.1} MB/s, peer {:.1} MB/s, ratio median {r:.2}x (min {rmin:.2}x, max {rmax:.2}x); \
         lowest per-file median {:.2}x ({})",
        mbs(o),
        mbs(p),
        worst.0,
        worst.1
    );
    Some(format!(
        "| {:<24} | {:<30} | {:>9.1} | {:>9.1} | {:>6.2}x | {:>6.2}x | {:>6.2}x | {:>8.2}x | {:>7} |",
        title,
        peer.name,
        mbs(o),
        mbs(p),
        rmin,
        r,
        rmax,
        worst.0,
        format!("{}/{}", kept.len(), files.len())
    ))
}
