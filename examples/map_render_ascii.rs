//! Prints a small ASCII picture of a map's game layer: `#` solid, `x`
//! death, `%` unhookable, `.` anything else that is not air, space for air.
//! Large maps are scaled down (each character stands for a block of tiles,
//! showing its most notable tile).
//!
//! ```text
//! cargo run --example map_render_ascii -- path/to/map.map [columns]
//! ```
#![allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use std::io::Write;
use std::process::ExitCode;

use gamefmt::map::{MapView, TILE_AIR, TILE_DEATH, TILE_NOHOOK, TILE_SOLID, TileData};

/// Drawing priority of a game tile (higher wins within a block) and its
/// character.
fn glyph(index: u8) -> (u8, char) {
    match index {
        TILE_DEATH => (4, 'x'),
        TILE_NOHOOK => (3, '%'),
        TILE_SOLID => (2, '#'),
        TILE_AIR => (0, ' '),
        _ => (1, '.'),
    }
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: map_render_ascii MAP_FILE [COLUMNS]");
        return ExitCode::from(2);
    };
    let columns: usize = args
        .next()
        .and_then(|c| c.parse().ok())
        .unwrap_or(100)
        .max(1);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let map = match MapView::parse(&bytes) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let Some(game) = map.game_layer() else {
        eprintln!("{path}: the map has no game layer");
        return ExitCode::FAILURE;
    };
    // The caller owns the buffer the tiles are inflated into.
    let mut buf = vec![0u8; game.buffer_len().unwrap_or(0)];
    let tiles = match game.data_into(&mut buf) {
        Ok(TileData::Tiles(t)) => t,
        Ok(_) => unreachable!("a game layer holds plain tiles"),
        Err(e) => {
            eprintln!("{path}: game layer: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (w, h) = (game.width(), game.height());
    // Block size: characters are about twice as tall as wide.
    let bx = w.div_ceil(columns).max(1);
    let by = (bx * 2).max(1);
    let mut picture = format!("{path}: game layer {w}x{h}, one character per {bx}x{by} tiles\n");
    for y0 in (0..h).step_by(by) {
        let line: String = (0..w)
            .step_by(bx)
            .map(|x0| {
                let mut best = (0, ' ');
                for y in y0..(y0 + by).min(h) {
                    for x in x0..(x0 + bx).min(w) {
                        best = best.max(glyph(tiles[y * w + x].index));
                    }
                }
                best.1
            })
            .collect();
        picture.push_str(line.trim_end());
        picture.push('\n');
    }
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::stdout().write_all(picture.as_bytes());
    ExitCode::SUCCESS
}
