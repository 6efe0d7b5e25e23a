//! The UUIDs of teehistorian: the file magic and every EX message DDNet
//! knows (teeworlds.md §2.4).
//!
//! Each is the version 3 UUID of its name in the Teeworlds namespace
//! [`TEEWORLDS_NAMESPACE`]; [`NAMES`] pairs them with those names.

use uuid::{Uuid, uuid};

/// The namespace every Teeworlds/DDNet UUID is derived in.
pub const TEEWORLDS_NAMESPACE: Uuid = uuid!("e05ddaaa-c4e6-4cfb-b642-5d48e80c0029");

/// `teehistorian@ddnet.tw` (`699db17b-8efb-34ff-b1d8-da6f60c15dd1`): the
/// first 16 bytes of every teehistorian file.
pub const TEEHISTORIAN: Uuid = Uuid::from_bytes(crate::format::TEEHISTORIAN_MAGIC);

/// `teehistorian-test@ddnet.tw`: a test message with an empty payload.
pub const TEST: Uuid = uuid!("6bb8ba88-0f0b-382e-8dae-dbf4052b8b7d");
/// `teehistorian-ddnetver-old@ddnet.tw`: a client's DDNet version (old form).
pub const DDNETVER_OLD: Uuid = uuid!("41b49541-f26f-325d-8715-9baf4b544ef9");
/// `teehistorian-ddnetver@ddnet.tw`: a client's DDNet version and connection id.
pub const DDNETVER: Uuid = uuid!("1397b63e-ee4e-3919-b86a-b058887fcaf5");
/// `teehistorian-auth-init@ddnet.tw`: rcon access carried over a map change.
pub const AUTH_INIT: Uuid = uuid!("60daba5c-52c4-3aeb-b8ba-b2953fb55a17");
/// `teehistorian-auth-login@ddnet.tw`: an rcon login.
pub const AUTH_LOGIN: Uuid = uuid!("37ecd3b8-9218-3bb9-a71b-a935b86f6a81");
/// `teehistorian-auth-logout@ddnet.tw`: an rcon logout.
pub const AUTH_LOGOUT: Uuid = uuid!("d4f5abe8-edd2-3fb9-abd8-1c8bb84f4a63");
/// `teehistorian-joinver6@ddnet.tw`: the next JOIN is a 0.6 client.
pub const JOINVER6: Uuid = uuid!("1899a382-71e3-36da-937d-c9de6bb95b1d");
/// `teehistorian-joinver7@ddnet.tw`: the next JOIN is a 0.7 client.
pub const JOINVER7: Uuid = uuid!("59239b05-0540-318d-bea4-9aa1e80e7d2b");
/// `teehistorian-player-swap@ddnet.tw`: two players swapped tees.
pub const PLAYER_SWITCH: Uuid = uuid!("5de9b633-49cf-3e99-9a25-d4a78e9717d7");
/// `teehistorian-save-success@ddnet.tw`: a team was saved.
pub const SAVE_SUCCESS: Uuid = uuid!("4560c756-da29-3036-81d4-90a50f0182cd");
/// `teehistorian-save-failure@ddnet.tw`: saving a team failed.
pub const SAVE_FAILURE: Uuid = uuid!("b29901d5-1244-3bd0-bbde-23d04b1f7ba9");
/// `teehistorian-load-success@ddnet.tw`: a team was loaded.
pub const LOAD_SUCCESS: Uuid = uuid!("e05408d3-a313-33df-9eb3-ddb990ab954a");
/// `teehistorian-load-failure@ddnet.tw`: loading a team failed.
pub const LOAD_FAILURE: Uuid = uuid!("ef8905a2-c695-3591-a1cd-53d2015992dd");
/// `teehistorian-player-team@ddnet.tw`: a player changed team.
pub const PLAYER_TEAM: Uuid = uuid!("a111c04e-1ea8-38e0-90b1-d7f993ca0da9");
/// `teehistorian-team-practice@ddnet.tw`: a team entered or left practice mode.
pub const TEAM_PRACTICE: Uuid = uuid!("5792834e-81d1-34c9-a29b-b5ff25dac3bc");
/// `teehistorian-player-ready@ddnet.tw`: a client said it is ready to join.
pub const PLAYER_READY: Uuid = uuid!("638587c9-3f75-3887-918e-a3c2614ffaa0");
/// `teehistorian-rejoinver6@ddnet.org`: a 0.6 client rejoined.
pub const PLAYER_REJOIN: Uuid = uuid!("c1e921d5-96f5-37bb-8a45-7a06f163d27e");
/// `teehistorian-antibot@ddnet.org`: opaque antibot data.
pub const ANTIBOT: Uuid = uuid!("866bfdac-fb49-3c0b-a887-5fe1f3ea00b8");
/// `teehistorian-player-name@ddnet.org`: a player's name.
pub const PLAYER_NAME: Uuid = uuid!("d016f9b9-4151-3b87-87e5-3a6087eb5f26");
/// `teehistorian-player-finish@ddnet.org`: a player finished a race.
pub const PLAYER_FINISH: Uuid = uuid!("68943c01-2348-3e01-9490-3f27f8269d94");
/// `teehistorian-team-finish@ddnet.org`: a team finished a race.
pub const TEAM_FINISH: Uuid = uuid!("9588b9af-3fdc-3760-8043-82deeee317a5");

