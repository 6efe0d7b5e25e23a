//! Conversions and combos (slippi-js `stats/conversions.ts`,
//! `stats/combos.ts`): punishes with their moves, kept in fixed pools.

use super::common::{
    Post, RESET_FRAMES, did_lose_stock, is_dead, is_down, is_in_control, is_punished, is_teching,
    truthy,
};

/// Punishes (conversions, and separately combos) a game has room for
/// (the most in the corpus and 40 other replays: 72).
pub const MAX_PUNISHES: usize = 256;
/// Moves (over all punishes of one kind) a game has room for (the
/// most in the corpus and 40 other replays: 109).
pub const MAX_MOVES: usize = 1024;

const NO_MOVE: u16 = u16::MAX;

/// How a conversion opened, decided as slippi-js decides it once the game
/// is over (`_populateConversionTypes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum OpeningType {
    /// Not decided yet (the game is still running).
    Unknown,
    /// Another conversion started on the same frame.
    Trade,
    /// The attacker was itself being punished by a conversion that ended
    /// after this one started.
    CounterAttack,
    /// Neither.
    NeutralWin,
}

impl OpeningType {
    /// The name: `unknown`, `trade`, `counter_attack`, `neutral_win`
    /// (its serialized form).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Unknown => "unknown",
            Self::Trade => "trade",
            Self::CounterAttack => "counter_attack",
            Self::NeutralWin => "neutral_win",
        }
    }

    /// slippi-js's name: `unknown`, `trade`, `counter-attack`,
    /// `neutral-win`.
    #[must_use]
    pub const fn slippi_js_name(self) -> &'static str {
        match self {
            Self::Unknown => "unknown",
            Self::Trade => "trade",
            Self::CounterAttack => "counter-attack",
            Self::NeutralWin => "neutral-win",
        }
    }
}

/// One move of a punish: consecutive hits of one attack.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Move {
    /// The attacker's player index (port − 1; serialized as `port`,
    /// 1-based).
    #[cfg_attr(
        feature = "serde",
        serde(rename = "port", serialize_with = "super::serialize_port")
    )]
    pub player_index: u8,
    /// The frame of its first hit.
    pub frame: i32,
    /// The attacker's last attack landed at that frame (slippi-js `moveId`).
    pub move_id: Option<u8>,
    /// Hits counted.
    pub hit_count: u32,
    /// Damage dealt, summed in `f64` as slippi-js sums it.
    pub damage: f64,
}

/// One punish: a conversion or a combo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Punish {
    /// The punished player's index (port − 1; slippi-js `playerIndex`).
    pub player_index: u8,
    /// The attacker's player index (slippi-js `lastHitBy`).
    pub last_hit_by: u8,
    /// The frame it started.
    pub start_frame: i32,
    /// The frame it ended; `None` while it goes on.
    pub end_frame: Option<i32>,
    /// The punished player's percent before it.
    pub start_percent: f64,
    /// The punished player's percent now (or when it ended).
    pub current_percent: f64,
    /// The punished player's percent the frame before it ended.
    pub end_percent: Option<f64>,
    /// It ended with the punished player losing a stock.
    pub did_kill: bool,
    /// How it opened (conversions only; combos keep [`OpeningType::Unknown`]).
    pub opening_type: OpeningType,
    first_move: u16,
    last_move: u16,
    move_count: u16,
}

impl Punish {
    /// Number of moves.
    #[must_use]
    pub const fn move_count(&self) -> u16 {
        self.move_count
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct MoveSlot {
    mv: Move,
    next: u16,
}

/// A list of punishes and their moves, in fixed memory.
#[derive(Clone, Debug)]
pub struct Punishes {
    punishes: heapless::Vec<Punish, MAX_PUNISHES>,
    moves: heapless::Vec<MoveSlot, MAX_MOVES>,
    overflow: bool,
    /// Conversions (with opening types), not combos.
    conversions: bool,
}

impl Punishes {
    pub(crate) const fn new(conversions: bool) -> Self {
        Self {
            punishes: heapless::Vec::new(),
            moves: heapless::Vec::new(),
            overflow: false,
            conversions,
        }
    }

    /// Empty again (still of the same kind).
    pub(crate) fn clear(&mut self) {
        self.punishes.clear();
        self.moves.clear();
        self.overflow = false;
    }

    /// Conversions, which have opening types (not combos).
    #[must_use]
    pub const fn are_conversions(&self) -> bool {
        self.conversions
    }

    /// The punishes, in the order they started (slippi-js's array order).
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &Punish> + '_ {
        self.punishes.iter()
    }

    /// Number of punishes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.punishes.len()
    }

