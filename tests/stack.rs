//! Stack use is bounded: every format decodes a real file (or the crate's
//! embedded sample without the corpus) on a thread with a 64 KiB stack,
//! and the only input-controlled nesting (UBJSON containers in Slippi
//! metadata, JSON objects in the teehistorian header) stays within its
//! explicit limit, however deep the input goes.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects,
    reason = "tests: a panic is the failure report"
)]

use crate::common;

use gamefmt::datafile::DatafileView;
use gamefmt::demo::{DemoView, Frames, OwnedBuffers};
use gamefmt::map::{Layer, MapView};
use gamefmt::{slippi, teehistorian};

const STACK: usize = 64 * 1024;

/// Runs `f` on a thread with a 64 KiB stack; a stack overflow aborts the
/// test binary, a panic fails the test.
fn on_small_stack<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .name(format!("64k-{what}"))
        .stack_size(STACK)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap_or_else(|_| panic!("{what} panicked"))
}

/// The smallest and the largest corpus file of a folder that `valid`
/// accepts, or the crate's `sample` (if it has one) without the corpus.
/// Damaged files are the sweeps' business; stack depth is measured on
/// whole ones.
fn files(sub: &str, ext: &str, sample: Option<&[u8]>, valid: fn(&[u8]) -> bool) -> Vec<Vec<u8>> {
    let Some(files) = common::corpus_files("stack", sub, ext) else {
        return sample.into_iter().map(<[u8]>::to_vec).collect();
    };
    let mut files: Vec<_> = files
        .into_iter()
        .map(|(_, b)| b)
        .filter(|b| valid(b))
        .collect();
    files.sort_by_key(Vec::len);
    if files.len() > 2 {
        files.drain(1..files.len() - 1);
    }
    files
}

fn walk_map(bytes: &[u8]) -> usize {
    let df = DatafileView::parse(bytes).unwrap();
    let mut buf = vec![0u8; 64 << 20];
    let mut n = df.items().count();
    for i in 0..df.data_count() {
        n += df.decompress_into(i, &mut buf).map_or(0, <[u8]>::len);
    }
    let map = MapView::parse(bytes).unwrap();
    for group in map.groups() {
        for layer in group.layers() {
            if let Layer::Tiles(t) = layer {
                n += t.tiles_into(&mut buf).map_or(0, <[_]>::len);
            }
        }
    }
    n + map.envelopes().count() + map.images().count()
}

#[test]
fn datafile_and_map_on_64k_stack() {
    let valid = |b: &[u8]| MapView::parse(b).is_ok();
    for bytes in files(
        "teeworlds/maps",
        ".map",
        Some(gamefmt::datafile::SAMPLE),
        valid,
    ) {
        assert!(on_small_stack("map", move || walk_map(&bytes)) > 0);
    }
}

#[test]
fn demo_and_snapshots_on_64k_stack() {
    // The smallest and the largest demo: every chunk, every snapshot.
    let valid = |b: &[u8]| snapshots(b).is_ok_and(|n| n > 0);
    for bytes in files("teeworlds/demos", ".demo", None, valid) {
        assert!(on_small_stack("demo", move || snapshots(&bytes).unwrap()) > 0);
    }
}

/// Rebuilds every snapshot of a demo: how many hold items.
fn snapshots(bytes: &[u8]) -> Result<usize, gamefmt::Error> {
    let view = DemoView::parse(bytes)?;
    let mut owned = OwnedBuffers::new();
    let mut frames = Frames::new(&view, owned.buffers());
    let mut n = 0;
    while let Some(frame) = frames.next() {
        n += frame?.snapshot.item_count().min(1);
    }
    Ok(n)
}

#[test]
fn teehistorian_on_64k_stack() {
    let sample = Some(teehistorian::SAMPLE);
    let valid = |b: &[u8]| {
        let mut players = teehistorian::PlayerState::<128>::new();
        teehistorian::TeehistorianIter::new(b)
            .is_ok_and(|mut i| i.all(|r| r.is_ok_and(|r| players.apply(&r.message).is_ok())))
    };
    for bytes in files("teeworlds/teehistorian", ".teehistorian", sample, valid) {
        on_small_stack("teehistorian", move || {
            let mut it = teehistorian::TeehistorianIter::new(&bytes).unwrap();
            let _ = it.header().for_each_config(|_, _| {});
            let mut players = teehistorian::PlayerState::<128>::new();
            for r in it.by_ref() {
                let r = r.unwrap();
                players.apply(&r.message).unwrap();
                if let teehistorian::Message::Ex(ex) = r.message {
                    let _ = ex.parse();
                }
            }
        });
    }
}

