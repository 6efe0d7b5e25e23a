//! `gamefmt watch` on a fake console (a loopback TCP server sending corpus
//! replays as Slippi Nintendont frames them), a growing file and a folder
//! Dolphin would write into. The recorded `.slp` files equal, byte for
//! byte, what slippi-js 9.1.2's `SlpFileWriter` wrote for the same feed
//! (`benches/peers/slippi-js/record_oracle.tsv`, also checked by the
//! core's `tests/slippi_live.rs`); the printed winners are slippi-js's
//! (`SlippiView::winners`) and the stocks lost are the finished file's
//! stats (`SlippiStats`, held equal to slippi-js by `tests/slippi_stats.rs`).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects,
    reason = "tests: a panic is the failure report"
)]

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use gamefmt::slippi::live::{
    ConsoleMessage, Continuity, Handshake, Replay, client_handshake, encode_message,
};
use gamefmt::slippi::{SlippiStats, SlippiView};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::common;

/// The `startAt` and console nick slippi-js's file writer was run with
/// for the oracle (`record_oracle.mjs`).
const START_AT: &str = "2024-05-01T18:30:00.123Z";
const NICK: &str = "gamefmt-oracle";

/// Two corpus replays with an oracle recording, sent one after the other.
const GAMES: [&str; 2] = [
    "v3.17.0_slippi-js_FodPlatforms.slp",
    "v3.14.0_slippi-js_unranked_game1.slp",
];

/// A replay's bytes, its raw events up to its first Game End (what a
/// console sends for it), and each event's bytes.
struct Game {
    name: String,
    file: Vec<u8>,
    raw: Vec<u8>,
    events: Vec<Vec<u8>>,
}

fn game(path: &Path) -> Game {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let file = std::fs::read(path).unwrap();
    let view = SlippiView::parse(&file).unwrap();
    let mut events = Vec::new();
    for e in view.events() {
        let e = e.unwrap();
        let mut v = vec![e.code()];
        v.extend_from_slice(e.payload());
        let end = v[0] == 0x39;
        events.push(v);
        if end {
            break;
        }
    }
    let raw = events.concat();
    Game {
        name,
        file,
        raw,
        events,
    }
}

fn games(test: &str) -> Option<Vec<Game>> {
    let dir = common::corpus_dir(test)?;
    if !GAMES.iter().all(|g| dir.join("slippi").join(g).is_file()) {
        eprintln!("SKIPPED {test}: the corpus lacks {GAMES:?}");
        return None;
    }
    Some(
        GAMES
            .iter()
            .map(|g| game(&dir.join("slippi").join(g)))
            .collect(),
    )
}

/// The oracle's `length:sha256` of slippi-js's recording of `name`, in
/// `text` (`record_oracle.mjs`'s output).
fn oracle(text: &str, name: &str) -> String {
    let line = text
        .lines()
        .find(|l| l.split('\t').next() == Some(name))
        .unwrap();
    let cols: Vec<&str> = line.split('\t').collect();
    assert_eq!(cols[1], "1", "{name}: slippi-js recorded it");
    cols[2].to_owned()
}

/// The console's handshake, resuming at `pos`.
fn console_handshake(pos: u64) -> Vec<u8> {
    let mut buf = vec![0u8; 256];
    let hs = ConsoleMessage::Handshake(Handshake {
        nick: Some(NICK),
        nintendont_version: Some("1.9.0"),
        client_token: Some(7),
        pos: pos.to_be_bytes(),
    });
    let n = encode_message(&hs, &mut buf).unwrap();
    buf[..n].to_vec()
}

/// What a console sends after its handshake: the games' raw events in
/// replay messages of `piece` bytes (a keep-alive now and then), cursors
/// running on; each message with the cursor after it.
fn console_wire(games: &[Game], piece: usize) -> Vec<(u64, Vec<u8>)> {
    let mut buf = vec![0u8; 1 << 16];
    let mut out = Vec::new();
    let mut pos = 0u64;
    for (i, chunk) in games.iter().flat_map(|g| g.raw.chunks(piece)).enumerate() {
        let next = pos + chunk.len() as u64;
        let m = ConsoleMessage::Replay(Replay {
            pos: pos.to_be_bytes(),
            next_pos: next.to_be_bytes(),
            force_pos: false,
            data: chunk,
            continuity: Continuity::Continuous,
        });
        let n = encode_message(&m, &mut buf).unwrap();
        out.push((next, buf[..n].to_vec()));
        if i % 50 == 49 {
            let n = encode_message(&ConsoleMessage::KeepAlive, &mut buf).unwrap();
            out.push((next, buf[..n].to_vec()));
        }
        pos = next;
    }
    out
}

