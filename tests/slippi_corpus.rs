//! Every replay in the corpus (`corpus/slippi/*.slp`): decodes, and its
//! facts match `expected.tsv` (computed there by slippi-js 9.1.2 and peppi
//! 2.1.2; where they disagree, spec/slippi.md says which is right); chunked
//! decoding equals slice decoding; the `bad_*` files fail cleanly.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use crate::common;
#[path = "common/slippi_expected.rs"]
mod slippi_expected;

use std::collections::BTreeSet;

use gamefmt::ErrorKind;
use gamefmt::slippi::{
    Decoder, Event, Frames, GeckoList, Item, Metadata, Reassembler, SHEIK_FIX_VERSION,
    SlippiEventIter, SlippiView, zelda_sheik_external,
};
use gamefmt::stream::{Decoded, End};
use slippi_expected::{Facts, expected, expected_facts, opt_i64};

fn files(test: &str) -> Option<Vec<(String, Vec<u8>)>> {
    common::corpus_files(test, "slippi", ".slp")
}

fn facts(bytes: &[u8]) -> Result<(Facts, End), gamefmt::Error> {
    let view = SlippiView::parse(bytes)?;
    let mut f = Facts {
        raw_len: i64::from(view.declared_raw_len()),
        ..Facts::default()
    };
    if let Some(m) = view.metadata()? {
        f.metadata = true;
        f.meta_last_frame = m.last_frame();
        f.meta_played_on = m.played_on().map(str::to_owned);
    }
    let mut frames = BTreeSet::new();
    let mut buf = vec![0u8; 1 << 17];
    let mut gecko = Reassembler::new(&mut buf);
    let mut chars = [None; 4];
    let mut old = false;
    let mut it = SlippiEventIter::new(bytes);
    while let Some(e) = it.next().transpose()? {
        *f.counts.entry(e.code()).or_default() += 1;
        if let Some(n) = e.frame() {
            frames.insert(n);
        }
        match e {
            Event::GameStart(g) => {
                f.spec_version = g.version().unwrap().to_string();
                f.stage = g.stage().map(i64::from);
                f.is_pal = g.is_pal();
                old = g.version().unwrap() < SHEIK_FIX_VERSION;
                for (i, p) in g.players() {
                    chars[i] = p.character();
                }
            }
            // slippi-js takes Zelda/Sheik from the first post-frame before 1.6.0.
            Event::PostFrame(p) if old && p.frame() <= Some(-123) => {
                let fixed = p.internal_character().and_then(zelda_sheik_external);
                let slot = chars.get_mut(usize::from(p.player_index().unwrap()));
                if let (Some(c), Some(slot @ Some(_))) = (fixed, slot) {
                    *slot = Some(c);
                }
            }
            Event::GameEnd(e) => {
                f.end_method = e.method().map(i64::from);
                f.lras_initiator = e.lras_initiator().map(i64::from);
                f.placements = e.placements();
            }
            Event::MessageSplitter(s) if gecko.push(&s)? => {
                let (cmd, list) = gecko.message().unwrap();
                assert_eq!(cmd, 0x3D);
                f.gecko_codes = Some(GeckoList::new(list).codes().count() as i64);
            }
            _ => {}
        }
    }
    f.players = chars
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.map(|c| format!("P{}:{c}", i + 1)))
        .collect::<Vec<_>>()
        .join(",");
    f.first_frame = frames.first().map(|&v| i64::from(v));
    f.last_frame = frames.last().map(|&v| i64::from(v));
    f.unique_frames = frames.len() as i64;
    Ok((f, it.end()))
}

