//! The names a teehistorian recording gives its players: every name of
//! an EX `teehistorian-player-name@ddnet.org` record. (`PlayerNames` keeps
//! each client id's current name; these tests want every name ever
//! recorded.)
#![allow(dead_code, clippy::unwrap_used)]

use std::collections::BTreeSet;

use gamefmt::teehistorian::{ExMessage, Message, TeehistorianIter};

/// Every player name `teehistorian` records, up to its first damaged
/// record, and the error that ended it early (`Ok` when every record
/// decoded).
pub fn recorded_names(teehistorian: &[u8]) -> (BTreeSet<String>, Result<(), gamefmt::Error>) {
    let mut names = BTreeSet::new();
    for record in TeehistorianIter::new(teehistorian).unwrap() {
        let record = match record {
            Ok(record) => record,
            Err(e) => return (names, Err(e)),
        };
        if let Message::Ex(ex) = record.message {
            if let Ok(ExMessage::PlayerName { name, .. }) = ex.parse() {
                names.insert(String::from_utf8(name.to_vec()).unwrap());
            }
        }
    }
    (names, Ok(()))
}
