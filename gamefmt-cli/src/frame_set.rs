//! [`FrameSet`]: the distinct frame numbers of a replay, in a bitmap, so
//! that counting them costs one bit per frame (a 1 GB replay of some
//! million frames: well under a megabyte), not a tree node per frame.

use std::collections::BTreeSet;

/// The first frame of every Slippi game.
const FIRST_FRAME: i32 = -123;

/// Frames the bitmap covers from [`FIRST_FRAME`]: 2^24 (77 hours at
/// 60 frames a second, 2 MiB of bits). Frame numbers outside it (damaged
/// files only) go into a tree.
const BITMAP_FRAMES: i64 = 1 << 24;

/// A set of frame numbers with its smallest and largest member.
#[derive(Default)]
pub struct FrameSet {
    bits: Vec<u64>,
    others: BTreeSet<i32>,
    len: usize,
    first: Option<i32>,
    last: Option<i32>,
}

impl FrameSet {
    /// Adds `frame`.
    pub fn insert(&mut self, frame: i32) {
        let at = i64::from(frame).saturating_sub(i64::from(FIRST_FRAME));
        let new = match usize::try_from(at) {
            Ok(at) if at < BITMAP_FRAMES as usize => {
                let word = at / 64;
                if self.bits.len() <= word {
                    self.bits.resize(word.saturating_add(1), 0);
                }
                let mask = 1u64 << (at % 64);
                self.bits.get_mut(word).is_some_and(|w| {
                    let new = *w & mask == 0;
                    *w |= mask;
                    new
                })
            }
            _ => self.others.insert(frame),
        };
        if new {
            self.len = self.len.saturating_add(1);
            self.first = Some(self.first.map_or(frame, |f| f.min(frame)));
            self.last = Some(self.last.map_or(frame, |l| l.max(frame)));
        }
    }

    /// How many distinct frames were added.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// The smallest frame added.
    pub const fn first(&self) -> Option<i32> {
        self.first
    }

    /// The largest frame added.
    pub const fn last(&self) -> Option<i32> {
        self.last
    }
}
