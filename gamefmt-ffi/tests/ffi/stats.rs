//! `gamefmt_slp_stats` against the core's `SlippiStats` (whose numbers
//! `tests/slippi_stats.rs` holds equal to slippi-js 9.1.2's) on every
//! corpus replay, every field to the bit; and its calling contract: null
//! pointers, a short `players` buffer, garbage and truncated files.

use gamefmt::slippi::stats::{Ratio, SlippiStats};
use gamefmt::slippi::{Event, SlippiEventIter, StartingCharacters};
use gamefmt_ffi::*;

use crate::common::corpus_files;

fn call(
    file: &[u8],
    cap: usize,
) -> (
    GamefmtStatus,
    Vec<GamefmtSlpOverall>,
    usize,
    GamefmtSlpGameStats,
    GamefmtError,
) {
    let mut players = vec![GamefmtSlpOverall::default(); cap];
    let (mut count, mut game, mut err) = (
        usize::MAX,
        GamefmtSlpGameStats::default(),
        GamefmtError::default(),
    );
    // SAFETY: `players` has `cap` entries; the rest are live locals.
    let st = unsafe {
        gamefmt_slp_stats(
            file.as_ptr(),
            file.len(),
            players.as_mut_ptr(),
            cap,
            &mut count,
            &mut game,
            &mut err,
        )
    };
    (st, players, count, game, err)
}

fn same_ratio(c: &GamefmtSlpRatio, r: &Ratio) -> bool {
    c.has_count == r.count.is_some()
        && c.count.to_bits() == r.count.unwrap_or(0.0).to_bits()
        && c.total.to_bits() == r.total.to_bits()
        && c.has_ratio == r.ratio.is_some()
        && c.ratio.to_bits() == r.ratio.unwrap_or(0.0).to_bits()
}

/// The core's stats of the events before the first error, the
/// characters, and the error's offset.
fn core(file: &[u8]) -> (Box<SlippiStats>, Option<StartingCharacters>, Option<u64>) {
    let mut stats = Box::new(SlippiStats::new());
    let mut chars = None;
    let mut offset = None;
    for event in SlippiEventIter::new(file) {
        let event = match event {
            Ok(e) => e,
            Err(e) => {
                offset = Some(e.offset as u64);
                break;
            }
        };
        match &event {
            Event::GameStart(g) if chars.is_none() => chars = Some(StartingCharacters::new(g)),
            Event::PostFrame(p) => {
                if let Some(c) = chars.as_mut() {
                    c.observe(p);
                }
            }
            _ => {}
        }
        stats.push(&event);
    }
    stats.finish();
    (stats, chars, offset)
}

