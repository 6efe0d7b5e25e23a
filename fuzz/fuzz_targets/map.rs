//! MapView on arbitrary bytes: no panic, no hang; every typed view, data
//! item, tile/quad/sound layer and string reads or fails cleanly.
#![no_main]

use gamefmt::map::MapView;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(map) = MapView::parse(bytes) else {
        return;
    };
    let mut buf = vec![0u8; 1 << 20];
    gamefmt_fuzz::map::walk(&map, &mut buf);
});
