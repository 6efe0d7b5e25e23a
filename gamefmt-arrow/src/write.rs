//! [`Dataset`]: a Hive-style folder of Parquet or Arrow IPC files,
//! `ROOT/format=FORMAT/table=TABLE/part-NAME-NNNN.parquet` (or `.arrow`),
//! written by [`PartWriter`]s, one per thread.
//!
//! A Parquet part file holds many inputs: each input's rows are encoded in
//! memory first (as row groups) and appended to the writer's open parts
//! only once the input has decoded fully, so a refused input leaves no
//! rows behind. An input whose encoded rows outgrow [`PACK_BYTES`] gets
//! part files of its own instead, streamed (written under hidden temporary
//! names and renamed when the input is done), and so does every input
//! written as Arrow IPC (an IPC file holds one dictionary per column, and
//! the `file` column's differs between inputs). A part closes after
//! [`PART_ROW_GROUPS`] row groups: a Parquet writer keeps every row
//! group's metadata until its file closes, so this bounds memory whatever
//! the input's size.
//!
//! ```
//! # fn main() -> Result<(), gamefmt_arrow::Error> {
//! use gamefmt_arrow::{Dataset, OutputFormat, Table};
//!
//! let root = std::env::temp_dir().join(format!("gamefmt-doc-{}", std::process::id()));
//! let dataset = Dataset::new(&root, OutputFormat::Parquet);
//! let mut writer = dataset.writer("w0");
//! let replay = std::io::Cursor::new(gamefmt::slippi::SAMPLE);
//! let written = writer.write(replay, "sample.slp", "sample", 8192)?;
//! assert_eq!(written.rows[&Table::SlippiFrames], 2);
//! writer.finish()?;
//! assert!(dataset.path(Table::SlippiFrames, "w0", 0).exists());
//! # std::fs::remove_dir_all(root)?;
//! # Ok(()) }
//! ```

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{BufWriter, Read};
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use arrow_ipc::writer::FileWriter;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_writer::{
    ArrowColumnChunk, ArrowColumnWriter, ArrowRowGroupWriterFactory, compute_leaves,
};
use parquet::basic::Compression;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;

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
/// Bytes a Parquet data or dictionary page holds at most (one of each is
/// open per column while writing; a row group's close cuts them short).
pub const PAGE_BYTES: usize = 64 << 10;
/// Encoded bytes per column a Parquet row group of many columns holds at
/// least before it closes (see [`ROW_GROUP_BYTES`]).
pub const COLUMN_BYTES: usize = 24 << 10;
/// Encoded bytes a Parquet row group holds at least before it closes
/// (while open it is kept in memory); tables of many columns get
/// [`COLUMN_BYTES`] per column.
pub const ROW_GROUP_BYTES: usize = 128 << 10;
/// Row groups a Parquet part file holds at most.
pub const PART_ROW_GROUPS: usize = 16;
/// Batches an Arrow IPC part file holds at most (it keeps only their
/// offsets until it closes).
pub const PART_BATCHES: usize = 1024;
/// Encoded bytes of one input kept in memory, to be packed with other
/// inputs' rows once it has decoded fully; past this the input gets part
/// files of its own.
pub const PACK_BYTES: usize = 2 << 20;

/// Rows handed to the Parquet encoder at a time, so that a row group
/// closes near its byte bound whatever the batch size.
const SLICE_ROWS: usize = 1024;

/// The Parquet writer's settings for `table`: min/max statistics per
/// column chunk, except for floating-point columns (positions, speeds,
/// percents), whose ranges are wide in every row group, so that a reader
/// skips no row group by them (and computing them took about a tenth of
/// the export's time).
fn properties(table: Table) -> WriterProperties {
    let builder = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_max_row_group_row_count(None)
        .set_max_row_group_bytes(None)
        .set_data_page_size_limit(PAGE_BYTES)
        .set_dictionary_page_size_limit(PAGE_BYTES)
        .set_dictionary_enabled(false)
        .set_column_dictionary_enabled("file".into(), true)
        .set_statistics_enabled(EnabledStatistics::Chunk);
    table
        .schema()
        .fields()
        .iter()
        .filter(|f| f.data_type().is_floating())
        .fold(builder, |b, f| {
            b.set_column_statistics_enabled(f.name().as_str().into(), EnabledStatistics::None)
        })
        .build()
}

