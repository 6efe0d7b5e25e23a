//! [`FinalizedFrames`]: frames released once rollback can no longer change
//! them, as slippi-js 9.1.2's parser (`SlpParser`) releases them.
//!
//! See [`FinalizedFrames`] for the rules.
//!
//! ```
//! use gamefmt::slippi::{FinalizedFrames, SlippiEventIter, SAMPLE};
//!
//! let mut stage = FinalizedFrames::new();
//! let mut numbers = Vec::new();
//! for event in SlippiEventIter::new(SAMPLE) {
//!     stage.push(&event?);
//!     while let Some(frame) = stage.next_finalized() {
//!         numbers.push(frame.number());
//!         assert!(frame.post(0, false).is_some());
//!     }
//! }
//! assert_eq!(numbers, [-123]);
//! # Ok::<(), gamefmt::Error>(())
//! ```

use super::events::Event;
use super::frame_events::{PostFrame, PreFrame};
use super::frames::{FRAME_ITEMS, FRAME_PLAYERS};
use super::game_start::Version;
use super::item::ItemUpdate;

/// Frames behind the newest Bookend that slippi-js finalizes when the
/// Bookend gives no usable latest finalized frame.
pub const MAX_ROLLBACK_FRAMES: i32 = 7;
/// Pending frames the stage holds (unfinalized, received).
pub const FINALIZE_WINDOW: usize = 16;
/// Bytes kept of each Pre/Post-Frame Update (3.18.0's are 65 and 85;
/// fields appended by later versions beyond this read as `None`).
pub const OWNED_FRAME_EVENT: usize = 96;
/// Bytes kept of each Item Update (3.18.0's is 45).
pub const OWNED_ITEM_EVENT: usize = 64;

/// The first frame of every game.
pub(crate) const FIRST_FRAME: i32 = -123;
/// Online play's major scene.
const ONLINE: u8 = 8;

/// What [`FinalizedFrames`] keeps of each frame: [`FinalFrame`] (owned
/// copies of the events), or a record of only what a consumer reads (the
/// stats keep a few fields per player), filled as the events arrive.
pub trait FrameRecord: Default {
    /// Starts over as frame `number`, holding nothing.
    fn begin(&mut self, number: i32);
    /// Takes one event of this frame (Pre/Post-Frame Update, Item Update,
    /// Frame Start, stage events). A rollback re-send comes again: the
    /// record decides what a re-sent event replaces.
    fn add(&mut self, event: &Event<'_>);
}

/// One slot of the window.
#[derive(Clone, Debug, Default)]
struct Slot<R> {
    number: i32,
    /// Received, not yet released.
    present: bool,
    /// Ever written.
    used: bool,
    record: R,
}

/// An event's bytes, owned; empty when absent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Owned<const N: usize> {
    len: u8,
    bytes: [u8; N],
}

impl<const N: usize> Owned<N> {
    const EMPTY: Self = Self {
        len: 0,
        bytes: [0; N],
    };

    fn set(&mut self, event: &[u8]) {
        let n = event.len().min(N).min(usize::from(u8::MAX));
        if let (Some(dst), Some(src)) = (self.bytes.get_mut(..n), event.get(..n)) {
            dst.copy_from_slice(src);
        }
        self.len = u8::try_from(n).unwrap_or(0);
    }

    fn get(&self) -> Option<&[u8]> {
        match self.len {
            0 => None,
            n => self.bytes.get(..usize::from(n)),
        }
    }
}

/// One finalized frame: owned copies of its characters' Pre- and
/// Post-Frame Updates and its item updates, lent as the usual views.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinalFrame {
    number: i32,
    pre: [[Owned<OWNED_FRAME_EVENT>; 2]; FRAME_PLAYERS],
    post: [[Owned<OWNED_FRAME_EVENT>; 2]; FRAME_PLAYERS],
    items: heapless::Vec<Owned<OWNED_ITEM_EVENT>, FRAME_ITEMS>,
    overflow: u32,
}

impl Default for FinalFrame {
    fn default() -> Self {
        Self::empty()
    }
}

impl FrameRecord for FinalFrame {
    fn begin(&mut self, number: i32) {
        self.number = number;
        for pair in self.pre.iter_mut().chain(self.post.iter_mut()) {
            for slot in pair {
                slot.len = 0;
            }
        }
        self.items.clear();
        self.overflow = 0;
    }

