//! Reading a demo from any `io::Read` in constant memory (feature `std`).

use std::boxed::Box;
use std::io::{self, Read};

use super::chunk::{Chunk, ChunkDecoder, Decoded, End};
use super::view::DemoHeader;
use crate::error::Error;

/// Bytes of the internal buffer: any chunk (at most 3 + 65535 bytes) fits.
const BUF_LEN: usize = 1 << 17;

/// Reads a demo's chunks from an [`io::Read`] with one fixed 128 KiB
/// buffer, whatever the file size. The embedded map is read and skipped.
///
/// [`Reader::next_chunk`] lends each chunk (payload still compressed; see
/// [`super::decode_payload`]) until the next call. As with
/// [`super::Chunks`], a stream cut short inside a chunk ends cleanly and
/// [`Reader::end`] reports [`End::Truncated`]. Decoding errors are
/// `io::ErrorKind::InvalidData` wrapping a [`crate::Error`] with the file
/// offset.
#[derive(Debug)]
pub struct Reader<R> {
    src: Source<R>,
    header: DemoHeader,
    decoder: ChunkDecoder,
    state: End,
}

/// The fixed buffer and the reader it is refilled from.
#[derive(Debug)]
struct Source<R> {
    inner: R,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    /// File offset of `buf[start]`.
    offset: usize,
    eof: bool,
}

fn invalid(e: Error) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e)
}

impl<R: Read> Reader<R> {
    /// Reads the header and skips the embedded map.
    pub fn new(inner: R) -> io::Result<Self> {
        let mut src = Source {
            inner,
            buf: std::vec![0u8; BUF_LEN].into_boxed_slice(),
            start: 0,
            end: 0,
            offset: 0,
            eof: false,
        };
        while src.end < DemoHeader::MAX_LEN && !src.eof {
            src.fill()?;
        }
        let header = DemoHeader::parse(src.pending()).map_err(invalid)?;
        src.consume(header.map_offset());
        let mut map_left = usize::try_from(header.map_size()).unwrap_or(usize::MAX);
        while map_left > 0 {
            if src.start == src.end {
                if src.eof {
                    return Err(invalid(Error::truncated(src.offset)));
                }
                src.fill()?;
                continue;
            }
            let n = map_left.min(src.end.saturating_sub(src.start));
            src.consume(n);
            map_left = map_left.saturating_sub(n);
        }
        Ok(Self {
            src,
            decoder: ChunkDecoder::new(header.version()),
            header,
            state: End::Open,
        })
    }

    /// The demo header.
    #[must_use]
    pub const fn header(&self) -> &DemoHeader {
        &self.header
    }

    /// How the chunk stream ended ([`End::Open`] while chunks remain).
    #[must_use]
    pub const fn end(&self) -> End {
        self.state
    }

    /// File offset of the next chunk.
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.src.offset
    }

    /// The next chunk, `None` at the end of the stream (see
    /// [`Reader::end`]). Fused after an error.
    pub fn next_chunk(&mut self) -> Option<io::Result<Chunk<'_>>> {
        if self.state != End::Open {
            return None;
        }
        // Find a whole chunk first (on a copy of the decoder), so that the
        // chunk returned below is the only borrow of the buffer.
        loop {
            let mut probe = self.decoder;
            match probe.decode(self.src.pending()) {
                Ok(Decoded::Record { .. }) => break,
                Ok(Decoded::NeedMore) if self.src.eof => {
                    self.state = if self.src.pending().is_empty() {
                        End::Complete
                    } else {
                        End::Truncated {
                            offset: self.src.offset,
                        }
                    };
                    return None;
                }
                Ok(Decoded::NeedMore) => {
                    if let Err(e) = self.src.fill() {
                        self.state = End::Error;
                        return Some(Err(e));
                    }
                }
                Err(e) => {
                    self.state = End::Error;
                    return Some(Err(invalid(e.shifted(self.src.offset))));
                }
            }
        }
        let src = &mut self.src;
        let pending = src.buf.get(src.start..src.end).unwrap_or_default();
        match self.decoder.decode(pending) {
            Ok(Decoded::Record { value, consumed }) => {
                src.start = src.start.saturating_add(consumed);
                src.offset = src.offset.saturating_add(consumed);
                Some(Ok(value))
            }
            // The probe above found a whole chunk in the same bytes.
            Ok(Decoded::NeedMore) => None,
            Err(e) => Some(Err(invalid(e.shifted(src.offset)))),
        }
    }
}

impl<R: Read> Source<R> {
    /// The bytes read but not consumed.
    fn pending(&self) -> &[u8] {
        self.buf.get(self.start..self.end).unwrap_or_default()
    }

    fn consume(&mut self, n: usize) {
        self.start = self.start.saturating_add(n).min(self.end);
        self.offset = self.offset.saturating_add(n);
    }

    /// Moves the unread bytes to the front and reads more after them.
    fn fill(&mut self) -> io::Result<()> {
        self.buf.copy_within(self.start..self.end, 0);
        self.end = self.end.saturating_sub(self.start);
        self.start = 0;
        let Some(space) = self.buf.get_mut(self.end..) else {
            return Ok(());
        };
        loop {
            match self.inner.read(space) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(());
                }
                Ok(n) => {
                    self.end = self.end.saturating_add(n);
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }
}
