//! SnapshotView and DeltaView on arbitrary ints: no panic (every item
//! typed as a 0.6 and a 0.7 object too); a delta that
//! parses applies or fails cleanly (into a caller buffer and into a Vec,
//! with the same outcome); a snapshot that parses, rebuilt by
//! SnapshotBuilder, reads back the same; create_delta → apply gives it back.
#![no_main]

use gamefmt::snapshot::{
    DeltaView, ITEM_SIZES_06, ITEM_SIZES_07, SnapshotBuilder, SnapshotView, apply, apply_to_vec,
    create_delta,
};
use gamefmt::Protocol;
use gamefmt::snapshot::objects::Object;
use libfuzzer_sys::fuzz_target;
use std::hint::black_box;
use gamefmt::zerocopy::little_endian::I32;

fuzz_target!(|bytes: &[u8]| {
    // First byte: where the snapshot ends and the delta starts.
    let Some((&split, rest)) = bytes.split_first() else {
        return;
    };
    let split = (usize::from(split) * 4).min(rest.len() & !3);
    let (snap, delta) = rest.split_at(split);
    let delta = &delta[..delta.len() & !3];
    let base = SnapshotView::parse(snap);
    if let Ok(base) = &base {
        let mut b = SnapshotBuilder::new();
        let mut ok = true;
        for item in base.items() {
            for protocol in [Protocol::V06, Protocol::V07] {
                black_box(format!("{:?}", Object::parse(protocol, base, &item)));
            }
            let ints: Vec<i32> = item.data().iter().map(|v| v.get()).collect();
            ok &= b.add(item.type_id(), item.id(), &ints).is_ok();
        }
        if ok {
            let again = b.finish();
            let again = SnapshotView::parse(&again).unwrap();
            assert_eq!(again.checksum(), base.checksum());
            assert_eq!(again.item_count(), base.item_count());
        }
    }
    for sizes in [ITEM_SIZES_06, ITEM_SIZES_07] {
        let Ok(d) = DeltaView::parse(delta, sizes) else {
            continue;
        };
        assert_eq!(d.items().count(), d.update_count());
        let Ok(base) = &base else { continue };
        let mut out = vec![I32::ZERO; gamefmt::snapshot::MAX_SNAPSHOT_INTS];
        let applied = apply(base, &d, &mut out).map(|v| v.as_ints().to_vec());
        let vec = apply_to_vec(base, &d);
        assert_eq!(applied.is_ok(), vec.is_ok());
        let Ok(next) = vec else { continue };
        let next = SnapshotView::parse(&next).unwrap();
        if let Ok(redo) = create_delta(base, &next, sizes) {
            let redo = DeltaView::parse(&redo, sizes).unwrap();
            let back = apply_to_vec(base, &redo).unwrap();
            let back = SnapshotView::parse(&back).unwrap();
            assert_eq!(back.item_count(), next.item_count());
            assert_eq!(back.checksum(), next.checksum());
            for item in next.items() {
                assert_eq!(
                    back.find_key(item.key()).map(|i| i.data()),
                    Some(item.data())
                );
            }
        }
    }
});
