//! No two sibling modules of any crate of the workspace use each other,
//! directly or around a loop (issues 14 and 28): in the core (`src/`), the
//! CLI, the C ABI, the Arrow crate and the Python package, every `crate::`
//! and `super::` path (outside `mod tests`) is resolved to the module it
//! names, and the graph of uses between siblings must have no cycle. A parent and its
//! children may use each other (`mod.rs` re-exports, children read its
//! constants); that is not counted.
#![allow(
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

type Module = Vec<String>;

/// Uses left out of the graph (none since the streaming refactor of issue
/// 14 moved `SlippiEventIter` out of `slippi::events`). An entry that no
/// longer matches a use fails the test, so the list stays empty as cycles
/// go.
const KNOWN: &[(&str, &str)] = &[];

/// Every library source file by module path (`src/a/mod.rs` and `src/a.rs`
/// are `["a"]`, `src/lib.rs` is `[]`), with comments and the test module cut.
fn modules(dir: &Path, prefix: &[String], out: &mut BTreeMap<Module, String>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
        let mut module = prefix.to_vec();
        if path.is_dir() {
            if name != "bin" {
                module.push(name);
                modules(&path, &module, out);
            }
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        if name != "mod" && name != "lib" && name != "main" {
            module.push(name);
        }
        let text = fs::read_to_string(&path).unwrap();
        let text = text.split("#[cfg(test)]\nmod tests").next().unwrap();
        let code: Vec<&str> = text
            .lines()
            .map(|l| l.split("//").next().unwrap())
            .collect();
        out.insert(module, code.join("\n"));
    }
}

/// The paths a use tree starting at `s` names, as segments; `{a, b::c}`
/// groups are expanded.
fn paths(s: &str) -> Vec<Vec<String>> {
    let s = s.trim_start();
    if let Some(inner) = s.strip_prefix('{') {
        let (mut depth, mut start, mut out) = (0, 0, Vec::new());
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    out.extend(paths(&inner[start..i]));
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    out.extend(paths(&inner[start..i]));
                    start = i + 1;
                }
                _ => {}
            }
        }
        return out;
    }
    let end = s
        .find(|c: char| !c.is_alphanumeric() && c != '_')
        .unwrap_or(s.len());
    let (first, rest) = s.split_at(end);
    if first.is_empty() {
        return Vec::new();
    }
    match rest.strip_prefix("::") {
        Some(rest) => {
            let mut out: Vec<_> = paths(rest);
            out.iter_mut().for_each(|p| p.insert(0, first.to_owned()));
            if out.is_empty() {
                out.push(vec![first.to_owned()]);
            }
            out
        }
        None => vec![vec![first.to_owned()]],
    }
}

/// The sibling modules `from` uses: for each path, the child of the common
/// ancestor on either side, when neither module contains the other.
fn sibling_uses(from: &Module, code: &str, all: &BTreeMap<Module, String>) -> BTreeSet<Module> {
    let mut out = BTreeSet::new();
    for (at, _) in code.match_indices("::") {
        let before = &code[..at];
        let word_at = before
            .rfind(|c: char| !c.is_alphanumeric() && c != '_')
            .map_or(0, |i| i + 1);
        let root = &before[word_at..];
        if (root != "crate" && root != "super") || before[..word_at].ends_with("::") {
            continue;
        }
        for path in paths(&code[word_at..]) {
            let mut target: Module = match root {
                "crate" => Vec::new(),
                _ => from
                    .split_last()
                    .map_or(Vec::new(), |(_, parent)| parent.to_vec()),
            };
            for seg in &path[1..] {
                if seg == "super" {
                    target.pop();
                    continue;
                }
                target.push(seg.clone());
                if !all.contains_key(&target) {
                    target.pop();
                    break;
                }
            }
            let common = from.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if common < from.len() && common < target.len() {
                out.insert(target[..=common].to_vec());
            }
        }
    }
    out
}

/// Each crate's source folder, and at least how many modules it has (so
/// that a moved folder fails rather than passes empty).
const CRATES: &[(&str, usize)] = &[
    ("src", 40),
    ("gamefmt-cli/src", 10),
    ("gamefmt-ffi/src", 10),
    ("gamefmt-arrow/src", 8),
    ("python/src", 8),
];

#[test]
fn no_module_cycles() {
    for &(dir, at_least) in CRATES {
        let mut all = BTreeMap::new();
        modules(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join(dir),
            &[],
            &mut all,
        );
        assert!(
            all.len() >= at_least,
            "{dir}: found only {} modules",
            all.len()
        );
        check(dir, &all);
    }
}

/// Fails on a cycle among the sibling modules of one crate.
fn check(dir: &str, all: &BTreeMap<Module, String>) {
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    let mut known_seen = BTreeSet::new();
    for (module, code) in all {
        for target in sibling_uses(module, code, all) {
            let from = module[..target.len()].to_vec();
            let pair = (from.join("::"), target.join("::"));
            if KNOWN.contains(&(pair.0.as_str(), pair.1.as_str())) {
                known_seen.insert(pair);
                continue;
            }
            edges.entry(from).or_default().insert(target);
        }
    }
    for &(from, to) in KNOWN {
        let pair = (from.to_owned(), to.to_owned());
        assert!(
            known_seen.contains(&pair),
            "{from} no longer uses {to}: remove it from KNOWN"
        );
    }
    // A cycle exists iff some module reaches itself.
    for start in edges.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<(Module, Vec<Module>)> = vec![(start.clone(), vec![start.clone()])];
        while let Some((m, trail)) = stack.pop() {
            for next in edges.get(&m).into_iter().flatten() {
                if next == start {
                    let names: Vec<_> = trail.iter().map(|m| m.join("::")).collect();
                    panic!(
                        "{dir}: module cycle: {} -> {}",
                        names.join(" -> "),
                        start.join("::")
                    );
                }
                if seen.insert(next.clone()) {
                    let mut t = trail.clone();
                    t.push(next.clone());
                    stack.push((next.clone(), t));
                }
            }
        }
    }
}