/// A Parquet file writer for `table` over `out`, and the factory of its
/// row groups' column writers.
fn parquet_writer<W: std::io::Write + Send>(
    out: W,
    table: Table,
) -> Result<(SerializedFileWriter<W>, ArrowRowGroupWriterFactory), Error> {
    Ok(
        ArrowWriter::try_new(out, table.schema(), Some(properties(table)))?
            .into_serialized_writer()?,
    )
}

/// A finished piece of a table: one Parquet row group's encoded column
/// chunks, or one Arrow IPC batch.
enum Group {
    Parquet(Vec<ArrowColumnChunk>),
    Arrow(RecordBatch),
}

/// One table's part file being written, under its temporary name.
struct Part {
    tmp: PathBuf,
    path: PathBuf,
    file: PartFile,
    groups: usize,
}

/// A part file's writer.
enum PartFile {
    Parquet(SerializedFileWriter<BufWriter<File>>),
    Arrow(FileWriter<BufWriter<File>>),
}

impl Part {
    /// Creates `path`'s temporary file, `.NAME.tmp` beside it.
    fn create(path: PathBuf, table: Table, format: OutputFormat) -> Result<Self, Error> {
        let folder = path.parent().unwrap_or_else(|| Path::new("."));
        fs::create_dir_all(folder)?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = folder.join(format!(".{name}.tmp"));
        let out = BufWriter::new(File::create(&tmp)?);
        let file = match format {
            OutputFormat::Parquet => PartFile::Parquet(parquet_writer(out, table)?.0),
            OutputFormat::Arrow => PartFile::Arrow(FileWriter::try_new(out, &table.schema())?),
        };
        Ok(Self {
            tmp,
            path,
            file,
            groups: 0,
        })
    }

    fn append(&mut self, group: Group) -> Result<(), Error> {
        match (&mut self.file, group) {
            (PartFile::Parquet(w), Group::Parquet(chunks)) => {
                let mut row_group = w.next_row_group()?;
                for chunk in chunks {
                    chunk.append_to_row_group(&mut row_group)?;
                }
                row_group.close()?;
            }
            (PartFile::Arrow(w), Group::Arrow(batch)) => w.write(&batch)?,
            // A dataset writes one format; nothing builds the other's groups.
            _ => return Err(Error::Io(std::io::ErrorKind::InvalidInput.into())),
        }
        self.groups = self.groups.saturating_add(1);
        Ok(())
    }

    const fn full(&self) -> bool {
        match self.file {
            PartFile::Parquet(_) => self.groups >= PART_ROW_GROUPS,
            PartFile::Arrow(_) => self.groups >= PART_BATCHES,
        }
    }

    /// Finishes the file (still under its temporary name).
    fn close(self) -> Result<(), Error> {
        match self.file {
            PartFile::Parquet(w) => {
                w.close()?;
            }
            PartFile::Arrow(mut w) => w.finish()?,
        }
        Ok(())
    }
}

/// The open part files of one table and their names.
struct Parts {
    open: Option<Part>,
    seq: u32,
}

impl Parts {
    const fn new() -> Self {
        Self { open: None, seq: 0 }
    }

    /// Appends `group` to the open part (`dataset.path(table, name, seq)`,
    /// created as needed); a full part's names are pushed to `closed` and
    /// it is closed.
    fn append(
        &mut self,
        dataset: &Dataset,
        table: Table,
        name: &str,
        group: Group,
        closed: &mut Vec<(PathBuf, PathBuf)>,
    ) -> Result<(), Error> {
        let part = match &mut self.open {
            Some(part) => part,
            none => {
                let path = dataset.path(table, name, self.seq);
                self.seq = self.seq.saturating_add(1);
                none.insert(Part::create(path, table, dataset.format)?)
            }
        };
        part.append(group)?;
        if part.full()
            && let Some(part) = self.open.take()
        {
            closed.push((part.tmp.clone(), part.path.clone()));
            part.close()?;
        }
        Ok(())
    }
}

/// One table's row group being encoded.
struct Encoder {
    writers: Vec<ArrowColumnWriter>,
    rows: usize,
}

