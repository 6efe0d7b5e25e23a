//! Message Splitter (0x10) reassembly and the Gecko list (0x3D) it wraps.
//!
//! A large message (in practice only the Gecko code list) is sent as
//! 516-byte splitter events: a 512-byte block, the number of meaningful
//! bytes in it, the wrapped command and a "last chunk" flag. The wrapped
//! message is the concatenation of the meaningful bytes. Its length comes
//! from the chunks: the size the Event Payloads table lists for 0x3D is the
//! true size modulo 65 536 and must be ignored (spec/slippi.md §4).

use crate::error::{Error, ErrorKind, Result};

use super::field::{self, accessors, event_view};

/// Size of the data block in one splitter event.
pub const SPLITTER_BLOCK: usize = 512;

event_view! {
    /// Message Splitter (0x10, 3.3.0): one chunk of a larger message.
    MessageSplitter
}

impl<'a> MessageSplitter<'a> {
    accessors! {
        /// Number of meaningful bytes in the block (0x201).
        actual_size: u16 @ 0x201;
        /// The command of the wrapped message (0x203).
        internal_command: u8 @ 0x203;
        /// Whether this is the last chunk (0x204).
        is_last: bool @ 0x204;
    }

    /// The whole 512-byte block (0x1), meaningful or not.
    #[must_use]
    pub fn block(&self) -> Option<&'a [u8]> {
        field::bytes(self.bytes, 1, SPLITTER_BLOCK)
    }

    /// The meaningful bytes of this chunk; `None` when the event is too
    /// short or claims more than 512 meaningful bytes.
    #[must_use]
    pub fn data(&self) -> Option<&'a [u8]> {
        self.block()?.get(..usize::from(self.actual_size()?))
    }

    /// (wrapped command, meaningful bytes, last) or a `Corrupt` error.
    fn parts(&self) -> Result<(u8, &'a [u8], bool)> {
        match (self.internal_command(), self.data(), self.is_last()) {
            (Some(c), Some(d), Some(l)) => Ok((c, d, l)),
            _ => Err(Error::corrupt(
                "message splitter chunk too short or oversized",
                0,
            )),
        }
    }
}

/// Reassembles split messages into a buffer the caller owns; no allocation.
///
/// Feed every [`MessageSplitter`] in stream order to [`Reassembler::push`];
/// after the chunk flagged "last", [`Reassembler::message`] returns the
/// wrapped command and its payload. The next chunk starts a new message.
#[derive(Debug)]
pub struct Reassembler<'b> {
    buf: &'b mut [u8],
    len: usize,
    command: Option<u8>,
    complete: bool,
}

impl<'b> Reassembler<'b> {
    /// A reassembler writing into `buf`.
    #[must_use]
    pub fn new(buf: &'b mut [u8]) -> Self {
        Self {
            buf,
            len: 0,
            command: None,
            complete: false,
        }
    }

    /// Appends one chunk. Returns `Ok(true)` when it completed a message.
    ///
    /// # Errors
    /// [`ErrorKind::BufferTooSmall`] (with the bytes needed so far) when the
    /// message does not fit; [`ErrorKind::Corrupt`] for a short or oversized
    /// chunk, or chunks of two different commands interleaved.
    pub fn push(&mut self, chunk: &MessageSplitter<'_>) -> Result<bool> {
        let (command, data, last) = chunk.parts()?;
        if self.complete {
            self.len = 0;
            self.command = None;
            self.complete = false;
        }
        if self.command.is_some_and(|c| c != command) {
            return Err(Error::corrupt("split messages interleaved", 0));
        }
        self.command = Some(command);
        let end = self.len.saturating_add(data.len());
        let Some(dst) = self.buf.get_mut(self.len..end) else {
            return Err(Error::new(ErrorKind::BufferTooSmall { needed: end }, 0));
        };
        dst.copy_from_slice(data);
        self.len = end;
        self.complete = last;
        Ok(last)
    }

    /// The completed message: (wrapped command, payload without command byte).
    #[must_use]
    pub fn message(&self) -> Option<(u8, &[u8])> {
        if !self.complete {
            return None;
        }
        Some((self.command?, self.buf.get(..self.len)?))
    }

    /// Bytes gathered so far for the current message.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether no byte has been gathered for the current message.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Reassembles split messages into a growing `Vec` (feature `alloc`).
#[cfg(feature = "alloc")]
#[derive(Debug, Default)]
pub struct VecReassembler {
    buf: alloc::vec::Vec<u8>,
    command: Option<u8>,
    complete: bool,
}

#[cfg(feature = "alloc")]
impl VecReassembler {
    /// An empty reassembler.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends one chunk; `Ok(true)` when it completed a message.
    ///
    /// # Errors
    /// As [`Reassembler::push`], without the buffer limit.
    pub fn push(&mut self, chunk: &MessageSplitter<'_>) -> Result<bool> {
        let (command, data, last) = chunk.parts()?;
        if self.complete {
            self.buf.clear();
            self.command = None;
            self.complete = false;
        }
        if self.command.is_some_and(|c| c != command) {
            return Err(Error::corrupt("split messages interleaved", 0));
        }
        self.command = Some(command);
        self.buf.extend_from_slice(data);
        self.complete = last;
        Ok(last)
    }

    /// The completed message: (wrapped command, payload).
    #[must_use]
    pub fn message(&self) -> Option<(u8, &[u8])> {
        self.complete
            .then_some(())
            .and(self.command.map(|c| (c, self.buf.as_slice())))
    }