#[test]
fn corpus_facts_match_expected() {
    let (Some(exp), Some(files)) = (expected("slippi facts"), files("slippi facts")) else {
        return;
    };
    assert_eq!(
        files.len(),
        exp.len(),
        "every corpus file has an expected row"
    );
    let mut matched = 0;
    for (name, bytes) in &files {
        let row = &exp[name];
        if name.starts_with("bad_") {
            continue;
        }
        let (got, _) = facts(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(got, expected_facts(row), "{name}");
        matched += 1;
    }
    assert_eq!(matched, files.len() - 2);
    eprintln!(
        "slippi: {matched} of {} replays match expected.tsv",
        files.len() - 2
    );
}

#[test]
fn streaming_game_metadata() {
    let Some(files) = files("streaming_game_metadata") else {
        return;
    };
    if !common::facts_of_shared_corpus("streaming_game_metadata") {
        return;
    }
    let (_, bytes) = files
        .iter()
        .find(|(n, _)| n == "v1.0.0_py-slippi_streaming_game.slp")
        .unwrap();
    let view = SlippiView::parse(bytes).unwrap();
    assert_eq!(view.declared_raw_len(), 0);
    // raw ends right after Game End; then the metadata element follows.
    let after = &bytes[15 + view.raw().len()..];
    assert!(after.starts_with(b"U\x08metadata{"));
    let m = view.metadata().unwrap().unwrap();
    assert_eq!(m.last_frame(), Some(5085));
    assert_eq!(m.played_on(), Some("dolphin"));
    // The base spec's metadata example is this game: Marth (internal 18)
    // for all 5209 frames; the CPU Fox (internal 1) likewise.
    let chars: Vec<_> = m
        .players()
        .map(|p| (p.index(), p.characters().collect::<Vec<_>>()))
        .collect();
    assert!(chars.contains(&(Some(0), vec![(18, 5209)])), "{chars:?}");
    assert!(chars.contains(&(Some(1), vec![(1, 5209)])), "{chars:?}");
    assert!(after.windows(16).any(|w| w == b"playedOnSU\x07dolph"));
}

#[test]
fn endings_match_the_files() {
    let Some(files) = files("slippi endings") else {
        return;
    };
    if !common::facts_of_shared_corpus("slippi endings") {
        return;
    }
    let ending = |n: &str| {
        let (_, b) = files.iter().find(|(f, _)| f == n).unwrap();
        facts(b).unwrap().1
    };
    // Cut inside a splitter chunk (SOURCES.md).
    assert!(matches!(
        ending("v3.7.0_peppi_corrupt.slp"),
        End::Truncated { .. }
    ));
    // In-progress file: raw length 0, no Game End; a byte walk shows it
    // stops exactly at an event boundary.
    assert_eq!(ending("v1.2.0_slippi-js_incomplete.slp"), End::Eof);
    // Complete files without Game End.
    assert_eq!(ending("v3.13.0_slippi-js_geckoCodes.slp"), End::Eof);
    assert_eq!(
        ending("v3.15.0_peppi_duplicate_game_end.slp"),
        End::Complete
    );
    assert_eq!(ending("v1.0.0_py-slippi_streaming_game.slp"), End::Complete);
}

#[test]
fn bad_files_fail_cleanly() {
    let Some(files) = files("slippi bad files") else {
        return;
    };
    for (name, bytes) in files.iter().filter(|(n, _)| n.starts_with("bad_")) {
        let err = facts(bytes).unwrap_err();
        match name.as_str() {
            "bad_libmelee_corrupt_game_1.slp" => assert_eq!(err.kind, ErrorKind::BadMagic),
            "bad_libmelee_corrupt_game_3.slp" => {
                assert_eq!(
                    err,
                    gamefmt::Error::corrupt("Event Payloads size is not 3n+1", 16)
                );
            }
            other => panic!("unexpected bad file {other}"),
        }
    }
}

/// (command, payload) of every event, by the slice iterator.
fn slice_events(bytes: &[u8]) -> (Vec<(u8, &[u8])>, End, bool) {
    let mut it = SlippiEventIter::new(bytes);
    let mut out = Vec::new();
    let mut failed = false;
    loop {
        match it.next().transpose() {
            Ok(Some(e)) => out.push((e.code(), e.payload())),
            Ok(None) => break,
            Err(_) => {
                failed = true;
                break;
            }
        }
    }
    (out, it.end(), failed)
}

/// Feeds `bytes` to a Decoder in chunks of the sizes `next_size` gives and
/// checks each event against `want`; returns the ending.
fn chunked(
    bytes: &[u8],
    want: &[(u8, &[u8])],
    mut next_size: impl FnMut() -> usize,
) -> (usize, End, bool) {
    let mut d = Decoder::new();
    let mut pending: Vec<u8> = Vec::new();
    let mut start = 0;
    let mut fed = 0;
    let mut n = 0;
    while fed < bytes.len() {
        let take = next_size().clamp(1, bytes.len() - fed);
        pending.extend_from_slice(&bytes[fed..fed + take]);
        fed += take;
        loop {
            match d.decode(&pending[start..]) {
                Ok(Decoded::NeedMore { .. } | Decoded::Done { .. }) => break,
                Ok(Decoded::Record {
                    record: rec,
                    consumed: used,
                }) => {
                    if let Item::Event(e) = rec {
                        assert_eq!((e.code(), e.payload()), want[n], "event {n}");
                        n += 1;
                    }
                    start += used;
                }
                Err(_) => return (n, d.end(pending.len() - start), true),
            }
        }
        if start > 1 << 16 {
            pending.drain(..start);
            start = 0;
        }
    }
    (n, d.end(pending.len() - start), false)
}

#[test]
fn chunked_decoding_equals_slice_decoding() {
    let Some(files) = files("slippi chunked") else {
        return;
    };
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for (name, bytes) in &files {
        let (want, ending, failed) = slice_events(bytes);
        let one = chunked(bytes, &want, || 1);
        assert_eq!(one, (want.len(), ending, failed), "{name}: 1-byte chunks");
        for _ in 0..3 {
            let max = [7, 600, 70_000][(random() % 3) as usize];
            let got = chunked(bytes, &want, || (random() % max) as usize + 1);
            assert_eq!(got, (want.len(), ending, failed), "{name}: random chunks");
        }
        #[cfg(feature = "std")]
        reader_matches(name, bytes, &want, ending, failed);
    }
}

/// The std Reader with a small buffer and an `io::Read` that returns short
/// reads yields the same events as the slice iterator.
#[cfg(feature = "std")]
fn reader_matches(name: &str, bytes: &[u8], want: &[(u8, &[u8])], ending: End, failed: bool) {
    // The std Reader with a small buffer and a reader that returns
    // short reads.
    struct Trickle<'a>(&'a [u8], u64);
    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.1 = self.1.wrapping_mul(6364136223846793005).wrapping_add(1);
            let n = ((self.1 >> 33) as usize % 5000 + 1)
                .min(buf.len())
                .min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let mut reader = gamefmt::slippi::Reader::with_capacity(Trickle(bytes, 7), 70_000);
    let mut n = 0;
    let mut rfailed = false;
    while let Some(r) = reader.next() {
        match r {
            Ok(Item::Event(e)) => {
                assert_eq!((e.code(), e.payload()), want[n], "{name}: reader event {n}");
                n += 1;
            }
            Ok(_) => {}
            Err(_) => rfailed = true,
        }
    }
    assert_eq!((n, rfailed), (want.len(), failed), "{name}: reader");
    if !failed {
        assert_eq!(reader.end(), ending, "{name}: reader ending");
    }
}

