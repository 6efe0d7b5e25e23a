//! gamefmt against its peers, on the same bytes in memory.
//!
//! `cargo run --release -- [ROUNDS] [FORMAT...]` from this folder; the
//! corpus is `$GAMEFMT_CORPUS` or `../../../shared/corpus`. FORMAT is any of
//! `slippi`, `walk`, `teehistorian`, `maps`, `demos`, `snapshots` (all by
//! default; `snapshots` compares with DDNet's C++ when built with
//! `DDNET_SRC`, see build.rs).
//!
//! For each format, every file is first decoded once by each side; a file
//! enters the timing only if both sides succeed and agree on a count
//! (frames, messages, layers, snapshots and items). Peer panics are caught
//! and reported. Then, for ROUNDS rounds, each side runs over all the kept
//! files (repeated until it has run for at least 0.2 s), alternately (the
//! side that goes first alternates too). Reported: MB/s per side at its
//! median round, and the median of the per-round ratios ours/peer.

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

fn main() {
    let mut rounds = 11usize;
    let mut only = Vec::new();
    for a in std::env::args().skip(1) {
        match a.parse() {
            Ok(n) => rounds = n,
            Err(_) => only.push(a),
        }
    }
    let want = |f: &str| only.is_empty() || only.iter().any(|o| o == f);
    let corpus = std::env::var_os("GAMEFMT_CORPUS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
        PathBuf::from,
    );
    println!("corpus: {}", corpus.display());
    println!("rounds: {rounds} (each side >= {MIN_ROUND:?} per round)");
    let mut summary = Vec::new();

    if want("slippi") {
        let files = load(&corpus.join("slippi"), "slp");
        let (ours, peer) = work::slippi_sides();
        summary.extend(compare("Slippi full decode", &files, ours, peer, rounds));
    }
    if want("walk") {
        let files = load(&corpus.join("slippi"), "slp");
        summary.push(work::slippi_walk(&files, rounds));
    }
    if want("teehistorian") {
        let files = load(&corpus.join("teeworlds/teehistorian"), "teehistorian");
        let (ours, peer) = work::teehistorian_sides(true);
        summary.extend(compare("Teehistorian decode", &files, ours, peer, rounds));
        let (ours, peer) = work::teehistorian_sides(false);
        summary.extend(compare("  same, `for` loop", &files, ours, peer, rounds));
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
        "| {:<22} | {:<30} | {:>9} | {:>9} | {:>8} | {:>6} |",
        "format", "peer", "ours MB/s", "peer MB/s", "ratio", "files"
    );
    for line in summary {
        println!("{line}");
    }
    if !snapshot_rows.is_empty() {
        println!(
            "\n| {:<34} | {:>10} | {:>10} | {:>6} | {:>13} |",
            "snapshot work", "ours ns", "DDNet ns", "ratio", "identical"
        );
        for line in snapshot_rows {
            println!("{line}");
        }
    }
}

/// Every file of `dir` ending in `.ext`, sorted by name.
fn load(dir: &Path, ext: &str) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .filter_map(|p| {
                let name = p.file_name()?.to_string_lossy().into_owned();
                Some((name, std::fs::read(&p).ok()?))
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

/// Seconds per pass over `files` by `run`, from one round of at least
/// [`MIN_ROUND`].
fn time_round(files: &[&[u8]], run: &mut dyn FnMut(&[u8]) -> Result<Count, String>) -> f64 {
    let start = Instant::now();
    let mut passes = 0u32;
    loop {
        for f in files {
            let _ = black_box(run(black_box(f)));
        }
        passes += 1;
        let t = start.elapsed();
        if t >= MIN_ROUND {
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

/// Checks agreement file by file, then times both sides alternately.
/// Returns the summary table line.
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
    let mut kept: Vec<&[u8]> = Vec::new();
    for (name, bytes) in files {
        let a = guarded(|| (ours.run)(bytes));
        let b = guarded(|| (peer.run)(bytes));
        match (&a, &b) {
            (Ok(x), Ok(y)) if x == y => kept.push(bytes),
            _ => println!("  excluded {name}: ours {a:?}, peer {b:?}"),
        }
    }
    let bytes: usize = kept.iter().map(|b| b.len()).sum();
    println!(
        "  {} of {} files agree, {:.2} MB timed",
        kept.len(),
        files.len(),
        bytes as f64 / 1e6
    );
    if kept.is_empty() {
        return None;
    }
    let (mut to, mut tp, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
    for r in 0..rounds {
        let (o, p) = if r % 2 == 0 {
            let o = time_round(&kept, &mut *ours.run);
            (o, time_round(&kept, &mut *peer.run))
        } else {
            let p = time_round(&kept, &mut *peer.run);
            (time_round(&kept, &mut *ours.run), p)
        };
        to.push(o);
        tp.push(p);
        ratio.push(p / o);
    }
    let mbs = |t: f64| bytes as f64 / t / 1e6;
    let (o, p, r) = (median(&mut to), median(&mut tp), median(&mut ratio));
    let (rmin, rmax) = (ratio[0], ratio[ratio.len() - 1]);
    println!(
        "  ours {:.1} MB/s, peer {:.1} MB/s, ratio median {r:.2}x (min {rmin:.2}x, max {rmax:.2}x)",
        mbs(o),
        mbs(p)
    );
    Some(format!(
        "| {:<22} | {:<30} | {:>9.1} | {:>9.1} | {:>7.2}x | {:>6} |",
        title,
        peer.name,
        mbs(o),
        mbs(p),
        r,
        format!("{}/{}", kept.len(), files.len())
    ))
}
