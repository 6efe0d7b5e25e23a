//! Every item of every snapshot of every corpus demo, typed by
//! `gamefmt::snapshot::objects` and by libtw2's gamenet crates
//! (`SnapObj::decode_obj`), compared: the same kind, the same size (libtw2
//! reads exactly its field list; a DDNet extended character may carry more
//! ints than an older libtw2 knows, or fewer), and the key fields of each
//! kind. Items gamefmt passes through count as equal when libtw2 does not
//! type them either or types them as a kind gamefmt leaves to the caller
//! (player input, events, other extended objects).
//!
//! `cargo run --bin objects` from this folder; the corpus is
//! `$GAMEFMT_CORPUS` or `../../../shared/corpus`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gamefmt::Protocol;
use gamefmt::demo::{DemoView, Frames, OwnedBuffers};
use gamefmt::snapshot::objects::{Object, Object06, Object07};
use gamefmt::snapshot::{Item, SnapshotView};
use libtw2_gamenet_common::snap_obj::TypeId;
use libtw2_packer::IntUnpacker;
use zerocopy::little_endian::I32;

use libtw2_gamenet_ddnet as ddnet;
use libtw2_gamenet_teeworlds_0_7 as tw07;

fn ints(v: &[I32]) -> Vec<i32> {
    v.iter().map(|i| i.get()).collect()
}

