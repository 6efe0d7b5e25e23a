//! [`MapView`]: the validated, borrowed view of a map's content.

use zerocopy::little_endian::I32;

use super::automapper::AutomapperConfig;
use super::envelope::{EnvPointRef, EnvPoints, Envelope};
use super::group::Group;
use super::image::Image;
use super::info::Info;
use super::layer::Layer;
use super::raw::{ENV_POINT_BEZIER_INTS, ENV_POINT_INTS};
use super::sound::Sound;
use super::tiles::{TileKind, TileLayer};
use super::{
    ITEM_ENVELOPE, ITEM_ENVPOINTS, ITEM_GROUP, ITEM_IMAGE, ITEM_INFO, ITEM_LAYER, ITEM_SOUND,
    ITEM_VERSION,
};
use crate::datafile::{
    DatafileView, ITEMTYPE_EX, Item, ItemTypeEntry, UUID_AUTOMAPPER_CONFIG, UUID_ENVPOINTS_BEZIER,
};
use crate::error::{Error, ErrorKind, Result};
use crate::warning::Warn;

/// A Teeworlds/DDNet map, validated once by [`MapView::parse`] and then read
/// in place.
///
/// Every item is read by its version and its actual size, so all layouts
/// real maps use work; ints past the layout a version defines are kept
/// (each item's `extra()`). Data items (tiles, quads, images, strings) are
/// inflated into buffers the caller owns.
#[derive(Clone, Copy, Debug)]
pub struct MapView<'a> {
    df: DatafileView<'a>,
    version: i32,
    images: Range,
    envelopes: Range,
    groups: Range,
    layers: Range,
    sounds: Range,
    /// The ENVPOINTS item's ints (empty without one).
    env_points: &'a [I32],
    /// Ints per envelope point: 6, or 22 with TW0.7 inline tangents.
    env_point_ints: usize,
    /// DDNet's bezier item: 16 ints per point (empty without one).
    env_beziers: &'a [I32],
}

/// The items of one type: first item index and count.
#[derive(Clone, Copy, Debug, Default)]
struct Range {
    start: usize,
    count: usize,
}

impl Range {
    fn of(df: &DatafileView<'_>, type_id: u16) -> Self {
        df.item_type(type_id)
            .map_or(Self::default(), |t: ItemTypeEntry| Self {
                start: t.start,
                count: t.count,
            })
    }

    fn nth<'a>(&self, df: &DatafileView<'a>, index: usize) -> Option<Item<'a>> {
        if index >= self.count {
            return None;
        }
        df.item(self.start.checked_add(index)?)
    }
}

/// Fails with a [`Corrupt`](ErrorKind::Corrupt) error at the item when it is
/// shorter than `min` ints.
pub(super) fn require_len(item: &Item<'_>, min: usize, what: &'static str) -> Result<()> {
    if item.data().len() < min {
        return Err(Error::corrupt(what, item.offset()));
    }
    Ok(())
}

/// The int at `index`, or 0 past the end (callers checked the length).
pub(super) fn int(data: &[I32], index: usize) -> i32 {
    data.get(index).map_or(0, |v| v.get())
}

/// A non-negative int as an index; −1 (or any negative) means "none".
pub(super) fn index(value: i32) -> Option<usize> {
    usize::try_from(value).ok()
}

impl<'a> MapView<'a> {
    /// Parses `file` as a datafile and validates it as a map, reading the
    /// quirks engines accept (warnings are dropped; see
    /// [`parse_with`](Self::parse_with)).
    pub fn parse(file: &'a [u8]) -> Result<Self> {
        Self::new(DatafileView::parse(file)?)
    }

    /// [`parse`](Self::parse), reporting each quirk of the datafile (see
    /// [`DatafileView::parse_with`]) and of the map (2010-era switch and
    /// speedup layers) to `warn`.
    pub fn parse_with<W: Warn + ?Sized>(file: &'a [u8], warn: &mut W) -> Result<Self> {
        Self::new_with(DatafileView::parse_with(file, warn)?, warn)
    }

