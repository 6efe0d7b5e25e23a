//! `gamefmt export`: runs `gamefmt-export export ...` (the `gamefmt-arrow`
//! crate, which depends on this one and so cannot be part of it), the way
//! git and cargo run their external subcommands: the `gamefmt-export` next
//! to this executable first, then the one on `PATH`.

use std::ffi::OsString;
use std::io;
use std::path::PathBuf;
use std::process::{Command, ExitCode};

/// The tool's name.
const TOOL: &str = "gamefmt-export";
/// Exit status when the tool cannot be run (a usage or I/O error).
const IO_ERROR: u8 = 2;

/// Where to find the tool: beside the current executable if it is there,
/// else by name on `PATH`.
fn tool() -> PathBuf {
    let name = format!("{TOOL}{}", std::env::consts::EXE_SUFFIX);
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(&name)))
        .filter(|path| path.is_file())
        .unwrap_or_else(|| PathBuf::from(name))
}

/// Runs `gamefmt-export export ARGS...` and returns its exit status.
pub fn run(args: &[OsString]) -> ExitCode {
    let status = Command::new(tool()).arg("export").args(args).status();
    match status {
        Ok(status) => status
            .code()
            .and_then(|c| u8::try_from(c).ok())
            .map_or(ExitCode::from(IO_ERROR), ExitCode::from),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            eprintln!(
                "gamefmt: export needs the {TOOL} tool, which is not installed: \
                 `cargo install gamefmt-arrow` (or, in the gamefmt workspace, \
                 `cargo build -p gamefmt-arrow`) puts it beside gamefmt or on PATH"
            );
            ExitCode::from(IO_ERROR)
        }
        Err(e) => {
            eprintln!("gamefmt: cannot run {TOOL}: {e}");
            ExitCode::from(IO_ERROR)
        }
    }
}
