//! [`MapView`]: the validated, borrowed view of a map's content.

use super::automapper::AutomapperConfig;
use super::envelope::{EnvPointRef, EnvPointTable, EnvPoints, Envelope};
use super::field::{ItemRange, data_string, int, require_len};
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
use crate::datafile::{DatafileView, ITEMTYPE_EX, UUID_AUTOMAPPER_CONFIG, UUID_ENVPOINTS_BEZIER};
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
    images: ItemRange,
    envelopes: ItemRange,
    groups: ItemRange,
    layers: ItemRange,
    sounds: ItemRange,
    env_points: EnvPointTable<'a>,
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
        let layers = ItemRange::of(&df, ITEM_LAYER);
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
            images: ItemRange::of(&df, ITEM_IMAGE),
            envelopes: ItemRange::of(&df, ITEM_ENVELOPE),
            groups: ItemRange::of(&df, ITEM_GROUP),
            layers,
            sounds: ItemRange::of(&df, ITEM_SOUND),
            env_points: EnvPointTable::new(env_points, env_point_ints, env_beziers),
        };
        super::ddnet_rules::check(
            || map.groups(),
            |i| map.layer(i),
            df.data_count(),
            df.is_strict(),
            warn,
        )?;
        // Quirks every engine reads (a strict view reports them too; it
        // refuses RGB image data only when the pixels are read).
        map.warn_duplicate_physics_layers(warn);
        for image in map.images() {
            if image.is_rgb_data_in_rgba() && !df.is_strict() {
                warn.warn(crate::warning::Warning::new(
                    crate::warning::WarningKind::RgbDataInRgbaImage,
                    image.item().offset(),
                ));
            }
        }
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
            .map(|item| Envelope::new(self.env_points, item))
    }

    /// Every envelope, in order.
    pub fn envelopes(&self) -> impl ExactSizeIterator<Item = Envelope<'a>> + 'a {
        let points = self.env_points;
        self.df
            .items_of_type(ITEM_ENVELOPE)
            .map(move |item| Envelope::new(points, item))
    }

    /// Number of envelope points in the ENVPOINTS item.
    #[must_use]
    pub fn env_point_count(&self) -> usize {
        self.env_points.len()
    }

    /// Ints per stored envelope point: 6, or 22 when an envelope has
    /// version 3 (TW0.7 tangents stored inline).
    #[must_use]
    pub const fn env_point_ints(&self) -> usize {
        self.env_points.point_ints()
    }

    /// Every envelope point in the ENVPOINTS item, in order.
    #[must_use]
    pub fn env_points(&self) -> EnvPoints<'a> {
        EnvPoints::new(self.env_points, 0, self.env_point_count())
    }

    /// Envelope point `index` of the ENVPOINTS item, with its tangents if the
    /// map stores them (inline, or in DDNet's bezier item).
    #[must_use]
    pub fn env_point(&self, index: usize) -> Option<EnvPointRef<'a>> {
        self.env_points.get(index)
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
            .map(|item| Group::new(self.df, self.layers, item))
    }

    /// Every group, in drawing order.
    pub fn groups(&self) -> impl ExactSizeIterator<Item = Group<'a>> + 'a {
        let (df, layers) = (self.df, self.layers);
        self.df
            .items_of_type(ITEM_GROUP)
            .map(move |item| Group::new(df, layers, item))
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
        Layer::nth(self.df, self.layers, index)
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
        self.physics_layer(TileKind::Game)
    }

    /// The physics layer of `kind` (game, front, tele, speedup, switch,
    /// tune) the game uses: the last tile layer of that kind, as DDNet's
    /// `CLayers::Init` and its editor's loader pick it (each later one
    /// replaces the earlier). A map with two sets of DDRace layers warns
    /// [`DuplicatePhysicsLayer`](crate::WarningKind::DuplicatePhysicsLayer)
    /// for each ignored one. `None` for [`TileKind::Tiles`] (design
    /// layers) and when the map has none of `kind`.
    #[must_use]
    pub fn physics_layer(&self, kind: TileKind) -> Option<TileLayer<'a>> {
        if kind == TileKind::Tiles {
            return None;
        }
        self.layers()
            .filter_map(|l| l.as_tiles())
            .filter(|t| t.kind() == kind)
            .last()
    }

    /// Warns [`DuplicatePhysicsLayer`](crate::WarningKind::DuplicatePhysicsLayer)
    /// for every physics layer a later one of its kind replaces.
    fn warn_duplicate_physics_layers<W: Warn + ?Sized>(&self, warn: &mut W) {
        let kinds = [
            TileKind::Game,
            TileKind::Front,
            TileKind::Tele,
            TileKind::Speedup,
            TileKind::Switch,
            TileKind::Tune,
        ];
        for kind in kinds {
            let used = self.physics_layer(kind).map(|t| t.item().offset());
            for layer in self.layers().filter_map(|l| l.as_tiles()) {
                let offset = layer.item().offset();
                if layer.kind() == kind && Some(offset) != used {
                    warn.warn(crate::warning::Warning::new(
                        crate::warning::WarningKind::DuplicatePhysicsLayer { kind: kind.name() },
                        offset,
                    ));
                }
            }
        }
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