    /// Parses and validates `file` as current DDNet does; see
    /// [`DatafileView::parse_strict`]. Old switch and speedup layers then
    /// fail when their tiles are read, as in DDNet.
    pub fn parse_strict(file: &'a [u8]) -> Result<Self> {
        Self::new(DatafileView::parse_strict(file)?)
    }

    /// Validates a datafile as a map, reading what Teeworlds reads; the
    /// rules current DDNet adds are warnings (or, for a strict `df`,
    /// errors): see [`WarningKind::DdnetRule`](crate::WarningKind::DdnetRule).
    ///
    /// Checks the VERSION item (present, value 1), the minimum size of every
    /// known item for its version, that groups reference existing layers,
    /// and each tile layer's version (2 to 4), size, flags (at most one
    /// physics kind) and that a physics layer has its data index (old maps
    /// that stored only a prefix of the physics indices are read the way
    /// DDNet reads them: a missing index means "none").
    ///
    /// A 2007-era map (no VERSION item, its own item types above 0x8000)
    /// fails with [`ErrorKind::LegacyLayout`]; see [`is_legacy`](Self::is_legacy).
    ///
    /// The view is strict when `df` is.
    pub fn new(df: DatafileView<'a>) -> Result<Self> {
        Self::new_with(df, &mut ())
    }

    /// [`new`](Self::new), reporting the map's quirks to `warn` (unless `df`
    /// is strict).
    pub fn new_with<W: Warn + ?Sized>(df: DatafileView<'a>, warn: &mut W) -> Result<Self> {
        let Some(version_item) = df.find_item(ITEM_VERSION, 0) else {
            if Self::is_legacy(&df) {
                return Err(Error::new(ErrorKind::LegacyLayout, 0));
            }
            return Err(Error::corrupt("map has no VERSION item", 0));
        };
        require_len(&version_item, 1, "VERSION item is empty")?;
        let version = int(version_item.data(), 0);
        if version != 1 {
            return Err(Error::new(
                ErrorKind::UnsupportedVersion(i64::from(version)),
                version_item.offset().saturating_add(8),
            ));
        }
        if let Some(info) = df.find_item(ITEM_INFO, 0) {
            Info::check(&info)?;
        }
        let mut env_point_ints = ENV_POINT_INTS;
        for item in df.items_of_type(ITEM_ENVELOPE) {
            require_len(&item, 5, "ENVELOPE item shorter than 5 ints")?;
            if int(item.data(), 0) >= 3 {
                env_point_ints = ENV_POINT_BEZIER_INTS;
            }
        }
        for item in df.items_of_type(ITEM_IMAGE) {
            Image::check(&item)?;
        }
        for item in df.items_of_type(ITEM_SOUND) {
            Sound::check(&item)?;
        }
        let layers = Range::of(&df, ITEM_LAYER);
        for item in df.items_of_type(ITEM_LAYER) {
            Layer::check(&item)?;
            let old = Layer::new(df, item)
                .as_tiles()
                .and_then(|t| t.old_layout_warning());
            if let (Some(warning), false) = (old, df.is_strict()) {
                warn.warn(warning);
            }
        }
        for item in df.items_of_type(ITEM_GROUP) {
            Group::check(&item, layers.count)?;
        }
        let env_points = df
            .items_of_type(ITEM_ENVPOINTS)
            .next()
            .map_or(&[][..], |i| i.data());
        let env_beziers = df
            .items_of_uuid(&UUID_ENVPOINTS_BEZIER)
            .next()
            .map_or(&[][..], |i| i.data());
        let map = Self {
            df,
            version,
            images: Range::of(&df, ITEM_IMAGE),
            envelopes: Range::of(&df, ITEM_ENVELOPE),
            groups: Range::of(&df, ITEM_GROUP),
            layers,
            sounds: Range::of(&df, ITEM_SOUND),
            env_points,
            env_point_ints,
            env_beziers,
        };
        super::ddnet_rules::check(&map, df.is_strict(), warn)?;
        Ok(map)
    }

