//! `gamefmt chat`: the chat of demos and teehistorian recordings, and
//! with `--rcon` and `--broadcast` the rcon lines and server broadcasts.
//!
//! Takes the same inputs as every command (streamed: stdin, directories,
//! gzip/zstd/xz, `--jobs`); each line is written as soon as it is decoded.

use std::collections::BTreeMap;
use std::io::Write;

use gamefmt::Protocol;
use gamefmt::netmsg::{self, Chat, ChatChannel, ChatKind, ChatLine, Game07, NetMsg};
use gamefmt::snapshot::{player_name, players};
use gamefmt::teehistorian::{ClientProtocols, Message, PlayerNames};

use crate::netmsg::text;
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

/// Writes `line` as text (`TICK\tNAME (CHANNEL): MESSAGE`) or as the
/// core's serialized [`ChatLine`].
fn write_line(line: &ChatLine, as_json: bool, out: &mut dyn Write) -> Result<(), CliError> {
    if as_json {
        return Ok(json_line(out, line)?);
    }
    let who = match (&line.name, line.client_id) {
        (_, id) if id < 0 => "***".to_owned(),
        (Some(name), _) => name.clone(),
        (None, id) => format!("#{id}"),
    };
    let tick = line.tick.map_or_else(|| "-".to_owned(), |t| t.to_string());
    let channel = match (line.kind, line.channel) {
        (ChatKind::Rcon | ChatKind::Broadcast, ChatChannel::All) => {
            format!(" ({})", line.kind.name())
        }
        (_, ChatChannel::All) => String::new(),
        (_, c) => format!(" ({})", c.name()),
    };
    writeln!(out, "{tick}\t{who}{channel}: {}", line.message)?;
    Ok(())
}

/// Whether `options` print lines of `kind` (chat and chat commands
/// always).
fn wanted(options: Options, kind: ChatKind) -> bool {
    match kind {
        ChatKind::Chat | ChatKind::Command => true,
        ChatKind::Rcon => options.rcon,
        ChatKind::Broadcast => options.broadcast,
    }
}

/// `gamefmt chat` on a demo: Sv_Chat messages, named from the snapshot in
/// effect (client info objects) or, in 0.7, the latest Sv_ClientInfo.
pub fn demo(input: &mut Input, options: Options, out: &mut dyn Write) -> Result<(), CliError> {
    let mut reader = gamefmt::demo::Reader::new(&mut *input);
    let protocol = Protocol::of_net_version(demo::open(&mut reader, None)?.net_version());
    let mut names07: BTreeMap<i32, String> = BTreeMap::new();
    demo::walk(&mut reader, |_, tick, rec, msg| {
        let Some(msg) = msg else { return Ok(()) };
        let Ok(msg) = netmsg::decode(protocol, msg) else {
            return Ok(());
        };
        if let NetMsg::Game07(Game07::SvClientInfo {
            client_id, info, ..
        }) = msg
        {
            names07.insert(client_id, text(info.name));
            return Ok(());
        }
        let Some(chat) = Chat::of_message(&msg, -1).filter(|c| wanted(options, c.kind)) else {
            return Ok(());
        };
        let client_id = chat.client_id;
        let from_snapshot = || player_name(&players(protocol, &rec.snapshot()?), client_id);
        let name = (client_id >= 0)
            .then(|| from_snapshot().or_else(|| names07.get(&client_id).cloned()))
            .flatten();
        write_line(&ChatLine::new(tick, &chat, name), options.json, out)
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
                let Ok(msg) = netmsg::decode(protocols.get(cid), data) else {
                    continue;
                };
                match Chat::of_message(&msg, cid) {
                    Some(chat) if wanted(options, chat.kind) => {
                        ChatLine::new(Some(record.tick), &chat, name(cid))
                    }
                    _ => continue,
                }
            }
            _ => {
                let Some(command) = record.message.command() else {
                    continue;
                };
                match ChatLine::of_command(record.tick, &command, name(command.cid)) {
                    Some(line) if wanted(options, line.kind) => line,
                    _ => continue,
                }
            }
        };
        write_line(&line, options.json, out)?;
    }
    Ok(())
}
