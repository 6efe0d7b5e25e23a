//! Snapshot building, delta creation and delta application: gamefmt's
//! `SnapshotBuilder`, `DeltaCreator` and `apply` against DDNet's own C++
//! (`CSnapshotBuilder`, `CSnapshotDelta::CreateDelta`/`UnpackDelta`,
//! compiled by build.rs from `$DDNET_SRC`). Without DDNet only our side is
//! timed and nothing is compared.
//!
//! Identity is checked on every consecutive snapshot pair of every corpus
//! demo and on generated pairs (items added, removed, changed, reordered,
//! resized, duplicate keys, keys crowding one of DDNet's hash buckets):
//! the built snapshots, the deltas and the applied deltas byte for byte.
//! Timed: libtw2's `delta_300_300` benchmark inputs (the one DDNet's
//! issue #12075 quotes) and the real pairs.

use std::hint::black_box;
use std::time::Instant;

use gamefmt::demo::{DemoView, Frames, OwnedBuffers};
use gamefmt::snapshot::{
    DeltaCreator, DeltaView, ITEM_SIZES_06, MAX_SNAPSHOT_INTS, SnapshotBuilder, SnapshotView,
    apply, static_size,
};
use rand::{Rng, SeedableRng};
use zerocopy::IntoBytes;
use zerocopy::little_endian::I32;

use crate::{MIN_ROUND, median, spread};

/// A snapshot's items in the flat form both builders read: types, ids,
/// sizes (ints) and the data back to back.
#[derive(Clone, Default)]
pub struct Items {
    types: Vec<i32>,
    ids: Vec<i32>,
    sizes: Vec<i32>,
    data: Vec<i32>,
}

impl Items {
    fn push(&mut self, type_id: u16, id: u16, data: &[i32]) {
        self.types.push(type_id.into());
        self.ids.push(id.into());
        self.sizes.push(data.len() as i32);
        self.data.extend_from_slice(data);
    }

    fn of(snap: &SnapshotView<'_>) -> Self {
        let mut items = Self::default();
        for i in snap.items() {
            let data: Vec<i32> = i.data().iter().map(|v| v.get()).collect();
            items.push(i.type_id(), i.id(), &data);
        }
        items
    }

    /// Each item as (type, id, data).
    fn each(&self) -> impl Iterator<Item = (u16, u16, &[i32])> {
        let mut at = 0usize;
        (0..self.types.len()).map(move |i| {
            let n = self.sizes[i] as usize;
            let data = &self.data[at..at + n];
            at += n;
            (self.types[i] as u16, self.ids[i] as u16, data)
        })
    }

    fn rebuilt(&self, pick: impl Fn(usize, u16, u16, &[i32]) -> Option<Vec<i32>>) -> Self {
        let mut out = Self::default();
        for (i, (t, id, d)) in self.each().enumerate() {
            if let Some(d) = pick(i, t, id, d) {
                out.push(t, id, &d);
            }
        }
        out
    }
}

