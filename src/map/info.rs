//! [`Info`]: the map's INFO item (author, version, credits, license,
//! DDNet server settings).

use core::iter::FusedIterator;

use zerocopy::little_endian::I32;

use super::field::{data_string, int};
use crate::datafile::{DatafileView, Item};
use crate::error::{Error, ErrorKind, Result};

/// Ints of the INFO layout: version, author, map version, credits, license.
const BASE_INTS: usize = 5;
/// Ints with DDNet's settings field.
const SETTINGS_INTS: usize = 6;

/// The INFO item. String fields are data item indices (−1: absent), read
/// into a caller buffer.
#[derive(Clone, Copy, Debug)]
pub struct Info<'a> {
    df: DatafileView<'a>,
    item: Item<'a>,
}

impl<'a> Info<'a> {
    pub(super) const fn new(df: DatafileView<'a>, item: Item<'a>) -> Self {
        Self { df, item }
    }

    /// The raw item.
    #[must_use]
    pub const fn item(&self) -> Item<'a> {
        self.item
    }

    /// The item version (1).
    #[must_use]
    pub fn version(&self) -> i32 {
        int(self.item.data(), 0)
    }

    /// Data index of the author string (−1: none).
    #[must_use]
    pub fn author_index(&self) -> i32 {
        int(self.item.data(), 1)
    }

    /// Data index of the map version string (−1: none).
    #[must_use]
    pub fn map_version_index(&self) -> i32 {
        int(self.item.data(), 2)
    }

    /// Data index of the credits string (−1: none).
    #[must_use]
    pub fn credits_index(&self) -> i32 {
        int(self.item.data(), 3)
    }

    /// Data index of the license string (−1: none).
    #[must_use]
    pub fn license_index(&self) -> i32 {
        int(self.item.data(), 4)
    }

    /// Data index of DDNet's settings (server commands); `None` when the
    /// item has no settings field (Teeworlds maps).
    #[must_use]
    pub fn settings_index(&self) -> Option<i32> {
        self.item.int(5)
    }

    /// Ints after the known layout, kept for newer writers.
    #[must_use]
    pub fn extra(&self) -> &'a [I32] {
        self.item.data().get(SETTINGS_INTS..).unwrap_or_default()
    }

    /// The author, read into `buf` (`None`: not set).
    pub fn author<'b>(&self, buf: &'b mut [u8]) -> Result<Option<&'b str>> {
        data_string(&self.df, self.author_index(), buf)
    }

    /// The map version string, read into `buf` (`None`: not set).
    pub fn map_version<'b>(&self, buf: &'b mut [u8]) -> Result<Option<&'b str>> {
        data_string(&self.df, self.map_version_index(), buf)
    }

    /// The credits, read into `buf` (`None`: not set).
    pub fn credits<'b>(&self, buf: &'b mut [u8]) -> Result<Option<&'b str>> {
        data_string(&self.df, self.credits_index(), buf)
    }

    /// The license, read into `buf` (`None`: not set).
    pub fn license<'b>(&self, buf: &'b mut [u8]) -> Result<Option<&'b str>> {
        data_string(&self.df, self.license_index(), buf)
    }

    /// DDNet's map settings: console commands, inflated into `buf` and
    /// iterated one command at a time. Empty when the map has none.
    ///
    /// The data must be UTF-8 and every command must end with a NUL.
    pub fn settings<'b>(&self, buf: &'b mut [u8]) -> Result<Settings<'b>> {
        let Some(index) = self.settings_data_index() else {
            return Ok(Settings { rest: "" });
        };
        let bytes = self.df.decompress_into(index, buf)?;
        self.settings_text(index, bytes)
    }

    /// [`settings`](Self::settings) as owned strings, inflated into a
    /// buffer of the data's declared size (a size the stored bytes cannot
    /// inflate to fails before anything is allocated, as in
    /// [`DatafileView::decompress`]).
    #[cfg(feature = "alloc")]
    pub fn settings_owned(&self) -> Result<alloc::vec::Vec<alloc::string::String>> {
        let Some(index) = self.settings_data_index() else {
            return Ok(alloc::vec::Vec::new());
        };
        let bytes = self.df.decompress(index)?;
        Ok(self
            .settings_text(index, &bytes)?
            .map(alloc::borrow::ToOwned::to_owned)
            .collect())
    }

    /// The settings' data index, when the field names an existing item.
    fn settings_data_index(&self) -> Option<usize> {
        self.settings_index()
            .and_then(|i| usize::try_from(i).ok())
            .filter(|&i| i < self.df.data_count())
    }

    /// The commands in `bytes`, data item `index` inflated.
    fn settings_text<'b>(&self, index: usize, bytes: &'b [u8]) -> Result<Settings<'b>> {
        let at = self.df.data_offset(index).unwrap_or(0);
        let text = core::str::from_utf8(bytes)
            .map_err(|e| Error::new(ErrorKind::InvalidString, e.valid_up_to()).shifted(at))?;
        if !text.is_empty() && !text.ends_with('\0') {
            return Err(Error::new(ErrorKind::InvalidString, bytes.len()).shifted(at));
        }
        Ok(Settings { rest: text })
    }

    pub(super) fn check(item: &Item<'_>) -> Result<()> {
        super::field::require_len(item, BASE_INTS, "INFO item shorter than 5 ints")
    }
}

/// Iterator over DDNet's map settings commands; see [`Info::settings`].
#[derive(Clone, Debug)]
pub struct Settings<'b> {
    /// NUL-terminated commands not yet returned.
    rest: &'b str,
}

impl<'b> Iterator for Settings<'b> {
    type Item = &'b str;

    fn next(&mut self) -> Option<&'b str> {
        let (command, rest) = self.rest.split_once('\0')?;
        self.rest = rest;
        Some(command)
    }
}

impl FusedIterator for Settings<'_> {}