fn temp_dir(what: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gamefmt-watch-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The lines of `kind` for game `game`.
fn of<'a>(lines: &'a [Value], kind: &str, game: u64) -> Vec<&'a Value> {
    lines
        .iter()
        .filter(|l| l["kind"] == kind && l["game"] == game)
        .collect()
}

/// Game `n`'s printed lines agree with the finished file: one game start
/// with its players, its stocks lost as its stats, its winners as
/// slippi-js tells them.
fn check_printed(lines: &[Value], n: u64, g: &Game) {
    let starts = of(lines, "game_start", n);
    assert_eq!(starts.len(), 1, "{}", g.name);
    let view = SlippiView::parse(&g.file).unwrap();
    let start = gamefmt::slippi::Event::GameStart(view.game_start().unwrap());
    let want_players = serde_json::to_value(start).unwrap()["players"].clone();
    assert_eq!(starts[0]["players"], want_players, "{}", g.name);
    let stats = SlippiStats::from_slice(&g.file).unwrap();
    // In the order they were lost.
    let mut lost: Vec<_> = stats
        .stocks()
        .iter()
        .filter(|s| s.end_frame.is_some())
        .collect();
    lost.sort_by_key(|s| s.end_frame);
    let lost: Vec<Value> = lost
        .iter()
        .map(|s| json!([s.player_index + 1, s.end_frame, s.count]))
        .collect();
    let printed: Vec<Value> = of(lines, "stock_lost", n)
        .iter()
        .map(|l| json!([l["port"], l["end_frame"], l["count"]]))
        .collect();
    assert_eq!(printed, lost, "{}: stocks lost", g.name);
    // Combos and conversions: each started once, ended once if it ended.
    for (kind, list) in [
        ("combo", stats.combos()),
        ("conversion", stats.conversions()),
    ] {
        let starts: Vec<Value> = of(lines, &format!("{kind}_start"), n)
            .iter()
            .map(|l| json!([l["port"], l["start_frame"]]))
            .collect();
        let mut want: Vec<_> = list.iter().collect();
        want.sort_by_key(|p| (p.start_frame, p.player_index));
        let mut starts_sorted = starts.clone();
        starts_sorted.sort_by_key(|v| (v[1].as_i64(), v[0].as_i64()));
        let want_starts: Vec<Value> = want
            .iter()
            .map(|p| json!([p.player_index + 1, p.start_frame]))
            .collect();
        assert_eq!(starts_sorted, want_starts, "{}: {kind} starts", g.name);
        let ended = list.iter().filter(|p| p.end_frame.is_some()).count();
        assert_eq!(
            of(lines, &format!("{kind}_end"), n).len(),
            ended,
            "{}: {kind} ends",
            g.name
        );
    }
    let ends = of(lines, "game_end", n);
    assert_eq!(ends.len(), 1, "{}", g.name);
    let want: Vec<Value> = view
        .winners()
        .iter()
        .map(|w| json!({"port": w.player_index + 1, "position": w.position}))
        .collect();
    assert_eq!(ends[0]["winners"], json!(want), "{}: winners", g.name);
    let complete = g.events.last().is_some_and(|e| e[0] == 0x39);
    assert_eq!(ends[0]["end"] == "complete", complete, "{}", g.name);
    assert_eq!(ends[0]["last_frame"], json!(stats.last_frame()));
}

/// A recorded file holds the game's events, event for event.
fn check_events(file: &[u8], g: &Game) {
    let view = SlippiView::parse(file).unwrap();
    let again: Vec<Vec<u8>> = view
        .events()
        .map(|e| {
            let e = e.unwrap();
            let mut v = vec![e.code()];
            v.extend_from_slice(e.payload());
            v
        })
        .collect();
    if let Some(i) = (0..again.len().max(g.events.len())).find(|&i| again.get(i) != g.events.get(i))
    {
        panic!(
            "{}: recorded events differ at #{i} of {} (got {}): {:?} vs {:?}",
            g.name,
            g.events.len(),
            again.len(),
            again.get(i).map(|e| &e[..e.len().min(16)]),
            g.events.get(i).map(|e| &e[..e.len().min(16)]),
        );
    }
}

