//! Warnings handed to C: the quirks a decoder read past, each as a
//! [`GamefmtWarning`] (kind, offset, message) in a caller's array.

use core::ffi::c_char;

use gamefmt::warning::Warning;

use crate::error::GAMEFMT_MESSAGE_LEN;
use crate::text::write_display;

/// One warning: a quirk the lenient parse read (see gamefmt's
/// `warning` module).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtWarning {
    /// Byte offset of the quirk in the input.
    pub offset: u64,
    /// Its kind's short name (`empty_data_item`, `ddnet_rule`, ...),
    /// NUL-terminated.
    pub kind: [c_char; 32],
    /// The warning as text, NUL-terminated (cut to fit).
    pub message: [c_char; GAMEFMT_MESSAGE_LEN],
}

impl GamefmtWarning {
    fn new(w: &Warning) -> Self {
        let mut out = Self {
            offset: w.offset as u64,
            kind: [0; 32],
            message: [0; GAMEFMT_MESSAGE_LEN],
        };
        write_display(&mut out.kind, &w.kind.name());
        write_display(&mut out.message, &w.kind);
        out
    }
}

/// Where a parse puts its warnings: the caller's array of `cap` entries
/// (the first `cap` are kept) and the count of all of them.
pub(crate) struct WarningSink {
    out: *mut GamefmtWarning,
    cap: usize,
    count: *mut usize,
}

impl WarningSink {
    /// The sink for the caller's `out`/`cap`/`count` arguments (any may be
    /// `NULL`: then nothing is kept or counted).
    pub(crate) fn new(out: *mut GamefmtWarning, cap: usize, count: *mut usize) -> Self {
        // SAFETY: `count` is NULL or points to a writable size_t (the
        // crate's contract).
        if let Some(count) = unsafe { count.as_mut() } {
            *count = 0;
        }
        Self { out, cap, count }
    }

    /// Keeps one warning.
    pub(crate) fn push(&mut self, w: Warning) {
        // SAFETY: as in `new`.
        let Some(count) = (unsafe { self.count.as_mut() }) else {
            return;
        };
        if *count < self.cap && !self.out.is_null() {
            // SAFETY: `out` points to `cap` writable entries (the crate's
            // contract) and `*count < cap`.
            unsafe { self.out.add(*count).write(GamefmtWarning::new(&w)) };
        }
        *count = count.saturating_add(1);
    }
}
