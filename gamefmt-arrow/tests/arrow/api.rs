//! The library API on the crate's own sample files (no corpus needed):
//! `table_reader` against the slice iterators' counts, one decode feeding
//! every table, errors with the core's byte offset, the Parquet and
//! Arrow IPC files of a `Dataset` read back (and their Parquet
//! statistics), and a refused input leaving no rows in them, packed with
//! other inputs or not.
#![allow(
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test"
)]

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Cursor;

use arrow_array::Array;
use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, UInt8Type};
use gamefmt::teehistorian::{Message, TeehistorianIter};
use gamefmt_arrow::{Dataset, Error, OutputFormat, RecordBatch, Table, export, table_reader};

fn batches(bytes: &'static [u8], table: Table, rows: usize) -> Vec<RecordBatch> {
    table_reader(Cursor::new(bytes), table, rows)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn rows(b: &[RecordBatch]) -> usize {
    b.iter().map(RecordBatch::num_rows).sum()
}

#[test]
fn slippi_sample_frames_and_games() {
    let view = gamefmt::slippi::SlippiView::parse(gamefmt::slippi::SAMPLE).unwrap();
    let frames = batches(gamefmt::slippi::SAMPLE, Table::SlippiFrames, 100);
    // One frame, two ports.
    assert_eq!(rows(&frames), 2);
    let ports = frames[0]
        .column_by_name("port")
        .unwrap()
        .as_primitive::<UInt8Type>();
    assert_eq!(ports.values().to_vec(), [1, 2]);
    let frame = frames[0]
        .column_by_name("frame")
        .unwrap()
        .as_primitive::<Int32Type>();
    assert_eq!(frame.value(0), -123);
    let games = batches(gamefmt::slippi::SAMPLE, Table::SlippiGames, 100);
    assert_eq!(rows(&games), 1);
    let stage = games[0].column_by_name("stage").unwrap();
    let want = view.game_start().unwrap().stage().unwrap();
    assert_eq!(
        stage
            .as_primitive::<arrow_array::types::UInt16Type>()
            .value(0),
        want
    );
    // The winners as SlippiView tells them (port 1).
    let winners = games[0]
        .column_by_name("winner_ports")
        .unwrap()
        .as_list::<i32>();
    let ports = winners.value(0);
    let ports: Vec<i32> = ports.as_primitive::<Int32Type>().values().to_vec();
    let want: Vec<i32> = view
        .winners()
        .iter()
        .map(|w| i32::from(w.player_index) + 1)
        .collect();
    assert_eq!(ports, want);
    assert!(games[0].column_by_name("file").unwrap().is_null(0));
}

#[test]
fn teehistorian_sample_counts_match_the_slice_iterator() {
    let sample = gamefmt::teehistorian::SAMPLE;
    let mut want: BTreeMap<&str, usize> = BTreeMap::new();
    for record in TeehistorianIter::new(sample).unwrap() {
        let key = match record.unwrap().message {
            Message::InputNew { .. } | Message::InputDiff { .. } => "inputs",
            Message::PlayerNew { .. } | Message::PlayerDiff { .. } | Message::PlayerOld { .. } => {
                "positions"
            }
            Message::TickSkip { .. } => continue,
            _ => "events",
        };
        *want.entry(key).or_default() += 1;
    }
    assert!(want["positions"] > 0 && want["events"] > 0, "{want:?}");
    for (table, key) in [
        (Table::TeehistorianPositions, "positions"),
        (Table::TeehistorianEvents, "events"),
        (Table::TeehistorianInputs, "inputs"),
    ] {
        // Batches of 7 rows: the last one holds the rest.
        let b = batches(sample, table, 7);
        assert_eq!(rows(&b), want.get(key).copied().unwrap_or(0), "{key}");
        assert!(b.iter().all(|b| b.num_rows() <= 7));
    }
}

#[test]
fn one_decode_feeds_every_table_of_the_format() {
    let mut seen: BTreeMap<Table, usize> = BTreeMap::new();
    let format = export(
        Cursor::new(gamefmt::teehistorian::SAMPLE),
        Some("sample"),
        1000,
        &mut |table, batch| {
            *seen.entry(table).or_default() += batch.num_rows();
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(format, gamefmt::Format::Teehistorian);
    for (&table, &n) in &seen {
        assert_eq!(table.format(), "teehistorian");
        assert_eq!(
            n,
            rows(&batches(gamefmt::teehistorian::SAMPLE, table, 1000))
        );
    }
    assert_eq!(seen.get(&Table::TeehistorianGames), Some(&1));
}

#[test]
fn errors_carry_the_core_offset() {
    // Damage to the sample (bytes of its events set to 0xFF): the same
    // error, at the same offset, as the slice iterator over the file in
    // memory finds.
    let mut damaged = 0;
    for i in 15..60 {
        let mut bad = gamefmt::slippi::SAMPLE.to_vec();
        bad[i] = 0xFF;
        let want = gamefmt::slippi::Frames::new(&bad)
            .find_map(Result::err)
            .map(|e| e.offset);
        let got = table_reader(Cursor::new(bad), Table::SlippiFrames, 10)
            .map_or_else(Some, |r| {
                r.filter_map(Result::err).next().map(|e| match e {
                    arrow_schema::ArrowError::ExternalError(e) => *e.downcast::<Error>().unwrap(),
                    e => panic!("{e}"),
                })
            })
            .and_then(|e| e.offset());
        assert_eq!(got, want, "byte {i}");
        damaged += usize::from(want.is_some());
    }
    assert!(damaged > 20, "{damaged}");
    assert!(matches!(
        table_reader(
            Cursor::new(b"nothing we know".to_vec()),
            Table::SlippiGames,
            10
        ),
        Err(Error::UnknownFormat)
    ));
    assert!(matches!(
        table_reader(Cursor::new(gamefmt::slippi::SAMPLE), Table::MapTiles, 10),
        Err(Error::WrongFormat { .. })
    ));
}

/// The batches of one Parquet or Arrow IPC file.
fn read_back(path: &std::path::Path, format: OutputFormat) -> Vec<RecordBatch> {
    let file = File::open(path).unwrap();
    match format {
        OutputFormat::Parquet => {
            parquet::arrow::arrow_reader::ParquetRecordBatchReader::try_new(file, 1 << 16)
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap()
        }
        OutputFormat::Arrow => arrow_ipc::reader::FileReader::try_new(file, None)
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap(),
    }
}

#[test]
fn parquet_and_arrow_files_hold_the_batches() {
    let dir = std::env::temp_dir().join(format!("gamefmt-arrow-api-{}", std::process::id()));
    let want = batches(
        gamefmt::teehistorian::SAMPLE,
        Table::TeehistorianPositions,
        1 << 16,
    );
    for format in [OutputFormat::Parquet, OutputFormat::Arrow] {
        let dataset = Dataset::new(&dir, format);
        let written = dataset
            .write(
                Cursor::new(gamefmt::teehistorian::SAMPLE),
                "sample",
                "p1",
                1 << 16,
            )
            .unwrap();
        assert_eq!(
            written.rows[&Table::TeehistorianPositions],
            rows(&want) as u64
        );
        let path = dataset.path(Table::TeehistorianPositions, "p1", 0);
        assert!(path.ends_with(format!(
            "format=teehistorian/table=positions/part-p1-0000.{}",
            format.extension()
        )));
        let got = read_back(&path, format);
        let got = arrow_select::concat::concat_batches(&got[0].schema(), &got).unwrap();
        let mut expected = arrow_select::concat::concat_batches(&want[0].schema(), &want).unwrap();
        // The file column is filled by the dataset, null from table_reader.
        let file = got.column(0).as_dictionary::<Int32Type>();
        assert_eq!(file.values().as_string::<i32>().value(0), "sample");
        assert!(file.keys().iter().all(|k| k == Some(0)));
        let columns: Vec<_> = (1..got.num_columns()).collect();
        expected = expected.project(&columns).unwrap();
        assert_eq!(got.project(&columns).unwrap(), expected);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The files under `dir` (recursively), by name.
fn file_names(dir: &std::path::Path) -> Vec<String> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            names.extend(file_names(&path));
        } else {
            names.push(path.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    names.sort();
    names
}

/// The `file` column of every row of `table` in the dataset, sorted.
fn files_of_rows(dataset: &Dataset, table: Table, name: &str, format: OutputFormat) -> Vec<String> {
    let folder = dataset.path(table, name, 0).parent().unwrap().to_owned();
    let mut files = Vec::new();
    for entry in std::fs::read_dir(folder).unwrap() {
        for batch in read_back(&entry.unwrap().path(), format) {
            // Dictionary-encoded, as the dataset writes it.
            let dictionary = batch.column(0).as_dictionary::<Int32Type>();
            let values = dictionary.values().as_string::<i32>();
            files.extend(
                dictionary
                    .keys()
                    .iter()
                    .map(|key| values.value(key.unwrap() as usize).to_owned()),
            );
        }
    }
    files.sort();
    files
}

#[test]
fn a_refused_input_leaves_no_rows_packed_or_not() {
    let sample = gamefmt::teehistorian::SAMPLE;
    // The sample damaged (a byte set to 0xFF) where rows come out before
    // the error.
    let bad = (1..sample.len())
        .rev()
        .map(|i| {
            let mut bad = sample.to_vec();
            bad[i] = 0xFF;
            bad
        })
        .find(|bad| {
            let mut handed = 0;
            let result = export(Cursor::new(bad.clone()), None, 1, &mut |_, batch| {
                handed += batch.num_rows();
                Ok(())
            });
            result.is_err() && handed > 0
        })
        .unwrap();
    for format in [OutputFormat::Parquet, OutputFormat::Arrow] {
        for pack in [gamefmt_arrow::PACK_BYTES, 0] {
            let dir = std::env::temp_dir().join(format!(
                "gamefmt-arrow-pack-{}-{pack}-{}",
                std::process::id(),
                format.extension()
            ));
            let dataset = Dataset::new(&dir, format);
            let mut writer = dataset.writer("w").pack_bytes(pack);
            let written = writer.write(Cursor::new(sample), "a", "a", 1).unwrap();
            assert!(
                writer
                    .write(Cursor::new(bad.clone()), "bad", "bad", 1)
                    .is_err()
            );
            writer.write(Cursor::new(sample), "b", "b", 1).unwrap();
            writer.finish().unwrap();
            // Packed: the writer's parts; spilled (nothing packed, and
            // never for Arrow IPC): each good input's own parts.
            let packed = pack > 0 && format == OutputFormat::Parquet;
            let parts: &[&str] = if packed { &["w"] } else { &["a", "b"] };
            for name in file_names(&dir) {
                assert!(
                    parts
                        .iter()
                        .any(|p| name.starts_with(&format!("part-{p}-"))),
                    "{name}"
                );
                assert!(name.ends_with(format.extension()), "{name}");
            }
            for (&table, &rows) in &written.rows {
                let want: Vec<String> = ["a", "b"]
                    .iter()
                    .flat_map(|f| std::iter::repeat_n((*f).to_owned(), rows as usize))
                    .collect();
                let got = files_of_rows(&dataset, table, "w", format);
                assert_eq!(got, want, "{table:?} {format:?} packing {pack}");
            }
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}

/// Parquet column chunks carry min/max statistics except floating-point
/// ones, and those of `frame` are the decoded frames' range.
#[test]
fn parquet_statistics_skip_only_float_columns() {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::file::statistics::Statistics;

    let dir = std::env::temp_dir().join(format!("gamefmt-arrow-stats-{}", std::process::id()));
    let dataset = Dataset::new(&dir, OutputFormat::Parquet);
    dataset
        .write(
            Cursor::new(gamefmt::slippi::SAMPLE),
            "sample",
            "s1",
            1 << 16,
        )
        .unwrap();
    let want = batches(gamefmt::slippi::SAMPLE, Table::SlippiFrames, 1 << 16);
    let frames: Vec<i32> = want
        .iter()
        .flat_map(|b| {
            b.column_by_name("frame")
                .unwrap()
                .as_primitive::<Int32Type>()
                .iter()
                .flatten()
                .collect::<Vec<_>>()
        })
        .collect();
    let path = dataset.path(Table::SlippiFrames, "s1", 0);
    let reader = SerializedFileReader::new(File::open(&path).unwrap()).unwrap();
    let schema = Table::SlippiFrames.schema();
    for group in reader.metadata().row_groups() {
        for (chunk, field) in group.columns().iter().zip(schema.fields()) {
            assert_eq!(
                chunk.statistics().is_some(),
                !field.data_type().is_floating(),
                "{}",
                field.name()
            );
            if field.name() == "frame" {
                let Some(Statistics::Int32(s)) = chunk.statistics() else {
                    panic!("frame statistics: {:?}", chunk.statistics());
                };
                assert_eq!(s.min_opt(), frames.iter().min());
                assert_eq!(s.max_opt(), frames.iter().max());
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
