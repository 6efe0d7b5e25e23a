//! [`Frames`]: one frame's events grouped, without allocating, with
//! rollback re-sends reported.

use crate::error::Result;

use super::events::{Event, SlippiEventIter};
use super::frame_events::{FrameBookend, FrameStart, PostFrame, PreFrame};
use super::item::ItemUpdate;

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
    /// grouped before it.
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

/// Groups the events of a [`SlippiEventIter`] into [`Frame`]s.
///
/// A frame opens at a Frame Start, or (before 2.2.0, without Frame Start)
/// at a frame event whose number differs from the open frame's; it closes
/// at its Bookend, at the next frame's opening, at Game End or at the end
/// of the stream. Events outside frames (Game Start, splitters, Game End)
/// are skipped. Fused after the first error.
#[derive(Clone, Debug)]
pub struct Frames<'a> {
    events: SlippiEventIter<'a>,
    pending: Option<Event<'a>>,
    current: Option<(Frame<'a>, bool)>,
    highest: Option<i32>,
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
            pending: None,
            current: None,
            highest: None,
        }
    }

    /// The underlying event iterator (for its ending after the last frame).
    #[must_use]
    pub const fn events(&self) -> &SlippiEventIter<'a> {
        &self.events
    }

    fn close(&mut self, mut frame: Frame<'a>) -> Frame<'a> {
        frame.is_rollback = self.highest.is_some_and(|h| frame.number <= h);
        self.highest = Some(self.highest.map_or(frame.number, |h| h.max(frame.number)));
        frame
    }

    /// The inherent form of `next`.
    ///
    /// # Errors
    /// The event iterator's errors; the frame open at that point is lost.
    pub fn next_frame(&mut self) -> Result<Option<Frame<'a>>> {
        loop {
            let event = match self.pending.take() {
                Some(e) => e,
                None => match self.events.next_event()? {
                    Some(e) => e,
                    None => return Ok(self.current.take().map(|(f, _)| self.close(f))),
                },
            };
            let number = event.frame();
            match event {
                Event::FrameStart(_) => {
                    if let Some((f, _)) = self.current.take() {
                        self.pending = Some(event);
                        return Ok(Some(self.close(f)));
                    }
                    let mut f = Frame::new(number.unwrap_or(0));
                    f.add(event);
                    self.current = Some((f, true));
                }
                Event::FrameBookend(_) => {
                    let mut f = match self.current.take() {
                        Some((f, _)) if number.is_none_or(|n| n == f.number) => f,
                        Some((f, _)) => {
                            self.pending = Some(event);
                            return Ok(Some(self.close(f)));
                        }
                        None => Frame::new(number.unwrap_or(0)),
                    };
                    f.add(event);
                    return Ok(Some(self.close(f)));
                }
                Event::PreFrame(_)
                | Event::PostFrame(_)
                | Event::ItemUpdate(_)
                | Event::FodPlatform(_)
                | Event::Whispy(_)
                | Event::StadiumTransformation(_) => match self.current.as_mut() {
                    Some((f, started)) => {
                        if !*started && number.is_some_and(|n| n != f.number) {
                            self.pending = Some(event);
                            let Some((f, _)) = self.current.take() else {
                                continue;
                            };
                            return Ok(Some(self.close(f)));
                        }
                        f.add(event);
                    }
                    None => {
                        let mut f = Frame::new(number.unwrap_or(0));
                        f.add(event);
                        self.current = Some((f, false));
                    }
                },
                Event::GameEnd(_) => {
                    if let Some((f, _)) = self.current.take() {
                        return Ok(Some(self.close(f)));
                    }
                }
                _ => {}
            }
        }
    }
}

impl<'a> Iterator for Frames<'a> {
    type Item = Result<Frame<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_frame().transpose()
    }
}

impl core::iter::FusedIterator for Frames<'_> {}
