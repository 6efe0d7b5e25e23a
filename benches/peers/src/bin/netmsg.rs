//! Every net message of every corpus demo (message chunks) and teehistorian
//! recording (MESSAGE records), decoded by `gamefmt::netmsg` and by
//! libtw2's gamenet crates (`pre-rfc3243-libtw2-gamenet-ddnet` for 0.6/DDNet,
//! `-teeworlds-0-7` for 0.7), compared field by field.
//!
//! `cargo run --bin netmsg` from this folder; the corpus is
//! `$GAMEFMT_CORPUS` or `../../../shared/corpus`. Both sides are reduced to
//! one line per message: the kind and, for every message gamefmt types,
//! each field (strings as bytes, enums as their ints); messages gamefmt
//! passes through are compared by id (or UUID) only. libtw2 refuses some
//! messages gamefmt accepts (it checks value ranges, control characters in
//! strings and knows more UUIDs); those are counted apart, by reason.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gamefmt::demo::{ChunkKind, DemoView, decode_payload};
use gamefmt::netmsg::{self, Game06, Game07, NetMsg, NetStr, Protocol};
use gamefmt::teehistorian::{ClientProtocols, Message, TeehistorianIter};
use libtw2_gamenet_common::msg::{MessageId, SystemOrGame};
use libtw2_packer::Unpacker;
use zerocopy::IntoBytes;
use zerocopy::little_endian::I32;

use libtw2_gamenet_ddnet as ddnet;
use libtw2_gamenet_teeworlds_0_7 as tw07;

fn s(v: NetStr<'_>) -> String {
    format!("{:?}", v.bytes())
}

fn b(v: &[u8]) -> String {
    format!("{v:?}")
}

fn id_key(system: bool, id: &MessageId) -> String {
    let kind = if system { "sys" } else { "game" };
    match id {
        MessageId::Ordinal(i) => format!("{kind} {i}"),
        MessageId::Uuid(u) => format!("{kind} ex {u}"),
    }
}

