//! Game events: what happened in a game — kills, race finishes, votes and
//! their results, joins and leaves, map changes — read from the network
//! messages demos carry ([`Events::feed`]) and from teehistorian records
//! ([`Event::of_teehistorian`], feature `teehistorian`).
//!
//! An event is derived from one message, except the end of a 0.6 vote:
//! 0.6 has no message saying how a vote ended, only `Sv_VoteSet` with
//! timeout 0 and DDNet's chat line right after it (`"Vote passed"`,
//! `"Vote failed"`, `CGameContext::OnTick`), so [`Events`] holds the end
//! back for one message and reads that line; 0.7 says it in `Sv_VoteSet`'s
//! type (`VOTE_END_PASS`, …). The counts are those of the last
//! `Sv_VoteStatus`. Joins and leaves are messages only in 0.7
//! (`De_ClientEnter`/`De_ClientLeave`, `Sv_ClientDrop`) and teehistorian
//! (JOIN, DROP); a 0.6 demo tells them by client info objects appearing in
//! and leaving the snapshots, which is above messages (the CLI's `events`
//! does it). Race times are in milliseconds (`Sv_RaceFinish` sends them so;
//! a teehistorian finish counts ticks of 20 ms, DDNet's 50 ticks per
//! second, kept in `ticks`).
//!
//! Fixed memory, no allocation; events borrow their strings from the
//! message.
//!
//! ```
//! use gamefmt::netmsg::{Event, Events, Protocol, VoteResult, decode};
//!
//! let mut events = Events::new();
//! // Sv_KillMsg (4): killer 1, victim 2, weapon 3 (grenade), special 0.
//! let kill = decode(Protocol::V06, &[4 << 1, 1, 2, 3, 0]).unwrap();
//! let got: Vec<Event> = events.feed(&kill).collect();
//! assert_eq!(got, [Event::Kill { killer: 1, victim: 2, weapon: 3 }]);
//! assert_eq!(got[0].name(), "kill");
//! // Sv_VoteSet (15): a vote of 30 s on "x", no reason; timeout 0 ends it,
//! // and DDNet's chat line right after says how.
//! let start = decode(Protocol::V06, &[15 << 1, 30, b'x', 0, 0]).unwrap();
//! assert_eq!(events.feed(&start).next().map(|e| e.name()), Some("vote_start"));
//! let end = decode(Protocol::V06, &[15 << 1, 0, 0, 0]).unwrap();
//! assert_eq!(events.feed(&end).count(), 0);
//! let line = decode(Protocol::V06, b"\x06\x00\x40Vote passed\x00").unwrap();
//! let got: Vec<Event> = events.feed(&line).collect();
//! assert!(matches!(got[..], [Event::VoteEnd { result: Some(VoteResult::Passed), .. }]));
//! ```

use super::{Extended, Game06, Game07, NetMsg, NetStr, System06, System07};

/// How a vote ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum VoteResult {
    /// The vote passed (its command ran).
    Passed,
    /// The vote failed.
    Failed,
    /// The vote was aborted (0.7 `VOTE_END_ABORT`).
    Aborted,
}

impl VoteResult {
    /// `passed`, `failed` or `aborted`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Passed => "passed",
            Self::Failed => "failed",
            Self::Aborted => "aborted",
        }
    }
}