    /// Whether `df` has the 2007-era map layout: no VERSION item, and item
    /// types above 0x8000 that are not extended (UUID) types.
    #[must_use]
    pub fn is_legacy(df: &DatafileView<'_>) -> bool {
        df.find_item(ITEM_VERSION, 0).is_none()
            && df.item_types().any(|t| {
                t.type_id > 0x8000 && t.type_id != ITEMTYPE_EX && df.type_uuid(t.type_id).is_none()
            })
    }

    /// The datafile underneath.
    #[must_use]
    pub const fn datafile(&self) -> &DatafileView<'a> {
        &self.df
    }

    /// The map version from the VERSION item (always 1).
    #[must_use]
    pub const fn version(&self) -> i32 {
        self.version
    }

    /// The INFO item, if the map has one.
    #[must_use]
    pub fn info(&self) -> Option<Info<'a>> {
        self.df
            .find_item(ITEM_INFO, 0)
            .map(|item| Info::new(self.df, item))
    }

    /// Number of images.
    #[must_use]
    pub const fn image_count(&self) -> usize {
        self.images.count
    }

    /// Image `index` (the index layers refer to).
    #[must_use]
    pub fn image(&self, index: usize) -> Option<Image<'a>> {
        self.images
            .nth(&self.df, index)
            .map(|item| Image::new(self.df, item))
    }

    /// Every image, in order.
    pub fn images(&self) -> impl ExactSizeIterator<Item = Image<'a>> + 'a {
        let df = self.df;
        self.df
            .items_of_type(ITEM_IMAGE)
            .map(move |item| Image::new(df, item))
    }

    /// Number of envelopes.
    #[must_use]
    pub const fn envelope_count(&self) -> usize {
        self.envelopes.count
    }

    /// Envelope `index` (the index quads and layers refer to).
    #[must_use]
    pub fn envelope(&self, index: usize) -> Option<Envelope<'a>> {
        self.envelopes
            .nth(&self.df, index)
            .map(|item| Envelope::new(*self, item))
    }

    /// Every envelope, in order.
    pub fn envelopes(&self) -> impl ExactSizeIterator<Item = Envelope<'a>> + 'a {
        let map = *self;
        self.df
            .items_of_type(ITEM_ENVELOPE)
            .map(move |item| Envelope::new(map, item))
    }

    /// Number of envelope points in the ENVPOINTS item.
    #[must_use]
    pub fn env_point_count(&self) -> usize {
        self.env_points
            .len()
            .checked_div(self.env_point_ints)
            .unwrap_or(0)
    }

    /// Ints per stored envelope point: 6, or 22 when an envelope has
    /// version 3 (TW0.7 tangents stored inline).
    #[must_use]
    pub const fn env_point_ints(&self) -> usize {
        self.env_point_ints
    }

    /// Every envelope point in the ENVPOINTS item, in order.
    #[must_use]
    pub fn env_points(&self) -> EnvPoints<'a> {
        EnvPoints::new(*self, 0, self.env_point_count())
    }

    /// Envelope point `index` of the ENVPOINTS item, with its tangents if the
    /// map stores them (inline, or in DDNet's bezier item).
    #[must_use]
    pub fn env_point(&self, index: usize) -> Option<EnvPointRef<'a>> {
        let start = index.checked_mul(self.env_point_ints)?;
        let ints = self
            .env_points
            .get(start..start.checked_add(self.env_point_ints)?)?;
        let beziers = if self.env_point_ints == ENV_POINT_BEZIER_INTS {
            ints.get(ENV_POINT_INTS..)
        } else {
            let b = index.checked_mul(16)?;
            self.env_beziers.get(b..b.checked_add(16)?)
        };
        EnvPointRef::new(ints.get(..ENV_POINT_INTS)?, beziers)
    }

    /// Number of groups.
    #[must_use]
    pub const fn group_count(&self) -> usize {
        self.groups.count
    }

    /// Group `index`.
    #[must_use]
    pub fn group(&self, index: usize) -> Option<Group<'a>> {
        self.groups
            .nth(&self.df, index)
            .map(|item| Group::new(*self, item))
    }

    /// Every group, in drawing order.
    pub fn groups(&self) -> impl ExactSizeIterator<Item = Group<'a>> + 'a {
        let map = *self;
        self.df
            .items_of_type(ITEM_GROUP)
            .map(move |item| Group::new(map, item))
    }

    /// Number of layer items (over all groups).
    #[must_use]
    pub const fn layer_count(&self) -> usize {
        self.layers.count
    }

    /// Layer item `index`, counting over all groups (groups refer to their
    /// layers by this index).
    #[must_use]
    pub fn layer(&self, index: usize) -> Option<Layer<'a>> {
        self.layers
            .nth(&self.df, index)
            .map(|item| Layer::new(self.df, item))
    }

    /// Every layer item, in file order.
    pub fn layers(&self) -> impl ExactSizeIterator<Item = Layer<'a>> + 'a {
        let df = self.df;
        self.df
            .items_of_type(ITEM_LAYER)
            .map(move |item| Layer::new(df, item))
    }

    /// The game layer: the last tile layer flagged as game, as DDNet picks it.
    #[must_use]
    pub fn game_layer(&self) -> Option<TileLayer<'a>> {
        self.layers()
            .filter_map(|l| l.as_tiles())
            .filter(|t| t.kind() == TileKind::Game)
            .last()
    }

    /// Number of sounds.
    #[must_use]
    pub const fn sound_count(&self) -> usize {
        self.sounds.count
    }

    /// Sound `index` (the index sound layers refer to).
    #[must_use]
    pub fn sound(&self, index: usize) -> Option<Sound<'a>> {
        self.sounds
            .nth(&self.df, index)
            .map(|item| Sound::new(self.df, item))
    }

    /// Every sound, in order.
    pub fn sounds(&self) -> impl ExactSizeIterator<Item = Sound<'a>> + 'a {
        let df = self.df;
        self.df
            .items_of_type(ITEM_SOUND)
            .map(move |item| Sound::new(df, item))
    }

    /// DDNet's automapper-config items (one per automapped layer). Items
    /// shorter than the 6 ints of the layout are skipped, as DDNet does.
    pub fn automapper_configs(&self) -> impl Iterator<Item = AutomapperConfig<'a>> + 'a {
        self.df
            .items_of_uuid(&UUID_AUTOMAPPER_CONFIG)
            .filter_map(AutomapperConfig::new)
    }

    /// Reads data item `index` as a data string into `buf`: `Ok(None)` for
    /// −1 or an index past the data items (DDNet reads those as "no
    /// string"), an error if the data does not inflate or is not a valid
    /// string.
    pub fn string<'b>(&self, index: i32, buf: &'b mut [u8]) -> Result<Option<&'b str>> {
        data_string(&self.df, index, buf)
    }
}

/// See [`MapView::string`].
pub(super) fn data_string<'b>(
    df: &DatafileView<'_>,
    index: i32,
    buf: &'b mut [u8],
) -> Result<Option<&'b str>> {
    match self::index(index).filter(|&i| i < df.data_count()) {
        Some(i) => df.data_str(i, buf).map(Some),
        None => Ok(None),
    }
}

/// Inflates data item `index` (an item field; `None` for −1 or out of
/// range) into `buf`. `what` names the field for the error.
pub(super) fn data_into<'b>(
    df: &DatafileView<'_>,
    item: &Item<'_>,
    index: i32,
    buf: &'b mut [u8],
    what: &'static str,
) -> Result<&'b [u8]> {
    match self::index(index).filter(|&i| i < df.data_count()) {
        Some(i) => df.decompress_into(i, buf),
        None => Err(Error::corrupt(what, item.offset())),
    }
}
