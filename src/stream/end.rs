//! [`End`]: how a stream ended, the same four answers for every format.

use crate::error::Error;

/// How a stream (teehistorian, Slippi, demo) ended.
///
/// Every slice iterator, push decoder and [`Reader`](super::Reader) answers
/// with this type once the input is exhausted (see the
/// [truncation rule](super#the-truncation-rule)). Every record before the
/// end was delivered, whichever the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum End {
    /// The format's end marker was decoded: teehistorian FINISH, Slippi
    /// Game End. (Demos have no end marker: their chunk stream is complete
    /// when the input ends between two chunks.)
    Complete,
    /// The input ended between two records, without the end marker: a
    /// crashed or still-running writer (or a Slippi file without Game End).
    Eof,
    /// The input ended inside a record (or inside the file header).
    Truncated {
        /// Offset in the input of the first byte of that record.
        offset: usize,
    },
    /// Decoding stopped at an error (its offset counts from the start of
    /// the input), which was also returned.
    Damaged(Error),
}

impl End {
    /// `"complete"`, `"eof"`, `"truncated"` or `"damaged"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Complete => "complete",
            Self::Eof => "eof",
            Self::Truncated { .. } => "truncated",
            Self::Damaged(_) => "damaged",
        }
    }

    /// Whether the input ended inside a record or at damage (neither
    /// [`End::Complete`] nor [`End::Eof`]).
    #[must_use]
    pub const fn is_cut(self) -> bool {
        matches!(self, Self::Truncated { .. } | Self::Damaged(_))
    }
}