#[test]
fn equals_the_core_on_the_corpus() {
    let Some(files) = corpus_files("ffi stats", "slippi", ".slp") else {
        return;
    };
    let (mut with_stats, mut errors, mut players_seen) = (0, 0, 0);
    for (name, file) in &files {
        let (st, players, count, game, err) = call(file, 4);
        let (stats, chars, offset) = core(file);
        match offset {
            Some(o) => {
                errors += 1;
                assert_ne!(st, GamefmtStatus::Ok, "{name}");
                assert_eq!(err.offset, o, "{name}: error offset");
            }
            None => assert_eq!(st, GamefmtStatus::Ok, "{name}"),
        }
        assert_eq!(game.has_stats, stats.has_stats(), "{name}");
        if !stats.has_stats() {
            assert_eq!(count, 0, "{name}");
            continue;
        }
        with_stats += 1;
        assert_eq!(game.last_frame, stats.last_frame(), "{name}");
        assert_eq!(
            game.playable_frame_count,
            stats.playable_frame_count(),
            "{name}"
        );
        assert_eq!(game.game_complete, stats.game_complete(), "{name}");
        assert_eq!(game.overflowed, stats.overflowed(), "{name}");
        assert_eq!(
            game.slippi_js_would_throw,
            stats.slippi_js_would_throw(),
            "{name}"
        );
        assert_eq!(game.dropped_events, stats.dropped_events(), "{name}");
        let overall = stats.overall();
        assert_eq!(count, overall.len(), "{name}");
        for (c, o) in players.iter().zip(&overall) {
            players_seen += 1;
            assert_eq!(c.port, o.player_index + 1, "{name}");
            let team = stats
                .players()
                .iter()
                .find(|p| p.player_index == o.player_index)
                .and_then(|p| p.team_id);
            assert_eq!(
                (c.has_team, c.team_id),
                (team.is_some(), team.unwrap_or(0)),
                "{name}"
            );
            let ch = chars
                .as_ref()
                .and_then(|x| x.get(usize::from(o.player_index)));
            assert_eq!(
                (c.has_character, c.character),
                (ch.is_some(), ch.unwrap_or(0)),
                "{name}"
            );
            let i = o.input_counts.unwrap_or_default();
            assert_eq!(c.has_input_counts, o.input_counts.is_some(), "{name}");
            assert_eq!(
                [
                    c.input_buttons,
                    c.input_triggers,
                    c.input_cstick,
                    c.input_joystick,
                    c.input_total
                ],
                [i.buttons, i.triggers, i.cstick, i.joystick, i.total],
                "{name}"
            );
            assert_eq!(c.conversion_count, o.conversion_count, "{name}");
            assert_eq!(c.total_damage.to_bits(), o.total_damage.to_bits(), "{name}");
            assert_eq!(c.kill_count, o.kill_count, "{name}");
            for (cr, r) in [
                (&c.successful_conversions, &o.successful_conversions),
                (&c.inputs_per_minute, &o.inputs_per_minute),
                (&c.digital_inputs_per_minute, &o.digital_inputs_per_minute),
                (&c.openings_per_kill, &o.openings_per_kill),
                (&c.damage_per_opening, &o.damage_per_opening),
                (&c.neutral_win_ratio, &o.neutral_win_ratio),
                (&c.counter_hit_ratio, &o.counter_hit_ratio),
                (&c.beneficial_trade_ratio, &o.beneficial_trade_ratio),
            ] {
                assert!(same_ratio(cr, r), "{name}: {cr:?} != {r:?}");
            }
        }
        // A short buffer: only `cap` written, the count is still all.
        let (_, short, n, _, _) = call(file, 1);
        assert_eq!(n, overall.len(), "{name}");
        if let (Some(s), Some(p)) = (short.first(), players.first()) {
            assert_eq!(s, p, "{name}");
        }
    }
    assert!(with_stats > 0);
    eprintln!(
        "ffi stats: {} replays, {with_stats} with stats ({players_seen} players) equal to SlippiStats, {errors} ending in an error",
        files.len()
    );
}

#[test]
fn contract() {
    let file = gamefmt::slippi::SAMPLE;
    let mut players = [GamefmtSlpOverall::default(); 4];
    let (mut count, mut game, mut err) = (
        0usize,
        GamefmtSlpGameStats::default(),
        GamefmtError::default(),
    );
    // SAFETY: every non-NULL pointer is to a live local or into `file`;
    // the NULL ones are what is tested.
    unsafe {
        let p = players.as_mut_ptr();
        let d = file.as_ptr();
        let n = file.len();
        for st in [
            gamefmt_slp_stats(core::ptr::null(), n, p, 4, &mut count, &mut game, &mut err),
            gamefmt_slp_stats(
                d,
                n,
                core::ptr::null_mut(),
                4,
                &mut count,
                &mut game,
                &mut err,
            ),
            gamefmt_slp_stats(d, n, p, 4, core::ptr::null_mut(), &mut game, &mut err),
            gamefmt_slp_stats(
                d,
                n,
                p,
                4,
                &mut count,
                core::ptr::null_mut(),
                core::ptr::null_mut(),
            ),
        ] {
            assert_eq!(st, GamefmtStatus::NullPointer);
        }
        // No room for players: the count and the facts all the same.
        let st = gamefmt_slp_stats(
            d,
            n,
            core::ptr::null_mut(),
            0,
            &mut count,
            &mut game,
            &mut err,
        );
        assert_eq!(st, GamefmtStatus::Ok);
        assert_eq!(count, 2);
        assert!(game.has_stats);
        // Empty input: no stats, an error.
        let st = gamefmt_slp_stats(core::ptr::null(), 0, p, 4, &mut count, &mut game, &mut err);
        assert_ne!(st, GamefmtStatus::Ok);
        assert_eq!((count, game.has_stats), (0, false));
    }
    // Garbage: a status and no stats.
    let garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    let (st, _, count, game, _) = call(&garbage, 4);
    assert_eq!(st, GamefmtStatus::BadMagic);
    assert_eq!((count, game.has_stats), (0, false));
    // Every prefix of the sample: no panic, the core's offsets (the empty
    // one, where the core's iterator just ends, is refused above).
    for cut in 1..file.len() {
        let (st, _, _, _, err) = call(&file[..cut], 4);
        let (_, _, offset) = core(&file[..cut]);
        match offset {
            Some(o) => {
                assert_ne!(st, GamefmtStatus::Ok, "cut {cut}");
                assert_eq!(err.offset, o, "cut {cut}");
            }
            None => assert_eq!(st, GamefmtStatus::Ok, "cut {cut}"),
        }
    }
}