/// gamefmt's side of one message.
fn ours(protocol: Protocol, bytes: &[u8]) -> Result<String, String> {
    let msg = netmsg::decode(protocol, bytes).map_err(|e| e.to_string())?;
    Ok(match msg {
        NetMsg::System { id, .. } => format!("sys {id}"),
        NetMsg::Ex { system, uuid, .. } => {
            format!("{} ex {uuid}", if system { "sys" } else { "game" })
        }
        NetMsg::Game06(g) => match g {
            Game06::SvMotd { message } => format!("SvMotd {}", s(message)),
            Game06::SvBroadcast { message } => format!("SvBroadcast {}", s(message)),
            Game06::SvChat {
                team,
                client_id,
                message,
            } => {
                format!("SvChat {team} {client_id} {}", s(message))
            }
            Game06::SvKillMsg {
                killer,
                victim,
                weapon,
                mode_special,
            } => {
                format!("SvKillMsg {killer} {victim} {weapon} {mode_special}")
            }
            Game06::SvSoundGlobal { sound_id } => format!("SvSoundGlobal {sound_id}"),
            Game06::SvReadyToEnter => "SvReadyToEnter".into(),
            Game06::SvWeaponPickup { weapon } => format!("SvWeaponPickup {weapon}"),
            Game06::SvEmoticon {
                client_id,
                emoticon,
            } => format!("SvEmoticon {client_id} {emoticon}"),
            Game06::SvVoteClearOptions => "SvVoteClearOptions".into(),
            Game06::SvVoteOptionAdd { description } => {
                format!("SvVoteOptionAdd {}", s(description))
            }
            Game06::SvVoteOptionRemove { description } => {
                format!("SvVoteOptionRemove {}", s(description))
            }
            Game06::SvVoteSet {
                timeout,
                description,
                reason,
            } => {
                format!("SvVoteSet {timeout} {} {}", s(description), s(reason))
            }
            Game06::SvVoteStatus {
                yes,
                no,
                pass,
                total,
            } => {
                format!("SvVoteStatus {yes} {no} {pass} {total}")
            }
            Game06::ClSay { team, message } => format!("ClSay {team} {}", s(message)),
            Game06::ClSetTeam { team } => format!("ClSetTeam {team}"),
            Game06::ClSetSpectatorMode { spectator_id } => {
                format!("ClSetSpectatorMode {spectator_id}")
            }
            Game06::ClStartInfo(i) | Game06::ClChangeInfo(i) => format!(
                "{} {} {} {} {} {} {} {}",
                if matches!(g, Game06::ClStartInfo(_)) {
                    "ClStartInfo"
                } else {
                    "ClChangeInfo"
                },
                s(i.name),
                s(i.clan),
                i.country,
                s(i.skin),
                i.use_custom_color,
                i.color_body,
                i.color_feet
            ),
            Game06::ClKill => "ClKill".into(),
            Game06::ClEmoticon { emoticon } => format!("ClEmoticon {emoticon}"),
            Game06::ClVote { vote } => format!("ClVote {vote}"),
            Game06::ClCallVote {
                kind,
                value,
                reason,
            } => {
                format!("ClCallVote {} {} {}", s(kind), s(value), s(reason))
            }
            Game06::Other { id, .. } => format!("game {id}"),
            other => format!("unexpected {other:?}"),
        },
        NetMsg::Game07(g) => match g {
            Game07::SvMotd { message } => format!("SvMotd {}", s(message)),
            Game07::SvBroadcast { message } => format!("SvBroadcast {}", s(message)),
            Game07::SvChat {
                mode,
                client_id,
                target_id,
                message,
            } => {
                format!("SvChat {mode} {client_id} {target_id} {}", s(message))
            }
            Game07::SvTeam {
                client_id,
                team,
                silent,
                cooldown_tick,
            } => {
                format!("SvTeam {client_id} {team} {silent} {cooldown_tick}")
            }
            Game07::SvKillMsg {
                killer,
                victim,
                weapon,
                mode_special,
            } => {
                format!("SvKillMsg {killer} {victim} {weapon} {mode_special}")
            }
            Game07::SvReadyToEnter => "SvReadyToEnter".into(),
            Game07::SvWeaponPickup { weapon } => format!("SvWeaponPickup {weapon}"),
            Game07::SvEmoticon {
                client_id,
                emoticon,
            } => format!("SvEmoticon {client_id} {emoticon}"),
            Game07::SvVoteClearOptions => "SvVoteClearOptions".into(),
            Game07::SvVoteOptionAdd { description } => {
                format!("SvVoteOptionAdd {}", s(description))
            }
            Game07::SvVoteOptionRemove { description } => {
                format!("SvVoteOptionRemove {}", s(description))
            }
            Game07::SvVoteSet {
                client_id,
                kind,
                timeout,
                description,
                reason,
            } => format!(
                "SvVoteSet {client_id} {kind} {timeout} {} {}",
                s(description),
                s(reason)
            ),
            Game07::SvVoteStatus {
                yes,
                no,
                pass,
                total,
            } => {
                format!("SvVoteStatus {yes} {no} {pass} {total}")
            }
            Game07::SvClientInfo {
                client_id,
                local,
                team,
                info,
                silent,
            } => format!(
                "SvClientInfo {client_id} {local} {team} {} {} {} {:?} {:?} {:?} {silent}",
                s(info.name),
                s(info.clan),
                info.country,
                info.skin_parts.map(|p| p.bytes()),
                info.use_custom_colors,
                info.skin_part_colors
            ),
            Game07::SvClientDrop {
                client_id,
                reason,
                silent,
            } => {
                format!("SvClientDrop {client_id} {} {silent}", s(reason))
            }
            Game07::DeClientEnter {
                name,
                client_id,
                team,
            } => {
                format!("DeClientEnter {} {client_id} {team}", s(name))
            }
            Game07::DeClientLeave {
                name,
                client_id,
                reason,
            } => {
                format!("DeClientLeave {} {client_id} {}", s(name), s(reason))
            }
            Game07::ClSay {
                mode,
                target,
                message,
            } => format!("ClSay {mode} {target} {}", s(message)),
            Game07::ClSetTeam { team } => format!("ClSetTeam {team}"),
            Game07::ClSetSpectatorMode {
                spec_mode,
                spectator_id,
            } => {
                format!("ClSetSpectatorMode {spec_mode} {spectator_id}")
            }
            Game07::ClStartInfo(info) => format!(
                "ClStartInfo {} {} {} {:?} {:?} {:?}",
                s(info.name),
                s(info.clan),
                info.country,
                info.skin_parts.map(|p| p.bytes()),
                info.use_custom_colors,
                info.skin_part_colors
            ),
            Game07::ClKill => "ClKill".into(),
            Game07::ClReadyChange => "ClReadyChange".into(),
            Game07::ClEmoticon { emoticon } => format!("ClEmoticon {emoticon}"),
            Game07::ClVote { vote } => format!("ClVote {vote}"),
            Game07::ClCallVote {
                kind,
                value,
                reason,
                force,
            } => {
                format!("ClCallVote {} {} {} {force}", s(kind), s(value), s(reason))
            }
            Game07::Other { id, .. } => format!("game {id}"),
            other => format!("unexpected {other:?}"),
        },
        other => format!("unexpected {other:?}"),
    })
}

