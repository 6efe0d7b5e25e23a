//! The demo header and the borrowed demo view.

use zerocopy::FromBytes;

use super::chunk::{ChunkDecoder, DemoChunkIter};
use super::raw::{Header, MAGIC, MAX_MARKERS, TimelineMarkers};
use super::{SHA256_EXTENSION, net_item_sizes};
use crate::bytes::Cursor;
#[cfg(feature = "datafile")]
use crate::datafile::DatafileView;
use crate::error::{Error, ErrorKind, Result};

/// Oldest demo version decoded.
pub const MIN_VERSION: u8 = 3;
/// Newest demo version decoded.
pub const MAX_VERSION: u8 = 6;

/// The demo header: fixed fields, timeline markers (v4+) and the map
/// SHA-256 (v6 extension). Owned and small, so streaming readers can keep
/// it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DemoHeader {
    version: u8,
    net_version: [u8; 64],
    map_name: [u8; 64],
    map_size: u32,
    map_crc: u32,
    kind: [u8; 8],
    length: i32,
    timestamp: [u8; 20],
    markers: [i32; MAX_MARKERS],
    num_markers: usize,
    map_sha256: Option<[u8; 32]>,
    len: usize,
}

/// The text of a NUL-terminated field checked by [`check_str`].
fn field_str(field: &[u8]) -> &str {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    core::str::from_utf8(field.get(..end).unwrap_or_default()).unwrap_or_default()
}

/// DDNet's rule for header strings: the field holds a NUL and the text
/// before it is UTF-8.
fn check_str(field: &[u8], at: usize) -> Result<()> {
    let Some(end) = field.iter().position(|&b| b == 0) else {
        return Err(Error::new(ErrorKind::InvalidString, at));
    };
    core::str::from_utf8(field.get(..end).unwrap_or_default())
        .map(|_| ())
        .map_err(|e| Error::new(ErrorKind::InvalidString, at.saturating_add(e.valid_up_to())))
}

/// Whether the version 6 header extension's UUID, [`SHA256_EXTENSION`],
/// is at offset `at` of `bytes` (DDNet reads the extension only then).
fn has_sha256_extension(bytes: &[u8], at: usize) -> bool {
    bytes.get(at..at.saturating_add(16)) == Some(SHA256_EXTENSION.as_bytes().as_slice())
}

impl DemoHeader {
    /// Bytes before the header's variable parts: magic, version, fixed
    /// header.
    pub const FIXED_LEN: usize = size_of::<Header>();
    /// The longest header (version 6 with the SHA-256 extension).
    pub const MAX_LEN: usize = Self::MARKERS_END + 16 + 32;
    /// The end of the timeline markers (versions 4 and later).
    const MARKERS_END: usize = Self::FIXED_LEN + size_of::<TimelineMarkers>();

    /// Parses the header at the start of `bytes` (which may continue with
    /// the map and chunks). Fails on a bad magic, a version outside 3..=6,
    /// a string field without NUL or not UTF-8, or too few bytes.
    pub fn parse(bytes: &[u8]) -> Result<Self> {
        let mut header = Self::EMPTY;
        header.parse_in_place(bytes)?;
        Ok(header)
    }

    /// Nothing read yet: every field zero.
    pub(crate) const EMPTY: Self = Self {
        version: 0,
        net_version: [0; 64],
        map_name: [0; 64],
        map_size: 0,
        map_crc: 0,
        kind: [0; 8],
        length: 0,
        timestamp: [0; 20],
        markers: [0; MAX_MARKERS],
        num_markers: 0,
        map_sha256: None,
        len: 0,
    };

