//! The core's allocation-free paths stay allocation-free through the C
//! ABI: push decoding (teehistorian, Slippi, demo chunks with snapshot
//! reconstruction), datafile open and inflate into a caller buffer, and,
//! after warm-up, snapshot building, delta creation and application. Each
//! walk must also reach the end of its sample (a walk that stops early
//! would allocate nothing too).
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use core::ptr::null_mut;

use crate::counting_alloc::allocations_during;
use gamefmt_ffi::*;

#[test]
fn teehistorian_push_decoding() {
    let file = gamefmt::teehistorian::SAMPLE;
    let mut dec = GamefmtThDecoder::default();
    let mut item = GamefmtThItem::default();
    let (status, n) = allocations_during(|| {
        let mut pos = 0;
        // SAFETY: pointers to live locals and into `file`.
        unsafe {
            gamefmt_th_decoder_init(&mut dec);
            loop {
                let rest = &file[pos..];
                let st =
                    gamefmt_th_decode(&mut dec, rest.as_ptr(), rest.len(), &mut item, null_mut());
                if st != GamefmtStatus::Ok {
                    return st;
                }
                pos += item.consumed;
            }
        }
    });
    assert_eq!(status, GamefmtStatus::Done, "the sample ends with FINISH");
    assert_eq!(n, 0);
}

#[test]
fn slippi_push_decoding() {
    let file = gamefmt::slippi::SAMPLE;
    let mut dec = GamefmtSlpDecoder::default();
    let mut item = GamefmtSlpItem::default();
    let mut end = GamefmtEnd::default();
    let (events, n) = allocations_during(|| {
        let (mut pos, mut events) = (0, 0);
        // SAFETY: pointers to live locals and into `file`.
        unsafe {
            gamefmt_slp_decoder_init(&mut dec);
            loop {
                let rest = &file[pos..];
                let st =
                    gamefmt_slp_decode(&mut dec, rest.as_ptr(), rest.len(), &mut item, null_mut());
                if st != GamefmtStatus::Ok {
                    gamefmt_slp_end(&dec, rest.len(), &mut end);
                    return events;
                }
                pos += item.consumed;
                events += usize::from(item.kind == GamefmtSlpItemKind::Event);
            }
        }
    });
    assert_eq!(end.kind, GamefmtEndKind::Complete);
    assert!(events > 0);
    assert_eq!(n, 0);
}

#[test]
fn datafile_open_and_inflate() {
    let file = gamefmt::datafile::SAMPLE;
    let mut df = GamefmtDatafile::default();
    let mut info = GamefmtDatafileInfo::default();
    let mut buf = vec![0u8; 1 << 20];
    let (inflated, n) = allocations_during(|| {
        let mut inflated = 0;
        // SAFETY: pointers to live locals, into `file` and `buf`.
        unsafe {
            let st = gamefmt_datafile_open(
                file.as_ptr(),
                file.len(),
                false,
                &mut df,
                null_mut(),
                0,
                null_mut(),
                null_mut(),
            );
            assert_eq!(st, GamefmtStatus::Ok);
            gamefmt_datafile_info(&df, &mut info, null_mut());
            for i in 0..info.data_items {
                let mut written = 0;
                let st = gamefmt_datafile_data(
                    &df,
                    i,
                    buf.as_mut_ptr(),
                    buf.len(),
                    &mut written,
                    null_mut(),
                );
                assert_eq!(st, GamefmtStatus::Ok);
                inflated += 1;
            }
        }
        inflated
    });
    assert!(inflated > 0);
    assert_eq!(inflated, info.data_items);
    assert_eq!(n, 0);
}

/// A version 5 demo without a map (the `demo` module's example): a
/// keyframe at tick 100 with an empty snapshot, then tick 101.
fn tiny_demo() -> Vec<u8> {
    let field = |s: &[u8], n: usize| {
        let mut f = s.to_vec();
        f.resize(n, 0);
        f
    };
    let mut demo = b"TWDEMO\0\x05".to_vec();
    demo.extend(field(b"0.6 626fce9a778df4d4", 64));
    demo.extend(field(b"dm1", 64));
    demo.extend([0; 8]);
    demo.extend(field(b"client", 8));
    demo.extend(1i32.to_be_bytes());
    demo.extend(field(b"2026-01-01_00-00-00", 20));
    demo.extend([0; 260]);
    demo.extend([0xC0, 0, 0, 0, 100, 0x23, 0x2B, 0x6E, 0x00, 0xA1]);
    demo
}

