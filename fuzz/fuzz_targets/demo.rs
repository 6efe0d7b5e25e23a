//! DemoView, the chunk iterator and snapshot reconstruction on arbitrary
//! bytes: no panic, no hang; the std Reader yields the same header, map
//! and chunks.
#![no_main]

use gamefmt::demo::{DemoView, Frames, Item, OwnedBuffers, Reader};
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
    let mut reader = Reader::new(bytes);
    let mut map = Vec::new();
    while map.len() < view.map_data().len() || reader.header().is_none() {
        match reader.next() {
            Some(Ok(Item::Header { bytes: h })) => assert_eq!(h, &bytes[..view.header().map_offset()]),
            Some(Ok(Item::MapPiece { bytes, .. })) => map.extend_from_slice(bytes),
            // A version 6 header is decided by the 16 bytes after its
            // timeline markers (the extension's UUID, or not): a file that
            // ends while they match the UUID so far ends cut in the header.
            None => {
                let h = view.header();
                assert!(reader.header().is_none() && h.version() == 6 && h.map_sha256().is_none());
                assert!(bytes.len() < h.map_offset() + 16);
                return;
            }
            other => panic!("{other:?} before the chunks"),
        }
    }
    assert_eq!((reader.header(), &map[..]), (Some(view.header()), view.map_data()));
    let mut chunks = view.chunks();
    loop {
        let a = chunks.next().map(|c| c.ok());
        let b = reader.next().map(|c| c.ok().map(|item| match item {
            Item::Chunk(chunk) => chunk,
            other => panic!("{other:?} among the chunks"),
        }));
        assert_eq!(a, b);
        if !matches!(a, Some(Some(_))) {
            break;
        }
    }
});