impl Encoder {
    fn bytes(&self) -> usize {
        self.writers
            .iter()
            .map(ArrowColumnWriter::get_estimated_total_bytes)
            .fold(0, usize::saturating_add)
    }

    /// The bytes at which the row group closes.
    fn limit(&self) -> usize {
        self.writers
            .len()
            .saturating_mul(COLUMN_BYTES)
            .max(ROW_GROUP_BYTES)
    }

    fn write(&mut self, batch: &RecordBatch) -> Result<(), Error> {
        let mut writers = self.writers.iter_mut();
        for (field, column) in batch.schema_ref().fields().iter().zip(batch.columns()) {
            for leaf in compute_leaves(field, column)? {
                let writer = writers
                    .next()
                    .ok_or(Error::Io(std::io::ErrorKind::InvalidInput.into()))?;
                writer.write(&leaf)?;
            }
        }
        self.rows = self.rows.saturating_add(batch.num_rows());
        Ok(())
    }

    /// The row group's column chunks, and their bytes as written (the
    /// estimate while open counts open pages before compression).
    fn finish(self) -> Result<(Group, usize), Error> {
        let chunks: Vec<ArrowColumnChunk> = self
            .writers
            .into_iter()
            .map(ArrowColumnWriter::close)
            .collect::<Result<_, _>>()?;
        let bytes = chunks
            .iter()
            .map(|c| c.close().bytes_written)
            .fold(0, u64::saturating_add);
        let bytes = usize::try_from(bytes).unwrap_or(usize::MAX);
        Ok((Group::Parquet(chunks), bytes))
    }
}

/// One table of the input being written.
#[derive(Default)]
struct Pending {
    encoder: Option<Encoder>,
    /// Finished groups not in a file yet (until the input spills).
    groups: Vec<Group>,
    /// The input's own parts, once it spilled.
    own: Option<Parts>,
}

/// One input being written by a [`PartWriter`].
struct Input<'a> {
    dataset: &'a Dataset,
    factories: &'a mut BTreeMap<Table, ArrowRowGroupWriterFactory>,
    /// The name of the input's own parts.
    part: &'a str,
    /// Encoded bytes packed at most.
    pack: usize,
    tables: BTreeMap<Table, Pending>,
    /// Encoded bytes held in `tables`' groups.
    bytes: usize,
    /// Whether the input writes to parts of its own.
    spilled: bool,
    /// The input's own files, closed or not, under their temporary names.
    closed: Vec<(PathBuf, PathBuf)>,
}

impl Input<'_> {
    /// Encodes one batch of `table`.
    fn batch(&mut self, table: Table, batch: RecordBatch) -> Result<(), Error> {
        if self.dataset.format == OutputFormat::Arrow {
            let bytes = batch.get_array_memory_size();
            return self.finished(table, Group::Arrow(batch), bytes);
        }
        let n = batch.num_rows();
        let mut offset = 0;
        while offset < n {
            let len = SLICE_ROWS.min(n.saturating_sub(offset));
            let pending = self.tables.entry(table).or_default();
            let encoder = match &mut pending.encoder {
                Some(encoder) => encoder,
                none => none.insert(Encoder {
                    writers: factory(self.factories, table)?.create_column_writers(0)?,
                    rows: 0,
                }),
            };
            encoder.write(&batch.slice(offset, len))?;
            offset = offset.saturating_add(len);
            if (encoder.rows >= ROW_GROUP_ROWS || encoder.bytes() >= encoder.limit())
                && let Some(encoder) = pending.encoder.take()
            {
                let (group, bytes) = encoder.finish()?;
                self.finished(table, group, bytes)?;
            }
        }
        Ok(())
    }

    /// Keeps a finished group of `table` in memory, or writes it to the
    /// input's own parts once it spilled (spilling when the groups kept
    /// outgrow the bound).
    fn finished(&mut self, table: Table, group: Group, bytes: usize) -> Result<(), Error> {
        if self.spilled {
            return self.own(table, group);
        }
        self.tables.entry(table).or_default().groups.push(group);
        self.bytes = self.bytes.saturating_add(bytes);
        if self.bytes > self.pack {
            self.spilled = true;
            let tables: Vec<Table> = self.tables.keys().copied().collect();
            for table in tables {
                let groups = self
                    .tables
                    .get_mut(&table)
                    .map(|p| std::mem::take(&mut p.groups))
                    .unwrap_or_default();
                for group in groups {
                    self.own(table, group)?;
                }
            }
        }
        Ok(())
    }

    fn own(&mut self, table: Table, group: Group) -> Result<(), Error> {
        let pending = self.tables.entry(table).or_default();
        pending.own.get_or_insert_with(Parts::new).append(
            self.dataset,
            table,
            self.part,
            group,
            &mut self.closed,
        )
    }

    /// The input decoded fully: finishes its open row groups, and closes
    /// its own parts.
    fn end(&mut self) -> Result<(), Error> {
        let tables: Vec<Table> = self.tables.keys().copied().collect();
        for &table in &tables {
            if let Some(encoder) = self.tables.get_mut(&table).and_then(|p| p.encoder.take()) {
                let (group, bytes) = encoder.finish()?;
                self.finished(table, group, bytes)?;
            }
        }
        for pending in self.tables.values_mut() {
            if let Some(part) = pending.own.as_mut().and_then(|own| own.open.take()) {
                self.closed.push((part.tmp.clone(), part.path.clone()));
                part.close()?;
            }
        }
        Ok(())
    }
}

