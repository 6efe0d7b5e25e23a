//! [`Envelope`]: ENVELOPE items and their points (the ENVPOINTS item, with
//! bezier tangents inline for TW0.7 or in DDNet's bezier UUID item).

use core::iter::FusedIterator;

use zerocopy::FromBytes;
use zerocopy::little_endian::I32;

use super::field::int;
use super::raw::{ENV_POINT_BEZIER_INTS, ENV_POINT_INTS, EnvPoint, EnvPointBezier};
use crate::datafile::Item;
use crate::error::{Error, Result};
use crate::i32string::I32String;

/// Ints of the 0.5-era envelope: version, channels, start point, point
/// count, and one more int (no name).
const OLD_INTS: usize = 5;
/// Ints of version 1: version, channels, start, count, name (8 ints).
const V1_INTS: usize = 12;
/// Ints of version 2 and 3: + synchronized.
const V2_INTS: usize = 13;

/// An ENVELOPE item.
#[derive(Clone, Copy, Debug)]
pub struct Envelope<'a> {
    points: EnvPointTable<'a>,
    item: Item<'a>,
}

impl<'a> Envelope<'a> {
    pub(super) const fn new(points: EnvPointTable<'a>, item: Item<'a>) -> Self {
        Self { points, item }
    }

    /// The raw item.
    #[must_use]
    pub const fn item(&self) -> Item<'a> {
        self.item
    }

    /// The item version: 1, 2 (synchronized flag) or 3 (TW0.7 tangents).
    #[must_use]
    pub fn version(&self) -> i32 {
        int(self.item.data(), 0)
    }

    /// Channels: 1 sound, 3 position (x, y, rotation), 4 colour.
    #[must_use]
    pub fn channels(&self) -> i32 {
        int(self.item.data(), 1)
    }

    /// Index of the first point in the ENVPOINTS item.
    #[must_use]
    pub fn start_point(&self) -> i32 {
        int(self.item.data(), 2)
    }

    /// Number of points.
    #[must_use]
    pub fn point_count(&self) -> i32 {
        int(self.item.data(), 3)
    }

    /// The name, if the item holds one (12 ints or more).
    #[must_use]
    pub fn name(&self) -> Option<I32String<'a>> {
        self.item.data().get(4..V1_INTS).map(I32String::new)
    }

    /// Whether the envelope is synchronized to the server clock (version
    /// 2 and later).
    #[must_use]
    pub fn synchronized(&self) -> Option<bool> {
        if self.version() < 2 {
            return None;
        }
        self.item.int(V1_INTS).map(|v| v != 0)
    }

    /// Ints after the known layout for the item's size.
    #[must_use]
    pub fn extra(&self) -> &'a [I32] {
        let d = self.item.data();
        let known = if d.len() < V1_INTS {
            OLD_INTS
        } else if self.version() < 2 {
            V1_INTS
        } else {
            V2_INTS
        };
        d.get(known..).unwrap_or_default()
    }

    /// The envelope's points, borrowed from the ENVPOINTS item.
    ///
    /// Fails when the envelope's range is negative or lies past the stored
    /// points.
    pub fn points(&self) -> Result<EnvPoints<'a>> {
        let start = usize::try_from(self.start_point()).ok();
        let count = usize::try_from(self.point_count()).ok();
        match start.zip(count) {
            Some((s, c)) if s.checked_add(c).is_some_and(|end| end <= self.points.len()) => {
                Ok(EnvPoints::new(self.points, s, s.saturating_add(c)))
            }
            _ => Err(Error::corrupt(
                "envelope points lie outside the ENVPOINTS item",
                self.item.offset(),
            )),
        }
    }
}

/// The map's envelope points: the ENVPOINTS item's ints, and DDNet's
/// bezier item when the points do not carry their tangents inline.
#[derive(Clone, Copy, Debug)]
pub(super) struct EnvPointTable<'a> {
    /// The ENVPOINTS item's ints (empty without one).
    points: &'a [I32],
    /// Ints per point: 6, or 22 with TW0.7 inline tangents.
    point_ints: usize,
    /// DDNet's bezier item: 16 ints per point (empty without one).
    beziers: &'a [I32],
}