    /// No punishes.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.punishes.is_empty()
    }

    /// The punish at `index`.
    #[must_use]
    pub fn get(&self, index: usize) -> Option<&Punish> {
        self.punishes.get(index)
    }

    /// The moves of `punish`, in order.
    pub fn moves<'s>(&'s self, punish: &Punish) -> impl Iterator<Item = &'s Move> + 's {
        let mut at = if punish.move_count == 0 {
            NO_MOVE
        } else {
            punish.first_move
        };
        core::iter::from_fn(move || {
            let slot = self.moves.get(usize::from(at))?;
            at = slot.next;
            Some(&slot.mv)
        })
    }

    /// The last move of `punish`.
    #[must_use]
    pub fn last_move(&self, punish: &Punish) -> Option<&Move> {
        if punish.move_count == 0 {
            return None;
        }
        self.moves.get(usize::from(punish.last_move)).map(|s| &s.mv)
    }

    /// The first move of `punish`.
    #[must_use]
    pub fn first_move(&self, punish: &Punish) -> Option<&Move> {
        if punish.move_count == 0 {
            return None;
        }
        self.moves
            .get(usize::from(punish.first_move))
            .map(|s| &s.mv)
    }

    /// More punishes than [`MAX_PUNISHES`] or moves than [`MAX_MOVES`]
    /// came: the list stops there and the numbers built on it are short.
    #[must_use]
    pub const fn overflowed(&self) -> bool {
        self.overflow
    }

    fn start(&mut self, punish: Punish) -> Option<usize> {
        let index = self.punishes.len();
        if self.punishes.push(punish).is_err() {
            self.overflow = true;
            return None;
        }
        Some(index)
    }

    fn add_move(&mut self, punish: usize, mv: Move) -> Option<usize> {
        let index = self.moves.len();
        let Ok(index16) = u16::try_from(index) else {
            self.overflow = true;
            return None;
        };
        if index16 == NO_MOVE || self.moves.push(MoveSlot { mv, next: NO_MOVE }).is_err() {
            self.overflow = true;
            return None;
        }
        let p = self.punishes.get_mut(punish)?;
        if p.move_count == 0 {
            p.first_move = index16;
        } else if let Some(prev) = self.moves.get_mut(usize::from(p.last_move)) {
            prev.next = index16;
        }
        p.last_move = index16;
        p.move_count = p.move_count.saturating_add(1);
        Some(index)
    }

    fn punish_mut(&mut self, index: Option<usize>) -> Option<&mut Punish> {
        self.punishes.get_mut(index?)
    }

    fn move_mut(&mut self, index: Option<usize>) -> Option<&mut Move> {
        self.moves.get_mut(index?).map(|s| &mut s.mv)
    }

    /// slippi-js's `_populateConversionTypes`, run once over every
    /// conversion still `unknown`: grouped by start frame in start order,
    /// a group of two or more is a trade; otherwise a counter-attack when
    /// the last conversion (in that order) on the attacker — or, for a
    /// conversion without moves, on the punished player, i.e. itself —
    /// ended after it started. Kept as slippi-js has it: an end frame of 0
    /// does not count (`oppEndFrame && …`), and a conversion still going
    /// on at the end does not count.
    pub(crate) fn populate_opening_types(&mut self) {
        let mut last_end: [Option<i32>; 256] = [None; 256];
        // Stable order by start frame: an insertion sort over indices.
        let mut order: heapless::Vec<u16, MAX_PUNISHES> = heapless::Vec::new();
        for (i, p) in self.punishes.iter().enumerate() {
            if p.opening_type != OpeningType::Unknown {
                continue;
            }
            let Ok(i) = u16::try_from(i) else { break };
            let start = p.start_frame;
            let mut at = order.len();
            while at > 0 {
                let before = order
                    .get(at.wrapping_sub(1))
                    .and_then(|&j| self.punishes.get(usize::from(j)));
                if before.is_some_and(|b| b.start_frame > start) {
                    at = at.wrapping_sub(1);
                } else {
                    break;
                }
            }
            if order.insert(at, i).is_err() {
                break;
            }
        }
        let mut g = 0;
        while g < order.len() {
            let start = order
                .get(g)
                .and_then(|&j| self.punishes.get(usize::from(j)))
                .map_or(0, |p| p.start_frame);
            let mut end = g;
            while order
                .get(end)
                .and_then(|&j| self.punishes.get(usize::from(j)))
                .is_some_and(|p| p.start_frame == start)
            {
                end = end.wrapping_add(1);
            }
            let is_trade = end.wrapping_sub(g) >= 2;
            for k in g..end {
                let Some(&j) = order.get(k) else { continue };
                let Some(p) = self.punishes.get(usize::from(j)).copied() else {
                    continue;
                };
                if let Some(slot) = last_end.get_mut(usize::from(p.player_index)) {
                    *slot = p.end_frame;
                }
                let opening = if is_trade {
                    OpeningType::Trade
                } else {
                    let key = self
                        .last_move(&p)
                        .map_or(p.player_index, |m| m.player_index);
                    let opp_end = last_end.get(usize::from(key)).copied().flatten();
                    if opp_end.is_some_and(|e| e != 0 && e > p.start_frame) {
                        OpeningType::CounterAttack
                    } else {
                        OpeningType::NeutralWin
                    }
                };
                if let Some(q) = self.punishes.get_mut(usize::from(j)) {
                    q.opening_type = opening;
                }
            }
            g = end;
        }
    }
}

