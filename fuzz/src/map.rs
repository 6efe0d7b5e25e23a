//! Everything `MapView` offers, read once.

use gamefmt::map::{Layer, MapView};

use crate::touch;

/// Reads every part of the map (items, inflated data, strings) into `buf`.
pub fn walk(map: &MapView<'_>, buf: &mut [u8]) {
    if let Some(info) = map.info() {
        touch(info.author(buf).is_ok());
        touch(info.settings(buf).map(Iterator::count));
    }
    for image in map.images() {
        touch(image.pixels_into(buf).is_ok());
        touch(image.name(buf).is_ok());
        touch(image.pixel_len());
    }
    for env in map.envelopes() {
        touch(env.name().map(|n| n.decode()));
        touch(env.points().map(Iterator::count));
    }
    touch(map.env_points().count());
    touch((
        map.env_point(0),
        map.env_point(usize::MAX),
        map.env_point_count(),
    ));
    for group in map.groups() {
        touch((group.clipping(), group.name(), group.extra()));
        for layer in group.layers() {
            match layer {
                Layer::Tiles(t) => {
                    touch(t.data_into(buf).is_ok());
                    touch(t.tiles_into(buf).is_ok());
                    touch(t.data_to_vec().is_ok());
                    touch((t.buffer_len(), t.extra(), t.tile_count()));
                }
                Layer::Quads(q) => touch(q.quads_into(buf).is_ok()),
                Layer::Sounds(s) => touch(s.sources_into(buf).is_ok()),
                Layer::Unknown(_) => {}
            }
        }
    }
    touch((map.layer(0), map.layer(usize::MAX), map.group(usize::MAX)));
    touch(map.game_layer().map(|t| t.tiles_into(buf).is_ok()));
    for sound in map.sounds() {
        touch(sound.data_into(buf).is_ok());
    }
    touch(map.automapper_configs().count());
    for i in [-1, 0, 1, i32::MAX] {
        touch(map.string(i, buf).is_ok());
    }
}
