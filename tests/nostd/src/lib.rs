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

/// Walks a teehistorian file with the push decoder through a 4 KiB
/// buffer (as a small target fed from flash or a socket would; a longer
/// header comes in pieces) and the player state; returns the number of
/// messages, or -1 on an error or a message longer than the buffer.
#[unsafe(no_mangle)]
pub extern "C" fn gamefmt_teehistorian_messages(ptr: *const u8, len: usize) -> isize {
    use gamefmt::stream::Decoded;
    use gamefmt::teehistorian::{Decoder, Item, PlayerState};
    // SAFETY: the caller passes a valid buffer.
    let bytes = unsafe { core::slice::from_raw_parts(ptr, len) };
    let mut buf = [0u8; 4096];
    let (mut start, mut filled, mut fed) = (0usize, 0usize, 0usize);
    let mut decoder = Decoder::new();
    let mut players = PlayerState::<64>::new();
    let mut count = 0isize;
    loop {
        let input = buf.get(start..filled).unwrap_or_default();
        let need_more = match decoder.decode(input) {
            Ok(Decoded::Record { record, consumed }) => {
                if let Item::Message(r) = record {
                    let _ = players.apply(&r.message);
                    count += 1;
                }
                start += consumed;
                false
            }
            Ok(Decoded::NeedMore { .. }) => true,
            Ok(Decoded::Done { .. }) => return count,
            Err(_) => return -1,
        };
        if !need_more {
            continue;
        }
        buf.copy_within(start..filled, 0);
        filled -= start;
        start = 0;
        if filled == buf.len() {
            match decoder.decode_piece(&buf) {
                Ok(Some((_, consumed))) => start = consumed,
                _ => return -1,
            }
        } else if fed == bytes.len() {
            return count;
        } else {
            let n = (buf.len() - filled).min(bytes.len() - fed);
            buf[filled..filled + n].copy_from_slice(&bytes[fed..fed + n]);
            filled += n;
            fed += n;
        }
    }
}
