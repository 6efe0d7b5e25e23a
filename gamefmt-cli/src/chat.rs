//! `gamefmt chat`: the chat of demos and teehistorian recordings.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use gamefmt::netmsg::{self, Game06, Game07, NetMsg};
use gamefmt::teehistorian::{
    ClientProtocols, CommandSource, Message, PlayerNames, TeehistorianIter,
};
use gamefmt::{Format, Protocol};
use serde_json::json;

use crate::netmsg::{player_name, players, text};
use crate::{CliError, demo, json_line};

/// One line of chat.
struct Line {
    tick: Option<i32>,
    /// `chat` (a chat message) or `command` (a chat command, teehistorian).
    kind: &'static str,
    /// Author, −1 for the server.
    client_id: i32,
    name: Option<String>,
    /// `all`, `team`, `whisper`.
    channel: &'static str,
    message: String,
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

/// The chat lines of a demo: Sv_Chat messages, named from the snapshot in
/// effect (client info objects) or, in 0.7, the latest Sv_ClientInfo.
fn demo_lines(bytes: &[u8]) -> Result<Vec<Line>, CliError> {
    let mut reader = gamefmt::demo::Reader::new(bytes)?;
    let protocol = Protocol::of_net_version(reader.header().net_version());
    let mut names07: BTreeMap<i32, String> = BTreeMap::new();
    let mut lines = Vec::new();
    demo::walk(&mut reader, |_, tick, rec, msg| {
        let Some(msg) = msg else { return Ok(()) };
        let Ok(msg) = netmsg::decode(protocol, msg) else {
            return Ok(());
        };
        let (client_id, channel, message) = match msg {
            NetMsg::Game06(Game06::SvChat {
                team,
                client_id,
                message,
            }) => (client_id, channel06(team), message),
            NetMsg::Game07(Game07::SvChat {
                mode,
                client_id,
                message,
                ..
            }) => (client_id, channel07(mode), message),
            NetMsg::Game07(Game07::SvClientInfo {
                client_id, info, ..
            }) => {
                names07.insert(client_id, text(info.name));
                return Ok(());
            }
            _ => return Ok(()),
        };
        let from_snapshot = || player_name(&players(protocol, &rec.snapshot()?), client_id);
        let name = (client_id >= 0)
            .then(|| from_snapshot().or_else(|| names07.get(&client_id).cloned()))
            .flatten();
        lines.push(Line {
            tick,
            kind: "chat",
            client_id,
            name,
            channel,
            message: text(message),
        });
        Ok(())
    })?;
    Ok(lines)
}

/// The chat lines of a teehistorian recording: Cl_Say MESSAGE records (old
/// servers recorded them) and chat commands, named from EX player-name.
fn teehistorian_lines(bytes: &[u8]) -> Result<Vec<Line>, CliError> {
    let mut iter = TeehistorianIter::new(bytes)?;
    let mut names = Box::new(PlayerNames::<{ gamefmt::teehistorian::MAX_CLIENTS }>::new());
    let mut protocols = Box::new(ClientProtocols::<{ gamefmt::teehistorian::MAX_CLIENTS }>::new());
    let mut lines = Vec::new();
    for record in iter.by_ref() {
        let record = record?;
        names.apply(&record.message);
        protocols.apply(&record.message);
        let name = |cid: i32| {
            names
                .get(cid)
                .map(|n| String::from_utf8_lossy(n).into_owned())
        };
        match record.message {
            Message::PlayerMessage { cid, data } => {
                let (channel, message) = match netmsg::decode(protocols.get(cid), data) {
                    Ok(NetMsg::Game06(Game06::ClSay { team, message })) => {
                        (if team { "team" } else { "all" }, message)
                    }
                    Ok(NetMsg::Game07(Game07::ClSay { mode, message, .. })) => {
                        (channel07(mode), message)
                    }
                    _ => continue,
                };
                lines.push(Line {
                    tick: Some(record.tick),
                    kind: "chat",
                    client_id: cid,
                    name: name(cid),
                    channel,
                    message: text(message),
                });
            }
            _ => {
                let Some(command) = record.message.command() else {
                    continue;
                };
                if command.source != CommandSource::Chat {
                    continue;
                }
                let mut message = format!("/{}", String::from_utf8_lossy(command.cmd));
                for arg in command.args.iter() {
                    message.push(' ');
                    message.push_str(&String::from_utf8_lossy(arg));
                }
                lines.push(Line {
                    tick: Some(record.tick),
                    kind: "command",
                    client_id: command.cid,
                    name: name(command.cid),
                    channel: "all",
                    message,
                });
            }
        }
    }
    Ok(lines)
}

/// `gamefmt chat FILE...`: one line per chat message (and, for
/// teehistorian recordings, per chat command), or JSON Lines.
pub fn chat(
    files: &[impl AsRef<Path>],
    as_json: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    for file in files {
        let file = file.as_ref();
        let lines = std::fs::read(file)
            .map_err(CliError::Io)
            .and_then(|bytes| match Format::detect(&bytes) {
                Some(Format::Demo) => demo_lines(&bytes),
                Some(Format::Teehistorian) => teehistorian_lines(&bytes),
                _ => Err(CliError::Invalid(
                    "chat needs a demo or a teehistorian recording".into(),
                )),
            })
            .map_err(|e| CliError::Invalid(format!("{}: {e}", file.display())))?;
        let shown = file.display().to_string();
        for l in lines {
            if as_json {
                json_line(
                    out,
                    &json!({
                        "file": shown, "tick": l.tick, "kind": l.kind, "client_id": l.client_id,
                        "name": l.name, "channel": l.channel, "message": l.message,
                    }),
                )?;
                continue;
            }
            let who = match (&l.name, l.client_id) {
                (_, id) if id < 0 => "***".to_owned(),
                (Some(name), _) => name.clone(),
                (None, id) => format!("#{id}"),
            };
            let tick = l.tick.map_or_else(|| "-".to_owned(), |t| t.to_string());
            let channel = match l.channel {
                "all" => String::new(),
                c => format!(" ({c})"),
            };
            writeln!(out, "{shown}\t{tick}\t{who}{channel}: {}", l.message)?;
        }
    }
    Ok(())
}
