//! `gamefmt-arrow`: the files [`gamefmt`] decodes — Slippi replays,
//! DDNet teehistorian recordings, Teeworlds/DDNet demos and maps — as
//! Arrow record batches, and the Parquet or Arrow IPC datasets that
//! `gamefmt export` (the `gamefmt-cli` crate) writes through it.
//!
//! Every input is streamed through the `gamefmt` readers (maps, which are
//! small, are read whole); rows are handed over in batches of a bounded
//! number of rows, so memory stays flat whatever the input's size. One
//! decode of a file feeds all of its tables ([`export`]); [`table_reader`]
//! streams one table of one input as an Arrow [`RecordBatchReader`].
//!
//! ```
//! # fn main() -> Result<(), gamefmt_arrow::Error> {
//! use gamefmt_arrow::{Table, table_reader};
//!
//! let replay = std::io::Cursor::new(gamefmt::slippi::SAMPLE);
//! let frames = table_reader(replay, Table::SlippiFrames, 65_536)?;
//! let rows: usize = frames.map(|b| b.map(|b| b.num_rows())).sum::<Result<_, _>>()?;
//! assert_eq!(rows, 2); // one frame, two ports
//! # Ok(()) }
//! ```
//!
//! # Datasets
//!
//! `gamefmt export --to parquet OUT_DIR INPUTS...` writes the tables of its inputs to
//! `OUT_DIR/format=FORMAT/table=TABLE/part-NAME-NNNN.parquet` (Hive
//! layout: DuckDB, Polars and Spark read `OUT_DIR` as one dataset, with
//! `format` and `table` as partition columns); `--to arrow` writes Arrow
//! IPC files (`.arrow`) in the same layout. Each thread packs the inputs
//! it exports into Parquet part files of its own ([`PartWriter`]); a large
//! input, or any input written as Arrow IPC, gets parts of its own. Every table's first column,
//! `file`, names the input a row came from: join on it.
//!
//! ```sql
//! -- DuckDB: games won per character over a Slippi export
//! SELECT p1_character_name AS character, count(*) AS wins
//! FROM read_parquet('out/format=slippi/table=games/*.parquet')
//! WHERE list_contains(winner_ports, 1)
//! GROUP BY ALL ORDER BY wins DESC;
//! ```
//!
//! # Tables
//!
//! Every column is nullable: null where the file's version lacks the field
//! (Slippi events grew over the spec versions noted in brackets), or where
//! the file does not say.
#![doc = include_str!("../COLUMNS.md")]

mod columns;
mod demo;
mod error;
mod map;
pub mod netmsg;
mod slippi;
mod slippi_stats;
mod source;
mod teehistorian;
mod write;

use std::io::{Cursor, Read};
use std::sync::Arc;

pub use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_schema::{Schema, SchemaRef};
use gamefmt::Format;

use crate::source::{Source, Stepped, Threaded};

pub use error::Error;
pub use source::READ_BUFFER;
pub use write::{
    COLUMN_BYTES, Dataset, OutputFormat, PACK_BYTES, PAGE_BYTES, PART_BATCHES, PART_ROW_GROUPS,
    PartWriter, ROW_GROUP_BYTES, ROW_GROUP_ROWS, Written,
};

/// One table of the export: its format and name give its folder
/// (`format=FORMAT/table=NAME`), [`Table::schema`] its columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Table {
    /// Slippi `games`: one row per replay.
    SlippiGames,
    /// Slippi `frames`: one row per frame, port and follower.
    SlippiFrames,
    /// Slippi `items`: one row per item update.
    SlippiItems,
    /// Slippi `stocks`: one row per stock (stats, two-player games).
    SlippiStocks,
    /// Slippi `conversions`: one row per conversion (stats).
    SlippiConversions,
    /// Slippi `combos`: one row per combo (stats).
    SlippiCombos,
    /// Slippi `moves`: one row per move of a conversion or combo (stats).
    SlippiMoves,
    /// Slippi `action_counts`: one row per player (stats).
    SlippiActionCounts,
    /// Slippi `overall`: one row per player (stats, every game).
    SlippiOverall,
    /// teehistorian `games`: one row per recording, its header.
    TeehistorianGames,
    /// teehistorian `inputs`: one row per input sent.
    TeehistorianInputs,
    /// teehistorian `positions`: one row per character move, appearance
    /// and disappearance, with the absolute position.
    TeehistorianPositions,
    /// teehistorian `events`: joins, drops, names, console and chat
    /// commands, game messages, EX records.
    TeehistorianEvents,
    /// demo `snapshot_items`: one row per item of every reconstructed
    /// snapshot.
    DemoSnapshotItems,
    /// demo `messages`: one row per game or system message.
    DemoMessages,
    /// map `layers`: one row per layer.
    MapLayers,
    /// map `tiles`: one row per non-empty tile of a tile layer.
    MapTiles,
}

