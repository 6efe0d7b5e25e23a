//! Game messages of Teeworlds 0.7 (DDNet's `datasrc/seven/network.py`;
//! ids from 1 in list order).

use crate::error::Result;

use super::fields::Fields;
use super::string::NetStr;

/// Skin parts of a 0.7 tee: body, marking, decoration, hands, feet, eyes.
pub const SKIN_PARTS: usize = 6;

/// A 0.7 client's identity (`Sv_ClientInfo`, `Cl_StartInfo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientInfo07<'a> {
    /// Player name.
    pub name: NetStr<'a>,
    /// Clan.
    pub clan: NetStr<'a>,
    /// Country (ISO 3166-1 numeric, −1 none).
    pub country: i32,
    /// Skin part names.
    pub skin_parts: [NetStr<'a>; SKIN_PARTS],
    /// Whether each part uses its custom colour.
    pub use_custom_colors: [bool; SKIN_PARTS],
    /// Each part's colour.
    pub skin_part_colors: [i32; SKIN_PARTS],
}

/// A Teeworlds 0.7 game message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Game07<'a> {
    /// `Sv_Motd` (1).
    SvMotd {
        /// The text.
        message: NetStr<'a>,
    },
    /// `Sv_Broadcast` (2).
    SvBroadcast {
        /// The text.
        message: NetStr<'a>,
    },
    /// `Sv_Chat` (3).
    SvChat {
        /// 1 all, 2 team, 3 whisper.
        mode: i32,
        /// Author, −1 for the server.
        client_id: i32,
        /// Whisper target, −1 none.
        target_id: i32,
        /// The text.
        message: NetStr<'a>,
    },
    /// `Sv_Team` (4): a player changed team.
    SvTeam {
        /// Client id, −1 for the local player.
        client_id: i32,
        /// −1 spectators, 0 red, 1 blue.
        team: i32,
        /// Without a chat announcement.
        silent: bool,
        /// Tick until which the player cannot change again.
        cooldown_tick: i32,
    },
    /// `Sv_KillMsg` (5).
    SvKillMsg {
        /// Killer's client id.
        killer: i32,
        /// Victim's client id.
        victim: i32,
        /// Weapon (negative: game, self-kill, world).
        weapon: i32,
        /// Mode flags.
        mode_special: i32,
    },
    /// `Sv_ReadyToEnter` (8).
    SvReadyToEnter,
    /// `Sv_WeaponPickup` (9).
    SvWeaponPickup {
        /// Weapon.
        weapon: i32,
    },
    /// `Sv_Emoticon` (10).
    SvEmoticon {
        /// Client id.
        client_id: i32,
        /// Emoticon.
        emoticon: i32,
    },
    /// `Sv_VoteClearOptions` (11).
    SvVoteClearOptions,
    /// `Sv_VoteOptionAdd` (13).
    SvVoteOptionAdd {
        /// Option text.
        description: NetStr<'a>,
    },
    /// `Sv_VoteOptionRemove` (14).
    SvVoteOptionRemove {
        /// Option text.
        description: NetStr<'a>,
    },
    /// `Sv_VoteSet` (15).
    SvVoteSet {
        /// Who called it, −1 the server.
        client_id: i32,
        /// Vote type (start/end kinds).
        kind: i32,
        /// Seconds left.
        timeout: i32,
        /// What is voted on.
        description: NetStr<'a>,
        /// Why.
        reason: NetStr<'a>,
    },
    /// `Sv_VoteStatus` (16).
    SvVoteStatus {
        /// Yes votes.
        yes: i32,
        /// No votes.
        no: i32,
        /// Abstentions.
        pass: i32,
        /// Voters.
        total: i32,
    },
    /// `Sv_ClientInfo` (18): a client's identity.
    SvClientInfo {
        /// Client id.
        client_id: i32,
        /// Whether it is the receiving client.
        local: bool,
        /// Team.
        team: i32,
        /// Name, clan, country and skin.
        info: ClientInfo07<'a>,
        /// Without a chat announcement.
        silent: bool,
    },
    /// `Sv_ClientDrop` (20).
    SvClientDrop {
        /// Client id.
        client_id: i32,
        /// Why.
        reason: NetStr<'a>,
        /// Without a chat announcement.
        silent: bool,
    },
    /// `De_ClientEnter` (22): a player entered (demo only).
    DeClientEnter {
        /// Name.
        name: NetStr<'a>,
        /// Client id.
        client_id: i32,
        /// Team.
        team: i32,
    },
    /// `De_ClientLeave` (23): a player left (demo only).
    DeClientLeave {
        /// Name.
        name: NetStr<'a>,
        /// Client id.
        client_id: i32,
        /// Why.
        reason: NetStr<'a>,
    },
    /// `Cl_Say` (24).
    ClSay {
        /// 1 all, 2 team, 3 whisper.
        mode: i32,
        /// Whisper target, −1 none.
        target: i32,
        /// The text.
        message: NetStr<'a>,
    },
    /// `Cl_SetTeam` (25).
    ClSetTeam {
        /// −1 spectators, 0 red, 1 blue.
        team: i32,
    },
    /// `Cl_SetSpectatorMode` (26).
    ClSetSpectatorMode {
        /// Free view, player, red or blue flag.
        spec_mode: i32,
        /// Watched client id, −1 none.
        spectator_id: i32,
    },
    /// `Cl_StartInfo` (27).
    ClStartInfo(ClientInfo07<'a>),
    /// `Cl_Kill` (28).
    ClKill,
    /// `Cl_ReadyChange` (29).
    ClReadyChange,
    /// `Cl_Emoticon` (30).
    ClEmoticon {
        /// Emoticon.
        emoticon: i32,
    },
    /// `Cl_Vote` (31): −1 no, 0 none, 1 yes.
    ClVote {
        /// The vote.
        vote: i32,
    },
    /// `Cl_CallVote` (32).
    ClCallVote {
        /// `"option"`, `"kick"` or `"spectate"`.
        kind: NetStr<'a>,
        /// Option text or client id.
        value: NetStr<'a>,
        /// Why.
        reason: NetStr<'a>,
        /// Forced by an admin.
        force: bool,
    },
    /// Any other id (tuning, settings, game info, race messages, …),
    /// passed through.
    Other {
        /// Message id.
        id: i32,
        /// Its fields, undecoded.
        payload: &'a [u8],
    },
}

