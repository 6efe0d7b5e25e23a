//! [`Image`]: an IMAGE item, external (a name the client looks up) or
//! embedded (pixels in a data item).

use zerocopy::little_endian::I32;

use super::field::{data_into, data_string, index, int};
use crate::datafile::{DatafileView, Item};
use crate::error::{Error, ErrorKind, Result};

/// Ints of image version 1: version, width, height, external, name, data.
const V1_INTS: usize = 6;
/// Ints of image version 2 (TW0.7): + format.
const V2_INTS: usize = 7;

/// Pixel layout of an embedded image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ImageFormat {
    /// 3 bytes per pixel (TW0.7 image version 2, format 0).
    Rgb,
    /// 4 bytes per pixel (every version 1 image; format 1).
    Rgba,
    /// A format number this crate does not know.
    Unknown(i32),
}

impl ImageFormat {
    /// Bytes per pixel, if known.
    #[must_use]
    pub const fn channels(self) -> Option<usize> {
        match self {
            Self::Rgb => Some(3),
            Self::Rgba => Some(4),
            Self::Unknown(_) => None,
        }
    }
}

/// An IMAGE item.
#[derive(Clone, Copy, Debug)]
pub struct Image<'a> {
    df: DatafileView<'a>,
    item: Item<'a>,
}

impl<'a> Image<'a> {
    pub(super) const fn new(df: DatafileView<'a>, item: Item<'a>) -> Self {
        Self { df, item }
    }

    /// The raw item.
    #[must_use]
    pub const fn item(&self) -> Item<'a> {
        self.item
    }

    /// The item version: 1, or 2 for TW0.7 images with a format field.
    #[must_use]
    pub fn version(&self) -> i32 {
        int(self.item.data(), 0)
    }

    /// Width in pixels.
    #[must_use]
    pub fn width(&self) -> i32 {
        int(self.item.data(), 1)
    }

    /// Height in pixels.
    #[must_use]
    pub fn height(&self) -> i32 {
        int(self.item.data(), 2)
    }

    /// Whether the image is external (loaded by name from the client's
    /// `mapres`), i.e. has no pixel data in the map.
    #[must_use]
    pub fn is_external(&self) -> bool {
        int(self.item.data(), 3) != 0
    }

    /// Data index of the name string.
    #[must_use]
    pub fn name_index(&self) -> i32 {
        int(self.item.data(), 4)
    }

    /// Data index of the pixels (−1 for external images).
    #[must_use]
    pub fn data_index(&self) -> i32 {
        int(self.item.data(), 5)
    }

    /// The pixel format: the version 2 format field, else RGBA.
    #[must_use]
    pub fn format(&self) -> ImageFormat {
        match (self.version(), self.item.int(6)) {
            (v, Some(f)) if v >= 2 => match f {
                0 => ImageFormat::Rgb,
                1 => ImageFormat::Rgba,
                other => ImageFormat::Unknown(other),
            },
            _ => ImageFormat::Rgba,
        }
    }

    /// Ints after the known layout of the item's version.
    #[must_use]
    pub fn extra(&self) -> &'a [I32] {
        let known = if self.version() >= 2 {
            V2_INTS
        } else {
            V1_INTS
        };
        self.item.data().get(known..).unwrap_or_default()
    }

    /// The name, read into `buf`.
    pub fn name<'b>(&self, buf: &'b mut [u8]) -> Result<Option<&'b str>> {
        data_string(&self.df, self.name_index(), buf)
    }

    /// Bytes of embedded pixel data the header implies: width × height ×
    /// channels; `None` for negative sizes, unknown formats or overflow.
    #[must_use]
    pub fn pixel_len(&self) -> Option<usize> {
        self.len_of(self.format())
    }

    /// width × height × `format`'s channels.
    fn len_of(&self, format: ImageFormat) -> Option<usize> {
        let w = usize::try_from(self.width()).ok()?;
        let h = usize::try_from(self.height()).ok()?;
        w.checked_mul(h)?.checked_mul(format.channels()?)
    }

    /// The format of the embedded pixels as stored: [`format`](Self::format),
    /// except for an image that says RGBA while its data is exactly
    /// width × height × 3 bytes, whose pixels are RGB
    /// ([`WarningKind::RgbDataInRgbaImage`](crate::WarningKind::RgbDataInRgbaImage)).
    #[must_use]
    pub fn data_format(&self) -> ImageFormat {
        if self.is_rgb_data_in_rgba() {
            ImageFormat::Rgb
        } else {
            self.format()
        }
    }

    /// Whether the item says RGBA while its data is width × height × 3
    /// bytes.
    pub(super) fn is_rgb_data_in_rgba(&self) -> bool {
        self.format() == ImageFormat::Rgba
            && self.data_len().is_some()
            && self.data_len() == self.len_of(ImageFormat::Rgb)
            && self.data_len() != self.pixel_len()
    }

    /// The declared (inflated) size of the embedded data item, if any.
    #[must_use]
    pub fn data_len(&self) -> Option<usize> {
        if self.is_external() {
            return None;
        }
        index(self.data_index()).and_then(|i| self.df.data_size(i))
    }

    /// Inflates the embedded pixels into `buf` (which must hold
    /// [`data_len`](Self::data_len) bytes), rows top to bottom, in
    /// [`data_format`](Self::data_format).
    ///
    /// Fails for external images and when the data's size is not
    /// width × height × channels; RGB data in an image that says RGBA is
    /// read as RGB, or refused when the view is strict (as DDNet leaves
    /// the image out).
    pub fn pixels_into<'b>(&self, buf: &'b mut [u8]) -> Result<&'b [u8]> {
        if self.is_external() {
            return Err(Error::new(ErrorKind::OutOfBounds, self.item.offset()));
        }
        if self.is_rgb_data_in_rgba() && self.df.is_strict() {
            return Err(Error::from(crate::warning::Warning::new(
                crate::warning::WarningKind::RgbDataInRgbaImage,
                self.item.offset(),
            )));
        }
        let expected = self.len_of(self.data_format());
        if expected.is_none() || expected != self.data_len() {
            return Err(Error::corrupt(
                "image data size is not width * height * channels",
                self.item.offset(),
            ));
        }
        data_into(
            &self.df,
            &self.item,
            self.data_index(),
            buf,
            "image data index out of range",
        )
    }

    pub(super) fn check(item: &Item<'_>) -> Result<()> {
        super::field::require_len(item, V1_INTS, "IMAGE item shorter than 6 ints")
    }
}
