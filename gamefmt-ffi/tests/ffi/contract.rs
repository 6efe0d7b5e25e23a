//! The C ABI's promises on bad arguments: `NULL` pointers, structs that no
//! `*_init`/`*_open` filled, and garbage input give status codes and
//! error offsets, never a crash (the library runs with `panic = "abort"`).

use core::ptr::{null, null_mut};

use gamefmt_ffi::*;

#[test]
fn null_pointers_are_a_status() {
    let mut err = GamefmtError::default();
    // SAFETY: every call gets NULL or pointers to live locals.
    unsafe {
        assert_eq!(
            gamefmt_datafile_open(
                null(),
                4,
                false,
                null_mut(),
                null_mut(),
                0,
                null_mut(),
                &mut err
            ),
            GamefmtStatus::NullPointer
        );
        assert_eq!(err.status, GamefmtStatus::NullPointer);
        assert_eq!(
            gamefmt_th_decode(null_mut(), null(), 0, null_mut(), null_mut()),
            GamefmtStatus::NullPointer
        );
        assert_eq!(
            gamefmt_th_decoder_init(null_mut()),
            GamefmtStatus::NullPointer
        );
        assert_eq!(
            gamefmt_delta_create(
                null_mut(),
                null(),
                null(),
                GamefmtItemSizes::Teeworlds06,
                null_mut(),
                null_mut(),
                null_mut()
            ),
            GamefmtStatus::NullPointer
        );
        gamefmt_builder_free(null_mut());
        gamefmt_builder_clear(null_mut());
    }
}

#[test]
fn unfilled_structs_are_refused() {
    let mut err = GamefmtError::default();
    let df = GamefmtDatafile::default();
    let mut info = GamefmtDatafileInfo::default();
    let mut dec = GamefmtSlpDecoder::default();
    let mut item = GamefmtSlpItem::default();
    // SAFETY: pointers to live locals.
    unsafe {
        assert_eq!(
            gamefmt_datafile_info(&df, &mut info, &mut err),
            GamefmtStatus::NullPointer
        );
        assert_eq!(
            gamefmt_slp_decode(&mut dec, b"{U".as_ptr(), 2, &mut item, &mut err),
            GamefmtStatus::NullPointer
        );
    }
}

#[test]
fn garbage_gives_codes_and_offsets() {
    let mut err = GamefmtError::default();
    let mut df = GamefmtDatafile::default();
    let mut header = GamefmtDemoHeader::default();
    let mut snap = GamefmtSnapshot::default();
    // SAFETY: pointers to live locals and byte strings.
    unsafe {
        let bad = b"DATA\x04\0\0\0";
        let st = gamefmt_datafile_open(
            bad.as_ptr(),
            bad.len(),
            false,
            &mut df,
            null_mut(),
            0,
            null_mut(),
            &mut err,
        );
        assert_eq!(st, GamefmtStatus::Truncated);
        assert_eq!(err.status, st);
        let demo = b"TWDEMO\0\x09";
        let st = gamefmt_demo_header_parse(demo.as_ptr(), demo.len(), &mut header, &mut err);
        assert!((st as i32) < 0, "{st:?}");
        // A snapshot claiming one item at an offset past its data.
        let s: Vec<u8> = [4i32, 1, 64, 0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let st = gamefmt_snapshot_parse(s.as_ptr(), s.len(), &mut snap, &mut err);
        assert!((st as i32) < 0, "{st:?}");
        let message = std::ffi::CStr::from_ptr(err.message.as_ptr());
        assert!(!message.to_bytes().is_empty());
    }
}

#[test]
fn builder_refuses_instead_of_crashing() {
    let mut err = GamefmtError::default();
    let b = gamefmt_builder_new();
    let data = [1i32, 2];
    // SAFETY: `b` is live until freed; `data` is a live array.
    unsafe {
        assert_eq!(
            gamefmt_builder_add(b, 1, 7, data.as_ptr(), 2, &mut err),
            GamefmtStatus::Ok
        );
        assert_eq!(
            gamefmt_builder_add(b, 1, 7, data.as_ptr(), 2, &mut err),
            GamefmtStatus::Corrupt
        );
        assert_eq!(
            gamefmt_builder_add(b, 0x8000, 1, data.as_ptr(), 2, &mut err),
            GamefmtStatus::Corrupt
        );
        assert_eq!(
            gamefmt_builder_add(b, 1, 8, null(), 2, &mut err),
            GamefmtStatus::NullPointer
        );
        gamefmt_builder_free(b);
    }
}