/// `table`'s column writer factory (made once per writer).
fn factory(
    factories: &mut BTreeMap<Table, ArrowRowGroupWriterFactory>,
    table: Table,
) -> Result<&ArrowRowGroupWriterFactory, Error> {
    Ok(match factories.entry(table) {
        std::collections::btree_map::Entry::Occupied(f) => f.into_mut(),
        std::collections::btree_map::Entry::Vacant(v) => {
            v.insert(parquet_writer(std::io::sink(), table)?.1)
        }
    })
}

/// What [`PartWriter::write`] wrote for one input.
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

    /// Where file `seq` (from 0) of `table`'s parts named `name` goes:
    /// `ROOT/format=FORMAT/table=TABLE/part-NAME-NNNN.EXT`.
    #[must_use]
    pub fn path(&self, table: Table, name: &str, seq: u32) -> PathBuf {
        self.root
            .join(format!("format={}", table.format()))
            .join(format!("table={}", table.name()))
            .join(format!("part-{name}-{seq:04}.{}", self.format.extension()))
    }

    /// A writer of parts named `name` (a name no other writer of the
    /// dataset uses: one per thread).
    #[must_use]
    pub fn writer(&self, name: &str) -> PartWriter {
        PartWriter {
            dataset: self.clone(),
            name: name.to_owned(),
            parts: BTreeMap::new(),
            factories: BTreeMap::new(),
            pack: PACK_BYTES,
        }
    }

    /// Writes one input to parts of its own named `part` ([`PartWriter::write`]
    /// then [`PartWriter::finish`]).
    ///
    /// # Errors
    /// As those.
    pub fn write<R: Read + Send + 'static>(
        &self,
        input: R,
        file: &str,
        part: &str,
        batch_rows: usize,
    ) -> Result<Written, Error> {
        let mut writer = self.writer(part);
        let written = writer.write(input, file, part, batch_rows)?;
        writer.finish()?;
        Ok(written)
    }
}

/// Writes inputs into a [`Dataset`], packing their rows into its own open
/// part files (`part-NAME-NNNN.EXT`, a new one every [`PART_ROW_GROUPS`]
/// row groups). The rows are in the dataset once [`PartWriter::finish`]
/// returns; a writer dropped unfinished removes its open parts.
pub struct PartWriter {
    dataset: Dataset,
    name: String,
    parts: BTreeMap<Table, Parts>,
    /// Column writer factories, per table (Parquet).
    factories: BTreeMap<Table, ArrowRowGroupWriterFactory>,
    /// Encoded bytes of an input packed at most.
    pack: usize,
}

impl PartWriter {
    /// Packs an input's rows only while they take at most `bytes` encoded
    /// ([`PACK_BYTES`] unless set): the memory each input may hold. (Arrow
    /// IPC inputs are never packed.)
    #[must_use]
    pub const fn pack_bytes(mut self, bytes: usize) -> Self {
        self.pack = bytes;
        self
    }

