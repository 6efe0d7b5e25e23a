//! Every real map in the corpus, decoded completely and compared with facts
//! computed by an independent reader (`maps.expected.jsonl`) and with the
//! item/data counts noted in `SOURCES.md`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use crate::common;

use gamefmt::ErrorKind;
use gamefmt::datafile::{DatafileView, ITEMTYPE_EX, UUID_AUTOMAPPER_CONFIG};

/// `"datafile v4, 39 items/36 data"` notes from SOURCES.md, by file name.
fn sources_counts(text: &str) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let cols: Vec<&str> = line.split('|').map(str::trim).collect();
        if cols.len() < 10 || !cols[1].starts_with("maps/") {
            continue;
        }
        let notes = cols[9];
        let Some(rest) = notes.strip_prefix("datafile v4, ") else {
            continue;
        };
        let counts = rest.split(';').next().unwrap();
        let (items, data) = counts.split_once(" items/").unwrap();
        let data = data.trim_end_matches(" data");
        out.push((
            cols[1].trim_start_matches("maps/").to_string(),
            items.parse().unwrap(),
            data.parse().unwrap(),
        ));
    }
    out
}

#[test]
fn corpus_maps_match_sources_counts() {
    let test = "corpus_maps_match_sources_counts";
    let (Some(corpus), Some(sources)) = (
        common::corpus_dir(test),
        common::corpus_text(test, "teeworlds/SOURCES.md"),
    ) else {
        return;
    };
    let counts = sources_counts(&sources);
    assert!(
        counts.len() >= 50,
        "parsed only {} SOURCES.md rows",
        counts.len()
    );
    for (name, items, data) in counts {
        let bytes = std::fs::read(corpus.join("teeworlds/maps").join(&name)).unwrap();
        match DatafileView::parse(&bytes) {
            Ok(view) => {
                assert_eq!(view.version(), 4, "{name}");
                assert_eq!(
                    (view.item_count(), view.data_count()),
                    (items, data),
                    "{name}"
                );
            }
            Err(e) => {
                // The one malformed map: its header counts do not match its length.
                assert_eq!(name, "ddnet-map-lib__tests__TestOut.map", "{name}: {e}");
                assert_eq!(
                    e.kind,
                    ErrorKind::Corrupt("header sizes do not match the file length")
                );
                assert_eq!(e.offset, 8);
            }
        }
    }
}

#[test]
fn uuid_item_types_resolve_on_real_maps() {
    let Some(maps) = common::corpus_files("uuid_item_types_resolve", "teeworlds/maps", ".map")
    else {
        return;
    };
    let Some(learn) = common::named(
        "uuid_item_types_resolve",
        &maps,
        "ddnet__data__maps__LearnToPlay.map",
    ) else {
        return;
    };
    let view = DatafileView::parse(learn).unwrap();
    let t = view.type_for_uuid(&UUID_AUTOMAPPER_CONFIG).unwrap();
    assert_eq!(t, 0xFFFE, "DDNet hands out extended types from 0xFFFE down");
    assert_eq!(view.type_uuid(t), Some(UUID_AUTOMAPPER_CONFIG));
    let configs: Vec<_> = view.items_of_uuid(&UUID_AUTOMAPPER_CONFIG).collect();
    assert!(!configs.is_empty());
    // 6 ints: version, group, layer, config, seed, flags.
    assert!(configs.iter().all(|i| i.data().len() == 6));

    // Tsunami (0.7) carries two identical 0xFFFF items: tolerated.
    let tsunami = &maps
        .iter()
        .find(|(n, _)| n == "ddnet__data__maps7__Tsunami.map")
        .unwrap()
        .1;
    let view = DatafileView::parse(tsunami).unwrap();
    let ex: Vec<_> = view.items_of_type(ITEMTYPE_EX).collect();
    assert_eq!(ex.len(), 2);
    assert_eq!(ex[0].id(), ex[1].id());
    assert_eq!(ex[0].data(), ex[1].data());
    assert_eq!(view.type_uuid(ex[0].id()), Some(UUID_AUTOMAPPER_CONFIG));
}

#[test]
fn old_v4_size_quirk_is_accepted() {
    let Some(maps) = common::corpus_files("old_v4_size_quirk", "teeworlds/maps", ".map") else {
        return;
    };
    let Some(dm7) = common::named("old_v4_size_quirk", &maps, "ddnet__data__maps__dm7.map") else {
        return;
    };
    let num_data = i32::from_le_bytes(dm7[24..28].try_into().unwrap());
    let size = i32::from_le_bytes(dm7[8..12].try_into().unwrap());
    // The header's size field really is short by the data size table.
    assert_eq!(size + 16 + 4 * num_data, dm7.len() as i32);
    assert!(DatafileView::parse(dm7).is_ok());
    // ... but not by anything else.
    let mut broken = dm7.to_vec();
    broken[8..12].copy_from_slice(&(size + 1).to_le_bytes());
    assert!(DatafileView::parse(&broken).is_err());
}
