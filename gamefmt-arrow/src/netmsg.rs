//! Network messages (demo message chunks, teehistorian MESSAGE records)
//! in two columns: the message's name and its text, decoded with
//! [`gamefmt::netmsg`] (the Python package's record dicts use it too).
//!
//! ```
//! use gamefmt::Protocol;
//! use gamefmt_arrow::netmsg::describe;
//!
//! // Cl_Say (17, game): team false, "hi", as a teehistorian MESSAGE
//! // record carries it.
//! let bytes = [17 << 1, 0, b'h', b'i', 0];
//! assert_eq!(describe(Protocol::V06, &bytes), (Some("Cl_Say".into()), Some("hi".into())));
//! assert_eq!(describe(Protocol::V06, &[]), (None, None));
//!
//! // Sv_KillMsg (4): killer 1, victim 2, weapon 3: its typed fields.
//! let ints = gamefmt_arrow::netmsg::typed(Protocol::V06, &[4 << 1, 1, 2, 3, 0]);
//! let field = |name: &str| {
//!     let at = gamefmt_arrow::netmsg::TYPED.iter().position(|&f| f == name)?;
//!     ints.get(at).copied().flatten()
//! };
//! assert_eq!((field("killer"), field("victim"), field("weapon")), (Some(1), Some(2), Some(3)));
//! assert_eq!(field("client_id"), None);
//! ```

use gamefmt::Protocol;
use gamefmt::netmsg::{Extended, Game06, Game07, NetMsg, NetStr, System06, System07, decode};

fn text(s: NetStr<'_>) -> Option<String> {
    Some(s.sanitized().collect())
}

/// The message's name ([`NetMsg::name`]: DDNet's, `Sv_Chat`, `Cl_Say`,
/// `NETMSG_SNAP`, ...; `unknown_system`, `unknown_game`, `unknown_ex` for
/// what DDNet does not define) and its text when it carries one (chat,
/// broadcast, MOTD, vote, a client's name, an rcon line, an alert), or `None`s when it does not
/// decode.
pub fn describe(protocol: Protocol, bytes: &[u8]) -> (Option<String>, Option<String>) {
    match decode(protocol, bytes) {
        Ok(msg @ NetMsg::Game06(g)) => {
            let body = match g {
                Game06::SvMotd { message }
                | Game06::SvBroadcast { message }
                | Game06::SvChat { message, .. }
                | Game06::ClSay { message, .. } => text(message),
                Game06::SvVoteSet { description, .. }
                | Game06::SvVoteOptionAdd { description }
                | Game06::SvVoteOptionRemove { description } => text(description),
                Game06::ClStartInfo(info) | Game06::ClChangeInfo(info) => text(info.name),
                _ => None,
            };
            (Some(msg.name().to_owned()), body)
        }
        Ok(msg @ NetMsg::Game07(g)) => {
            let body = match g {
                Game07::SvMotd { message }
                | Game07::SvBroadcast { message }
                | Game07::SvChat { message, .. }
                | Game07::ClSay { message, .. } => text(message),
                Game07::SvVoteSet { description, .. }
                | Game07::SvVoteOptionAdd { description }
                | Game07::SvVoteOptionRemove { description } => text(description),
                Game07::ClStartInfo(info) | Game07::SvClientInfo { info, .. } => text(info.name),
                Game07::DeClientEnter { name, .. } | Game07::DeClientLeave { name, .. } => {
                    text(name)
                }
                Game07::SvClientDrop { reason, .. } => text(reason),
                _ => None,
            };
            (Some(msg.name().to_owned()), body)
        }
        Ok(
            msg @ (NetMsg::System06(System06::RconLine { line })
            | NetMsg::System07(System07::RconLine { line })),
        ) => (Some(msg.name().to_owned()), text(line)),
        Ok(
            msg @ NetMsg::Extended(
                Extended::SvServerAlert { message } | Extended::SvModeratorAlert { message },
            ),
        ) => (Some(msg.name().to_owned()), text(message)),
        Ok(msg) => (Some(msg.name().to_owned()), None),
        Err(_) => (None, None),
    }
}

/// The typed columns of the `messages` table: fields of the common kinds
/// (chat, kill, vote, race time, the client a message names), each the
/// core's serialized field of that name ([`gamefmt::netmsg::NetMsg`]'s
/// `Serialize`), so a column holds a value for every kind that has the
/// field: `client_id` (Sv_Chat's author, Sv_Emoticon, 0.7 Sv_VoteSet's
/// caller, Sv_RaceFinish, ...), `team` (0.6 Sv_Chat and Cl_Say; 1 for
/// team chat), `mode` (0.7 Sv_Chat and Cl_Say), `killer`, `victim`,
/// `weapon` (Sv_KillMsg), `timeout` (Sv_VoteSet), `yes`, `no`, `pass`,
/// `total` (Sv_VoteStatus), `time` (Sv_RaceFinish in ms, Sv_DDRaceTime in
/// centiseconds).
pub const TYPED: [&str; 12] = [
    "client_id",
    "team",
    "mode",
    "killer",
    "victim",
    "weapon",
    "timeout",
    "yes",
    "no",
    "pass",
    "total",
    "time",
];

/// The message's [`TYPED`] fields, in that order (`None` where its kind
/// has no such field or it does not decode; a boolean field is 0 or 1).
pub fn typed(protocol: Protocol, bytes: &[u8]) -> [Option<i32>; TYPED.len()] {
    let mut out = [None; TYPED.len()];
    let Ok(msg) = decode(protocol, bytes) else {
        return out;
    };
    // Only the kinds that have one of the fields are serialized.
    let has_typed = matches!(
        msg,
        NetMsg::Game06(
            Game06::SvChat { .. }
                | Game06::ClSay { .. }
                | Game06::SvKillMsg { .. }
                | Game06::SvVoteSet { .. }
                | Game06::SvVoteStatus { .. }
                | Game06::SvEmoticon { .. }
                | Game06::SvDDRaceTimeLegacy { .. }
        ) | NetMsg::Game07(_)
            | NetMsg::Extended(_)
    );
    if !has_typed {
        return out;
    }
    let Ok(serde_json::Value::Object(fields)) = serde_json::to_value(msg) else {
        return out;
    };
    for (slot, name) in out.iter_mut().zip(TYPED) {
        *slot = match fields.get(name) {
            Some(serde_json::Value::Number(n)) => n.as_i64().and_then(|v| i32::try_from(v).ok()),
            Some(serde_json::Value::Bool(b)) => Some(i32::from(*b)),
            _ => None,
        };
    }
    out
}
