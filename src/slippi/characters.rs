//! [`StartingCharacters`]: each port's character at the start of a game,
//! with the pre-1.6.0 Zelda/Sheik fix.
//!
//! Recorders before 1.6.0 wrote the same Game Start character for Zelda and
//! Sheik; the internal character of the player's first Post-Frame Update
//! (frame −123) tells which one started. slippi-js applies this fix while
//! reading settings, and so does this type: feed it the Post-Frame Updates
//! of the stream (from any source — a slice, the push decoder, a reader)
//! until [`StartingCharacters::is_complete`].
//!
//! ```
//! # fn main() -> Result<(), gamefmt::Error> {
//! use gamefmt::slippi::{Event, SAMPLE, SlippiView, StartingCharacters, character_name};
//!
//! let slp = SlippiView::parse(SAMPLE)?;
//! let mut characters = StartingCharacters::new(&slp.game_start()?);
//! for event in slp.events() {
//!     if characters.is_complete() {
//!         break;
//!     }
//!     if let Event::PostFrame(post) = event? {
//!         characters.observe(&post);
//!     }
//! }
//! // The sample is 3.18.0: Game Start is already right.
//! assert_eq!(characters.get(0).and_then(character_name), Some("Fox"));
//! assert_eq!(characters.get(1).and_then(character_name), Some("Falco"));
//! assert_eq!(characters.get(2), None);
//! # Ok(()) }
//! ```

use super::events::Event;
use super::frame_events::PostFrame;
use super::game_start::{GameStart, PORTS, Version};

/// The first version whose Game Start tells Zelda from Sheik.
pub const SHEIK_FIX_VERSION: Version = Version::new(1, 6, 0);

/// The first frame of a game.
const FIRST_FRAME: i32 = -123;

/// The external id a pre-1.6.0 replay's first Post-Frame Update implies:
/// internal 0x07 (Sheik) → external 0x13, internal 0x13 (Zelda) → external
/// 0x12; `None` for every other character.
#[must_use]
pub const fn zelda_sheik_external(internal_character: u8) -> Option<u8> {
    match internal_character {
        0x07 => Some(0x13),
        0x13 => Some(0x12),
        _ => None,
    }
}

/// Each port's external character at the start of the game.
///
/// Built from Game Start; for replays older than [`SHEIK_FIX_VERSION`] it
/// stays incomplete until a Post-Frame Update after frame −123 is observed,
/// and every Post-Frame Update of frame −123 (or earlier) before that
/// corrects a Zelda/Sheik port, exactly as slippi-js does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartingCharacters {
    characters: [Option<u8>; PORTS],
    complete: bool,
}

impl StartingCharacters {
    /// The characters Game Start names for non-empty ports; complete at
    /// once unless the replay predates the fix (or has no version).
    #[must_use]
    pub fn new(start: &GameStart<'_>) -> Self {
        let mut characters = [None; PORTS];
        for (i, p) in start.players() {
            if let Some(slot) = characters.get_mut(i) {
                *slot = p.character();
            }
        }
        let complete = start.version().is_some_and(|v| v >= SHEIK_FIX_VERSION);
        Self {
            characters,
            complete,
        }
    }

    /// Applies one Post-Frame Update; does nothing once complete. A
    /// Post-Frame Update after frame −123 completes it.
    pub fn observe(&mut self, post: &PostFrame<'_>) {
        if self.complete {
            return;
        }
        if post.frame().is_none_or(|frame| frame > FIRST_FRAME) {
            self.complete = true;
            return;
        }
        let fixed = post.internal_character().and_then(zelda_sheik_external);
        let slot = post
            .player_index()
            .and_then(|i| self.characters.get_mut(usize::from(i)));
        if let (Some(c), Some(slot @ Some(_))) = (fixed, slot) {
            *slot = Some(c);
        }
    }

    /// Feeds one event of a stream to its characters: the first Game
    /// Start makes them ([`StartingCharacters::new`]), each Post-Frame
    /// Update after it is [observed](StartingCharacters::observe), other
    /// events change nothing.
    ///
    /// ```
    /// use gamefmt::slippi::{SAMPLE, SlippiEventIter, StartingCharacters};
    /// let mut characters = None;
    /// for event in SlippiEventIter::new(SAMPLE) {
    ///     StartingCharacters::track(&mut characters, &event?);
    /// }
    /// assert!(characters.is_some_and(|c| c.get(0).is_some()));
    /// # Ok::<(), gamefmt::Error>(())
    /// ```
    pub fn track(characters: &mut Option<Self>, event: &Event<'_>) {
        match (characters.as_mut(), event) {
            (None, Event::GameStart(g)) => *characters = Some(Self::new(g)),
            (Some(c), Event::PostFrame(p)) => c.observe(p),
            _ => {}
        }
    }

    /// Whether no later Post-Frame Update can change the answer.
    #[must_use]
    pub const fn is_complete(&self) -> bool {
        self.complete
    }

    /// The external character of `port` (0–3); `None` for an empty port.
    #[must_use]
    pub fn get(&self, port: usize) -> Option<u8> {
        self.characters.get(port).copied().flatten()
    }

    /// All four ports.
    #[must_use]
    pub const fn all(&self) -> [Option<u8>; PORTS] {
        self.characters
    }
}
