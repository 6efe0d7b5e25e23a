//! Peak stack use, measured by painting: every free word of the stack is
//! filled with a pattern before a decode, and afterwards the lowest word
//! that no longer holds it marks the deepest point the stack reached.

use core::ptr::{addr_of, read_volatile, write_volatile};

/// The pattern painted into free stack words.
const PAINT: u32 = 0xA5A5_5A5A;
/// Words just below the current stack pointer left unpainted: the
/// painting function's own frame lives there.
const GUARD_WORDS: usize = 16;

unsafe extern "C" {
    /// End of `.bss`/`.uninit` (cortex-m-rt's link.x): the lowest address
    /// the stack may grow down to.
    static _stack_end: u32;
}

/// Lowest stack address (first word above `.bss`).
fn stack_floor() -> usize {
    // Only the symbol's address is taken, never its value.
    addr_of!(_stack_end) as usize
}

/// Paints the free stack below the caller's frame; returns the stack
/// pointer at the call, the baseline for [`peak`].
#[inline(never)]
pub fn paint() -> usize {
    let sp = cortex_m::register::msp::read() as usize;
    let top = sp.saturating_sub(GUARD_WORDS * 4) & !3;
    let mut at = stack_floor();
    while at < top {
        // SAFETY: [floor, top) is RAM between the end of .bss and the
        // live stack frames (cortex-m-rt's layout), aligned to 4, and no
        // live object is stored there while main's frames sit above `top`.
        unsafe { write_volatile(at as *mut u32, PAINT) };
        at += 4;
    }
    sp
}

/// Bytes of stack used below `base` (from [`paint`]) since it was painted.
pub fn peak(base: usize) -> usize {
    let mut at = stack_floor();
    // SAFETY: reads words of the same RAM range that `paint` wrote, which
    // is mapped and aligned; reading it has no side effect.
    while at < base && unsafe { read_volatile(at as *const u32) } == PAINT {
        at += 4;
    }
    base.saturating_sub(at)
}
