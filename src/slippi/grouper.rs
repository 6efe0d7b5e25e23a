//! [`FrameGrouper`]: the frame-grouping stage, with the rollback rule, for
//! events from any source.

use super::events::Event;

/// A frame that has just closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ClosedFrame {
    /// The frame number.
    pub number: i32,
    /// A rollback re-send: this number is not above every frame number
    /// closed before it.
    pub is_rollback: bool,
}

/// Where one event goes, as [`FrameGrouper::push`] decides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct FramePlacement {
    /// The frame open before this event closed on it (the event opens the
    /// next frame, or is a Game End).
    pub closes: Option<ClosedFrame>,
    /// The number of the frame the event belongs to (a frame it opens, if
    /// none was open); `None` for events outside frames (Game Start,
    /// splitters, Game End).
    pub frame: Option<i32>,
    /// The event (a Frame Bookend) closed its own frame, which now holds
    /// it.
    pub completes: Option<ClosedFrame>,
}

/// Groups events into frames and flags rollback re-sends, one event at a
/// time, whatever the events come from: [`super::SlippiEventIter`], the
/// push [`super::Decoder`] or a [`super::Reader`] (whose events live only
/// until the next one: the caller keeps what it needs of each).
///
/// A frame opens at a Frame Start, or (before 2.2.0, without Frame Start)
/// at a frame event whose number differs from the open frame's; it closes
/// at its Bookend, at the next frame's opening, at Game End, or at the end
/// of the stream ([`FrameGrouper::finish`]). It holds two numbers, never
/// an event. [`super::Frames`] is this stage over a file in memory.
///
/// ```
/// use gamefmt::slippi::{Event, FrameGrouper, Item, Reader, SAMPLE};
///
/// let mut grouper = FrameGrouper::new();
/// let mut reader = Reader::new(SAMPLE);
/// let (mut frames, mut game_end) = (Vec::new(), None);
/// while let Some(item) = reader.next() {
///     let Item::Event(event) = item? else { continue };
///     let placed = grouper.push(&event);
///     frames.extend(placed.closes.into_iter().chain(placed.completes));
///     if let Event::GameEnd(end) = event {
///         game_end = end.method();
///     }
/// }
/// frames.extend(grouper.finish());
/// assert_eq!(frames.len(), 1);
/// assert_eq!((frames[0].number, frames[0].is_rollback), (-123, false));
/// assert_eq!(game_end, Some(2));
/// # Ok::<(), gamefmt::stream::ReadError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameGrouper {
    /// The open frame: its number, and whether a Frame Start opened it.
    open: Option<(i32, bool)>,
    /// The highest frame number closed so far.
    highest: Option<i32>,
}

impl FrameGrouper {
    /// A grouper before the first event.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            open: None,
            highest: None,
        }
    }

    /// The number of the open frame, if any.
    #[must_use]
    pub const fn open_frame(&self) -> Option<i32> {
        match self.open {
            Some((number, _)) => Some(number),
            None => None,
        }
    }

    /// Closes the open frame, if any.
    fn close(&mut self) -> Option<ClosedFrame> {
        let (number, _) = self.open.take()?;
        let is_rollback = self.highest.is_some_and(|h| number <= h);
        self.highest = Some(self.highest.map_or(number, |h| h.max(number)));
        Some(ClosedFrame {
            number,
            is_rollback,
        })
    }

    /// The open frame's number, opening one numbered `number` if none is.
    fn join(&mut self, number: Option<i32>, started: bool) -> i32 {
        match self.open {
            Some((open, _)) => open,
            None => {
                let n = number.unwrap_or(0);
                self.open = Some((n, started));
                n
            }
        }
    }

    /// Places the next event of the stream.
    pub fn push(&mut self, event: &Event<'_>) -> FramePlacement {
        let number = event.frame();
        match event {
            Event::FrameStart(_) => {
                let closes = self.close();
                let frame = Some(self.join(number, true));
                FramePlacement {
                    closes,
                    frame,
                    completes: None,
                }
            }
            Event::FrameBookend(_) => {
                let closes = match self.open {
                    Some((open, _)) if number.is_some_and(|n| n != open) => self.close(),
                    _ => None,
                };
                let frame = Some(self.join(number, true));
                FramePlacement {
                    closes,
                    frame,
                    completes: self.close(),
                }
            }
            Event::PreFrame(_)
            | Event::PostFrame(_)
            | Event::ItemUpdate(_)
            | Event::FodPlatform(_)
            | Event::Whispy(_)
            | Event::StadiumTransformation(_) => {
                let closes = match self.open {
                    Some((open, false)) if number.is_some_and(|n| n != open) => self.close(),
                    _ => None,
                };
                FramePlacement {
                    closes,
                    frame: Some(self.join(number, false)),
                    completes: None,
                }
            }
            Event::GameEnd(_) => FramePlacement {
                closes: self.close(),
                ..FramePlacement::default()
            },
            _ => FramePlacement::default(),
        }
    }

    /// The end of the stream: closes the open frame, if any.
    pub fn finish(&mut self) -> Option<ClosedFrame> {
        self.close()
    }
}
