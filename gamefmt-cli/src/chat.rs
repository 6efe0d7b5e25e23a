//! `gamefmt chat`: the chat of demos and teehistorian recordings, and
//! with `--rcon` and `--broadcast` the rcon lines and server broadcasts.
//!
//! Takes the same inputs as every command (streamed: stdin, directories,
//! gzip/zstd/xz, `--jobs`); each line is written as soon as it is decoded.

use std::collections::BTreeMap;
use std::io::Write;

use gamefmt::Protocol;
use gamefmt::netmsg::{self, Extended, Game06, Game07, NetMsg, System06, System07};
use gamefmt::teehistorian::{ClientProtocols, CommandSource, Message, PlayerNames};
use serde_json::json;

use crate::netmsg::{player_name, players, text};
use crate::{CliError, demo, json_line, teehistorian};
use gamefmt_cli::input::Input;

/// What `chat` prints besides chat messages and chat commands.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// One JSON object per line instead of text.
    pub json: bool,
    /// Rcon lines: the server's rcon output in demos (`NETMSG_RCON_LINE`),
    /// clients' rcon commands in recordings.
    pub rcon: bool,
    /// Server broadcasts (`Sv_Broadcast`) and DDNet's server and
    /// moderator alerts, in demos.
    pub broadcast: bool,
}

/// One line of chat.
struct Line {
    tick: Option<i32>,
    /// `chat` (a chat message), `command` (a chat command, teehistorian),
    /// `rcon` (an rcon line or command) or `broadcast`.
    kind: &'static str,
    /// Author, −1 for the server.
    client_id: i32,
    name: Option<String>,
    /// `all`, `team`, `whisper`; `alert`, `moderator` for DDNet's alerts.
    channel: &'static str,
    message: String,
}

impl Line {
    fn write(&self, as_json: bool, out: &mut dyn Write) -> Result<(), CliError> {
        if as_json {
            json_line(
                out,
                &json!({
                    "tick": self.tick, "kind": self.kind, "client_id": self.client_id,
                    "name": self.name, "channel": self.channel, "message": self.message,
                }),
            )?;
            return Ok(());
        }
        let who = match (&self.name, self.client_id) {
            (_, id) if id < 0 => "***".to_owned(),
            (Some(name), _) => name.clone(),
            (None, id) => format!("#{id}"),
        };
        let tick = self.tick.map_or_else(|| "-".to_owned(), |t| t.to_string());
        let channel = match (self.kind, self.channel) {
            ("rcon" | "broadcast", "all") => format!(" ({})", self.kind),
            (_, "all") => String::new(),
            (_, c) => format!(" ({c})"),
        };
        writeln!(out, "{tick}\t{who}{channel}: {}", self.message)?;
        Ok(())
    }
}

fn channel06(team: i32) -> &'static str {
    match team {
        1 => "team",
        2 | 3 => "whisper",
        _ => "all",
    }
}

fn channel07(mode: i32) -> &'static str {
    match mode {
        2 => "team",
        3 => "whisper",
        _ => "all",
    }
}

