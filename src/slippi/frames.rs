//! [`Frames`]: one frame's events grouped, without allocating, with
//! rollback re-sends reported.

use crate::error::Result;

use super::events::Event;
use super::frame_events::{FrameBookend, FrameStart, PostFrame, PreFrame};
use super::game_end::GameEnd;
use super::grouper::{ClosedFrame, FrameGrouper};
use super::item::ItemUpdate;
use super::iter::SlippiEventIter;

/// Player indices a frame has room for (0–3 ports, 4–5 in multi-man modes).
pub const FRAME_PLAYERS: usize = 6;
/// Item updates a frame has room for (the game sends at most 15).
pub const FRAME_ITEMS: usize = 16;
/// Stage events (0x3F/0x40/0x41) a frame has room for.
pub const FRAME_STAGE_EVENTS: usize = 8;

/// One character's events in a frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CharacterFrame<'a> {
    /// Its Pre-Frame Update, if sent.
    pub pre: Option<PreFrame<'a>>,
    /// Its Post-Frame Update, if sent (it may come without a pre-frame).
    pub post: Option<PostFrame<'a>>,
}

/// The events of one frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame<'a> {
    /// The frame number (−123 is the first).
    pub number: i32,
    /// A rollback re-send: this number is not above every frame number
    /// grouped before it (see [`ClosedFrame::is_rollback`]).
    pub is_rollback: bool,
    /// Frame Start (2.2.0+).
    pub start: Option<FrameStart<'a>>,
    /// Frame Bookend (3.0.0+).
    pub bookend: Option<FrameBookend<'a>>,
    /// `[player index][0 = leader, 1 = follower]`.
    pub players: [[CharacterFrame<'a>; 2]; FRAME_PLAYERS],
    /// Item updates in stream order.
    pub items: heapless::Vec<ItemUpdate<'a>, FRAME_ITEMS>,
    /// Stage events in stream order.
    pub stage_events: heapless::Vec<Event<'a>, FRAME_STAGE_EVENTS>,
    /// Events of this frame with no room above (player index over 5, more
    /// items or stage events than the capacities), counted, not kept.
    pub overflow: u32,
}

impl<'a> Frame<'a> {
    fn new(number: i32) -> Self {
        Self {
            number,
            is_rollback: false,
            start: None,
            bookend: None,
            players: [[CharacterFrame::default(); 2]; FRAME_PLAYERS],
            items: heapless::Vec::new(),
            stage_events: heapless::Vec::new(),
            overflow: 0,
        }
    }

    fn character(
        &mut self,
        index: Option<u8>,
        follower: Option<bool>,
    ) -> Option<&mut CharacterFrame<'a>> {
        let slot = self.players.get_mut(usize::from(index?))?;
        slot.get_mut(usize::from(follower.unwrap_or(false)))
    }

    fn add(&mut self, event: Event<'a>) {
        let kept = match event {
            Event::PreFrame(e) => self
                .character(e.player_index(), e.is_follower())
                .map(|c| c.pre = Some(e))
                .is_some(),
            Event::PostFrame(e) => self
                .character(e.player_index(), e.is_follower())
                .map(|c| c.post = Some(e))
                .is_some(),
            Event::ItemUpdate(e) => self.items.push(e).is_ok(),
            Event::FrameStart(e) => {
                self.start = Some(e);
                true
            }
            Event::FrameBookend(e) => {
                self.bookend = Some(e);
                true
            }
            other => self.stage_events.push(other).is_ok(),
        };
        if !kept {
            self.overflow = self.overflow.saturating_add(1);
        }
    }

    /// The characters present, as (player index, follower, events).
    pub fn characters(&self) -> impl Iterator<Item = (u8, bool, &CharacterFrame<'a>)> + '_ {
        self.players.iter().zip(0u8..).flat_map(|(pair, index)| {
            pair.iter()
                .zip([false, true])
                .filter(|(c, _)| c.pre.is_some() || c.post.is_some())
                .map(move |(c, follower)| (index, follower, c))
        })
    }
}

/// Groups the events of a [`SlippiEventIter`] into [`Frame`]s: the
/// [`FrameGrouper`] stage over a file in memory, keeping each frame's
/// events (borrowed from the file).
///
/// Frames open and close as [`FrameGrouper`] says; events outside frames
/// (Game Start, splitters) are skipped, and the Game End is kept for
/// [`Frames::game_end`]. Fused after the first error.
#[derive(Clone, Debug)]
pub struct Frames<'a> {
    events: SlippiEventIter<'a>,
    grouper: FrameGrouper,
    /// The open frame's events.
    current: Option<Frame<'a>>,
    /// A frame closed together with the one returned last.
    ready: Option<Frame<'a>>,
    game_end: Option<GameEnd<'a>>,
}

impl<'a> Frames<'a> {
    /// Groups the events of a whole `.slp` file.
    #[must_use]
    pub fn new(file: &'a [u8]) -> Self {
        Self::from_events(SlippiEventIter::new(file))
    }

    /// Groups the events of an event iterator.
    #[must_use]
    pub const fn from_events(events: SlippiEventIter<'a>) -> Self {
        Self {
            events,
            grouper: FrameGrouper::new(),
            current: None,
            ready: None,
            game_end: None,
        }
    }

    /// The underlying event iterator (for its ending after the last frame).
    #[must_use]
    pub const fn events(&self) -> &SlippiEventIter<'a> {
        &self.events
    }

    /// The Game End event, once the frames before it were returned.
    #[must_use]
    pub const fn game_end(&self) -> Option<GameEnd<'a>> {
        self.game_end
    }

    /// The open frame's events, as `closed` says it ended.
    fn take(&mut self, closed: ClosedFrame) -> Option<Frame<'a>> {
        let mut frame = self.current.take()?;
        frame.is_rollback = closed.is_rollback;
        Some(frame)
    }
}

impl<'a> Iterator for Frames<'a> {
    type Item = Result<Frame<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(frame) = self.ready.take() {
            return Some(Ok(frame));
        }
        loop {
            let event = match self.events.next() {
                Some(Ok(event)) => event,
                Some(Err(e)) => return Some(Err(e)),
                None => {
                    let closed = self.grouper.finish()?;
                    return self.take(closed).map(Ok);
                }
            };
            if let Event::GameEnd(end) = event {
                self.game_end = Some(end);
            }
            let placed = self.grouper.push(&event);
            let closed = placed.closes.and_then(|c| self.take(c));
            if let Some(number) = placed.frame {
                self.current
                    .get_or_insert_with(|| Frame::new(number))
                    .add(event);
            }
            if let Some(done) = placed.completes.and_then(|c| self.take(c)) {
                if closed.is_none() {
                    return Some(Ok(done));
                }
                self.ready = Some(done);
            }
            if let Some(frame) = closed {
                return Some(Ok(frame));
            }
        }
    }
}

impl core::iter::FusedIterator for Frames<'_> {}
