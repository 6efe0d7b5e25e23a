//! Chat: the lines people read in a game — chat messages, rcon lines and
//! commands, server broadcasts and DDNet's alerts — taken from the network
//! messages that carry them, in both directions: `Sv_Chat` and the
//! server's lines in demos, `Cl_Say` and `Rcon_Cmd` in the MESSAGE records
//! of teehistorian recordings. [`Chat::of_message`] names the author, the
//! channel and the text in one vocabulary for 0.6/DDNet and 0.7; with
//! `alloc`, [`ChatLine`] is the owned line every surface prints (`gamefmt
//! chat --json`, the npm package's `chat()`).
//!
//! The channel numbers differ by protocol: a 0.6 `team` (0 all, 1 team,
//! 2 and 3 DDNet's whisper sent and received) and a 0.7 `mode` (1 all,
//! 2 team, 3 whisper).
//!
//! ```
//! use gamefmt::netmsg::{Chat, ChatChannel, ChatKind, Protocol, decode};
//!
//! // Sv_Chat (3): team 1, client 4, "gg".
//! let msg = decode(Protocol::V06, b"\x06\x01\x04gg\x00").unwrap();
//! let chat = Chat::of_message(&msg, -1).unwrap();
//! assert_eq!((chat.kind, chat.client_id, chat.channel), (ChatKind::Chat, 4, ChatChannel::Team));
//! assert_eq!(chat.message.to_str(), Some("gg"));
//! assert_eq!((chat.kind.name(), chat.channel.name()), ("chat", "team"));
//! ```

use super::{Extended, Game06, Game07, NetMsg, NetStr, System06, System07};

/// What a chat line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ChatKind {
    /// A chat message (`Sv_Chat`, `Cl_Say`).
    Chat,
    /// A player's chat command (a teehistorian CONSOLE_COMMAND with the
    /// chat flag): `/team 1`.
    Command,
    /// An rcon line (`Sv_RconLine`, the server's console output a demo
    /// recorded) or a client's rcon command (`Cl_RconCmd`).
    Rcon,
    /// A server broadcast (`Sv_Broadcast`) or one of DDNet's alerts.
    Broadcast,
}

impl ChatKind {
    /// `chat`, `command`, `rcon` or `broadcast`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Chat => "chat",
            Self::Command => "command",
            Self::Rcon => "rcon",
            Self::Broadcast => "broadcast",
        }
    }
}

/// Who a chat line is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ChatChannel {
    /// Everyone (also every rcon line and broadcast).
    All,
    /// The author's team.
    Team,
    /// One player (DDNet's whisper; 0.7's).
    Whisper,
    /// DDNet's server alert (`Sv_ServerAlert`).
    Alert,
    /// DDNet's moderator alert (`Sv_ModeratorAlert`).
    Moderator,
}

impl ChatChannel {
    /// `all`, `team`, `whisper`, `alert` or `moderator`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::All => "all",
            Self::Team => "team",
            Self::Whisper => "whisper",
            Self::Alert => "alert",
            Self::Moderator => "moderator",
        }
    }

    /// A 0.6 chat `team`: 1 team, 2 and 3 whisper (DDNet's sent and
    /// received), anything else all.
    #[must_use]
    pub const fn of_team06(team: i32) -> Self {
        match team {
            1 => Self::Team,
            2 | 3 => Self::Whisper,
            _ => Self::All,
        }
    }

    /// A 0.7 chat `mode`: 2 team, 3 whisper, anything else all.
    #[must_use]
    pub const fn of_mode07(mode: i32) -> Self {
        match mode {
            2 => Self::Team,
            3 => Self::Whisper,
            _ => Self::All,
        }
    }
}

/// One chat line of a network message, borrowing its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chat<'a> {
    /// What it is.
    pub kind: ChatKind,
    /// The author's client id, −1 for the server.
    pub client_id: i32,
    /// Who it is for.
    pub channel: ChatChannel,
    /// The text (a `Cl_RconCmd`'s command line).
    pub message: NetStr<'a>,
}