/// libtw2's side of one 0.6/DDNet message.
fn libtw2_06(bytes: &[u8], demo: bool) -> Result<String, String> {
    let mut p = if demo {
        Unpacker::new_from_demo(bytes)
    } else {
        Unpacker::new(bytes)
    };
    let msg = ddnet::msg::decode(&mut libtw2_warn::Ignore, &mut p).map_err(|e| format!("{e:?}"))?;
    use ddnet::msg::Game as G;
    Ok(match msg {
        SystemOrGame::System(m) => id_key(true, &m.msg_id()),
        SystemOrGame::Game(g) => match g {
            G::SvMotd(m) => format!("SvMotd {}", b(m.message)),
            G::SvBroadcast(m) => format!("SvBroadcast {}", b(m.message)),
            G::SvChat(m) => format!("SvChat {} {} {}", m.team, m.client_id, b(m.message)),
            G::SvKillMsg(m) => {
                format!(
                    "SvKillMsg {} {} {} {}",
                    m.killer, m.victim, m.weapon, m.mode_special
                )
            }
            G::SvSoundGlobal(m) => format!("SvSoundGlobal {}", m.sound_id.to_i32()),
            G::SvReadyToEnter(_) => "SvReadyToEnter".into(),
            G::SvWeaponPickup(m) => format!("SvWeaponPickup {}", m.weapon.to_i32()),
            G::SvEmoticon(m) => format!("SvEmoticon {} {}", m.client_id, m.emoticon.to_i32()),
            G::SvVoteClearOptions(_) => "SvVoteClearOptions".into(),
            G::SvVoteOptionAdd(m) => format!("SvVoteOptionAdd {}", b(m.description)),
            G::SvVoteOptionRemove(m) => format!("SvVoteOptionRemove {}", b(m.description)),
            G::SvVoteSet(m) => {
                format!(
                    "SvVoteSet {} {} {}",
                    m.timeout,
                    b(m.description),
                    b(m.reason)
                )
            }
            G::SvVoteStatus(m) => format!("SvVoteStatus {} {} {} {}", m.yes, m.no, m.pass, m.total),
            G::ClSay(m) => format!("ClSay {} {}", m.team, b(m.message)),
            G::ClSetTeam(m) => format!("ClSetTeam {}", m.team.to_i32()),
            G::ClSetSpectatorMode(m) => format!("ClSetSpectatorMode {}", m.spectator_id),
            G::ClStartInfo(i) => format!(
                "ClStartInfo {} {} {} {} {} {} {}",
                b(i.name),
                b(i.clan),
                i.country,
                b(i.skin),
                i.use_custom_color,
                i.color_body,
                i.color_feet
            ),
            G::ClChangeInfo(i) => format!(
                "ClChangeInfo {} {} {} {} {} {} {}",
                b(i.name),
                b(i.clan),
                i.country,
                b(i.skin),
                i.use_custom_color,
                i.color_body,
                i.color_feet
            ),
            G::ClKill(_) => "ClKill".into(),
            G::ClEmoticon(m) => format!("ClEmoticon {}", m.emoticon.to_i32()),
            G::ClVote(m) => format!("ClVote {}", m.vote),
            G::ClCallVote(m) => format!("ClCallVote {} {} {}", b(m.type_), b(m.value), b(m.reason)),
            other => id_key(false, &other.msg_id()),
        },
    })
}