#[test]
fn watch_records_a_console() {
    let Some(games) = games("watch_records_a_console") else {
        return;
    };
    let oracle_text = include_str!("../../../benches/peers/slippi-js/record_oracle.tsv");
    console_feed(&games, oracle_text, "console", None);
}

/// A console that drops the connection in the middle of the first game:
/// with `--reconnect`, `watch` connects again, asks to resume at the
/// cursor it reached with the client token the console gave (as
/// slippi-js's `ConsoleConnection` does), and its recordings still equal
/// slippi-js's for the uninterrupted feed.
#[test]
fn watch_reconnects_where_the_console_dropped() {
    let Some(games) = games("watch_reconnects_where_the_console_dropped") else {
        return;
    };
    let oracle_text = include_str!("../../../benches/peers/slippi-js/record_oracle.tsv");
    console_feed(&games, oracle_text, "reconnect", Some(200));
}

/// The same on another folder of replays (`GAMEFMT_WATCH_DIR`, every
/// `.slp` in it sent in one feed), with `record_oracle.mjs`'s output for
/// them (`GAMEFMT_WATCH_ORACLE`): the never-seen set.
#[test]
fn watch_records_a_console_never_seen() {
    let (Some(dir), Some(oracle)) = (
        std::env::var_os("GAMEFMT_WATCH_DIR"),
        std::env::var_os("GAMEFMT_WATCH_ORACLE"),
    ) else {
        eprintln!(
            "SKIPPED watch_records_a_console_never_seen: set GAMEFMT_WATCH_DIR and GAMEFMT_WATCH_ORACLE"
        );
        return;
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "slp"))
        .collect();
    paths.sort();
    let games: Vec<Game> = paths.iter().map(|p| game(p)).collect();
    console_feed(
        &games,
        &std::fs::read_to_string(oracle).unwrap(),
        "never-seen",
        None,
    );
}

/// Sends `games` in one feed from a fake console to `gamefmt watch
/// --record`: each recording equals slippi-js's (`oracle_text`) and
/// re-reads event for event, and the printed lines agree with the files.
/// With `drop_after`, the console closes the connection after that many
/// messages and, once `watch --reconnect` connects again, resumes at the
/// cursor the client asks for.
fn console_feed(games: &[Game], oracle_text: &str, what: &str, drop_after: Option<usize>) {
    let wire = console_wire(games, 1500);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let server = std::thread::spawn(move || {
        let mut hellos = Vec::new();
        let mut resume_at = 0u64;
        loop {
            let (mut sock, _) = listener.accept().unwrap();
            let mut hello = [0u8; 83];
            sock.read_exact(&mut hello).unwrap();
            hellos.push(hello);
            sock.write_all(&console_handshake(resume_at)).unwrap();
            // The messages after the cursor resumed at (the keep-alives
            // at it were sent already).
            let from = if hellos.len() == 1 {
                0
            } else {
                wire.iter()
                    .position(|(after, _)| *after > resume_at)
                    .unwrap()
            };
            let until = match drop_after {
                Some(n) if hellos.len() == 1 => n,
                _ => wire.len(),
            };
            for (_, m) in &wire[from..until] {
                sock.write_all(m).unwrap();
            }
            if until == wire.len() {
                return hellos;
            }
            resume_at = wire[until - 1].0;
        }
    });
    let dir = temp_dir(what);
    // With a reconnection, the idle timeout ends the watch once the
    // console is gone for good (it is not reachable any more).
    let idle = if drop_after.is_some() { "6" } else { "30" };
    let out = Command::new(env!("CARGO_BIN_EXE_gamefmt"))
        .args(["watch", &addr.to_string(), "--idle-timeout", idle])
        .args(drop_after.map(|_| "--reconnect"))
        .args(["--start-at", START_AT, "--record"])
        .arg(&dir)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let hellos = server.join().unwrap();
    assert_eq!(hellos[0], client_handshake([0; 8], 0, true));
    let lines = lines(&out.stdout);
    assert_eq!(lines[0]["kind"], "handshake");
    assert_eq!(lines[0]["nick"], NICK);
    if let Some(n) = drop_after {
        // The second hello resumes after the n-th message, with the
        // console's token (7).
        assert_eq!(hellos.len(), 2);
        assert_eq!(
            hellos[1],
            client_handshake(wire_cursor(games, n).to_be_bytes(), 7, true)
        );
        assert!(
            stderr.contains("connection lost (closed by the console); connecting again in 2 s"),
            "{stderr}"
        );
        assert_eq!(lines.iter().filter(|l| l["kind"] == "handshake").count(), 2);
    } else {
        assert!(!stderr.contains("connection lost"), "{stderr}");
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), games.len());
    for (n, g) in games.iter().enumerate() {
        // Game_20240501T183000.slp, then Game_20240501T183000-2.slp, ...
        let end = &of(&lines, "game_end", n as u64)[0];
        let path = end["recorded"].as_str().unwrap();
        let want = if n == 0 {
            String::new()
        } else {
            format!("-{}", n + 1)
        };
        assert_eq!(
            path,
            dir.join(format!("Game_20240501T183000{want}.slp"))
                .to_str()
                .unwrap()
        );
        let file = std::fs::read(path).unwrap();
        check_events(&file, g);
        let got = format!("{}:{:x}", file.len(), Sha256::digest(&file));
        assert_eq!(
            got,
            oracle(oracle_text, &g.name),
            "{}: slippi-js's recording",
            g.name
        );
        check_printed(&lines, n as u64, g);
    }
    std::fs::remove_dir_all(&dir).unwrap();
    println!(
        "watch console ({what}): {} games recorded equal to slippi-js's file writer, {} lines",
        games.len(),
        lines.len()
    );
}