#[test]
fn fast_paths_agree_with_full_walk() {
    let Some(files) = files("slippi fast paths") else {
        return;
    };
    for (name, bytes) in files.iter().filter(|(n, _)| !n.starts_with("bad_")) {
        let view = SlippiView::parse(bytes).unwrap();
        let mut start = None;
        let mut last_end = None;
        let mut last = None;
        for e in view.events() {
            let e = e.unwrap();
            if let Event::GameStart(g) = e {
                start.get_or_insert(g);
            }
            if let Event::GameEnd(g) = e {
                last_end = Some(g);
            }
            last = Some(e.code());
        }
        assert_eq!(view.game_start().ok(), start, "{name}");
        // The metadata keys found in one walk (parse) equal those found one
        // by one, and the view's metadata (measured whole once) equals a
        // parse of its bytes.
        if let Ok(Some(m)) = view.metadata() {
            let o = m.object();
            let s = |k| o.get(k).and_then(|v| v.as_str());
            assert_eq!(m.start_at(), s("startAt"), "{name}");
            let last = o.get("lastFrame").and_then(|v| v.as_int());
            assert_eq!(m.last_frame(), last, "{name}");
            assert_eq!(m.played_on(), s("playedOn"), "{name}");
            assert_eq!(m.console_nick(), s("consoleNick"), "{name}");
            let bytes = view.metadata_bytes().unwrap();
            assert_eq!(Metadata::parse(bytes).ok(), Some(m), "{name}");
            for p in m.players() {
                let names = p.object().get("names").and_then(|v| v.as_object());
                let name_of = |k| names.and_then(|n| n.get(k)?.as_str());
                assert_eq!(p.netplay_name(), name_of("netplay"), "{name}");
                assert_eq!(p.connect_code(), name_of("code"), "{name}");
                let characters = p.object().get("characters").and_then(|v| v.as_object());
                let by_get: Vec<(u8, i64)> = characters
                    .into_iter()
                    .flat_map(|c| c.entries().map_while(Result::ok))
                    .filter_map(|(k, v)| {
                        Some((std::str::from_utf8(k).ok()?.parse().ok()?, v.as_int()?))
                    })
                    .collect();
                assert_eq!(p.characters().collect::<Vec<_>>(), by_get, "{name}");
            }
        }
        // Game End is found without a walk whenever it is the last event.
        let expected_end = if last == Some(0x39) { last_end } else { None };
        assert_eq!(view.game_end(), expected_end, "{name}");
    }
}

