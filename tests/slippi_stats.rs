//! Every corpus replay's stats equal slippi-js 9.1.2's `getStats()` and
//! `getStadiumStats()`, value by value: the JSON committed in
//! `benches/peers/slippi-js/stats/` was written by
//! `benches/peers/slippi-js/dump_stats.cjs` under Node (see its header).
//! Integers exactly, floats to the last bit; a key slippi-js leaves out
//! (`undefined`) equals our `null`.
//!
//! The same comparison over other replays (never seen by the project):
//! `SLIPPI_STATS_SLP=DIR SLIPPI_STATS_ORACLE=DIR cargo test --test
//! slippi_stats -- --ignored --nocapture`, the oracle folder written by the
//! same script over the same files (and, if it holds `finalized.json`
//! written by `dump_finalized.cjs`, the release schedules too).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use crate::common;

use std::path::Path;

use gamefmt::slippi::SlippiEventIter;
use gamefmt::slippi::stats::{Punishes, Ratio, SlippiStats};
use serde_json::{Map, Value, json};

fn opt<T: Into<Value>>(v: Option<T>) -> Value {
    v.map_or(Value::Null, Into::into)
}

fn num(x: f64) -> Value {
    serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
}

fn ratio(r: &Ratio) -> Value {
    json!({"count": opt(r.count.map(num)), "total": num(r.total), "ratio": opt(r.ratio.map(num))})
}

fn punishes(list: &Punishes, with_opening: bool) -> Value {
    list.iter()
        .map(|p| {
            let moves: Vec<Value> = list
                .moves(p)
                .map(|m| {
                    json!({"playerIndex": m.player_index, "frame": m.frame, "moveId": opt(m.move_id),
                           "hitCount": m.hit_count, "damage": num(m.damage)})
                })
                .collect();
            let mut v = json!({
                "playerIndex": p.player_index, "lastHitBy": p.last_hit_by,
                "startFrame": p.start_frame, "endFrame": opt(p.end_frame),
                "startPercent": num(p.start_percent), "currentPercent": num(p.current_percent),
                "endPercent": opt(p.end_percent.map(num)), "moves": moves, "didKill": p.did_kill,
            });
            if with_opening {
                v["openingType"] = p.opening_type.slippi_js_name().into();
            }
            v
        })
        .collect()
}