/// `gamefmt chat` on a demo: Sv_Chat messages, named from the snapshot in
/// effect (client info objects) or, in 0.7, the latest Sv_ClientInfo.
pub fn demo(input: &mut Input, options: Options, out: &mut dyn Write) -> Result<(), CliError> {
    let mut reader = gamefmt::demo::Reader::new(&mut *input)?;
    let protocol = Protocol::of_net_version(reader.header().net_version());
    let mut names07: BTreeMap<i32, String> = BTreeMap::new();
    demo::walk(&mut reader, |_, tick, rec, msg| {
        let Some(msg) = msg else { return Ok(()) };
        let Ok(msg) = netmsg::decode(protocol, msg) else {
            return Ok(());
        };
        let (kind, client_id, channel, message) = match msg {
            NetMsg::Game06(Game06::SvChat {
                team,
                client_id,
                message,
            }) => ("chat", client_id, channel06(team), message),
            NetMsg::Game07(Game07::SvChat {
                mode,
                client_id,
                message,
                ..
            }) => ("chat", client_id, channel07(mode), message),
            NetMsg::Game07(Game07::SvClientInfo {
                client_id, info, ..
            }) => {
                names07.insert(client_id, text(info.name));
                return Ok(());
            }
            NetMsg::System06(System06::RconLine { line })
            | NetMsg::System07(System07::RconLine { line })
                if options.rcon =>
            {
                ("rcon", -1, "all", line)
            }
            NetMsg::Game06(Game06::SvBroadcast { message })
            | NetMsg::Game07(Game07::SvBroadcast { message })
                if options.broadcast =>
            {
                ("broadcast", -1, "all", message)
            }
            NetMsg::Extended(Extended::SvServerAlert { message }) if options.broadcast => {
                ("broadcast", -1, "alert", message)
            }
            NetMsg::Extended(Extended::SvModeratorAlert { message }) if options.broadcast => {
                ("broadcast", -1, "moderator", message)
            }
            _ => return Ok(()),
        };
        let from_snapshot = || player_name(&players(protocol, &rec.snapshot()?), client_id);
        let name = (client_id >= 0)
            .then(|| from_snapshot().or_else(|| names07.get(&client_id).cloned()))
            .flatten();
        Line {
            tick,
            kind,
            client_id,
            name,
            channel,
            message: text(message),
        }
        .write(options.json, out)
    })?;
    Ok(())
}

/// `gamefmt chat` on a teehistorian recording: Cl_Say MESSAGE records (old
/// servers recorded them) and chat commands, named from EX player-name;
/// with `--rcon`, clients' rcon commands.
pub fn teehistorian(
    input: &mut Input,
    options: Options,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let (mut reader, _header) = teehistorian::open(input)?;
    let mut names = Box::new(PlayerNames::<{ gamefmt::teehistorian::MAX_CLIENTS }>::new());
    let mut protocols = Box::new(ClientProtocols::<{ gamefmt::teehistorian::MAX_CLIENTS }>::new());
    while let Some(record) = teehistorian::next_record(&mut reader) {
        let record = record?;
        names.apply(&record.message);
        protocols.apply(&record.message);
        let name = |cid: i32| {
            names
                .get(cid)
                .map(|n| String::from_utf8_lossy(n).into_owned())
        };
        let line = match record.message {
            Message::PlayerMessage { cid, data } => {
                let (kind, channel, message) = match netmsg::decode(protocols.get(cid), data) {
                    Ok(NetMsg::Game06(Game06::ClSay { team, message })) => {
                        ("chat", if team { "team" } else { "all" }, message)
                    }
                    Ok(NetMsg::Game07(Game07::ClSay { mode, message, .. })) => {
                        ("chat", channel07(mode), message)
                    }
                    Ok(
                        NetMsg::System06(System06::RconCmd { cmd })
                        | NetMsg::System07(System07::RconCmd { cmd }),
                    ) if options.rcon => ("rcon", "all", cmd),
                    _ => continue,
                };
                Line {
                    tick: Some(record.tick),
                    kind,
                    client_id: cid,
                    name: name(cid),
                    channel,
                    message: text(message),
                }
            }
            _ => {
                let Some(command) = record.message.command() else {
                    continue;
                };
                let kind = match command.source {
                    CommandSource::Chat => "command",
                    CommandSource::Rcon if options.rcon => "rcon",
                    _ => continue,
                };
                let mut message = String::from_utf8_lossy(command.cmd).into_owned();
                if kind == "command" {
                    message.insert(0, '/');
                }
                for arg in command.args.iter() {
                    message.push(' ');
                    message.push_str(&String::from_utf8_lossy(arg));
                }
                Line {
                    tick: Some(record.tick),
                    kind,
                    client_id: command.cid,
                    name: name(command.cid),
                    channel: "all",
                    message,
                }
            }
        };
        line.write(options.json, out)?;
    }
    Ok(())
}
