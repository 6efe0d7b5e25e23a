//! The [`Event`] enum: one event of the raw stream, classified by its
//! command byte.

use super::field::event_view;
use super::frame_events::{FrameBookend, FrameStart, PostFrame, PreFrame};
use super::game_end::GameEnd;
use super::game_start::GameStart;
use super::item::ItemUpdate;
use super::payloads::EventPayloads;
use super::splitter::{GeckoList, MessageSplitter};
use super::stage::{FodPlatform, StadiumTransformation, Whispy};
use super::{
    CMD_EVENT_PAYLOADS, CMD_FOD_PLATFORM, CMD_FRAME_BOOKEND, CMD_FRAME_START, CMD_GAME_END,
    CMD_GAME_START, CMD_GECKO_LIST, CMD_ITEM_UPDATE, CMD_MESSAGE_SPLITTER, CMD_POST_FRAME,
    CMD_PRE_FRAME, CMD_STADIUM_TRANSFORMATION, CMD_WHISPY,
};

/// One event of the raw stream, borrowed from the input.
///
/// Every variant wraps the whole event, command byte included; its length
/// is the one the Event Payloads table declared.
///
/// Each known variant's tag is its command byte, so that classifying an
/// event needs no jump table ([`Event::parse`] compiles to a table of tags;
/// with a jump table there and another in `code`, a bare event walk's
/// speed depended on how the caller's loop was aligned). The
/// tag is a whole word (`repr(usize)`), not a byte: with a byte tag every
/// move of an `Event` copied the padding after it, a narrow store read
/// back by a wide load, and the full decode lost 14%.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
#[repr(usize)]
pub enum Event<'a> {
    /// 0x35: the command → size table.
    EventPayloads(EventPayloads<'a>) = CMD_EVENT_PAYLOADS as usize,
    /// 0x36: game settings.
    GameStart(GameStart<'a>) = CMD_GAME_START as usize,
    /// 0x37: per-character inputs.
    PreFrame(PreFrame<'a>) = CMD_PRE_FRAME as usize,
    /// 0x38: per-character state.
    PostFrame(PostFrame<'a>) = CMD_POST_FRAME as usize,
    /// 0x39: end of the game.
    GameEnd(GameEnd<'a>) = CMD_GAME_END as usize,
    /// 0x3A: first event of a frame.
    FrameStart(FrameStart<'a>) = CMD_FRAME_START as usize,
    /// 0x3B: one item.
    ItemUpdate(ItemUpdate<'a>) = CMD_ITEM_UPDATE as usize,
    /// 0x3C: last event of a frame.
    FrameBookend(FrameBookend<'a>) = CMD_FRAME_BOOKEND as usize,
    /// 0x10: one chunk of a split message (see [`super::Reassembler`]).
    MessageSplitter(MessageSplitter<'a>) = CMD_MESSAGE_SPLITTER as usize,
    /// 0x3D sent directly, not split (never seen in real files).
    GeckoList(GeckoList<'a>) = CMD_GECKO_LIST as usize,
    /// 0x3F: Fountain of Dreams platform.
    FodPlatform(FodPlatform<'a>) = CMD_FOD_PLATFORM as usize,
    /// 0x40: Whispy blow direction.
    Whispy(Whispy<'a>) = CMD_WHISPY as usize,
    /// 0x41: Pokémon Stadium transformation.
    StadiumTransformation(StadiumTransformation<'a>) = CMD_STADIUM_TRANSFORMATION as usize,
    /// A command listed in the payload table that this crate does not know.
    Unknown(UnknownEvent<'a>) = 0,
}

event_view! {
    /// An event whose command this crate does not know: the whole event,
    /// command byte included, like every other variant of [`Event`].
    ///
    /// (Its own type rather than inline fields, so that every [`Event`] is
    /// a tag and one slice: a byte field in the enum made every move of an
    /// `Event` copy its padding bytes with a partial store, stalling the hot
    /// loop.)
    UnknownEvent
}

impl<'a> UnknownEvent<'a> {
    /// The command byte (0 for the empty event).
    #[must_use]
    pub const fn code(&self) -> u8 {
        match self.bytes.first() {
            Some(&code) => code,
            None => 0,
        }
    }

    /// The payload (command byte not included).
    #[must_use]
    pub const fn payload(&self) -> &'a [u8] {
        match self.bytes.split_first() {
            Some((_, payload)) => payload,
            None => &[],
        }
    }
}

impl<'a> Event<'a> {
    /// Classifies one whole event (command byte first). An empty slice is
    /// an [`Event::Unknown`] with code 0 and an empty payload.
    #[must_use]
    #[inline]
    pub fn parse(bytes: &'a [u8]) -> Self {
        let Some((&code, payload)) = bytes.split_first() else {
            return Self::Unknown(UnknownEvent::new(bytes));
        };
        // Every arm wraps the same slice (chosen first, without a branch),
        // so that the match compiles to a table of tags, not to a jump
        // table of constructors (an indirect jump per event).
        let b = if code == CMD_GECKO_LIST {
            payload
        } else {
            bytes
        };
        match code {
            CMD_EVENT_PAYLOADS => Self::EventPayloads(EventPayloads::new(b)),
            CMD_GAME_START => Self::GameStart(GameStart::new(b)),
            CMD_PRE_FRAME => Self::PreFrame(PreFrame::new(b)),
            CMD_POST_FRAME => Self::PostFrame(PostFrame::new(b)),
            CMD_GAME_END => Self::GameEnd(GameEnd::new(b)),
            CMD_FRAME_START => Self::FrameStart(FrameStart::new(b)),
            CMD_ITEM_UPDATE => Self::ItemUpdate(ItemUpdate::new(b)),
            CMD_FRAME_BOOKEND => Self::FrameBookend(FrameBookend::new(b)),
            CMD_MESSAGE_SPLITTER => Self::MessageSplitter(MessageSplitter::new(b)),
            CMD_GECKO_LIST => Self::GeckoList(GeckoList::new(b)),
            CMD_FOD_PLATFORM => Self::FodPlatform(FodPlatform::new(b)),
            CMD_WHISPY => Self::Whispy(Whispy::new(b)),
            CMD_STADIUM_TRANSFORMATION => {
                Self::StadiumTransformation(StadiumTransformation::new(b))
            }
            _ => Self::Unknown(UnknownEvent::new(b)),
        }
    }

    /// The command byte: the wrapped event's first byte (a
    /// [`GeckoList`](Self::GeckoList) wraps its payload only: 0x3D). An
    /// empty slice in a known variant gives the variant's command, in
    /// [`Unknown`](Self::Unknown) 0.
    ///
    /// (Read from the bytes rather than matched from the variant: in a loop
    /// over [`SlippiEventIter`](super::SlippiEventIter) the compiler then
    /// knows it is the byte the iterator just read, and classifying an
    /// event and asking its code cost no jump table.)
    #[must_use]
    #[inline]
    pub fn code(&self) -> u8 {
        match self {
            Self::GeckoList(_) => CMD_GECKO_LIST,
            _ => match self.wrapped().first() {
                Some(&code) => code,
                None => self.variant_code(),
            },
        }
    }

    /// The command of a known variant; 0 for [`Event::Unknown`].
    fn variant_code(&self) -> u8 {
        match self {
            Self::EventPayloads(_) => CMD_EVENT_PAYLOADS,
            Self::GameStart(_) => CMD_GAME_START,
            Self::PreFrame(_) => CMD_PRE_FRAME,
            Self::PostFrame(_) => CMD_POST_FRAME,
            Self::GameEnd(_) => CMD_GAME_END,
            Self::FrameStart(_) => CMD_FRAME_START,
            Self::ItemUpdate(_) => CMD_ITEM_UPDATE,
            Self::FrameBookend(_) => CMD_FRAME_BOOKEND,
            Self::MessageSplitter(_) => CMD_MESSAGE_SPLITTER,
            Self::GeckoList(_) => CMD_GECKO_LIST,
            Self::FodPlatform(_) => CMD_FOD_PLATFORM,
            Self::Whispy(_) => CMD_WHISPY,
            Self::StadiumTransformation(_) => CMD_STADIUM_TRANSFORMATION,
            Self::Unknown(_) => 0,
        }
    }

    /// The slice the variant wraps: the whole event, but for
    /// [`Event::GeckoList`] its payload.
    #[inline]
    fn wrapped(&self) -> &'a [u8] {
        match self {
            Self::EventPayloads(e) => e.bytes(),
            Self::GameStart(e) => e.bytes(),
            Self::PreFrame(e) => e.bytes(),
            Self::PostFrame(e) => e.bytes(),
            Self::GameEnd(e) => e.bytes(),
            Self::FrameStart(e) => e.bytes(),
            Self::ItemUpdate(e) => e.bytes(),
            Self::FrameBookend(e) => e.bytes(),
            Self::MessageSplitter(e) => e.bytes(),
            Self::FodPlatform(e) => e.bytes(),
            Self::Whispy(e) => e.bytes(),
            Self::StadiumTransformation(e) => e.bytes(),
            Self::GeckoList(l) => l.payload(),
            Self::Unknown(e) => e.bytes(),
        }
    }

    /// The payload: the event's bytes after the command byte.
    #[must_use]
    pub fn payload(&self) -> &'a [u8] {
        let wrapped = self.wrapped();
        match self {
            Self::GeckoList(_) => wrapped,
            _ => wrapped.get(1..).unwrap_or_default(),
        }
    }

    /// The frame number, for events that carry one (0x37, 0x38, 0x3A,
    /// 0x3B, 0x3C and the stage events).
    #[must_use]
    pub fn frame(&self) -> Option<i32> {
        match self {
            Self::PreFrame(e) => e.frame(),
            Self::PostFrame(e) => e.frame(),
            Self::FrameStart(e) => e.frame(),
            Self::ItemUpdate(e) => e.frame(),
            Self::FrameBookend(e) => e.frame(),
            Self::FodPlatform(e) => e.frame(),
            Self::Whispy(e) => e.frame(),
            Self::StadiumTransformation(e) => e.frame(),
            _ => None,
        }
    }
}