impl<'a> Game07<'a> {
    /// Decodes the fields of game message `id` from `payload` (`base`: its
    /// offset in the message, for errors). Bytes after the fields are
    /// ignored.
    pub(crate) fn decode(id: i32, payload: &'a [u8], base: usize) -> Result<Self> {
        let f = &mut Fields::new(payload, base);
        Ok(match id {
            1 => Self::SvMotd {
                message: f.string()?,
            },
            2 => Self::SvBroadcast {
                message: f.string()?,
            },
            3 => Self::SvChat {
                mode: f.int()?,
                client_id: f.int()?,
                target_id: f.int()?,
                message: f.string()?,
            },
            4 => Self::SvTeam {
                client_id: f.int()?,
                team: f.int()?,
                silent: f.bool()?,
                cooldown_tick: f.int()?,
            },
            5 => Self::SvKillMsg {
                killer: f.int()?,
                victim: f.int()?,
                weapon: f.int()?,
                mode_special: f.int()?,
            },
            8 => Self::SvReadyToEnter,
            9 => Self::SvWeaponPickup { weapon: f.int()? },
            10 => Self::SvEmoticon {
                client_id: f.int()?,
                emoticon: f.int()?,
            },
            11 => Self::SvVoteClearOptions,
            13 => Self::SvVoteOptionAdd {
                description: f.string()?,
            },
            14 => Self::SvVoteOptionRemove {
                description: f.string()?,
            },
            15 => Self::SvVoteSet {
                client_id: f.int()?,
                kind: f.int()?,
                timeout: f.int()?,
                description: f.string()?,
                reason: f.string()?,
            },
            16 => Self::SvVoteStatus {
                yes: f.int()?,
                no: f.int()?,
                pass: f.int()?,
                total: f.int()?,
            },
            18 => Self::SvClientInfo {
                client_id: f.int()?,
                local: f.bool()?,
                team: f.int()?,
                info: client_info(f)?,
                silent: f.bool()?,
            },
            20 => Self::SvClientDrop {
                client_id: f.int()?,
                reason: f.string()?,
                silent: f.bool()?,
            },
            22 => Self::DeClientEnter {
                name: f.string()?,
                client_id: f.int()?,
                team: f.int()?,
            },
            23 => Self::DeClientLeave {
                name: f.string()?,
                client_id: f.int()?,
                reason: f.string()?,
            },
            24 => Self::ClSay {
                mode: f.int()?,
                target: f.int()?,
                message: f.string()?,
            },
            25 => Self::ClSetTeam { team: f.int()? },
            26 => Self::ClSetSpectatorMode {
                spec_mode: f.int()?,
                spectator_id: f.int()?,
            },
            27 => Self::ClStartInfo(client_info(f)?),
            28 => Self::ClKill,
            29 => Self::ClReadyChange,
            30 => Self::ClEmoticon { emoticon: f.int()? },
            31 => Self::ClVote { vote: f.int()? },
            32 => Self::ClCallVote {
                kind: f.string()?,
                value: f.string()?,
                reason: f.string()?,
                force: f.bool()?,
            },
            _ => Self::Other { id, payload },
        })
    }
}

fn client_info<'a>(f: &mut Fields<'a>) -> Result<ClientInfo07<'a>> {
    Ok(ClientInfo07 {
        name: f.string()?,
        clan: f.string()?,
        country: f.int()?,
        skin_parts: f.strings()?,
        use_custom_colors: f.bools()?,
        skin_part_colors: f.ints()?,
    })
}