/// gamefmt's kind, size in ints and key fields; `None` when passed through.
fn ours(
    protocol: Protocol,
    snap: &SnapshotView<'_>,
    item: &Item<'_>,
) -> Option<(String, usize, Vec<i32>)> {
    let size = |bytes: usize| bytes / 4;
    Some(match Object::parse(protocol, snap, item) {
        Object::V06(o) => match o {
            Object06::Projectile(p) => (
                "Projectile".into(),
                size(size_of_val(p)),
                vec![p.x.get(), p.y.get(), p.kind.get(), p.start_tick.get()],
            ),
            Object06::Laser(l) => (
                "Laser".into(),
                size(size_of_val(l)),
                vec![l.x.get(), l.y.get(), l.from_x.get(), l.from_y.get()],
            ),
            Object06::Pickup(p) => (
                "Pickup".into(),
                size(size_of_val(p)),
                vec![p.x.get(), p.y.get(), p.kind.get(), p.subtype.get()],
            ),
            Object06::Flag(f) => (
                "Flag".into(),
                size(size_of_val(f)),
                vec![f.x.get(), f.y.get(), f.team.get()],
            ),
            Object06::GameInfo(g) => (
                "GameInfo".into(),
                size(size_of_val(g)),
                vec![
                    g.game_flags.get(),
                    g.round_start_tick.get(),
                    g.score_limit.get(),
                ],
            ),
            Object06::GameData(g) => (
                "GameData".into(),
                size(size_of_val(g)),
                vec![
                    g.teamscore_red.get(),
                    g.teamscore_blue.get(),
                    g.flag_carrier_red.get(),
                    g.flag_carrier_blue.get(),
                ],
            ),
            Object06::CharacterCore(c) => (
                "CharacterCore".into(),
                size(size_of_val(c)),
                vec![c.x.get(), c.y.get(), c.hook_state.get()],
            ),
            Object06::Character(c) => (
                "Character".into(),
                size(size_of_val(c)),
                vec![
                    c.core.x.get(),
                    c.core.y.get(),
                    c.health.get(),
                    c.armor.get(),
                    c.weapon.get(),
                    c.emote.get(),
                ],
            ),
            Object06::PlayerInfo(p) => (
                "PlayerInfo".into(),
                size(size_of_val(p)),
                vec![
                    p.local.get(),
                    p.client_id.get(),
                    p.team.get(),
                    p.score.get(),
                    p.latency.get(),
                ],
            ),
            Object06::ClientInfo(c) => (
                "ClientInfo".into(),
                size(size_of_val(c)),
                [
                    ints(&c.name),
                    ints(&c.clan),
                    vec![c.country.get()],
                    ints(&c.skin),
                ]
                .concat(),
            ),
            Object06::SpectatorInfo(s) => (
                "SpectatorInfo".into(),
                size(size_of_val(s)),
                vec![s.spectator_id.get(), s.x.get(), s.y.get()],
            ),
            Object06::DdnetCharacter(c) => (
                "DdnetCharacter".into(),
                size(size_of_val(c.base)) + c.extra.len(),
                vec![
                    c.base.flags.get(),
                    c.base.freeze_end.get(),
                    c.base.jumps.get(),
                    c.base.tele_checkpoint.get(),
                    c.base.strong_weak_id.get(),
                ],
            ),
            Object06::DdnetPlayer(p) => (
                "DdnetPlayer".into(),
                size(size_of_val(p)),
                vec![p.flags.get(), p.auth_level.get()],
            ),
            Object06::GameInfoEx(g) => (
                "GameInfoEx".into(),
                size(size_of_val(g.base)) + g.extra.len(),
                [
                    vec![g.base.flags.get(), g.base.version.get()],
                    g.flags2().into_iter().collect(),
                ]
                .concat(),
            ),
            _ => return None,
        },
        Object::V07(o) => match o {
            Object07::Projectile(p) => (
                "Projectile".into(),
                size(size_of_val(p)),
                vec![p.x.get(), p.y.get(), p.kind.get(), p.start_tick.get()],
            ),
            Object07::Laser(l) => (
                "Laser".into(),
                size(size_of_val(l)),
                vec![l.x.get(), l.y.get(), l.from_x.get(), l.from_y.get()],
            ),
            Object07::Pickup(p) => (
                "Pickup".into(),
                size(size_of_val(p)),
                vec![p.x.get(), p.y.get(), p.kind.get()],
            ),
            Object07::Flag(f) => (
                "Flag".into(),
                size(size_of_val(f)),
                vec![f.x.get(), f.y.get(), f.team.get()],
            ),
            Object07::GameData(g) => (
                "GameData".into(),
                size(size_of_val(g)),
                vec![
                    g.game_start_tick.get(),
                    g.game_state_flags.get(),
                    g.game_state_end_tick.get(),
                ],
            ),
            Object07::GameDataTeam(g) => (
                "GameDataTeam".into(),
                size(size_of_val(g)),
                vec![g.teamscore_red.get(), g.teamscore_blue.get()],
            ),
            Object07::GameDataFlag(g) => (
                "GameDataFlag".into(),
                size(size_of_val(g)),
                vec![
                    g.flag_carrier_red.get(),
                    g.flag_carrier_blue.get(),
                    g.flag_drop_tick_red.get(),
                    g.flag_drop_tick_blue.get(),
                ],
            ),
            Object07::CharacterCore(c) => (
                "CharacterCore".into(),
                size(size_of_val(c)),
                vec![c.x.get(), c.y.get(), c.hook_state.get()],
            ),
            Object07::Character(c) => (
                "Character".into(),
                size(size_of_val(c)),
                vec![
                    c.core.x.get(),
                    c.core.y.get(),
                    c.health.get(),
                    c.armor.get(),
                    c.weapon.get(),
                    c.emote.get(),
                ],
            ),
            Object07::PlayerInfo(p) => (
                "PlayerInfo".into(),
                size(size_of_val(p)),
                vec![p.player_flags.get(), p.score.get(), p.latency.get()],
            ),
            Object07::SpectatorInfo(s) => (
                "SpectatorInfo".into(),
                size(size_of_val(s)),
                vec![
                    s.spec_mode.get(),
                    s.spectator_id.get(),
                    s.x.get(),
                    s.y.get(),
                ],
            ),
            Object07::ClientInfo(c) => (
                "DeClientInfo".into(),
                size(size_of_val(c)),
                [
                    vec![c.local.get(), c.team.get()],
                    ints(&c.name),
                    ints(&c.clan),
                    vec![c.country.get()],
                ]
                .concat(),
            ),
            Object07::GameInfo(g) => (
                "DeGameInfo".into(),
                size(size_of_val(g)),
                vec![
                    g.game_flags.get(),
                    g.score_limit.get(),
                    g.time_limit.get(),
                    g.match_num.get(),
                    g.match_current.get(),
                ],
            ),
            _ => return None,
        },
    })
}