/// libtw2's `snapshot/benches/build.rs` inputs: 300 items, item `i` of type
/// `i / 16 + 1` with a random id and one random value over the type's 0.6
/// static size (ChaCha8 seeded with zeros); `modified` redraws each value
/// with probability 0.1 from a fresh RNG of the same seed.
pub fn items_300(modified: bool) -> Items {
    let mut rng = rand_chacha::ChaCha8Rng::from_seed([0; 32]);
    let mut items = Vec::new();
    for i in 0..300u16 {
        let type_id = i / 16 + 1;
        let id: u16 = rng.r#gen();
        let len = static_size(ITEM_SIZES_06, type_id).unwrap();
        items.push((type_id, id, vec![rng.r#gen::<i32>(); len]));
    }
    if modified {
        let mut rng = rand_chacha::ChaCha8Rng::from_seed([0; 32]);
        for item in &mut items {
            if rng.gen_bool(0.1) {
                item.2 = vec![rng.r#gen(); item.2.len()];
            }
        }
    }
    let mut out = Items::default();
    for (t, id, d) in &items {
        out.push(*t, *id, d);
    }
    out
}

/// Our side: one builder, one delta creator, one output buffer, reused.
pub struct Ours {
    builder: SnapshotBuilder,
    creator: DeltaCreator,
    out: Vec<I32>,
}

impl Ours {
    pub fn new() -> Self {
        Self {
            builder: SnapshotBuilder::new(),
            creator: DeltaCreator::new(),
            out: vec![I32::ZERO; MAX_SNAPSHOT_INTS],
        }
    }

    fn build(&mut self, items: &Items) -> Result<SnapshotView<'_>, gamefmt::Error> {
        self.builder.clear();
        for (t, id, d) in items.each() {
            self.builder.add(t, id, d)?;
        }
        Ok(self.builder.snapshot())
    }

    /// Build `items`, then the delta from `from` to them (its int count).
    fn build_delta(&mut self, items: &Items, from: &SnapshotView<'_>, sizes: &[u16]) -> usize {
        self.builder.clear();
        for (t, id, d) in items.each() {
            if self.builder.add(t, id, d).is_err() {
                return 0;
            }
        }
        let to = self.builder.snapshot();
        self.creator
            .create(from, &to, sizes)
            .map_or(0, <[I32]>::len)
    }

    fn create(&mut self, from: &[u8], to: &[u8], sizes: &[u16]) -> Result<&[u8], gamefmt::Error> {
        let from = SnapshotView::parse(from)?;
        let to = SnapshotView::parse(to)?;
        Ok(self.creator.create(&from, &to, sizes)?.as_bytes())
    }

    /// Applies `delta` to the snapshot `from` (the DDNet comparison's check).
    #[cfg(ddnet)]
    fn apply(&mut self, from: &[u8], delta: &[u8], sizes: &[u16]) -> Result<&[u8], gamefmt::Error> {
        let from = SnapshotView::parse(from)?;
        self.apply_to(&from, delta, sizes)
    }

    /// Applies a delta (validated here, as DDNet's `UnpackDelta` does as
    /// it goes) to an already validated snapshot.
    fn apply_to(
        &mut self,
        from: &SnapshotView<'_>,
        delta: &[u8],
        sizes: &[u16],
    ) -> Result<&[u8], gamefmt::Error> {
        let delta = DeltaView::parse(delta, sizes)?;
        Ok(apply(from, &delta, &mut self.out)?.as_ints().as_bytes())
    }
}

#[cfg(ddnet)]
mod ddnet {
    //! DDNet's C++ through `ddnet/shim.cpp`.
    use std::ffi::c_void;

    use super::Items;

    unsafe extern "C" {
        fn ddnet_builder_new() -> *mut c_void;
        fn ddnet_delta_new(sizes: *const u16, n: i32) -> *mut c_void;
        fn ddnet_build(
            b: *mut c_void,
            n: i32,
            types: *const i32,
            ids: *const i32,
            sizes: *const i32,
            data: *const i32,
            out: *mut c_void,
        ) -> i32;
        fn ddnet_create_delta(
            d: *mut c_void,
            from: *const c_void,
            to: *const c_void,
            dst: *mut c_void,
        ) -> i32;
        fn ddnet_unpack_delta(
            d: *mut c_void,
            from: *const c_void,
            to: *mut c_void,
            src: *const c_void,
            size: i32,
        ) -> i32;
        fn ddnet_build_delta(
            b: *mut c_void,
            d: *mut c_void,
            n: i32,
            types: *const i32,
            ids: *const i32,
            sizes: *const i32,
            data: *const i32,
            from: *const c_void,
            snap: *mut c_void,
            dst: *mut c_void,
        ) -> i32;
    }

    /// A DDNet builder and delta (one item size table), with buffers of
    /// the sizes DDNet uses (64 KiB snapshots; deltas up to twice that).
    pub struct Ddnet {
        builder: *mut c_void,
        delta: *mut c_void,
        snap: Vec<i32>,
        dst: Vec<i32>,
        /// `from` copied into an int-aligned buffer.
        from: Vec<i32>,
        src: Vec<i32>,
    }

    fn load(buf: &mut Vec<i32>, bytes: &[u8]) {
        buf.clear();
        buf.extend(
            bytes
                .chunks_exact(4)
                .map(|c| i32::from_le_bytes(c.try_into().unwrap())),
        );
        buf.push(0);
    }

    impl Ddnet {
        pub fn new(sizes: &[u16]) -> Self {
            // SAFETY: plain constructors; the objects live as long as the
            // process (the comparison makes a handful).
            let (builder, delta) = unsafe {
                (
                    ddnet_builder_new(),
                    ddnet_delta_new(sizes.as_ptr(), sizes.len() as i32),
                )
            };
            Self {
                builder,
                delta,
                snap: vec![0; 16 * 1024],
                dst: vec![0; 64 * 1024],
                from: Vec::with_capacity(16 * 1024 + 1),
                src: Vec::with_capacity(64 * 1024 + 1),
            }
        }

        fn bytes(buf: &[i32], size: i32) -> &[u8] {
            &IntoBytes::as_bytes(buf)[..size.max(0) as usize]
        }

        /// The built snapshot's bytes, `None` if an item did not fit.
        pub fn build(&mut self, items: &Items) -> Option<&[u8]> {
            // SAFETY: the arrays hold `types.len()` items; `snap` is 64 KiB,
            // a `CSnapshotBuffer`.
            let size = unsafe {
                ddnet_build(
                    self.builder,
                    items.types.len() as i32,
                    items.types.as_ptr(),
                    items.ids.as_ptr(),
                    items.sizes.as_ptr(),
                    items.data.as_ptr(),
                    self.snap.as_mut_ptr().cast(),
                )
            };
            (size >= 0).then(|| Self::bytes(&self.snap, size))
        }

        /// `CreateDelta`'s output (empty when it returns 0).
        pub fn create(&mut self, from: &[u8], to: &[u8]) -> &[u8] {
            load(&mut self.from, from);
            load(&mut self.src, to);
            // SAFETY: valid snapshots (parsed by the caller) in int-aligned
            // buffers; `dst` holds the largest delta of two 64 KiB snapshots.
            let size = unsafe {
                ddnet_create_delta(
                    self.delta,
                    self.from.as_ptr().cast(),
                    self.src.as_ptr().cast(),
                    self.dst.as_mut_ptr().cast(),
                )
            };
            Self::bytes(&self.dst, size)
        }

        /// `UnpackDelta`'s output, or its negative error code.
        pub fn unpack(&mut self, from: &[u8], delta: &[u8]) -> Result<&[u8], i32> {
            load(&mut self.from, from);
            load(&mut self.src, delta);
            // SAFETY: `UnpackDelta` bounds-checks the delta against `size`;
            // `snap` is a `CSnapshotBuffer`.
            let size = unsafe {
                ddnet_unpack_delta(
                    self.delta,
                    self.from.as_ptr().cast(),
                    self.snap.as_mut_ptr().cast(),
                    self.src.as_ptr().cast(),
                    delta.len() as i32,
                )
            };
            if size < 0 {
                Err(size)
            } else {
                Ok(Self::bytes(&self.snap, size))
            }
        }

        /// Loads `from` for [`Ddnet::build_delta`] (outside the timing).
        pub fn set_from(&mut self, from: &[u8]) {
            load(&mut self.from, from);
        }

        /// Build `items`, then `CreateDelta` from the loaded `from`.
        pub fn build_delta(&mut self, items: &Items) -> usize {
            // SAFETY: as in `build` and `create`.
            let size = unsafe {
                ddnet_build_delta(
                    self.builder,
                    self.delta,
                    items.types.len() as i32,
                    items.types.as_ptr(),
                    items.ids.as_ptr(),
                    items.sizes.as_ptr(),
                    items.data.as_ptr(),
                    self.from.as_ptr().cast(),
                    self.snap.as_mut_ptr().cast(),
                    self.dst.as_mut_ptr().cast(),
                )
            };
            size.max(0) as usize
        }

        /// `UnpackDelta` of a delta loaded by [`Ddnet::load_pair`].
        pub fn unpack_loaded(&mut self, size: usize) -> i32 {
            // SAFETY: as in `unpack`.
            unsafe {
                ddnet_unpack_delta(
                    self.delta,
                    self.from.as_ptr().cast(),
                    self.snap.as_mut_ptr().cast(),
                    self.src.as_ptr().cast(),
                    size as i32,
                )
            }
        }

        /// Loads `from` and a delta for [`Ddnet::unpack_loaded`].
        pub fn load_pair(&mut self, from: &[u8], delta: &[u8]) {
            load(&mut self.from, from);
            load(&mut self.src, delta);
        }
    }

    use zerocopy::IntoBytes;
}

/// A pair to check and time: the two snapshots as items and as DDNet's
/// bytes, and the item size table.
struct Pair {
    old: Items,
    new: Items,
    sizes: &'static [u16],
}

/// Every consecutive snapshot pair of every demo.
fn demo_pairs(files: &[(String, Vec<u8>)]) -> Vec<Pair> {
    let mut pairs = Vec::new();
    let mut owned = OwnedBuffers::new();
    for (_, bytes) in files {
        let Ok(view) = DemoView::parse(bytes) else {
            continue;
        };
        let sizes = view.header().item_sizes();
        let mut frames = Frames::new(&view, owned.buffers());
        let mut prev: Option<Items> = None;
        while let Some(Ok(frame)) = frames.next() {
            let items = Items::of(&frame.snapshot);
            if let Some(old) = prev.replace(items.clone()) {
                pairs.push(Pair {
                    old,
                    new: items,
                    sizes,
                });
            }
        }
    }
    pairs
}

/// A tiny deterministic generator for the generated pairs.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u32) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as u32) % n.max(1)
    }
}

/// DDNet's hash bucket of a key (djb2 over its bytes, low first, mod 256).
fn ddnet_bucket(key: u32) -> u32 {
    key.to_le_bytes()
        .iter()
        .fold(5381u32, |h, &b| h.wrapping_mul(33).wrapping_add(b.into()))
        % 256
}

/// Generated pairs, each named by what changes.
fn generated_pairs(bases: &[&Items]) -> Vec<(&'static str, Pair)> {
    let mut rng = Lcg(7);
    let mut out = Vec::new();
    let sizes = ITEM_SIZES_06;
    for base in bases {
        let n = base.types.len().max(1) as u32;
        for round in 0..20u32 {
            let k = 1 + rng.below(n / 4 + 1) as usize;
            let hit: Vec<usize> = (0..k).map(|_| rng.below(n) as usize).collect();
            let bump = rng.below(1000) as i32 + 1;
            // Added: new keys of a type without static size and of type 9.
            let mut added = (*base).clone();
            for j in 0..k as u16 {
                added.push(
                    0x7000 + (round as u16 % 3),
                    j,
                    &vec![bump; (j % 7) as usize],
                );
                added.push(9, 60_000 + j, &[bump; 22]);
            }
            out.push((
                "added",
                Pair {
                    old: (*base).clone(),
                    new: added,
                    sizes,
                },
            ));
            let removed = base.rebuilt(|i, _, _, d| (!hit.contains(&i)).then(|| d.to_vec()));
            out.push((
                "removed",
                Pair {
                    old: (*base).clone(),
                    new: removed,
                    sizes,
                },
            ));
            let changed = base.rebuilt(|i, _, _, d| {
                Some(
                    d.iter()
                        .map(|v| {
                            if hit.contains(&i) {
                                v.wrapping_add(bump)
                            } else {
                                *v
                            }
                        })
                        .collect(),
                )
            });
            out.push((
                "changed",
                Pair {
                    old: (*base).clone(),
                    new: changed.clone(),
                    sizes,
                },
            ));
            // Reordered: rotate and swap, some items also changed.
            let mut order: Vec<usize> = (0..base.types.len()).collect();
            let len = order.len().max(1);
            order.rotate_left(k % len);
            for &h in &hit {
                let j = rng.below(n) as usize;
                if h < order.len() && j < order.len() {
                    order.swap(h, j);
                }
            }
            let all: Vec<(u16, u16, Vec<i32>)> = changed
                .each()
                .map(|(t, id, d)| (t, id, d.to_vec()))
                .collect();
            let mut reordered = Items::default();
            for &i in &order {
                let (t, id, d) = &all[i];
                reordered.push(*t, *id, d);
            }
            out.push((
                "reordered",
                Pair {
                    old: (*base).clone(),
                    new: reordered,
                    sizes,
                },
            ));
            // Resized: an item of a type without static size grows.
            let mut old = (*base).clone();
            old.push(0x7001, 1, &[1, 2, 3]);
            let mut new = (*base).clone();
            new.push(0x7001, 1, &[1, 2, 3, 4]);
            out.push(("resized", Pair { old, new, sizes }));
            // Duplicate keys (DDNet's builder takes them; ours refuses).
            let mut dup = (*base).clone();
            if let Some((t, id, d)) = base.each().nth(hit[0]) {
                let d: Vec<i32> = d.iter().map(|v| v ^ bump).collect();
                dup.push(t, id, &d);
            }
            out.push((
                "duplicate",
                Pair {
                    old: (*base).clone(),
                    new: dup.clone(),
                    sizes,
                },
            ));
            out.push((
                "duplicate",
                Pair {
                    old: dup,
                    new: changed,
                    sizes,
                },
            ));
        }
    }
    // More than 64 keys in one of DDNet's 256 hash buckets (its hash then
    // drops keys: the delta re-sends them).
    let mut crowded = Items::default();
    let bucket = ddnet_bucket(0x7002 << 16);
    for id in 0..=u16::MAX {
        if crowded.types.len() < 100 && ddnet_bucket(0x7002 << 16 | u32::from(id)) == bucket {
            crowded.push(0x7002, id, &[i32::from(id); 2]);
        }
    }
    let more = crowded.rebuilt(|i, _, _, d| Some(d.iter().map(|v| v + (i % 3) as i32).collect()));
    out.push((
        "crowded bucket",
        Pair {
            old: crowded.clone(),
            new: more,
            sizes,
        },
    ));
    out
}

/// Counts of one check: pairs checked and identical.
#[cfg(ddnet)]
#[derive(Default)]
struct Tally {
    checked: usize,
    identical: usize,
    first_difference: Option<String>,
}

#[cfg(ddnet)]
impl Tally {
    fn add(&mut self, same: bool, what: impl FnOnce() -> String) {
        self.checked += 1;
        if same {
            self.identical += 1;
        } else if self.first_difference.is_none() {
            self.first_difference = Some(what());
        }
    }

    fn line(&self, name: &str) -> String {
        let diff = self.first_difference.as_deref().unwrap_or("");
        format!(
            "  {name}: {}/{} identical {diff}",
            self.identical, self.checked
        )
    }
}

/// ns per call of `f`, from a round of at least [`MIN_ROUND`].
fn ns_per_call(calls: usize, f: &mut dyn FnMut() -> usize) -> f64 {
    let start = Instant::now();
    let mut n = 0u64;
    loop {
        black_box(f());
        n += 1;
        let t = start.elapsed();
        if t >= MIN_ROUND {
            return t.as_secs_f64() * 1e9 / (n as f64 * calls as f64);
        }
    }
}

/// One timing row: ns per call for each side (median of rounds, the sides
/// alternating which goes first) and the min, median and max per-round
/// ratio ours / DDNet.
fn row(
    title: &str,
    calls: usize,
    rounds: usize,
    ours: &mut dyn FnMut() -> usize,
    mut peer: Option<&mut dyn FnMut() -> usize>,
    checked: &str,
) -> String {
    let (mut to, mut tp, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
    for r in 0..rounds {
        let mut o = None;
        if r % 2 == 0 {
            o = Some(ns_per_call(calls, ours));
        }
        if let Some(p) = peer.as_mut() {
            tp.push(ns_per_call(calls, *p));
        }
        let o = o.unwrap_or_else(|| ns_per_call(calls, ours));
        to.push(o);
        if let Some(p) = tp.last() {
            ratio.push(o / p);
        }
    }
    let o = median(&mut to);
    let line = if tp.is_empty() {
        let n = "-";
        format!("| {title:<34} | {o:>10.0} | {n:>10} | {n:>6} | {n:>6} | {n:>6} | {checked:>13} |")
    } else {
        let p = median(&mut tp);
        let (lo, r, hi) = spread(&mut ratio);
        format!(
            "| {title:<34} | {o:>10.0} | {p:>10.0} | {lo:>5.2}x | {r:>5.2}x | {hi:>5.2}x | {checked:>13} |"
        )
    };
    println!("{line}");
    line
}

/// Checks identity and times both sides; returns the summary rows.
pub fn compare(files: &[(String, Vec<u8>)], rounds: usize) -> Vec<String> {
    println!("\n== Snapshots: gamefmt vs DDNet C++ ==");
    #[cfg(not(ddnet))]
    println!("  DDNET_SRC was not set at build time: our side only, nothing compared");
    let pairs = demo_pairs(files);
    println!(
        "  {} consecutive snapshot pairs from {} demos",
        pairs.len(),
        files.len()
    );
    let s300 = items_300(false);
    let s300m = items_300(true);
    let mut ours = Ours::new();
    let from300 = ours.build(&s300).unwrap().as_ints().as_bytes().to_vec();
    let delta_m = ours
        .create(
            &from300,
            &ours_build_bytes(&mut Ours::new(), &s300m),
            ITEM_SIZES_06,
        )
        .unwrap()
        .to_vec();

    let bases: Vec<&Items> = [&s300]
        .into_iter()
        .chain(pairs.iter().step_by(pairs.len() / 20 + 1).map(|p| &p.old))
        .collect();
    let generated = generated_pairs(&bases);

    #[cfg(ddnet)]
    let identity = check_identity(&pairs, &generated, &s300, &s300m);
    #[cfg(not(ddnet))]
    let identity = (String::from("-"), String::from("-"));
    let _ = &generated;

    println!("{}", crate::SNAPSHOT_HEADER);
    let mut rows = Vec::new();
    #[cfg(ddnet)]
    let mut dd = ddnet::Ddnet::new(ITEM_SIZES_06);
    for (title, to) in [
        ("build+delta 300_300", &s300),
        ("build+delta 300_300m", &s300m),
    ] {
        let mut o = Ours::new();
        let from = SnapshotView::parse(&from300).unwrap();
        let mut ours_run = || o.build_delta(to, &from, ITEM_SIZES_06);
        #[cfg(ddnet)]
        {
            dd.set_from(&from300);
            let mut peer = || dd.build_delta(to);
            rows.push(row(
                title,
                1,
                rounds,
                &mut ours_run,
                Some(&mut peer),
                &identity.0,
            ));
        }
        #[cfg(not(ddnet))]
        rows.push(row(title, 1, rounds, &mut ours_run, None, &identity.0));
    }
    {
        let mut o = Ours::new();
        let from = SnapshotView::parse(&from300).unwrap();
        let mut ours_run = || {
            o.apply_to(&from, &delta_m, ITEM_SIZES_06)
                .map_or(0, <[u8]>::len)
        };
        #[cfg(ddnet)]
        {
            dd.load_pair(&from300, &delta_m);
            let mut peer = || dd.unpack_loaded(delta_m.len()) as usize;
            rows.push(row(
                "apply 300_300m delta",
                1,
                rounds,
                &mut ours_run,
                Some(&mut peer),
                &identity.0,
            ));
        }
        #[cfg(not(ddnet))]
        rows.push(row(
            "apply 300_300m delta",
            1,
            rounds,
            &mut ours_run,
            None,
            &identity.0,
        ));
    }

    // Real pairs: each pair's `new` built and diffed against its `old`;
    // each pair's delta applied.
    let real: Vec<(Vec<u8>, &Items, &'static [u16], Vec<u8>)> = pairs
        .iter()
        .map(|p| {
            let mut o = Ours::new();
            let old = ours_build_bytes(&mut o, &p.old);
            let new = ours_build_bytes(&mut o, &p.new);
            let delta = o.create(&old, &new, p.sizes).unwrap().to_vec();
            (old, &p.new, p.sizes, delta)
        })
        .collect();
    if !real.is_empty() {
        let mut o = Ours::new();
        let olds: Vec<SnapshotView<'_>> = real
            .iter()
            .map(|(old, ..)| SnapshotView::parse(old).unwrap())
            .collect();
        let mut ours_run = || {
            real.iter()
                .zip(&olds)
                .map(|((_, new, sizes, _), old)| o.build_delta(new, old, sizes))
                .sum::<usize>()
        };
        #[cfg(ddnet)]
        {
            let mut dds = [
                ddnet::Ddnet::new(ITEM_SIZES_06),
                ddnet::Ddnet::new(gamefmt::snapshot::ITEM_SIZES_07),
            ];
            let mut peer = || {
                real.iter()
                    .map(|(old, new, sizes, _)| {
                        let d = &mut dds[usize::from(*sizes != ITEM_SIZES_06)];
                        d.set_from(old);
                        d.build_delta(new)
                    })
                    .sum::<usize>()
            };
            rows.push(row(
                "real pairs: build+delta (per pair)",
                real.len(),
                rounds,
                &mut ours_run,
                Some(&mut peer),
                &identity.1,
            ));
        }
        #[cfg(not(ddnet))]
        rows.push(row(
            "real pairs: build+delta (per pair)",
            real.len(),
            rounds,
            &mut ours_run,
            None,
            &identity.1,
        ));
        let mut o = Ours::new();
        let mut ours_run = || {
            real.iter()
                .zip(&olds)
                .map(|((_, _, sizes, delta), old)| {
                    o.apply_to(old, delta, sizes).map_or(0, <[u8]>::len)
                })
                .sum::<usize>()
        };
        #[cfg(ddnet)]
        {
            let mut dds = [
                ddnet::Ddnet::new(ITEM_SIZES_06),
                ddnet::Ddnet::new(gamefmt::snapshot::ITEM_SIZES_07),
            ];
            let mut peer = || {
                real.iter()
                    .map(|(old, _, sizes, delta)| {
                        let d = &mut dds[usize::from(*sizes != ITEM_SIZES_06)];
                        d.load_pair(old, delta);
                        d.unpack_loaded(delta.len()) as usize
                    })
                    .sum::<usize>()
            };
            rows.push(row(
                "real pairs: apply (per pair)",
                real.len(),
                rounds,
                &mut ours_run,
                Some(&mut peer),
                &identity.1,
            ));
        }
        #[cfg(not(ddnet))]
        rows.push(row(
            "real pairs: apply (per pair)",
            real.len(),
            rounds,
            &mut ours_run,
            None,
            &identity.1,
        ));
    }
    rows
}

fn ours_build_bytes(o: &mut Ours, items: &Items) -> Vec<u8> {
    o.build(items).unwrap().as_ints().as_bytes().to_vec()
}

/// Byte identity of builds, deltas and applied deltas; returns the
/// "identical/checked" figures for the 300-item rows and the real pairs.
#[cfg(ddnet)]
fn check_identity(
    pairs: &[Pair],
    generated: &[(&'static str, Pair)],
    s300: &Items,
    s300m: &Items,
) -> (String, String) {
    let mut dd06 = ddnet::Ddnet::new(ITEM_SIZES_06);
    let mut dd07 = ddnet::Ddnet::new(gamefmt::snapshot::ITEM_SIZES_07);
    let mut ours = Ours::new();
    // One pair's checks; `None` if either side refused to build.
    let mut check = |p: &Pair, tally: &mut [Tally; 3], refused: &mut usize| {
        let dd = if p.sizes == ITEM_SIZES_06 {
            &mut dd06
        } else {
            &mut dd07
        };
        let old_dd = dd.build(&p.old).map(<[u8]>::to_vec);
        let new_dd = dd.build(&p.new).map(<[u8]>::to_vec);
        let (Some(old_dd), Some(new_dd)) = (old_dd, new_dd) else {
            *refused += 1;
            return;
        };
        for (items, dd_bytes) in [(&p.old, &old_dd), (&p.new, &new_dd)] {
            match ours.build(items) {
                Ok(s) => {
                    let same = s.as_ints().as_bytes() == &dd_bytes[..];
                    tally[0].add(same, || "build differs".into());
                }
                // Ours refuses duplicate keys: compare the deltas and
                // applications on DDNet's snapshot bytes instead.
                Err(_) => *refused += 1,
            }
        }
        let theirs = dd.create(&old_dd, &new_dd).to_vec();
        match ours.create(&old_dd, &new_dd, p.sizes) {
            Ok(d) => {
                let same = if theirs.is_empty() {
                    d == [0u8; 12]
                } else {
                    d == &theirs[..]
                };
                tally[1].add(same, || {
                    format!("delta differs ({} vs {} bytes)", d.len(), theirs.len())
                });
            }
            Err(e) => {
                // Only where DDNet's own UnpackDelta refuses DDNet's delta.
                let unpack = dd.unpack(&old_dd, &theirs).is_err();
                tally[1].add(unpack, || {
                    format!("ours refused ({e}), DDNet's delta applies")
                });
                return;
            }
        }
        let delta = if theirs.is_empty() {
            vec![0u8; 12]
        } else {
            theirs
        };
        let dd_applied = dd.unpack(&old_dd, &delta).map(<[u8]>::to_vec);
        let ours_applied = ours.apply(&old_dd, &delta, p.sizes).map(<[u8]>::to_vec);
        let same = match (&dd_applied, &ours_applied) {
            (Ok(a), Ok(b)) => a == b,
            (Err(_), Err(_)) => true,
            _ => false,
        };
        tally[2].add(same, || {
            format!(
                "apply differs: DDNet {:?}, ours {:?}",
                dd_applied.as_ref().map(Vec::len),
                ours_applied.as_ref().map(Vec::len)
            )
        });
    };

    let mut fixed = [Tally::default(), Tally::default(), Tally::default()];
    let mut refused = 0;
    let p300 = Pair {
        old: s300.clone(),
        new: s300.clone(),
        sizes: ITEM_SIZES_06,
    };
    let p300m = Pair {
        old: s300.clone(),
        new: s300m.clone(),
        sizes: ITEM_SIZES_06,
    };
    check(&p300, &mut fixed, &mut refused);
    check(&p300m, &mut fixed, &mut refused);
    println!("  300_300 and 300_300m:");
    for (t, name) in fixed.iter().zip(["build", "delta", "apply"]) {
        println!("  {}", t.line(name));
    }

    let mut real = [Tally::default(), Tally::default(), Tally::default()];
    let mut real_refused = 0;
    for p in pairs {
        check(p, &mut real, &mut real_refused);
    }
    println!(
        "  real pairs ({} pairs, {real_refused} builds refused):",
        pairs.len()
    );
    for (t, name) in real.iter().zip(["build", "delta", "apply"]) {
        println!("  {}", t.line(name));
    }

    let mut kinds: Vec<&str> = generated.iter().map(|(k, _)| *k).collect();
    kinds.dedup();
    kinds.sort();
    kinds.dedup();
    let mut gen_total = [0usize; 2];
    for kind in kinds {
        let mut t = [Tally::default(), Tally::default(), Tally::default()];
        let mut refused = 0;
        for (_, p) in generated.iter().filter(|(k, _)| *k == kind) {
            check(p, &mut t, &mut refused);
        }
        println!("  generated, {kind} ({refused} builds refused by ours):");
        for (t, name) in t.iter().zip(["build", "delta", "apply"]) {
            println!("  {}", t.line(name));
            gen_total[0] += t.checked;
            gen_total[1] += t.identical;
        }
    }
    println!(
        "  generated total: {}/{} identical",
        gen_total[1], gen_total[0]
    );
    let figure = |t: &[Tally; 3]| {
        let c: usize = t.iter().map(|t| t.checked).sum();
        let i: usize = t.iter().map(|t| t.identical).sum();
        format!("{i}/{c}")
    };
    (figure(&fixed), figure(&real))
}
