//! [`winners`]: who won a game, by slippi-js's `getWinners()` rules.
//!
//! The answer needs three things: Game Start (players and teams), the last
//! Game End, and — only when the game went to time — the Post-Frame Updates
//! of the final frame. [`winners`] takes them from any source: a file in
//! memory, the push decoder, a reader (copy the events' bytes out of its
//! buffer and rebuild the views with `new`), or the last [`super::Frame`].
//! [`SlippiView::winners`] finds them in a file in memory the way slippi-js
//! does, without walking the frames.
//!
//! The rules are slippi-js's; [`winners`] lists them.
//!
//! ```
//! # fn main() -> Result<(), gamefmt::Error> {
//! use gamefmt::slippi::{GameEnd, Placement, SAMPLE, SlippiView, winners};
//!
//! let slp = SlippiView::parse(SAMPLE)?;
//! // The sample ends by GAME (2), placements [0, 1, −1, −1]: port 1 won.
//! let first = Placement { player_index: 0, position: 0 };
//! assert_eq!(slp.winners().as_slice(), [first]);
//!
//! // The same game, had port 2 LRAS'd: port 1 wins.
//! let lras = GameEnd::new(&[0x39, GameEnd::NO_CONTEST, 1]);
//! let won = winners(&slp.game_start()?, &lras, []);
//! assert_eq!(won.as_slice(), [first]);
//! # Ok(()) }
//! ```

use super::frame_events::PostFrame;
use super::game_end::GameEnd;
use super::game_start::{GameStart, PORTS};
use super::view::SlippiView;
use super::{CMD_FRAME_BOOKEND, CMD_GAME_END, CMD_POST_FRAME};

/// One winning port and its placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Placement {
    /// Player index (port − 1).
    pub player_index: u8,
    /// Position, 0 = first (from Game End; 0 when decided by LRAS or time).
    pub position: i8,
}

/// `{"port", "position"}`: the port 1-based, as every Slippi port of the
/// vocabulary.
#[cfg(feature = "serde")]
impl serde::Serialize for Placement {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::vocabulary::map!(s, {
            "port" => u16::from(self.player_index).saturating_add(1),
            "position" => self.position,
        })
    }
}

/// The winners of a game: empty when nobody won or it cannot be told.
pub type Winners = heapless::Vec<Placement, PORTS>;

/// Post-Frame Updates of the final frame [`SlippiView::winners`] keeps (two
/// per port, for Ice Climbers).
const FINAL_POSTS: usize = 2 * PORTS;

/// The winners of a game, by slippi-js 9.1.2's `getWinners()` rules.
///
/// The rules, in order (the "final frame" is the Post-Frame Updates
/// `final_posts`, followers left out):
///
/// 1. No contest (7) or unresolved (0): when Game End names an LRAS
///    initiator (any value, −1 included) and exactly two ports are in the
///    game, the first port that is not the initiator wins; otherwise nobody.
/// 2. Nobody when every update of the final frame has 0 stocks left (a
///    double KO), or the final frame holds none.
/// 3. Time (1), or no Game End ([`SlippiView::winners`] only), with at
///    least two updates in the final frame: decided by that frame, whatever
///    the placements say. Teams: stocks and percents are summed per team
///    (in the order the teams first appear); the most stocks, then the
///    lowest percent, wins (a tie goes to the team that appeared first),
///    and each of its ports is placed by its own stocks and percent.
///    Otherwise every port tied with the best on stocks and exact percent
///    wins, at position 0 (a `NaN` percent ties with nothing).
/// 4. Otherwise the placements: nobody when no port has position 0; in a
///    teams game every port on that port's team (each with its position),
///    else that port alone.
///
/// slippi-js 6.x (the rules before 9.0) decided time only for two ports,
/// by percent truncated to an integer, and placed teams on time by the
/// placements; the difference shows on `v3.15.0_peppi_duplicate_game_end`
/// (a double KO that 6.x gave to port 1) and on team or three-port games
/// that went to time.
///
/// `final_posts` are the Post-Frame Updates of the game's final frame
/// ([`FinalPosts`](super::FinalPosts) follows them in a stream); they are
/// read whatever the end method. At most [`PORTS`] winners are kept.
#[must_use]
pub fn winners<'p>(
    start: &GameStart<'_>,
    end: &GameEnd<'_>,
    final_posts: impl IntoIterator<Item = PostFrame<'p>>,
) -> Winners {
    decide_posts(start, &EndFacts::read(end), final_posts)
}

/// [`winners`] over Game End's facts (none without a Game End).
fn decide_posts<'p>(
    start: &GameStart<'_>,
    end: &EndFacts,
    final_posts: impl IntoIterator<Item = PostFrame<'p>>,
) -> Winners {
    let mut players: heapless::Vec<(u8, Option<u8>), PORTS> = heapless::Vec::new();
    for (index, slot) in start.players() {
        if let Ok(index) = u8::try_from(index) {
            // At most PORTS players: the push cannot fail.
            let _ = players.push((index, slot.team_id()));
        }
    }
    let mut finals: heapless::Vec<FinalPost, FINAL_POSTS> = heapless::Vec::new();
    for post in final_posts {
        if finals.push(FinalPost::read(&post)).is_err() {
            break;
        }
    }
    decide(&players, start.is_teams(), end, &finals)
}

