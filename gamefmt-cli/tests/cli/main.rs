//! The `gamefmt` binary's tests, one integration binary: each module runs
//! the built command on synthetic files and on the corpus
//! (`../shared/corpus` or `GAMEFMT_CORPUS`; SKIPPED lines without it).

#[path = "../../../tests/common/mod.rs"]
mod common;

mod archives;
mod bulk;
mod chat;
mod compat;
mod datafile;
mod demo;
#[path = "../../../tests/common/demo_events.rs"]
mod demo_events;
mod demo_tools;
mod duckdb;
mod events;
mod map;
mod registry;
mod run;
mod slippi;
#[path = "../../../tests/common/slippi_build.rs"]
mod slippi_build;
#[path = "../../../tests/common/slippi_expected.rs"]
mod slippi_expected;
mod slpz;
mod stats;
mod teehistorian;
mod watch;
