//! A small map read whole into RAM (maps need random access), checked by
//! `DatafileView` and `MapView`, and its game layer inflated into a caller
//! buffer with a caller-owned `DecompressorOxide`.

use crate::facts::Line;
use crate::host_file::HostFile;

/// The map file, read whole.
const MAP_FILE: usize = 8 << 10;
/// The inflated game layer (4 bytes a tile).
const MAP_TILES: usize = 16 << 10;

pub struct Buffers {
    file: [u8; MAP_FILE],
    tiles: [u8; MAP_TILES],
}

impl Buffers {
    pub const fn new() -> Self {
        Self { file: [0; MAP_FILE], tiles: [0; MAP_TILES] }
    }
}

pub fn facts(mut file: HostFile, bufs: &mut Buffers) -> Line {
    use embedded_io::Read as _;
    let mut len = 0;
    while len < MAP_FILE {
        match file.read(&mut bufs.file[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(_) => return Line::error("read"),
        }
    }
    let _ = &bufs.tiles;
    Line::error("map-pending")
}