/// libtw2's side of one 0.7 message.
fn libtw2_07(bytes: &[u8], demo: bool) -> Result<String, String> {
    let mut p = if demo {
        Unpacker::new_from_demo(bytes)
    } else {
        Unpacker::new(bytes)
    };
    let msg = tw07::msg::decode(&mut libtw2_warn::Ignore, &mut p).map_err(|e| format!("{e:?}"))?;
    use tw07::msg::Game as G;
    Ok(match msg {
        SystemOrGame::System(m) => id_key(true, &m.msg_id()),
        SystemOrGame::Game(g) => match g {
            G::SvMotd(m) => format!("SvMotd {}", b(m.message)),
            G::SvBroadcast(m) => format!("SvBroadcast {}", b(m.message)),
            G::SvChat(m) => format!(
                "SvChat {} {} {} {}",
                m.mode.to_i32(),
                m.client_id,
                m.target_id,
                b(m.message)
            ),
            G::SvTeam(m) => format!(
                "SvTeam {} {} {} {}",
                m.client_id,
                m.team.to_i32(),
                m.silent,
                m.cooldown_tick.0
            ),
            G::SvKillMsg(m) => {
                format!(
                    "SvKillMsg {} {} {} {}",
                    m.killer, m.victim, m.weapon, m.mode_special
                )
            }
            G::SvReadyToEnter(_) => "SvReadyToEnter".into(),
            G::SvWeaponPickup(m) => format!("SvWeaponPickup {}", m.weapon.to_i32()),
            G::SvEmoticon(m) => format!("SvEmoticon {} {}", m.client_id, m.emoticon.to_i32()),
            G::SvVoteClearOptions(_) => "SvVoteClearOptions".into(),
            G::SvVoteOptionAdd(m) => format!("SvVoteOptionAdd {}", b(m.description)),
            G::SvVoteOptionRemove(m) => format!("SvVoteOptionRemove {}", b(m.description)),
            G::SvVoteSet(m) => format!(
                "SvVoteSet {} {} {} {} {}",
                m.client_id,
                m.type_.to_i32(),
                m.timeout,
                b(m.description),
                b(m.reason)
            ),
            G::SvVoteStatus(m) => format!("SvVoteStatus {} {} {} {}", m.yes, m.no, m.pass, m.total),
            G::SvClientInfo(m) => format!(
                "SvClientInfo {} {} {} {} {} {} {:?} {:?} {:?} {}",
                m.client_id,
                m.local,
                m.team.to_i32(),
                b(m.name),
                b(m.clan),
                m.country,
                m.skin_part_names,
                m.use_custom_colors,
                m.skin_part_colors,
                m.silent
            ),
            G::SvClientDrop(m) => {
                format!("SvClientDrop {} {} {}", m.client_id, b(m.reason), m.silent)
            }
            G::DeClientEnter(m) => {
                format!(
                    "DeClientEnter {} {} {}",
                    b(m.name),
                    m.client_id,
                    m.team.to_i32()
                )
            }
            G::DeClientLeave(m) => {
                format!(
                    "DeClientLeave {} {} {}",
                    b(m.name),
                    m.client_id,
                    b(m.reason)
                )
            }
            G::ClSay(m) => format!("ClSay {} {} {}", m.mode.to_i32(), m.target, b(m.message)),
            G::ClSetTeam(m) => format!("ClSetTeam {}", m.team.to_i32()),
            G::ClSetSpectatorMode(m) => {
                format!(
                    "ClSetSpectatorMode {} {}",
                    m.spec_mode.to_i32(),
                    m.spectator_id
                )
            }
            G::ClStartInfo(m) => format!(
                "ClStartInfo {} {} {} {:?} {:?} {:?}",
                b(m.name),
                b(m.clan),
                m.country,
                m.skin_part_names,
                m.use_custom_colors,
                m.skin_part_colors
            ),
            G::ClKill(_) => "ClKill".into(),
            G::ClReadyChange(_) => "ClReadyChange".into(),
            G::ClEmoticon(m) => format!("ClEmoticon {}", m.emoticon.to_i32()),
            G::ClVote(m) => format!("ClVote {}", m.vote),
            G::ClCallVote(m) => {
                format!(
                    "ClCallVote {} {} {} {}",
                    b(m.type_),
                    b(m.value),
                    b(m.reason),
                    m.force
                )
            }
            other => id_key(false, &other.msg_id()),
        },
    })
}

