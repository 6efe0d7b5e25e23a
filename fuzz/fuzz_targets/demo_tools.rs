//! The demo tools on arbitrary bytes (seeded with the corpus demos): no
//! panic, no hang; what `repair` makes parses, decodes to its end without
//! an error and is repaired to itself; what `cut` and `strip_map` make
//! parses, and a cut decodes to its end.
#![no_main]

use gamefmt::demo::{self, DemoView, Frames, OwnedBuffers};
use gamefmt::stream::End;
use libfuzzer_sys::fuzz_target;

/// Decodes every frame of `bytes`, which must parse; whether no error
/// stopped it.
fn decodes(bytes: &[u8], owned: &mut OwnedBuffers) -> bool {
    let view = DemoView::parse(bytes).expect("a tool's output parses");
    let mut frames = Frames::new(&view, owned.buffers());
    while let Some(frame) = frames.next() {
        if frame.is_err() {
            return false;
        }
    }
    frames.end() == End::Complete
}

fuzz_target!(|bytes: &[u8]| {
    let mut owned = OwnedBuffers::new();
    if let Ok((fixed, _)) = demo::repair(bytes) {
        assert!(decodes(&fixed, &mut owned), "a repaired demo decodes");
        let (again, report) = demo::repair(&fixed).expect("repairs again");
        assert_eq!(again, fixed, "repair is idempotent");
        assert_eq!((report.dropped_bytes, report.dropped_leading), (0, 0));
    }
    if let Ok(stripped) = demo::strip_map(bytes) {
        DemoView::parse(&stripped).expect("a stripped demo parses");
    }
    let tick = bytes.get(..4).map_or(0, |b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]) & 0xFFFF);
    if let Ok(part) = demo::cut(bytes, tick, tick.saturating_add(300)) {
        assert!(decodes(&part, &mut owned), "a cut decodes");
    }
});
