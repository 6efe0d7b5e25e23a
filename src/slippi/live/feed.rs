//! [`GameFeed`]: a feed of replay bytes (console, relay, Dolphin) split
//! into games and events.

use crate::error::{Error, Result};
use crate::stream::{Decoded, End};

use super::super::decoder::{Decoder, Item};
use super::super::events::Event;
use super::super::{CMD_EVENT_PAYLOADS, CMD_GAME_END};

/// The keep-alive a relay, or slippi-js itself, puts among replay bytes
/// (slippi-js `NETWORK_MESSAGE`); it is dropped at any event boundary.
pub const NETWORK_MESSAGE: &[u8; 5] = b"HELO\0";

/// One thing a [`GameFeed`] found in the replay bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum FeedItem<'a> {
    /// A new game starts; its first event (Event Payloads) comes next.
    NewGame {
        /// Its number in the feed, from 0.
        game: u32,
    },
    /// One whole event of the current game.
    Event(Event<'a>),
    /// The current game is over: after its Game End event
    /// ([`End::Complete`]), or cut by the next game's first event
    /// ([`End::Eof`], or [`End::Truncated`] inside an event), or damaged
    /// ([`End::Damaged`], after [`FeedItem::Damaged`]).
    GameOver {
        /// Its number.
        game: u32,
        /// How its events ended.
        end: End,
    },
    /// Bytes outside any game (before the first Event Payloads, after a
    /// damaged game), skipped: reported, not hidden.
    Skipped {
        /// How many bytes.
        len: usize,
    },
    /// A [`NETWORK_MESSAGE`] keep-alive, dropped.
    KeepAlive,
    /// The current game's events are damaged at this error (offset in the
    /// feed); its bytes up to the next game are skipped.
    Damaged {
        /// The error.
        error: Error,
    },
}

impl FeedItem<'_> {
    /// `"new_game"`, `"event"`, `"game_over"`, `"skipped"`, `"keep_alive"`
    /// or `"damaged"`.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::NewGame { .. } => "new_game",
            Self::Event(_) => "event",
            Self::GameOver { .. } => "game_over",
            Self::Skipped { .. } => "skipped",
            Self::KeepAlive => "keep_alive",
            Self::Damaged { .. } => "damaged",
        }
    }
}

#[derive(Clone, Debug)]
enum State {
    /// No game: bytes are skipped up to the next Event Payloads.
    Idle,
    /// In game `game`, whose first event is `base` bytes into the feed.
    /// (The game's decoder is [`GameFeed`]'s.)
    Game {
        game: u32,
        base: usize,
        /// Whether [`FeedItem::GameOver`] was already given (after Game
        /// End, events that follow still belong to the game).
        over: bool,
    },
    /// Damaged: [`FeedItem::GameOver`] is owed for `game`.
    Damaged { game: u32, error: Error },
}

/// A push decoder over a feed of replay bytes — the `data` of console
/// replay messages, the payloads of Dolphin game events, a legacy stream —
/// that splits it into games at each game's first event (Event Payloads),
/// as slippi-js's `SlpStream` does, and decodes each game's events with
/// [`Decoder::events_only`].
///
/// It follows the [stream contract](crate::stream): the caller keeps the
/// bytes not consumed yet, appends new ones, and calls
/// [`GameFeed::decode`] until [`Decoded::NeedMore`]. It never fails:
/// damage is reported as [`FeedItem::Damaged`] and the feed goes on at the
/// next game. No allocation; the decoder holds one payload table.
#[derive(Clone, Debug)]
pub struct GameFeed {
    state: State,
    /// The current game's decoder.
    decoder: Decoder,
    games: u32,
    offset: usize,
    /// After damage: the byte at which the damaged game stopped is skipped
    /// even when it is an Event Payloads command, so that a bad payload
    /// table cannot start the same game again.
    resync: bool,
}

impl Default for GameFeed {
    fn default() -> Self {
        Self::new()
    }
}

