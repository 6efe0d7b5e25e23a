//! The export's registry of tables covers every format the core knows:
//! each [`gamefmt::Format`] has tables, and each table belongs to one.

use gamefmt::Format;
use gamefmt_arrow::Table;

#[test]
fn every_format_has_tables_and_every_table_a_format() {
    for format in Format::ALL {
        let tables = Table::of(format);
        assert!(!tables.is_empty(), "no Arrow tables for {}", format.name());
        for table in tables {
            assert_eq!(
                table.input_format(),
                format,
                "{} listed under {}",
                table.name(),
                format.name()
            );
        }
    }
    for table in Table::all() {
        assert!(
            Format::ALL.contains(&table.input_format()),
            "table {} of a format outside Format::ALL",
            table.name()
        );
        assert!(
            Table::of(table.input_format()).contains(table),
            "table {} missing from Table::of",
            table.name()
        );
    }
}
