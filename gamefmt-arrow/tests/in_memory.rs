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

#[path = "../../tests/common/mod.rs"]
mod common;

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