/// Our stats in `getStats()`'s shape.
fn to_js(s: &SlippiStats) -> Value {
    let stocks: Vec<Value> = s
        .stocks()
        .iter()
        .map(|k| {
            json!({"playerIndex": k.player_index, "startFrame": k.start_frame, "endFrame": opt(k.end_frame),
                   "startPercent": num(k.start_percent), "endPercent": opt(k.end_percent.map(num)),
                   "currentPercent": num(k.current_percent), "count": k.count,
                   "deathAnimation": opt(k.death_animation)})
        })
        .collect();
    let actions: Vec<Value> = s
        .action_counts()
        .iter()
        .map(|a| {
            let t = &a.attack_count;
            json!({
                "playerIndex": a.player_index, "wavedashCount": a.wavedash_count,
                "wavelandCount": a.waveland_count, "airDodgeCount": a.air_dodge_count,
                "dashDanceCount": a.dash_dance_count, "spotDodgeCount": a.spot_dodge_count,
                "ledgegrabCount": a.ledgegrab_count, "rollCount": a.roll_count, "tauntCount": a.taunt_count,
                "edgeCancelCount": {"success": a.edge_cancel_count.success, "slow": a.edge_cancel_count.slow},
                "lCancelCount": {"success": a.l_cancel_count.success, "fail": a.l_cancel_count.fail},
                "attackCount": {"jab1": t.jab1, "jab2": t.jab2, "jab3": t.jab3, "jabm": t.jabm, "dash": t.dash,
                    "ftilt": t.ftilt, "utilt": t.utilt, "dtilt": t.dtilt, "fsmash": t.fsmash, "usmash": t.usmash,
                    "dsmash": t.dsmash, "nair": t.nair, "fair": t.fair, "bair": t.bair, "uair": t.uair, "dair": t.dair},
                "grabCount": {"success": a.grab_count.success, "fail": a.grab_count.fail},
                "throwCount": {"up": a.throw_count.up, "forward": a.throw_count.forward,
                    "back": a.throw_count.back, "down": a.throw_count.down},
                "groundTechCount": {"away": a.ground_tech_count.away, "in": a.ground_tech_count.r#in,
                    "neutral": a.ground_tech_count.neutral, "fail": a.ground_tech_count.fail},
                "wallTechCount": {"success": a.wall_tech_count.success, "fail": a.wall_tech_count.fail},
            })
        })
        .collect();
    let overall: Vec<Value> = s
        .overall()
        .iter()
        .map(|o| {
            let i = o.input_counts;
            json!({
                "playerIndex": o.player_index,
                "inputCounts": {"buttons": opt(i.map(|i| i.buttons)), "triggers": opt(i.map(|i| i.triggers)),
                    "cstick": opt(i.map(|i| i.cstick)), "joystick": opt(i.map(|i| i.joystick)),
                    "total": opt(i.map(|i| i.total))},
                "conversionCount": o.conversion_count, "totalDamage": num(o.total_damage),
                "killCount": o.kill_count, "successfulConversions": ratio(&o.successful_conversions),
                "inputsPerMinute": ratio(&o.inputs_per_minute),
                "digitalInputsPerMinute": ratio(&o.digital_inputs_per_minute),
                "openingsPerKill": ratio(&o.openings_per_kill), "damagePerOpening": ratio(&o.damage_per_opening),
                "neutralWinRatio": ratio(&o.neutral_win_ratio), "counterHitRatio": ratio(&o.counter_hit_ratio),
                "beneficialTradeRatio": ratio(&o.beneficial_trade_ratio),
            })
        })
        .collect();
    json!({
        "lastFrame": s.last_frame(), "playableFrameCount": s.playable_frame_count(),
        "stocks": stocks, "conversions": punishes(s.conversions(), true),
        "combos": punishes(s.combos(), false), "actionCounts": actions, "overall": overall,
        "gameComplete": s.game_complete(),
    })
}

fn stadium(s: &SlippiStats) -> Value {
    if let Some(breaks) = s.target_breaks() {
        let b: Vec<Value> = breaks
            .iter()
            .map(|b| {
                json!({"spawnId": opt(b.spawn_id), "frameDestroyed": opt(b.frame_destroyed),
                       "positionX": opt(b.position_x.map(|x| num(f64::from(x)))),
                       "positionY": opt(b.position_y.map(|y| num(f64::from(y))))})
            })
            .collect();
        return json!({"type": "target-test", "targetBreaks": b});
    }
    match s.home_run() {
        Some(h) => {
            json!({"type": "home-run-contest", "distance": num(h.distance), "units": h.units.name()})
        }
        None => Value::Null,
    }
}

#[derive(Default, Debug)]
struct Tally {
    values: usize,
    equal: usize,
    diffs: Vec<String>,
}

fn get<'a>(m: &'a Map<String, Value>, k: &str) -> &'a Value {
    m.get(k).unwrap_or(&Value::Null)
}

/// Compares leaf by leaf; absent equals null; numbers as f64 bits.
fn compare(path: &str, ours: &Value, theirs: &Value, t: &mut Tally) {
    match (ours, theirs) {
        (Value::Object(a), Value::Object(b)) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                compare(&format!("{path}.{k}"), get(a, k), get(b, k), t);
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            t.values += 1;
            if a.len() == b.len() {
                t.equal += 1;
            } else {
                t.diffs.push(format!(
                    "{path}: length {} vs slippi-js {}",
                    a.len(),
                    b.len()
                ));
            }
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                compare(&format!("{path}[{i}]"), x, y, t);
            }
        }
        (Value::Number(x), Value::Number(y)) => {
            t.values += 1;
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            if x.to_bits() == y.to_bits() || (x == 0.0 && y == 0.0) {
                t.equal += 1;
            } else {
                t.diffs.push(format!("{path}: {x:?} vs slippi-js {y:?}"));
            }
        }
        (a, b) => {
            t.values += 1;
            if a == b {
                t.equal += 1;
            } else {
                t.diffs.push(format!("{path}: {a} vs slippi-js {b}"));
            }
        }
    }
}

