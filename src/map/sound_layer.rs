//! [`SoundLayer`]: sound layers (layer types 10 and the deprecated 9) and
//! their sources.

use zerocopy::FromBytes;
use zerocopy::little_endian::I32;

use super::LAYERTYPE_SOUNDS_DEPRECATED;
use super::field::{index, int, read_records};
use super::raw::{
    DEPRECATED_SOUND_SOURCE_SIZE, DeprecatedSoundSource, NAMED_INTS, SOUND_SOURCE_SIZE,
    SOUNDS_MIN_INTS, SoundSource,
};
use crate::datafile::{DatafileView, Item};
use crate::error::{Error, Result};
use crate::i32string::I32String;

/// A sounds layer: type 10, or the deprecated type 9 whose sources are
/// shorter ([`DeprecatedSoundSource`]).
#[derive(Clone, Copy, Debug)]
pub struct SoundLayer<'a> {
    df: DatafileView<'a>,
    item: Item<'a>,
}

/// A sound layer's sources, typed by layer type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SoundSources<'b> {
    /// Layer type 10.
    Current(&'b [SoundSource]),
    /// Layer type 9.
    Deprecated(&'b [DeprecatedSoundSource]),
}

impl<'a> SoundLayer<'a> {
    pub(super) const fn new(df: DatafileView<'a>, item: Item<'a>) -> Self {
        Self { df, item }
    }

    /// The raw item.
    #[must_use]
    pub const fn item(&self) -> Item<'a> {
        self.item
    }

    /// Whether this is the deprecated layer type 9.
    #[must_use]
    pub fn is_deprecated(&self) -> bool {
        int(self.item.data(), 1) == LAYERTYPE_SOUNDS_DEPRECATED
    }

    /// The sounds layer version.
    #[must_use]
    pub fn version(&self) -> i32 {
        int(self.item.data(), 3)
    }

    /// Number of sound sources.
    #[must_use]
    pub fn source_count(&self) -> usize {
        usize::try_from(int(self.item.data(), 4)).unwrap_or(0)
    }

    /// Data index of the sources.
    #[must_use]
    pub fn data_index(&self) -> i32 {
        int(self.item.data(), 5)
    }

    /// Sound index (−1: none).
    #[must_use]
    pub fn sound(&self) -> i32 {
        int(self.item.data(), 6)
    }

    /// The name, if the item holds one.
    #[must_use]
    pub fn name(&self) -> Option<I32String<'a>> {
        self.item
            .data()
            .get(SOUNDS_MIN_INTS..NAMED_INTS)
            .map(I32String::new)
    }

    /// Ints after the known layout.
    #[must_use]
    pub fn extra(&self) -> &'a [I32] {
        self.item.data().get(NAMED_INTS..).unwrap_or_default()
    }

    /// Bytes a buffer needs for [`sources_into`](Self::sources_into).
    #[must_use]
    pub fn buffer_len(&self) -> usize {
        if self.source_count() == 0 {
            return 0;
        }
        index(self.data_index())
            .and_then(|i| self.df.data_size(i))
            .unwrap_or(0)
    }

    /// Inflates the sources into `buf` and returns
    /// [`source_count`](Self::source_count) of them.
    pub fn sources_into<'b>(&self, buf: &'b mut [u8]) -> Result<SoundSources<'b>> {
        let size = if self.is_deprecated() {
            DEPRECATED_SOUND_SOURCE_SIZE
        } else {
            SOUND_SOURCE_SIZE
        };
        let bytes = read_records(
            &self.df,
            &self.item,
            self.data_index(),
            self.source_count(),
            size,
            buf,
        )?;
        let bad = Error::truncated(bytes.len());
        Ok(if self.is_deprecated() {
            SoundSources::Deprecated(
                <[DeprecatedSoundSource]>::ref_from_bytes(bytes).map_err(|_| bad)?,
            )
        } else {
            SoundSources::Current(<[SoundSource]>::ref_from_bytes(bytes).map_err(|_| bad)?)
        })
    }
}
