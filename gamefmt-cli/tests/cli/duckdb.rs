//! The exported corpus, read back by DuckDB, holds what the `gamefmt`
//! library decodes in memory: for every table the same row count and the
//! same sums of several columns, counted here independently of the
//! exporter (the slice iterators and views over whole files, not the
//! streaming readers the exporter uses).
//!
//! Needs the corpus (`GAMEFMT_CORPUS` or `../shared/corpus`) and a Python
//! with the `duckdb` package in `GAMEFMT_DUCKDB_PYTHON` (`.ci/run` makes a
//! venv for it); prints SKIPPED and passes without either.
#![allow(
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    reason = "test"
)]

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use gamefmt::Format;
use gamefmt::demo::{ChunkKind, DemoView, OwnedBuffers};
use gamefmt::map::{Layer, MapView, TileData};
use gamefmt::slippi::stats::SlippiStats;
use gamefmt::slippi::{Frames, SlippiView};
use gamefmt::teehistorian::{Message, PlayerState, TeehistorianIter};

const TEST: &str = "duckdb";

/// Totals per query name, computed in memory.
type Totals = BTreeMap<&'static str, i64>;

fn add(t: &mut Totals, key: &'static str, v: i64) {
    *t.entry(key).or_default() += v;
}

/// The corpus files of each format, as the exporter is given them.
fn inputs(corpus: &Path) -> Vec<PathBuf> {
    [
        "slippi",
        "teeworlds/demos",
        "teeworlds/maps",
        "teeworlds/teehistorian",
    ]
    .iter()
    .map(|d| corpus.join(d))
    .filter(|d| d.is_dir())
    .collect()
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn slippi(bytes: &[u8], t: &mut Totals) -> bool {
    let Ok(view) = SlippiView::parse(bytes) else {
        return false;
    };
    let mut f = Totals::new();
    for frame in Frames::new(bytes) {
        let Ok(frame) = frame else { return false };
        for (_, _, c) in frame.characters() {
            add(&mut f, "slippi_frames_rows", 1);
            add(&mut f, "slippi_frames_frame", i64::from(frame.number));
            if let Some(p) = c.pre {
                add(
                    &mut f,
                    "slippi_frames_pre_buttons",
                    i64::from(p.buttons().unwrap_or(0)),
                );
                add(&mut f, "slippi_frames_pre_rows", 1);
            }
            if let Some(p) = c.post {
                add(
                    &mut f,
                    "slippi_frames_post_stocks",
                    i64::from(p.stocks_remaining().unwrap_or(0)),
                );
                add(
                    &mut f,
                    "slippi_frames_post_action",
                    i64::from(p.action_state().unwrap_or(0)),
                );
                add(
                    &mut f,
                    "slippi_frames_airborne",
                    i64::from(p.is_airborne().is_some()),
                );
            }
        }
        for item in &frame.items {
            add(&mut f, "slippi_items_rows", 1);
            add(
                &mut f,
                "slippi_items_type",
                i64::from(item.type_id().unwrap_or(0)),
            );
            add(
                &mut f,
                "slippi_items_spawn",
                i64::from(item.spawn_id().unwrap_or(0)),
            );
        }
    }
    add(&mut f, "slippi_games_rows", 1);
    let start = view.game_start().ok();
    add(
        &mut f,
        "slippi_games_stage",
        i64::from(start.and_then(|s| s.stage()).unwrap_or(0)),
    );
    add(&mut f, "slippi_games_winners", view.winners().len() as i64);
    // The stats tables, from the core's stats over the whole file.
    let Ok(stats) = SlippiStats::from_slice(bytes) else {
        return false;
    };
    for k in stats.stocks() {
        add(&mut f, "slippi_stocks_rows", 1);
        add(
            &mut f,
            "slippi_stocks_end",
            i64::from(k.end_frame.unwrap_or(0)),
        );
    }
    for (rows, list) in [
        ("slippi_conversions_rows", stats.conversions()),
        ("slippi_combos_rows", stats.combos()),
    ] {
        for p in list.iter() {
            add(&mut f, rows, 1);
            for m in list.moves(p) {
                add(&mut f, "slippi_moves_rows", 1);
                add(&mut f, "slippi_moves_hits", i64::from(m.hit_count));
            }
        }
    }
    for a in stats.action_counts() {
        add(&mut f, "slippi_actions_rows", 1);
        add(
            &mut f,
            "slippi_actions_wavedash",
            i64::from(a.wavedash_count),
        );
        add(
            &mut f,
            "slippi_actions_lcancel",
            i64::from(a.l_cancel_count.success),
        );
    }
    for o in &stats.overall() {
        add(&mut f, "slippi_overall_rows", 1);
        add(&mut f, "slippi_overall_kills", i64::from(o.kill_count));
        add(
            &mut f,
            "slippi_overall_conversions",
            i64::from(o.conversion_count),
        );
    }
    for (k, v) in f {
        add(t, k, v);
    }
    true
}

fn teehistorian(bytes: &[u8], t: &mut Totals) -> bool {
    let Ok(iter) = TeehistorianIter::new(bytes) else {
        return false;
    };
    let mut f = Totals::new();
    let mut players: Box<PlayerState> = Box::default();
    for item in iter {
        let Ok(r) = item else { return false };
        let before = match r.message {
            Message::PlayerOld { cid } => players.get(cid).and_then(|p| p.pos),
            _ => None,
        };
        if players.apply(&r.message).is_err() {
            return false;
        }
        match r.message {
            Message::InputNew { cid, .. } | Message::InputDiff { cid, .. } => {
                if let Some(input) = players.get(cid).and_then(|p| p.input) {
                    add(&mut f, "th_inputs_rows", 1);
                    add(&mut f, "th_inputs_direction", i64::from(input[0]));
                    add(&mut f, "th_inputs_target_x", i64::from(input[1]));
                }
            }
            Message::PlayerNew { cid, .. } | Message::PlayerDiff { cid, .. } => {
                add(&mut f, "th_positions_rows", 1);
                let pos = players.get(cid).and_then(|p| p.pos).unwrap_or((0, 0));
                add(&mut f, "th_positions_x", i64::from(pos.0));
                add(&mut f, "th_positions_y", i64::from(pos.1));
            }
            Message::PlayerOld { .. } => {
                add(&mut f, "th_positions_rows", 1);
                let pos = before.unwrap_or((0, 0));
                add(&mut f, "th_positions_x", i64::from(pos.0));
                add(&mut f, "th_positions_y", i64::from(pos.1));
            }
            Message::TickSkip { .. } => {}
            _ => add(&mut f, "th_events_rows", 1),
        }
    }
    add(&mut f, "th_games_rows", 1);
    for (k, v) in f {
        add(t, k, v);
    }
    true
}

fn demo(bytes: &[u8], t: &mut Totals) -> bool {
    let Ok(view) = DemoView::parse(bytes) else {
        return false;
    };
    let mut f = Totals::new();
    for chunk in view.chunks() {
        let Ok(chunk) = chunk else { return false };
        if let gamefmt::demo::Chunk::Data {
            kind: ChunkKind::Message,
            ..
        } = chunk
        {
            add(&mut f, "demo_messages_rows", 1);
        }
    }
    let mut owned = OwnedBuffers::new();
    let mut frames = gamefmt::demo::Frames::new(&view, owned.buffers());
    while let Some(frame) = frames.next() {
        let Ok(frame) = frame else { return false };
        for item in frame.snapshot.items() {
            add(&mut f, "demo_items_rows", 1);
            add(&mut f, "demo_items_type", i64::from(item.type_id()));
            add(&mut f, "demo_items_id", i64::from(item.id()));
            add(&mut f, "demo_items_tick", i64::from(frame.tick));
        }
    }
    for (k, v) in f {
        add(t, k, v);
    }
    true
}

fn map(bytes: &[u8], t: &mut Totals) -> bool {
    let Ok(map) = MapView::parse(bytes) else {
        return false;
    };
    add(t, "map_layers_rows", map.layer_count() as i64);
    for (index, layer) in map.layers().enumerate() {
        let Layer::Tiles(tl) = layer else { continue };
        let Ok(buffer) = tl.data_to_vec() else {
            continue;
        };
        let w = tl.width().max(1);
        let kinds: Vec<u8> = match buffer.data() {
            TileData::Tiles(v) => v.iter().map(|x| x.index).collect(),
            TileData::Tele(v) => v.iter().map(|x| x.kind).collect(),
            TileData::Speedup(v) => v.iter().map(|x| x.kind).collect(),
            TileData::Switch(v) => v.iter().map(|x| x.kind).collect(),
            TileData::Tune(v) => v.iter().map(|x| x.kind).collect(),
        };
        for (i, k) in kinds.into_iter().enumerate() {
            if k != 0 {
                add(t, "map_tiles_rows", 1);
                add(t, "map_tiles_index", i64::from(k));
                add(t, "map_tiles_x", (i % w) as i64);
                add(t, "map_tiles_layer", index as i64);
            }
        }
    }
    true
}

/// The same totals, as DuckDB reads them from the dataset.
const QUERIES: &[(&str, &str, &str)] = &[
    (
        "slippi",
        "frames",
        "count(*) AS slippi_frames_rows, sum(frame) AS slippi_frames_frame, sum(coalesce(pre_buttons, 0)) AS slippi_frames_pre_buttons, count(pre_random_seed) AS slippi_frames_pre_rows, sum(coalesce(post_stocks_remaining, 0)) AS slippi_frames_post_stocks, sum(coalesce(post_action_state, 0)) AS slippi_frames_post_action, count(post_is_airborne) AS slippi_frames_airborne",
    ),
    (
        "slippi",
        "items",
        "count(*) AS slippi_items_rows, sum(type_id) AS slippi_items_type, sum(spawn_id) AS slippi_items_spawn",
    ),
    (
        "slippi",
        "games",
        "count(*) AS slippi_games_rows, sum(coalesce(stage, 0)) AS slippi_games_stage, sum(len(winner_ports)) AS slippi_games_winners",
    ),
    (
        "slippi",
        "stocks",
        "count(*) AS slippi_stocks_rows, sum(coalesce(end_frame, 0)) AS slippi_stocks_end",
    ),
    (
        "slippi",
        "conversions",
        "count(*) AS slippi_conversions_rows",
    ),
    ("slippi", "combos", "count(*) AS slippi_combos_rows"),
    (
        "slippi",
        "moves",
        "count(*) AS slippi_moves_rows, sum(hit_count) AS slippi_moves_hits",
    ),
    (
        "slippi",
        "action_counts",
        "count(*) AS slippi_actions_rows, sum(wavedash_count) AS slippi_actions_wavedash, sum(l_cancel_count_success) AS slippi_actions_lcancel",
    ),
    (
        "slippi",
        "overall",
        "count(*) AS slippi_overall_rows, sum(kill_count) AS slippi_overall_kills, sum(conversion_count) AS slippi_overall_conversions",
    ),
    (
        "teehistorian",
        "inputs",
        "count(*) AS th_inputs_rows, sum(direction) AS th_inputs_direction, sum(target_x) AS th_inputs_target_x",
    ),
    (
        "teehistorian",
        "positions",
        "count(*) AS th_positions_rows, sum(coalesce(x, 0)) AS th_positions_x, sum(coalesce(y, 0)) AS th_positions_y",
    ),
    ("teehistorian", "events", "count(*) AS th_events_rows"),
    ("teehistorian", "games", "count(*) AS th_games_rows"),
    ("demo", "messages", "count(*) AS demo_messages_rows"),
    (
        "demo",
        "snapshot_items",
        "count(*) AS demo_items_rows, sum(type_id) AS demo_items_type, sum(id) AS demo_items_id, sum(tick) AS demo_items_tick",
    ),
    ("map", "layers", "count(*) AS map_layers_rows"),
    (
        "map",
        "tiles",
        "count(*) AS map_tiles_rows, sum(\"index\") AS map_tiles_index, sum(x) AS map_tiles_x, sum(layer) AS map_tiles_layer",
    ),
];

/// Runs every query with DuckDB over `out` and returns the totals.
fn duckdb(python: &str, out: &Path) -> Totals {
    let mut script = String::from("import duckdb, json\nc = duckdb.connect()\n");
    for (format, table, select) in QUERIES {
        let glob = out.join(format!("format={format}/table={table}/*.parquet"));
        let from = format!("read_parquet('{}')", glob.display());
        script.push_str(&format!(
            "r = c.sql(\"\"\"SELECT {select} FROM {from}\"\"\")\nprint(json.dumps(dict(zip(r.columns, [int(v or 0) for v in r.fetchall()[0]]))))\n"
        ));
    }
    let output = Command::new(python)
        .arg("-c")
        .arg(&script)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "duckdb failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut totals = Totals::new();
    for line in String::from_utf8(output.stdout).unwrap().lines() {
        let obj: BTreeMap<String, i64> = parse_flat_json(line);
        for (k, v) in obj {
            let key = QUERIES
                .iter()
                .flat_map(|q| q.2.split(" AS ").skip(1))
                .map(|s| s.split(',').next().unwrap().trim())
                .find(|n| *n == k)
                .unwrap();
            totals.insert(key, v);
        }
    }
    totals
}

/// `{"a": 1, "b": 2}` (what the script prints) as a map.
fn parse_flat_json(line: &str) -> BTreeMap<String, i64> {
    line.trim_matches(|c| c == '{' || c == '}')
        .split(", ")
        .filter(|kv| !kv.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once(": ").unwrap();
            (k.trim_matches('"').to_owned(), v.parse().unwrap())
        })
        .collect()
}

