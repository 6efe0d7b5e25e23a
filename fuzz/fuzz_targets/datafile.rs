//! DatafileView on arbitrary bytes: no panic; every data item inflates or
//! fails cleanly; what parses, written back by DatafileWriter, reads back as
//! the same items and data.
#![no_main]

use gamefmt::datafile::{DatafileView, DatafileWriter, WriteVersion};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(map) = DatafileView::parse(bytes) else {
        return;
    };
    let mut buf = vec![0u8; 1 << 20];
    let mut writer = DatafileWriter::new();
    let mut data = Vec::new();
    for i in 0..map.data_count() {
        let inflated = map.decompress_into(i, &mut buf).ok().map(<[u8]>::to_vec);
        data.push(inflated);
    }
    for item in map.items() {
        let ints: Vec<i32> = item.data().iter().map(|v| v.get()).collect();
        let _ = map.type_uuid(item.type_id());
        // Lookups by id find the first item with that id.
        let first = map.find_item(item.type_id(), item.id()).unwrap();
        assert!(first.offset() <= item.offset());
        // As read: files with duplicate ids (a quirk the view accepts) too.
        writer
            .add_duplicate_item(item.type_id(), item.id(), &ints)
            .unwrap();
    }
    // Round trip only when every data item inflated (empty ones included:
    // the writer stores them as the 0.6 editor did).
    if data.iter().any(Option::is_none) {
        return;
    }
    for d in data.iter().flatten() {
        writer.add_data(d);
    }
    let written = writer.finish(WriteVersion::V4).unwrap();
    let back = DatafileView::parse(&written).unwrap();
    assert_eq!(back.item_count(), map.item_count());
    for t in map.item_types() {
        let a: Vec<_> = map
            .items_of_type(t.type_id)
            .map(|i| (i.id(), i.data()))
            .collect();
        let b: Vec<_> = back
            .items_of_type(t.type_id)
            .map(|i| (i.id(), i.data()))
            .collect();
        assert_eq!(a, b);
    }
    for (i, d) in data.iter().flatten().enumerate() {
        assert_eq!(&back.decompress(i).unwrap(), d);
    }
});
