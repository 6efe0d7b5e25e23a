//! Absolute player positions and inputs, rebuilt from the diffs.

use super::input::Input;
use super::message::Message;
use crate::error::{Error, ErrorKind, Result};

/// DDNet's `MAX_CLIENTS` since 2021: client ids 0..=127 (debug dummies
/// count down from 127).
pub const MAX_CLIENTS: usize = 128;

/// What is known about one client id.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Player {
    /// The character's position, if it is alive.
    pub pos: Option<(i32, i32)>,
    /// The last input received, if any.
    pub input: Option<Input>,
}

/// Fixed-capacity state for client ids `0..N` (default [`MAX_CLIENTS`];
/// `PlayerState<64>` for 0.6-era servers), with no allocation.
///
/// Feed it every message in order with [`PlayerState::apply`]; then
/// [`PlayerState::get`] gives a player's absolute position and last input
/// at the current tick. Diffs are added with wrapping arithmetic, as DDNet
/// computes them. INPUT_NEW overwrites any earlier input of the slot (a new
/// connection reusing it, teeworlds.md §2.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerState<const N: usize = MAX_CLIENTS> {
    players: [Player; N],
}

impl<const N: usize> Default for PlayerState<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> PlayerState<N> {
    /// No player alive, no input known.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            players: [Player {
                pos: None,
                input: None,
            }; N],
        }
    }

    /// The state of client id `cid`, if it is in range.
    #[must_use]
    pub fn get(&self, cid: i32) -> Option<&Player> {
        self.players.get(usize::try_from(cid).ok()?)
    }

    /// Every client id with its state.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &Player)> {
        self.players.iter().enumerate()
    }

    /// Applies one message. Messages that carry no player state are
    /// ignored. Fails, leaving the state unchanged, on a client id outside
    /// `0..N` ([`ErrorKind::OutOfBounds`]) or on records DDNet never
    /// writes: a diff or PLAYER_OLD for a player not alive, PLAYER_NEW for
    /// one alive, INPUT_DIFF without an earlier input
    /// ([`ErrorKind::Corrupt`]). Error offsets are 0; use the record's.
    #[inline]
    pub fn apply(&mut self, msg: &Message<'_>) -> Result<()> {
        // PLAYER_DIFF, most messages, inline: out of line, its dx and dy
        // (stored apart by the decoder) were loaded as one word and the
        // load waited for both stores.
        if let Message::PlayerDiff { cid, dx, dy } = *msg {
            return match &mut self.slot(cid)?.pos {
                Some((x, y)) => {
                    *x = x.wrapping_add(dx);
                    *y = y.wrapping_add(dy);
                    Ok(())
                }
                None => Err(dead()),
            };
        }
        self.apply_other(msg)
    }

    /// [`Self::apply`] for the messages other than PLAYER_DIFF, each
    /// updating its slot in place.
    fn apply_other(&mut self, msg: &Message<'_>) -> Result<()> {
        match *msg {
            Message::PlayerNew { cid, x, y } => {
                let pos = &mut self.slot(cid)?.pos;
                if pos.is_some() {
                    return Err(Error::corrupt("PLAYER_NEW for a living player", 0));
                }
                *pos = Some((x, y));
            }
            Message::PlayerOld { cid } => {
                let pos = &mut self.slot(cid)?.pos;
                if pos.is_none() {
                    return Err(dead());
                }
                *pos = None;
            }
            Message::InputDiff { cid, diff } => match &mut self.slot(cid)?.input {
                Some(input) => {
                    for (v, d) in input.iter_mut().zip(diff.get()) {
                        *v = v.wrapping_add(d);
                    }
                }
                None => return Err(Error::corrupt("INPUT_DIFF without earlier input", 0)),
            },
            Message::InputNew { cid, input } => self.slot(cid)?.input = Some(input.get()),
            _ => {}
        }
        Ok(())
    }

    /// The state of client id `cid`, writable; fails on an id outside
    /// `0..N`.
    #[inline]
    fn slot(&mut self, cid: i32) -> Result<&mut Player> {
        usize::try_from(cid)
            .ok()
            .and_then(|i| self.players.get_mut(i))
            .ok_or(Error::new(ErrorKind::OutOfBounds, 0))
    }
}

/// A diff or PLAYER_OLD for a player not alive.
fn dead() -> Error {
    Error::corrupt("player record for a dead player", 0)
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    reason = "unit tests: a panic is the failure report"
)]
mod tests {
    use super::*;
    use crate::teehistorian::PackedInput;

    #[test]
    fn applies_diffs_with_wrapping() {
        let mut s = PlayerState::<64>::new();
        s.apply(&Message::PlayerNew {
            cid: 3,
            x: i32::MAX,
            y: 10,
        })
        .unwrap();
        s.apply(&Message::PlayerDiff {
            cid: 3,
            dx: 1,
            dy: -20,
        })
        .unwrap();
        assert_eq!(s.get(3).unwrap().pos, Some((i32::MIN, -10)));
        let mut input = [0; 10];
        input[1] = 100;
        s.apply(&Message::InputNew {
            cid: 3,
            input: PackedInput::from_ints(&input),
        })
        .unwrap();
        let mut diff = [0; 10];
        diff[1] = -150;
        s.apply(&Message::InputDiff {
            cid: 3,
            diff: PackedInput::from_ints(&diff),
        })
        .unwrap();
        assert_eq!(s.get(3).unwrap().input.unwrap()[1], -50);
        // A new connection in the slot: INPUT_NEW overwrites.
        s.apply(&Message::InputNew {
            cid: 3,
            input: PackedInput::from_ints(&[7; 10]),
        })
        .unwrap();
        assert_eq!(s.get(3).unwrap().input, Some([7; 10]));
        s.apply(&Message::PlayerOld { cid: 3 }).unwrap();
        assert_eq!(s.get(3).unwrap().pos, None);
    }

    #[test]
    fn rejects_what_ddnet_never_writes() {
        let mut s = PlayerState::<64>::new();
        let before = s.clone();
        for msg in [
            Message::PlayerDiff {
                cid: 1,
                dx: 0,
                dy: 0,
            },
            Message::PlayerOld { cid: 1 },
            Message::InputDiff {
                cid: 1,
                diff: PackedInput::from_ints(&[0; 10]),
            },
            Message::PlayerOld { cid: 64 },
            Message::PlayerOld { cid: -1 },
        ] {
            assert!(s.apply(&msg).is_err(), "{msg:?}");
        }
        assert_eq!(s, before);
        s.apply(&Message::PlayerNew { cid: 1, x: 0, y: 0 }).unwrap();
        assert!(s.apply(&Message::PlayerNew { cid: 1, x: 0, y: 0 }).is_err());
        assert!(s.apply(&Message::Finish).is_ok());
    }
}
