//! `gamefmt demo`: tools that write demos — `cut` a tick range, `strip-map`
//! the embedded map, `repair` a demo a crash left broken. Each reads one
//! demo whole (a path or `-`, compressed or not), writes one demo (`-o
//! FILE`, or `-o -` for standard output) and prints one summary line
//! (on standard error when the demo goes to standard output). The work is
//! the core's [`gamefmt::demo::cut`], [`gamefmt::demo::strip_map`] and
//! [`gamefmt::demo::repair`].
//!
//! Exit status as for the other commands: 0 when the demo was written, 1
//! when the input is refused (not a demo, damaged where it matters, no
//! snapshot in the range), 2 on a usage or I/O error.

use std::path::Path;
use std::process::ExitCode;

use crate::tool_io::{self, InOut, ToolError, check_output, refused, shown};
use clap::Subcommand;
use gamefmt::Format;
use gamefmt::demo::{self, Chunk, DemoView};

/// The demo tools.
#[derive(Subcommand)]
pub enum DemoTool {
    /// Write the part of a demo between two ticks (both included) as a
    /// demo of its own: it starts with a keyframe and holds the original's
    /// snapshots, messages and timeline markers of the range.
    Cut {
        /// The first tick kept (default: the demo's first).
        #[arg(long, allow_negative_numbers = true)]
        from: Option<i32>,
        /// The last tick kept (default: the demo's last).
        #[arg(long, allow_negative_numbers = true)]
        to: Option<i32>,
        #[command(flatten)]
        io: InOut,
    },
    /// Write a demo without its embedded map (map name, CRC and SHA-256
    /// are kept: a player loads the map by them).
    StripMap {
        #[command(flatten)]
        io: InOut,
    },
    /// Make a valid demo of one a crash left broken or whose recorder
    /// never wrote its length: everything that decodes is kept, a
    /// trailing partial chunk dropped, the length set from its ticks.
    Repair {
        #[command(flatten)]
        io: InOut,
    },
}

/// Runs a demo tool; prints its summary or its error and returns the exit
/// status.
pub fn run(tool: &DemoTool) -> ExitCode {
    tool_io::exit_status(match tool {
        DemoTool::Cut { from, to, io } => cut(io, *from, *to),
        DemoTool::StripMap { io } => strip_map(io),
        DemoTool::Repair { io } => repair(io),
    })
}

/// Reads the whole input demo (decompressed); refuses anything that is
/// not a demo.
fn read_demo(path: &Path) -> Result<Vec<u8>, ToolError> {
    tool_io::read_input(path, Format::Demo, "a Teeworlds/DDNet demo")
}

/// The first and last tick markers of a demo's chunk stream (up to where
/// it stops decoding), with the number of tick markers.
fn tick_range(view: &DemoView<'_>) -> (Option<i32>, Option<i32>, usize) {
    let mut first = None;
    let mut last = None;
    let mut n = 0usize;
    for chunk in view.chunks() {
        let Ok(Chunk::Tick { tick, .. }) = chunk else {
            continue;
        };
        first.get_or_insert(tick);
        last = Some(tick);
        n = n.saturating_add(1);
    }
    (first, last, n)
}

/// `a..=b` for a summary, `none` when empty.
fn range_text(first: Option<i32>, last: Option<i32>) -> String {
    match (first, last) {
        (Some(a), Some(b)) => format!("ticks {a}..={b}"),
        _ => "no ticks".to_owned(),
    }
}

fn cut(io: &InOut, from: Option<i32>, to: Option<i32>) -> Result<(), ToolError> {
    check_output(io)?;
    if let (Some(a), Some(b)) = (from, to)
        && a > b
    {
        return Err(ToolError::Io(format!(
            "demo cut: --from {a} is after --to {b}"
        )));
    }
    let input = &io.input;
    let bytes = read_demo(input)?;
    let view = DemoView::parse(&bytes).map_err(|e| refused(input, "cannot read the header", e))?;
    let (first, last, _) = tick_range(&view);
    let asked = match (from, to) {
        (Some(a), Some(b)) => format!("between tick {a} and tick {b}"),
        (Some(a), None) => format!("from tick {a} on"),
        (None, Some(b)) => format!("up to tick {b}"),
        (None, None) => "at all".to_owned(),
    };
    let from = from.or(first).unwrap_or(0);
    let to = to.or(last).unwrap_or(i32::MAX);
    let part = if from <= to {
        demo::cut(&bytes, from, to).map_err(|e| refused(input, "cannot cut", e))?
    } else {
        Vec::new()
    };
    let no_snapshot = || {
        ToolError::Refused(format!(
            "{}: no snapshot {asked} (the demo has {})",
            shown(input),
            range_text(first, last)
        ))
    };
    let Ok(part_view) = DemoView::parse(&part) else {
        return Err(no_snapshot());
    };
    let (a, b, n) = tick_range(&part_view);
    if n == 0 {
        return Err(no_snapshot());
    }
    let summary = format!(
        "{}: cut {} ({} tick markers, {} s) of {}: {} bytes",
        shown(&io.output),
        range_text(a, b),
        n,
        part_view.header().length_seconds(),
        range_text(first, last),
        part.len()
    );
    tool_io::write_output(io, &part, &summary)
}

fn strip_map(io: &InOut) -> Result<(), ToolError> {
    check_output(io)?;
    let input = &io.input;
    let bytes = read_demo(input)?;
    let view = DemoView::parse(&bytes).map_err(|e| refused(input, "cannot read the header", e))?;
    let header = view.header();
    let map = view.map_data().len();
    let stripped = demo::strip_map(&bytes).map_err(|e| refused(input, "cannot strip", e))?;
    let summary = if map == 0 {
        format!(
            "{}: map {} was not embedded; demo copied ({} bytes)",
            shown(&io.output),
            header.map_name(),
            stripped.len()
        )
    } else {
        format!(
            "{}: map {} (crc {:08x}, {map} bytes) removed: {} bytes",
            shown(&io.output),
            header.map_name(),
            header.map_crc(),
            stripped.len()
        )
    };
    tool_io::write_output(io, &stripped, &summary)
}

fn repair(io: &InOut) -> Result<(), ToolError> {
    check_output(io)?;
    let input = &io.input;
    let bytes = read_demo(input)?;
    let (fixed, report) =
        demo::repair(&bytes).map_err(|e| refused(input, "nothing to repair", e))?;
    if report.first_tick.is_none() {
        return Err(ToolError::Refused(format!(
            "{}: no snapshot decodes: nothing to keep",
            shown(input)
        )));
    }
    let summary = format!(
        "{}: kept {}, length {} s (was {} s); dropped {} bytes ({} chunks before the first snapshot): {} bytes",
        shown(&io.output),
        range_text(report.first_tick, report.last_tick),
        report.length_after,
        report.length_before,
        report.dropped_bytes,
        report.dropped_leading,
        fixed.len()
    );
    tool_io::write_output(io, &fixed, &summary)
}