    /// [`DemoHeader::parse`] into `self` (a reader's own header, so that
    /// no second one sits on the stack); on an error `self` is partly
    /// written.
    pub(crate) fn parse_in_place(&mut self, bytes: &[u8]) -> Result<()> {
        let (header, _) = Header::ref_from_prefix(bytes).map_err(|_| {
            if bytes.len() >= MAGIC.len() && bytes.get(..MAGIC.len()) != Some(MAGIC) {
                Error::new(ErrorKind::BadMagic, 0)
            } else {
                Error::truncated(bytes.len())
            }
        })?;
        let version = header.version;
        Self::check_start(bytes)?;
        check_str(&header.net_version, 8)?;
        check_str(&header.map_name, 72)?;
        check_str(&header.kind, 144)?;
        check_str(&header.timestamp, 156)?;
        let mut cur = Cursor::new(bytes);
        cur.skip(Self::FIXED_LEN)?;
        self.markers = [0; MAX_MARKERS];
        self.num_markers = 0;
        if version >= 4 {
            let raw = cur.bytes(size_of::<TimelineMarkers>())?;
            let raw = TimelineMarkers::ref_from_bytes(raw)
                .map_err(|_| Error::truncated(Self::FIXED_LEN))?;
            self.num_markers = usize::try_from(raw.num.get()).unwrap_or(0).min(MAX_MARKERS);
            for (m, r) in self.markers.iter_mut().zip(&raw.markers) {
                *m = r.get();
            }
        }
        self.map_sha256 = None;
        // DDNet reads the extension only when its UUID is there.
        if version >= 6 && has_sha256_extension(bytes, cur.position()) {
            cur.skip(16)?;
            self.map_sha256 = Some(cur.array::<32>()?);
        }
        self.version = version;
        self.net_version = header.net_version;
        self.map_name = header.map_name;
        self.map_size = header.map_size.get();
        self.map_crc = header.map_crc.get();
        self.kind = header.kind;
        self.length = header.length.get();
        self.timestamp = header.timestamp;
        self.len = cur.position();
        Ok(())
    }

    /// Fails unless `prefix` (the first bytes of a file, any number) starts
    /// as a demo does: the magic (or as much of it as `prefix` holds) and,
    /// once `prefix` holds it, a version from 3 to 6.
    fn check_start(prefix: &[u8]) -> Result<()> {
        if prefix.iter().zip(MAGIC).any(|(a, b)| a != b) {
            return Err(Error::new(ErrorKind::BadMagic, 0));
        }
        match prefix.get(MAGIC.len()) {
            Some(&v) if !(MIN_VERSION..=MAX_VERSION).contains(&v) => Err(Error::new(
                ErrorKind::UnsupportedVersion(v.into()),
                MAGIC.len(),
            )),
            _ => Ok(()),
        }
    }

    /// The header's framing, told from `prefix` (the first bytes of a
    /// file, any number) without parsing it: how many bytes
    /// [`DemoHeader::parse`] reads to decide the header, which the version
    /// byte and, in version 6, the extension's UUID tell. Before the
    /// version byte, the fixed part's length. In version 6, the bytes after
    /// the timeline markers that `prefix` holds decide: once they differ
    /// from the extension's UUID, there is none and the header ends there;
    /// while they are (a prefix of) it, the UUID's 16 bytes and then the
    /// SHA-256's 32 are needed.
    ///
    /// # Errors
    /// A wrong magic or version in the bytes `prefix` holds (as
    /// [`DemoHeader::parse`] would fail on them).
    pub(crate) fn framing_len(prefix: &[u8]) -> Result<usize> {
        Self::check_start(prefix)?;
        let Some(&version) = prefix.get(MAGIC.len()) else {
            return Ok(Self::FIXED_LEN);
        };
        if version < 4 {
            return Ok(Self::FIXED_LEN);
        }
        if version < 6 {
            return Ok(Self::MARKERS_END);
        }
        let after = prefix.get(Self::MARKERS_END..).unwrap_or_default();
        let uuid = SHA256_EXTENSION.as_bytes();
        Ok(if after.iter().zip(uuid).any(|(a, b)| a != b) {
            Self::MARKERS_END
        } else if after.len() < uuid.len() {
            Self::MARKERS_END + 16
        } else {
            Self::MAX_LEN
        })
    }

    /// The demo version (3 to 6).
    #[must_use]
    pub const fn version(&self) -> u8 {
        self.version
    }

    /// The network protocol version, e.g. `0.6 626fce9a778df4d4`.
    #[must_use]
    pub fn net_version(&self) -> &str {
        field_str(&self.net_version)
    }

