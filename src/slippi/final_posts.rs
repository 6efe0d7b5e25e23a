//! [`FinalPosts`]: the Post-Frame Updates that directly precede a replay's
//! Game End, kept while its events stream past, for
//! [`gamefmt::slippi::winners`] (which reads them whatever the end method).
//!
//! It finds what `SlippiView::winners` finds reading backwards from the
//! Game End: the Post-Frame Updates right before it (before its Frame
//! Bookend when the replay declares Frame Bookend), all of the last one's
//! frame, at most two per port.

//!
//! ```
//! use gamefmt::slippi::{
//!     Event, FinalPosts, GameEnd, GameStart, Item, Reader, SAMPLE, SlippiView, winners,
//! };
//!
//! let mut reader = Reader::new(SAMPLE);
//! let (mut posts, mut start, mut end) = (FinalPosts::default(), None, None);
//! while let Some(item) = reader.next() {
//!     let Item::Event(event) = item.unwrap() else { continue };
//!     posts.observe(&event);
//!     match event {
//!         Event::GameStart(g) => start = Some(g.bytes().to_vec()),
//!         Event::GameEnd(e) => end = Some(e.bytes().to_vec()),
//!         _ => {}
//!     }
//! }
//! let Event::GameStart(start) = Event::parse(start.as_deref().unwrap()) else { panic!() };
//! let won = winners(&start, &GameEnd::new(end.as_deref().unwrap()), posts.get());
//! assert_eq!(won, SlippiView::parse(SAMPLE).unwrap().winners());
//! ```

use alloc::vec::Vec;

use super::CMD_FRAME_BOOKEND;
use super::events::Event;
use super::frame_events::PostFrame;

/// At most two Post-Frame Updates per port (Ice Climbers).
const MAX: usize = 8;

/// The Post-Frame Updates at the tail of the events seen so far.
///
/// The last ones are copied into a ring of eight buffers (two per port) that are
/// reused: following a stream allocates nothing once they have grown to
/// an event's size.
#[derive(Default)]
pub struct FinalPosts {
    /// The last contiguous Post-Frame Updates: `len` of them, the oldest
    /// at `start`, in a ring.
    ring: [Vec<u8>; MAX],
    start: usize,
    len: usize,
    /// A Frame Bookend followed them.
    bookend: bool,
    /// The Event Payloads table declares Frame Bookend.
    bookends: bool,
    /// The answer at the last Game End.
    at_game_end: Vec<Vec<u8>>,
}

impl FinalPosts {
    /// Follows one event.
    pub fn observe(&mut self, event: &Event<'_>) {
        match event {
            Event::PostFrame(p) => {
                if self.bookend {
                    self.clear();
                }
                let at = self.start.wrapping_add(self.len) % MAX;
                if self.len == MAX {
                    self.start = self.start.wrapping_add(1) % MAX;
                } else {
                    self.len = self.len.saturating_add(1);
                }
                if let Some(slot) = self.ring.get_mut(at) {
                    slot.clear();
                    slot.extend_from_slice(p.bytes());
                }
            }
            Event::FrameBookend(_) if !self.bookend => self.bookend = true,
            Event::GameEnd(_) => {
                self.at_game_end.clear();
                if self.bookend == self.bookends {
                    let posts = self.posts();
                    let last = posts.last().map(PostFrame::frame);
                    let same = posts.iter().rev().take_while(|p| Some(p.frame()) == last);
                    let mut same: Vec<Vec<u8>> = same.map(|p| p.bytes().to_vec()).collect();
                    same.reverse();
                    self.at_game_end = same;
                }
                self.clear();
            }
            Event::EventPayloads(p) => {
                self.bookends = p.entries().any(|(c, _)| c == CMD_FRAME_BOOKEND);
                self.clear();
            }
            _ => self.clear(),
        }
    }

    /// Forgets the Post-Frame Updates held (keeping their buffers).
    fn clear(&mut self) {
        self.start = 0;
        self.len = 0;
        self.bookend = false;
    }

    /// The Post-Frame Updates held, oldest first.
    fn posts(&self) -> Vec<PostFrame<'_>> {
        (0..self.len)
            .filter_map(|i| self.ring.get(self.start.wrapping_add(i) % MAX))
            .map(|b| PostFrame::new(b))
            .collect()
    }

    /// The Post-Frame Updates before the last Game End, in stream order.
    pub fn get(&self) -> impl Iterator<Item = PostFrame<'_>> {
        self.at_game_end.iter().map(|b| PostFrame::new(b))
    }
}
