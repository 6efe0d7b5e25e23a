//! What the commands that read one file and write one share (`gamefmt
//! demo cut|strip-map|repair`, `gamefmt slpz`): the input and output
//! paths (`-` for standard input and output), reading the input whole and
//! decompressed, refusing to write binary data to a terminal, the summary
//! line (on standard error when the data goes to standard output), and
//! the exit status: 0 when the output was written, 1 when the input is
//! refused, 2 on a usage or I/O error.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use gamefmt::Format;
use indicatif::ProgressBar;

use gamefmt_cli::input::Input;

/// Exit status when the input is refused.
const REFUSED: u8 = 1;
/// Exit status on a usage or I/O error.
const IO_ERROR: u8 = 2;

/// The input file and where the output goes.
#[derive(Args)]
pub struct InOut {
    /// The file to read (`-`: standard input; gzip, zstd and xz are
    /// decompressed, `.slpz` decoded).
    pub input: PathBuf,
    /// Where to write the result (`-`: standard output).
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
}

/// Why a tool failed; printed as one line on stderr.
pub enum ToolError {
    /// Usage or I/O: exit status 2.
    Io(String),
    /// The input is refused: exit status 1.
    Refused(String),
}

/// Prints a tool's error, if any, and returns its exit status.
pub fn exit_status(result: Result<(), ToolError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(ToolError::Io(what)) => {
            eprintln!("gamefmt: {what}");
            ExitCode::from(IO_ERROR)
        }
        Err(ToolError::Refused(what)) => {
            eprintln!("gamefmt: {what}");
            ExitCode::from(REFUSED)
        }
    }
}

/// A path as the messages name it (`-` for standard input/output).
pub fn shown(path: &Path) -> std::path::Display<'_> {
    path.display()
}

/// Reads the whole input (decompressed); refuses anything that is not
/// `format` (`what` names it in the message).
pub fn read_input(path: &Path, format: Format, what: &str) -> Result<Vec<u8>, ToolError> {
    let io_err = |e: io::Error| ToolError::Io(format!("{}: {e}", shown(path)));
    let mut input = Input::open(path, &ProgressBar::hidden()).map_err(io_err)?;
    if Format::detect(input.head()) != Some(format) {
        return Err(ToolError::Refused(format!("{}: not {what}", shown(path))));
    }
    input.read_all().map_err(io_err)
}

/// Checks the output can be written before any work is done: standard
/// output must not be a terminal.
pub fn check_output(io: &InOut) -> Result<(), ToolError> {
    if io.output.as_os_str() == "-" && io::stdout().is_terminal() {
        return Err(ToolError::Io(
            "refusing to write binary data to a terminal: give -o FILE or redirect standard output"
                .to_owned(),
        ));
    }
    Ok(())
}

/// Writes the output, then its summary line: on stdout, or on stderr
/// when the output itself went to stdout.
pub fn write_output(io: &InOut, bytes: &[u8], summary: &str) -> Result<(), ToolError> {
    let out = &io.output;
    let io_err = |e: io::Error| ToolError::Io(format!("{}: {e}", shown(out)));
    if out.as_os_str() == "-" {
        let mut stdout = io::stdout().lock();
        stdout.write_all(bytes).map_err(io_err)?;
        stdout.flush().map_err(io_err)?;
        eprintln!("{summary}");
    } else {
        std::fs::write(out, bytes).map_err(io_err)?;
        println!("{summary}");
    }
    Ok(())
}

/// A refusal naming the input.
pub fn refused(path: &Path, what: &str, e: gamefmt::Error) -> ToolError {
    ToolError::Refused(format!("{}: {what}: {e}", shown(path)))
}