    /// The static item size table the net version selects:
    /// [`crate::snapshot::ITEM_SIZES_07`] for `0.7 …`, otherwise
    /// [`crate::snapshot::ITEM_SIZES_06`].
    #[must_use]
    pub fn item_sizes(&self) -> &'static [u16] {
        net_item_sizes(self.net_version())
    }

    /// The map name.
    #[must_use]
    pub fn map_name(&self) -> &str {
        field_str(&self.map_name)
    }

    /// Bytes of the embedded map.
    #[must_use]
    pub const fn map_size(&self) -> u32 {
        self.map_size
    }

    /// CRC32 of the map file.
    #[must_use]
    pub const fn map_crc(&self) -> u32 {
        self.map_crc
    }

    /// `client` or `server`.
    #[must_use]
    pub fn kind(&self) -> &str {
        field_str(&self.kind)
    }

    /// Length in seconds; 0 if the recorder never finalised the file.
    #[must_use]
    pub const fn length_seconds(&self) -> i32 {
        self.length
    }

    /// Recording time as the recorder wrote it.
    #[must_use]
    pub fn timestamp(&self) -> &str {
        field_str(&self.timestamp)
    }

    /// Timeline marker ticks (none before version 4).
    #[must_use]
    pub fn markers(&self) -> &[i32] {
        self.markers.get(..self.num_markers).unwrap_or_default()
    }

    /// The map's SHA-256 from the version 6 extension, if present.
    #[must_use]
    pub const fn map_sha256(&self) -> Option<&[u8; 32]> {
        self.map_sha256.as_ref()
    }

    /// Byte offset of the embedded map: the header's length.
    #[must_use]
    pub const fn map_offset(&self) -> usize {
        self.len
    }

    /// File offset of the first chunk: after the header and the embedded
    /// map (saturating on a map size no file could hold).
    #[must_use]
    pub fn chunks_offset(&self) -> usize {
        let map_len = usize::try_from(self.map_size).unwrap_or(usize::MAX);
        self.len.saturating_add(map_len)
    }

    /// The chunk decoder for the stream that starts at
    /// [`DemoHeader::chunks_offset`].
    #[must_use]
    pub fn chunk_decoder(&self) -> ChunkDecoder {
        ChunkDecoder::new(self.version, self.chunks_offset())
    }
}

/// A demo file in memory: the header, the embedded map and the chunk
/// stream, borrowed.
#[derive(Clone, Debug)]
pub struct DemoView<'a> {
    header: DemoHeader,
    map: &'a [u8],
    chunks: &'a [u8],
}

impl<'a> DemoView<'a> {
    /// Parses the header and locates the map and the chunk stream. Chunks
    /// are decoded lazily by [`DemoView::chunks`].
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        let header = DemoHeader::parse(bytes)?;
        let map_end = usize::try_from(header.map_size)
            .ok()
            .and_then(|n| n.checked_add(header.len))
            .filter(|&end| end <= bytes.len())
            .ok_or(Error::truncated(bytes.len()))?;
        Ok(Self {
            map: bytes.get(header.len..map_end).unwrap_or_default(),
            chunks: bytes.get(map_end..).unwrap_or_default(),
            header,
        })
    }

    /// The header.
    #[must_use]
    pub const fn header(&self) -> &DemoHeader {
        &self.header
    }

    /// The embedded map file's bytes.
    #[must_use]
    pub const fn map_data(&self) -> &'a [u8] {
        self.map
    }

    /// The embedded map as a datafile (errors carry demo file offsets).
    /// Needs the `datafile` feature.
    #[cfg(feature = "datafile")]
    pub fn map(&self) -> Result<DatafileView<'a>> {
        DatafileView::parse(self.map).map_err(|e| e.shifted(self.header.len))
    }

    /// Byte offset of the chunk stream in the file.
    #[must_use]
    pub const fn chunks_offset(&self) -> usize {
        self.header.len.saturating_add(self.map.len())
    }

    /// The chunk stream's bytes.
    #[must_use]
    pub const fn chunk_bytes(&self) -> &'a [u8] {
        self.chunks
    }

    /// A pull iterator over the chunks; errors carry file offsets.
    #[must_use]
    pub fn chunks(&self) -> DemoChunkIter<'a> {
        DemoChunkIter::new(self.chunks, self.header.version, self.chunks_offset())
    }
}
