//! A small map read whole into RAM (maps need random access), checked by
//! `DatafileView` and `MapView`, and its game layer inflated into a caller
//! buffer with a caller-owned `DecompressorOxide` (11 KB, made once, not at
//! every call).

use embedded_io::Read as _;
use gamefmt::datafile::{DatafileView, DecompressorOxide};
use gamefmt::map::{MapView, TileData};

use crate::facts::Line;
use crate::host_file::HostFile;

/// The map file, read whole.
const MAP_FILE: usize = 8 << 10;
/// The inflated game layer (4 bytes a tile).
const MAP_TILES: usize = 16 << 10;

/// The map's buffers, in `.bss`.
pub struct Buffers {
    file: [u8; MAP_FILE],
    tiles: [u8; MAP_TILES],
}

impl Buffers {
    pub const fn new() -> Self {
        Self { file: [0; MAP_FILE], tiles: [0; MAP_TILES] }
    }
}

/// `items`, `data_items`, `groups`, `layers` and the game layer's size as
/// `inspect` reports them, and `tiles`: the game layer's non-air tiles.
// Never inlined: its frame (the datafile parse's 8 KiB id set among it)
// is then below the painted baseline and exists only for maps.
#[inline(never)]
pub fn facts(mut file: HostFile, bufs: &mut Buffers, inflate: &mut DecompressorOxide) -> Line {
    let mut len = 0;
    while len < MAP_FILE {
        match file.read(&mut bufs.file[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(_) => return Line::error("read"),
        }
    }
    let Ok(df) = DatafileView::parse(&bufs.file[..len]) else { return Line::error("datafile") };
    let Ok(map) = MapView::new(df.clone()) else { return Line::error("map") };
    let Some(game) = map.game_layer() else { return Line::error("no-game-layer") };
    let Ok(index) = usize::try_from(game.data_index()) else { return Line::error("game-data") };
    let Ok(bytes) = df.decompress_with(index, &mut bufs.tiles, inflate) else {
        return Line::error("inflate");
    };
    let tiles = match TileData::from_bytes(game.kind(), bytes) {
        Ok(TileData::Tiles(tiles)) => tiles.iter().filter(|t| t.index != 0).count(),
        _ => return Line::error("tiles"),
    };
    Line::Map {
        items: df.item_count(),
        data_items: df.data_count(),
        groups: map.groups().len(),
        layers: map.layers().len(),
        game: (game.width(), game.height()),
        tiles,
    }
}
