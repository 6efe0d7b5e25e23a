//! Every named UUID constant in the crate is the version 3 UUID of its name
//! in the Teeworlds namespace, recomputed here rather than trusted.
//!
//! Needs the `verify-uuids` feature (it enables the `uuid` crate's `v3`
//! hashing, which the library itself never needs):
//! `cargo test --features verify-uuids --test integration uuids::`.

use gamefmt::uuid::Uuid;
use gamefmt::{datafile, demo, netmsg, snapshot, teehistorian::uuids};

fn v3(name: &str) -> Uuid {
    Uuid::new_v3(&uuids::TEEWORLDS_NAMESPACE, name.as_bytes())
}

fn check(table: &[(&str, Uuid)]) {
    for &(name, constant) in table {
        assert_eq!(v3(name), constant, "{name}");
    }
}

#[test]
fn teehistorian_ex_uuids() {
    assert_eq!(v3("teehistorian@ddnet.tw"), uuids::TEEHISTORIAN);
    let table: Vec<(&str, Uuid)> = uuids::NAMES.iter().map(|&(u, n)| (n, u)).collect();
    assert!(table.len() >= 21, "every EX message of spec §2.4");
    check(&table);
}

#[test]
fn net_message_uuids() {
    let table: Vec<(&str, Uuid)> = netmsg::uuids::NAMES
        .iter()
        .map(|&(u, _, n)| (n, u))
        .collect();
    assert_eq!(
        table.len(),
        44,
        "24 game and 20 system messages of DDNet 28baa427"
    );
    check(&table);
}

#[test]
fn map_item_uuids() {
    check(&[
        ("mapitemtype-test@ddnet.tw", datafile::UUID_TEST),
        (
            "mapitemtype-automapper-config@ddnet.tw",
            datafile::UUID_AUTOMAPPER_CONFIG,
        ),
        (
            "mapitemtype-envpoints-bezier@ddnet.tw",
            datafile::UUID_ENVPOINTS_BEZIER,
        ),
    ]);
}

#[test]
fn demo_extension_uuid() {
    check(&[("demoitem-sha256@ddnet.tw", demo::SHA256_EXTENSION)]);
}

#[test]
fn net_object_uuids() {
    use snapshot as s;
    let table = [
        ("character@netobj.ddnet.tw", s::UUID_DDNET_CHARACTER),
        ("player@netobj.ddnet.tw", s::UUID_DDNET_PLAYER),
        ("gameinfo@netobj.ddnet.tw", s::UUID_GAME_INFO_EX),
        ("projectile@netobj.ddnet.tw", s::UUID_DDRACE_PROJECTILE),
        ("laser@netobj.ddnet.tw", s::UUID_DDNET_LASER),
        ("ddnet-projectile@netobj.ddnet.tw", s::UUID_DDNET_PROJECTILE),
        ("pickup@netobj.ddnet.tw", s::UUID_DDNET_PICKUP),
        (
            "spectator-info@netobj.ddnet.org",
            s::UUID_DDNET_SPECTATOR_INFO,
        ),
        ("spectator-count@netobj.ddnet.org", s::UUID_SPECTATOR_COUNT),
        ("birthday@netevent.ddnet.org", s::UUID_EVENT_BIRTHDAY),
        ("finish@netevent.ddnet.org", s::UUID_EVENT_FINISH),
        ("spec-char@netobj.ddnet.tw", s::UUID_SPEC_CHAR),
        ("switch-state@netobj.ddnet.tw", s::UUID_SWITCH_STATE),
        ("entity-ex@netobj.ddnet.tw", s::UUID_ENTITY_EX),
        ("map-best-time@netobj.ddnet.org", s::UUID_MAP_BEST_TIME),
        (
            "map-sound-world@netevent.ddnet.org",
            s::UUID_EVENT_MAP_SOUND_WORLD,
        ),
        ("my-own-object@heinrich5991.de", s::UUID_MY_OWN_OBJECT),
        ("my-own-event@heinrich5991.de", s::UUID_MY_OWN_EVENT),
    ];
    // The table above names every constant the module lists.
    assert_eq!(table.len(), s::DDNET_NET_OBJECTS.len());
    for (_, u) in s::DDNET_NET_OBJECTS {
        assert!(table.iter().any(|(_, t)| t == u), "{u} not checked");
    }
    check(&table);
}