/// Every known EX UUID with the name it is derived from.
pub const NAMES: [(Uuid, &str); 21] = [
    (TEST, "teehistorian-test@ddnet.tw"),
    (DDNETVER_OLD, "teehistorian-ddnetver-old@ddnet.tw"),
    (DDNETVER, "teehistorian-ddnetver@ddnet.tw"),
    (AUTH_INIT, "teehistorian-auth-init@ddnet.tw"),
    (AUTH_LOGIN, "teehistorian-auth-login@ddnet.tw"),
    (AUTH_LOGOUT, "teehistorian-auth-logout@ddnet.tw"),
    (JOINVER6, "teehistorian-joinver6@ddnet.tw"),
    (JOINVER7, "teehistorian-joinver7@ddnet.tw"),
    (PLAYER_SWITCH, "teehistorian-player-swap@ddnet.tw"),
    (SAVE_SUCCESS, "teehistorian-save-success@ddnet.tw"),
    (SAVE_FAILURE, "teehistorian-save-failure@ddnet.tw"),
    (LOAD_SUCCESS, "teehistorian-load-success@ddnet.tw"),
    (LOAD_FAILURE, "teehistorian-load-failure@ddnet.tw"),
    (PLAYER_TEAM, "teehistorian-player-team@ddnet.tw"),
    (TEAM_PRACTICE, "teehistorian-team-practice@ddnet.tw"),
    (PLAYER_READY, "teehistorian-player-ready@ddnet.tw"),
    (PLAYER_REJOIN, "teehistorian-rejoinver6@ddnet.org"),
    (ANTIBOT, "teehistorian-antibot@ddnet.org"),
    (PLAYER_NAME, "teehistorian-player-name@ddnet.org"),
    (PLAYER_FINISH, "teehistorian-player-finish@ddnet.org"),
    (TEAM_FINISH, "teehistorian-team-finish@ddnet.org"),
];

/// The name of a known EX UUID, e.g. `"teehistorian-player-name@ddnet.org"`.
#[must_use]
pub fn name(uuid: &Uuid) -> Option<&'static str> {
    index(uuid).and_then(|i| NAMES.get(i)).map(|&(_, n)| n)
}