impl Table {
    /// Every table, grouped by format.
    #[must_use]
    pub const fn all() -> &'static [Self] {
        &[
            Self::SlippiGames,
            Self::SlippiFrames,
            Self::SlippiItems,
            Self::SlippiStocks,
            Self::SlippiConversions,
            Self::SlippiCombos,
            Self::SlippiMoves,
            Self::SlippiActionCounts,
            Self::SlippiOverall,
            Self::TeehistorianGames,
            Self::TeehistorianInputs,
            Self::TeehistorianPositions,
            Self::TeehistorianEvents,
            Self::DemoSnapshotItems,
            Self::DemoMessages,
            Self::MapLayers,
            Self::MapTiles,
        ]
    }

    /// The tables of one input format: the run of [`Table::all`] whose
    /// [`input_format`](Self::input_format) it is (`tests/arrow/registry.rs`
    /// holds every format's run non-empty and contiguous).
    #[must_use]
    pub fn of(format: Format) -> &'static [Self] {
        let all = Self::all();
        let first = all.iter().position(|t| t.input_format() == format);
        let last = all.iter().rposition(|t| t.input_format() == format);
        match (first, last) {
            (Some(first), Some(last)) => all.get(first..=last).unwrap_or_default(),
            _ => &[],
        }
    }

    /// The table's name (`games`, `frames`, ...), its folder's `table=`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::SlippiGames | Self::TeehistorianGames => "games",
            Self::SlippiFrames => "frames",
            Self::SlippiItems => "items",
            Self::SlippiStocks => "stocks",
            Self::SlippiConversions => "conversions",
            Self::SlippiCombos => "combos",
            Self::SlippiMoves => "moves",
            Self::SlippiActionCounts => "action_counts",
            Self::SlippiOverall => "overall",
            Self::TeehistorianInputs => "inputs",
            Self::TeehistorianPositions => "positions",
            Self::TeehistorianEvents => "events",
            Self::DemoSnapshotItems => "snapshot_items",
            Self::DemoMessages => "messages",
            Self::MapLayers => "layers",
            Self::MapTiles => "tiles",
        }
    }

    /// The input format (`slippi`, `teehistorian`, `demo`, `map`), its
    /// folder's `format=`.
    #[must_use]
    pub const fn format(self) -> &'static str {
        match self {
            Self::SlippiGames
            | Self::SlippiFrames
            | Self::SlippiItems
            | Self::SlippiStocks
            | Self::SlippiConversions
            | Self::SlippiCombos
            | Self::SlippiMoves
            | Self::SlippiActionCounts
            | Self::SlippiOverall => "slippi",
            Self::TeehistorianGames
            | Self::TeehistorianInputs
            | Self::TeehistorianPositions
            | Self::TeehistorianEvents => "teehistorian",
            Self::DemoSnapshotItems | Self::DemoMessages => "demo",
            Self::MapLayers | Self::MapTiles => "map",
        }
    }

    /// The `gamefmt` format the table comes from.
    #[must_use]
    pub const fn input_format(self) -> Format {
        match self {
            Self::SlippiGames
            | Self::SlippiFrames
            | Self::SlippiItems
            | Self::SlippiStocks
            | Self::SlippiConversions
            | Self::SlippiCombos
            | Self::SlippiMoves
            | Self::SlippiActionCounts
            | Self::SlippiOverall => Format::Slippi,
            Self::TeehistorianGames
            | Self::TeehistorianInputs
            | Self::TeehistorianPositions
            | Self::TeehistorianEvents => Format::Teehistorian,
            Self::DemoSnapshotItems | Self::DemoMessages => Format::Demo,
            Self::MapLayers | Self::MapTiles => Format::Datafile,
        }
    }

    /// The table's Arrow schema (the crate docs list its columns).
    #[must_use]
    pub fn schema(self) -> SchemaRef {
        Arc::new(Schema::new(
            self.columns()
                .into_iter()
                .map(|(name, ty, _)| arrow_schema::Field::new(name, ty, true))
                .collect::<Vec<_>>(),
        ))
    }

    /// Name, Arrow type and description of every column.
    #[must_use]
    pub fn columns(self) -> Vec<(&'static str, arrow_schema::DataType, &'static str)> {
        match self {
            Self::SlippiGames => slippi::Games::docs(),
            Self::SlippiFrames => slippi::Frames::docs(),
            Self::SlippiItems => slippi::Items::docs(),
            Self::SlippiStocks => slippi_stats::Stocks::docs(),
            Self::SlippiConversions => slippi_stats::Conversions::docs(),
            Self::SlippiCombos => slippi_stats::Combos::docs(),
            Self::SlippiMoves => slippi_stats::Moves::docs(),
            Self::SlippiActionCounts => slippi_stats::ActionCounts::docs(),
            Self::SlippiOverall => slippi_stats::Overall::docs(),
            Self::TeehistorianGames => teehistorian::Games::docs(),
            Self::TeehistorianInputs => teehistorian::Inputs::docs(),
            Self::TeehistorianPositions => teehistorian::Positions::docs(),
            Self::TeehistorianEvents => teehistorian::Events::docs(),
            Self::DemoSnapshotItems => demo::SnapshotItems::docs(),
            Self::DemoMessages => demo::Messages::docs(),
            Self::MapLayers => map::Layers::docs(),
            Self::MapTiles => map::Tiles::docs(),
        }
    }

    /// The column list of every table as Markdown: the crate docs'
    /// `COLUMNS.md` (a test checks they agree).
    #[must_use]
    pub fn markdown() -> String {
        let mut out = String::new();
        for table in Self::all() {
            out.push_str(&format!(
                "\n## `format={}/table={}`\n\n| column | type | meaning |\n|---|---|---|\n",
                table.format(),
                table.name()
            ));
            for (name, ty, doc) in table.columns() {
                out.push_str(&format!("| `{name}` | {ty} | {doc} |\n"));
            }
        }
        out
    }
}