/// One game event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event<'a> {
    /// `Sv_KillMsg` (0.6, 0.7): `killer` killed `victim` (the same id for
    /// a suicide) with `weapon` (−1 world, −2 game, −3 self kill in 0.6;
    /// 0–5 the weapons).
    Kill {
        /// Client id of the killer.
        killer: i32,
        /// Client id of the victim.
        victim: i32,
        /// Weapon index.
        weapon: i32,
    },
    /// A player finished the race: `Sv_RaceFinish` (DDNet extended, 0.7),
    /// teehistorian `player-finish`.
    Finish {
        /// Client id.
        cid: i32,
        /// Race time in milliseconds.
        time_ms: i64,
        /// The race time in server ticks, when the source counts ticks
        /// (teehistorian).
        ticks: Option<i32>,
    },
    /// A team finished the race (teehistorian `team-finish`).
    TeamFinish {
        /// Team number.
        team: i32,
        /// Race time in milliseconds.
        time_ms: i64,
        /// The race time in server ticks.
        ticks: i32,
    },
    /// A vote started: `Sv_VoteSet` with a timeout (0.6) or a start type
    /// (0.7).
    VoteStart {
        /// Who called it (0.7; `None` in 0.6, which does not say).
        cid: Option<i32>,
        /// What is voted on, as the server describes it.
        description: NetStr<'a>,
        /// The caller's reason.
        reason: NetStr<'a>,
        /// Seconds to vote.
        timeout: i32,
    },
    /// A vote ended: `Sv_VoteSet` with timeout 0 (0.6) or an end type
    /// (0.7), with the last `Sv_VoteStatus` counts.
    VoteEnd {
        /// How it ended, when the protocol says (see the module docs).
        result: Option<VoteResult>,
        /// Yes votes.
        yes: Option<i32>,
        /// No votes.
        no: Option<i32>,
        /// Abstentions.
        pass: Option<i32>,
        /// Voters.
        total: Option<i32>,
    },
    /// A client asked for a vote (`Cl_CallVote`, teehistorian MESSAGE).
    VoteCall {
        /// Client id.
        cid: i32,
        /// `option`, `kick` or `spectate`.
        vote_type: NetStr<'a>,
        /// The option or the client id.
        value: NetStr<'a>,
        /// The reason given.
        reason: NetStr<'a>,
    },
    /// A client voted (`Cl_Vote`, teehistorian MESSAGE): 1 yes, −1 no.
    Vote {
        /// Client id.
        cid: i32,
        /// The choice.
        vote: i32,
    },
    /// A client joined: teehistorian JOIN, 0.7 `De_ClientEnter`, or (the
    /// CLI) a client info object appearing in a 0.6 demo's snapshots.
    Join {
        /// Client id.
        cid: i32,
        /// Its name, when the source gives it.
        name: Option<NetStr<'a>>,
    },
    /// A client left: teehistorian DROP, 0.7 `De_ClientLeave` or
    /// `Sv_ClientDrop`, or a client info object leaving a 0.6 demo's
    /// snapshots.
    Leave {
        /// Client id.
        cid: i32,
        /// Its name, when the source gives it.
        name: Option<NetStr<'a>>,
        /// Why, when the source says (may be empty).
        reason: Option<NetStr<'a>>,
    },
    /// The server changed the map (`NETMSG_MAP_CHANGE`; the CLI also
    /// gives a demo's or recording's first map so).
    MapChange {
        /// Map name.
        map: NetStr<'a>,
        /// Its CRC.
        crc: i32,
        /// Its size in bytes.
        size: i32,
    },
}

impl Event<'_> {
    /// The event's name, its `kind` when serialized: `kill`, `finish`,
    /// `team_finish`, `vote_start`, `vote_end`, `vote_call`, `vote`,
    /// `join`, `leave`, `map_change`.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::Kill { .. } => "kill",
            Self::Finish { .. } => "finish",
            Self::TeamFinish { .. } => "team_finish",
            Self::VoteStart { .. } => "vote_start",
            Self::VoteEnd { .. } => "vote_end",
            Self::VoteCall { .. } => "vote_call",
            Self::Vote { .. } => "vote",
            Self::Join { .. } => "join",
            Self::Leave { .. } => "leave",
            Self::MapChange { .. } => "map_change",
        }
    }
}

/// Milliseconds of `ticks` server ticks (DDNet's 50 per second).
#[cfg(feature = "teehistorian")]
const fn ticks_ms(ticks: i32) -> i64 {
    // i32 × 20 always fits an i64.
    (ticks as i64).wrapping_mul(20)
}