/// What the rules read of one Post-Frame Update of the final frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct FinalPost {
    pub(crate) player_index: Option<u8>,
    pub(crate) follower: bool,
    pub(crate) stocks: Option<u8>,
    pub(crate) percent: Option<f32>,
}

impl FinalPost {
    fn read(post: &PostFrame<'_>) -> Self {
        Self {
            player_index: post.player_index(),
            follower: post.is_follower() == Some(true),
            stocks: post.stocks_remaining(),
            percent: post.percent(),
        }
    }

    fn stocks(&self) -> f64 {
        f64::from(self.stocks.unwrap_or(0))
    }

    fn percent(&self) -> f64 {
        f64::from(self.percent.unwrap_or(0.0))
    }
}

/// What the rules read of Game End (all `None` without one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct EndFacts {
    pub(crate) method: Option<u8>,
    pub(crate) lras_initiator: Option<i8>,
    pub(crate) placements: Option<[i8; 4]>,
}

impl EndFacts {
    pub(crate) fn read(end: &GameEnd<'_>) -> Self {
        Self {
            method: end.method(),
            lras_initiator: end.lras_initiator(),
            placements: end.placements(),
        }
    }
}

/// JavaScript's stable `Array.prototype.sort` with a comparator giving a
/// number (`NaN` counts as equal), over a few items.
fn js_sort<T, const N: usize>(items: &mut heapless::Vec<T, N>, cmp: impl Fn(&T, &T) -> f64) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 {
            let (Some(a), Some(b)) = (items.get(j.wrapping_sub(1)), items.get(j)) else {
                break;
            };
            if cmp(a, b) > 0.0 {
                items.swap(j.wrapping_sub(1), j);
                j = j.wrapping_sub(1);
            } else {
                break;
            }
        }
    }
}

/// slippi-js `sortByPerformance`: more stocks first, then lower percent.
fn by_performance(a: &&FinalPost, b: &&FinalPost) -> f64 {
    let stocks = b.stocks() - a.stocks();
    if stocks != 0.0 {
        return stocks;
    }
    a.percent() - b.percent()
}

/// The rules of [`winners`] over the facts they read: the settings'
/// players (index, team), whether the game is teams, Game End, and the
/// final frame's Post-Frame Updates.
pub(crate) fn decide(
    players: &[(u8, Option<u8>)],
    is_teams: Option<bool>,
    end: &EndFacts,
    final_posts: &[FinalPost],
) -> Winners {
    let mut won = Winners::new();
    let mut win = |player_index: u8, position: i8| {
        let _ = won.push(Placement {
            player_index,
            position,
        });
    };
    if let Some(GameEnd::NO_CONTEST | GameEnd::UNRESOLVED) = end.method {
        if let (Some(lras), 2) = (end.lras_initiator, players.len()) {
            let other = players
                .iter()
                .find(|(index, _)| i16::from(*index) != i16::from(lras));
            if let Some(&(index, _)) = other {
                win(index, 0);
            }
        }
        return won;
    }
    let mut active: heapless::Vec<&FinalPost, FINAL_POSTS> = heapless::Vec::new();
    for post in final_posts.iter().filter(|p| !p.follower) {
        let _ = active.push(post);
    }
    if active.iter().all(|p| p.stocks == Some(0)) {
        return won;
    }
    let teams = is_teams == Some(true);
    let team_of = |index: u8| {
        players
            .iter()
            .find(|(i, _)| *i == index)
            .and_then(|(_, team)| *team)
    };
    if matches!(end.method, None | Some(GameEnd::TIME)) && active.len() >= 2 {
        if teams {
            on_time_teams(players, &active, &mut win);
        } else {
            js_sort(&mut active, by_performance);
            let Some(top) = active.first().copied() else {
                return won;
            };
            // `===`: absent equals absent, NaN equals nothing.
            let tied = |p: &&FinalPost| {
                p.stocks == top.stocks
                    && match (p.percent, top.percent) {
                        (None, None) => true,
                        (Some(a), Some(b)) => a == b,
                        _ => false,
                    }
            };
            let mut best: heapless::Vec<&FinalPost, FINAL_POSTS> = heapless::Vec::new();
            for p in active.iter().filter(|p| tied(p)) {
                let _ = best.push(*p);
            }
            js_sort(&mut best, |a, b| {
                f64::from(a.player_index.unwrap_or(0)) - f64::from(b.player_index.unwrap_or(0))
            });
            for p in &best {
                if let Some(index) = p.player_index {
                    win(index, 0);
                }
            }
        }
        return won;
    }
    let Some(placements) = end.placements else {
        return won;
    };
    let Some(first) = (0u8..).zip(placements).find(|(_, p)| *p == 0) else {
        return won;
    };
    match team_of(first.0) {
        Some(team) if teams => {
            for (index, position) in (0u8..).zip(placements) {
                if team_of(index) == Some(team) {
                    win(index, position);
                }
            }
        }
        _ => win(first.0, first.1),
    }
    won
}