impl GameFeed {
    /// A feed expecting the first game.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            state: State::Idle,
            decoder: Decoder::events_only(),
            games: 0,
            offset: 0,
            resync: false,
        }
    }

    /// Bytes consumed since the first byte fed.
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// The number of the game being decoded, if any.
    #[must_use]
    pub const fn current_game(&self) -> Option<u32> {
        match self.state {
            State::Game { game, .. } | State::Damaged { game, .. } => Some(game),
            State::Idle => None,
        }
    }

    /// How the current game's events end if the feed ends now, with
    /// `unconsumed` bytes fed but not consumed; `None` outside a game or
    /// once its [`FeedItem::GameOver`] was given.
    #[must_use]
    pub fn end(&self, unconsumed: usize) -> Option<End> {
        match &self.state {
            State::Game { over: false, .. } => Some(self.decoder.end(unconsumed)),
            State::Damaged { error, .. } => Some(End::Damaged(*error)),
            _ => None,
        }
    }

    /// Decodes the next item from `input`, the bytes not consumed so far.
    ///
    /// # Errors
    /// None today: damage is a [`FeedItem::Damaged`]. The `Result` keeps
    /// the shape of every push decoder.
    pub fn decode<'a>(&mut self, input: &'a [u8]) -> Result<Decoded<FeedItem<'a>>> {
        let out = self.step(input);
        if let Decoded::Record { consumed, .. } = out {
            self.offset = self.offset.saturating_add(consumed);
        }
        Ok(out)
    }

    fn step<'a>(&mut self, input: &'a [u8]) -> Decoded<FeedItem<'a>> {
        let record = |record, consumed| Decoded::Record { record, consumed };
        if let State::Damaged { game, error } = self.state {
            self.state = State::Idle;
            self.resync = true;
            return record(
                FeedItem::GameOver {
                    game,
                    end: End::Damaged(error),
                },
                0,
            );
        }
        // The keep-alive, at any event boundary, as slippi-js drops it.
        let n = input.len().min(NETWORK_MESSAGE.len());
        if n > 0 && input.get(..n) == NETWORK_MESSAGE.get(..n) {
            if n < NETWORK_MESSAGE.len() {
                return Decoded::NeedMore {
                    needed: Some(NETWORK_MESSAGE.len()),
                };
            }
            return record(FeedItem::KeepAlive, NETWORK_MESSAGE.len());
        }
        let Some(&first) = input.first() else {
            return Decoded::NeedMore { needed: Some(1) };
        };
        let games = &mut self.games;
        let offset = self.offset;
        match &mut self.state {
            State::Game { game, over, .. }
                if first == CMD_EVENT_PAYLOADS && self.decoder.offset() > 0 =>
            {
                // The next game's first event ends this one.
                let (game, was_over) = (*game, *over);
                let end = self.decoder.end(0);
                self.state = State::Idle;
                if !was_over {
                    return record(FeedItem::GameOver { game, end }, 0);
                }
                self.step(input)
            }
            State::Idle if first == CMD_EVENT_PAYLOADS && !self.resync => {
                let game = *games;
                *games = games.saturating_add(1);
                self.decoder = Decoder::events_only();
                self.state = State::Game {
                    game,
                    base: offset,
                    over: false,
                };
                record(FeedItem::NewGame { game }, 0)
            }
            State::Idle => {
                // Skip up to a possible game start or keep-alive.
                let len = input
                    .iter()
                    .skip(1)
                    .position(|&b| b == CMD_EVENT_PAYLOADS || b == b'H')
                    .map_or(input.len(), |p| p.saturating_add(1));
                self.resync = false;
                record(FeedItem::Skipped { len }, len)
            }
            State::Game { game, base, over } => {
                if self.decoder.game_end_seen() && !*over {
                    *over = true;
                    return record(
                        FeedItem::GameOver {
                            game: *game,
                            end: End::Complete,
                        },
                        0,
                    );
                }
                match self.decoder.decode(input) {
                    Ok(Decoded::Record {
                        record: Item::Event(event),
                        consumed,
                    }) => record(FeedItem::Event(event), consumed),
                    Ok(Decoded::NeedMore { needed }) => Decoded::NeedMore { needed },
                    // An events-only decoder yields events alone.
                    Ok(Decoded::Record { consumed, .. } | Decoded::Done { consumed }) => {
                        record(FeedItem::Skipped { len: consumed }, consumed)
                    }
                    Err(e) => {
                        let error = e.shifted(*base);
                        self.resync = true;
                        self.state = if *over {
                            State::Idle
                        } else {
                            State::Damaged { game: *game, error }
                        };
                        record(FeedItem::Damaged { error }, 0)
                    }
                }
            }
            State::Damaged { .. } => Decoded::NeedMore { needed: None },
        }
    }
}

/// Whether `event` is a game's last (Game End).
#[must_use]
pub fn is_game_end(event: &Event<'_>) -> bool {
    event.code() == CMD_GAME_END
}
