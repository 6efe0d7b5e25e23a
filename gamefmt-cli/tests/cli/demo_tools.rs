//! `gamefmt demo cut`, `strip-map` and `repair` on every corpus demo (the
//! one a SIGKILL cut short included), checked by decoding what they wrote
//! and comparing its snapshots and messages with the input's; and the
//! errors they give.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use crate::common;
use crate::demo_events::{Event, by_key, events};

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use gamefmt::demo::{self, Chunk, DemoView};
use gamefmt::stream::End;

/// Runs `gamefmt demo ARGS`, with `stdin` on its standard input.
fn gamefmt(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamefmt"))
        .arg("demo")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The tool may exit before reading its standard input.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

/// A fresh path for an output file.
fn out_path(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("demo_tools");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The corpus demos, named; `None` (after a SKIPPED line) without them.
fn demos(test: &str) -> Option<Vec<(String, PathBuf, Vec<u8>)>> {
    let dir = common::corpus_dir(test)?.join("teeworlds/demos");
    let files = common::corpus_files(test, "teeworlds/demos", ".demo")?;
    Some(
        files
            .into_iter()
            .map(|(name, bytes)| {
                let path = dir.join(&name);
                (name, path, bytes)
            })
            .collect(),
    )
}

/// The ticks of the snapshots among `events`.
fn snapshot_ticks(events: &[Event]) -> Vec<i32> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Snapshot(t, _) => Some(*t),
            Event::Message(..) => None,
        })
        .collect()
}

#[test]
fn cut_keeps_exactly_the_range() {
    let Some(demos) = demos("cut_keeps_exactly_the_range") else {
        return;
    };
    for (name, path, bytes) in &demos {
        let (original, _) = events(bytes);
        let ticks = snapshot_ticks(&original);
        let (first, last) = (ticks[0], *ticks.last().unwrap());
        let (from, to) = (first + (last - first) / 3, first + 2 * (last - first) / 3);
        let out = out_path(&format!("cut-{name}"));
        let run = gamefmt(
            &[
                "cut",
                path.to_str().unwrap(),
                "--from",
                &from.to_string(),
                "--to",
                &to.to_string(),
                "-o",
                out.to_str().unwrap(),
            ],
            b"",
        );
        assert!(run.status.success(), "{name}: {}", text(&run.stderr));
        let summary = text(&run.stdout);
        assert!(summary.starts_with(out.to_str().unwrap()), "{summary}");
        let part = std::fs::read(&out).unwrap();
        let view = DemoView::parse(&part).unwrap();
        // A keyframe first.
        let first_chunk = view.chunks().next().unwrap().unwrap();
        assert!(
            matches!(first_chunk, Chunk::Tick { keyframe: true, tick } if tick >= from),
            "{name}: {first_chunk:?}"
        );
        // Exactly the original's snapshots and messages of the range.
        let expected: Vec<Event> = original
            .iter()
            .filter(|e| e.tick().is_some_and(|t| (from..=to).contains(&t)))
            .cloned()
            .collect();
        let (got, end) = events(&part);
        assert_eq!(end, End::Complete, "{name}");
        assert!(!got.is_empty(), "{name}");
        assert!(
            by_key(&got) == by_key(&expected),
            "{name}: cut {from}..={to}"
        );
        // Its length: from its first to its last tick.
        let got_ticks = snapshot_ticks(&got);
        assert_eq!(
            view.header().length_seconds(),
            (got_ticks.last().unwrap() - got_ticks[0]) / 50,
            "{name}"
        );
        assert_eq!(view.map_data(), DemoView::parse(bytes).unwrap().map_data());
        // Markers of the range, none outside.
        let header = DemoView::parse(bytes).unwrap().header().clone();
        let want: Vec<i32> = header
            .markers()
            .iter()
            .copied()
            .filter(|m| (from..=to).contains(m))
            .collect();
        assert_eq!(view.header().markers(), &want[..], "{name}");
    }
}