/// How many leading bytes tell the format.
const HEAD: usize = 64;

/// Detects `input`'s format from its first bytes and opens the source of
/// the `tables` wanted (all of the format's when `None`), in batches of at
/// most `batch_rows` rows.
fn open(
    mut input: Box<dyn Read + Send>,
    file: Option<String>,
    tables: Option<&[Table]>,
    batch_rows: usize,
) -> Result<(Format, Box<dyn Source>), Error> {
    let mut head = Vec::with_capacity(HEAD);
    (&mut input).take(HEAD as u64).read_to_end(&mut head)?;
    let format = Format::detect(&head).ok_or(Error::UnknownFormat)?;
    let tables = tables.unwrap_or_else(|| Table::of(format));
    let input: Box<dyn Read + Send> = Box::new(Cursor::new(head).chain(input));
    let batch_rows = batch_rows.max(1);
    let source: Box<dyn Source> = match format {
        Format::Slippi => Box::new(Stepped::new(
            slippi::Slippi::new(input, file, tables, batch_rows),
            Table::of(format),
            batch_rows,
        )),
        Format::Teehistorian => Box::new(Stepped::new(
            teehistorian::Teehistorian::new(input, file, tables, batch_rows),
            Table::of(format),
            batch_rows,
        )),
        Format::Demo => Box::new(Stepped::new(
            demo::Demo::new(input, file, tables, batch_rows),
            Table::of(format),
            batch_rows,
        )),
        Format::Datafile => Box::new(Threaded::spawn(input, file, tables, batch_rows, map::run)),
        _ => return Err(Error::UnknownFormat),
    };
    Ok((format, source))
}

