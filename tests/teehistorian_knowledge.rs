//! Chat commands and player names in the corpus recordings, checked
//! against DDNet's own facts: the commands DDNet registers for the chat
//! (`CFGFLAG_CHAT`, at commit 28baa427, the tree the corpus server was
//! built from) and the record counts of `SOURCES.md`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use crate::common;

use std::collections::BTreeSet;

use gamefmt::teehistorian::{CFGFLAG_CHAT, CommandSource, Message, PlayerNames, TeehistorianIter};

/// Every command DDNet 28baa427 registers with `CFGFLAG_CHAT`
/// (`src/game/server/gamecontext.cpp`, `src/engine/shared/console.cpp`).
const DDNET_CHAT_COMMANDS: &[&str] = &[
    "addweapon",
    "back",
    "c",
    "cancelswap",
    "cmdlist",
    "collision",
    "converse",
    "deep",
    "dnd",
    "emote",
    "endless",
    "eyeemote",
    "grenade",
    "help",
    "hitothers",
    "hookcollision",
    "infjump",
    "info",
    "invincible",
    "invite",
    "jetpack",
    "join",
    "kill",
    "laser",
    "lasttp",
    "list",
    "livefreeze",
    "load",
    "lock",
    "map",
    "mapinfo",
    "ninja",
    "ninjajetpack",
    "pause",
    "pausevoted",
    "points",
    "practice",
    "practicecmdlist",
    "r",
    "rank",
    "rankteam",
    "removeweapon",
    "rescue",
    "rescuemode",
    "rifle",
    "rules",
    "save",
    "saytime",
    "saytimeall",
    "setjumps",
    "setswitch",
    "settings",
    "shotgun",
    "showall",
    "showothers",
    "solo",
    "spec",
    "specteam",
    "specvoted",
    "swap",
    "tc",
    "team",
    "team0mode",
    "teamrank",
    "teamtop5",
    "telecursor",
    "teleport",
    "time",
    "timecp",
    "timeout",
    "timer",
    "times",
    "top",
    "top5",
    "top5points",
    "top5team",
    "totele",
    "totelecp",
    "tp",
    "tpxy",
    "undeep",
    "unendless",
    "ungrenade",
    "uninfjump",
    "unjetpack",
    "unlaser",
    "unlivefreeze",
    "unlock",
    "unninja",
    "unpractice",
    "unrifle",
    "unshotgun",
    "unsolo",
    "unweapons",
    "w",
    "weapons",
    "whisper",
    "whispers",
];

#[test]
fn chat_commands_are_ddnet_chat_commands_by_named_players() {
    let Some(files) =
        common::corpus_files("chat_commands", "teeworlds/teehistorian", ".teehistorian")
    else {
        return;
    };
    assert_eq!(CFGFLAG_CHAT, 1 << 7);
    let mut total = [0usize; 3];
    let mut distinct_tutorial = BTreeSet::new();
    for (name, bytes) in &files {
        let Ok(iter) = TeehistorianIter::new(bytes) else {
            continue;
        };
        let mut names = PlayerNames::<128>::new();
        for record in iter {
            let Ok(record) = record else { break };
            names.apply(&record.message);
            let Some(command) = record.message.command() else {
                continue;
            };
            let cmd = std::str::from_utf8(command.cmd).unwrap();
            if name.contains("tutorial") {
                distinct_tutorial.insert(cmd.to_owned());
            }
            match command.source {
                CommandSource::Chat => {
                    total[0] += 1;
                    assert!(
                        DDNET_CHAT_COMMANDS.contains(&cmd),
                        "{name}: /{cmd} is no chat command"
                    );
                    // In the corpus every command comes from a named
                    // player; a recording never seen may hold one sent
                    // before its sender's name was recorded.
                    let who = record.message.client_id().and_then(|cid| names.get(cid));
                    assert!(
                        who.is_some_and(|n| !n.is_empty()) || !common::shared_corpus(),
                        "{name}: /{cmd} by nobody"
                    );
                }
                CommandSource::Rcon => {
                    total[1] += 1;
                    assert!(
                        names.get(command.cid).is_some() || !common::shared_corpus(),
                        "{name}: rcon {cmd} by nobody"
                    );
                }
                CommandSource::Server => {
                    total[2] += 1;
                    assert_eq!(record.message.client_id(), None);
                }
            }
        }
    }
    eprintln!(
        "chat commands {}, rcon {}, server {}",
        total[0], total[1], total[2]
    );
    if !distinct_tutorial.is_empty() {
        // SOURCES.md: "CONSOLE_COMMAND 1157 (54 distinct commands, client and econ)".
        assert_eq!(distinct_tutorial.len(), 54);
        assert!(total[0] > 0 && total[1] > 0 && total[2] > 0, "{total:?}");
    }
}

/// A name is forgotten when its client drops and set again by the next
/// EX player-name; the sample recording names its only player.
#[test]
fn names_follow_join_drop_and_player_name() {
    use gamefmt::teehistorian::{Ex, uuids};
    let mut names = PlayerNames::<4>::new();
    let ex = |data: &'static [u8]| {
        Message::Ex(Ex {
            uuid: &uuids::PLAYER_NAME,
            data,
        })
    };
    names.apply(&ex(b"\x01tee\0"));
    assert_eq!(names.get(1), Some(&b"tee"[..]));
    names.apply(&ex(b"\x01other\0"));
    assert_eq!(names.get(1), Some(&b"other"[..]));
    names.apply(&Message::Drop {
        cid: 1,
        reason: b"",
    });
    assert_eq!(names.get(1), None);
    names.apply(&ex(b"\x04far\0"));
    assert_eq!(names.get(4), None);
    names.apply(&ex(b"\x02x\0"));
    names.apply(&Message::Join { cid: 2 });
    assert_eq!(names.get(2), None);
}