#[test]
fn cut_without_a_range_to_stdout_keeps_everything() {
    let Some(demos) = demos("cut_without_a_range_to_stdout_keeps_everything") else {
        return;
    };
    for (name, path, bytes) in &demos {
        let run = gamefmt(&["cut", path.to_str().unwrap(), "-o", "-"], b"");
        assert!(run.status.success(), "{name}: {}", text(&run.stderr));
        // The summary goes to stderr when the demo goes to stdout.
        assert!(text(&run.stderr).starts_with("-: cut ticks "), "{name}");
        let (original, _) = events(bytes);
        let (got, end) = events(&run.stdout);
        assert_eq!(end, End::Complete, "{name}");
        assert!(by_key(&got) == by_key(&original), "{name}");
    }
}

#[test]
fn strip_map_keeps_every_chunk() {
    let Some(demos) = demos("strip_map_keeps_every_chunk") else {
        return;
    };
    for (name, path, bytes) in &demos {
        let out = out_path(&format!("strip-{name}"));
        let run = gamefmt(
            &[
                "strip-map",
                path.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
            ],
            b"",
        );
        assert!(run.status.success(), "{name}: {}", text(&run.stderr));
        let stripped = std::fs::read(&out).unwrap();
        let view = DemoView::parse(bytes).unwrap();
        let sv = DemoView::parse(&stripped).unwrap();
        let (h, sh) = (view.header(), sv.header());
        assert_eq!(sh.map_size(), 0, "{name}");
        assert!(sv.map_data().is_empty(), "{name}");
        assert_eq!(
            (sh.map_name(), sh.map_crc(), sh.map_sha256()),
            (h.map_name(), h.map_crc(), h.map_sha256()),
            "{name}"
        );
        assert_eq!(stripped.len(), bytes.len() - view.map_data().len());
        // `validate` takes a demo without its map.
        let valid = Command::new(env!("CARGO_BIN_EXE_gamefmt"))
            .arg("validate")
            .arg(&out)
            .output()
            .unwrap();
        assert!(valid.status.success(), "{name}: {}", text(&valid.stderr));
        assert!(text(&valid.stdout).contains("(not embedded)"), "{name}");
        let (original, original_end) = events(bytes);
        let (got, end) = events(&stripped);
        // The same ending (a truncation's offset moves with the map).
        assert_eq!(end.name(), original_end.name(), "{name}");
        assert!(got == original, "{name}");
        if !view.map_data().is_empty() {
            let summary = text(&run.stdout);
            assert!(
                summary.contains(&format!("{} bytes) removed", view.map_data().len())),
                "{summary}"
            );
        }
    }
}

/// Repairs `bytes` through standard input and checks the result: it
/// decodes to its end, to everything `bytes` held that decodes, with the
/// length of its ticks.
fn check_repair(name: &str, bytes: &[u8]) -> Vec<u8> {
    let run = gamefmt(&["repair", "-", "-o", "-"], bytes);
    assert!(run.status.success(), "{name}: {}", text(&run.stderr));
    assert!(text(&run.stderr).starts_with("-: kept ticks "), "{name}");
    let fixed = run.stdout;
    let (before, _) = events(bytes);
    let (after, end) = events(&fixed);
    assert_eq!(end, End::Complete, "{name}");
    assert!(after == before, "{name}: repair lost something");
    let ticks: Vec<i32> = DemoView::parse(&fixed)
        .unwrap()
        .chunks()
        .filter_map(|c| match c.unwrap() {
            Chunk::Tick { tick, .. } => Some(tick),
            Chunk::Data { .. } => None,
        })
        .collect();
    let length = (ticks.last().unwrap() - ticks[0]) / 50;
    assert!(length > 0, "{name}");
    assert_eq!(
        DemoView::parse(&fixed).unwrap().header().length_seconds(),
        length,
        "{name}"
    );
    fixed
}

