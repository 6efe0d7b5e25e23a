//! Console commands by who issued them: chat commands, rcon commands and
//! the server's own.
//!
//! DDNet records every console command a client runs *from the chat*
//! (`/team 3`, `/save`, …) as a CONSOLE_COMMAND with the client's id and
//! the flag mask [`CFGFLAG_CHAT`] (DDNet's `engine/shared/config.h`,
//! `1 << 7`); rcon commands carry the client's id and [`CFGFLAG_SERVER`]
//! (`1 << 2`); the server console, config files and passed votes carry
//! client id −1. Commands flagged `CFGFLAG_NONTEEHISTORIC` (`/me`, `/w`,
//! …: private text) are never recorded. [`Message::command`] gives the
//! typed form.
//!
//! ```
//! use gamefmt::teehistorian::{CFGFLAG_CHAT, CommandLine, CommandSource, Message};
//!
//! let record = Message::ConsoleCommand {
//!     cid: 3,
//!     flags: CFGFLAG_CHAT,
//!     // `team`, one argument, `7`: as a file holds them.
//!     line: CommandLine::new(b"team\0\x017\0").unwrap(),
//! };
//! let command = record.command().expect("a console command");
//! assert_eq!(command.source, CommandSource::Chat);
//! assert_eq!(command.source.name(), "chat command");
//! assert_eq!(command.args.iter().next(), Some(&b"7"[..]));
//! ```

use super::message::{Args, Message};

/// DDNet's `CFGFLAG_SERVER`: a command run on the server (rcon, console).
pub const CFGFLAG_SERVER: i32 = 1 << 2;
/// DDNet's `CFGFLAG_CHAT`: a command a player ran from the chat.
pub const CFGFLAG_CHAT: i32 = 1 << 7;

/// Who issued a console command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum CommandSource {
    /// A player's chat command (client id ≥ 0, [`CFGFLAG_CHAT`] set).
    Chat,
    /// A client's rcon command (client id ≥ 0, no [`CFGFLAG_CHAT`]).
    Rcon,
    /// The server itself: console, config, econ, a passed vote (client
    /// id −1 or any other negative id).
    Server,
}

impl CommandSource {
    /// Classifies a CONSOLE_COMMAND by its client id and flag mask.
    #[must_use]
    pub const fn of(cid: i32, flags: i32) -> Self {
        if cid < 0 {
            Self::Server
        } else if flags & CFGFLAG_CHAT != 0 {
            Self::Chat
        } else {
            Self::Rcon
        }
    }

    /// `"chat command"`, `"rcon command"` or `"server command"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Chat => "chat command",
            Self::Rcon => "rcon command",
            Self::Server => "server command",
        }
    }
}

/// A CONSOLE_COMMAND with its source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Command<'a> {
    /// Who issued it.
    pub source: CommandSource,
    /// Client id, −1 for the server.
    pub cid: i32,
    /// The raw flag mask.
    pub flags: i32,
    /// The command name, e.g. `b"team"`.
    pub cmd: &'a [u8],
    /// Its arguments.
    pub args: Args<'a>,
}

impl<'a> Message<'a> {
    /// The console command this record carries, classified; `None` for
    /// every other kind.
    #[must_use]
    pub fn command(&self) -> Option<Command<'a>> {
        match *self {
            Message::ConsoleCommand { cid, flags, line } => Some(Command {
                source: CommandSource::of(cid, flags),
                cid,
                flags,
                cmd: line.cmd(),
                args: line.args(),
            }),
            _ => None,
        }
    }
}
