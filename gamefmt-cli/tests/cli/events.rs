//! `gamefmt events` on the corpus, against facts known apart from the
//! messages the events come from: the server's own log lines (rcon lines
//! the dm1 and ctf2 demos recorded: `game: kill killer='K:…' victim='V:…'
//! weapon=W`), its chat announcements (votes called, players entering and
//! leaving), libtw2's message counts (`tests/data/netmsg_libtw2.tsv`), the
//! corpus' independent record counts (`SOURCES.md`: JOIN, DROP,
//! player-finish) and DDNet's formatting of race times (C's `%5.2f`, by
//! the system's `printf`).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::common;
use crate::run::stdout_of;

fn json_lines(args: &[&str], path: &Path) -> Vec<Value> {
    String::from_utf8(stdout_of(args, path))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn libtw2_count(file: &str, kind: &str) -> usize {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/netmsg_libtw2.tsv");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|c| c[0] == file && c[1] == kind)
        .map_or(0, |c| c[2].parse().unwrap())
}

const DEMOS: [&str; 2] = [
    "ddnet-server__dm1-30s-6bots-2dummies.demo",
    "ddnet-server__ctf2-2min-12bots-sigkill-truncated.demo",
];

/// `(tick, killer, victim, weapon)` of the server's `game: kill` log lines.
fn logged_kills(chat: &[Value]) -> Vec<(i64, i64, i64, i64)> {
    let mut out = Vec::new();
    for l in chat.iter().filter(|l| l["kind"] == "rcon") {
        let line = l["message"].as_str().unwrap();
        let Some(rest) = line.split(" game: kill killer='").nth(1) else {
            continue;
        };
        let num = |s: &str| s.split(':').next().unwrap().parse::<i64>().unwrap();
        let killer = num(rest);
        let victim = num(rest.split("victim='").nth(1).unwrap());
        let weapon = rest
            .split("weapon=")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        out.push((l["tick"].as_i64().unwrap(), killer, victim, weapon));
    }
    out
}

#[test]
fn demo_kills_are_the_servers_logged_kills() {
    let Some(dir) = common::corpus_dir("events_kills") else {
        return;
    };
    let mut logged_total = 0;
    for file in DEMOS {
        let path = dir.join("teeworlds/demos").join(file);
        if !path.is_file() {
            eprintln!("SKIPPED events_kills: {file} not in this corpus");
            continue;
        }
        let events = json_lines(&["events", "--json"], &path);
        let kills: Vec<(i64, i64, i64, i64)> = events
            .iter()
            .filter(|e| e["kind"] == "kill")
            .map(|e| {
                let n = |k: &str| e[k].as_i64().unwrap();
                (n("tick"), n("killer"), n("victim"), n("weapon"))
            })
            .collect();
        assert_eq!(kills.len(), libtw2_count(file, "SvKillMsg"), "{file}");
        let logged = logged_kills(&json_lines(&["chat", "--json", "--rcon"], &path));
        for kill in &logged {
            assert!(
                kills.contains(kill),
                "{file}: logged {kill:?} not among the events"
            );
        }
        logged_total += logged.len();
        // Named from the snapshots: a kill names its killer and victim.
        assert!(
            events
                .iter()
                .filter(|e| e["kind"] == "kill")
                .all(|e| e["victim_name"].is_string())
        );
        // The map is the header's.
        assert_eq!(events[0]["kind"], "map_change");
        assert!(events[0]["map"].as_str().unwrap().len() > 2);
    }
    assert!(logged_total > 0 || !dir.join("teeworlds/demos").join(DEMOS[0]).is_file());
}

/// Every vote the server announced in chat (`'NAME' called vote …`,
/// `called for vote …`) is a `vote_start` at that tick whose description
/// the line quotes; each ends (`vote_end`), and a passed end is at the
/// tick of DDNet's "Vote passed" line.
#[test]
fn demo_votes_are_the_announced_votes() {
    let Some(dir) = common::corpus_dir("events_votes") else {
        return;
    };
    let mut checked = 0;
    for file in DEMOS {
        let path = dir.join("teeworlds/demos").join(file);
        if !path.is_file() {
            continue;
        }
        let events = json_lines(&["events", "--json"], &path);
        let chat = json_lines(&["chat", "--json"], &path);
        let server = |needle: &str| -> Vec<(i64, String)> {
            chat.iter()
                .filter(|l| l["client_id"] == -1 && l["message"].as_str().unwrap().contains(needle))
                .map(|l| {
                    (
                        l["tick"].as_i64().unwrap_or(-1),
                        l["message"].as_str().unwrap().to_owned(),
                    )
                })
                .collect()
        };
        let called: Vec<(i64, String)> = server(" called ")
            .into_iter()
            .filter(|(_, m)| m.contains(" vote "))
            .collect();
        let starts: Vec<&Value> = events
            .iter()
            .filter(|e| e["kind"] == "vote_start")
            .collect();
        assert_eq!(starts.len(), called.len(), "{file}: {called:?}");
        for (start, (tick, line)) in starts.iter().zip(&called) {
            assert_eq!(start["tick"].as_i64().unwrap(), *tick, "{file}");
            // DDNet's line quotes the description (lower-cased for kick and
            // spectator votes) and the reason in parentheses.
            let description = start["description"].as_str().unwrap().to_lowercase();
            assert!(!description.is_empty());
            assert!(
                line.to_lowercase().contains(&description),
                "{file}: {line} / {description}"
            );
            let reason = start["reason"].as_str().unwrap();
            assert!(
                line.ends_with(&format!("({reason})")),
                "{file}: {line} / {reason}"
            );
        }
        // A server demo holds each message once per client: one end per
        // vote (tick) all the same.
        let ends: Vec<&Value> = events.iter().filter(|e| e["kind"] == "vote_end").collect();
        let ticks = |v: &[&Value]| {
            let mut t: Vec<i64> = v.iter().map(|e| e["tick"].as_i64().unwrap()).collect();
            t.dedup();
            t
        };
        assert_eq!(ticks(&ends), ticks(&starts), "{file}");
        assert!(
            ends.iter().all(|e| e["result"].is_string()),
            "{file}: {ends:?}"
        );
        let passed: BTreeMap<i64, usize> =
            server("Vote passed")
                .iter()
                .fold(BTreeMap::new(), |mut m, (t, _)| {
                    *m.entry(*t).or_default() += 1;
                    m
                });
        for end in ends.iter().filter(|e| e["result"] == "passed") {
            assert!(
                passed.contains_key(&end["tick"].as_i64().unwrap()),
                "{file}"
            );
        }
        checked += starts.len();
    }
    if checked == 0 {
        eprintln!("SKIPPED events_votes: no vote in the corpus demos");
    }
}

/// A 0.6 demo's joins and leaves (client info objects in its snapshots)
/// are the players the server announced: "'NAME' entered and joined the
/// game", "'NAME' has left the game".
#[test]
fn demo_joins_and_leaves_are_the_announced_ones() {
    let Some(dir) = common::corpus_dir("events_joins") else {
        return;
    };
    for file in DEMOS {
        let path = dir.join("teeworlds/demos").join(file);
        if !path.is_file() {
            continue;
        }
        let events = json_lines(&["events", "--json"], &path);
        let chat = json_lines(&["chat", "--json"], &path);
        let announced = |suffix: &str| -> Vec<String> {
            let mut names: Vec<String> = chat
                .iter()
                .filter(|l| l["client_id"] == -1 && l["tick"].is_i64())
                .filter_map(|l| {
                    let m = l["message"].as_str().unwrap();
                    let name = m.strip_prefix('\'')?.split_once(suffix)?.0;
                    Some(name.to_owned())
                })
                .collect();
            names.sort();
            names.dedup();
            names
        };
        let named = |kind: &str| -> Vec<String> {
            let mut names: Vec<String> = events
                .iter()
                .filter(|e| e["kind"] == kind)
                .map(|e| e["name"].as_str().unwrap().to_owned())
                .collect();
            names.sort();
            names.dedup();
            names
        };
        let joined = named("join");
        let left = named("leave");
        assert!(!left.is_empty(), "{file}");
        for name in announced("' entered and joined the game") {
            assert!(joined.contains(&name), "{file}: {name} joined, {joined:?}");
        }
        // Who leaves as the server shuts down leaves no snapshot behind.
        let shutdown: Vec<String> = chat
            .iter()
            .filter_map(|l| {
                let m = l["message"].as_str().unwrap();
                m.ends_with("(Server shutdown)")
                    .then(|| m.split('\'').nth(1).unwrap().to_owned())
            })
            .collect();
        for name in announced("' has left the game")
            .into_iter()
            .filter(|n| !shutdown.contains(n))
        {
            assert!(left.contains(&name), "{file}: {name} left, {left:?}");
        }
    }
}

/// Recordings: as many joins, leaves and finishes as `SOURCES.md` counted
/// JOIN, DROP and player-finish records; the finish lines read as DDNet's
/// server announces them (`"%s finished in: %d minute(s) %5.2f
/// second(s)"`, the seconds formatted by C's printf here).
#[test]
fn recording_events_match_the_independent_counts() {
    let Some(dir) = common::corpus_dir("events_recordings") else {
        return;
    };
    let th = dir.join("teeworlds/teehistorian");
    for (file, joins, drops, finishes) in [
        (
            "ddnet-server__race-corridor-3min-10bots-player-finish.teehistorian",
            16,
            16,
            53,
        ),
        (
            "ddnet-server__dm1-30s-6bots-2dummies-clean.teehistorian",
            8,
            8,
            0,
        ),
        (
            "ddnet-server__tutorial-9min-32bots-most-activity.teehistorian",
            136,
            107,
            0,
        ),
    ] {
        let path = th.join(file);
        if !path.is_file() {
            eprintln!("SKIPPED events_recordings: {file} not in this corpus");
            continue;
        }
        let events = json_lines(&["events", "--json"], &path);
        let count = |kind: &str| events.iter().filter(|e| e["kind"] == kind).count();
        assert_eq!(
            (count("join"), count("leave"), count("finish")),
            (joins, drops, finishes),
            "{file}"
        );
        assert_eq!(events[0]["kind"], "map_change");
        let text = String::from_utf8(stdout_of(&["events"], &path)).unwrap();
        let finish_lines: Vec<&str> = text.lines().filter(|l| l.contains("\tfinish\t")).collect();
        assert_eq!(finish_lines.len(), finishes);
        for (line, event) in finish_lines
            .iter()
            .zip(events.iter().filter(|e| e["kind"] == "finish"))
        {
            let ticks = event["ticks"].as_i64().unwrap();
            assert_eq!(event["time_ms"].as_i64().unwrap(), ticks * 20);
            // DDNet: Time = ticks / 50.0f; minutes (int)Time / 60.
            let time = ticks as f64 / 50.0;
            let minutes = (time as i64) / 60;
            let seconds = time - (minutes * 60) as f64;
            let c = Command::new("printf")
                .arg("%d minute(s) %5.2f second(s)")
                .arg(minutes.to_string())
                .arg(seconds.to_string())
                .output()
                .unwrap();
            let want = String::from_utf8(c.stdout).unwrap();
            assert!(
                line.ends_with(&format!(" finished in: {want}")),
                "{line} / {want}"
            );
        }
    }
}