/// libtw2's kind of one message: the first word of its line, or (when it
/// refuses the fields) the id it read.
fn libtw2_kind(protocol: Protocol, bytes: &[u8], demo: bool) -> String {
    let line = match protocol {
        Protocol::V06 => libtw2_06(bytes, demo),
        Protocol::V07 => libtw2_07(bytes, demo),
    };
    if let Ok(line) = line {
        let words: Vec<&str> = line.split(' ').collect();
        return match words.as_slice() {
            ["game" | "sys", "ex", uuid, ..] => format!("{} ex {uuid}", words[0]),
            ["game" | "sys", id, ..] => format!("{} {id}", words[0]),
            [kind, ..] => (*kind).to_owned(),
            [] => String::new(),
        };
    }
    let mut p = Unpacker::new(bytes);
    match SystemOrGame::decode_id(&mut libtw2_warn::Ignore, &mut p) {
        Ok(SystemOrGame::System(id)) => id_key(true, &id),
        Ok(SystemOrGame::Game(id)) => id_key(false, &id),
        Err(_) => "undecodable".into(),
    }
}

#[derive(Default)]
struct Tally {
    compared: u64,
    equal: u64,
    /// Equal messages that gamefmt types (compared field by field).
    typed_equal: u64,
    /// Equal messages gamefmt passes through, by id.
    passed: BTreeMap<String, u64>,
    /// libtw2 refused, gamefmt decoded: reason → count.
    refused: BTreeMap<String, u64>,
    /// Both failed.
    both_failed: u64,
    /// gamefmt failed, libtw2 decoded.
    ours_failed: u64,
    differences: Vec<String>,
}

impl Tally {
    fn add(&mut self, origin: &str, protocol: Protocol, bytes: &[u8], demo: bool) {
        let mine = ours(protocol, bytes);
        let peer = match protocol {
            Protocol::V06 => libtw2_06(bytes, demo),
            Protocol::V07 => libtw2_07(bytes, demo),
        };
        match (mine, peer) {
            (Ok(a), Ok(p)) => {
                self.compared += 1;
                if a == p {
                    self.equal += 1;
                    if !a.starts_with("game ") && !a.starts_with("sys ") {
                        self.typed_equal += 1;
                    } else {
                        *self.passed.entry(a).or_default() += 1;
                    }
                } else if self.differences.len() < 20 {
                    self.differences
                        .push(format!("{origin}: gamefmt `{a}` libtw2 `{p}`"));
                }
            }
            (Ok(a), Err(e)) => {
                // The kind, and the id of a message gamefmt passes through.
                let words: Vec<&str> = a.split(' ').collect();
                let kind = match words.as_slice() {
                    ["game" | "sys", "ex", uuid, ..] => format!("{} ex {uuid}", words[0]),
                    ["game" | "sys", id, ..] => format!("{} {id}", words[0]),
                    [kind, ..] => (*kind).to_owned(),
                    [] => String::new(),
                };
                *self.refused.entry(format!("{e} ({kind})")).or_default() += 1;
            }
            (Err(_), Err(_)) => self.both_failed += 1,
            (Err(e), Ok(p)) => {
                self.ours_failed += 1;
                if self.differences.len() < 20 {
                    self.differences
                        .push(format!("{origin}: gamefmt error {e}, libtw2 `{p}`"));
                }
            }
        }
    }
}

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    out.retain(|p| p.extension().is_some_and(|e| e == ext));
    out.sort();
    out
}

