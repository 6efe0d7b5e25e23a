//! [`SlippiWriter`] (feature `alloc`): builds `.slp` files, for tests,
//! fixtures and tools that cut or anonymise replays.

use alloc::vec::Vec;

use crate::error::{Error, ErrorKind, Result};

use super::payloads::PayloadSizes;
use super::{CMD_EVENT_PAYLOADS, HEADER_LEN, METADATA_KEY, SIGNATURE};

/// Writes the header, the Event Payloads event built from a size table,
/// events checked against that table, then the metadata and the closing
/// `}`, and patches the raw length — as the official recorder does.
#[derive(Clone, Debug)]
pub struct SlippiWriter {
    out: Vec<u8>,
    sizes: PayloadSizes,
}

impl SlippiWriter {
    /// Starts a file whose events have the sizes in `sizes`.
    ///
    /// # Errors
    /// [`ErrorKind::Corrupt`] when the table lists more than 84 commands
    /// (its size byte would overflow).
    pub fn new(sizes: &PayloadSizes) -> Result<Self> {
        let n = sizes.iter().count();
        let size = n
            .checked_mul(3)
            .and_then(|v| v.checked_add(1))
            .and_then(|v| u8::try_from(v).ok())
            .ok_or(Error::corrupt(
                "too many commands for one Event Payloads event",
                0,
            ))?;
        let mut out = Vec::with_capacity(1 << 12);
        out.extend_from_slice(SIGNATURE);
        out.extend_from_slice(&[0; 4]);
        out.extend_from_slice(&[CMD_EVENT_PAYLOADS, size]);
        for (code, s) in sizes.iter() {
            out.push(code);
            out.extend_from_slice(&s.to_be_bytes());
        }
        Ok(Self {
            out,
            sizes: sizes.clone(),
        })
    }

    /// Appends one event: `code` and a payload of exactly its declared size.
    ///
    /// # Errors
    /// [`ErrorKind::Corrupt`] when `code` is not in the table or the
    /// payload length differs from the declared size.
    pub fn event(&mut self, code: u8, payload: &[u8]) -> Result<&mut Self> {
        let at = self.out.len();
        match self.sizes.get(code) {
            Some(s) if usize::from(s) == payload.len() => {}
            Some(_) => {
                return Err(Error::corrupt(
                    "payload length differs from declared size",
                    at,
                ));
            }
            None => {
                return Err(Error::corrupt(
                    "command not in the Event Payloads table",
                    at,
                ));
            }
        }
        self.out.push(code);
        self.out.extend_from_slice(payload);
        Ok(self)
    }

    /// The bytes so far with the raw length still 0: what a reader sees of
    /// a game being recorded.
    #[must_use]
    pub fn live_bytes(&self) -> &[u8] {
        &self.out
    }

    /// Ends the raw array, appends `metadata` (a UBJSON value, e.g. an
    /// object) if given and the closing `}`, and patches the raw length.
    ///
    /// # Errors
    /// [`ErrorKind::OutOfBounds`] when the raw array exceeds `u32::MAX`.
    pub fn finish(mut self, metadata: Option<&[u8]>) -> Result<Vec<u8>> {
        let raw_len = self.out.len().saturating_sub(HEADER_LEN);
        let raw_len =
            u32::try_from(raw_len).map_err(|_| Error::new(ErrorKind::OutOfBounds, HEADER_LEN))?;
        if let Some(len) = self.out.get_mut(SIGNATURE.len()..HEADER_LEN) {
            len.copy_from_slice(&raw_len.to_be_bytes());
        }
        if let Some(m) = metadata {
            self.out.extend_from_slice(METADATA_KEY);
            self.out.extend_from_slice(m);
        }
        self.out.push(b'}');
        Ok(self.out)
    }
}
