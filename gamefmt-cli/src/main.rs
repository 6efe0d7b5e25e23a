//! `gamefmt`: inspect, dump and validate game data files.
//!
//! Each input is a file, a directory (every file below it), a zip archive
//! (every member in it) or `-` (standard input); gzip, zstd and xz inputs
//! are decompressed on the fly, `.slpz` replays decoded.
//! The format is recognised from each file's first bytes. Teehistorian,
//! Slippi and demo files are streamed (memory stays flat whatever their
//! size); maps are read whole. An invalid file gives one line on stderr
//! naming the error and the byte offset where decoding failed.
//!
//! Several inputs are decoded in parallel (`--jobs`), their results printed
//! in input order, each line labelled with its file. Exit status: 0 when
//! every file decoded, 1 when some were refused, 2 on a usage or I/O error.
//!
//! Quirks the engines accept are read and reported as warnings: one
//! `gamefmt: FILE: warning: ...` line each on stderr after a successful
//! command, and the `warnings` array of `inspect --json` for maps and
//! replays; `--strict` refuses them where current DDNet does.
//!
//! `gamefmt export` writes Parquet and Arrow datasets in this process
//! (feature `export`, the `gamefmt-arrow` crate).

mod batch;
mod chat;
mod datafile;
mod demo;
mod demo_tools;
mod events;
#[cfg(feature = "export")]
mod export;
mod frame_set;
mod label;
mod map;
mod netmsg;
mod slippi;
mod slpz;
mod stats;
mod teehistorian;
mod tool_io;

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use gamefmt::{Format, Warning};

use gamefmt_cli::input::Input;
use gamefmt_cli::watch;

#[derive(Parser)]
#[command(
    name = "gamefmt",
    version,
    about = "Inspect, dump and validate game data files"
)]
struct Cli {
    /// Refuse the quirks current DDNet refuses (and every Slippi quirk)
    /// instead of reading them with a warning.
    #[arg(long, global = true)]
    strict: bool,
    #[command(subcommand)]
    command: Command,
}

/// The inputs every command takes.
#[derive(Args)]
struct Inputs {
    /// Files to read: paths, directories (read recursively), zip archives
    /// (their members; `a.zip/MEMBER` for one) or `-` for standard input;
    /// gzip, zstd and xz are decompressed, `.slpz` replays decoded.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Files decoded at once (default: one per core).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// Report the files found in directories that are not game files
    /// (refused, exit status 1) instead of skipping them (counted in the
    /// summary).
    #[arg(long)]
    all: bool,
}

/// How a command reads its file, and the warnings found so far.
#[derive(Default)]
pub struct Ctx {
    /// `--strict`: refuse quirks instead of reading them.
    pub strict: bool,
    /// Warnings found while reading.
    pub warnings: Vec<Warning>,
}

impl Ctx {
    /// The view of a datafile, strict or with its warnings collected here.
    pub fn open_datafile<'a>(
        &mut self,
        bytes: &'a [u8],
    ) -> Result<gamefmt::datafile::DatafileView<'a>, CliError> {
        Ok(if self.strict {
            gamefmt::datafile::DatafileView::parse_strict(bytes)?
        } else {
            gamefmt::datafile::DatafileView::parse_with(bytes, &mut self.warnings)?
        })
    }

    /// The `warnings` array of `inspect --json`: each the core's
    /// serialized warning (`kind`, `offset`, `message`).
    pub fn warnings_json(&self) -> serde_json::Value {
        serde_json::to_value(&self.warnings).unwrap_or_default()
    }
}