    /// Takes the completed message, leaving the reassembler empty.
    pub fn take(&mut self) -> Option<(u8, alloc::vec::Vec<u8>)> {
        if !self.complete {
            return None;
        }
        let command = self.command.take()?;
        self.complete = false;
        Some((command, core::mem::take(&mut self.buf)))
    }
}

/// The Gecko code list (0x3D payload, command byte not included): the
/// concatenated codes the game ran with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GeckoList<'a> {
    payload: &'a [u8],
}

impl<'a> GeckoList<'a> {
    /// Wraps a reassembled Gecko list payload.
    #[must_use]
    pub const fn new(payload: &'a [u8]) -> Self {
        Self { payload }
    }

    /// The raw list.
    #[must_use]
    pub const fn payload(&self) -> &'a [u8] {
        self.payload
    }

    /// The codes, walked by code type as the official parser does:
    /// 0xC0/0xC2 span 8 + 8·lines bytes, 0x06 spans 8 + its byte length
    /// rounded up to 8, 0x08 spans 16, every other type 8. The last code's
    /// bytes are cut at the end of the list.
    #[must_use]
    pub const fn codes(&self) -> GeckoCodes<'a> {
        GeckoCodes { rest: self.payload }
    }
}

/// One Gecko code of a [`GeckoList`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GeckoCode<'a> {
    /// Code type: the first byte with its lowest bit cleared.
    pub code_type: u8,
    /// Target address: `(first word & 0x01FF_FFFF) + 0x8000_0000`.
    pub address: u32,
    /// The code's bytes (its first word included).
    pub bytes: &'a [u8],
}

/// Iterator over the codes of a [`GeckoList`].
#[derive(Clone, Debug)]
pub struct GeckoCodes<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for GeckoCodes<'a> {
    type Item = GeckoCode<'a>;

    #[inline]
    fn next(&mut self) -> Option<GeckoCode<'a>> {
        if self.rest.is_empty() {
            return None;
        }
        let word = field::u32::<0>(self.rest, 0).unwrap_or(0);
        let second = field::u32::<0>(self.rest, 4).unwrap_or(0);
        let code_type = word.to_be_bytes()[0] & 0xFE;
        let len: u64 = match code_type {
            0xC0 | 0xC2 => 8u64.saturating_add(u64::from(second).saturating_mul(8)),
            0x06 => 8u64.saturating_add(u64::from(second).saturating_add(7) & !7),
            0x08 => 16,
            _ => 8,
        };
        let len = usize::try_from(len)
            .unwrap_or(usize::MAX)
            .min(self.rest.len());
        let (bytes, rest) = self.rest.split_at_checked(len).unwrap_or((self.rest, &[]));
        self.rest = rest;
        Some(GeckoCode {
            code_type,
            address: (word & 0x01FF_FFFF).wrapping_add(0x8000_0000),
            bytes,
        })
    }
}

impl core::iter::FusedIterator for GeckoCodes<'_> {}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::panic,
    reason = "unit tests: a panic is the failure report"
)]
mod tests {
    use super::*;

    fn chunk(data: &[u8], last: bool) -> [u8; 517] {
        let mut ev = [0u8; 517];
        ev[0] = 0x10;
        ev[1..1 + data.len()].copy_from_slice(data);
        ev[0x201..0x203].copy_from_slice(&(data.len() as u16).to_be_bytes());
        ev[0x203] = 0x3D;
        ev[0x204] = u8::from(last);
        ev
    }

    #[test]
    fn reassembles_from_chunks_and_walks_codes() {
        // A C2 code with 1 line (16 bytes), a 04 code (8), an 08 code (16).
        let mut list = [0u8; 40];
        list[0] = 0xC2;
        list[3] = 0x10;
        list[7] = 1;
        list[16] = 0x04;
        list[24] = 0x08;
        let a = chunk(&list[..30], false);
        let b = chunk(&list[30..], true);
        let mut buf = [0u8; 64];
        let mut r = Reassembler::new(&mut buf);
        assert!(!r.push(&MessageSplitter::new(&a)).unwrap());
        assert_eq!(r.message(), None);
        assert!(r.push(&MessageSplitter::new(&b)).unwrap());
        let (cmd, msg) = r.message().unwrap();
        assert_eq!((cmd, msg), (0x3D, &list[..]));
        let codes: std::vec::Vec<_> = GeckoList::new(msg).codes().collect();
        assert_eq!(codes.len(), 3);
        assert_eq!(codes[0].code_type, 0xC2);
        assert_eq!(codes[0].address, 0x8000_0010);
        assert_eq!(codes[0].bytes.len(), 16);
        assert_eq!(codes[2].bytes.len(), 16);

        let mut small = [0u8; 20];
        let mut r = Reassembler::new(&mut small);
        assert_eq!(
            r.push(&MessageSplitter::new(&a)).unwrap_err().kind,
            ErrorKind::BufferTooSmall { needed: 30 }
        );
        let mut oversized = a;
        oversized[0x201] = 0x02;
        oversized[0x202] = 0x01;
        assert_eq!(MessageSplitter::new(&oversized).data(), None);
        assert!(
            Reassembler::new(&mut buf)
                .push(&MessageSplitter::new(&oversized))
                .is_err()
        );
        assert!(
            Reassembler::new(&mut buf)
                .push(&MessageSplitter::new(&a[..100]))
                .is_err()
        );
    }

    #[test]
    fn huge_line_count_ends_the_walk() {
        let list = [0xC0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 1, 2];
        let codes: std::vec::Vec<_> = GeckoList::new(&list).codes().collect();
        assert_eq!(codes.len(), 1);
        assert_eq!(codes[0].bytes.len(), 10);
    }
}
