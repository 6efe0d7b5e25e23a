//! [`Reader`]: `.slp` events from any `io::Read`, with one fixed buffer.

use std::boxed::Box;
use std::io::{self, Read};
use std::vec;

use crate::error::{Error, ErrorKind};

use super::decoder::{Decoded, Decoder, Ending, Step, record};

/// Default buffer size: twice the largest possible event (1 + 65 535 bytes).
pub const DEFAULT_BUFFER: usize = 1 << 17;

/// Reads a `.slp` stream from `R` through one fixed buffer (memory stays
/// constant whatever the file size) and lends one record at a time.
///
/// Decode errors come back as `io::Error` of kind `InvalidData` wrapping the
/// crate's [`Error`] (get it with `get_ref()` and `downcast_ref`). After
/// `Ok(None)`, [`Reader::ending`] tells how the stream ended.
#[derive(Debug)]
pub struct Reader<R> {
    inner: R,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    decoder: Decoder,
    eof: bool,
    finished: bool,
}

impl<R: Read> Reader<R> {
    /// A reader with a [`DEFAULT_BUFFER`]-byte buffer.
    pub fn new(inner: R) -> Self {
        Self::with_capacity(inner, DEFAULT_BUFFER)
    }

    /// A reader with a `capacity`-byte buffer; records larger than it fail
    /// with [`ErrorKind::BufferTooSmall`].
    pub fn with_capacity(inner: R, capacity: usize) -> Self {
        Self {
            inner,
            buf: vec![0u8; capacity.max(16)].into_boxed_slice(),
            start: 0,
            end: 0,
            decoder: Decoder::new(),
            eof: false,
            finished: false,
        }
    }

    /// The next record (header, event, metadata), borrowed from the
    /// buffer until the next call; `None` at the end of the stream or after
    /// the file's closing `}`. I/O errors, and decode errors wrapped as
    /// `InvalidData`, come as `Some(Err)`; after one the reader returns
    /// `None`. (Not an `Iterator`: records borrow the reader's buffer.)
    #[allow(
        clippy::should_implement_trait,
        reason = "records borrow the buffer: a lending `next`, which `Iterator` cannot express"
    )]
    pub fn next(&mut self) -> Option<io::Result<Decoded<'_>>> {
        self.next_record().transpose()
    }

    /// The inherent `Result<Option<_>>` form of [`Reader::next`].
    ///
    /// # Errors
    /// As [`Reader::next`].
    pub fn next_record(&mut self) -> io::Result<Option<Decoded<'_>>> {
        loop {
            if self.finished {
                return Ok(None);
            }
            let input = self.buf.get(self.start..self.end).unwrap_or_default();
            let (step, used) = match self.decoder.step(input) {
                Ok(s) => s,
                Err(e) => return Err(self.fail(e)),
            };
            match step {
                Step::NeedMore => {
                    if self.eof {
                        self.finished = true;
                        return Ok(None);
                    }
                    self.refill()?;
                }
                Step::Done => {
                    self.start = self.start.saturating_add(used);
                    self.finished = true;
                    return Ok(None);
                }
                _ => {
                    let from = self.start;
                    self.start = from.saturating_add(used);
                    let bytes = self.buf.get(from..self.start).unwrap_or_default();
                    return Ok(Some(record(step, bytes)));
                }
            }
        }
    }

    /// How the stream ended (meaningful after `Ok(None)`).
    pub fn ending(&self) -> Ending {
        self.decoder.ending(self.end.saturating_sub(self.start))
    }

    /// The decoder state.
    pub const fn decoder(&self) -> &Decoder {
        &self.decoder
    }

    fn fail(&mut self, e: Error) -> io::Error {
        self.finished = true;
        io::Error::new(io::ErrorKind::InvalidData, e)
    }

    fn refill(&mut self) -> io::Result<()> {
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end = self.end.saturating_sub(self.start);
            self.start = 0;
        }
        let Some(space) = self.buf.get_mut(self.end..).filter(|s| !s.is_empty()) else {
            let needed = self.buf.len().saturating_add(1);
            let e = Error::new(ErrorKind::BufferTooSmall { needed }, self.decoder.offset());
            return Err(self.fail(e));
        };
        let n = loop {
            match self.inner.read(space) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        };
        if n == 0 {
            self.eof = true;
        }
        self.end = self.end.saturating_add(n);
        Ok(())
    }
}
