//! `gamefmt`: inspect, dump and validate game data files.
//!
//! The format is recognised from the file's first bytes. An invalid file
//! exits with status 1 and one line on stderr naming the error and the byte
//! offset where decoding failed.

mod chat;
mod datafile;
mod demo;
mod map;
mod netmsg;
mod slippi;
mod teehistorian;

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use gamefmt::Format;

#[derive(Parser)]
#[command(
    name = "gamefmt",
    version,
    about = "Inspect, dump and validate game data files"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print a short summary of a file.
    Inspect {
        /// Print exactly one JSON object on one line instead.
        #[arg(long)]
        json: bool,
        /// The file to read.
        file: PathBuf,
    },
    /// Print one JSON line per record (item, message, event, chunk).
    Dump {
        /// For a map: one line per item in map terms (info, image, group,
        /// layer, ...) instead of raw datafile items.
        #[arg(long)]
        map: bool,
        /// The file to read.
        file: PathBuf,
    },
    /// Decode a file completely; exit status 1 if anything in it is invalid.
    Validate {
        /// The file to read.
        file: PathBuf,
    },
    /// Print the chat of demos and teehistorian recordings (teehistorian:
    /// chat messages old servers recorded, and chat commands), one line per
    /// message: file, tick, author, channel, text.
    Chat {
        /// One JSON object per line instead.
        #[arg(long)]
        json: bool,
        /// The files to read.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// Why a command failed; printed as one line on stderr.
pub enum CliError {
    /// Reading the file or writing the output failed.
    Io(io::Error),
    /// The first bytes match no supported format.
    UnknownFormat,
    /// The file is invalid.
    Decode(gamefmt::Error),
    /// The file decodes but fails a check `validate` makes.
    Invalid(String),
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        Self::Io(e)
    }
}

impl From<gamefmt::Error> for CliError {
    fn from(e: gamefmt::Error) -> Self {
        Self::Decode(e)
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Io(e) => write!(f, "{e}"),
            Self::UnknownFormat => f.write_str("unrecognised file format"),
            Self::Decode(e) => write!(f, "{e}"),
            Self::Invalid(what) => f.write_str(what),
        }
    }
}

/// Writes one JSON value on its own line.
pub fn json_line(out: &mut dyn Write, value: &serde_json::Value) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")
}

fn run(command: &Command, out: &mut dyn Write) -> Result<(), CliError> {
    let (Command::Inspect { file, .. } | Command::Dump { file, .. } | Command::Validate { file }) =
        command
    else {
        let Command::Chat { json, files } = command else {
            return Err(CliError::UnknownFormat);
        };
        return chat::chat(files, *json, out);
    };
    let bytes = std::fs::read(file)?;
    let format = Format::detect(&bytes).ok_or(CliError::UnknownFormat)?;
    match (format, command) {
        (Format::Datafile, Command::Inspect { json, .. }) => datafile::inspect(&bytes, *json, out),
        (Format::Datafile, Command::Dump { map: true, .. }) => map::dump(&bytes, out),
        (Format::Datafile, Command::Dump { .. }) => datafile::dump(&bytes, out),
        (Format::Datafile, Command::Validate { .. }) => datafile::validate(&bytes, out),
        (Format::Demo, Command::Inspect { json, .. }) => demo::inspect(&bytes, *json, out),
        (Format::Demo, Command::Dump { .. }) => demo::dump(&bytes, out),
        (Format::Demo, Command::Validate { .. }) => demo::validate(&bytes, out),
        (Format::Slippi, Command::Inspect { json, .. }) => slippi::inspect(&bytes, *json, out),
        (Format::Slippi, Command::Dump { .. }) => slippi::dump(&bytes, out),
        (Format::Slippi, Command::Validate { .. }) => slippi::validate(&bytes, out),
        (Format::Teehistorian, Command::Inspect { json, .. }) => {
            teehistorian::inspect(&bytes, *json, out)
        }
        (Format::Teehistorian, Command::Dump { .. }) => teehistorian::dump(&bytes, out),
        (Format::Teehistorian, Command::Validate { .. }) => teehistorian::validate(&bytes, out),
        _ => Err(CliError::UnknownFormat),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = run(&cli.command, &mut out).and_then(|()| out.flush().map_err(CliError::Io));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            match &cli.command {
                Command::Inspect { file, .. }
                | Command::Dump { file, .. }
                | Command::Validate { file } => eprintln!("gamefmt: {}: {e}", file.display()),
                Command::Chat { .. } => eprintln!("gamefmt: {e}"),
            }
            ExitCode::FAILURE
        }
    }
}