#[cfg(feature = "teehistorian")]
impl<'a> Event<'a> {
    /// The event a teehistorian record tells, if any: JOIN, DROP,
    /// `player-finish`, `team-finish`, and the `Cl_CallVote`/`Cl_Vote`
    /// MESSAGE records (decoded with the client's `protocol`).
    #[must_use]
    pub fn of_teehistorian(
        message: &crate::teehistorian::Message<'a>,
        protocol: super::Protocol,
    ) -> Option<Self> {
        use crate::teehistorian::{ExMessage, Message};
        Some(match *message {
            Message::Join { cid } => Self::Join { cid, name: None },
            Message::Drop { cid, reason } => Self::Leave {
                cid,
                name: None,
                reason: Some(NetStr(reason)),
            },
            Message::Ex(ex) => match ex.parse().ok()? {
                ExMessage::PlayerFinish { cid, time } => Self::Finish {
                    cid,
                    time_ms: ticks_ms(time),
                    ticks: Some(time),
                },
                ExMessage::TeamFinish { team, time } => Self::TeamFinish {
                    team,
                    time_ms: ticks_ms(time),
                    ticks: time,
                },
                _ => return None,
            },
            Message::PlayerMessage { cid, data } => match super::decode(protocol, data).ok()? {
                NetMsg::Game06(Game06::ClCallVote {
                    kind,
                    value,
                    reason,
                })
                | NetMsg::Game07(Game07::ClCallVote {
                    kind,
                    value,
                    reason,
                    ..
                }) => Self::VoteCall {
                    cid,
                    vote_type: kind,
                    value,
                    reason,
                },
                NetMsg::Game06(Game06::ClVote { vote })
                | NetMsg::Game07(Game07::ClVote { vote }) => Self::Vote { cid, vote },
                _ => return None,
            },
            _ => return None,
        })
    }
}

/// The counts of the last `Sv_VoteStatus`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    yes: i32,
    no: i32,
    pass: i32,
    total: i32,
}

/// The state events need across messages: the vote running, its last
/// counts, and a 0.6 vote end waiting for DDNet's chat line.
#[derive(Clone, Copy, Debug, Default)]
pub struct Events {
    /// A vote started (or was counted) and has not ended.
    running: bool,
    counts: Option<Counts>,
    /// A 0.6 vote ended with these counts; the next message may say how.
    pending: Option<Option<Counts>>,
}

/// The events one message gave: none, one, or two (a held-back vote end
/// and the message's own).
#[derive(Clone, Copy, Debug)]
pub struct Fed<'a> {
    events: [Option<Event<'a>>; 2],
    at: usize,
}

impl<'a> Iterator for Fed<'a> {
    type Item = Event<'a>;

    fn next(&mut self) -> Option<Event<'a>> {
        while let Some(slot) = self.events.get_mut(self.at) {
            self.at = self.at.saturating_add(1);
            if let Some(event) = slot.take() {
                return Some(event);
            }
        }
        None
    }
}

fn vote_end(result: Option<VoteResult>, counts: Option<Counts>) -> Event<'static> {
    Event::VoteEnd {
        result,
        yes: counts.map(|c| c.yes),
        no: counts.map(|c| c.no),
        pass: counts.map(|c| c.pass),
        total: counts.map(|c| c.total),
    }
}

