//! netmsg::decode on arbitrary bytes, both protocols: no panic; every
//! decoded message, its strings shown raw (Debug) and sanitised (Display).
#![no_main]

use std::hint::black_box;

use gamefmt::Protocol;
use gamefmt::netmsg::{self, Game06, NetMsg};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    for protocol in [Protocol::V06, Protocol::V07] {
        if let Ok(msg) = netmsg::decode(protocol, bytes) {
            black_box(format!("{msg:?}"));
            if let NetMsg::Game06(Game06::SvChat { message, .. } | Game06::ClSay { message, .. }) = msg {
                black_box(message.to_string());
                black_box(message.to_str());
            }
        }
    }
});
