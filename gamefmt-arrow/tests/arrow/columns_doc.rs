//! The crate docs' column list (`COLUMNS.md`) is the tables' own
//! description, generated from the schemas: it must not drift. Run with
//! `GAMEFMT_BLESS=1` to rewrite it after changing a table.
#![allow(clippy::unwrap_used, clippy::panic, reason = "test")]

use gamefmt_arrow::Table;

#[test]
fn columns_md_matches_the_schemas() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/COLUMNS.md");
    let generated = Table::markdown();
    if std::env::var_os("GAMEFMT_BLESS").is_some() {
        std::fs::write(path, &generated).unwrap();
    }
    let stored = std::fs::read_to_string(path).unwrap();
    assert!(
        stored == generated,
        "COLUMNS.md is out of date: rerun with GAMEFMT_BLESS=1"
    );
    // Every table's schema is its documented columns, `file` first.
    for table in Table::all() {
        let schema = table.schema();
        assert_eq!(schema.field(0).name(), "file");
        assert_eq!(schema.fields().len(), table.columns().len());
    }
}