/// Which punish a [`PunishState`] tracks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Conversion,
    Combo,
}

/// One (player, opponent) permutation's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PunishState {
    current: Option<usize>,
    current_move: Option<usize>,
    reset_counter: u32,
    last_hit_animation: Option<u16>,
}

/// What one frame did to a permutation's punish: the live events' source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Step {
    /// The punish this frame worked on (index into the list).
    pub(crate) index: Option<usize>,
    /// It started on this frame.
    pub(crate) started: bool,
    /// It got a new move on this frame.
    pub(crate) extended: bool,
    /// It ended on this frame.
    pub(crate) terminated: bool,
}

/// One frame of `handleConversionCompute` / `handleComboCompute`.
#[allow(clippy::too_many_arguments, reason = "the slippi-js function's inputs")]
#[inline(always)]
pub(crate) fn compute(
    kind: Kind,
    list: &mut Punishes,
    state: &mut PunishState,
    (player_index, opponent_index): (u8, u8),
    frame_number: i32,
    player: &Post,
    opponent: &Post,
    prev: Option<(&Post, &Post)>,
) -> Step {
    let (prev_player, prev_opponent) = match prev {
        Some((p, o)) => (Some(p), Some(o)),
        None => (None, None),
    };
    let opp_action = opponent.action;
    let punished = is_punished(opp_action);
    let damage_taken = prev_opponent.map_or(0.0, |po| opponent.percent - po.percent);

    let action_changed = Some(player.action) != state.last_hit_animation;
    let prev_counter = match prev_player {
        Some(pp) => pp.counter,
        None => Some(0.0),
    };
    let counter_reset = match (player.counter, prev_counter) {
        (Some(c), Some(p)) => c < p,
        _ => false,
    };
    if action_changed || counter_reset {
        state.last_hit_animation = None;
    }

    let mut step = Step::default();
    if punished {
        if state.current.is_none() {
            step.started = true;
            state.current = list.start(Punish {
                player_index: opponent_index,
                last_hit_by: player_index,
                start_frame: frame_number,
                end_frame: None,
                start_percent: prev_opponent.map_or(0.0, |po| po.percent),
                current_percent: opponent.percent,
                end_percent: None,
                did_kill: false,
                opening_type: OpeningType::Unknown,
                first_move: NO_MOVE,
                last_move: NO_MOVE,
                move_count: 0,
            });
        }
        if truthy(damage_taken) {
            if state.last_hit_animation.is_none() {
                state.current_move = state.current.and_then(|c| {
                    list.add_move(
                        c,
                        Move {
                            player_index,
                            frame: frame_number,
                            move_id: player.last_attack,
                            hit_count: 0,
                            damage: 0.0,
                        },
                    )
                });
                step.extended = state.current_move.is_some();
            }
            if let Some(m) = list.move_mut(state.current_move) {
                m.hit_count = m.hit_count.saturating_add(1);
                m.damage += damage_taken;
            }
            state.last_hit_animation = prev_player.map(|pp| pp.action);
        }
    }

    if state.current.is_none() {
        return Step::default();
    }
    step.index = state.current;

    let lost_stock = prev_opponent.is_some_and(|po| did_lose_stock(opponent, po));
    if !lost_stock {
        if let Some(p) = list.punish_mut(state.current) {
            p.current_percent = opponent.percent;
        }
    }
    match kind {
        Kind::Conversion => {
            if punished {
                state.reset_counter = 0;
            }
            if (state.reset_counter == 0 && is_in_control(opp_action)) || state.reset_counter > 0 {
                state.reset_counter = state.reset_counter.saturating_add(1);
            }
        }
        Kind::Combo => {
            let held =
                punished || is_teching(opp_action) || is_down(opp_action) || is_dead(opp_action);
            if held {
                state.reset_counter = 0;
            } else {
                state.reset_counter = state.reset_counter.saturating_add(1);
            }
        }
    }
    let terminate = lost_stock || state.reset_counter > RESET_FRAMES;
    if let Some(p) = list.punish_mut(state.current) {
        if lost_stock {
            p.did_kill = true;
        }
        if terminate {
            p.end_frame = Some(player.frame);
            p.end_percent = Some(prev_opponent.map_or(0.0, |po| po.percent));
        }
    }
    if terminate {
        state.current = None;
        state.current_move = None;
    }
    step.terminated = terminate;
    step
}

