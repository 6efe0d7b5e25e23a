//! The refill loop behind every `Reader`, written once: a buffer window
//! over any byte source, and a [`Decoder`] lending records from it.
//!
//! It is generic over where bytes come from ([`ByteSource`]) and where they
//! are kept ([`Storage`]), so that the `std` [`Reader`](super::Reader) (a
//! `Vec` it may grow, `io::Read`) and a reader over a caller's `&mut [u8]`
//! and another byte source share it.

use super::{Decoded, Decoder, End, ReadError};
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

/// Moves `buf[start..end]` to the front of `buf` in copies that do not
/// overlap (each at most `start` bytes long: one copy when the bytes kept
/// are fewer than those dropped, as after nearly every record), so that a
/// firmware links `memcpy` alone: `copy_within` is `memmove`, 1.6 KB of
/// flash on a Cortex-M.
fn move_to_front(buf: &mut [u8], start: usize, end: usize) {
    let (mut from, mut to) = (start, 0usize);
    while from < end && to < from {
        let n = end.saturating_sub(from).min(from.saturating_sub(to));
        let Some((head, tail)) = buf.split_at_mut_checked(from) else {
            return;
        };
        match (head.get_mut(to..to.saturating_add(n)), tail.get(..n)) {
            (Some(dst), Some(src)) => dst.copy_from_slice(src),
            _ => return,
        }
        from = from.saturating_add(n);
        to = to.saturating_add(n);
    }
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

impl<B: Storage, D: Decoder> Refill<B, D> {
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

    /// Moves the pending bytes to the front and returns the free space
    /// after them, for one read; `None` when the buffer is full. Hand the
    /// count read to [`Self::filled`].
    pub(crate) fn space(&mut self) -> Option<&mut [u8]> {
        if self.start > 0 {
            move_to_front(self.buf.bytes_mut(), self.start, self.filled);
            self.filled = self.pending_len();
            self.start = 0;
        }
        self.buf
            .bytes_mut()
            .get_mut(self.filled..)
            .filter(|s| !s.is_empty())
    }

    /// Records that a read into [`Self::space`] gave `n` bytes (0: the
    /// source ended).
    pub(crate) fn filled(&mut self, n: usize) {
        if n == 0 {
            self.eof = true;
        }
        self.filled = self.filled.saturating_add(n).min(self.capacity());
    }

    /// Fuses the loop after a failed read: the stream ends here, as if
    /// the input did.
    pub(crate) fn read_failed(&mut self) {
        self.end = Some(self.decoder.end(self.pending_len()));
    }

    /// Whether fewer than `want` bytes are pending and a read could add
    /// some (the source has not ended and the buffer has room).
    pub(crate) fn short_of(&self, want: usize) -> bool {
        !self.eof && self.pending_len() < want && self.pending_len() < self.capacity()
    }

    /// Whether a [`Decoded::NeedMore`] answer now could be met by reading
    /// or growing (so that [`Decoder::need_more`] must be asked first,
    /// before the record borrows the buffer).
    fn may_need_more(&self) -> bool {
        let pending = self.pending_len();
        !self.eof
            && pending < D::MAX_RECORD
            && (pending < self.capacity() || self.capacity() < self.limit)
    }

    /// Before [`Self::take`]: how many pending bytes a whole record needs
    /// when more must be read first (the buffer is grown for it, up to its
    /// limit), or `None` when the record can be decoded now (it is whole,
    /// or no more bytes can come).
    ///
    /// It asks [`Decoder::need_more`], which leaves the decoder as it is,
    /// so that the real decode in [`Self::take`] holds the only borrow of
    /// the buffer: the one it returns. (No read ahead: a live source would
    /// block while a whole record waits in the buffer.)
    pub(crate) fn want_record(&mut self) -> Option<usize> {
        if self.end.is_some() || !self.may_need_more() {
            return None;
        }
        let needed = self.decoder.need_more(self.pending())?;
        let want = needed
            .unwrap_or(0)
            .max(self.pending_len().saturating_add(1));
        if want > self.capacity() {
            let len = want.max(self.capacity().saturating_mul(2)).min(self.limit);
            if len > self.capacity() {
                self.buf.grow(len);
            }
        }
        Some(want)
    }

    /// The next record from the pending bytes (once [`Self::want_record`]
    /// says none are missing), `None` at the end; fused after an error.
    pub(crate) fn take(&mut self) -> Option<Result<D::Record<'_>, Error>> {
        if self.end.is_some() {
            return None;
        }
        let unconsumed = self.pending_len();
        let input = self
            .buf
            .bytes()
            .get(self.start..self.filled)
            .unwrap_or_default();
        let error = match self.decoder.decode(input) {
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
                    Error::new(kind, self.decoder.offset())
                }
                Err(e) => e,
            },
            Err(e) => e,
        };
        self.end = Some(End::Damaged(error));
        Some(Err(error))
    }
}

/// The steps above over a blocking byte source: each read done at once.
/// (The `embedded-io-async` reader runs the same steps, awaiting each
/// read.)
impl<B: Storage, D: Decoder> Refill<B, D> {
    /// Reads once into the free space.
    fn read_once<S: ByteSource>(&mut self, src: &mut S) -> Result<(), ReadError<S::Error>> {
        let n = match self.space() {
            Some(space) => src.read(space).map_err(ReadError::Io)?,
            None => return Ok(()),
        };
        self.filled(n);
        Ok(())
    }

    /// The next record, reading from `src` as needed; `None` at the end;
    /// fused after an error.
    pub(crate) fn next<S: ByteSource>(
        &mut self,
        src: &mut S,
    ) -> Option<Result<D::Record<'_>, ReadError<S::Error>>> {
        while let Some(want) = self.want_record() {
            while self.short_of(want) {
                if let Err(e) = self.read_once(src) {
                    self.read_failed();
                    return Some(Err(e));
                }
            }
        }
        Some(self.take()?.map_err(ReadError::Decode))
    }
}

#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    reason = "unit tests: a panic is the failure report"
)]
mod tests {
    /// `move_to_front` moves as `copy_within` does, for every window of a
    /// 12-byte buffer.
    #[test]
    fn move_to_front_equals_copy_within() {
        for start in 0..=12 {
            for end in start..=12 {
                let mut ours: [u8; 12] = core::array::from_fn(|i| i as u8);
                let mut theirs = ours;
                super::move_to_front(&mut ours, start, end);
                theirs.copy_within(start..end, 0);
                assert_eq!(ours[..end - start], theirs[..end - start], "{start}..{end}");
            }
        }
    }
}
