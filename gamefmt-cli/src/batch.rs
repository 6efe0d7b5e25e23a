//! Running a command over every input: in parallel on `--jobs` threads
//! (rayon), results printed in input order, a progress bar, a closing
//! summary when there are several inputs, and the exit status.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Instant;

use indicatif::ProgressBar;
use rayon::prelude::*;

use crate::label::Labelled;
use crate::{CliError, Command, Ctx, Inputs, run};
use gamefmt_cli::input::{self, Input, STDIN, progress};

/// Exit status when some file was refused (invalid or unrecognised).
const REFUSED: u8 = 1;
/// Exit status on a usage or I/O error.
const IO_ERROR: u8 = 2;

/// What became of one file.
struct Outcome {
    /// Its output when it was buffered for ordering (empty when it went
    /// straight to stdout).
    output: Vec<u8>,
    result: Result<(), CliError>,
    warnings: Vec<String>,
}

/// Totals for the summary and the exit status.
#[derive(Default)]
struct Tally {
    files: usize,
    decoded: usize,
    with_warnings: usize,
    refused: usize,
    /// Files found in a directory that are no game file (not reported
    /// without `--all`).
    skipped: usize,
    io_errors: usize,
    broken_pipe: bool,
}

/// Runs `command` on every input (refusing quirks when `strict`) and
/// returns the exit status.
pub fn run_all(command: &Command, inputs: &Inputs, strict: bool) -> ExitCode {
    let found = match input::expand_found(&inputs.files) {
        Ok(found) => found,
        Err(e) => {
            eprintln!("gamefmt: {e}");
            return ExitCode::from(IO_ERROR);
        }
    };
    // Files found in a directory that are not game files are skipped
    // (counted) unless `--all` asks for them.
    let skip: Vec<bool> = found.iter().map(|f| f.walked && !inputs.all).collect();
    let files: Vec<PathBuf> = found.into_iter().map(|f| f.path).collect();
    // A folder or an archive labels its files even when it holds one.
    let several = files.len() > 1
        || inputs
            .files
            .iter()
            .any(|p| p.is_dir() || input::zip::is_zip(p));
    let total = files
        .iter()
        .filter(|p| p.as_os_str() != STDIN)
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .fold(0u64, u64::saturating_add);
    let bar = progress::bar(total, files.len());
    let started = Instant::now();
    let jobs = inputs.jobs.unwrap_or(0);
    let mut tally = Tally {
        files: files.len(),
        ..Tally::default()
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if !several || jobs == 1 {
        // In order on this thread, output streamed (constant memory).
        for (path, &skip) in files.iter().zip(&skip) {
            let label = several.then(|| name(path));
            let outcome = process(command, strict, path, &bar, &mut out, label.as_deref());
            report(
                command, path, skip, outcome, several, &mut out, &bar, &mut tally,
            );
            if tally.broken_pipe {
                break;
            }
        }
    } else {
        parallel(
            command, strict, &files, &skip, jobs, &bar, &mut out, &mut tally,
        );
    }
    let flushed = out.flush();
    drop(out);
    bar.finish();
    if !bar.is_hidden() {
        // The finished bar stays; what follows goes below it.
        eprintln!();
    }
    if several {
        summary(&files, &tally, bar.position(), started);
    }
    if tally.broken_pipe || matches!(&flushed, Err(e) if e.kind() == io::ErrorKind::BrokenPipe) {
        return ExitCode::SUCCESS;
    }
    if let Err(e) = flushed {
        eprintln!("gamefmt: {e}");
        return ExitCode::from(IO_ERROR);
    }
    if tally.io_errors > 0 {
        ExitCode::from(IO_ERROR)
    } else if tally.refused > 0 {
        ExitCode::from(REFUSED)
    } else {
        ExitCode::SUCCESS
    }
}

/// Decodes the files on a pool of `jobs` threads (0: one per core); each
/// file's output is buffered and printed in input order.
///
/// The threads take the files one at a time in input order
/// (`par_bridge`), so the outputs held for ordering are those of the files
/// that finished while an earlier one was still being decoded. (Splitting
/// the list, as `par_iter` does, would hold every output of its later
/// halves until the first half is done.)
#[expect(
    clippy::too_many_arguments,
    reason = "the run's state, passed down once"
)]
fn parallel(
    command: &Command,
    strict: bool,
    files: &[PathBuf],
    skip: &[bool],
    jobs: usize,
    bar: &ProgressBar,
    out: &mut dyn Write,
    tally: &mut Tally,
) {
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(jobs).build() {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("gamefmt: {e}");
            tally.io_errors = tally.io_errors.saturating_add(1);
            return;
        }
    };
    let (send, receive) = mpsc::channel();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            pool.install(|| {
                files
                    .iter()
                    .enumerate()
                    .par_bridge()
                    .for_each_with(send, |send, (i, path)| {
                        let mut buffer = Vec::new();
                        let label = name(path);
                        let mut outcome =
                            process(command, strict, path, bar, &mut buffer, Some(&label));
                        outcome.output = buffer;
                        // The receiver only goes away when output failed.
                        let _ = send.send((i, outcome));
                    });
            });
        });
        let mut pending = BTreeMap::new();
        let mut next = 0;
        for (i, outcome) in receive {
            pending.insert(i, outcome);
            while let Some(outcome) = pending.remove(&next) {
                if let Some(path) = files.get(next) {
                    let skip = skip.get(next).copied().unwrap_or(false);
                    report(command, path, skip, outcome, true, out, bar, tally);
                }
                next = next.saturating_add(1);
            }
            if tally.broken_pipe {
                break;
            }
        }
    });
}

