//! Reading a teehistorian stream from any `io::Read` in constant memory
//! (`std`).

use std::boxed::Box;
use std::io::{self, Read};
use std::string::String;
use std::vec;

use super::decoder::{Decoded, Decoder, End, Record};
use super::header::Header;
use crate::error::{Error, ErrorKind};

/// Default buffer size of a [`Reader`]: 256 KiB, which holds any message of
/// up to 128 KiB (DDNet's largest payloads are 64 KiB).
pub const DEFAULT_BUFFER: usize = 256 << 10;

/// Longest header JSON a [`Reader`] accepts (DDNet's are a few KiB).
pub const MAX_HEADER: usize = 1 << 20;

/// Why [`Reader`] failed.
#[derive(Debug)]
pub enum ReadError {
    /// Reading from the source failed.
    Io(io::Error),
    /// The stream is invalid (or truncated, or a message does not fit the
    /// buffer: [`ErrorKind::BufferTooSmall`]).
    Decode(Error),
}

impl core::fmt::Display for ReadError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Io(e) => write!(f, "{e}"),
            Self::Decode(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ReadError {}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> Self {
        Self::Io(e)
    }
}

impl From<Error> for ReadError {
    fn from(e: Error) -> Self {
        Self::Decode(e)
    }
}

/// Reads a teehistorian stream from `R` with one fixed buffer: memory use
/// is constant whatever the file size.
///
/// [`Reader::next`] lends one message at a time (it is not an `Iterator`,
/// since each message borrows the buffer). Messages up to half the buffer
/// size are supported; a longer one fails with
/// [`ErrorKind::BufferTooSmall`]. Like [`TeehistorianIter`](super::TeehistorianIter),
/// it ends after FINISH, at a message boundary, or with a truncation error,
/// and [`Reader::end`] tells which.
///
/// ```
/// # fn main() -> Result<(), gamefmt::teehistorian::ReadError> {
/// use gamefmt::teehistorian::{End, Reader};
/// # let file: &[u8] = gamefmt::teehistorian::SAMPLE;
/// let mut reader = Reader::new(file)?;
/// assert_eq!(reader.header()?.version(), 2);
/// let mut messages = 0;
/// while let Some(record) = reader.next() {
///     let _tick = record?.tick;
///     messages += 1;
/// }
/// assert_eq!(reader.end(), Some(End::Finish));
/// # assert!(messages > 0);
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Reader<R> {
    source: R,
    header: String,
    buf: Box<[u8]>,
    start: usize,
    filled: usize,
    eof: bool,
    decoder: Decoder,
    end: Option<End>,
    failed: bool,
}

impl<R: Read> Reader<R> {
    /// Reads the header with a [`DEFAULT_BUFFER`]-byte buffer.
    pub fn new(source: R) -> Result<Self, ReadError> {
        Self::with_capacity(source, DEFAULT_BUFFER)
    }

    /// Reads the header, with a buffer of `capacity` bytes (at least 64).
    pub fn with_capacity(mut source: R, capacity: usize) -> Result<Self, ReadError> {
        // The header is read on its own, so the buffer need not hold it.
        let mut head = vec![0u8; 16];
        source.read_exact(&mut head).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => ReadError::Decode(Error::truncated(0)),
            _ => ReadError::Io(e),
        })?;
        let mut byte = [0u8; 1];
        let capacity = capacity.max(64);
        // Reads ahead at most `capacity` bytes, which then seed the buffer.
        let mut reader =
            io::BufReader::with_capacity(capacity, source.by_ref().take(MAX_HEADER as u64));
        loop {
            match reader.read(&mut byte)? {
                0 => {
                    let err = if head.len() > MAX_HEADER {
                        Error::corrupt("header too long", head.len())
                    } else {
                        Error::truncated(head.len())
                    };
                    return Err(ReadError::Decode(err));
                }
                _ => {
                    head.push(byte[0]);
                    if byte[0] == 0 {
                        break;
                    }
                }
            }
        }
        // Give back what the BufReader read ahead.
        let ahead = reader.buffer().to_vec();
        drop(reader);
        let mut decoder = Decoder::new();
        let header = match decoder.decode(&head)? {
            Decoded::Header { header, .. } => String::from(header.json()),
            _ => return Err(ReadError::Decode(Error::truncated(head.len()))),
        };
        let mut buf = vec![0u8; capacity].into_boxed_slice();
        if let Some(dst) = buf.get_mut(..ahead.len()) {
            dst.copy_from_slice(&ahead);
        }
        Ok(Self {
            source,
            header,
            buf,
            start: 0,
            filled: ahead.len(),
            eof: false,
            decoder,
            end: None,
            failed: false,
        })
    }

    /// The file header.
    pub fn header(&self) -> Result<Header<'_>, Error> {
        Header::parse(&self.header)
    }

    /// How the stream ended, once [`Reader::next`] has returned `None` or a
    /// truncation error.
    #[must_use]
    pub const fn end(&self) -> Option<End> {
        self.end
    }

    /// The tick of the last message returned.
    #[must_use]
    pub const fn tick(&self) -> i32 {
        self.decoder.tick()
    }

    /// Moves the unread bytes to the front and reads until the buffer is
    /// full or the source ends.
    fn refill(&mut self) -> io::Result<()> {
        self.buf.copy_within(self.start..self.filled, 0);
        self.filled = self.filled.saturating_sub(self.start);
        self.start = 0;
        while !self.eof && self.filled < self.buf.len() {
            let dst = self.buf.get_mut(self.filled..).unwrap_or_default();
            match self.source.read(dst) {
                Ok(0) => self.eof = true,
                Ok(n) => self.filled = self.filled.saturating_add(n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// The next message, `None` at the end; fused after an error.
    #[allow(
        clippy::should_implement_trait,
        reason = "records borrow the buffer: a lending `next`, which `Iterator` cannot express"
    )]
    pub fn next(&mut self) -> Option<Result<Record<'_>, ReadError>> {
        if self.end.is_some() || self.failed {
            return None;
        }
        let half = self.buf.len() / 2;
        if self.filled.saturating_sub(self.start) < half && !self.eof {
            if let Err(e) = self.refill() {
                self.failed = true;
                return Some(Err(ReadError::Io(e)));
            }
        }
        let rest = self.buf.get(self.start..self.filled).unwrap_or_default();
        match self.decoder.decode(rest) {
            Ok(Decoded::Record { record, consumed }) => {
                self.start = self.start.saturating_add(consumed);
                Some(Ok(record))
            }
            Ok(_) if !self.eof => {
                self.failed = true;
                // Only messages up to half the buffer are guaranteed to fit.
                let needed = rest.len().saturating_add(1).saturating_mul(2);
                Some(Err(ReadError::Decode(Error::new(
                    ErrorKind::BufferTooSmall { needed },
                    self.decoder.offset(),
                ))))
            }
            Ok(_) => {
                let end = self.decoder.end(rest.len());
                self.end = Some(end);
                (end == End::Truncated)
                    .then(|| Err(ReadError::Decode(Error::truncated(self.decoder.offset()))))
            }
            Err(e) => {
                self.failed = true;
                Some(Err(ReadError::Decode(e)))
            }
        }
    }
}