#[test]
fn demo_chunks_and_reconstruction() {
    let file = tiny_demo();
    let mut header = GamefmtDemoHeader::default();
    let mut info = GamefmtDemoInfo {
        version: 0,
        net_version: [0; 64],
        map_name: [0; 64],
        kind: [0; 8],
        timestamp: [0; 24],
        map_size: 0,
        map_crc: 0,
        length_seconds: 0,
        marker_count: 0,
        markers: [0; 64],
        has_map_sha256: false,
        map_sha256: [0; 32],
        map_offset: 0,
        chunks_offset: 0,
    };
    let mut dec = GamefmtDemoDecoder::default();
    let mut rec = GamefmtReconstructor::default();
    let mut workspace = vec![0u8; GAMEFMT_RECONSTRUCTOR_WORKSPACE];
    let mut chunk = GamefmtDemoChunk::default();
    let mut snap = GamefmtSnapshot::default();
    let ((ticks, snapshot), n) = allocations_during(|| {
        let mut ticks = [0; 4];
        let mut n_ticks = 0;
        // SAFETY: pointers to live locals, into `file` and `workspace`.
        unsafe {
            assert_eq!(
                gamefmt_demo_header_parse(file.as_ptr(), file.len(), &mut header, null_mut()),
                GamefmtStatus::Ok
            );
            gamefmt_demo_header_info(&header, &mut info, null_mut());
            gamefmt_demo_decoder_init(&mut dec, &header, null_mut());
            let st = gamefmt_reconstructor_init(
                &mut rec,
                &header,
                workspace.as_mut_ptr(),
                workspace.len(),
                null_mut(),
            );
            assert_eq!(st, GamefmtStatus::Ok);
            let mut pos = usize::try_from(info.chunks_offset).unwrap();
            loop {
                let rest = &file[pos..];
                if gamefmt_demo_decode(&mut dec, rest.as_ptr(), rest.len(), &mut chunk, null_mut())
                    != GamefmtStatus::Ok
                {
                    break;
                }
                pos += chunk.consumed;
                if chunk.kind == GamefmtDemoChunkKind::Tick {
                    ticks[n_ticks] = chunk.tick;
                    n_ticks += 1;
                }
                assert_eq!(
                    gamefmt_reconstructor_feed(&mut rec, &chunk, null_mut()),
                    GamefmtStatus::Ok
                );
            }
            let snapshot = gamefmt_reconstructor_snapshot(&rec, &mut snap, null_mut());
            (ticks[..n_ticks].to_vec(), snapshot)
        }
    });
    assert_eq!(ticks, [100, 101]);
    assert_eq!(snapshot, GamefmtStatus::Ok);
    assert_eq!(n, 1, "only the test's own copy of the ticks");
}

#[test]
fn snapshot_building_and_deltas_after_warm_up() {
    let b = gamefmt_builder_new();
    let c = gamefmt_delta_creator_new();
    let mut prev_bytes = Vec::new();
    let mut out = vec![0u8; 4 * GAMEFMT_MAX_SNAPSHOT_INTS];
    let (mut prev, mut next, mut applied) = (
        GamefmtSnapshot::default(),
        GamefmtSnapshot::default(),
        GamefmtSnapshot::default(),
    );
    let mut info = GamefmtSnapshotInfo {
        items: 0,
        data_size: 0,
        checksum: 0,
        bytes: core::ptr::null(),
        len: 0,
    };
    // One tick: 64 character items (type 9, 22 ints in 0.6) at `x + tick`.
    let tick = |t: i32, b: *mut GamefmtBuilder, next: &mut GamefmtSnapshot| {
        let mut ints = [0i32; 22];
        // SAFETY: `b` is live; pointers to live locals.
        unsafe {
            gamefmt_builder_clear(b);
            for id in 0..64u16 {
                ints[1] = i32::from(id) * 32 + t;
                assert_eq!(
                    gamefmt_builder_add(b, 9, id, ints.as_ptr(), 22, null_mut()),
                    GamefmtStatus::Ok
                );
            }
            gamefmt_builder_snapshot(b, next, null_mut());
        }
    };
    tick(0, b, &mut next);
    // SAFETY: pointers to live locals; `prev_bytes` outlives `prev`.
    unsafe {
        gamefmt_snapshot_info(&next, &mut info, null_mut());
        prev_bytes.extend_from_slice(core::slice::from_raw_parts(info.bytes, info.len));
        gamefmt_snapshot_parse(prev_bytes.as_ptr(), prev_bytes.len(), &mut prev, null_mut());
    }
    let run =
        |t: i32, next: &mut GamefmtSnapshot, applied: &mut GamefmtSnapshot, out: &mut [u8]| {
            tick(t, b, next);
            let (mut delta, mut len) = (core::ptr::null(), 0);
            // SAFETY: live builder/creator, pointers to live locals.
            unsafe {
                let st = gamefmt_delta_create(
                    c,
                    &prev,
                    next,
                    GamefmtItemSizes::Teeworlds06,
                    &mut delta,
                    &mut len,
                    null_mut(),
                );
                assert_eq!(st, GamefmtStatus::Ok);
                let st = gamefmt_delta_apply(
                    &prev,
                    delta,
                    len,
                    GamefmtItemSizes::Teeworlds06,
                    out.as_mut_ptr(),
                    out.len(),
                    applied,
                    null_mut(),
                );
                assert_eq!(st, GamefmtStatus::Ok);
            }
        };
    run(1, &mut next, &mut applied, &mut out); // warm-up
    let ((), n) = allocations_during(|| run(2, &mut next, &mut applied, &mut out));
    let (mut a, mut want) = (info, info);
    // SAFETY: pointers to live locals.
    unsafe {
        gamefmt_snapshot_info(&applied, &mut a, null_mut());
        gamefmt_snapshot_info(&next, &mut want, null_mut());
        assert_eq!(
            core::slice::from_raw_parts(a.bytes, a.len),
            core::slice::from_raw_parts(want.bytes, want.len),
            "the delta applied to the old snapshot gives the new one"
        );
        gamefmt_builder_free(b);
        gamefmt_delta_creator_free(c);
    }
    assert_eq!(n, 0);
}
