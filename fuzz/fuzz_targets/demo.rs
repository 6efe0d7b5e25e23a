//! DemoView, the chunk iterator and snapshot reconstruction on arbitrary
//! bytes: no panic, no hang; the std Reader yields the same chunks.
#![no_main]

use gamefmt::demo::{DemoView, Frames, OwnedBuffers, Reader};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(view) = DemoView::parse(bytes) else {
        return;
    };
    let _ = view.map();
    let mut owned = OwnedBuffers::new();
    let mut frames = Frames::new(&view, owned.buffers());
    while let Some(frame) = frames.next() {
        match frame {
            Ok(f) => {
                let _ = f.snapshot.checksum();
            }
            Err(_) => break,
        }
    }
    let mut reader = Reader::new(bytes).unwrap();
    let mut chunks = view.chunks();
    loop {
        let a = chunks.next().map(|c| c.ok());
        let b = reader.next().map(|c| c.ok());
        assert_eq!(a, b);
        if !matches!(a, Some(Some(_))) {
            break;
        }
    }
});
