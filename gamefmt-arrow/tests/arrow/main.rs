//! gamefmt-arrow's tests, one binary (one link of arrow and parquet): the
//! public API, the column docs against the schemas, the in-memory routes
//! against the streamed ones on the corpus, and the format registry.
//! `cargo test -p gamefmt-arrow --test arrow -- registry::` runs one part.

#[path = "../../../tests/common/mod.rs"]
mod common;

mod api;
mod columns_doc;
mod in_memory;
mod registry;