/// Decodes `input` once and hands every batch of each of its format's
/// tables to `sink`, in batches of at most `batch_rows` rows (a table's
/// rows are flushed when they reach it, and at the end); `file` fills the
/// `file` column. Returns the format detected.
///
/// # Errors
/// The input cannot be read, its format is unknown, it is invalid (with
/// the byte offset, [`Error::offset`]), or `sink` fails. Batches handed
/// over before the error stay handed over.
pub fn export<R: Read + Send + 'static>(
    input: R,
    file: Option<&str>,
    batch_rows: usize,
    sink: &mut dyn FnMut(Table, RecordBatch) -> Result<(), Error>,
) -> Result<Format, Error> {
    let (format, mut source) = open(Box::new(input), file.map(str::to_owned), None, batch_rows)?;
    while let Some((table, batch)) = source.next_batch()? {
        sink(table, batch)?;
    }
    Ok(format)
}

/// [`export`] for an input held in memory (`bytes`, or anything that
/// derefs to bytes: a `Vec<u8>`, an `Arc<[u8]>`): the same batches, in the
/// same order. A teehistorian recording is walked with the slice iterator
/// rather than a stream's refill loop (on a real recording, 248 instead of
/// 422 instructions a message, all tables built); other formats are read
/// as [`export`] reads them.
///
/// # Errors
/// As [`export`].
pub fn export_bytes<B: AsRef<[u8]> + Send + 'static>(
    bytes: B,
    file: Option<&str>,
    batch_rows: usize,
    sink: &mut dyn FnMut(Table, RecordBatch) -> Result<(), Error>,
) -> Result<Format, Error> {
    match Format::detect(bytes.as_ref()) {
        Some(Format::Teehistorian) => {
            let file = file.map(str::to_owned);
            teehistorian::export_in_memory(bytes.as_ref(), file, batch_rows.max(1), sink)?;
            Ok(Format::Teehistorian)
        }
        _ => export(Cursor::new(bytes), file, batch_rows, sink),
    }
}

/// Streams one table of one input: the input's format is detected from its
/// first bytes (it must be `table`'s), and batches of at most `batch_rows`
/// rows are decoded as they are read. The `file` column is null.
///
/// # Errors
/// The input cannot be read, its format is unknown or not the table's, or
/// (when reading a map, which is read whole) it is invalid. Later errors
/// come from the reader's iterator, as an [`arrow_schema::ArrowError::ExternalError`]
/// holding an [`Error`]; the reader ends after one.
pub fn table_reader<R: Read + Send + 'static>(
    input: R,
    table: Table,
    batch_rows: usize,
) -> Result<Box<dyn RecordBatchReader + Send>, Error> {
    table_reader_for_file(input, None, table, batch_rows)
}

/// [`table_reader`] with the `file` column set to `file`.
///
/// # Errors
/// As [`table_reader`].
pub fn table_reader_for_file<R: Read + Send + 'static>(
    input: R,
    file: Option<&str>,
    table: Table,
    batch_rows: usize,
) -> Result<Box<dyn RecordBatchReader + Send>, Error> {
    let tables = [table];
    let (format, source) = open(
        Box::new(input),
        file.map(str::to_owned),
        Some(&tables),
        batch_rows,
    )?;
    if format != table.input_format() {
        return Err(Error::WrongFormat {
            table,
            found: format,
        });
    }
    Ok(Box::new(TableReader {
        source,
        schema: table.schema(),
        done: false,
    }))
}

/// [`table_reader`]'s reader: the source's batches (of its one table).
struct TableReader {
    source: Box<dyn Source>,
    schema: SchemaRef,
    done: bool,
}

impl Iterator for TableReader {
    type Item = Result<RecordBatch, arrow_schema::ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.source.next_batch() {
            Ok(Some((_, batch))) => Some(Ok(batch)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(arrow_schema::ArrowError::ExternalError(Box::new(e))))
            }
        }
    }
}

impl RecordBatchReader for TableReader {
    fn schema(&self) -> SchemaRef {
        Arc::clone(&self.schema)
    }
}
