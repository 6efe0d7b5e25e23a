//! Wire layouts of the demo header, read in place.

use zerocopy::big_endian::{I32, U32};
use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

/// `TWDEMO\0`, the first seven bytes of every demo.
pub const MAGIC: &[u8; 7] = crate::format::DEMO_MAGIC;

/// Most timeline markers a demo holds.
pub const MAX_MARKERS: usize = 64;

/// The fixed header after the magic and version byte (168 bytes).
#[derive(Debug, FromBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Header {
    /// `TWDEMO\0`.
    pub magic: [u8; 7],
    /// The demo version, 3 to 6.
    pub version: u8,
    /// Network protocol version string, NUL-terminated (`0.6 …`, `0.7 …`).
    pub net_version: [u8; 64],
    /// Map name, NUL-terminated.
    pub map_name: [u8; 64],
    /// Bytes of the embedded map.
    pub map_size: U32,
    /// CRC32 of the map file.
    pub map_crc: U32,
    /// `client` or `server`, NUL-terminated.
    pub kind: [u8; 8],
    /// Length in seconds (0 if the recorder never finalised the file).
    pub length: I32,
    /// Recording time as text, NUL-terminated.
    pub timestamp: [u8; 20],
}

/// The timeline markers of version 4 and later (260 bytes).
#[derive(Debug, FromBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct TimelineMarkers {
    /// Markers in use (DDNet clamps to 0..=64).
    pub num: I32,
    /// Marker ticks.
    pub markers: [I32; MAX_MARKERS],
}
