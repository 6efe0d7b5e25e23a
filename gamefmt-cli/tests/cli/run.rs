//! Runs the built `gamefmt` for the test modules that only need its
//! standard output.
#![allow(
    clippy::unwrap_used,
    reason = "a test helper: a command that cannot run fails the test"
)]

use std::path::Path;
use std::process::Command;

/// `gamefmt ARGS PATH`'s standard output; fails the test, with the
/// command's standard error, when the command fails.
pub fn stdout_of(args: &[&str], path: &Path) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_gamefmt"))
        .args(args)
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "gamefmt {args:?} {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}