/// The EX messages DDNet knows, in the order of [`NAMES`]: what
/// [`Ex::parse`](super::Ex::parse) dispatches on (one jump on a small
/// number, where a `match` on the UUIDs compared up to 21 of them in turn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Known {
    Test,
    DdnetVersionOld,
    DdnetVersion,
    AuthInit,
    AuthLogin,
    AuthLogout,
    JoinVer6,
    JoinVer7,
    PlayerSwitch,
    SaveSuccess,
    SaveFailure,
    LoadSuccess,
    LoadFailure,
    PlayerTeam,
    TeamPractice,
    PlayerReady,
    PlayerRejoin,
    Antibot,
    PlayerName,
    PlayerFinish,
    TeamFinish,
}

/// [`Known`] by its index in [`NAMES`].
const KNOWN: [Known; NAMES.len()] = [
    Known::Test,
    Known::DdnetVersionOld,
    Known::DdnetVersion,
    Known::AuthInit,
    Known::AuthLogin,
    Known::AuthLogout,
    Known::JoinVer6,
    Known::JoinVer7,
    Known::PlayerSwitch,
    Known::SaveSuccess,
    Known::SaveFailure,
    Known::LoadSuccess,
    Known::LoadFailure,
    Known::PlayerTeam,
    Known::TeamPractice,
    Known::PlayerReady,
    Known::PlayerRejoin,
    Known::Antibot,
    Known::PlayerName,
    Known::PlayerFinish,
    Known::TeamFinish,
];

/// The known EX message a UUID names, if any.
#[inline]
pub(crate) fn known(uuid: &Uuid) -> Option<Known> {
    index(uuid).and_then(|i| KNOWN.get(i).copied())
}

/// The index in [`NAMES`] of a known UUID: the one its first byte points
/// to in [`BY_FIRST_BYTE`], if the whole UUID is that one.
#[inline]
fn index(uuid: &Uuid) -> Option<usize> {
    let [first, ..] = *uuid.as_bytes();
    let slot = BY_FIRST_BYTE.get(usize::from(first)).copied()?;
    let i = usize::from(slot).checked_sub(1)?;
    let (candidate, _) = NAMES.get(i)?;
    (candidate == uuid).then_some(i)
}

/// By a UUID's first byte: 1 + the index in [`NAMES`] of the known UUID
/// that starts with it, or 0 for none. The 21 known UUIDs start with 21
/// different bytes; building the table fails the build if a UUID added to
/// [`NAMES`] breaks that.
#[allow(
    clippy::indexing_slicing,
    reason = "compile-time table: i < NAMES.len() and the byte < 256 by their types and loop"
)]
const BY_FIRST_BYTE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < NAMES.len() {
        let first = NAMES[i].0.as_bytes()[0] as usize;
        assert!(table[first] == 0, "two known EX UUIDs share a first byte");
        table[first] = i as u8 + 1;
        i += 1;
    }
    table
};

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    reason = "unit tests: a panic is the failure report"
)]
mod tests {
    use super::super::{Ex, ExMessage};
    use super::*;

    /// Each known UUID is found under its own name and parses to the
    /// message sent under it ([`ExMessage::uuid`] names each variant's UUID
    /// apart from these tables); a UUID that shares only its first byte
    /// with a known one is unknown.
    #[test]
    fn known_uuids_by_first_byte() {
        let payload = [0u8; 64];
        for &(uuid, name_of) in &NAMES {
            assert_eq!(name(&uuid), Some(name_of));
            let parsed = Ex {
                uuid: &uuid,
                data: &payload,
            }
            .parse()
            .unwrap();
            assert_eq!(parsed.uuid(), uuid, "{name_of}");
            assert!(!matches!(parsed, ExMessage::Unknown { .. }), "{name_of}");

            let mut bytes = *uuid.as_bytes();
            bytes[15] ^= 1;
            let other = Uuid::from_bytes(bytes);
            assert_eq!(known(&other), None);
            assert_eq!(name(&other), None);
            let parsed = Ex {
                uuid: &other,
                data: &payload,
            }
            .parse()
            .unwrap();
            assert_eq!(
                parsed,
                ExMessage::Unknown {
                    uuid: other,
                    data: &payload
                }
            );
        }
        assert_eq!(name(&TEEHISTORIAN), None);
    }
}
