//! [`FinalPosts`]: the Post-Frame Updates that directly precede a replay's
//! Game End, kept while its events stream past, for
//! [`gamefmt::slippi::winners`] on a game that went to time.
//!
//! It finds what `SlippiView::winners` finds reading backwards from the
//! Game End: the Post-Frame Updates right before it (before its Frame
//! Bookend when the replay declares Frame Bookend), all of the last one's
//! frame, at most two per port.
//!
//! ```
//! use gamefmt::slippi::{
//!     CMD_FRAME_BOOKEND, Event, FinalPosts, GameEnd, GameStart, Item, Reader, SAMPLE,
//!     SlippiView, winners,
//! };
//!
//! let mut reader = Reader::new(SAMPLE);
//! let (mut posts, mut start, mut end) = (FinalPosts::default(), None, None);
//! loop {
//!     let bookends = reader.decoder().payload_sizes().get(CMD_FRAME_BOOKEND).is_some();
//!     let Some(item) = reader.next() else { break };
//!     let Item::Event(event) = item.unwrap() else { continue };
//!     posts.observe(&event, bookends);
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

use super::events::Event;
use super::frame_events::PostFrame;

/// At most two Post-Frame Updates per port (Ice Climbers).
const MAX: usize = 8;

/// The Post-Frame Updates at the tail of the events seen so far.
#[derive(Default)]
pub struct FinalPosts {
    /// The last contiguous Post-Frame Updates, oldest first (at most
    /// [`MAX`]).
    posts: Vec<Vec<u8>>,
    /// A Frame Bookend followed them.
    bookend: bool,
    /// The answer at the last Game End.
    at_game_end: Vec<Vec<u8>>,
}

impl FinalPosts {
    /// Follows one event; `bookends` says whether the replay declares
    /// Frame Bookend events.
    pub fn observe(&mut self, event: &Event<'_>, bookends: bool) {
        match event {
            Event::PostFrame(p) => {
                if self.bookend {
                    self.posts.clear();
                    self.bookend = false;
                }
                if self.posts.len() == MAX {
                    self.posts.remove(0);
                }
                self.posts.push(p.bytes().to_vec());
            }
            Event::FrameBookend(_) if !self.bookend => self.bookend = true,
            Event::GameEnd(_) => {
                self.at_game_end.clear();
                if self.bookend == bookends {
                    let last = self.posts.last().map(|b| post(b).and_then(|p| p.frame()));
                    let same = self
                        .posts
                        .iter()
                        .rev()
                        .take_while(|b| Some(post(b).and_then(|p| p.frame())) == last);
                    self.at_game_end = same.cloned().collect();
                    self.at_game_end.reverse();
                }
                self.posts.clear();
                self.bookend = false;
            }
            _ => {
                self.posts.clear();
                self.bookend = false;
            }
        }
    }

    /// The Post-Frame Updates before the last Game End, in stream order.
    pub fn get(&self) -> impl Iterator<Item = PostFrame<'_>> {
        self.at_game_end.iter().filter_map(|b| post(b))
    }
}

fn post(bytes: &[u8]) -> Option<PostFrame<'_>> {
    match Event::parse(bytes) {
        Event::PostFrame(p) => Some(p),
        _ => None,
    }
}
