//! Generated demo recordings (shared by `tests/demo_record.rs` and
//! `benches/peers/src/bin/demo_record.rs`, which feeds them to DDNet's
//! `CDemoRecorder` for the vectors of `tests/data/demo-vectors`): a
//! deterministic sequence of snapshots, messages and timeline markers per
//! seed. Change nothing here without making the vectors again.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap
)]

use gamefmt::snapshot::SnapshotBuilder;
use zerocopy::little_endian::I32;

/// One call to a recorder.
#[derive(Clone, Debug)]
pub enum Event {
    /// A tick's snapshot, as ints.
    Snapshot(i32, Vec<I32>),
    /// A message's bytes.
    Message(Vec<u8>),
    /// A timeline marker at a tick.
    Marker(i32),
}

/// A recording to make: the header's settings and the calls.
#[derive(Clone, Debug)]
pub struct Sequence {
    pub name: String,
    pub net_version: String,
    pub kind: String,
    pub timestamp: String,
    pub map_name: String,
    pub crc: u32,
    pub sha256: [u8; 32],
    pub map: Option<Vec<u8>>,
    pub events: Vec<Event>,
}

/// The net version of generated sequence `seed`: every fourth 0.7.
pub fn net_version(seed: u64) -> &'static str {
    if seed % 4 == 3 {
        "0.7 802f1be60a05665f"
    } else {
        "0.6 626fce9a778df4d4"
    }
}

/// A small deterministic generator (xorshift).
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A generated sequence: items of static-size and sized types appearing,
/// changing, vanishing; ticks with gaps; repeated snapshots; messages of
/// every length; markers.
pub fn generated(seed: u64, net_version: &str, small: bool) -> Sequence {
    let (max_steps, max_items, max_map) = if small {
        (150, 30, 300)
    } else {
        (600, 300, 3000)
    };
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let sizes = gamefmt::demo::net_item_sizes(net_version);
    let mut events = Vec::new();
    let mut b = SnapshotBuilder::new();
    let mut tick = rng.below(1000) as i32;
    // Items alive: (type, id, data).
    let mut items: Vec<(u16, u16, Vec<i32>)> = Vec::new();
    let steps = 50 + rng.below(max_steps);
    for _ in 0..steps {
        match rng.below(100) {
            0..=79 => tick += 1,
            80..=89 => tick += 2 + rng.below(40) as i32,
            90..=94 => tick += 200 + rng.below(100) as i32,
            _ => {} // the same tick again
        }
        // Churn.
        for it in items.iter_mut() {
            if rng.below(4) == 0 {
                let i = rng.below(it.2.len().max(1) as u64) as usize;
                if let Some(v) = it.2.get_mut(i) {
                    *v = v.wrapping_add((rng.below(2001) as i32) - 1000);
                }
            }
        }
        // An item that goes away does not come back in the same snapshot
        // (with another size, its delta would be one DDNet's player
        // refuses; gamefmt refuses to write it).
        let mut removed = None;
        if rng.below(5) == 0 && !items.is_empty() {
            let i = rng.below(items.len() as u64) as usize;
            removed = Some(items.remove(i)).map(|(t, i, _)| (t, i));
        }
        if rng.below(3) == 0 && items.len() < max_items {
            let type_id = 1 + rng.below(30) as u16;
            let id = rng.below(64) as u16;
            if !items.iter().any(|(t, i, _)| (*t, *i) == (type_id, id))
                && removed != Some((type_id, id))
            {
                let len = gamefmt::snapshot::static_size(sizes, type_id)
                    .unwrap_or(rng.below(12) as usize);
                let data = (0..len)
                    .map(|_| rng.next() as i32 >> rng.below(31))
                    .collect();
                items.push((type_id, id, data));
            }
        }
        if rng.below(10) == 0 {
            // A snapshot with the same items in another order (an empty
            // delta all the same).
            let n = items.len();
            if n > 1 {
                items.swap(rng.below(n as u64) as usize, rng.below(n as u64) as usize);
            }
        }
        b.clear();
        for (t, i, d) in &items {
            b.add(*t, *i, d).expect("generated items fit");
        }
        events.push(Event::Snapshot(tick, b.snapshot().as_ints().to_vec()));
        for _ in 0..rng.below(3) {
            let len = 1 + rng.below(40) as usize;
            events.push(Event::Message((0..len).map(|_| rng.next() as u8).collect()));
        }
        if rng.below(12) == 0 {
            events.push(Event::Marker((tick - rng.below(60) as i32).max(0)));
        }
    }
    let with_map = seed % 2 == 0;
    Sequence {
        name: format!("generated-{seed}-{}", &net_version[..3]).replace('.', ""),
        net_version: net_version.to_string(),
        kind: if seed % 3 == 0 { "client" } else { "server" }.to_string(),
        timestamp: "2026-11-28_21-00-00".to_string(),
        map_name: format!("gen_{seed}"),
        crc: rng.next() as u32,
        sha256: std::array::from_fn(|_| rng.next() as u8),
        map: with_map.then(|| (0..rng.below(max_map)).map(|_| rng.next() as u8).collect()),
        events,
    }
}
