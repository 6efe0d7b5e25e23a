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
//! printing the best pass of each in ms.
#![allow(
    clippy::print_stdout,
    clippy::arithmetic_side_effects,
    clippy::indexing_slicing
)]

use std::time::Instant;

use gamefmt::slippi::{SlippiEventIter, SlippiStats};

fn stats(bytes: &[u8], out: &mut SlippiStats) {
    *out = SlippiStats::new();
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
    let (mut best_decode, mut best_frames, mut best_stats) = (f64::MAX, f64::MAX, f64::MAX);
    for _ in 0..rounds {
        let t = Instant::now();
        for (_, b) in &files {
            checksum += decode(b) as i64;
        }
        best_decode = best_decode.min(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        for (_, b) in &files {
            checksum += frames(b) as i64;
        }
        best_frames = best_frames.min(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        for (_, b) in &files {
            stats(b, &mut s);
            checksum += s.conversions().len() as i64;
        }
        best_stats = best_stats.min(t.elapsed().as_secs_f64() * 1e3);
    }
    println!(
        "gamefmt: {} files, {:.1} MB; decode alone {best_decode:.2} ms; decode into frames {best_frames:.2} ms; decode + stats {best_stats:.2} ms (best of {rounds}; checksum {checksum})",
        files.len(),
        bytes as f64 / 1e6
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