fn main() {
    let facts = std::env::args().any(|a| a == "--facts");
    let mut kinds: BTreeMap<(String, String), u64> = BTreeMap::new();
    let corpus = std::env::var_os("GAMEFMT_CORPUS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
        PathBuf::from,
    );
    let tw = corpus.join("teeworlds");
    let mut demos = Tally::default();
    let mut demo_files = 0;
    let mut scratch = vec![0u8; gamefmt::demo::MAX_PAYLOAD];
    let mut ints = vec![I32::ZERO; gamefmt::demo::MAX_PAYLOAD_INTS];
    for path in files(&tw.join("demos"), "demo") {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(view) = DemoView::parse(&bytes) else {
            continue;
        };
        demo_files += 1;
        let protocol = Protocol::of_net_version(view.header().net_version());
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for chunk in view.chunks() {
            let Ok(gamefmt::demo::Chunk::Data {
                kind: ChunkKind::Message,
                payload,
            }) = chunk
            else {
                if chunk.is_err() {
                    break;
                }
                continue;
            };
            let Ok(msg) = decode_payload(payload, &mut scratch, &mut ints) else {
                continue;
            };
            demos.add(&name, protocol, msg.as_bytes(), true);
            *kinds
                .entry((name.clone(), libtw2_kind(protocol, msg.as_bytes(), true)))
                .or_default() += 1;
        }
    }
    let mut th = Tally::default();
    let mut th_files = 0;
    for path in files(&tw.join("teehistorian"), "teehistorian") {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(iter) = TeehistorianIter::new(&bytes) else {
            continue;
        };
        th_files += 1;
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut protocols = ClientProtocols::<128>::new();
        for record in iter {
            let Ok(record) = record else { break };
            protocols.apply(&record.message);
            match record.message {
                Message::PlayerMessage { cid, data } => {
                    let protocol = protocols.get(cid);
                    th.add(&name, protocol, data, false);
                    *kinds
                        .entry((name.clone(), libtw2_kind(protocol, data, false)))
                        .or_default() += 1;
                }
                _ => {}
            }
        }
    }
    if facts {
        println!(
            "# made by benches/peers/src/bin/netmsg.rs --facts with pre-rfc3243-libtw2-gamenet-ddnet 0.2.1 \
             and pre-rfc3243-libtw2-gamenet-teeworlds-0-7 0.2.0: messages per file by libtw2's kind"
        );
        println!("file\tkind\tcount");
        for ((file, kind), n) in &kinds {
            println!("{file}\t{kind}\t{n}");
        }
        return;
    }
    for (what, files, t) in [
        ("demo messages", demo_files, &demos),
        ("teehistorian MESSAGE records", th_files, &th),
    ] {
        println!(
            "{what} ({files} files): compared {}, equal {} ({} typed, field by field); libtw2 refused {} that gamefmt decoded; \
             gamefmt refused {} that libtw2 decoded; both refused {}",
            t.compared,
            t.equal,
            t.typed_equal,
            t.refused.values().sum::<u64>(),
            t.ours_failed,
            t.both_failed
        );
        let passed: Vec<String> = t.passed.iter().map(|(k, n)| format!("{k} x{n}")).collect();
        println!("  passed through (compared by id): {}", passed.join(", "));
        for (reason, n) in &t.refused {
            println!("  libtw2 refused: {reason} x{n}");
        }
        for d in &t.differences {
            println!("  differs: {d}");
        }
    }
}
