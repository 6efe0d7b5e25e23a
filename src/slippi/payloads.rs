//! The Event Payloads event (0x35): the command → payload size table that
//! opens every event stream, kept in a fixed-size table.

use crate::error::{Error, Result};
use crate::warning::{Warn, Warning, WarningKind, report};

use super::{CMD_EVENT_PAYLOADS, CMD_GAME_END};

/// The commands below this one have an entry in the decoder's fast-path
/// table ([`PayloadSizes::fast_lens_into`]; every known command is below 0x42).
pub(crate) const FAST_COMMANDS: usize = 0x50;

/// Payload sizes (command byte not included) of every command the stream
/// declared in its Event Payloads event. A fixed 256-entry table: no
/// allocation, constant-time lookup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PayloadSizes {
    sizes: [u16; 256],
    /// Which commands are listed: bit `c % 32` of word `c / 32`.
    present: [u32; 8],
}

impl Default for PayloadSizes {
    fn default() -> Self {
        Self::new()
    }
}

impl PayloadSizes {
    /// An empty table.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            sizes: [0; 256],
            present: [0; 8],
        }
    }

    /// Reads the table from a whole Event Payloads event (command byte
    /// `0x35`, size byte `3n+1`, then `n` (command, u16 size) pairs).
    /// `base` is the event's offset in the input, for errors.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Corrupt`] when the command byte is not 0x35 or the
    /// size byte is not `3n+1`; [`crate::ErrorKind::Truncated`] when the
    /// event is shorter than its size byte says.
    pub fn parse(event: &[u8], base: usize) -> Result<Self> {
        let Some((&CMD_EVENT_PAYLOADS, rest)) = event.split_first() else {
            return Err(Error::corrupt(
                "stream does not start with Event Payloads (0x35)",
                base,
            ));
        };
        let Some(&size) = rest.first() else {
            return Err(Error::truncated(base.saturating_add(1)));
        };
        if size % 3 != 1 {
            return Err(Error::corrupt(
                "Event Payloads size is not 3n+1",
                base.saturating_add(1),
            ));
        }
        let Some(pairs) = rest.get(1..usize::from(size)) else {
            return Err(Error::truncated(base.saturating_add(event.len())));
        };
        let mut table = Self::new();
        table.fill(pairs);
        Ok(table)
    }

    /// [`PayloadSizes::parse`] into `self`, for an event whose command and
    /// size byte were checked (the decoder's): no second table on the
    /// stack.
    pub(crate) fn parse_checked(&mut self, event: &[u8]) {
        let size = event.get(1).copied().unwrap_or(0);
        *self = Self::new();
        self.fill(event.get(2..=usize::from(size)).unwrap_or_default());
    }

    /// Declares every (command, u16 size) pair of `pairs`.
    fn fill(&mut self, pairs: &[u8]) {
        for pair in pairs.chunks_exact(3) {
            if let [code, hi, lo] = *pair {
                self.set(code, u16::from_be_bytes([hi, lo]));
            }
        }
    }

    /// The declared payload size of `command`, or `None` if it is not listed.
    #[must_use]
    #[inline]
    pub fn get(&self, command: u8) -> Option<u16> {
        let i = usize::from(command);
        if self.is_present(i) {
            self.sizes.get(i).copied()
        } else {
            None
        }
    }

    /// Whether command `i` is listed.
    #[inline]
    fn is_present(&self, i: usize) -> bool {
        self.present
            .get(i / 32)
            .is_some_and(|word| word & (1 << (i % 32)) != 0)
    }

    /// The whole event length (`size + 1`) of every listed command below
    /// [`FAST_COMMANDS`] an ordinary event of which the decoder's fast path
    /// may take: size not
    /// 0 (the command byte alone, a quirk the full path handles) and below
    /// 65 535, not Game End (it changes the decoder's state); 0 for the
    /// others. Written into the decoder's table in place.
    pub(crate) fn fast_lens_into(&self, lens: &mut [u16; FAST_COMMANDS]) {
        for (i, (len, &size)) in lens.iter_mut().zip(&self.sizes).enumerate() {
            *len = if self.is_present(i) && size != 0 && i != usize::from(CMD_GAME_END) {
                size.checked_add(1).unwrap_or(0)
            } else {
                0
            };
        }
    }

    /// Declares `size` for `command` (used by writers and tests).
    pub fn set(&mut self, command: u8, size: u16) {
        let i = usize::from(command);
        if let (Some(s), Some(word)) = (self.sizes.get_mut(i), self.present.get_mut(i / 32)) {
            *s = size;
            *word |= 1 << (i % 32);
        }
    }

    /// Every listed (command, size) pair in command order.
    pub fn iter(&self) -> impl Iterator<Item = (u8, u16)> + '_ {
        (0..=u8::MAX).filter_map(|c| self.get(c).map(|s| (c, s)))
    }
}

