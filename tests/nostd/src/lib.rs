//! Uses each core entry point of gamefmt from a `#![no_std]` crate.
#![no_std]

use core::panic::PanicInfo;

#[panic_handler]
fn panic(_: &PanicInfo<'_>) -> ! {
    loop {}
}

/// Parses a datafile and inflates its first data item into `buf`.
#[unsafe(no_mangle)]
pub extern "C" fn gamefmt_datafile_items(ptr: *const u8, len: usize, buf: *mut u8, cap: usize) -> isize {
    // SAFETY: the caller passes valid, non-overlapping buffers.
    let (bytes, buf) = unsafe {
        (core::slice::from_raw_parts(ptr, len), core::slice::from_raw_parts_mut(buf, cap))
    };
    match gamefmt::datafile::DatafileView::parse(bytes) {
        Ok(map) => {
            let _ = map.decompress_into(0, buf);
            map.item_count() as isize
        }
        Err(_) => -1,
    }
}

/// Parses a map and inflates its game layer into `buf`; returns the number
/// of solid tiles, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn gamefmt_map_solid_tiles(ptr: *const u8, len: usize, buf: *mut u8, cap: usize) -> isize {
    // SAFETY: the caller passes valid, non-overlapping buffers.
    let (bytes, buf) = unsafe {
        (core::slice::from_raw_parts(ptr, len), core::slice::from_raw_parts_mut(buf, cap))
    };
    let Ok(map) = gamefmt::map::MapView::parse(bytes) else {
        return -1;
    };
    match map.game_layer().map(|g| g.data_into(buf)) {
        Some(Ok(gamefmt::map::TileData::Tiles(tiles))) => {
            tiles.iter().filter(|t| t.index == gamefmt::map::TILE_SOLID).count() as isize
        }
        _ => -1,
    }
}

/// Walks every event of a `.slp` file, reassembling the Gecko list into
/// `buf`; returns the number of events, or -1 on a decoding error.
#[unsafe(no_mangle)]
pub extern "C" fn gamefmt_slippi_events(ptr: *const u8, len: usize, buf: *mut u8, cap: usize) -> isize {
    // SAFETY: the caller passes valid, non-overlapping buffers.
    let (bytes, buf) = unsafe {
        (core::slice::from_raw_parts(ptr, len), core::slice::from_raw_parts_mut(buf, cap))
    };
    let mut gecko = gamefmt::slippi::Reassembler::new(buf);
    let mut n: isize = 0;
    for event in gamefmt::slippi::SlippiEventIter::new(bytes) {
        match event {
            Ok(gamefmt::slippi::Event::MessageSplitter(s)) => {
                let _ = gecko.push(&s);
            }
            Ok(_) => {}
            Err(_) => return -1,
        }
        n = n.wrapping_add(1);
    }
    n
}

/// Rebuilds every snapshot of a demo in `buf` (Huffman, packed ints, delta
/// application) and returns the item count of the last one, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn gamefmt_demo_final_items(ptr: *const u8, len: usize, buf: *mut u8, cap: usize) -> isize {
    use gamefmt::demo::{Buffers, DemoView, Frames, MAX_PAYLOAD};
    use gamefmt::zerocopy::FromBytes;
    use gamefmt::zerocopy::little_endian::I32;
    // SAFETY: the caller passes valid, non-overlapping buffers.
    let (bytes, buf) = unsafe {
        (core::slice::from_raw_parts(ptr, len), core::slice::from_raw_parts_mut(buf, cap))
    };
    let Some((scratch, ints)) = buf.split_at_mut_checked(MAX_PAYLOAD.min(cap)) else {
        return -1;
    };
    let ints_len = ints.len() / 4 * 4;
    let Ok(ints) = <[I32]>::mut_from_bytes(&mut ints[..ints_len]) else {
        return -1;
    };
    let third = ints.len() / 3;
    let (payload, rest) = ints.split_at_mut(third);
    let (current, next) = rest.split_at_mut(third);
    let Ok(view) = DemoView::parse(bytes) else {
        return -1;
    };
    let mut frames = Frames::new(&view, Buffers { scratch, payload, current, next });
    let mut items = -1;
    while let Some(frame) = frames.next() {
        match frame {
            Ok(frame) => items = frame.snapshot.item_count() as isize,
            Err(_) => return -1,
        }
    }
    items
}

/// Walks a teehistorian file with the push decoder (as a small target fed
/// from flash or a socket would) and the player state; returns the number
/// of messages, or -1 on an error.
#[unsafe(no_mangle)]
pub extern "C" fn gamefmt_teehistorian_messages(ptr: *const u8, len: usize) -> isize {
    use gamefmt::teehistorian::{Decoded, Decoder, PlayerState};
    // SAFETY: the caller passes a valid buffer.
    let bytes = unsafe { core::slice::from_raw_parts(ptr, len) };
    let mut decoder = Decoder::new();
    let mut players = PlayerState::<64>::new();
    let (mut pos, mut count) = (0usize, 0isize);
    loop {
        match decoder.decode(bytes.get(pos..).unwrap_or_default()) {
            Ok(Decoded::Header { consumed, .. }) => pos += consumed,
            Ok(Decoded::Record { record, consumed }) => {
                let _ = players.apply(&record.message);
                pos += consumed;
                count += 1;
            }
            Ok(Decoded::NeedMore | Decoded::Finished) => return count,
            Err(_) => return -1,
        }
    }
}
