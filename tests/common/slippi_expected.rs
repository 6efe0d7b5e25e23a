//! The corpus's `slippi/expected.tsv`: facts per replay from slippi-js,
//! shared by the core's tests and the CLI's.
#![allow(dead_code, clippy::unwrap_used, clippy::indexing_slicing)]

use std::collections::{BTreeMap, HashMap};

pub type Row = HashMap<String, String>;

/// `expected.tsv`, one map per file name. `None` when the corpus is absent.
pub fn expected(test: &str) -> Option<BTreeMap<String, Row>> {
    let text = crate::common::corpus_text(test, "slippi/expected.tsv")?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let mut out = BTreeMap::new();
    for line in lines {
        let row: Row = header
            .iter()
            .zip(line.split('\t'))
            .map(|(k, v)| ((*k).to_owned(), v.to_owned()))
            .collect();
        out.insert(row["name"].clone(), row);
    }
    Some(out)
}

pub fn opt_i64(s: &str) -> Option<i64> {
    (!s.is_empty()).then(|| s.parse().unwrap())
}

/// The facts expected.tsv has, computed through the library.
#[derive(Debug, Default, PartialEq)]
pub struct Facts {
    pub spec_version: String,
    pub raw_len: i64,
    pub stage: Option<i64>,
    pub players: String,
    pub is_pal: Option<bool>,
    pub metadata: bool,
    pub meta_last_frame: Option<i64>,
    pub meta_played_on: Option<String>,
    pub first_frame: Option<i64>,
    pub last_frame: Option<i64>,
    pub unique_frames: i64,
    pub end_method: Option<i64>,
    pub lras_initiator: Option<i64>,
    pub placements: Option<[i8; 4]>,
    pub counts: BTreeMap<u8, i64>,
    pub gecko_codes: Option<i64>,
}

pub fn expected_facts(r: &Row) -> Facts {
    let mut counts = BTreeMap::new();
    for k in [
        "35", "36", "37", "38", "39", "3a", "3b", "3c", "10", "3f", "40", "41",
    ] {
        let n: i64 = r[&format!("n{k}")].parse().unwrap();
        if n > 0 {
            counts.insert(u8::from_str_radix(k, 16).unwrap(), n);
        }
    }
    for kv in r["n_other"].split(',').filter(|s| !s.is_empty()) {
        let (k, v) = kv.split_once(':').unwrap();
        counts.insert(u8::from_str_radix(&k[2..], 16).unwrap(), v.parse().unwrap());
    }
    let (js_meta, peppi_meta) = r["metadata_js/peppi"].split_once('/').unwrap();
    let mut meta_played_on = (!r["meta_playedOn"].is_empty()).then(|| r["meta_playedOn"].clone());
    // spec/slippi.md §1: a finished file whose raw length is 0 loses its
    // metadata in slippi-js (it reads raw to EOF) while peppi, stopping at
    // Game End, finds it — peppi is right. The playedOn column comes from
    // slippi-js only, so it is blank there; the file's metadata says
    // "dolphin" (checked byte-for-byte in `streaming_game_metadata`).
    if js_meta == "no" && peppi_meta == "yes" && meta_played_on.is_none() {
        meta_played_on = Some("dolphin".to_owned());
    }
    Facts {
        spec_version: r["spec_version"].clone(),
        raw_len: r["raw_len"].parse().unwrap(),
        stage: opt_i64(&r["stage"]),
        players: r["players"].clone(),
        is_pal: match r["is_pal"].as_str() {
            "" => None,
            v => Some(v == "True"),
        },
        metadata: js_meta == "yes" || peppi_meta == "yes",
        meta_last_frame: opt_i64(&r["meta_lastFrame"]),
        meta_played_on,
        first_frame: opt_i64(&r["js_first_frame"]),
        last_frame: opt_i64(&r["js_last_frame"]),
        unique_frames: r["js_unique_frames"].parse().unwrap(),
        end_method: opt_i64(&r["end_method"]),
        lras_initiator: opt_i64(&r["lras_initiator"]),
        placements: match r["placements"].as_str() {
            "" | ",,," => None,
            v => {
                let p: Vec<i8> = v.split(',').map(|x| x.parse().unwrap()).collect();
                Some([p[0], p[1], p[2], p[3]])
            }
        },
        counts,
        gecko_codes: opt_i64(&r["gecko_codes"]),
    }
}