    fn add(&mut self, event: &Event<'_>) {
        FinalFrame::add(self, event);
    }
}

impl FinalFrame {
    const fn empty() -> Self {
        Self {
            number: 0,
            pre: [[Owned::EMPTY; 2]; FRAME_PLAYERS],
            post: [[Owned::EMPTY; 2]; FRAME_PLAYERS],
            items: heapless::Vec::new(),
            overflow: 0,
        }
    }

    /// The frame number.
    #[must_use]
    pub const fn number(&self) -> i32 {
        self.number
    }

    /// The Pre-Frame Update of player index `index` (0–5), its follower
    /// (Nana) when `follower`.
    #[must_use]
    pub fn pre(&self, index: u8, follower: bool) -> Option<PreFrame<'_>> {
        let slot = self
            .pre
            .get(usize::from(index))?
            .get(usize::from(follower))?;
        slot.get().map(PreFrame::new)
    }

    /// The Post-Frame Update of player index `index` (0–5), its follower
    /// (Nana) when `follower`.
    #[must_use]
    pub fn post(&self, index: u8, follower: bool) -> Option<PostFrame<'_>> {
        let slot = self
            .post
            .get(usize::from(index))?
            .get(usize::from(follower))?;
        slot.get().map(PostFrame::new)
    }

    /// The item updates, in the order received (a re-sent frame's after
    /// the first send's, as slippi-js keeps them).
    pub fn items(&self) -> impl Iterator<Item = ItemUpdate<'_>> + '_ {
        self.items
            .iter()
            .filter_map(Owned::get)
            .map(ItemUpdate::new)
    }

    /// Events of this frame with no room (player index over 5, more item
    /// updates than [`FRAME_ITEMS`]), counted, not kept.
    #[must_use]
    pub const fn overflow(&self) -> u32 {
        self.overflow
    }

    fn add(&mut self, event: &Event<'_>) {
        let kept = match event {
            Event::PreFrame(e) => Self::character(&mut self.pre, e.player_index(), e.is_follower())
                .map(|s| s.set(e.bytes()))
                .is_some(),
            Event::PostFrame(e) => {
                Self::character(&mut self.post, e.player_index(), e.is_follower())
                    .map(|s| s.set(e.bytes()))
                    .is_some()
            }
            Event::ItemUpdate(e) => {
                let mut owned = Owned::EMPTY;
                owned.set(e.bytes());
                self.items.push(owned).is_ok()
            }
            _ => true,
        };
        if !kept {
            self.overflow = self.overflow.saturating_add(1);
        }
    }

    fn character(
        slots: &mut [[Owned<OWNED_FRAME_EVENT>; 2]; FRAME_PLAYERS],
        index: Option<u8>,
        follower: Option<bool>,
    ) -> Option<&mut Owned<OWNED_FRAME_EVENT>> {
        slots
            .get_mut(usize::from(index?))?
            .get_mut(usize::from(follower.unwrap_or(false)))
    }
}

/// Releases frames once they are final, as slippi-js's parser does: feed every event of a game to
/// [`push`](Self::push), then take the frames it finalized with
/// [`next_finalized`](Self::next_finalized) before the next push. Events
/// may come from [`super::SlippiEventIter`], the push [`super::Decoder`] or
/// a [`super::Reader`]: the stage copies what it keeps.
///
/// A netplay game re-sends a frame when rollback corrects it. A frame is
/// *finalized* once no re-send can come: slippi-js finalizes frames
///
/// - up to the Frame Bookend's *latest finalized frame* (3.7.0+) in online
///   games (major scene 8) when it is at least −123;
/// - else up to 7 frames ([`MAX_ROLLBACK_FRAMES`]) behind each Frame
///   Bookend;
/// - in files up to 2.2.0 (no Bookend), up to the frame before each Pre- or
///   Post-Frame Update's, once the settings are complete (Game Start from
///   1.6.0 on, else the first Post-Frame Update after frame −123);
/// - and every frame up to the last Pre/Post-Frame Update's at Game End.
///
/// `R` is what the stage keeps of a frame: [`FinalFrame`] by default, or
/// any [`FrameRecord`]. `tests/slippi_stats.rs` holds the release schedule
/// (which frames, after which event) equal to slippi-js's on every corpus
/// replay.
///
/// Frames are finalized in order from −123; a frame no event has named
/// stops the release there (slippi-js does the same). Events go to the frame
/// their own frame number names, as slippi-js files them: a re-send
/// replaces a character's Pre- or Post-Frame Update and *appends* its item
/// updates (slippi-js keeps both copies of a re-sent frame's items).
///
/// The stage owns copies of the events of at most [`FINALIZE_WINDOW`]
/// pending frames (about 3.4 KiB each), so its memory is fixed; events it
/// had no room for are counted ([`FinalizedFrames::dropped`]): an event of
/// a frame already finalized (slippi-js would rewrite a frame it already
/// released), or one more than [`FINALIZE_WINDOW`] frames ahead of the last
/// finalized frame (which, with rollback at most 7 frames, means a frame is
/// missing and the release has stopped for good anyway).
///
#[derive(Clone, Debug)]
pub struct FinalizedFrames<R = FinalFrame> {
    version: Option<Version>,
    /// No Frame Bookend: the version is up to 2.2.0, or unknown.
    unbookended: bool,
    online: bool,
    has_start: bool,
    settings_complete: bool,
    /// The frame of the last Pre/Post-Frame Update (slippi-js's
    /// `latestFrameIndex`).
    latest: Option<i32>,
    last_finalized: i32,
    /// Finalize up to this frame (the last request).
    target: i32,
    game_end: bool,
    dropped: u32,
    slots: [Slot<R>; FINALIZE_WINDOW],
}

