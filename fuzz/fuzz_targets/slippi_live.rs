//! `slippi::live` on arbitrary bytes: the console framing (auto-detected,
//! fed in pieces whose sizes the input picks), every replay byte through
//! `GameFeed`, and the input as a Dolphin packet with its base64 payload.
//! No panic, no hang (every loop makes progress or stops); a replay
//! message re-encoded decodes to the same message.
#![no_main]

use gamefmt::slippi::live::{
    ConsoleDecoder, ConsoleMessage, DolphinMessage, GameFeed, base64, encode_message,
};
use gamefmt::stream::Decoded;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Some((&step, input)) = bytes.split_first() else {
        return;
    };
    let step = usize::from(step) + 1;
    let mut console = ConsoleDecoder::new();
    let mut feed = GameFeed::new();
    let (mut pending, mut replay) = (Vec::new(), Vec::new());
    let mut wire = vec![0u8; 1 << 16];
    for chunk in input.chunks(step) {
        pending.extend_from_slice(chunk);
        let mut used = 0;
        while let Ok(Decoded::Record { record, consumed }) = console.decode(&pending[used..]) {
            assert!(consumed > 0 && consumed <= pending.len() - used);
            used += consumed;
            if let ConsoleMessage::Replay(r) = record {
                let n = encode_message(&record, &mut wire).unwrap();
                let mut again = ConsoleDecoder::with_protocol(gamefmt::slippi::live::Protocol::Framed);
                match again.decode(&wire[..n]) {
                    Ok(Decoded::Record { record: ConsoleMessage::Replay(s), consumed }) => {
                        assert_eq!(consumed, n);
                        assert_eq!((s.pos, s.next_pos, s.force_pos, s.data), (r.pos, r.next_pos, r.force_pos, r.data));
                    }
                    other => panic!("re-encoded replay message: {other:?}"),
                }
            }
            if let Some(data) = record.replay_bytes() {
                replay.extend_from_slice(data);
            }
        }
        pending.drain(..used);
        let mut at = 0;
        let mut steps = 0usize;
        while let Ok(Decoded::Record { consumed, .. }) = feed.decode(&replay[at..]) {
            at += consumed;
            steps += 1;
            // Items that consume nothing (game start and end marks) come
            // at most a few times per byte.
            assert!(steps <= 4 * (at + 2), "GameFeed loops");
        }
        replay.drain(..at);
    }
    let _ = feed.end(replay.len());
    if let Ok(DolphinMessage::GameEvent { payload, .. } | DolphinMessage::MenuEvent { payload }) =
        DolphinMessage::parse(input)
    {
        let mut out = vec![0u8; base64::decoded_len(payload.as_bytes())];
        let _ = base64::decode(payload.as_bytes(), &mut out);
    }
});
