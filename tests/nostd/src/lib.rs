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
