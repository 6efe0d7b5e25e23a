//! Text handed to C: NUL-terminated copies into fixed arrays and caller
//! buffers (`snprintf` semantics).

use core::ffi::c_char;
use core::fmt::{self, Write};

/// A `fmt::Write` into a C char array that keeps the last element for the
/// NUL, cuts at a character boundary and counts the whole text's length.
struct Cut<'a> {
    buf: &'a mut [c_char],
    len: usize,
    total: usize,
    cut: bool,
}

impl Write for Cut<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.total = self.total.saturating_add(s.len());
        for c in s.chars() {
            let mut utf8 = [0u8; 4];
            let bytes = c.encode_utf8(&mut utf8).as_bytes();
            let end = self.len.saturating_add(bytes.len());
            // One element stays free for the NUL; after a cut, nothing
            // more is written (only counted).
            if self.cut || end >= self.buf.len() {
                self.cut = true;
                return Ok(());
            }
            for (dst, &b) in self.buf.iter_mut().skip(self.len).zip(bytes) {
                *dst = b as c_char;
            }
            self.len = end;
        }
        Ok(())
    }
}

/// Writes `value` into `buf`, NUL-terminated and cut to fit (at a
/// character boundary); returns the whole text's length in bytes.
pub(crate) fn write_display(buf: &mut [c_char], value: &dyn fmt::Display) -> usize {
    let mut w = Cut {
        buf,
        len: 0,
        total: 0,
        cut: false,
    };
    // `Cut` never fails; a Display impl that does just ends the text.
    let _ = write!(w, "{value}");
    let end = w.len;
    if let Some(nul) = w.buf.get_mut(end) {
        *nul = 0;
    }
    w.total
}

/// [`write_display`] into the caller's buffer `buf` of `cap` bytes
/// (`snprintf` rules; nothing written for `NULL` or 0), as the `isize`
/// the C functions return.
pub(crate) fn display_out(value: &dyn fmt::Display, buf: *mut c_char, cap: usize) -> isize {
    let mut none: [c_char; 0] = [];
    let out: &mut [c_char] = if buf.is_null() || cap == 0 {
        &mut none
    } else {
        // SAFETY: the caller passes a writable buffer of `cap` bytes (the
        // crate's contract); it is not NULL and `cap` > 0.
        unsafe { core::slice::from_raw_parts_mut(buf, cap) }
    };
    isize::try_from(write_display(out, value)).unwrap_or(isize::MAX)
}