/// How a file is named in labels and messages.
fn name(path: &Path) -> String {
    path.display().to_string()
}

/// Opens and decodes one file, writing its output to `out` (labelled with
/// `label` when there are several inputs). The quirks read (refused when
/// `strict`) are among its warnings when it decodes.
fn process(
    command: &Command,
    strict: bool,
    path: &Path,
    bar: &ProgressBar,
    out: &mut dyn Write,
    label: Option<&str>,
) -> Outcome {
    let mut warnings = Vec::new();
    let mut ctx = Ctx {
        strict,
        warnings: Vec::new(),
    };
    let result = Input::open(path, bar)
        .map_err(CliError::Io)
        .and_then(|mut input| match label {
            Some(label) => {
                let mut labelled = Labelled::new(&mut *out, label, command.json());
                run(command, &mut input, &mut ctx, &mut labelled, &mut warnings)
            }
            None => run(command, &mut input, &mut ctx, out, &mut warnings),
        });
    if result.is_ok() {
        warnings.extend(ctx.warnings.iter().map(ToString::to_string));
    }
    Outcome {
        output: Vec::new(),
        result,
        warnings,
    }
}

/// Prints one file's buffered output, warnings and error, and counts it;
/// a file that is no game file is only counted when `skip` (found in a
/// directory, without `--all`).
#[expect(clippy::too_many_arguments, reason = "one call site per order")]
fn report(
    command: &Command,
    path: &Path,
    skip: bool,
    outcome: Outcome,
    several: bool,
    out: &mut dyn Write,
    bar: &ProgressBar,
    tally: &mut Tally,
) {
    if let Err(e) = out.write_all(&outcome.output) {
        tally.broken_pipe = e.kind() == io::ErrorKind::BrokenPipe;
    }
    let file = name(path);
    bar.suspend(|| {
        for w in &outcome.warnings {
            eprintln!("gamefmt: {file}: warning: {w}");
        }
    });
    match outcome.result {
        Ok(()) => {
            tally.decoded = tally.decoded.saturating_add(1);
            if !outcome.warnings.is_empty() {
                tally.with_warnings = tally.with_warnings.saturating_add(1);
            }
        }
        Err(CliError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
            tally.broken_pipe = true;
        }
        Err(CliError::UnknownFormat) if skip => {
            tally.skipped = tally.skipped.saturating_add(1);
        }
        Err(e) => {
            // Flush what came before, so stdout and stderr stay in order.
            let _ = out.flush();
            bar.suspend(|| eprintln!("gamefmt: {file}: {e}"));
            if matches!(e, CliError::Io(_)) {
                tally.io_errors = tally.io_errors.saturating_add(1);
            } else {
                tally.refused = tally.refused.saturating_add(1);
            }
            if several && command.json() && matches!(command, Command::Inspect { .. }) {
                let line = serde_json::json!({"file": file, "error": e.to_string()});
                let _ = crate::json_line(out, &line);
            }
        }
    }
    let done = tally
        .decoded
        .saturating_add(tally.refused)
        .saturating_add(tally.skipped)
        .saturating_add(tally.io_errors);
    bar.set_message(format!("{done}/{}", tally.files));
}

/// The closing summary on stderr.
fn summary(files: &[PathBuf], tally: &Tally, bytes: u64, started: Instant) {
    let seconds = started.elapsed().as_secs_f64();
    #[allow(clippy::cast_precision_loss, reason = "a rate for people to read")]
    let rate = if seconds > 0.0 {
        bytes as f64 / seconds / 1e6
    } else {
        0.0
    };
    eprintln!(
        "gamefmt: {} files: {} decoded ({} with warnings), {} refused, {} unreadable, {} skipped (not game files; --all reports them); {bytes} bytes in {seconds:.2} s ({rate:.1} MB/s)",
        files.len(),
        tally.decoded,
        tally.with_warnings,
        tally.refused,
        tally.io_errors,
        tally.skipped,
    );
}