#[test]
fn repair_keeps_everything_decodable() {
    let Some(demos) = demos("repair_keeps_everything_decodable") else {
        return;
    };
    let mut truncated = 0;
    for (name, _, bytes) in &demos {
        let (_, end) = events(bytes);
        let view = DemoView::parse(bytes).unwrap();
        let fixed = check_repair(name, bytes);
        if end == End::Complete {
            // A sound demo is left as it is, its length give or take the
            // tick DDNet counted.
            let (a, b) = (
                view.header().length_seconds(),
                DemoView::parse(&fixed).unwrap().header().length_seconds(),
            );
            assert!((a - b).abs() <= 1, "{name}: {a} vs {b}");
        } else {
            // The corpus' SIGKILLed demo: never patched, cut inside a chunk.
            truncated += 1;
            assert_eq!(view.header().length_seconds(), 0, "{name}");
            assert!(fixed.len() < bytes.len(), "{name}");
        }
        // As a crash leaves it: the header unpatched, the last chunk cut.
        let mut crashed = bytes[..bytes.len() - 2].to_vec();
        crashed[demo::LENGTH_OFFSET..demo::LENGTH_OFFSET + 4].fill(0);
        check_repair(name, &crashed);
    }
    // The corpus' SIGKILLed demo is the one cut short (GAMEFMT_CORPUS may
    // point at other demos).
    let sigkilled = demos
        .iter()
        .filter(|d| d.0.contains("sigkill-truncated"))
        .count();
    assert_eq!(truncated, sigkilled);
}

#[test]
fn errors_say_what_and_where() {
    let Some(demos) = demos("errors_say_what_and_where") else {
        return;
    };
    let (_, path, bytes) = &demos[0];
    let path = path.to_str().unwrap();
    let out = out_path("error.demo");
    let out = out.to_str().unwrap();

    // A range with no snapshot: refused (1), the demo's ticks named.
    let run = gamefmt(&["cut", path, "--from", "2000000000", "-o", out], b"");
    assert_eq!(run.status.code(), Some(1));
    let err = text(&run.stderr);
    assert!(
        err.starts_with(&format!(
            "gamefmt: {path}: no snapshot from tick 2000000000 on"
        )),
        "{err}"
    );
    assert!(err.contains("(the demo has ticks "), "{err}");

    // --from after --to: a usage error (2).
    let run = gamefmt(&["cut", path, "--from", "10", "--to", "5", "-o", out], b"");
    assert_eq!(run.status.code(), Some(2));
    assert!(text(&run.stderr).contains("--from 10 is after --to 5"));

    // Not a demo: refused.
    let run = gamefmt(&["repair", "-", "-o", out], b"not a demo at all");
    assert_eq!(run.status.code(), Some(1));
    assert_eq!(
        text(&run.stderr),
        "gamefmt: -: not a Teeworlds/DDNet demo\n"
    );

    // A header cut short: refused, with the offset.
    let run = gamefmt(&["strip-map", "-", "-o", out], &bytes[..100]);
    assert_eq!(run.status.code(), Some(1));
    let err = text(&run.stderr);
    assert!(
        err.starts_with("gamefmt: -: cannot read the header: ") && err.contains("at byte offset"),
        "{err}"
    );

    // A missing input, an unwritable output: I/O errors (2) naming the path.
    let run = gamefmt(&["repair", "/nonexistent/x.demo", "-o", out], b"");
    assert_eq!(run.status.code(), Some(2));
    assert!(text(&run.stderr).starts_with("gamefmt: /nonexistent/x.demo: "));
    let run = gamefmt(&["repair", path, "-o", "/nonexistent/dir/y.demo"], b"");
    assert_eq!(run.status.code(), Some(2));
    assert!(text(&run.stderr).starts_with("gamefmt: /nonexistent/dir/y.demo: "));
}
