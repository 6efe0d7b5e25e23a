//! The refill loop behind every `Reader`, written once: a buffer window
//! over any byte source, and a [`Decoder`] lending records from it.
//!
//! It is generic over where bytes come from ([`ByteSource`]) and where they
//! are kept ([`Storage`]), so that the `std` [`Reader`](super::Reader) (a
//! `Vec` it may grow, `io::Read`) and a reader over a caller's `&mut [u8]`
//! and another byte source share it.

use super::{Decoded, Decoder, End};
use crate::error::{Error, ErrorKind};

/// Where a reader's bytes come from.
pub(crate) trait ByteSource {
    /// The source's failure.
    type Error;
    /// Reads some bytes into `buf`; 0 at the end of the source.
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Self::Error>;
}

/// Where a reader keeps its bytes: a fixed slice or a buffer that grows.
pub(crate) trait Storage {
    /// The whole buffer.
    fn bytes(&self) -> &[u8];
    /// The whole buffer, writable.
    fn bytes_mut(&mut self) -> &mut [u8];
    /// Grows the buffer to `len` bytes; `false` if it cannot.
    fn grow(&mut self, len: usize) -> bool;
}

impl Storage for &mut [u8] {
    fn bytes(&self) -> &[u8] {
        self
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        self
    }

    fn grow(&mut self, _len: usize) -> bool {
        false
    }
}

#[cfg(feature = "alloc")]
impl Storage for alloc::vec::Vec<u8> {
    fn bytes(&self) -> &[u8] {
        self
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        self
    }

    fn grow(&mut self, len: usize) -> bool {
        self.resize(len, 0);
        true
    }
}

/// Why a refill step failed.
#[derive(Debug)]
pub(crate) enum Failure<E> {
    /// The source failed.
    Read(E),
    /// The stream is invalid, or a record does not fit the buffer.
    Decode(Error),
}

/// A buffer window over a byte source and the decoder reading from it.
#[derive(Debug)]
pub(crate) struct Refill<B, D> {
    buf: B,
    /// First byte not consumed.
    start: usize,
    /// End of the bytes read.
    filled: usize,
    /// The source returned 0.
    eof: bool,
    /// Largest length the buffer may grow to (its length if it is fixed).
    limit: usize,
    decoder: D,
    /// Set once the stream has ended; no more records after it.
    end: Option<End>,
}

impl<B: Storage, D: Decoder + Clone> Refill<B, D> {
    /// A window over `buf`, which may grow up to `limit` bytes.
    pub(crate) fn new(buf: B, limit: usize, decoder: D) -> Self {
        Self {
            buf,
            start: 0,
            filled: 0,
            eof: false,
            limit,
            decoder,
            end: None,
        }
    }

    /// The decoder.
    pub(crate) const fn decoder(&self) -> &D {
        &self.decoder
    }

    /// Replaces the decoder (after a prelude read with [`Self::fill_to`]
    /// and [`Self::skip`]).
    #[cfg(feature = "demo")] // The demo prelude (header, map) only.
    pub(crate) fn set_decoder(&mut self, decoder: D) {
        self.decoder = decoder;
    }

    /// The buffer's length.
    pub(crate) fn capacity(&self) -> usize {
        self.buf.bytes().len()
    }

    fn pending_len(&self) -> usize {
        self.filled.saturating_sub(self.start)
    }

    /// The bytes read but not consumed.
    pub(crate) fn pending(&self) -> &[u8] {
        self.buf
            .bytes()
            .get(self.start..self.filled)
            .unwrap_or_default()
    }

    /// How the stream ended (as if the input ended now, before the end).
    pub(crate) fn end(&self) -> End {
        self.end
            .unwrap_or_else(|| self.decoder.end(self.pending_len()))
    }

    /// Moves the pending bytes to the front and reads once after them.
    fn read_more<S: ByteSource>(&mut self, src: &mut S) -> Result<(), Failure<S::Error>> {
        if self.start > 0 {
            self.buf.bytes_mut().copy_within(self.start..self.filled, 0);
            self.filled = self.pending_len();
            self.start = 0;
        }
        let Some(space) = self
            .buf
            .bytes_mut()
            .get_mut(self.filled..)
            .filter(|s| !s.is_empty())
        else {
            return Ok(());
        };
        let n = src.read(space).map_err(Failure::Read)?;
        if n == 0 {
            self.eof = true;
        }
        self.filled = self.filled.saturating_add(n).min(self.capacity());
        Ok(())
    }

    /// Reads until `want` bytes are pending, the buffer is full, or the
    /// source ends.
    fn read_to<S: ByteSource>(
        &mut self,
        src: &mut S,
        want: usize,
    ) -> Result<(), Failure<S::Error>> {
        while !self.eof && self.pending_len() < want && self.pending_len() < self.capacity() {
            self.read_more(src)?;
        }
        Ok(())
    }