impl Events {
    /// No vote running.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            running: false,
            counts: None,
            pending: None,
        }
    }

    /// The events `msg` gives (a server-to-client message, as demos
    /// record them).
    pub fn feed<'a>(&mut self, msg: &NetMsg<'a>) -> Fed<'a> {
        let mut first = None;
        // A server demo records the end once per client, and the server's
        // log line (NETMSG_RCON_LINE) may come before its chat line: still
        // pending.
        if self.pending.is_some() {
            let system = matches!(
                msg,
                NetMsg::System06(_) | NetMsg::System07(_) | NetMsg::System { .. }
            );
            if system || matches!(msg, NetMsg::Game06(Game06::SvVoteSet { timeout: 0, .. })) {
                let own = if system { self.event(msg) } else { None };
                return Fed {
                    events: [own, None],
                    at: 0,
                };
            }
        }
        if let Some(counts) = self.pending.take() {
            // DDNet's announcement right after a 0.6 vote's end.
            if let NetMsg::Game06(Game06::SvChat {
                client_id: -1,
                message,
                ..
            }) = *msg
            {
                let result = if message.0.starts_with(b"Vote passed") {
                    Some(VoteResult::Passed)
                } else if message.0.starts_with(b"Vote failed") {
                    Some(VoteResult::Failed)
                } else {
                    None
                };
                if result.is_some() {
                    return Fed {
                        events: [Some(vote_end(result, counts)), None],
                        at: 0,
                    };
                }
            }
            first = Some(vote_end(None, counts));
        }
        Fed {
            events: [first, self.event(msg)],
            at: 0,
        }
    }

    /// A vote end still held back at the end of the input (its result
    /// unknown).
    pub fn finish(&mut self) -> Option<Event<'static>> {
        self.pending.take().map(|counts| vote_end(None, counts))
    }

    fn event<'a>(&mut self, msg: &NetMsg<'a>) -> Option<Event<'a>> {
        Some(match *msg {
            NetMsg::Game06(Game06::SvKillMsg {
                killer,
                victim,
                weapon,
                ..
            })
            | NetMsg::Game07(Game07::SvKillMsg {
                killer,
                victim,
                weapon,
                ..
            }) => Event::Kill {
                killer,
                victim,
                weapon,
            },
            NetMsg::Extended(Extended::SvRaceFinish {
                client_id, time, ..
            })
            | NetMsg::Game07(Game07::SvRaceFinish {
                client_id, time, ..
            }) => Event::Finish {
                cid: client_id,
                time_ms: i64::from(time),
                ticks: None,
            },
            NetMsg::Game06(Game06::SvVoteStatus {
                yes,
                no,
                pass,
                total,
            })
            | NetMsg::Game07(Game07::SvVoteStatus {
                yes,
                no,
                pass,
                total,
            }) => {
                self.running = true;
                self.counts = Some(Counts {
                    yes,
                    no,
                    pass,
                    total,
                });
                return None;
            }
            NetMsg::Game06(Game06::SvVoteSet {
                timeout,
                description,
                reason,
            }) => {
                if timeout > 0 {
                    return Some(self.start(None, description, reason, timeout));
                }
                if core::mem::take(&mut self.running) {
                    self.pending = Some(self.counts.take());
                }
                return None;
            }
            NetMsg::Game07(Game07::SvVoteSet {
                client_id,
                kind,
                timeout,
                description,
                reason,
            }) => {
                let result = match kind {
                    1..=3 => {
                        return Some(self.start(Some(client_id), description, reason, timeout));
                    }
                    4 => Some(VoteResult::Aborted),
                    5 => Some(VoteResult::Passed),
                    6 => Some(VoteResult::Failed),
                    _ => None,
                };
                self.running = false;
                return Some(vote_end(result, self.counts.take()));
            }
            NetMsg::Game07(Game07::DeClientEnter {
                name, client_id, ..
            }) => Event::Join {
                cid: client_id,
                name: Some(name),
            },
            NetMsg::Game07(Game07::DeClientLeave {
                name,
                client_id,
                reason,
            }) => Event::Leave {
                cid: client_id,
                name: Some(name),
                reason: Some(reason),
            },
            NetMsg::Game07(Game07::SvClientDrop {
                client_id, reason, ..
            }) => Event::Leave {
                cid: client_id,
                name: None,
                reason: Some(reason),
            },
            NetMsg::System06(System06::MapChange {
                name,
                map_crc,
                map_size,
            })
            | NetMsg::System07(System07::MapChange {
                name,
                map_crc,
                map_size,
                ..
            }) => Event::MapChange {
                map: name,
                crc: map_crc,
                size: map_size,
            },
            _ => return None,
        })
    }

    fn start<'a>(
        &mut self,
        cid: Option<i32>,
        description: NetStr<'a>,
        reason: NetStr<'a>,
        timeout: i32,
    ) -> Event<'a> {
        self.running = true;
        self.counts = None;
        Event::VoteStart {
            cid,
            description,
            reason,
            timeout,
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for VoteResult {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Event<'_> {
    /// A map: `kind` ([`Event::name`]) and the event's fields, every
    /// event of a kind with the same keys (`null` when absent).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let kind = self.name();
        match *self {
            Self::Kill {
                killer,
                victim,
                weapon,
            } => {
                let mut m = s.serialize_struct("kill", 4)?;
                m.serialize_field("kind", kind)?;
                m.serialize_field("killer", &killer)?;
                m.serialize_field("victim", &victim)?;
                m.serialize_field("weapon", &weapon)?;
                m.end()
            }
            Self::Finish {
                cid,
                time_ms,
                ticks,
            } => {
                let mut m = s.serialize_struct("finish", 4)?;
                m.serialize_field("kind", kind)?;
                m.serialize_field("cid", &cid)?;
                m.serialize_field("time_ms", &time_ms)?;
                m.serialize_field("ticks", &ticks)?;
                m.end()
            }
            Self::TeamFinish {
                team,
                time_ms,
                ticks,
            } => {
                let mut m = s.serialize_struct("team_finish", 4)?;
                m.serialize_field("kind", kind)?;
                m.serialize_field("team", &team)?;
                m.serialize_field("time_ms", &time_ms)?;
                m.serialize_field("ticks", &ticks)?;
                m.end()
            }
            Self::VoteStart {
                cid,
                description,
                reason,
                timeout,
            } => {
                let mut m = s.serialize_struct("vote_start", 5)?;
                m.serialize_field("kind", kind)?;
                m.serialize_field("cid", &cid)?;
                m.serialize_field("description", &description)?;
                m.serialize_field("reason", &reason)?;
                m.serialize_field("timeout", &timeout)?;
                m.end()
            }
            Self::VoteEnd {
                result,
                yes,
                no,
                pass,
                total,
            } => {
                let mut m = s.serialize_struct("vote_end", 6)?;
                m.serialize_field("kind", kind)?;
                m.serialize_field("result", &result)?;
                m.serialize_field("yes", &yes)?;
                m.serialize_field("no", &no)?;
                m.serialize_field("pass", &pass)?;
                m.serialize_field("total", &total)?;
                m.end()
            }
            Self::VoteCall {
                cid,
                vote_type,
                value,
                reason,
            } => {
                let mut m = s.serialize_struct("vote_call", 5)?;
                m.serialize_field("kind", kind)?;
                m.serialize_field("cid", &cid)?;
                m.serialize_field("type", &vote_type)?;
                m.serialize_field("value", &value)?;
                m.serialize_field("reason", &reason)?;
                m.end()
            }
            Self::Vote { cid, vote } => {
                let mut m = s.serialize_struct("vote", 3)?;
                m.serialize_field("kind", kind)?;
                m.serialize_field("cid", &cid)?;
                m.serialize_field("vote", &vote)?;
                m.end()
            }
            Self::Join { cid, name } => {
                let mut m = s.serialize_struct("join", 3)?;
                m.serialize_field("kind", kind)?;
                m.serialize_field("cid", &cid)?;
                m.serialize_field("name", &name)?;
                m.end()
            }
            Self::Leave { cid, name, reason } => {
                let mut m = s.serialize_struct("leave", 4)?;
                m.serialize_field("kind", kind)?;
                m.serialize_field("cid", &cid)?;
                m.serialize_field("name", &name)?;
                m.serialize_field("reason", &reason)?;
                m.end()
            }
            Self::MapChange { map, crc, size } => {
                let mut m = s.serialize_struct("map_change", 4)?;
                m.serialize_field("kind", kind)?;
                m.serialize_field("map", &map)?;
                m.serialize_field("crc", &crc)?;
                m.serialize_field("size", &size)?;
                m.end()
            }
        }
    }
}
