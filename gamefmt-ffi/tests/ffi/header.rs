//! `include/gamefmt.h` is what cbindgen makes of the crate today: fails
//! when the committed header is stale. `GAMEFMT_BLESS=1` rewrites it.

use std::path::Path;

#[test]
fn header_is_current() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).unwrap();
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .unwrap()
        .write(&mut generated);
    let path = crate_dir.join("include/gamefmt.h");
    if std::env::var_os("GAMEFMT_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} is stale: run GAMEFMT_BLESS=1 cargo test -p gamefmt-ffi --test ffi -- header::",
        path.display()
    );
}