    /// Decodes `input` once ([`export`]) and writes each of its tables, in
    /// batches of `batch_rows` rows; `file` fills the `file` column. Its
    /// rows go to this writer's parts when they fit in [`PACK_BYTES`]
    /// encoded ([`PartWriter::pack_bytes`]), to parts of their own named
    /// `part` otherwise
    /// (`part-PART-NNNN.EXT`: a name no other input of the dataset uses).
    ///
    /// # Errors
    /// As [`export`], or a file cannot be written; none of the input's
    /// rows are then written (an I/O error writing this writer's parts
    /// may also lose the rows of earlier inputs in them).
    pub fn write<R: Read + Send + 'static>(
        &mut self,
        input: R,
        file: &str,
        part: &str,
        batch_rows: usize,
    ) -> Result<Written, Error> {
        let mut written = Written::default();
        let mut state = Input {
            dataset: &self.dataset,
            factories: &mut self.factories,
            part,
            // An Arrow IPC file holds one dictionary per column, and the
            // `file` column's differs between inputs: they are not packed.
            pack: match self.dataset.format {
                OutputFormat::Parquet => self.pack,
                OutputFormat::Arrow => 0,
            },
            tables: BTreeMap::new(),
            bytes: 0,
            spilled: false,
            closed: Vec::new(),
        };
        let result = export(input, Some(file), batch_rows, &mut |table, batch| {
            let rows = written.rows.entry(table).or_default();
            *rows = rows.saturating_add(u64::try_from(batch.num_rows()).unwrap_or(u64::MAX));
            state.batch(table, batch)
        })
        .and_then(|_| state.end());
        let Input {
            mut tables,
            spilled,
            mut closed,
            ..
        } = state;
        if result.is_err() {
            for pending in tables.values_mut() {
                if let Some(part) = pending.own.as_mut().and_then(|own| own.open.take()) {
                    closed.push((part.tmp, part.path));
                }
            }
        }
        let mut outcome = result;
        for (tmp, path) in closed {
            let done = match outcome {
                Ok(()) => fs::rename(&tmp, path).map_err(Error::from),
                Err(_) => fs::remove_file(&tmp).map_err(Error::from),
            };
            if outcome.is_ok() {
                outcome = done;
            }
        }
        outcome?;
        if !spilled {
            for (table, pending) in tables {
                for group in pending.groups {
                    self.append(table, group)?;
                }
            }
        }
        Ok(written)
    }

    /// Appends `group` to this writer's part of `table`; on an error the
    /// part is removed.
    fn append(&mut self, table: Table, group: Group) -> Result<(), Error> {
        let mut closed = Vec::new();
        let parts = self.parts.entry(table).or_insert_with(Parts::new);
        let outcome = parts.append(&self.dataset, table, &self.name, group, &mut closed);
        if let Err(e) = outcome {
            if let Some(part) = parts.open.take() {
                closed.push((part.tmp, part.path));
            }
            for (tmp, _) in closed {
                let _ = fs::remove_file(tmp);
            }
            return Err(e);
        }
        for (tmp, path) in closed {
            fs::rename(tmp, path)?;
        }
        Ok(())
    }

    /// Closes this writer's open parts and gives them their names.
    ///
    /// # Errors
    /// A file cannot be written or renamed.
    pub fn finish(mut self) -> Result<(), Error> {
        let mut outcome = Ok(());
        for parts in self.parts.values_mut() {
            if let Some(part) = parts.open.take() {
                let (tmp, path) = (part.tmp.clone(), part.path.clone());
                let done = part
                    .close()
                    .and_then(|()| fs::rename(&tmp, path).map_err(Error::from));
                if done.is_err() {
                    let _ = fs::remove_file(tmp);
                }
                if outcome.is_ok() {
                    outcome = done;
                }
            }
        }
        outcome
    }
}

impl Drop for PartWriter {
    fn drop(&mut self) {
        for parts in self.parts.values_mut() {
            if let Some(part) = parts.open.take() {
                // Best effort: an unfinished writer leaves no files.
                let _ = fs::remove_file(part.tmp);
            }
        }
    }
}