#[cfg(feature = "serde")]
impl serde::Serialize for OpeningType {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// Serialized as a sequence of punishes, each with its moves: `port` (the
/// punished player, 1-based), `last_hit_by_port`, `start_frame`,
/// `end_frame`, `start_percent`, `current_percent`, `end_percent`,
/// `moves`, `did_kill`, and for conversions `opening_type`.
#[cfg(feature = "serde")]
impl serde::Serialize for Punishes {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.punishes.iter().map(|p| PunishView {
            list: self,
            punish: p,
        }))
    }
}

#[cfg(feature = "serde")]
struct PunishView<'a> {
    list: &'a Punishes,
    punish: &'a Punish,
}

#[cfg(feature = "serde")]
struct MovesView<'a>(&'a PunishView<'a>);

#[cfg(feature = "serde")]
impl serde::Serialize for MovesView<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.list.moves(self.0.punish))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for PunishView<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let p = self.punish;
        let port = |i: u8| u16::from(i).saturating_add(1);
        let mut map = serializer.serialize_map(Some(if self.list.conversions { 10 } else { 9 }))?;
        map.serialize_entry("port", &port(p.player_index))?;
        map.serialize_entry("last_hit_by_port", &port(p.last_hit_by))?;
        map.serialize_entry("start_frame", &p.start_frame)?;
        map.serialize_entry("end_frame", &p.end_frame)?;
        map.serialize_entry("start_percent", &p.start_percent)?;
        map.serialize_entry("current_percent", &p.current_percent)?;
        map.serialize_entry("end_percent", &p.end_percent)?;
        map.serialize_entry("moves", &MovesView(self))?;
        map.serialize_entry("did_kill", &p.did_kill)?;
        if self.list.conversions {
            map.serialize_entry("opening_type", &p.opening_type)?;
        }
        map.end()
    }
}