impl<R: FrameRecord> Default for FinalizedFrames<R> {
    fn default() -> Self {
        Self::with_records()
    }
}

impl FinalizedFrames<FinalFrame> {
    /// A stage before the first event of a game, keeping [`FinalFrame`]s.
    #[must_use]
    pub fn new() -> Self {
        Self::with_records()
    }
}

impl<R: FrameRecord> FinalizedFrames<R> {
    /// A stage before the first event of a game, keeping `R`s.
    #[must_use]
    pub fn with_records() -> Self {
        Self {
            version: None,
            unbookended: true,
            online: false,
            has_start: false,
            settings_complete: false,
            latest: None,
            last_finalized: FIRST_FRAME.wrapping_sub(1),
            target: FIRST_FRAME.wrapping_sub(1),
            game_end: false,
            dropped: 0,
            slots: core::array::from_fn(|_| Slot::default()),
        }
    }

    /// Starts over before the first event of a new game, in place: the
    /// same as [`with_records`](Self::with_records) to every method (the
    /// records stay where they are, unreachable until
    /// [`FrameRecord::begin`] starts each over).
    pub fn reset(&mut self) {
        let Self {
            version,
            unbookended,
            online,
            has_start,
            settings_complete,
            latest,
            last_finalized,
            target,
            game_end,
            dropped,
            slots,
        } = self;
        *version = None;
        *unbookended = true;
        *online = false;
        *has_start = false;
        *settings_complete = false;
        *latest = None;
        *last_finalized = FIRST_FRAME.wrapping_sub(1);
        *target = FIRST_FRAME.wrapping_sub(1);
        *game_end = false;
        *dropped = 0;
        for slot in slots {
            slot.number = 0;
            slot.present = false;
            slot.used = false;
        }
    }

    /// The frame of the last Pre/Post-Frame Update (slippi-js's
    /// `getLatestFrameNumber()` is this or −124).
    #[must_use]
    pub const fn latest_frame(&self) -> Option<i32> {
        self.latest
    }

    /// The last frame released so far (−124 before the first).
    #[must_use]
    pub const fn last_finalized(&self) -> i32 {
        self.last_finalized
    }

    /// Whether slippi-js would consider the settings complete (it computes
    /// no stats before): Game Start from 1.6.0 on, else after the first
    /// Post-Frame Update past frame −123.
    #[must_use]
    pub const fn settings_complete(&self) -> bool {
        self.settings_complete
    }

    /// A Game End was pushed.
    #[must_use]
    pub const fn game_ended(&self) -> bool {
        self.game_end
    }

    /// Events the stage had no room for (see [`FinalizedFrames`]).
    #[must_use]
    pub const fn dropped(&self) -> u32 {
        self.dropped
    }

    fn slot_index(number: i32) -> usize {
        usize::try_from(number.rem_euclid(FINALIZE_WINDOW as i32)).unwrap_or(0)
    }

