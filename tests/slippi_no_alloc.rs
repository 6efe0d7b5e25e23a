//! The Slippi core paths (view, event walk with every typed accessor,
//! splitter reassembly into a caller buffer, Gecko code walk, metadata,
//! frames, push decoding) allocate nothing: proven with a counting global
//! allocator.
#![allow(
    unsafe_code,
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use crate::common;

use crate::counting_alloc::allocations_during;
use gamefmt::slippi::{
    Decoder, Event, Frames, GeckoList, Reassembler, SAMPLE, SlippiEventIter, SlippiView,
};
use gamefmt::stream::Decoded;

/// Reads a few fields of every kind of event and sums them.
fn walk(bytes: &[u8], buf: &mut [u8]) -> (u64, usize) {
    let mut events = 0u64;
    let mut codes = 0usize;
    if let Ok(view) = SlippiView::parse(bytes) {
        let _ = view
            .game_start()
            .map(|g| (g.stage(), g.players().count(), g.display_name(0)));
        let _ = view.game_end().map(|e| e.placements());
        if let Ok(Some(m)) = view.metadata() {
            let _ = (
                m.start_at(),
                m.last_frame(),
                m.played_on(),
                m.console_nick(),
            );
            for p in m.players() {
                let _ = (
                    p.index(),
                    p.netplay_name(),
                    p.connect_code(),
                    p.characters().count(),
                );
            }
        }
    }
    let mut gecko = Reassembler::new(buf);
    for e in SlippiEventIter::new(bytes) {
        let Ok(e) = e else { break };
        events += 1;
        match e {
            Event::PreFrame(p) => {
                let _ = (p.frame(), p.position_x(), p.buttons(), p.raw_cstick_y());
            }
            Event::PostFrame(p) => {
                let _ = (
                    p.action_state(),
                    p.percent(),
                    p.state_flags(),
                    p.instance_id(),
                );
            }
            Event::ItemUpdate(i) => {
                let _ = (i.type_id(), i.misc(), i.owner());
            }
            Event::MessageSplitter(s) if gecko.push(&s).unwrap_or(false) => {
                if let Some((_, list)) = gecko.message() {
                    codes = GeckoList::new(list).codes().count();
                }
            }
            _ => {}
        }
    }
    for f in Frames::new(bytes) {
        let Ok(f) = f else { break };
        events += f.characters().count() as u64;
    }
    // Push decoding in 4 KiB chunks through a fixed buffer.
    let mut d = Decoder::new();
    let mut window = [0u8; 1 << 17];
    let (mut start, mut end, mut fed) = (0, 0, 0);
    loop {
        match d.decode(&window[start..end]) {
            Ok(Decoded::NeedMore { .. }) => {
                if fed == bytes.len() {
                    break;
                }
                window.copy_within(start..end, 0);
                end -= start;
                start = 0;
                let n = (bytes.len() - fed).min(4096).min(window.len() - end);
                window[end..end + n].copy_from_slice(&bytes[fed..fed + n]);
                end += n;
                fed += n;
            }
            Ok(Decoded::Done { .. }) | Err(_) => break,
            Ok(Decoded::Record { consumed, .. }) => start += consumed,
        }
    }
    (events, codes)
}

#[test]
fn sample_allocates_nothing() {
    let mut buf = vec![0u8; 1 << 17];
    let ((events, _), allocs) = allocations_during(|| walk(SAMPLE, &mut buf));
    assert_eq!(events, 9 + 2);
    assert_eq!(allocs, 0);
}

#[test]
fn corpus_replays_allocate_nothing() {
    let Some(files) = common::corpus_files("slippi no alloc", "slippi", ".slp") else {
        return;
    };
    let mut buf = vec![0u8; 1 << 17];
    let mut total_codes = 0;
    for (name, bytes) in &files {
        let ((_, codes), allocs) = allocations_during(|| walk(bytes, &mut buf));
        assert_eq!(allocs, 0, "{name}");
        total_codes += codes;
    }
    assert!(total_codes > 5000, "only {total_codes} gecko codes walked");
}

/// The stats (finalized frames and every state machine) allocate nothing
/// on any corpus replay: the machine lives where the caller puts it.
#[test]
fn corpus_stats_allocate_nothing() {
    use gamefmt::slippi::SlippiStats;
    let Some(files) = common::corpus_files("slippi_no_alloc", "slippi", ".slp") else {
        return;
    };
    let mut stats = Box::new(SlippiStats::new());
    for (name, bytes) in &files {
        let (kills, allocs) = allocations_during(|| {
            *stats = SlippiStats::new();
            for e in SlippiEventIter::new(bytes) {
                let Ok(e) = e else { break };
                stats.push(&e);
            }
            stats.finish();
            let overall = stats.overall();
            let _ = (
                stats.home_run(),
                stats.target_breaks(),
                stats.stocks().len(),
            );
            overall.iter().map(|o| o.kill_count).sum::<u32>()
        });
        assert_eq!(allocs, 0, "{name}");
        let _ = kills;
    }
}