#[test]
fn frames_match_both_parsers() {
    let (Some(exp), Some(files)) = (expected("slippi frames"), files("slippi frames")) else {
        return;
    };
    for (name, bytes) in files.iter().filter(|(n, _)| !n.starts_with("bad_")) {
        let row = &exp[name];
        let mut frames = 0i64;
        let mut fresh = 0i64;
        let mut rollbacks = 0i64;
        for f in Frames::new(bytes) {
            let f = f.unwrap();
            frames += 1;
            if f.is_rollback {
                rollbacks += 1;
            } else {
                fresh += 1;
            }
        }
        // Distinct frame numbers as slippi-js counts them.
        assert_eq!(
            fresh,
            row["js_unique_frames"].parse::<i64>().unwrap(),
            "{name}: fresh"
        );
        // Every re-send counted too, as peppi does (where it read the file).
        if let Some(n) = opt_i64(&row["peppi_frames_len"]) {
            assert_eq!(frames, n, "{name}: all frames");
        }
        // Re-sends of an earlier frame number, as slippi-js counts rollbacks.
        assert_eq!(
            rollbacks,
            row["rollback_frames"].parse::<i64>().unwrap(),
            "{name}: rollbacks"
        );
    }
}

/// Typed accessors on real files, against what SOURCES.md and
/// spec/slippi.md say about them.
#[test]
fn typed_fields_of_known_files() {
    let Some(files) = files("slippi typed fields") else {
        return;
    };
    if !common::facts_of_shared_corpus("slippi typed fields") {
        return;
    }
    let get = |n: &str| &files.iter().find(|(f, _)| f == n).unwrap().1;
    let start = |n: &str| SlippiView::parse(get(n)).unwrap().game_start().unwrap();
    let text = |b: Option<&[u8]>| String::from_utf8(b.unwrap().to_vec()).unwrap();

    // 3.14.0: match id, game number, tiebreaker (SOURCES.md).
    let ranked = start("v3.14.0_slippi-js_ranked_game1_tiebreak.slp");
    assert!(text(ranked.match_id()).starts_with("mode.ranked"));
    assert_eq!(
        (ranked.game_number(), ranked.tiebreaker_number()),
        (Some(1), Some(1))
    );
    let g1 = start("v3.14.0_slippi-js_unranked_game1.slp");
    let g2 = start("v3.14.0_slippi-js_unranked_game2.slp");
    assert!(text(g1.match_id()).starts_with("mode.unranked"));
    assert_eq!((g1.game_number(), g2.game_number()), (Some(1), Some(2)));
    assert_eq!(g1.match_id(), g2.match_id(), "same session");
    assert_eq!(g1.tiebreaker_number(), Some(0));
    // Older Game Starts are too short for these fields.
    let old = start("v3.13.0_peppi_v3.13.slp");
    assert_eq!((old.match_id(), old.game_number()), (None, None));
    assert!(old.language().is_some());

    // 3.12.0 online: display names and connect codes with the full-width
    // `#` (0x81 0x94), Slippi uids (SOURCES.md, spec §5).
    let online = start("v3.12.0_peppi_v3.12.slp");
    assert_eq!(online.major_scene(), Some(8));
    for port in 0..2 {
        let code = online.connect_code(port).unwrap();
        assert!(code.windows(2).any(|w| w == [0x81, 0x94]), "{code:?}");
        assert!(!online.display_name(port).unwrap().is_empty());
        assert!(online.slippi_uid(port).unwrap().is_ascii());
    }
    assert_eq!(online.connect_code(4), None);

    // PAL twin files.
    assert_eq!(start("v1.7.1_slippi-js_pal.slp").is_pal(), Some(true));
    assert_eq!(start("v1.7.1_slippi-js_ntsc.slp").is_pal(), Some(false));
    assert_eq!(start("v1.0.0_peppi_game.slp").is_pal(), None);

    // Pre-frame raw c-stick exists in the 3.18 file (66 bytes) but not in
    // the 3.17 dev build (64 bytes), whatever the versions say (Q2).
    let first_pre = |n: &str| {
        SlippiEventIter::new(get(n))
            .find_map(|e| match e.unwrap() {
                Event::PreFrame(p) => Some(p),
                _ => None,
            })
            .unwrap()
    };
    let fod = first_pre("v3.17.0_slippi-js_FodPlatforms.slp");
    assert!(fod.raw_joystick_y().is_some());
    assert_eq!(fod.raw_cstick_x(), None);
    assert!(
        first_pre("v3.18.0_peppi_v3.18.slp")
            .raw_cstick_y()
            .is_some()
    );
    assert_eq!(first_pre("v1.0.0_peppi_game.slp").raw_joystick_x(), None);

    // FOD platform events: platform 0 or 1 (spec §3).
    let mut fod_events = 0;
    for e in SlippiEventIter::new(get("v3.18.0_peppi_v3.18.slp")) {
        if let Event::FodPlatform(p) = e.unwrap() {
            assert!(matches!(p.platform(), Some(0 | 1)));
            assert!(p.height().unwrap().is_finite());
            fod_events += 1;
        }
    }
    assert_eq!(fod_events, 99);

    // Ice Climbers: Nana's events have the follower flag (SOURCES.md).
    let followers = SlippiEventIter::new(get("v1.0.0_peppi_ics.slp"))
        .filter(|e| matches!(e, Ok(Event::PostFrame(p)) if p.is_follower() == Some(true)))
        .count();
    assert_eq!(followers, 1032 - 2 * 344);

    // Multi-man: player indices 4 and 5 are data (Q6).
    let high = SlippiEventIter::new(get("v3.9.1_slippi-js_10-Man.slp"))
        .filter(|e| matches!(e, Ok(Event::PreFrame(p)) if p.player_index() >= Some(4)))
        .count();
    assert!(high > 0);

    // Item owners and turnip faces (3.7.0 items file: Peach turnips).
    let items: Vec<_> = SlippiEventIter::new(get("v3.7.0_peppi_items.slp"))
        .filter_map(|e| match e.unwrap() {
            Event::ItemUpdate(i) => Some(i),
            _ => None,
        })
        .collect();
    assert_eq!(items.len(), 513);
    assert!(
        items
            .iter()
            .all(|i| i.owner().is_some() && i.instance_id().is_none())
    );
    // 3.16: instance ids on post-frames and items.
    assert!(
        SlippiEventIter::new(get("v3.16.0_peppi_v3.16.slp")).any(
            |e| matches!(e, Ok(Event::PostFrame(p)) if p.instance_id().is_some_and(|v| v > 0))
        )
    );
}
