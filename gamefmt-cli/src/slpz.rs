//! `gamefmt slpz`: an `.slp` replay written as an `.slpz` (the slpz
//! crate's compressed format, read by rwing and by every gamefmt command),
//! or with `--decompress` an `.slpz` written back as the `.slp` it was
//! made from, byte for byte. The work is the core's
//! [`gamefmt::slippi::compress_slpz`] and
//! [`gamefmt::slippi::decompress_slpz`] (the input layer decodes an
//! `.slpz` input). Output and exit status as the demo tools'
//! ([`crate::tool_io`]).

use std::process::ExitCode;

use clap::Args;
use gamefmt::Format;
use gamefmt::slippi::compress_slpz;

use crate::tool_io::{self, InOut, ToolError, check_output, refused, shown};

/// `gamefmt slpz`'s arguments.
#[derive(Args)]
pub struct SlpzArgs {
    /// Write the `.slp` a `.slpz` input was made from instead (any
    /// Slippi input is written as its `.slp` bytes).
    #[arg(short = 'd', long)]
    decompress: bool,
    #[command(flatten)]
    io: InOut,
}

/// Runs `gamefmt slpz`; prints its summary or its error and returns the
/// exit status.
pub fn run(args: &SlpzArgs) -> ExitCode {
    tool_io::exit_status(convert(args))
}

fn convert(args: &SlpzArgs) -> Result<(), ToolError> {
    let io = &args.io;
    check_output(io)?;
    let slp = tool_io::read_input(&io.input, Format::Slippi, "a Slippi replay")?;
    if args.decompress {
        let summary = format!("{}: .slp, {} bytes", shown(&io.output), slp.len());
        return tool_io::write_output(io, &slp, &summary);
    }
    let slpz = compress_slpz(&slp).map_err(|e| refused(&io.input, "cannot compress", e))?;
    #[allow(clippy::cast_precision_loss, reason = "a ratio for people to read")]
    let ratio = slp.len() as f64 / slpz.len().max(1) as f64;
    let summary = format!(
        "{}: .slpz, {} bytes ({} bytes of .slp, {ratio:.1}x smaller)",
        shown(&io.output),
        slpz.len(),
        slp.len()
    );
    tool_io::write_output(io, &slpz, &summary)
}
