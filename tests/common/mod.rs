//! Locating the shared corpus of real files for tests and benchmarks.
#![allow(dead_code, clippy::unwrap_used, clippy::panic)]

use std::path::{Path, PathBuf};

/// The corpus root: `$GAMEFMT_CORPUS`, or `../shared/corpus` beside the
/// crate (or beside the workspace, for a member crate). `None` (after printing a SKIPPED line naming `test`) when absent.
pub fn corpus_dir(test: &str) -> Option<PathBuf> {
    let dir = corpus_root();
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "SKIPPED {test}: corpus folder {} not found (set GAMEFMT_CORPUS)",
            dir.display()
        );
        None
    }
}

/// Whether the corpus in use is the shared one, whose `SOURCES.md` files
/// give the facts that tests check totals and named files against. On a
/// corpus of other files (`GAMEFMT_CORPUS`: files the project has never
/// seen) only the general checks apply: no crash, and a reason for every
/// refusal.
pub fn shared_corpus() -> bool {
    let root = corpus_root();
    root.join("teeworlds/SOURCES.md").is_file() && root.join("slippi/SOURCES.md").is_file()
}

/// [`shared_corpus`], with a SKIPPED line naming `test` when not: for a
/// test of facts about the shared corpus's own files (named files, their
/// totals, oracle output committed for them).
pub fn facts_of_shared_corpus(test: &str) -> bool {
    let shared = shared_corpus();
    if !shared {
        eprintln!("SKIPPED {test}: facts of the shared corpus's files, not this corpus's");
    }
    shared
}

/// The bytes of the file `name` among `files`; `None` (after a SKIPPED
/// line naming `test`) when this corpus does not hold it.
pub fn named<'a>(test: &str, files: &'a [(String, Vec<u8>)], name: &str) -> Option<&'a [u8]> {
    let found = files
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, b)| b.as_slice());
    if found.is_none() {
        eprintln!("SKIPPED {test}: {name} is not in this corpus");
    }
    found
}

/// `$GAMEFMT_CORPUS`, or `../shared/corpus` beside the crate or the
/// workspace; it may not exist.
fn corpus_root() -> PathBuf {
    match std::env::var_os("GAMEFMT_CORPUS") {
        Some(d) => PathBuf::from(d),
        None => {
            // Beside the crate, or beside the workspace for a member crate
            // (gamefmt-arrow) that includes this module.
            let root = Path::new(env!("CARGO_MANIFEST_DIR"));
            let near = root.join("../shared/corpus");
            let far = root.join("../../shared/corpus");
            if !near.is_dir() && far.is_dir() {
                far
            } else {
                near
            }
        }
    }
}

/// The corpus folder `sub` (e.g. `teeworlds/demos`). `None` (after a
/// SKIPPED line naming `test`) when the corpus or that folder is absent
/// (an empty `GAMEFMT_CORPUS` folder has none).
pub fn corpus_subdir(test: &str, sub: &str) -> Option<PathBuf> {
    let dir = corpus_dir(test)?.join(sub);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("SKIPPED {test}: no folder {}", dir.display());
        None
    }
}

/// The text of the corpus file `rel` (e.g. an expected-facts file). `None`
/// (after a SKIPPED line naming `test`) when the corpus or that file is
/// absent (a corpus of other files, `GAMEFMT_CORPUS`, may lack it).
pub fn corpus_text(test: &str, rel: &str) -> Option<String> {
    let path = corpus_dir(test)?.join(rel);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(_) => {
            eprintln!("SKIPPED {test}: no file {}", path.display());
            None
        }
    }
}

/// Every file directly in `corpus/sub` whose name ends with `ext`, sorted,
/// with its bytes. `None` (after a SKIPPED line) when the corpus, or that
/// folder of it, is absent or holds no such file (a corpus of other files,
/// `GAMEFMT_CORPUS`, may hold only some formats).
pub fn corpus_files(test: &str, sub: &str, ext: &str) -> Option<Vec<(String, Vec<u8>)>> {
    let dir = corpus_dir(test)?.join(sub);
    let mut out = Vec::new();
    let Ok(listing) = std::fs::read_dir(&dir) else {
        eprintln!("SKIPPED {test}: no folder {}", dir.display());
        return None;
    };
    let mut entries: Vec<_> = listing
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().ends_with(ext))
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        out.push((name, std::fs::read(&path).unwrap()));
    }
    if out.is_empty() {
        eprintln!("SKIPPED {test}: no *{ext} files in {}", dir.display());
        return None;
    }
    Some(out)
}
