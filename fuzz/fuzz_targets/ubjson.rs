//! The UBJSON reader and Metadata on arbitrary bytes: no panic, no hang;
//! `value_len` and `parse_value` agree on the length of what parses.
#![no_main]

use gamefmt::slippi::Metadata;
use gamefmt::slippi::ubjson::{parse_value, value_len};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let parsed = parse_value(bytes);
    let len = value_len(bytes);
    assert_eq!(
        parsed.as_ref().ok().map(|(_, n)| *n),
        len.as_ref().ok().copied()
    );
    assert_eq!(parsed.is_ok(), len.is_ok(), "{parsed:?} / {len:?}");
    if let Ok((v, _)) = parsed {
        gamefmt_fuzz::ubjson::walk(v);
    }
    if let Ok(m) = Metadata::parse(bytes) {
        gamefmt_fuzz::slippi::touch_metadata(&m);
    }
});
