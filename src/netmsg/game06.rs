//! Game messages of Teeworlds 0.6 and DDNet (DDNet's `datasrc/network.py`;
//! ids from 1 in list order).

use crate::error::Result;

use super::fields::Fields;
use super::string::NetStr;

/// A client's start info or change of info (0.6 `Cl_StartInfo`,
/// `Cl_ChangeInfo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientInfo06<'a> {
    /// Player name.
    pub name: NetStr<'a>,
    /// Clan.
    pub clan: NetStr<'a>,
    /// Country (ISO 3166-1 numeric, −1 none).
    pub country: i32,
    /// Skin name.
    pub skin: NetStr<'a>,
    /// Whether the custom colours are used.
    pub use_custom_color: bool,
    /// Body colour (HSL packed).
    pub color_body: i32,
    /// Feet colour (HSL packed).
    pub color_feet: i32,
}

/// A 0.6/DDNet game message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Game06<'a> {
    /// `Sv_Motd` (1): the message of the day.
    SvMotd {
        /// The text.
        message: NetStr<'a>,
    },
    /// `Sv_Broadcast` (2): a centred broadcast.
    SvBroadcast {
        /// The text.
        message: NetStr<'a>,
    },
    /// `Sv_Chat` (3): a chat line.
    SvChat {
        /// 0 all, 1 team, 2 whisper sent, 3 whisper received (DDNet).
        team: i32,
        /// Author, −1 for the server.
        client_id: i32,
        /// The text.
        message: NetStr<'a>,
    },
    /// `Sv_KillMsg` (4): a kill.
    SvKillMsg {
        /// Killer's client id.
        killer: i32,
        /// Victim's client id.
        victim: i32,
        /// Weapon, −1 game (e.g. fell), −2 self-kill, −3 world.
        weapon: i32,
        /// Mode flags (flag carriers).
        mode_special: i32,
    },
    /// `Sv_SoundGlobal` (5).
    SvSoundGlobal {
        /// Sound id.
        sound_id: i32,
    },
    /// `Sv_ReadyToEnter` (8).
    SvReadyToEnter,
    /// `Sv_WeaponPickup` (9).
    SvWeaponPickup {
        /// Weapon.
        weapon: i32,
    },
    /// `Sv_Emoticon` (10): a player's emoticon.
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
    /// `Sv_VoteSet` (15): a vote starts (timeout > 0) or ends (0).
    SvVoteSet {
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
    /// `Cl_Say` (17): a client's chat line.
    ClSay {
        /// Team chat.
        team: bool,
        /// The text.
        message: NetStr<'a>,
    },
    /// `Cl_SetTeam` (18).
    ClSetTeam {
        /// −1 spectators, 0 red/game, 1 blue.
        team: i32,
    },
    /// `Cl_SetSpectatorMode` (19).
    ClSetSpectatorMode {
        /// Watched client id, −1 free view.
        spectator_id: i32,
    },
    /// `Cl_StartInfo` (20).
    ClStartInfo(ClientInfo06<'a>),
    /// `Cl_ChangeInfo` (21).
    ClChangeInfo(ClientInfo06<'a>),
    /// `Cl_Kill` (22): self-kill.
    ClKill,
    /// `Cl_Emoticon` (23).
    ClEmoticon {
        /// Emoticon.
        emoticon: i32,
    },
    /// `Cl_Vote` (24): −1 no, 0 none, 1 yes.
    ClVote {
        /// The vote.
        vote: i32,
    },
    /// `Cl_CallVote` (25).
    ClCallVote {
        /// `"option"`, `"kick"` or `"spectate"`.
        kind: NetStr<'a>,
        /// Option text or client id.
        value: NetStr<'a>,
        /// Why.
        reason: NetStr<'a>,
    },
    /// Any other id (tuning, option lists, DDNet's legacy messages, …),
    /// passed through.
    Other {
        /// Message id.
        id: i32,
        /// Its fields, undecoded.
        payload: &'a [u8],
    },
}

impl<'a> Game06<'a> {
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
                team: f.int()?,
                client_id: f.int()?,
                message: f.string()?,
            },
            4 => Self::SvKillMsg {
                killer: f.int()?,
                victim: f.int()?,
                weapon: f.int()?,
                mode_special: f.int()?,
            },
            5 => Self::SvSoundGlobal { sound_id: f.int()? },
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
            17 => Self::ClSay {
                team: f.bool()?,
                message: f.string()?,
            },
            18 => Self::ClSetTeam { team: f.int()? },
            19 => Self::ClSetSpectatorMode {
                spectator_id: f.int()?,
            },
            20 => Self::ClStartInfo(client_info(f)?),
            21 => Self::ClChangeInfo(client_info(f)?),
            22 => Self::ClKill,
            23 => Self::ClEmoticon { emoticon: f.int()? },
            24 => Self::ClVote { vote: f.int()? },
            25 => Self::ClCallVote {
                kind: f.string()?,
                value: f.string()?,
                reason: f.string()?,
            },
            _ => Self::Other { id, payload },
        })
    }
}

fn client_info<'a>(f: &mut Fields<'a>) -> Result<ClientInfo06<'a>> {
    Ok(ClientInfo06 {
        name: f.string()?,
        clan: f.string()?,
        country: f.int()?,
        skin: f.string()?,
        use_custom_color: f.bool()?,
        color_body: f.int()?,
        color_feet: f.int()?,
    })
}