/// libtw2's kind, size and the same key fields.
fn libtw2(
    protocol: Protocol,
    snap: &SnapshotView<'_>,
    item: &Item<'_>,
) -> Result<(String, usize, Vec<i32>), String> {
    let type_id = match snap.type_uuid(item.type_id()) {
        Some(uuid) => TypeId::Uuid(uuid),
        None => TypeId::Ordinal(item.type_id()),
    };
    let data = ints(item.data());
    let mut p = IntUnpacker::new(&data);
    let mut warn = libtw2_warn::Ignore;
    match protocol {
        Protocol::V06 => {
            use ddnet::snap_obj::SnapObj as S;
            let o = S::decode_obj(&mut warn, type_id, &mut p).map_err(|e| format!("{e:?}"))?;
            let n = o.encode().len();
            let kind = format!("{o:?}")
                .split(|c: char| !c.is_alphanumeric())
                .next()
                .unwrap_or_default()
                .to_owned();
            let key = match &o {
                S::Projectile(p) => vec![p.x, p.y, p.type_.to_i32(), p.start_tick.0],
                S::Laser(l) => vec![l.x, l.y, l.from_x, l.from_y],
                S::Pickup(p) => vec![p.x, p.y, p.type_, p.subtype],
                S::Flag(f) => vec![f.x, f.y, f.team],
                S::GameInfo(g) => vec![g.game_flags, g.round_start_tick.0, g.score_limit],
                S::GameData(g) => vec![
                    g.teamscore_red,
                    g.teamscore_blue,
                    g.flag_carrier_red,
                    g.flag_carrier_blue,
                ],
                S::CharacterCore(c) => vec![c.x, c.y, c.hook_state],
                S::Character(c) => vec![
                    c.character_core.x,
                    c.character_core.y,
                    c.health,
                    c.armor,
                    c.weapon,
                    c.emote.to_i32(),
                ],
                S::PlayerInfo(p) => vec![p.local, p.client_id, p.team.to_i32(), p.score, p.latency],
                S::ClientInfo(c) => [&c.name[..], &c.clan[..], &[c.country], &c.skin[..]].concat(),
                S::SpectatorInfo(s) => vec![s.spectator_id, s.x, s.y],
                S::DdnetCharacter(c) => vec![
                    c.flags,
                    c.freeze_end.0,
                    c.jumps,
                    c.tele_checkpoint,
                    c.strong_weak_id,
                ],
                S::DdnetPlayer(p) => vec![p.flags, p.auth_level],
                S::GameInfoEx(g) => vec![g.flags, g.version, g.flags2],
                _ => Vec::new(),
            };
            Ok((kind, n, key))
        }
        Protocol::V07 => {
            use tw07::snap_obj::SnapObj as S;
            let o = S::decode_obj(&mut warn, type_id, &mut p).map_err(|e| format!("{e:?}"))?;
            let n = o.encode().len();
            let kind = format!("{o:?}")
                .split(|c: char| !c.is_alphanumeric())
                .next()
                .unwrap_or_default()
                .to_owned();
            let key = match &o {
                S::Projectile(p) => vec![p.x, p.y, p.type_.to_i32(), p.start_tick.0],
                S::Laser(l) => vec![l.x, l.y, l.from_x, l.from_y],
                S::Pickup(p) => vec![p.x, p.y, p.type_.to_i32()],
                S::Flag(f) => vec![f.x, f.y, f.team],
                S::GameData(g) => vec![
                    g.game_start_tick.0,
                    g.game_state_flags,
                    g.game_state_end_tick.0,
                ],
                S::GameDataTeam(g) => vec![g.teamscore_red, g.teamscore_blue],
                S::GameDataFlag(g) => vec![
                    g.flag_carrier_red,
                    g.flag_carrier_blue,
                    g.flag_drop_tick_red.0,
                    g.flag_drop_tick_blue.0,
                ],
                S::CharacterCore(c) => vec![c.x, c.y, c.hook_state],
                S::Character(c) => vec![
                    c.character_core.x,
                    c.character_core.y,
                    c.health,
                    c.armor,
                    c.weapon,
                    c.emote.to_i32(),
                ],
                S::PlayerInfo(p) => vec![p.player_flags, p.score, p.latency],
                S::SpectatorInfo(s) => vec![s.spec_mode.to_i32(), s.spectator_id, s.x, s.y],
                S::DeClientInfo(c) => [
                    &[i32::from(c.local), c.team.to_i32()][..],
                    &c.name[..],
                    &c.clan[..],
                    &[c.country],
                ]
                .concat(),
                S::DeGameInfo(g) => vec![
                    g.game_flags,
                    g.score_limit,
                    g.time_limit,
                    g.match_num,
                    g.match_current,
                ],
                _ => Vec::new(),
            };
            Ok((kind, n, key))
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
    let corpus = std::env::var_os("GAMEFMT_CORPUS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
        PathBuf::from,
    );
    let (mut compared, mut equal, mut typed_equal) = (0u64, 0u64, 0u64);
    let mut refused: BTreeMap<String, u64> = BTreeMap::new();
    let mut differ: BTreeMap<String, (u64, String)> = BTreeMap::new();
    let mut demos = 0;
    for path in files(&corpus.join("teeworlds/demos"), "demo") {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(view) = DemoView::parse(&bytes) else {
            continue;
        };
        demos += 1;
        let protocol = Protocol::of_net_version(view.header().net_version());
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut owned = OwnedBuffers::new();
        let mut frames = Frames::new(&view, owned.buffers());
        while let Some(frame) = frames.next() {
            let Ok(frame) = frame else { break };
            let snap = frame.snapshot;
            for item in snap.items() {
                let mine = ours(protocol, &snap, &item);
                match (mine, libtw2(protocol, &snap, &item)) {
                    (Some(mut a), Ok(mut b)) => {
                        compared += 1;
                        // Sizes libtw2 cannot report: its `encode` length
                        // counts bools as bytes (DeClientInfo), and it fills
                        // in the DDNet extended fields an older server did
                        // not send. Compare the item's length there.
                        if matches!(
                            a.0.as_str(),
                            "DeClientInfo" | "DdnetCharacter" | "GameInfoEx"
                        ) {
                            (a.1, b.1) = (item.data().len(), item.data().len());
                            b.2.truncate(a.2.len());
                        }
                        if a == b {
                            equal += 1;
                            typed_equal += 1;
                        } else {
                            let e = differ.entry(format!("{} vs {}", a.0, b.0)).or_default();
                            e.0 += 1;
                            e.1 = format!("{name}: gamefmt {a:?} libtw2 {b:?}");
                        }
                    }
                    (None, Ok(b)) => {
                        compared += 1;
                        // gamefmt leaves player input, events and the other
                        // extended objects to the caller.
                        equal += 1;
                        let _ = b;
                    }
                    (Some(a), Err(e)) => *refused.entry(format!("{e} ({})", a.0)).or_default() += 1,
                    (None, Err(_)) => {
                        compared += 1;
                        equal += 1;
                    }
                }
            }
        }
    }
    println!(
        "snapshot items of {demos} demos: compared {compared}, equal {equal} ({typed_equal} typed by gamefmt, \
         kind, size and key fields equal); libtw2 refused {} that gamefmt typed",
        refused.values().sum::<u64>()
    );
    for (reason, n) in &refused {
        println!("  libtw2 refused: {reason} x{n}");
    }
    for (kinds, (n, example)) in &differ {
        println!("  differs: {kinds} x{n}, e.g. {example}");
    }
}
