//! Slippi stats (slippi-js 9.1.2's `getStats()`) of replays, and their
//! timing: the Rust half of `benches/stats_vs_slippi_js.sh`.
//!
//! ```text
//! cargo run --release --example slippi_stats --features std,slippi -- FILE...
//! cargo run --release --example slippi_stats --features std,slippi -- --bench ROUNDS FILE...
//! ```
//!
//! Without `--bench`: one line per replay with its per-player overall
//! numbers. With it: every file read into memory first, one unmeasured
//! pass, then `ROUNDS` measured passes of (a) decoding every event alone,
//! (b) decoding into frames (`Frames`) and (c) decoding plus stats,
//! printing the best wall time of a pass of each in ms, and the mean CPU
//! time of a pass (Linux; robust to other processes' load).
#![allow(
    clippy::print_stdout,
    clippy::arithmetic_side_effects,
    clippy::indexing_slicing
)]

use std::time::Instant;

use gamefmt::slippi::{SlippiEventIter, SlippiStats};

fn stats(bytes: &[u8], out: &mut SlippiStats) {
    out.reset();
    for event in SlippiEventIter::new(bytes) {
        let Ok(event) = event else { break };
        out.push(&event);
    }
    out.finish();
}

fn decode(bytes: &[u8]) -> usize {
    if std::env::var_os("STAGE_ONLY").is_some() {
        let mut st = gamefmt::slippi::FinalizedFrames::<Probe>::with_records();
        let mut n = 0;
        for e in SlippiEventIter::new(bytes).map_while(Result::ok) {
            st.push(&e);
            while let Some(f) = st.next_finalized() {
                n += f.0 as usize;
            }
        }
        return n;
    }
    SlippiEventIter::new(bytes).map_while(Result::ok).count()
}

/// A full decode: every event, grouped into frames with its fields at hand.
fn frames(bytes: &[u8]) -> usize {
    gamefmt::slippi::Frames::new(bytes)
        .map_while(Result::ok)
        .map(|f| f.characters().count())
        .sum()
}

/// This thread's CPU time in ms (Linux `/proc/thread-self/schedstat`, ns
/// precision), which other processes' load does not inflate; `None`
/// elsewhere.
fn cpu_ms() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e6)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let rounds = if args.first().is_some_and(|a| a == "--bench") {
        let n = args.get(1).ok_or("--bench ROUNDS")?.parse::<usize>()?;
        args.drain(..2);
        Some(n)
    } else {
        None
    };
    let files: Vec<(String, Vec<u8>)> = args
        .iter()
        .map(|p| Ok((p.clone(), std::fs::read(p)?)))
        .collect::<Result<_, std::io::Error>>()?;
    let mut s = Box::new(SlippiStats::new());
    let Some(rounds) = rounds else {
        for (name, bytes) in &files {
            stats(bytes, &mut s);
            print!("{name}: last frame {}", s.last_frame());
            for o in s.overall() {
                print!(
                    "; port {}: {} openings, {} kills, {:.1} damage",
                    o.player_index + 1,
                    o.conversion_count,
                    o.kill_count,
                    o.total_damage
                );
            }
            println!();
        }
        return Ok(());
    };
    let bytes: usize = files.iter().map(|(_, b)| b.len()).sum();
    let mut checksum = 0i64;
    for (_, b) in &files {
        stats(b, &mut s);
        checksum += i64::from(s.last_frame());
        checksum += decode(b) as i64;
    }
    // Per kind: the best wall time of a pass, and the CPU time of all.
    let mut best = [f64::MAX; 3];
    let mut cpu = [0.0f64; 3];
    for _ in 0..rounds {
        for (kind, (b_slot, c_slot)) in best.iter_mut().zip(cpu.iter_mut()).enumerate() {
            let (t, c) = (Instant::now(), cpu_ms());
            for (_, b) in &files {
                checksum += match kind {
                    0 => decode(b) as i64,
                    1 => frames(b) as i64,
                    _ => {
                        stats(b, &mut s);
                        s.conversions().len() as i64
                    }
                };
            }
            *b_slot = b_slot.min(t.elapsed().as_secs_f64() * 1e3);
            if let (Some(c0), Some(c1)) = (c, cpu_ms()) {
                *c_slot += c1 - c0;
            }
        }
    }
    let per = |x: f64| x / rounds.max(1) as f64;
    println!(
        "gamefmt: {} files, {:.1} MB; decode alone {:.2} ms; decode into frames {:.2} ms; decode + stats {:.2} ms (best wall time of {rounds}; CPU ms per pass: {:.2}, {:.2}, {:.2}; checksum {checksum})",
        files.len(),
        bytes as f64 / 1e6,
        best[0],
        best[1],
        best[2],
        per(cpu[0]),
        per(cpu[1]),
        per(cpu[2]),
    );
    Ok(())
}

#[derive(Default)]
struct Probe(i32);
impl gamefmt::slippi::FrameRecord for Probe {
    fn begin(&mut self, n: i32) {
        self.0 = n;
    }
    fn add(&mut self, e: &gamefmt::slippi::Event<'_>) {
        if let gamefmt::slippi::Event::PostFrame(p) = e {
            self.0 = self
                .0
                .wrapping_add(i32::from(p.action_state().unwrap_or(0)));
        }
    }
}