    /// The pending frame `number`, created if the window has room.
    #[inline]
    fn frame_mut(&mut self, number: i32) -> Option<&mut R> {
        let ahead = i64::from(number).wrapping_sub(i64::from(self.last_finalized));
        if ahead <= 0 || ahead > FINALIZE_WINDOW as i64 {
            self.dropped = self.dropped.saturating_add(1);
            return None;
        }
        let slot = self.slots.get_mut(Self::slot_index(number))?;
        if !slot.present || slot.number != number {
            slot.number = number;
            slot.present = true;
            slot.used = true;
            slot.record.begin(number);
        }
        Some(&mut slot.record)
    }

    fn pending(&self, number: i32) -> Option<&R> {
        let slot = self.slots.get(Self::slot_index(number))?;
        (slot.present && slot.number == number).then_some(&slot.record)
    }

    /// Frame `number` if the stage still holds it: pending, or released
    /// and not yet overwritten (a slot is reused [`FINALIZE_WINDOW`] frames
    /// later).
    #[must_use]
    pub fn frame(&self, number: i32) -> Option<&R> {
        let slot = self.slots.get(Self::slot_index(number))?;
        (slot.used && slot.number == number).then_some(&slot.record)
    }

    fn finalize(&mut self, up_to: i32) {
        self.target = up_to;
    }

    /// A Pre- (`post` false) or Post-Frame Update of frame `number`.
    #[inline]
    fn push_update(&mut self, event: &Event<'_>, number: Option<i32>, post: bool) {
        let Some(number) = number else { return };
        if post && self.has_start && number > FIRST_FRAME {
            self.settings_complete = true;
        }
        self.latest = Some(number);
        if let Some(frame) = self.frame_mut(number) {
            frame.add(event);
        }
        if self.settings_complete && self.unbookended {
            self.finalize(number.saturating_sub(1));
        }
    }

    /// Another event of frame `number` (item, Frame Start, stage events).
    #[inline]
    fn push_in_frame(&mut self, event: &Event<'_>, number: Option<i32>) {
        let Some(number) = number else { return };
        if let Some(frame) = self.frame_mut(number) {
            frame.add(event);
        }
    }

    /// Takes the next event of the game.
    #[inline]
    pub fn push(&mut self, event: &Event<'_>) {
        match event {
            Event::GameStart(start) => {
                self.has_start = true;
                self.version = start.version();
                self.unbookended = self.version.is_none_or(|v| v <= Version::new(2, 2, 0));
                self.online = start.major_scene() == Some(ONLINE);
                if self.version.is_some_and(|v| v >= Version::new(1, 6, 0)) {
                    self.settings_complete = true;
                }
            }
            Event::PreFrame(e) => self.push_update(event, e.frame(), false),
            Event::PostFrame(e) => self.push_update(event, e.frame(), true),
            Event::ItemUpdate(e) => self.push_in_frame(event, e.frame()),
            Event::FrameStart(e) => self.push_in_frame(event, e.frame()),
            Event::FodPlatform(e) => self.push_in_frame(event, e.frame()),
            Event::Whispy(e) => self.push_in_frame(event, e.frame()),
            Event::StadiumTransformation(e) => self.push_in_frame(event, e.frame()),
            Event::FrameBookend(bookend) => {
                let Some(number) = bookend.frame() else {
                    return;
                };
                // slippi-js reads the game mode of a Game Start it must have.
                if !self.has_start {
                    return;
                }
                let _ = self.frame_mut(number);
                match bookend.latest_finalized_frame() {
                    Some(latest) if self.online && latest >= FIRST_FRAME => self.finalize(latest),
                    _ => self.finalize(number.saturating_sub(MAX_ROLLBACK_FRAMES)),
                }
            }
            Event::GameEnd(_) => {
                if let Some(latest) = self.latest {
                    if latest != self.last_finalized {
                        self.finalize(latest);
                    }
                }
                self.game_end = true;
            }
            _ => {}
        }
    }

    /// The next frame the last [`push`](Self::push) finalized, lent until
    /// the next call; `None` when there is none (yet).
    #[inline]
    pub fn next_finalized(&mut self) -> Option<&R> {
        if self.last_finalized >= self.target {
            return None;
        }
        let number = self.last_finalized.checked_add(1)?;
        self.pending(number)?;
        self.last_finalized = number;
        let slot = self.slots.get_mut(Self::slot_index(number))?;
        slot.present = false;
        Some(&slot.record)
    }
}