/// Our stats of one file: every event up to the first error.
fn ours(bytes: &[u8]) -> SlippiStats {
    let mut stats = SlippiStats::new();
    for event in SlippiEventIter::new(bytes) {
        let Ok(event) = event else { break };
        stats.push(&event);
    }
    stats.finish();
    stats
}

struct Summary {
    files: usize,
    files_equal: usize,
    oracle_errors: Vec<String>,
    values: usize,
    equal: usize,
    report: Vec<String>,
}

fn compare_dir(files: &[(String, Vec<u8>)], oracle: &Path) -> Summary {
    let mut s = Summary {
        files: 0,
        files_equal: 0,
        oracle_errors: Vec::new(),
        values: 0,
        equal: 0,
        report: Vec::new(),
    };
    for (name, bytes) in files {
        let path = oracle.join(format!("{name}.json"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            s.report
                .push(format!("{name}: no oracle file {}", path.display()));
            continue;
        };
        let want: Value = serde_json::from_str(&text).unwrap();
        let stats = ours(bytes);
        if let Some(e) = want.get("error") {
            s.oracle_errors.push(format!(
                "{name}: slippi-js throws ({e}); ours flags it: {}",
                stats.slippi_js_would_throw()
            ));
            continue;
        }
        s.files += 1;
        let mut t = Tally::default();
        let got_stats = if stats.has_stats() {
            to_js(&stats)
        } else {
            Value::Null
        };
        compare("stats", &got_stats, &want["stats"], &mut t);
        compare("stadium", &stadium(&stats), &want["stadium"], &mut t);
        s.values += t.values;
        s.equal += t.equal;
        if t.diffs.is_empty() {
            s.files_equal += 1;
        } else {
            s.report.push(format!(
                "{name}: {} of {} values differ, first: {}",
                t.diffs.len(),
                t.values,
                t.diffs
                    .iter()
                    .take(5)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
        }
    }
    s
}

fn print(label: &str, s: &Summary) {
    for line in s.report.iter().chain(&s.oracle_errors) {
        eprintln!("  {line}");
    }
    eprintln!(
        "{label}: {}/{} files equal, {}/{} values equal ({} files where slippi-js throws)",
        s.files_equal,
        s.files,
        s.equal,
        s.values,
        s.oracle_errors.len()
    );
}

#[test]
fn corpus_stats_equal_slippi_js() {
    let Some(files) = common::corpus_files("slippi_stats", "slippi", ".slp") else {
        return;
    };
    if !common::facts_of_shared_corpus("slippi_stats oracle") {
        return;
    }
    let oracle = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/peers/slippi-js/stats");
    let s = compare_dir(&files, &oracle);
    print("corpus", &s);
    assert!(s.files > 0);
    assert_eq!(s.report, Vec::<String>::new());
}

#[test]
#[ignore = "needs SLIPPI_STATS_SLP and SLIPPI_STATS_ORACLE"]
fn other_replays_equal_slippi_js() {
    let (Some(slp), Some(oracle)) = (
        std::env::var_os("SLIPPI_STATS_SLP"),
        std::env::var_os("SLIPPI_STATS_ORACLE"),
    ) else {
        eprintln!(
            "SKIPPED other_replays_equal_slippi_js: set SLIPPI_STATS_SLP and SLIPPI_STATS_ORACLE"
        );
        return;
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(slp).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "slp") {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            files.push((name, std::fs::read(&path).unwrap()));
        }
    }
    files.sort();
    let s = compare_dir(&files, Path::new(&oracle));
    print("other replays", &s);
    let schedules = Path::new(&oracle).join("finalized.json");
    if schedules.is_file() {
        compare_schedules(&files, &schedules);
    }
    assert!(s.report.is_empty());
}

/// The release schedule of [`FinalizedFrames`] over a file, in
/// `dump_finalized.cjs`'s JSON text: runs of `[event, first, last]`.
fn schedule(bytes: &[u8]) -> (usize, String) {
    use gamefmt::slippi::{Event, FinalizedFrames};
    let mut stage = FinalizedFrames::new();
    let mut runs: Vec<(i64, i32, i32)> = Vec::new();
    let mut ordinal: i64 = -1;
    for event in SlippiEventIter::new(bytes) {
        let Ok(event) = event else { break };
        let counted = matches!(
            event,
            Event::GameStart(_)
                | Event::PreFrame(_)
                | Event::PostFrame(_)
                | Event::GameEnd(_)
                | Event::FrameStart(_)
                | Event::ItemUpdate(_)
                | Event::FrameBookend(_)
                | Event::FodPlatform(_)
                | Event::Whispy(_)
                | Event::StadiumTransformation(_)
        );
        if counted {
            ordinal += 1;
        }
        stage.push(&event);
        while let Some(frame) = stage.next_finalized() {
            let n = frame.number();
            match runs.last_mut() {
                Some(last) if last.0 == ordinal && last.2 + 1 == n => last.2 = n,
                _ => runs.push((ordinal, n, n)),
            }
        }
        if matches!(event, Event::GameEnd(_)) {
            // slippi-js's SlpStream (manual mode) stops at the Game End.
            break;
        }
    }
    let text: Vec<String> = runs
        .iter()
        .map(|(e, a, b)| format!("[{e},{a},{b}]"))
        .collect();
    (runs.len(), format!("[{}]", text.join(",")))
}

#[test]
fn corpus_finalized_frames_as_slippi_js() {
    let Some(files) = common::corpus_files("slippi_stats", "slippi", ".slp") else {
        return;
    };
    if !common::facts_of_shared_corpus("slippi_stats oracle") {
        return;
    }
    let oracle =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/peers/slippi-js/finalized.json");
    compare_schedules(&files, &oracle);
}

fn compare_schedules(files: &[(String, Vec<u8>)], oracle: &Path) {
    use sha2::{Digest, Sha256};
    let want: Value = serde_json::from_str(&std::fs::read_to_string(oracle).unwrap()).unwrap();
    let (mut equal, mut compared, mut skipped, mut runs_total) = (0, 0, 0, 0);
    let mut diffs = Vec::new();
    for (name, bytes) in files {
        let w = &want[name.as_str()];
        if w["head"].to_string().contains("error") {
            skipped += 1;
            continue;
        }
        compared += 1;
        let (runs, text) = schedule(bytes);
        let sha = format!("{:x}", Sha256::digest(text.as_bytes()));
        if sha == w["sha256"].as_str().unwrap() && runs as u64 == w["runs"].as_u64().unwrap() {
            equal += 1;
            runs_total += runs;
        } else {
            diffs.push(format!(
                "{name}: {runs} runs vs slippi-js {}; ours begin {}",
                w["runs"],
                &text[..text.len().min(120)]
            ));
        }
    }
    for d in &diffs {
        eprintln!("  {d}");
    }
    eprintln!(
        "finalized frames: {equal}/{compared} files release every frame after the same event as slippi-js ({runs_total} releases; {skipped} files where slippi-js's parser throws)"
    );
    assert!(diffs.is_empty());
}

/// The same stats through a `Reader` with a small fixed buffer as from the
/// slice: the stage copies what it keeps, so events may live only until
/// the next one.
#[test]
fn corpus_stats_from_reader_equal_slice() {
    use gamefmt::slippi::{Item, Reader};
    let Some(files) = common::corpus_files("slippi_stats", "slippi", ".slp") else {
        return;
    };
    let mut checked = 0;
    for (name, bytes) in &files {
        let from_slice = ours(bytes);
        let mut stats = SlippiStats::new();
        let mut reader = Reader::with_capacity(std::io::Cursor::new(bytes), 64 * 1024);
        while let Some(item) = reader.next() {
            let Ok(item) = item else { break };
            if let Item::Event(event) = item {
                stats.push(&event);
            }
        }
        stats.finish();
        assert_eq!(to_js(&stats), to_js(&from_slice), "{name}");
        assert_eq!(stadium(&stats), stadium(&from_slice), "{name}");
        assert_eq!(stats.dropped_events(), 0, "{name}");
        checked += 1;
    }
    eprintln!("reader: {checked} files, stats equal to the slice's");
}

/// The comparison itself finds differences: one game's stats against
/// another's oracle.
#[test]
fn comparison_detects_differences() {
    let Some(files) = common::corpus_files("slippi_stats", "slippi", ".slp") else {
        return;
    };
    if !common::facts_of_shared_corpus("slippi_stats oracle") {
        return;
    }
    let oracle = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/peers/slippi-js/stats");
    let game = files
        .iter()
        .find(|(n, _)| n == "v2.0.1_peppi_v2.0.slp")
        .unwrap();
    let other: Value = serde_json::from_str(
        &std::fs::read_to_string(oracle.join("v2.0.1_slippilab_test.slp.json")).unwrap(),
    )
    .unwrap();
    let mut t = Tally::default();
    compare("stats", &to_js(&ours(&game.1)), &other["stats"], &mut t);
    assert!(!t.diffs.is_empty());
    // And one float bit off is a difference.
    let mut t = Tally::default();
    compare(
        "x",
        &json!(0.1),
        &json!(0.1f64 + f64::EPSILON / 8.0),
        &mut t,
    );
    assert_eq!(t.diffs.len(), 1, "{t:?}");
}

/// The fixed memory the docs promise.
#[test]
fn memory_is_fixed_and_documented() {
    use gamefmt::slippi::{FinalFrame, FinalizedFrames};
    let sizes = (
        std::mem::size_of::<SlippiStats>(),
        std::mem::size_of::<FinalizedFrames>(),
        std::mem::size_of::<FinalFrame>(),
    );
    eprintln!(
        "SlippiStats {} B, FinalizedFrames {} B, FinalFrame {} B",
        sizes.0, sizes.1, sizes.2
    );
    assert!(sizes.0 <= 117 * 1024);
    assert!(sizes.2 <= 3600);
}

/// `Serialize` (feature `serde`) names what `to_js` names, the vocabulary's
/// way: snake_case, 1-based `port`s, the same numbers.
#[cfg(feature = "serde")]
#[test]
fn serialized_stats_follow_the_vocabulary() {
    let Some(files) = common::corpus_files("slippi_stats", "slippi", ".slp") else {
        return;
    };
    for (name, bytes) in &files {
        let s = ours(bytes);
        let ser = serde_json::to_value(&s).unwrap();
        let js = to_js(&s);
        assert_eq!(ser["last_frame"], js["lastFrame"], "{name}");
        let stocks = ser["stocks"].as_array().unwrap();
        for (ours, theirs) in stocks.iter().zip(js["stocks"].as_array().unwrap()) {
            assert_eq!(
                ours["port"].as_u64().unwrap(),
                theirs["playerIndex"].as_u64().unwrap() + 1
            );
            assert_eq!(ours["end_percent"], theirs["endPercent"]);
        }
        for (kind, js_kind) in [("conversions", "conversions"), ("combos", "combos")] {
            let list = ser[kind].as_array().unwrap();
            let theirs = js[js_kind].as_array().unwrap();
            assert_eq!(list.len(), theirs.len());
            for (a, b) in list.iter().zip(theirs) {
                assert_eq!(
                    a["last_hit_by_port"].as_u64().unwrap(),
                    b["lastHitBy"].as_u64().unwrap() + 1
                );
                assert_eq!(
                    a["moves"].as_array().unwrap().len(),
                    b["moves"].as_array().unwrap().len()
                );
                assert_eq!(a["current_percent"], b["currentPercent"]);
                if kind == "conversions" {
                    let t = a["opening_type"].as_str().unwrap().replace('_', "-");
                    assert_eq!(t, b["openingType"].as_str().unwrap());
                } else {
                    assert!(a.get("opening_type").is_none());
                }
            }
        }
        for (a, b) in ser["overall"]
            .as_array()
            .unwrap()
            .iter()
            .zip(js["overall"].as_array().unwrap())
        {
            assert_eq!(
                a["port"].as_u64().unwrap(),
                b["playerIndex"].as_u64().unwrap() + 1
            );
            assert_eq!(a["total_damage"], b["totalDamage"]);
            assert_eq!(
                a["neutral_win_ratio"]["ratio"],
                b["neutralWinRatio"]["ratio"]
            );
        }
        for (a, b) in ser["action_counts"]
            .as_array()
            .unwrap()
            .iter()
            .zip(js["actionCounts"].as_array().unwrap())
        {
            assert_eq!(a["ground_tech_count"]["in"], b["groundTechCount"]["in"]);
            assert_eq!(a["l_cancel_count"]["fail"], b["lCancelCount"]["fail"]);
        }
    }
    let hrc = files.iter().find(|(n, _)| n.contains("homeRun")).unwrap();
    let v = serde_json::to_value(ours(&hrc.1)).unwrap();
    assert_eq!(v["home_run"]["units"], "feet");
}

/// Stats from the push `Decoder` fed in uneven chunks equal the slice's,
/// and every prefix of a replay (a file still being written, cut anywhere)
/// gives stats without a panic.
#[test]
fn corpus_stats_from_chunks_and_prefixes() {
    use gamefmt::slippi::{Decoder, Item};
    use gamefmt::stream::Decoded;
    let Some(files) = common::corpus_files("slippi_stats", "slippi", ".slp") else {
        return;
    };
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut rand = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut prefixes = 0;
    for (name, bytes) in &files {
        let mut stats = SlippiStats::new();
        let mut decoder = Decoder::new();
        let mut pending = Vec::new();
        let mut at = 0;
        'feed: while at < bytes.len() {
            let n = (1 + rand(3000)).min(bytes.len() - at);
            pending.extend_from_slice(&bytes[at..at + n]);
            at += n;
            let mut used = 0;
            loop {
                match decoder.decode(&pending[used..]) {
                    Ok(Decoded::Record { record, consumed }) => {
                        used += consumed;
                        if let Item::Event(e) = record {
                            stats.push(&e);
                        }
                    }
                    Ok(Decoded::NeedMore { .. }) => break,
                    Ok(Decoded::Done { .. }) | Err(_) => break 'feed,
                }
            }
            pending.drain(..used);
        }
        stats.finish();
        let whole = ours(bytes);
        assert_eq!(to_js(&stats), to_js(&whole), "{name}");
        for k in 0..6 {
            let cut = if k == 0 {
                bytes.len().saturating_sub(1)
            } else {
                rand(bytes.len().max(1))
            };
            let s = ours(&bytes[..cut]);
            let _ = (to_js(&s), stadium(&s));
            prefixes += 1;
        }
    }
    eprintln!(
        "chunks: {} files equal; {prefixes} prefixes without a panic",
        files.len()
    );
}

/// Live events, fed in random chunks through the push `Decoder`, agree
/// with the finished stats: every combo, conversion and stock appears once
/// as a start (with its start frame and percent) and, when it ended, once
/// as an end equal to the finished one; a punish's extend events are its
/// moves; one `game_end` per Game End, whose winners are the file's.
#[test]
fn corpus_live_events_agree_with_finished_stats() {
    use gamefmt::slippi::stats::{PunishEvent, StatsEvent};
    use gamefmt::slippi::{Decoder, Item, SlippiView};
    use gamefmt::stream::Decoded;
    let Some(files) = common::corpus_files("slippi_stats", "slippi", ".slp") else {
        return;
    };
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut rand = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let (mut n_events, mut n_punishes, mut n_stocks, mut n_winners_equal) = (0, 0, 0, 0);
    let mut n_game_end_files = 0;
    for (name, bytes) in &files {
        let mut stats = SlippiStats::new();
        let mut decoder = Decoder::new();
        let mut pending = Vec::new();
        let mut events: Vec<StatsEvent> = Vec::new();
        let mut game_ends = 0;
        let mut at = 0;
        'feed: while at < bytes.len() {
            let n = (1 + rand(4000)).min(bytes.len() - at);
            pending.extend_from_slice(&bytes[at..at + n]);
            at += n;
            let mut used = 0;
            loop {
                match decoder.decode(&pending[used..]) {
                    Ok(Decoded::Record { record, consumed }) => {
                        used += consumed;
                        if let Item::Event(e) = record {
                            if matches!(e, gamefmt::slippi::Event::GameEnd(_)) {
                                game_ends += 1;
                            }
                            stats.push_with(&e, |ev| events.push(ev.clone()));
                        }
                    }
                    Ok(Decoded::NeedMore { .. }) => break,
                    Ok(Decoded::Done { .. }) | Err(_) => break 'feed,
                }
            }
            pending.drain(..used);
        }
        stats.finish();
        assert_eq!(
            to_js(&stats),
            to_js(&ours(bytes)),
            "{name}: push_with changed the stats"
        );
        n_events += events.len();
        #[cfg(feature = "serde")]
        for e in &events {
            let v = serde_json::to_value(e).unwrap();
            assert_eq!(v["kind"], e.name(), "{name}");
            assert_eq!(v["frame"], e.frame(), "{name}");
            if let StatsEvent::ComboEnd(p) | StatsEvent::ConversionEnd(p) = e {
                assert_eq!(v["port"], u64::from(p.punish.player_index) + 1);
                assert_eq!(v["end_frame"], p.frame);
                assert_eq!(v["move_count"], p.punish.move_count());
            }
        }
        // Frames never go back.
        for w in events.windows(2) {
            assert!(
                w[0].frame() <= w[1].frame(),
                "{name}: {:?} then {:?}",
                w[0],
                w[1]
            );
        }
        for (combo, list) in [(true, stats.combos()), (false, stats.conversions())] {
            let of = |want: &str| -> Vec<&PunishEvent> {
                events
                    .iter()
                    .filter_map(|e| match e {
                        StatsEvent::ComboStart(p)
                        | StatsEvent::ComboExtend(p)
                        | StatsEvent::ComboEnd(p)
                        | StatsEvent::ConversionStart(p)
                        | StatsEvent::ConversionExtend(p)
                        | StatsEvent::ConversionEnd(p) => {
                            let prefix = if combo { "combo_" } else { "conversion_" };
                            (e.name().strip_prefix(prefix) == Some(want)).then_some(p)
                        }
                        _ => None,
                    })
                    .collect()
            };
            let (starts, extends, ends) = (of("start"), of("extend"), of("end"));
            assert_eq!(starts.len(), list.len(), "{name}: starts");
            assert_eq!(
                ends.len(),
                list.iter().filter(|p| p.end_frame.is_some()).count(),
                "{name}: ends"
            );
            for (i, p) in list.iter().enumerate() {
                n_punishes += 1;
                let s: Vec<_> = starts.iter().filter(|e| e.index as usize == i).collect();
                assert_eq!(s.len(), 1, "{name}: punish {i} starts");
                let s = s[0];
                assert_eq!(s.frame, p.start_frame, "{name}: {i}");
                assert_eq!(s.punish.start_frame, p.start_frame, "{name}: {i}");
                assert_eq!(
                    s.punish.start_percent.to_bits(),
                    p.start_percent.to_bits(),
                    "{name}: {i}"
                );
                assert_eq!(
                    (s.punish.player_index, s.punish.last_hit_by),
                    (p.player_index, p.last_hit_by)
                );
                let moves: Vec<_> = list
                    .moves(p)
                    .map(|m| (m.player_index, m.frame, m.move_id))
                    .collect();
                let ext: Vec<_> = extends
                    .iter()
                    .filter(|e| e.index as usize == i)
                    .map(|e| {
                        let m = e.last_move.unwrap();
                        assert_eq!(e.frame, m.frame);
                        (m.player_index, m.frame, m.move_id)
                    })
                    .collect();
                assert_eq!(ext, moves, "{name}: punish {i} moves");
                let e: Vec<_> = ends.iter().filter(|e| e.index as usize == i).collect();
                match p.end_frame {
                    None => assert!(e.is_empty(), "{name}: punish {i} has no end"),
                    Some(end) => {
                        assert_eq!(e.len(), 1, "{name}: punish {i} ends");
                        let e = e[0];
                        assert_eq!(e.frame, end, "{name}: {i}");
                        let mut got = e.punish;
                        got.opening_type = p.opening_type;
                        assert_eq!(&got, p, "{name}: punish {i} at its end");
                        assert_eq!(e.last_move.as_ref(), list.last_move(p), "{name}: {i}");
                    }
                }
            }
        }
        for (i, k) in stats.stocks().iter().enumerate() {
            n_stocks += 1;
            let starts: Vec<_> = events
                .iter()
                .filter_map(|e| match e {
                    StatsEvent::StockStart(s) if s.index as usize == i => Some(s),
                    _ => None,
                })
                .collect();
            assert_eq!(starts.len(), 1, "{name}: stock {i}");
            assert_eq!(
                (
                    starts[0].frame,
                    starts[0].stock.start_frame,
                    starts[0].stock.count
                ),
                (k.start_frame, k.start_frame, k.count)
            );
            let lost: Vec<_> = events
                .iter()
                .filter_map(|e| match e {
                    StatsEvent::StockLost(s) if s.index as usize == i => Some(s),
                    _ => None,
                })
                .collect();
            match k.end_frame {
                None => assert!(lost.is_empty(), "{name}: stock {i}"),
                Some(end) => {
                    assert_eq!(lost.len(), 1, "{name}: stock {i}");
                    assert_eq!(lost[0].frame, end);
                    assert_eq!(&lost[0].stock, k, "{name}: stock {i}");
                }
            }
        }
        let stock_events = events
            .iter()
            .filter(|e| matches!(e, StatsEvent::StockStart(_) | StatsEvent::StockLost(_)))
            .count();
        let lost = stats
            .stocks()
            .iter()
            .filter(|k| k.end_frame.is_some())
            .count();
        assert_eq!(stock_events, stats.stocks().len() + lost, "{name}");
        let ends: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                StatsEvent::GameEnd(g) => Some(g),
                _ => None,
            })
            .collect();
        assert_eq!(ends.len(), game_ends, "{name}: game_end events");
        if let (Some(last), Ok(view)) = (ends.last(), SlippiView::parse(bytes)) {
            if view.game_end().is_some() {
                n_game_end_files += 1;
                if last.winners == view.winners() {
                    n_winners_equal += 1;
                } else {
                    eprintln!(
                        "{name}: live winners {:?}, file {:?}",
                        last.winners,
                        view.winners()
                    );
                }
            }
        }
    }
    eprintln!(
        "live: {} files, {n_events} events; {n_punishes} punishes and {n_stocks} stocks as \
         start+end; winners equal on {n_winners_equal} of {n_game_end_files} files ending with Game End",
        files.len()
    );
    assert_eq!(n_winners_equal, n_game_end_files);
}