#[test]
fn exported_corpus_read_by_duckdb_matches_the_library() {
    let Some(corpus) = common::corpus_dir(TEST) else {
        return;
    };
    let Some(python) = std::env::var("GAMEFMT_DUCKDB_PYTHON").ok() else {
        eprintln!("SKIPPED {TEST}: GAMEFMT_DUCKDB_PYTHON (a Python with duckdb) not set");
        return;
    };
    let dirs = inputs(&corpus);
    if dirs.is_empty() {
        eprintln!("SKIPPED {TEST}: no corpus folders");
        return;
    }
    // In memory, independently.
    let mut expected = Totals::new();
    let mut decoded = 0;
    let mut files = Vec::new();
    for d in &dirs {
        walk(d, &mut files);
    }
    // Per port: (games, kills), what the README's query over `overall` sums.
    let mut ports: BTreeMap<i64, (i64, i64)> = BTreeMap::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let ok = match Format::detect(&bytes) {
            Some(Format::Slippi) => {
                let ok = slippi(&bytes, &mut expected);
                if ok {
                    for o in &SlippiStats::from_slice(&bytes).unwrap().overall() {
                        let e = ports.entry(i64::from(o.player_index) + 1).or_default();
                        e.0 += 1;
                        e.1 += i64::from(o.kill_count);
                    }
                }
                ok
            }
            Some(Format::Teehistorian) => teehistorian(&bytes, &mut expected),
            Some(Format::Demo) => demo(&bytes, &mut expected),
            Some(Format::Datafile) => map(&bytes, &mut expected),
            _ => false,
        };
        decoded += usize::from(ok);
    }
    // Exported, then read back.
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("duckdb-export");
    let _ = std::fs::remove_dir_all(&out);
    let status = Command::new(env!("CARGO_BIN_EXE_gamefmt"))
        .arg("export")
        .arg(&out)
        .args(&dirs)
        .status()
        .unwrap();
    // Some corpus files are refused on purpose (exit status 1).
    assert!(matches!(status.code(), Some(0 | 1)), "{status}");
    let got = duckdb(&python, &out);
    eprintln!("{decoded} files decoded in memory; totals: {got:?}");
    for (key, want) in &expected {
        assert_eq!(got.get(key), Some(want), "{key}");
    }
    assert!(expected.len() >= 20, "{expected:?}");
    // The README's DuckDB query over the `overall` table, as printed there.
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .unwrap();
    let query = readme
        .split("<!-- stats-overall-query -->")
        .nth(1)
        .and_then(|q| q.split("```sql").nth(1))
        .and_then(|q| q.split("```").next())
        .expect("README: the stats query");
    let query = query.replace("'out/", &format!("'{}/", out.display()));
    let script = format!(
        "import duckdb, json\nr = duckdb.connect().sql(\"\"\"{query}\"\"\")\nprint(json.dumps([[None if v is None else float(v) for v in row] for row in r.fetchall()]))\n"
    );
    let output = Command::new(&python)
        .arg("-c")
        .arg(&script)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let rows: Vec<Vec<Option<f64>>> = serde_json::from_slice(&output.stdout).unwrap();
    let int = |v: Option<f64>| v.unwrap() as i64;
    let got: BTreeMap<i64, (i64, i64)> = rows
        .iter()
        .map(|r| (int(r[0]), (int(r[1]), int(r[2]))))
        .collect();
    eprintln!("README query over overall: {rows:?}");
    assert_eq!(got, ports);
}