impl<'a> Chat<'a> {
    /// The chat line `msg` carries, if any. `sender` is the client that
    /// sent a client message (`Cl_Say`, `Cl_RconCmd`: a teehistorian
    /// MESSAGE record's client); the server's messages name their author
    /// themselves (`Sv_Chat`) or are the server's (−1).
    #[must_use]
    pub const fn of_message(msg: &NetMsg<'a>, sender: i32) -> Option<Self> {
        use ChatChannel as C;
        use ChatKind as K;
        let (kind, client_id, channel, message) = match *msg {
            NetMsg::Game06(Game06::SvChat {
                team,
                client_id,
                message,
            }) => (K::Chat, client_id, C::of_team06(team), message),
            NetMsg::Game07(Game07::SvChat {
                mode,
                client_id,
                message,
                ..
            }) => (K::Chat, client_id, C::of_mode07(mode), message),
            NetMsg::Game06(Game06::ClSay { team, message }) => {
                let channel = if team { C::Team } else { C::All };
                (K::Chat, sender, channel, message)
            }
            NetMsg::Game07(Game07::ClSay { mode, message, .. }) => {
                (K::Chat, sender, C::of_mode07(mode), message)
            }
            NetMsg::System06(System06::RconLine { line })
            | NetMsg::System07(System07::RconLine { line }) => (K::Rcon, -1, C::All, line),
            NetMsg::System06(System06::RconCmd { cmd })
            | NetMsg::System07(System07::RconCmd { cmd }) => (K::Rcon, sender, C::All, cmd),
            NetMsg::Game06(Game06::SvBroadcast { message })
            | NetMsg::Game07(Game07::SvBroadcast { message }) => {
                (K::Broadcast, -1, C::All, message)
            }
            NetMsg::Extended(Extended::SvServerAlert { message }) => {
                (K::Broadcast, -1, C::Alert, message)
            }
            NetMsg::Extended(Extended::SvModeratorAlert { message }) => {
                (K::Broadcast, -1, C::Moderator, message)
            }
            _ => return None,
        };
        Some(Self {
            kind,
            client_id,
            channel,
            message,
        })
    }
}

#[cfg(feature = "alloc")]
pub use owned::ChatLine;

#[cfg(feature = "alloc")]
mod owned {
    use alloc::string::{String, ToString};

    use super::{Chat, ChatChannel, ChatKind};

    /// One chat line, owned, with its tick and its author's name: the line
    /// `gamefmt chat --json` prints (fields in this order) and the npm
    /// package's `chat()` returns.
    #[derive(Clone, Debug, PartialEq, Eq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize))]
    pub struct ChatLine {
        /// The tick, when known.
        pub tick: Option<i32>,
        /// What it is ([`ChatKind::name`]).
        #[cfg_attr(feature = "serde", serde(serialize_with = "kind_name"))]
        pub kind: ChatKind,
        /// The author's client id, −1 for the server.
        pub client_id: i32,
        /// The author's name, when known.
        pub name: Option<String>,
        /// Who it is for ([`ChatChannel::name`]).
        #[cfg_attr(feature = "serde", serde(serialize_with = "channel_name"))]
        pub channel: ChatChannel,
        /// The text, sanitised as [`NetStr`](super::NetStr)'s `Display`
        /// sanitises it (a chat command: `/` and its arguments).
        pub message: String,
    }

    impl ChatLine {
        /// The line of `chat` at `tick`, by `name`.
        #[must_use]
        pub fn new(tick: Option<i32>, chat: &Chat<'_>, name: Option<String>) -> Self {
            Self {
                tick,
                kind: chat.kind,
                client_id: chat.client_id,
                name,
                channel: chat.channel,
                message: chat.message.to_string(),
            }
        }

        /// The line of a teehistorian chat command (`/cmd arg …`, kind
        /// [`ChatKind::Command`]) or a client's rcon command (`cmd arg …`,
        /// [`ChatKind::Rcon`]) at `tick`, by `name`; `None` for the
        /// server's own commands.
        #[cfg(feature = "teehistorian")]
        #[must_use]
        pub fn of_command(
            tick: i32,
            command: &crate::teehistorian::Command<'_>,
            name: Option<String>,
        ) -> Option<Self> {
            use crate::teehistorian::CommandSource;
            let kind = match command.source {
                CommandSource::Chat => ChatKind::Command,
                CommandSource::Rcon => ChatKind::Rcon,
                CommandSource::Server => return None,
            };
            let mut message = String::new();
            if kind == ChatKind::Command {
                message.push('/');
            }
            message.push_str(&String::from_utf8_lossy(command.cmd));
            for arg in command.args.iter() {
                message.push(' ');
                message.push_str(&String::from_utf8_lossy(arg));
            }
            Some(Self {
                tick: Some(tick),
                kind,
                client_id: command.cid,
                name,
                channel: ChatChannel::All,
                message,
            })
        }
    }

    #[cfg(feature = "serde")]
    #[allow(
        clippy::trivially_copy_pass_by_ref,
        reason = "serde's serialize_with signature"
    )]
    fn kind_name<S: serde::Serializer>(kind: &ChatKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(kind.name())
    }

    #[cfg(feature = "serde")]
    #[allow(
        clippy::trivially_copy_pass_by_ref,
        reason = "serde's serialize_with signature"
    )]
    fn channel_name<S: serde::Serializer>(channel: &ChatChannel, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(channel.name())
    }
}
