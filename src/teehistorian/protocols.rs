//! [`ClientProtocols`]: which network protocol each client speaks, so its
//! MESSAGE records can be decoded ([`crate::netmsg`]).
//!
//! DDNet writes an EX `joinver6` or `joinver7` record right before a
//! client's JOIN; a JOIN without one (older recordings) is a 0.6 client.
//!
//! ```
//! # fn main() -> Result<(), gamefmt::Error> {
//! use gamefmt::Protocol;
//! use gamefmt::teehistorian::{ClientProtocols, TeehistorianIter, SAMPLE};
//!
//! let mut protocols = ClientProtocols::<64>::new();
//! for record in TeehistorianIter::new(SAMPLE)? {
//!     protocols.apply(&record?.message);
//! }
//! assert_eq!(protocols.get(0), Protocol::V06);
//! # Ok(()) }
//! ```

use super::message::{ExMessage, Message};
use super::player_state::MAX_CLIENTS;
use crate::Protocol;

/// The protocol of every client id `0..N`, from JOIN and EX joinver6/7.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientProtocols<const N: usize = MAX_CLIENTS> {
    /// Announced by joinver7, waiting for the JOIN.
    pending07: [bool; N],
    /// Joined as 0.7.
    is07: [bool; N],
}

impl<const N: usize> Default for ClientProtocols<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> ClientProtocols<N> {
    /// Every client 0.6.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            pending07: [false; N],
            is07: [false; N],
        }
    }

    /// Applies one record: EX joinver6/joinver7 announce the next JOIN's
    /// protocol, JOIN settles it. Ids outside `0..N` are ignored.
    pub fn apply(&mut self, msg: &Message<'_>) {
        match *msg {
            Message::Ex(ex) => match ex.parse() {
                Ok(ExMessage::JoinVer7 { cid }) => set(&mut self.pending07, cid, true),
                Ok(ExMessage::JoinVer6 { cid }) => set(&mut self.pending07, cid, false),
                _ => {}
            },
            Message::Join { cid } => {
                let seven = slot(&self.pending07, cid);
                set(&mut self.is07, cid, seven);
                set(&mut self.pending07, cid, false);
            }
            _ => {}
        }
    }

    /// The protocol of `cid` (0.6 for ids never joined as 0.7).
    #[must_use]
    pub fn get(&self, cid: i32) -> Protocol {
        if slot(&self.is07, cid) {
            Protocol::V07
        } else {
            Protocol::V06
        }
    }
}

fn slot(flags: &[bool], cid: i32) -> bool {
    usize::try_from(cid)
        .ok()
        .and_then(|i| flags.get(i).copied())
        .unwrap_or(false)
}

fn set(flags: &mut [bool], cid: i32, value: bool) {
    if let Some(f) = usize::try_from(cid).ok().and_then(|i| flags.get_mut(i)) {
        *f = value;
    }
}