#[test]
fn slippi_on_64k_stack() {
    let sample = Some(slippi::SAMPLE);
    let valid = |b: &[u8]| {
        slippi::SlippiView::parse(b)
            .is_ok_and(|v| v.metadata().is_ok() && v.events().all(|e| e.is_ok()))
            && slippi::Frames::new(b).all(|f| f.is_ok())
    };
    for bytes in files("slippi", ".slp", sample, valid) {
        on_small_stack("slippi", move || {
            let view = slippi::SlippiView::parse(&bytes).unwrap();
            if let Some(m) = view.metadata().unwrap() {
                for p in m.players() {
                    let _ = (p.netplay_name(), p.characters().count());
                }
            }
            for e in view.events() {
                let _ = e.unwrap().frame();
            }
            for f in slippi::Frames::new(&bytes) {
                f.unwrap();
            }
        });
    }
}

#[test]
fn deep_ubjson_is_refused_at_its_limit_on_64k_stack() {
    on_small_stack("ubjson", || {
        use slippi::ubjson::{MAX_DEPTH, parse_value, value_len};
        // At the limit: accepted.
        let mut ok = vec![b'['; MAX_DEPTH];
        ok.extend(vec![b']'; MAX_DEPTH]);
        assert_eq!(value_len(&ok).unwrap(), ok.len());
        // A million levels of arrays, and of objects: refused.
        let deep = vec![b'['; 1 << 20];
        assert!(value_len(&deep).is_err());
        assert!(parse_value(&deep).is_err());
        let mut objects = Vec::new();
        for _ in 0..100_000 {
            objects.extend(b"{U\x01a");
        }
        assert!(value_len(&objects).is_err());
        // As a file's metadata.
        let mut file = b"{U\x03raw[$U#l\x00\x00\x00\x02\x35\x01U\x08metadata".to_vec();
        file.extend(&objects);
        if let Ok(view) = slippi::SlippiView::parse(&file) {
            assert!(view.metadata().is_err());
        }
    });
}

#[test]
fn deep_json_header_is_refused_on_64k_stack() {
    on_small_stack("json", || {
        let file = |json: &str| {
            let mut f = teehistorian::uuids::TEEHISTORIAN.as_bytes().to_vec();
            f.extend(json.as_bytes());
            f.push(0);
            f
        };
        // Nesting the header's own limit accepts (16 levels).
        let mut ok = String::from(r#"{"version":"2","x":"#);
        ok.push_str(&"[".repeat(14));
        ok.push_str(&"]".repeat(14));
        ok.push('}');
        let ok = file(&ok);
        let iter = teehistorian::TeehistorianIter::new(&ok).unwrap();
        assert_eq!(iter.header().validate(), Ok(()));
        // Opening a file reads the version alone: the depth is refused by
        // the check of the whole text and by every parse of it.
        fn refused(file: &[u8], depth: usize) {
            let iter = teehistorian::TeehistorianIter::new(file).unwrap();
            let header = iter.header();
            assert!(header.validate().is_err(), "{depth}");
            assert!(header.for_each_config(|_, _| {}).is_err(), "{depth}");
            assert_eq!(header.map_name(), None, "{depth}");
            assert!(
                teehistorian::Header::parse(header.json()).is_err(),
                "{depth}"
            );
        }
        for depth in [17, 1000, 1 << 20] {
            let mut deep = String::from(r#"{"version":"2","x":"#);
            deep.push_str(&"[".repeat(depth));
            deep.push_str(&"]".repeat(depth));
            deep.push('}');
            refused(&file(&deep), depth);
            let mut deep = String::from(r#"{"version":"2","x":"#);
            deep.push_str(&r#"{"a":"#.repeat(depth));
            deep.push_str(&"}".repeat(depth + 1));
            refused(&file(&deep), depth);
        }
    });
}
