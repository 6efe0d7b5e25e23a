//! [`PlayerNames`]: the name of every client id, so that any record can
//! be attributed to a player.
//!
//! What the format carries: JOIN and DROP carry only the client id; DDNet
//! servers since 2024 write the name the server accepted in an EX
//! `teehistorian-player-name@ddnet.org` record (cid, name) when a player
//! joins and whenever it changes. Older recordings carry names only inside
//! the client's own MESSAGE records (its start info / change info), which
//! the server may still have refused or altered; those are not read here.
//!
//! ```
//! # fn main() -> Result<(), gamefmt::Error> {
//! use gamefmt::teehistorian::{PlayerNames, TeehistorianIter, SAMPLE};
//!
//! let mut names = PlayerNames::<64>::new();
//! let mut positions = 0;
//! for record in TeehistorianIter::new(SAMPLE)? {
//!     let record = record?;
//!     names.apply(&record.message);
//!     if record.message.player_record_cid().is_some() {
//!         let who = record.message.client_id().and_then(|cid| names.get(cid));
//!         assert_eq!(who, Some(&b"nameless tee"[..]));
//!         positions += 1;
//!     }
//! }
//! assert_eq!(positions, 2);
//! # Ok(()) }
//! ```

use super::message::{ExMessage, Message};
use super::player_state::MAX_CLIENTS;

/// Bytes of a name [`PlayerNames`] keeps: DDNet allows 15 characters of up
/// to 4 UTF-8 bytes each; a longer name is cut to this many bytes.
pub const NAME_CAPACITY: usize = 64;

/// The current name of every client id `0..N`, in fixed memory
/// (`N` × [`NAME_CAPACITY`] bytes); no allocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerNames<const N: usize = MAX_CLIENTS> {
    names: [[u8; NAME_CAPACITY]; N],
    /// Length of each known name; `None`: not known.
    lens: [Option<u8>; N],
}

impl<const N: usize> Default for PlayerNames<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> PlayerNames<N> {
    /// No name known.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            names: [[0; NAME_CAPACITY]; N],
            lens: [None; N],
        }
    }

    /// Applies one record: EX player-name sets a name; JOIN (a new
    /// connection) and DROP forget the slot's name. Client ids outside
    /// `0..N` and every other record are ignored.
    pub fn apply(&mut self, msg: &Message<'_>) {
        match *msg {
            Message::Join { cid } | Message::Drop { cid, .. } => self.set(cid, None),
            Message::Ex(ex) => {
                if let Ok(ExMessage::PlayerName { cid, name }) = ex.parse() {
                    self.set(cid, Some(name));
                }
            }
            _ => {}
        }
    }

    /// Sets (or with `None` forgets) the name of `cid`; ignored outside
    /// `0..N`. For callers that learn names elsewhere (e.g. from a
    /// client's start info in an older recording).
    pub fn set(&mut self, cid: i32, name: Option<&[u8]>) {
        let Ok(i) = usize::try_from(cid) else { return };
        let (Some(slot), Some(len)) = (self.names.get_mut(i), self.lens.get_mut(i)) else {
            return;
        };
        *len = name.map(|name| {
            let kept = name.get(..NAME_CAPACITY).unwrap_or(name);
            if let Some(dst) = slot.get_mut(..kept.len()) {
                dst.copy_from_slice(kept);
            }
            // At most NAME_CAPACITY (64) bytes: fits a u8.
            u8::try_from(kept.len()).unwrap_or(u8::MAX)
        });
    }

    /// The name of `cid`, if known.
    #[must_use]
    pub fn get(&self, cid: i32) -> Option<&[u8]> {
        let i = usize::try_from(cid).ok()?;
        let len = (*self.lens.get(i)?)?;
        self.names.get(i)?.get(..usize::from(len))
    }
}

impl Message<'_> {
    /// The client id this record is about, when it names one: player and
    /// input records, MESSAGE, JOIN, DROP, a client's CONSOLE_COMMAND (not
    /// the server's −1), and EX records with a client id (player-swap: the
    /// first). `None` for the rest.
    #[must_use]
    pub fn client_id(&self) -> Option<i32> {
        let cid = match *self {
            Message::PlayerDiff { cid, .. }
            | Message::PlayerNew { cid, .. }
            | Message::PlayerOld { cid }
            | Message::InputDiff { cid, .. }
            | Message::InputNew { cid, .. }
            | Message::PlayerMessage { cid, .. }
            | Message::Join { cid }
            | Message::Drop { cid, .. }
            | Message::ConsoleCommand { cid, .. } => cid,
            Message::Ex(ex) => match ex.parse().ok()? {
                ExMessage::DdnetVersionOld { cid, .. }
                | ExMessage::DdnetVersion { cid, .. }
                | ExMessage::AuthInit { cid, .. }
                | ExMessage::AuthLogin { cid, .. }
                | ExMessage::AuthLogout { cid }
                | ExMessage::JoinVer6 { cid }
                | ExMessage::JoinVer7 { cid }
                | ExMessage::PlayerSwitch { cid1: cid, .. }
                | ExMessage::PlayerTeam { cid, .. }
                | ExMessage::PlayerReady { cid }
                | ExMessage::PlayerRejoin { cid }
                | ExMessage::PlayerName { cid, .. }
                | ExMessage::PlayerFinish { cid, .. } => cid,
                _ => return None,
            },
            _ => return None,
        };
        (cid >= 0).then_some(cid)
    }
}
