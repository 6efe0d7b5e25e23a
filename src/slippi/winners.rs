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
use super::{CMD_FRAME_BOOKEND, CMD_POST_FRAME};

/// One winning port and its placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Placement {
    /// Player index (port − 1).
    pub player_index: u8,
    /// Position, 0 = first (from Game End; 0 when decided by LRAS or time).
    pub position: i8,
}

/// The winners of a game: empty when nobody won or it cannot be told.
pub type Winners = heapless::Vec<Placement, PORTS>;

/// Post-Frame Updates of the final frame [`SlippiView::winners`] keeps (two
/// per port, for Ice Climbers).
const FINAL_POSTS: usize = 2 * PORTS;

/// The winners of a game.
///
/// The rules, in order:
///
/// 1. No contest (7) or unresolved (0): when Game End names an LRAS
///    initiator (any value, −1 included) and exactly two ports are in the
///    game, the first port that is not the initiator wins; otherwise nobody.
/// 2. Time (1) with exactly two ports: the final frame must hold one
///    non-follower Post-Frame Update per port; more stocks wins, then the
///    lower percent (truncated to an integer); a tie is nobody.
/// 3. Otherwise the placements: nobody when no port has position 0;
///    in a teams game every port on that port's team (each with its
///    position), else that port alone.
///
/// `final_posts` are the Post-Frame Updates of the game's final frame; they
/// are only read when Game End says the game went to time.
#[must_use]
pub fn winners<'p>(
    start: &GameStart<'_>,
    end: &GameEnd<'_>,
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
    if end.method() == Some(GameEnd::TIME) {
        for post in final_posts {
            if finals.push(FinalPost::read(&post)).is_err() {
                break;
            }
        }
    }
    decide(&players, start.is_teams(), &EndFacts::read(end), &finals)
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
}

/// What the rules read of Game End.
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
    match end.method {
        Some(GameEnd::NO_CONTEST | GameEnd::UNRESOLVED) => {
            if let (Some(lras), 2) = (end.lras_initiator, players.len()) {
                let other = players
                    .iter()
                    .find(|(index, _)| i16::from(*index) != i16::from(lras));
                if let Some(&(index, _)) = other {
                    win(index, 0);
                }
            }
        }
        Some(GameEnd::TIME) if players.len() == 2 => {
            if let Some(index) = on_time(final_posts) {
                win(index, 0);
            }
        }
        _ => {
            let Some(placements) = end.placements else {
                return won;
            };
            let team_of = |index: u8| {
                players
                    .iter()
                    .find(|(i, _)| *i == index)
                    .and_then(|(_, team)| *team)
            };
            let Some(first) = (0u8..).zip(placements).find(|(_, p)| *p == 0) else {
                return won;
            };
            match team_of(first.0) {
                Some(team) if is_teams == Some(true) => {
                    for (index, position) in (0u8..).zip(placements) {
                        if team_of(index) == Some(team) {
                            win(index, position);
                        }
                    }
                }
                _ => win(first.0, first.1),
            }
        }
    }
    won
}

/// The winner on time of a two-port game: the final frame's two
/// non-follower updates compared by stocks, then truncated percent.
fn on_time(final_posts: &[FinalPost]) -> Option<u8> {
    let mut leaders = final_posts.iter().filter(|p| !p.follower);
    let (a, b) = (leaders.next()?, leaders.next()?);
    if leaders.next().is_some() {
        return None;
    }
    let stocks = |p: &FinalPost| p.stocks.unwrap_or(0);
    let percent = |p: &FinalPost| trunc(p.percent.unwrap_or(0.0));
    let (ia, ib) = (a.player_index?, b.player_index?);
    if stocks(a) != stocks(b) {
        return Some(if stocks(a) > stocks(b) { ia } else { ib });
    }
    let (pa, pb) = (percent(a), percent(b));
    if pa < pb {
        Some(ia)
    } else if pb < pa {
        Some(ib)
    } else {
        None
    }
}

/// `x` rounded toward zero (NaN and infinities unchanged); `f32::trunc` is
/// not in `core`.
fn trunc(x: f32) -> f32 {
    /// From 2^23 on, every `f32` is an integer.
    const INTEGRAL: f32 = 8_388_608.0;
    if x > -INTEGRAL && x < INTEGRAL {
        #[allow(clippy::cast_possible_truncation, reason = "|x| < 2^23")]
        let t = x as i32;
        #[allow(clippy::cast_precision_loss, reason = "|t| < 2^23 is exact")]
        let t = t as f32;
        t
    } else {
        x
    }
}

impl<'a> SlippiView<'a> {
    /// The winners (see [`winners`]), read as slippi-js reads them: Game
    /// Start; the Game End that ends the raw array ([`SlippiView::game_end`]),
    /// none when the file does not end with one; and for a game on time,
    /// the Post-Frame Updates of one frame found backwards from the Game
    /// End (and the Frame Bookend before it, when the stream declares
    /// Frame Bookend).
    #[must_use]
    pub fn winners(&self) -> Winners {
        let (Ok(start), Some(end)) = (self.game_start(), self.game_end()) else {
            return Winners::new();
        };
        let posts = if end.method() == Some(GameEnd::TIME) {
            self.final_posts(&end)
        } else {
            heapless::Vec::new()
        };
        winners(&start, &end, posts)
    }

    /// The Post-Frame Updates that directly precede `end` (and its Frame
    /// Bookend), all of one frame, in stream order.
    fn final_posts(&self, end: &GameEnd<'a>) -> heapless::Vec<PostFrame<'a>, FINAL_POSTS> {
        let mut posts = heapless::Vec::new();
        let Ok(sizes) = self.payload_sizes() else {
            return posts;
        };
        let event_len = |command| sizes.get(command).map(|s| usize::from(s).saturating_add(1));
        let Some(post_len) = event_len(CMD_POST_FRAME) else {
            return posts;
        };
        let bookend_len = event_len(CMD_FRAME_BOOKEND).unwrap_or(0);
        let raw = self.raw();
        let mut at = raw
            .len()
            .checked_sub(end.bytes().len())
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