impl<'a> EnvPointTable<'a> {
    pub(super) const fn new(points: &'a [I32], point_ints: usize, beziers: &'a [I32]) -> Self {
        Self {
            points,
            point_ints,
            beziers,
        }
    }

    /// Number of points.
    pub(super) fn len(&self) -> usize {
        self.points.len().checked_div(self.point_ints).unwrap_or(0)
    }

    /// Ints per stored point.
    pub(super) const fn point_ints(&self) -> usize {
        self.point_ints
    }

    /// Point `index`, with its tangents if the map stores them.
    pub(super) fn get(&self, index: usize) -> Option<EnvPointRef<'a>> {
        let start = index.checked_mul(self.point_ints)?;
        let ints = self
            .points
            .get(start..start.checked_add(self.point_ints)?)?;
        let beziers = if self.point_ints == ENV_POINT_BEZIER_INTS {
            ints.get(ENV_POINT_INTS..)
        } else {
            let b = index.checked_mul(16)?;
            self.beziers.get(b..b.checked_add(16)?)
        };
        EnvPointRef::new(ints.get(..ENV_POINT_INTS)?, beziers)
    }
}

/// One envelope point, borrowed in place, with its bezier tangents when
/// the map stores them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnvPointRef<'a> {
    point: &'a EnvPoint,
    bezier: Option<&'a EnvPointBezier>,
}

impl<'a> EnvPointRef<'a> {
    fn new(point: &'a [I32], bezier: Option<&'a [I32]>) -> Option<Self> {
        Some(Self {
            point: EnvPoint::ref_from_bytes(zerocopy::IntoBytes::as_bytes(point)).ok()?,
            bezier: bezier.and_then(|b| {
                EnvPointBezier::ref_from_bytes(zerocopy::IntoBytes::as_bytes(b)).ok()
            }),
        })
    }

    /// The stored point.
    #[must_use]
    pub const fn point(&self) -> &'a EnvPoint {
        self.point
    }

    /// Time in ms.
    #[must_use]
    pub fn time(&self) -> i32 {
        self.point.time.get()
    }

    /// Curve type to the next point: 0 step, 1 linear, 2 slow, 3 fast,
    /// 4 smooth, 5 bezier.
    #[must_use]
    pub fn curve_type(&self) -> i32 {
        self.point.curve_type.get()
    }

    /// Channel values (22.10 fixed point).
    #[must_use]
    pub fn values(&self) -> [i32; 4] {
        self.point.values.map(|v| v.get())
    }

    /// The point's bezier tangents: inline for TW0.7 (envelope version 3)
    /// maps, or from DDNet's `mapitemtype-envpoints-bezier` item.
    #[must_use]
    pub const fn bezier(&self) -> Option<&'a EnvPointBezier> {
        self.bezier
    }
}

/// Iterator over envelope points; see [`Envelope::points`] and
/// [`MapView::env_points`](super::MapView::env_points).
#[derive(Clone, Debug)]
pub struct EnvPoints<'a> {
    points: EnvPointTable<'a>,
    next: usize,
    end: usize,
}

impl<'a> EnvPoints<'a> {
    pub(super) const fn new(points: EnvPointTable<'a>, next: usize, end: usize) -> Self {
        Self { points, next, end }
    }
}

impl<'a> Iterator for EnvPoints<'a> {
    type Item = EnvPointRef<'a>;

    fn next(&mut self) -> Option<EnvPointRef<'a>> {
        if self.next >= self.end {
            return None;
        }
        let point = self.points.get(self.next);
        self.next = if point.is_some() {
            self.next.saturating_add(1)
        } else {
            self.end
        };
        point
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.end.saturating_sub(self.next);
        (n, Some(n))
    }
}

impl ExactSizeIterator for EnvPoints<'_> {}
impl FusedIterator for EnvPoints<'_> {}