/// The cursor after the first `n` messages of [`console_wire`], counted
/// independently of it: 1,500-byte pieces, a keep-alive after every 50th
/// (all within the first game here).
fn wire_cursor(games: &[Game], n: usize) -> u64 {
    let replays = n - n / 51;
    let bytes = replays * 1500;
    assert!(
        bytes < games[0].raw.len(),
        "the drop is inside the first game"
    );
    bytes as u64
}

/// Writes `g`'s file to `path` in pieces, a little at a time, as Dolphin
/// writes a replay during a game.
fn write_slowly(path: &Path, g: &Game) {
    let mut f = std::fs::File::create(path).unwrap();
    for chunk in g.file.chunks(8192) {
        f.write_all(chunk).unwrap();
        f.flush().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

#[test]
fn watch_follows_a_growing_file() {
    let Some(games) = games("watch_follows_a_growing_file") else {
        return;
    };
    let g = &games[0];
    let dir = temp_dir("file");
    let path = dir.join("Game_live.slp");
    let rec = dir.join("rec");
    // Started before the file exists: it waits for it.
    let child = Command::new(env!("CARGO_BIN_EXE_gamefmt"))
        .arg("watch")
        .arg(&path)
        .args(["--idle-timeout", "20", "--record"])
        .arg(&rec)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    write_slowly(&path, g);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let lines = lines(&out.stdout);
    check_printed(&lines, 0, g);
    let recorded = std::fs::read_dir(&rec).unwrap().next().unwrap().unwrap();
    check_events(&std::fs::read(recorded.path()).unwrap(), g);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn watch_follows_a_dolphin_folder() {
    let Some(games) = games("watch_follows_a_dolphin_folder") else {
        return;
    };
    let dir = temp_dir("folder");
    // A replay already there is not a game of this watch.
    std::fs::write(dir.join("Game_old.slp"), &games[1].file).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_gamefmt"))
        .arg("watch")
        .arg(&dir)
        .args(["--idle-timeout", "20", "--exit-on-game-end"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(200));
    write_slowly(&dir.join("Game_new.slp"), &games[0]);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let lines = lines(&out.stdout);
    check_printed(&lines, 0, &games[0]);
    assert!(!of(&lines, "stock_lost", 0).is_empty());
    assert_eq!(
        lines.iter().filter(|l| l["kind"] == "game_start").count(),
        1
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Latency, measured on the fake console (`benches/live_watch.sh` runs it;
/// ignored in CI): the console sends one game one frame at a time (all of
/// a frame's events in one replay message, a frame every `GAMEFMT_FRAME_US`
/// microseconds, 1000 by default: 16x game speed), and every stats line
/// (combo, conversion, stock) and `game_end` line is timed from the moment the message holding the
/// frame it names was written to the socket. Prints how many frame
/// messages had been written by then after that one (0: the line came
/// before the next frame's bytes) and the delays.
#[test]
#[ignore = "a measurement: benches/live_watch.sh"]
fn watch_latency() {
    use std::io::BufRead;
    use std::time::{Duration, Instant};
    let Some(games) = games("watch_latency") else {
        return;
    };
    let g = &games[0];
    let pace = Duration::from_micros(
        std::env::var("GAMEFMT_FRAME_US")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1000),
    );
    // The raw events grouped by frame: a message per frame (events before
    // the first frame go with it).
    let mut frames: Vec<(i32, Vec<u8>)> = Vec::new();
    let mut head = Vec::new();
    let view = SlippiView::parse(&g.file).unwrap();
    for (e, bytes) in view.events().zip(&g.events) {
        match e.unwrap().frame() {
            Some(f) if frames.last().is_none_or(|l| l.0 != f) => {
                let mut v = std::mem::take(&mut head);
                v.extend_from_slice(bytes);
                frames.push((f, v));
            }
            _ if frames.is_empty() => head.extend_from_slice(bytes),
            _ => frames.last_mut().unwrap().1.extend_from_slice(bytes),
        }
    }
    frames.last_mut().unwrap().1.extend_from_slice(&head);
    let mut buf = vec![0u8; 1 << 17];
    let mut messages = Vec::new();
    let mut pos = 0u64;
    for (_, data) in &frames {
        let next = pos + data.len() as u64;
        let m = ConsoleMessage::Replay(Replay {
            pos: pos.to_be_bytes(),
            next_pos: next.to_be_bytes(),
            force_pos: false,
            data,
            continuity: Continuity::Continuous,
        });
        let n = encode_message(&m, &mut buf).unwrap();
        messages.push(buf[..n].to_vec());
        pos = next;
    }
    let hs = ConsoleMessage::Handshake(Handshake {
        nick: Some(NICK),
        nintendont_version: Some("1.9.0"),
        client_token: Some(7),
        pos: [0; 8],
    });
    let n = encode_message(&hs, &mut buf).unwrap();
    let hs = buf[..n].to_vec();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let server = std::thread::spawn(move || {
        let (mut sock, _) = listener.accept().unwrap();
        sock.set_nodelay(true).unwrap();
        let mut hello = [0u8; 83];
        sock.read_exact(&mut hello).unwrap();
        sock.write_all(&hs).unwrap();
        let start = Instant::now();
        let mut sent = Vec::new();
        for (i, m) in messages.iter().enumerate() {
            let due = start + pace * u32::try_from(i).unwrap();
            while Instant::now() < due {
                std::hint::spin_loop();
            }
            // Timed as the write starts: a line can come out before
            // `write_all` returns here.
            sent.push(Instant::now());
            sock.write_all(m).unwrap();
        }
        sent
    });
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamefmt"))
        .args(["watch", &addr.to_string(), "--exit-on-game-end"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut got = Vec::new();
    for line in std::io::BufReader::new(child.stdout.take().unwrap()).lines() {
        got.push((Instant::now(), line.unwrap()));
    }
    assert!(child.wait().unwrap().success());
    let sent = server.join().unwrap();
    let index_of = |frame: i64| frames.iter().position(|f| i64::from(f.0) == frame).unwrap();
    let (mut after, mut delays, mut since_last) = (Vec::new(), Vec::new(), Vec::new());
    for (at, line) in &got {
        let v: Value = serde_json::from_str(line).unwrap();
        let frame = match v["kind"].as_str() {
            Some("game_end") => v["last_frame"].as_i64().unwrap(),
            Some("game_start" | "handshake") | None => continue,
            // Stats events: the frame they happened on.
            Some(_) => v["frame"].as_i64().unwrap(),
        };
        let m = index_of(frame);
        let later = sent[m + 1..].iter().filter(|t| *t < at).count();
        after.push(later);
        delays.push(at.duration_since(sent[m]).as_micros());
        // From the last message written before the line: the time the
        // watch took once the bytes that decided it (whichever they were)
        // had arrived.
        let last = sent.iter().rev().find(|t| *t < at).unwrap();
        since_last.push(at.duration_since(*last).as_micros());
    }
    delays.sort_unstable();
    since_last.sort_unstable();
    println!(
        "watch latency ({}, {} frames, a frame every {} us): {} lines; frame messages written after the deciding one before each line: {}; delay from the message of the frame it names: median {} us, max {} us; from the last message written before it: median {} us, max {} us (stats know a frame once it is finalized: rollback replays say so in Frame Bookend, up to 7 frames later)",
        g.name,
        frames.len(),
        pace.as_micros(),
        delays.len(),
        {
            let mut counts = std::collections::BTreeMap::new();
            for a in &after {
                *counts.entry(*a).or_insert(0) += 1;
            }
            format!("{counts:?} (frames late: lines)")
        },
        delays[delays.len() / 2],
        delays[delays.len() - 1],
        since_last[since_last.len() / 2],
        since_last[since_last.len() - 1],
    );
}