/// slippi-js `getTeamsWinners`: the winning team by summed stocks, then
/// summed percent; its ports in port order, placed by their own numbers.
fn on_time_teams(
    players: &[(u8, Option<u8>)],
    active: &[&FinalPost],
    win: &mut impl FnMut(u8, i8),
) {
    struct Team<'f> {
        id: i16,
        stocks: f64,
        percent: f64,
        members: heapless::Vec<&'f FinalPost, FINAL_POSTS>,
    }
    let mut teams: heapless::Vec<Team<'_>, FINAL_POSTS> = heapless::Vec::new();
    for &post in active {
        let Some(&(_, team)) = players.iter().find(|(i, _)| Some(*i) == post.player_index) else {
            continue;
        };
        let id = team.map_or(-1, i16::from);
        let at = match teams.iter().position(|t| t.id == id) {
            Some(at) => at,
            None => {
                let team = Team {
                    id,
                    stocks: 0.0,
                    percent: 0.0,
                    members: heapless::Vec::new(),
                };
                if teams.push(team).is_err() {
                    continue;
                }
                teams.len().wrapping_sub(1)
            }
        };
        if let Some(t) = teams.get_mut(at) {
            t.stocks += post.stocks();
            t.percent += post.percent();
            let _ = t.members.push(post);
        }
    }
    js_sort(&mut teams, |a, b| {
        let stocks = b.stocks - a.stocks;
        if stocks != 0.0 {
            stocks
        } else {
            a.percent - b.percent
        }
    });
    let Some(best) = teams.first_mut() else {
        return;
    };
    let mut ranked = best.members.clone();
    js_sort(&mut ranked, by_performance);
    js_sort(&mut best.members, |a, b| {
        f64::from(a.player_index.unwrap_or(0)) - f64::from(b.player_index.unwrap_or(0))
    });
    for p in &best.members {
        let Some(index) = p.player_index else {
            continue;
        };
        let rank = ranked
            .iter()
            .position(|r| r.player_index == Some(index))
            .and_then(|r| i8::try_from(r).ok())
            .unwrap_or(0);
        win(index, rank);
    }
}

impl<'a> SlippiView<'a> {
    /// The winners (see [`winners`]), read as slippi-js 9.1.2 reads them:
    /// Game Start; the Game End that ends the raw array
    /// ([`SlippiView::game_end`]), none when the file does not end with one;
    /// and the Post-Frame Updates of one frame found backwards from where
    /// slippi-js looks: before the declared Game End and Frame Bookend
    /// sizes at the end of the raw array, whether those events are there or
    /// not (so a file without its Game End usually has no winners).
    #[must_use]
    pub fn winners(&self) -> Winners {
        let Ok(start) = self.game_start() else {
            return Winners::new();
        };
        let end = self
            .game_end()
            .map_or_else(EndFacts::default, |e| EndFacts::read(&e));
        decide_posts(&start, &end, self.final_posts())
    }

    /// The Post-Frame Updates slippi-js's `extractFinalPostFrameUpdates`
    /// finds: directly before the declared sizes of Game End and Frame
    /// Bookend at the end of the raw array, all of one frame, in stream
    /// order.
    fn final_posts(&self) -> heapless::Vec<PostFrame<'a>, FINAL_POSTS> {
        let mut posts = heapless::Vec::new();
        let Ok(sizes) = self.payload_sizes() else {
            return posts;
        };
        let event_len = |command| sizes.get(command).map(|s| usize::from(s).saturating_add(1));
        let Some(post_len) = event_len(CMD_POST_FRAME) else {
            return posts;
        };
        // `size ? size + 1 : 0`: a size of 0 counts as none.
        let trailer_len = |command| {
            sizes
                .get(command)
                .filter(|&s| s > 0)
                .map_or(0, |s| usize::from(s).saturating_add(1))
        };
        let bookend_len = trailer_len(CMD_FRAME_BOOKEND);
        let end_len = trailer_len(CMD_GAME_END);
        let raw = self.raw();
        let mut at = raw
            .len()
            .checked_sub(end_len)
            .and_then(|p| p.checked_sub(bookend_len));
        let mut frame = None;
        while let Some(start) = at.and_then(|p| p.checked_sub(post_len)) {
            let Some(bytes) = raw.get(start..start.saturating_add(post_len)) else {
                break;
            };
            let post = PostFrame::new(bytes);
            if bytes.first() != Some(&CMD_POST_FRAME) || frame.is_some_and(|f| f != post.frame()) {
                break;
            }
            frame = Some(post.frame());
            if posts.insert(0, post).is_err() {
                break;
            }
            at = Some(start);
        }
        posts
    }
}