#[derive(Subcommand)]
enum Command {
    /// Print a short summary of each file.
    Inspect {
        /// Print one JSON object per file on one line instead (with a
        /// `file` key when there are several inputs).
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        inputs: Inputs,
    },
    /// Print one JSON line per record (item, message, event, chunk).
    Dump {
        /// For a map: one line per item in map terms (info, image, group,
        /// layer, ...) instead of raw datafile items.
        #[arg(long)]
        map: bool,
        #[command(flatten)]
        inputs: Inputs,
    },
    /// Decode each file completely; exit status 1 if anything in one is
    /// invalid.
    Validate {
        #[command(flatten)]
        inputs: Inputs,
    },
    /// Print the stats of Slippi replays (slippi-js 9.1.2's definitions):
    /// a per-player table.
    Stats {
        /// One JSON object per file instead (the stats' own field names).
        #[arg(long, conflicts_with = "slippi_js")]
        json: bool,
        /// One JSON object per file in slippi-js's shape instead:
        /// `getStats()`, or `getStadiumStats()` for Target Test and
        /// Home-Run Contest games.
        #[arg(long)]
        slippi_js: bool,
        #[command(flatten)]
        inputs: Inputs,
    },
    /// Print the chat of demos and teehistorian recordings (teehistorian:
    /// chat messages old servers recorded, and chat commands), one line per
    /// message: tick, author, channel, text (labelled with the file when
    /// there are several inputs). Other formats have no chat.
    Chat {
        /// One JSON object per line instead.
        #[arg(long)]
        json: bool,
        /// Also rcon lines: the server's rcon output in demos, clients'
        /// rcon commands in recordings.
        #[arg(long)]
        rcon: bool,
        /// Also server broadcasts (and DDNet's server and moderator
        /// alerts), in demos.
        #[arg(long)]
        broadcast: bool,
        #[command(flatten)]
        inputs: Inputs,
    },
    /// Print the events of demos and teehistorian recordings: kills, race
    /// finishes with times, votes and their results, joins and leaves, map
    /// changes; one line each (tick, kind, what happened). Other formats
    /// have none.
    Events {
        /// One JSON object per line instead (the core's event, its `tick`
        /// and the names of its clients).
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        inputs: Inputs,
    },
    /// Write demos: cut a tick range, strip the embedded map, repair a
    /// demo a crash left broken.
    #[command(subcommand)]
    Demo(demo_tools::DemoTool),
    /// Write a Slippi replay as an `.slpz` (about 10x smaller, restored
    /// byte for byte), or with `-d` an `.slpz` as its `.slp`.
    Slpz(slpz::SlpzArgs),
    /// Write the inputs' tables as Parquet or Arrow IPC datasets:
    /// OUT_DIR/format=F/table=T/part-NAME-NNNN.EXT.
    #[cfg(feature = "export")]
    Export(export::ExportArgs),
    /// Follow Slippi games as they are played (a growing `.slp`, a folder
    /// Dolphin writes replays into, or a console/relay at HOST:PORT): one
    /// JSON line per game start, stock lost and game end; `--record DIR`
    /// keeps each game as a `.slp`.
    Watch(watch::WatchArgs),
}

impl Command {
    /// Whether the output is JSON lines (labelled with a `file` key when
    /// there are several inputs) rather than text.
    const fn json(&self) -> bool {
        matches!(
            self,
            Self::Inspect { json: true, .. }
                | Self::Dump { .. }
                | Self::Stats { json: true, .. }
                | Self::Stats {
                    slippi_js: true,
                    ..
                }
                | Self::Chat { json: true, .. }
                | Self::Events { json: true, .. }
        )
    }
}

/// Why a command failed on one file; printed as one line on stderr.
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