/// A borrowed view of the Event Payloads event (0x35) as it appears in the
/// stream, command byte included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventPayloads<'a> {
    bytes: &'a [u8],
}

impl<'a> EventPayloads<'a> {
    /// Wraps a whole event (command byte first).
    #[must_use]
    pub const fn new(bytes: &'a [u8]) -> Self {
        Self { bytes }
    }

    /// The whole event, command byte included.
    #[must_use]
    pub const fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The (command, payload size) pairs in stream order.
    pub fn entries(&self) -> impl Iterator<Item = (u8, u16)> + 'a {
        self.bytes
            .get(2..)
            .unwrap_or_default()
            .chunks_exact(3)
            .filter_map(|p| match *p {
                [c, hi, lo] => Some((c, u16::from_be_bytes([hi, lo]))),
                _ => None,
            })
    }

    /// A [`ZeroSizeEvent`](WarningKind::ZeroSizeEvent) warning for each
    /// command declared with payload size 0 (such events are their command
    /// byte alone), at the entry's offset; `base` is the event's offset in
    /// the input.
    pub fn zero_size_warnings(&self, base: usize) -> impl Iterator<Item = Warning> + 'a {
        self.entries()
            .enumerate()
            .filter(|&(_, (_, size))| size == 0)
            .map(move |(i, (command, _))| {
                let at = base.saturating_add(2).saturating_add(i.saturating_mul(3));
                Warning::new(WarningKind::ZeroSizeEvent { command }, at)
            })
    }

    /// Reports the table's quirks (its
    /// [`zero_size_warnings`](Self::zero_size_warnings)) as
    /// [`SlippiView::parse_with`](super::SlippiView::parse_with) and
    /// [`parse_strict`](super::SlippiView::parse_strict) do: to `warn`, or,
    /// when `strict`, the first one as an
    /// [`ErrorKind::Refused`](crate::ErrorKind::Refused) error. For a
    /// streaming reader, which meets the event as a record.
    pub fn report_quirks<W: Warn + ?Sized>(
        &self,
        base: usize,
        strict: bool,
        warn: &mut W,
    ) -> Result<()> {
        for warning in self.zero_size_warnings(base) {
            report(warn, strict, warning)?;
        }
        Ok(())
    }
}

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
    use crate::ErrorKind;

    #[test]
    fn parses_table_and_rejects_bad_sizes() {
        let ev = [0x35, 7, 0x36, 0x01, 0xA4, 0x39, 0x00, 0x02];
        let t = PayloadSizes::parse(&ev, 15).unwrap();
        assert_eq!(t.get(0x36), Some(420));
        assert_eq!(t.get(0x39), Some(2));
        assert_eq!(t.get(0x37), None);
        assert_eq!(t.iter().count(), 2);
        assert_eq!(EventPayloads::new(&ev).entries().count(), 2);
        let bad = [0x35, 231, 0, 0];
        assert_eq!(
            PayloadSizes::parse(&bad, 15).unwrap_err().kind,
            ErrorKind::Corrupt("Event Payloads size is not 3n+1")
        );
        assert_eq!(
            PayloadSizes::parse(&ev[..5], 0).unwrap_err().kind,
            ErrorKind::Truncated
        );
        assert!(PayloadSizes::parse(&[0x36, 1], 0).is_err());
    }
}
