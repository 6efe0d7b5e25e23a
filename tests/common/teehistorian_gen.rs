//! A generator of large, realistic-looking teehistorian recordings made
//! with the crate's writer, for benchmarks and the constant-memory check.
#![allow(
    dead_code,
    clippy::needless_range_loop,
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use gamefmt::teehistorian::{
    Args, CommandLine, ExMessage, Message, PackedInput, TeehistorianWriter,
};

const HEADER: &str = r#"{"comment":"teehistorian@ddnet.tw","version":"2","version_minor":"22","game_uuid":"00000000-0000-4000-8000-0000000be0c4","server_version":"gamefmt generator","map_name":"generated","config":{"sv_max_clients":"64"},"tuning":{}}"#;

/// Writes a recording of about `target` bytes (64 client slots with tees
/// appearing, moving and disappearing, inputs, chat, console commands and
/// EX names) to `sink` in chunks of about 1 MiB, so memory stays small.
/// Returns (bytes, messages).
pub fn generate(target: usize, mut sink: impl FnMut(&[u8])) -> (usize, u64) {
    let mut w = TeehistorianWriter::new(HEADER).unwrap();
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut rng = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut alive = [false; 64];
    let mut has_input = [false; 64];
    let (mut written, mut messages, mut tick) = (0usize, 0u64, 0i32);
    let mut line_buf = [0u8; 16];
    let line = CommandLine::encode(b"say", Args::from_raw(b"hello\0"), &mut line_buf).unwrap();
    while written < target {
        tick += if rng() % 50 == 0 {
            1 + (rng() % 5) as i32
        } else {
            1
        };
        for cid in 0..64 {
            let r = rng();
            let msg = if !alive[cid] {
                if r % 100 != 0 {
                    continue;
                }
                alive[cid] = true;
                Message::PlayerNew {
                    cid: cid as i32,
                    x: (r >> 8) as i32 % 10_000,
                    y: (r >> 24) as i32 % 10_000,
                }
            } else if r % 500 == 0 {
                alive[cid] = false;
                Message::PlayerOld { cid: cid as i32 }
            } else if r % 4 != 0 {
                Message::PlayerDiff {
                    cid: cid as i32,
                    dx: (r >> 8) as i32 % 20 - 10,
                    dy: (r >> 16) as i32 % 20 - 10,
                }
            } else {
                continue;
            };
            w.write(tick, &msg).unwrap();
            messages += 1;
        }
        for cid in 0..64 {
            let r = rng();
            if !alive[cid] || r % 8 != 0 {
                continue;
            }
            let mut v = [0i32; 10];
            v[0] = (r % 3) as i32 - 1;
            v[1] = (r >> 8) as i32 % 200;
            v[2] = (r >> 16) as i32 % 200;
            let v = PackedInput::from_ints(&v);
            let msg = if has_input[cid] {
                Message::InputDiff {
                    cid: cid as i32,
                    diff: v,
                }
            } else {
                has_input[cid] = true;
                Message::InputNew {
                    cid: cid as i32,
                    input: v,
                }
            };
            w.write(tick, &msg).unwrap();
            messages += 1;
        }
        let r = rng();
        if r % 20 == 0 {
            w.write(
                tick,
                &Message::PlayerMessage {
                    cid: 1,
                    data: &[0x28, b'g', b'g', 0, 0],
                },
            )
            .unwrap();
            messages += 1;
        }
        if r % 200 == 1 {
            w.write(
                tick,
                &Message::ConsoleCommand {
                    cid: 3,
                    flags: 8,
                    line,
                },
            )
            .unwrap();
            messages += 1;
        }
        if r % 100 == 2 {
            w.write_ex(
                tick,
                &ExMessage::PlayerName {
                    cid: 5,
                    name: b"generated tee",
                },
            )
            .unwrap();
            messages += 1;
        }
        if w.bytes().len() >= 1 << 20 {
            let chunk = w.take_bytes();
            written += chunk.len();
            sink(&chunk);
        }
    }
    w.write(tick, &Message::Finish).unwrap();
    messages += 1;
    let chunk = w.take_bytes();
    written += chunk.len();
    sink(&chunk);
    (written, messages)
}
