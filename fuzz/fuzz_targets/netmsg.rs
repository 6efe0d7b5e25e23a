//! netmsg::decode on arbitrary bytes, both protocols: no panic; every
//! decoded message, its strings shown raw (Debug) and sanitised (Display).
//! The same bytes are also tried as the payload of every message kind
//! DDNet defines (`netmsg::KINDS`; extended ones after their UUID), so
//! that each generated decoder sees every input.
#![no_main]

use std::hint::black_box;

use gamefmt::Protocol;
use gamefmt::netmsg::{self, Game06, KINDS, NetMsg, uuids};
use libfuzzer_sys::fuzz_target;

fn check(protocol: Protocol, bytes: &[u8]) {
    if let Ok(msg) = netmsg::decode(protocol, bytes) {
        black_box(format!("{msg:?}"));
        black_box((msg.name(), msg.is_known()));
        if let NetMsg::Game06(Game06::SvChat { message, .. } | Game06::ClSay { message, .. }) = msg {
            black_box(message.to_string());
            black_box(message.to_str());
        }
    }
}

fuzz_target!(|bytes: &[u8]| {
    for protocol in [Protocol::V06, Protocol::V07] {
        check(protocol, bytes);
    }
    let mut msg = Vec::with_capacity(bytes.len() + 17);
    for kind in &KINDS {
        msg.clear();
        // Ids below 32: `id << 1 | system` is one packed-int byte.
        msg.push(u8::try_from(kind.id << 1 | i32::from(kind.system)).unwrap_or(0));
        if kind.protocol.is_none() {
            let Some(&(uuid, ..)) = uuids::NAMES.iter().find(|n| n.1 == kind.name) else {
                continue;
            };
            msg.extend_from_slice(uuid.as_bytes());
        }
        msg.extend_from_slice(bytes);
        check(kind.protocol.unwrap_or(Protocol::V06), &msg);
    }
});
