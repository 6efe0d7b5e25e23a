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
use parquet::file::properties::WriterProperties;

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

/// Rows a Parquet row group holds at most (with the batches of
/// [`Dataset::write`], this bounds the writer's memory).
pub const ROW_GROUP_ROWS: usize = 1 << 17;

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

    /// Where `table`'s part `part` goes.
    #[must_use]
    pub fn path(&self, table: Table, part: &str) -> PathBuf {
        self.folder(table)
            .join(format!("part-{part}.{}", self.format.extension()))
    }

    fn folder(&self, table: Table) -> PathBuf {
        self.root
            .join(format!("format={}", table.format()))
            .join(format!("table={}", table.name()))
    }

    /// Decodes `input` once ([`export`]) and writes each of its tables to
    /// its part `part` (a name no other input of the dataset uses), in
    /// batches of `batch_rows` rows; `file` fills the `file` column. A
    /// table without rows gets no file.
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
        let mut writers: BTreeMap<Table, (PathBuf, Writer)> = BTreeMap::new();
        let mut written = Written::default();
        let result = export(input, Some(file), batch_rows, &mut |table, batch| {
            let rows = written.rows.entry(table).or_default();
            *rows = rows.saturating_add(u64::try_from(batch.num_rows()).unwrap_or(u64::MAX));
            if let Some((_, w)) = writers.get_mut(&table) {
                return w.write(&batch);
            }
            let folder = self.folder(table);
            fs::create_dir_all(&folder)?;
            let tmp = folder.join(format!(".part-{part}.tmp"));
            let mut w = Writer::create(&tmp, table, self.format)?;
            w.write(&batch)?;
            writers.insert(table, (tmp, w));
            Ok(())
        });
        let mut outcome = result.map(|_| ());
        let mut done = Vec::new();
        for (table, (tmp, w)) in writers {
            if outcome.is_ok() {
                outcome = w.close();
            }
            done.push((table, tmp));
        }
        for (table, tmp) in done {
            let renamed = match outcome {
                Ok(()) => fs::rename(&tmp, self.path(table, part)).map_err(Error::from),
                Err(_) => fs::remove_file(&tmp).map_err(Error::from),
            };
            if outcome.is_ok() {
                outcome = renamed;
            }
        }
        outcome.map(|()| written)
    }
}