impl From<gamefmt::stream::ReadError> for CliError {
    fn from(e: gamefmt::stream::ReadError) -> Self {
        match e {
            gamefmt::stream::ReadError::Io(e) => Self::Io(e),
            gamefmt::stream::ReadError::Decode(e) => Self::Decode(e),
        }
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
pub fn json_line(out: &mut dyn Write, value: &(impl serde::Serialize + ?Sized)) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")
}

/// Runs `command` on one opened input, writing its output to `out`;
/// `ctx` says whether quirks are refused (`--strict`) and collects the
/// warnings about them, `warnings` what else is worth saying but not a
/// failure.
fn run(
    command: &Command,
    input: &mut Input,
    ctx: &mut Ctx,
    out: &mut dyn Write,
    warnings: &mut Vec<String>,
) -> Result<(), CliError> {
    let format = Format::detect(input.head()).ok_or(CliError::UnknownFormat)?;
    match (format, command) {
        (
            Format::Slippi,
            Command::Stats {
                json, slippi_js, ..
            },
        ) => {
            let output = match (json, slippi_js) {
                (_, true) => stats::Output::SlippiJs,
                (true, _) => stats::Output::Json,
                _ => stats::Output::Text,
            };
            stats::stats(input, output, ctx, out, warnings)
        }
        (_, Command::Stats { .. }) => Err(CliError::Invalid(
            "stats are computed for Slippi replays only".into(),
        )),
        // Maps and Slippi replays have no chat and no events.
        (Format::Datafile | Format::Slippi, Command::Chat { .. } | Command::Events { .. }) => {
            Ok(())
        }
        (Format::Demo, Command::Events { json, .. }) => events::demo(input, *json, out),
        (Format::Teehistorian, Command::Events { json, .. }) => {
            events::teehistorian(input, *json, out)
        }
        (Format::Datafile, command) => {
            let bytes = input.read_all()?;
            match command {
                Command::Inspect { json, .. } => datafile::inspect(&bytes, *json, ctx, out),
                Command::Dump { map: true, .. } => map::dump(&bytes, ctx, out),
                Command::Dump { .. } => datafile::dump(&bytes, ctx, out),
                Command::Validate { .. } => datafile::validate(&bytes, ctx, out),
                _ => Err(CliError::UnknownFormat),
            }
        }
        (Format::Demo, Command::Inspect { json, .. }) => demo::inspect(input, *json, out),
        (Format::Demo, Command::Dump { .. }) => demo::dump(input, out),
        (Format::Demo, Command::Validate { .. }) => demo::validate(input, out),
        (Format::Slippi, Command::Inspect { json, .. }) => {
            slippi::inspect(input, *json, ctx, out, warnings)
        }
        (Format::Slippi, Command::Dump { .. }) => slippi::dump(input, ctx, out),
        (Format::Slippi, Command::Validate { .. }) => slippi::validate(input, ctx, out),
        (Format::Teehistorian, Command::Inspect { json, .. }) => {
            teehistorian::inspect(input, *json, out)
        }
        (Format::Teehistorian, Command::Dump { .. }) => teehistorian::dump(input, out),
        (Format::Teehistorian, Command::Validate { .. }) => teehistorian::validate(input, out),
        (
            Format::Demo,
            Command::Chat {
                json,
                rcon,
                broadcast,
                ..
            },
        ) => chat::demo(
            input,
            chat::Options {
                json: *json,
                rcon: *rcon,
                broadcast: *broadcast,
            },
            out,
        ),
        (
            Format::Teehistorian,
            Command::Chat {
                json,
                rcon,
                broadcast,
                ..
            },
        ) => {
            let options = chat::Options {
                json: *json,
                rcon: *rcon,
                broadcast: *broadcast,
            };
            chat::teehistorian(input, options, out)
        }
        _ => Err(CliError::UnknownFormat),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match &cli.command {
        Command::Demo(tool) => demo_tools::run(tool),
        Command::Slpz(args) => slpz::run(args),
        #[cfg(feature = "export")]
        Command::Export(args) => export::run(args),
        Command::Watch(args) => watch::run(args),
        Command::Inspect { inputs, .. }
        | Command::Dump { inputs, .. }
        | Command::Stats { inputs, .. }
        | Command::Validate { inputs }
        | Command::Chat { inputs, .. }
        | Command::Events { inputs, .. } => batch::run_all(&cli.command, inputs, cli.strict),
    }
}
