//! A hash index from item keys to small values, in a caller-provided slot
//! array: what makes building, diffing and applying linear in the item
//! count instead of searching the snapshot once per key.
//!
//! Each slot is one `u64`: the key in the high half, and in the low half a
//! stamp (8 bits) and a value (24 bits). A slot belongs to the current
//! table only if its stamp is the table's, so a table that lives across
//! calls (the builder's, the delta creator's) starts over by taking the
//! next stamp instead of clearing its slots; only when the stamp wraps are
//! they zeroed. Linear probing over a power-of-two table at most half full.
// Positions are masked to the table length, values and counts are bounded
// by MAX_ITEMS (checked by every caller before inserting).
#![allow(
    clippy::arithmetic_side_effects,
    reason = "positions are masked to the table length; counts are bounded by MAX_ITEMS"
)]

use super::MAX_ITEMS;

/// Slots a table needs to index [`MAX_ITEMS`] keys at most half full.
pub(crate) const SLOTS: usize = 2 * MAX_ITEMS;

/// Bits of the value stored with a key.
const VALUE_BITS: u32 = 24;
const VALUE_MASK: u32 = (1 << VALUE_BITS) - 1;

/// A view of a slot array as the table of one stamp.
pub(crate) struct KeyIndex<'s> {
    slots: &'s mut [u64],
    mask: usize,
    /// Bits to shift the multiplied key right by to get a position.
    shift: u32,
    stamp: u32,
}

impl<'s> KeyIndex<'s> {
    /// A table of `stamp` (1..=255) in `slots`, sized for `keys` keys.
    /// `slots` holds zeros or slots written by earlier tables with other
    /// stamps, and its length is a power of two.
    pub(crate) fn new(slots: &'s mut [u64], keys: usize, stamp: u8) -> Self {
        let len = keys
            .saturating_mul(2)
            .next_power_of_two()
            .max(16)
            .min(slots.len())
            .max(1);
        Self {
            slots,
            mask: len - 1,
            shift: 32 - len.trailing_zeros(),
            stamp: u32::from(stamp),
        }
    }

    /// The position of `key`'s slot, or of the free slot where it belongs
    /// (`usize::MAX` if the table is full, which callers never let happen:
    /// the search still ends).
    #[inline]
    fn probe(&self, key: u32) -> (usize, Option<u32>) {
        // Fibonacci hashing: keys are `type << 16 | id`, both small.
        let hash = key.wrapping_mul(0x9E37_79B1);
        let mut pos = hash.checked_shr(self.shift).unwrap_or(0) as usize;
        for _ in 0..=self.mask {
            pos &= self.mask;
            let slot = self.slots.get(pos).copied().unwrap_or_default();
            let tag = slot as u32;
            if tag >> VALUE_BITS != self.stamp {
                return (pos, None);
            }
            if (slot >> 32) as u32 == key {
                return (pos, Some(tag & VALUE_MASK));
            }
            pos += 1;
        }
        (usize::MAX, None)
    }

    /// The value stored with `key`.
    #[inline]
    pub(crate) fn get(&self, key: u32) -> Option<u32> {
        self.probe(key).1
    }

    /// Stores `value` (below 2^24) with `key` unless the key is present;
    /// returns whether it was inserted. `None` if the table is full (its
    /// users size it so that this never happens).
    #[inline]
    pub(crate) fn insert(&mut self, key: u32, value: u32) -> Option<bool> {
        match self.probe(key) {
            (_, Some(_)) => Some(false),
            (usize::MAX, None) => None,
            (pos, None) => {
                self.set_at(pos, key, value);
                Some(true)
            }
        }
    }

    /// The position of `key`'s slot and its value, if present.
    #[inline]
    pub(crate) fn find(&self, key: u32) -> Option<(usize, u32)> {
        match self.probe(key) {
            (pos, Some(value)) => Some((pos, value)),
            _ => None,
        }
    }

    /// Replaces the value of `key`, whose slot [`KeyIndex::find`] gave as
    /// `pos`.
    #[inline]
    pub(crate) fn replace(&mut self, pos: usize, key: u32, value: u32) {
        self.set_at(pos, key, value);
    }

    /// Replaces the value of a present `key`.
    #[inline]
    pub(crate) fn update(&mut self, key: u32, value: u32) {
        if let (pos, Some(_)) = self.probe(key) {
            self.set_at(pos, key, value);
        }
    }

    fn set_at(&mut self, pos: usize, key: u32, value: u32) {
        if let Some(slot) = self.slots.get_mut(pos) {
            let tag = self.stamp << VALUE_BITS | (value & VALUE_MASK);
            *slot = u64::from(key) << 32 | u64::from(tag);
        }
    }
}

/// A slot array that lives across calls, handing out one table per call
/// (feature `alloc`).
#[cfg(feature = "alloc")]
#[derive(Clone, Debug)]
pub(crate) struct Slots {
    slots: alloc::vec::Vec<u64>,
    stamp: u8,
}

#[cfg(feature = "alloc")]
impl Default for Slots {
    fn default() -> Self {
        Self {
            slots: alloc::vec![0; SLOTS],
            stamp: 0,
        }
    }
}

#[cfg(feature = "alloc")]
impl Slots {
    /// A stamp no slot holds yet: the next one, the slots zeroed only when
    /// the stamps wrap.
    pub(crate) fn next_stamp(&mut self) -> u8 {
        self.stamp = match self.stamp.checked_add(1) {
            Some(s) => s,
            None => {
                self.slots.fill(0);
                1
            }
        };
        self.stamp
    }

    /// The table of `stamp` (from [`Slots::next_stamp`]), sized for `keys`
    /// keys.
    pub(crate) fn table(&mut self, keys: usize, stamp: u8) -> KeyIndex<'_> {
        KeyIndex::new(&mut self.slots, keys, stamp)
    }
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    reason = "unit tests: a panic is the failure report"
)]
mod tests {
    use super::*;

    #[test]
    fn first_value_wins_and_full_tables_end() {
        let mut slots = [0u64; SLOTS];
        let mut t = KeyIndex::new(&mut slots, MAX_ITEMS, 1);
        assert_eq!(t.insert(5 << 16 | 1, 0), Some(true));
        assert_eq!(t.insert(5 << 16 | 1, 7), Some(false));
        assert_eq!(t.insert(0, 3), Some(true));
        t.update(0, 9);
        assert_eq!(
            (t.get(0), t.get(5 << 16 | 1), t.get(2)),
            (Some(9), Some(0), None)
        );
        for k in 1..MAX_ITEMS as u32 {
            assert_eq!(t.insert(k.wrapping_mul(65_537), k), Some(true));
        }
        assert_eq!(t.get(1023 * 65_537), Some(1023));
        // Filled to the last slot, lookups and inserts still end.
        let mut slots = [0u64; 16];
        let mut t = KeyIndex::new(&mut slots, 8, 1);
        for k in 0..16 {
            assert_eq!(t.insert(k, k), Some(true));
        }
        assert_eq!(
            (t.insert(99, 0), t.get(99), t.get(15)),
            (None, None, Some(15))
        );
    }

    #[cfg(feature = "alloc")]
    #[test]
    fn stamps_separate_tables() {
        let mut slots = Slots::default();
        let s = slots.next_stamp();
        assert_eq!(slots.table(4, s).insert(7, 1), Some(true));
        // 300 more tables: the stamp wraps and the slots are cleared.
        for _ in 0..300 {
            let s = slots.next_stamp();
            assert_eq!(slots.table(4, s).get(7), None);
        }
        assert_eq!(slots.table(4, s).get(7), None);
    }
}