/// `SlippiStats::slippi_js()` and `slippi_js_stadium()` serialize exactly
/// as slippi-js 9.1.2's `getStats()` and `getStadiumStats()` under
/// `JSON.stringify`: equal to the committed oracle as parsed JSON (absent
/// members absent, `null`s where slippi-js has `NaN`), and as text.
#[cfg(feature = "serde")]
#[test]
fn corpus_slippi_js_json_equals_slippi_js() {
    let Some(files) = common::corpus_files("slippi_stats", "slippi", ".slp") else {
        return;
    };
    let oracle = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/peers/slippi-js/stats");
    let (mut equal, mut text_equal, mut threw) = (0, 0, 0);
    for (name, bytes) in &files {
        let text = std::fs::read_to_string(oracle.join(format!("{name}.json"))).unwrap();
        let theirs: Value = serde_json::from_str(&text).unwrap();
        if theirs.get("error").is_some() {
            threw += 1;
            continue;
        }
        let s = ours(bytes);
        let stats = serde_json::to_value(s.slippi_js()).unwrap();
        let stadium = serde_json::to_value(s.slippi_js_stadium()).unwrap();
        assert_eq!(stats, theirs["stats"], "{name}: getStats()");
        assert_eq!(stadium, theirs["stadium"], "{name}: getStadiumStats()");
        equal += 1;
        let ours_text = format!(
            "{{\"slippi_js\":\"9.1.2\",\"stats\":{},\"stadium\":{}}}\n",
            serde_json::to_string(&s.slippi_js()).unwrap(),
            serde_json::to_string(&s.slippi_js_stadium()).unwrap()
        );
        if ours_text == text {
            text_equal += 1;
        } else {
            eprintln!("{name}: same values, different text");
        }
    }
    eprintln!(
        "slippi-js JSON: {equal} of {} files equal as values, {text_equal} as text; {threw} where slippi-js throws",
        files.len()
    );
    assert_eq!(text_equal, equal);
}
