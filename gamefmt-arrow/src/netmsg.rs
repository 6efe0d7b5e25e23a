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
//! ```

use gamefmt::Protocol;
use gamefmt::netmsg::{Game06, Game07, NetMsg, NetStr, decode};

fn text(s: NetStr<'_>) -> Option<String> {
    Some(s.sanitized().collect())
}

/// The message's name ([`NetMsg::name`]: DDNet's, `Sv_Chat`, `Cl_Say`,
/// `NETMSG_SNAP`, ...; `unknown_system`, `unknown_game`, `unknown_ex` for
/// what DDNet does not define) and its text when it carries one (chat,
/// broadcast, MOTD, vote, a client's name), or `None`s when it does not
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
        Ok(msg) => (Some(msg.name().to_owned()), None),
        Err(_) => (None, None),
    }
}