    /// Reads until `n` bytes are pending (growing the buffer up to its
    /// limit) or the source ends; returns the pending bytes.
    #[cfg(feature = "demo")] // The demo prelude (header, map) only.
    pub(crate) fn fill_to<S: ByteSource>(
        &mut self,
        src: &mut S,
        n: usize,
    ) -> Result<&[u8], Failure<S::Error>> {
        if n > self.capacity() && n <= self.limit {
            self.buf.grow(n);
        }
        self.read_to(src, n)?;
        Ok(self.pending())
    }

    /// Consumes `n` bytes without decoding them (reading as needed); fails
    /// with a truncation at `offset` plus what was skipped if the source
    /// ends first.
    #[cfg(feature = "demo")] // The demo prelude (header, map) only.
    pub(crate) fn skip<S: ByteSource>(
        &mut self,
        src: &mut S,
        mut n: usize,
        offset: usize,
    ) -> Result<(), Failure<S::Error>> {
        let mut at = offset;
        while n > 0 {
            if self.pending_len() == 0 {
                if self.eof {
                    return Err(Failure::Decode(Error::truncated(at)));
                }
                self.read_more(src)?;
                continue;
            }
            let step = n.min(self.pending_len());
            self.start = self.start.saturating_add(step);
            at = at.saturating_add(step);
            n = n.saturating_sub(step);
        }
        Ok(())
    }

    /// Whether a [`Decoded::NeedMore`] answer now could be met by reading
    /// or growing (so that a decode must first be tried on a copy of the
    /// decoder, before the record borrows the buffer).
    fn may_need_more(&self) -> bool {
        let pending = self.pending_len();
        !self.eof
            && pending < D::MAX_RECORD
            && (pending < self.capacity() || self.capacity() < self.limit)
    }

    /// The next record, `None` at the end; fused after an error.
    pub(crate) fn next<S: ByteSource>(
        &mut self,
        src: &mut S,
    ) -> Option<Result<D::Record<'_>, Failure<S::Error>>> {
        if self.end.is_some() {
            return None;
        }
        // Make sure the buffer holds a whole record (or that no more
        // bytes can come) before decoding for real, so that the record is
        // decoded once and the only borrow of the buffer is the one
        // returned.
        // (No read ahead: a live source would block while a whole record
        // waits in the buffer.)
        loop {
            if !self.may_need_more() {
                break;
            }
            let mut probe = self.decoder.clone();
            let needed = match probe.decode(self.pending()) {
                Ok(Decoded::NeedMore { needed }) => needed,
                _ => break,
            };
            let want = needed
                .unwrap_or(0)
                .max(self.pending_len().saturating_add(1));
            if want > self.capacity() {
                let len = want.max(self.capacity().saturating_mul(2)).min(self.limit);
                if len > self.capacity() {
                    self.buf.grow(len);
                }
            }
            if let Err(e) = self.read_to(src, want) {
                // Fused: the stream ends here, as if the input did.
                self.end = Some(self.decoder.end(self.pending_len()));
                return Some(Err(e));
            }
        }
        let unconsumed = self.pending_len();
        let input = self
            .buf
            .bytes()
            .get(self.start..self.filled)
            .unwrap_or_default();
        let fail = |e: Error| (End::Damaged(e), Failure::Decode(e));
        let (end, failure) = match self.decoder.decode(input) {
            Ok(Decoded::Record { record, consumed }) => {
                self.start = self.start.saturating_add(consumed);
                return Some(Ok(record));
            }
            Ok(Decoded::Done { consumed }) => {
                self.start = self.start.saturating_add(consumed);
                self.end = Some(self.decoder.end(0));
                return None;
            }
            Ok(Decoded::NeedMore { .. }) if self.eof => {
                self.end = Some(self.decoder.end(unconsumed));
                return None;
            }
            // The buffer is full at its limit, or the record is longer
            // than the format's largest.
            Ok(Decoded::NeedMore { needed }) => match self.decoder.decode_piece(input) {
                Ok(Some((record, consumed))) => {
                    self.start = self.start.saturating_add(consumed);
                    return Some(Ok(record));
                }
                Ok(None) => {
                    let needed = needed.unwrap_or(unconsumed.saturating_add(1));
                    let kind = ErrorKind::BufferTooSmall { needed };
                    fail(Error::new(kind, self.decoder.offset()))
                }
                Err(e) => fail(e),
            },
            Err(e) => fail(e),
        };
        self.end = Some(end);
        Some(Err(failure))
    }
}
