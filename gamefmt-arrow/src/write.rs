//! [`Dataset`]: a Hive-style folder of Parquet or Arrow IPC files, one
//! file per input and table:
//! `ROOT/format=FORMAT/table=TABLE/part-NAME.parquet` (or `.arrow`).
//!
//! Each file is written under a hidden temporary name and renamed when the
//! input is done, so readers of the folder (and a failed input) never
//! leave half a file behind.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{BufWriter, Read};
use std::path::{Path, PathBuf};

use arrow::ipc::writer::FileWriter;
use arrow::record_batch::RecordBatch;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::{EnabledStatistics, WriterProperties};

use crate::{Error, Table, export};

/// The files a [`Dataset`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// Parquet (Snappy-compressed), `.parquet`.
    Parquet,
    /// Arrow IPC files, `.arrow`.
    Arrow,
}

impl OutputFormat {
    /// The files' extension.
    #[must_use]
    pub const fn extension(self) -> &'static str {
        match self {
            Self::Parquet => "parquet",
            Self::Arrow => "arrow",
        }
    }
}

/// Rows a Parquet row group holds at most.
pub const ROW_GROUP_ROWS: usize = 1 << 17;
/// Encoded bytes a Parquet row group holds at most: the writer keeps the
/// open row group in memory, so this (with small pages) bounds it.
pub const ROW_GROUP_BYTES: usize = 1 << 20;
/// Bytes a Parquet data or dictionary page holds at most (one of each is
/// open per column while writing).
pub const PAGE_BYTES: usize = 64 << 10;

/// Rows a part file holds at least before the next one starts (each file
/// of a Parquet writer keeps its row groups' metadata until it closes).
pub const PART_ROWS: u64 = 1 << 20;

/// One table's open part file.
struct Open {
    tmp: PathBuf,
    path: PathBuf,
    writer: Writer,
    rows: u64,
    seq: u32,
}

/// One table's file being written.
enum Writer {
    Parquet(ArrowWriter<BufWriter<File>>),
    Arrow(FileWriter<BufWriter<File>>),
}

impl Writer {
    fn create(path: &Path, table: Table, format: OutputFormat) -> Result<Self, Error> {
        let file = BufWriter::new(File::create(path)?);
        let schema = table.schema();
        Ok(match format {
            OutputFormat::Parquet => {
                let props = WriterProperties::builder()
                    .set_compression(Compression::SNAPPY)
                    .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
                    .set_max_row_group_bytes(Some(ROW_GROUP_BYTES))
                    .set_data_page_size_limit(PAGE_BYTES)
                    .set_dictionary_page_size_limit(PAGE_BYTES)
                    .set_dictionary_enabled(false)
                    .set_column_dictionary_enabled("file".into(), true)
                    .set_statistics_enabled(EnabledStatistics::Chunk)
                    .build();
                Self::Parquet(ArrowWriter::try_new(file, schema, Some(props))?)
            }
            OutputFormat::Arrow => Self::Arrow(FileWriter::try_new(file, &schema)?),
        })
    }

    fn write(&mut self, batch: &RecordBatch) -> Result<(), Error> {
        match self {
            Self::Parquet(w) => w.write(batch)?,
            Self::Arrow(w) => w.write(batch)?,
        }
        Ok(())
    }

    fn close(self) -> Result<(), Error> {
        match self {
            Self::Parquet(w) => {
                w.close()?;
            }
            Self::Arrow(mut w) => w.finish()?,
        }
        Ok(())
    }
}

/// What [`Dataset::write`] wrote for one input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// Rows per table.
    pub rows: BTreeMap<Table, u64>,
}

/// A dataset folder being written.
#[derive(Clone, Debug)]
pub struct Dataset {
    root: PathBuf,
    format: OutputFormat,
}

impl Dataset {
    /// A dataset under `root` (created as needed) of `format` files.
    #[must_use]
    pub fn new(root: impl Into<PathBuf>, format: OutputFormat) -> Self {
        Self {
            root: root.into(),
            format,
        }
    }

    /// Where file `seq` (from 0) of `table`'s part `part` goes.
    #[must_use]
    pub fn path(&self, table: Table, part: &str, seq: u32) -> PathBuf {
        self.folder(table)
            .join(format!("part-{part}-{seq:04}.{}", self.format.extension()))
    }

    fn folder(&self, table: Table) -> PathBuf {
        self.root
            .join(format!("format={}", table.format()))
            .join(format!("table={}", table.name()))
    }

    /// Decodes `input` once ([`export`]) and writes each of its tables to
    /// its parts `part-PART-0000.EXT`, `-0001`, ... (`part` is a name no
    /// other input of the dataset uses; a new part starts every
    /// [`PART_ROWS`] rows, so that a writer's metadata stays bounded
    /// whatever the input's size), in batches of `batch_rows` rows; `file`
    /// fills the `file` column. A table without rows gets no file.
    ///
    /// # Errors
    /// As [`export`], or a file cannot be written; the input's files are
    /// then removed.
    pub fn write<R: Read + Send + 'static>(
        &self,
        input: R,
        file: &str,
        part: &str,
        batch_rows: usize,
    ) -> Result<Written, Error> {
        let mut open: BTreeMap<Table, Open> = BTreeMap::new();
        // Finished files, still under their temporary names.
        let mut closed: Vec<(PathBuf, PathBuf)> = Vec::new();
        let mut written = Written::default();
        let result = export(input, Some(file), batch_rows, &mut |table, batch| {
            let n = u64::try_from(batch.num_rows()).unwrap_or(u64::MAX);
            let rows = written.rows.entry(table).or_default();
            *rows = rows.saturating_add(n);
            let full = open.get(&table).is_some_and(|o| o.rows >= PART_ROWS);
            let seq = match open.remove(&table) {
                Some(o) if full => {
                    o.writer.close()?;
                    closed.push((o.tmp, o.path));
                    o.seq.saturating_add(1)
                }
                Some(o) => {
                    open.insert(table, o);
                    0
                }
                None => 0,
            };
            let o = match open.entry(table) {
                std::collections::btree_map::Entry::Occupied(o) => o.into_mut(),
                std::collections::btree_map::Entry::Vacant(v) => {
                    let folder = self.folder(table);
                    fs::create_dir_all(&folder)?;
                    let tmp = folder.join(format!(".part-{part}-{seq:04}.tmp"));
                    let writer = Writer::create(&tmp, table, self.format)?;
                    v.insert(Open {
                        tmp,
                        path: self.path(table, part, seq),
                        writer,
                        rows: 0,
                        seq,
                    })
                }
            };
            o.rows = o.rows.saturating_add(n);
            o.writer.write(&batch)
        });
        let mut outcome = result.map(|_| ());
        for o in open.into_values() {
            if outcome.is_ok() {
                outcome = o.writer.close();
            }
            closed.push((o.tmp, o.path));
        }
        for (tmp, path) in closed {
            let renamed = match outcome {
                Ok(()) => fs::rename(&tmp, path).map_err(Error::from),
                Err(_) => fs::remove_file(&tmp).map_err(Error::from),
            };
            if outcome.is_ok() {
                outcome = renamed;
            }
        }
        outcome.map(|()| written)
    }
}
