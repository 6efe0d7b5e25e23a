//! How an input's rows become batches: [`Stepped`] sources decode one
//! record per step on the caller's thread (Slippi, teehistorian, demos:
//! the demo reconstructor owns its buffers), while [`Threaded`] ones run
//! a whole decode on a thread of their own and hand the batches over
//! through a bounded channel (maps, whose view borrows the whole file's
//! bytes for the walk).

use std::io::Read;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use arrow_array::RecordBatch;

use crate::columns::Rows;
use crate::{Error, Table};

/// An input's batches, one table's at a time, each of at most the
/// batch size asked for.
pub trait Source: Send {
    /// The next batch, `None` at the end; fused after an error.
    fn next_batch(&mut self) -> Result<Option<(Table, RecordBatch)>, Error>;
}

/// A decoder that appends one record's rows per step.
pub trait Steps: Send {
    /// Decodes the next record; `false` at the end of the input.
    fn step(&mut self) -> Result<bool, Error>;
    /// Rows of `table` decoded and not yet taken (0 for a table not
    /// wanted).
    fn pending(&self, table: Table) -> usize;
    /// Those rows as one batch (`None` for a table not wanted).
    fn take(&mut self, table: Table) -> Result<Option<RecordBatch>, Error>;
}

/// A [`Steps`] decoder batched: a table's rows are taken when they reach
/// the batch size, and whatever is left at the end.
pub struct Stepped<S> {
    inner: S,
    tables: &'static [Table],
    batch_rows: usize,
    done: bool,
}

impl<S: Steps> Stepped<S> {
    /// Batches `inner`'s `tables` by `batch_rows` rows.
    pub const fn new(inner: S, tables: &'static [Table], batch_rows: usize) -> Self {
        Self {
            inner,
            tables,
            batch_rows,
            done: false,
        }
    }
}

impl<S: Steps> Source for Stepped<S> {
    fn next_batch(&mut self) -> Result<Option<(Table, RecordBatch)>, Error> {
        loop {
            for &table in self.tables {
                let rows = self.inner.pending(table);
                if rows >= self.batch_rows || (self.done && rows > 0) {
                    return Ok(self.inner.take(table)?.map(|b| (table, b)));
                }
            }
            if self.done {
                return Ok(None);
            }
            match self.inner.step() {
                Ok(more) => self.done = !more,
                Err(e) => {
                    // Fused: the rows decoded before the error are dropped.
                    self.done = true;
                    self.tables = &[];
                    return Err(e);
                }
            }
        }
    }
}

/// Batches in flight between a [`Threaded`] decode and its reader.
const IN_FLIGHT: usize = 2;

/// Where a threaded decode sends its batches.
pub struct Emitter {
    send: SyncSender<Result<(Table, RecordBatch), Error>>,
    batch_rows: usize,
}

impl Emitter {
    /// The rows a batch holds.
    pub const fn batch_rows(&self) -> usize {
        self.batch_rows
    }

    /// Sends `table`'s rows once they reach the batch size (all of them
    /// with `all`).
    ///
    /// # Errors
    /// The batch cannot be built, or the reader is gone (the decode
    /// should stop).
    pub fn flush(
        &self,
        table: Table,
        rows: Option<&mut impl Rows>,
        all: bool,
    ) -> Result<(), Error> {
        let Some(rows) = rows else {
            return Ok(());
        };
        let n = rows.rows();
        if n >= self.batch_rows || (all && n > 0) {
            let batch = rows.batch(table.schema())?;
            self.send
                .send(Ok((table, batch)))
                .map_err(|_| Error::Io(std::io::ErrorKind::BrokenPipe.into()))?;
        }
        Ok(())
    }
}

/// A decode run on its own thread.
pub struct Threaded {
    batches: Receiver<Result<(Table, RecordBatch), Error>>,
    done: bool,
}

/// A threaded decode: reads the input, sends batches through the emitter.
pub type Run = fn(Box<dyn Read + Send>, Option<String>, &[Table], &Emitter) -> Result<(), Error>;

impl Threaded {
    /// Runs `run` over `input` on a new thread.
    pub fn spawn(
        input: Box<dyn Read + Send>,
        file: Option<String>,
        tables: &[Table],
        batch_rows: usize,
        run: Run,
    ) -> Self {
        let (send, batches) = sync_channel(IN_FLIGHT);
        let tables = tables.to_vec();
        std::thread::spawn(move || {
            let emit = Emitter { send, batch_rows };
            if let Err(e) = run(input, file, &tables, &emit) {
                // The reader may be gone already; nothing to tell then.
                let _ = emit.send.send(Err(e));
            }
        });
        Self {
            batches,
            done: false,
        }
    }
}

impl Source for Threaded {
    fn next_batch(&mut self) -> Result<Option<(Table, RecordBatch)>, Error> {
        if self.done {
            return Ok(None);
        }
        match self.batches.recv() {
            Ok(Ok(batch)) => Ok(Some(batch)),
            Ok(Err(e)) => {
                self.done = true;
                Err(e)
            }
            Err(_) => {
                self.done = true;
                Ok(None)
            }
        }
    }
}

/// The read buffer of the streamed Slippi and teehistorian decoders (the
/// export's, and the Python package's teehistorian records): a fixed
/// 1 MiB, four times the largest record they grow to by default, so that a
/// record is checked for wholeness ahead of its decode only in the
/// buffer's last stretch, not on every record of a 16 KiB one.
pub const READ_BUFFER: usize = 1 << 20;
