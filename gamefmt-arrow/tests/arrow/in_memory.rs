//! `export_bytes` (a teehistorian recording walked in memory with the
//! slice iterator) against `export` (the streaming reader, the oracle):
//! the same batches in the same order, or the same error at the same
//! offset, on the crate's sample, its every prefix and corruptions of it,
//! and the corpus recordings when present.
#![allow(
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    reason = "test"
)]

use crate::common;

use std::io::Cursor;

use gamefmt_arrow::{Error, RecordBatch, Table, export, export_bytes};

const TEST: &str = "in_memory";

/// The batches handed over, and how the export ended (the error's
/// display and offset).
type Outcome = (
    Vec<(Table, RecordBatch)>,
    Result<(), (String, Option<usize>)>,
);

fn outcome(
    run: impl FnOnce(
        &mut dyn FnMut(Table, RecordBatch) -> Result<(), Error>,
    ) -> Result<gamefmt::Format, Error>,
) -> Outcome {
    let mut batches = Vec::new();
    let end = run(&mut |table, batch| {
        batches.push((table, batch));
        Ok(())
    });
    (
        batches,
        end.map(|_| ()).map_err(|e| (e.to_string(), e.offset())),
    )
}

fn same(bytes: &[u8], batch_rows: usize) {
    let streamed = outcome(|sink| export(Cursor::new(bytes.to_vec()), Some("f"), batch_rows, sink));
    let in_memory = outcome(|sink| export_bytes(bytes.to_vec(), Some("f"), batch_rows, sink));
    // Cut inside the header, the stream ends before a header and the
    // export fails parsing none (offset 0); the slice iterator tells the
    // truncation. Both refuse the input.
    let header_cut = bytes.len() > 16 && !bytes[16..].contains(&0);
    if header_cut || bytes.len() <= 16 {
        assert!(
            in_memory.1.is_err() && streamed.1.is_err(),
            "{} bytes",
            bytes.len()
        );
    } else {
        assert_eq!(in_memory.1, streamed.1, "{} bytes", bytes.len());
    }
    assert_eq!(in_memory.0.len(), streamed.0.len(), "{} bytes", bytes.len());
    for (a, b) in in_memory.0.iter().zip(&streamed.0) {
        assert_eq!(a, b, "{} bytes", bytes.len());
    }
}

#[test]
fn sample_prefixes_and_corruptions() {
    let sample = gamefmt::teehistorian::SAMPLE;
    for batch_rows in [1, 3, 65_536] {
        same(sample, batch_rows);
    }
    // Every prefix: the header cut, messages cut, FINISH missing.
    for len in 0..sample.len() {
        same(&sample[..len], 4);
    }
    // Each byte after the magic set to 0xFF, then to 0x00.
    for i in 16..sample.len() {
        for v in [0xFF, 0x00] {
            let mut bad = sample.to_vec();
            bad[i] = v;
            same(&bad, 4);
        }
    }
}

#[test]
fn corpus_recordings() {
    let Some(files) = common::corpus_files(TEST, "teeworlds/teehistorian", "teehistorian") else {
        return;
    };
    for (name, bytes) in files {
        eprintln!("{name}");
        same(&bytes, 1000);
    }
}

#[test]
fn other_formats_are_exported_as_by_export() {
    same(gamefmt::slippi::SAMPLE, 1);
}

/// The demo `messages` table's typed columns on the dm1 and ctf2 server
/// demos: as many kill rows as libtw2 decoded Sv_KillMsg messages
/// (`tests/data/netmsg_libtw2.tsv`); every kill the server logged in its
/// rcon lines (`game: kill killer='K:…' victim='V:…' weapon=W`, the
/// `text` of NETMSG_RCON_LINE rows) is a row with that tick, killer,
/// victim and weapon; every Sv_Chat row has its author and team; each
/// column is the core's serialized field of its name.
#[test]
fn demo_messages_typed_columns() {
    use arrow_array::Array;
    use arrow_array::cast::AsArray;
    use arrow_array::types::Int32Type;
    use gamefmt_arrow::table_reader;
    let Some(dir) = common::corpus_dir("demo_messages_typed") else {
        return;
    };
    let tsv = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/netmsg_libtw2.tsv"),
    )
    .unwrap();
    let mut checked = 0;
    for file in [
        "ddnet-server__dm1-30s-6bots-2dummies.demo",
        "ddnet-server__ctf2-2min-12bots-sigkill-truncated.demo",
    ] {
        let path = dir.join("teeworlds/demos").join(file);
        let Ok(bytes) = std::fs::read(&path) else {
            eprintln!("SKIPPED demo_messages_typed: {file} not in this corpus");
            continue;
        };
        let batches: Vec<RecordBatch> = table_reader(Cursor::new(bytes), Table::DemoMessages, 4096)
            .unwrap()
            // The SIGKILLed demo ends inside a chunk: what came before.
            .map_while(Result::ok)
            .collect();
        let mut kills = Vec::new();
        let mut logged = Vec::new();
        let mut chats = 0;
        for b in &batches {
            let int = |name: &str| {
                b.column_by_name(name)
                    .unwrap()
                    .as_primitive::<Int32Type>()
                    .clone()
            };
            let (tick, killer, victim, weapon) =
                (int("tick"), int("killer"), int("victim"), int("weapon"));
            let (client_id, team) = (int("client_id"), int("team"));
            let message = b
                .column_by_name("message")
                .unwrap()
                .as_string::<i32>()
                .clone();
            let text = b.column_by_name("text").unwrap().as_string::<i32>().clone();
            for row in 0..b.num_rows() {
                match message.value(row) {
                    "Sv_KillMsg" => kills.push((
                        tick.value(row),
                        killer.value(row),
                        victim.value(row),
                        weapon.value(row),
                    )),
                    "Sv_Chat" => {
                        assert!(client_id.is_valid(row) && team.is_valid(row));
                        chats += 1;
                    }
                    _ => assert!(killer.is_null(row) && victim.is_null(row)),
                }
                if message.value(row) != "NETMSG_RCON_LINE" || text.is_null(row) {
                    continue;
                }
                let line = text.value(row);
                let Some(rest) = line.split(" game: kill killer='").nth(1) else {
                    continue;
                };
                let num = |s: &str| s.split([':', ' ']).next().unwrap().parse::<i32>().unwrap();
                logged.push((
                    tick.value(row),
                    num(rest),
                    num(rest.split("victim='").nth(1).unwrap()),
                    num(rest.split("weapon=").nth(1).unwrap()),
                ));
            }
        }
        let libtw2 = |kind: &str| -> usize {
            tsv.lines()
                .map(|l| l.split('\t').collect::<Vec<_>>())
                .find(|c| c[0] == file && c[1] == kind)
                .map_or(0, |c| c[2].parse().unwrap())
        };
        assert_eq!(kills.len(), libtw2("SvKillMsg"), "{file}");
        assert_eq!(chats, libtw2("SvChat"), "{file}");
        assert!(!logged.is_empty(), "{file}");
        for kill in &logged {
            assert!(kills.contains(kill), "{file}: logged {kill:?}");
        }
        checked += 1;
    }
    let _ = checked;
}
