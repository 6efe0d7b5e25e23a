//! `gamefmt export --to parquet|arrow OUT_DIR INPUTS...`: decoded game
//! files as Parquet or Arrow IPC datasets (feature `export`, the
//! `gamefmt-arrow` crate), in this process.
//!
//! It takes the inputs the other commands take — files, directories
//! (recursively), `-` for stdin, gzip/zstd/xz compressed — decodes each
//! once, on `--jobs` threads, and writes its tables to
//! `OUT_DIR/format=FORMAT/table=TABLE/part-NAME-NNNN.EXT`, each thread
//! packing small inputs into parts of its own (see the `gamefmt_arrow`
//! docs for the tables). A progress bar on stderr when it is a terminal, a
//! summary line at the end. Exit status: 0 when every input was exported,
//! 1 when some were refused, 2 on a usage or I/O error.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use clap::{Args, ValueEnum};
use gamefmt_arrow::{Dataset, Error, OutputFormat, PartWriter};
use rayon::prelude::*;

use gamefmt_cli::input::{self, Input, STDIN, progress};

/// Exit status when some input was refused.
const REFUSED: u8 = 1;
/// Exit status on a usage or I/O error.
const IO_ERROR: u8 = 2;

#[derive(Clone, Copy, ValueEnum)]
enum To {
    /// Parquet files (Snappy).
    Parquet,
    /// Arrow IPC files.
    Arrow,
}

/// The arguments of `gamefmt export`.
#[derive(Args)]
pub struct ExportArgs {
    /// The output format.
    #[arg(long, value_enum, default_value = "parquet")]
    to: To,
    /// Rows per batch: the rows a table builds in memory before they are
    /// encoded (small, so that wide tables stay within memory bounds).
    #[arg(long, default_value_t = 2048)]
    batch_rows: usize,
    /// Files decoded at once (default: one per core).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// Report the files found in directories that are not game files
    /// (refused, exit status 1) instead of skipping them (counted in the
    /// summary).
    #[arg(long)]
    all: bool,
    /// The dataset folder.
    out_dir: PathBuf,
    /// Files to read: paths, directories (read recursively), zip archives
    /// (their members; `a.zip/MEMBER` for one) or `-` for standard input;
    /// gzip, zstd and xz are decompressed, `.slpz` replays decoded.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
}

/// The name of an input's own parts (when it is too large to pack) that
/// no other input gets: the file's name and a hash of its whole path (the
/// same input exported again replaces its own parts).
fn part_name(path: &Path) -> String {
    if path.as_os_str() == STDIN {
        return "stdin".to_owned();
    }
    let mut hasher = DefaultHasher::new();
    path.hash(&mut hasher);
    let stem = path
        .file_name()
        .map(|n| n.to_string_lossy().replace(['.', ' ', '='], "_"))
        .unwrap_or_default();
    format!("{stem}-{:016x}", hasher.finish())
}

/// A name for this run's writers that no other run gets (the time and
/// process id, hashed), so that exporting into a folder again adds parts.
fn run_name() -> String {
    let mut hasher = DefaultHasher::new();
    std::time::SystemTime::now().hash(&mut hasher);
    std::process::id().hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

/// What became of one input.
enum Outcome {
    Exported { rows: u64 },
    Refused(Error),
    Failed(Error),
}

fn export_one(
    writer: &mut PartWriter,
    path: &Path,
    batch_rows: usize,
    bar: &indicatif::ProgressBar,
) -> Outcome {
    let input = match Input::open(path, bar) {
        Ok(input) => input,
        Err(e) => return Outcome::Failed(e.into()),
    };
    let name = path.display().to_string();
    match writer.write(input, &name, &part_name(path), batch_rows) {
        Ok(written) => Outcome::Exported {
            rows: written.rows.values().fold(0, |a, &b| a.saturating_add(b)),
        },
        Err(e @ (Error::Io(_) | Error::Arrow(_) | Error::Parquet(_))) => Outcome::Failed(e),
        Err(e) => Outcome::Refused(e),
    }
}

/// Runs `gamefmt export` and returns its exit status.
pub fn run(args: &ExportArgs) -> ExitCode {
    let ExportArgs {
        to,
        batch_rows,
        jobs,
        all,
        out_dir,
        inputs,
    } = args;
    let (batch_rows, jobs) = (*batch_rows, *jobs);
    let found = match input::expand_found(inputs) {
        Ok(found) => found,
        Err(e) => {
            eprintln!("gamefmt: export: {e}");
            return ExitCode::from(IO_ERROR);
        }
    };
    // Files found in a directory that are not game files are skipped
    // (counted) unless `--all` asks for them.
    let skip: Vec<bool> = found.iter().map(|f| f.walked && !*all).collect();
    let files: Vec<PathBuf> = found.into_iter().map(|f| f.path).collect();
    let format = match *to {
        To::Parquet => OutputFormat::Parquet,
        To::Arrow => OutputFormat::Arrow,
    };
    let dataset = Dataset::new(out_dir.clone(), format);
    let total = files
        .iter()
        .filter(|p| p.as_os_str() != STDIN)
        .filter_map(|p| std::fs::metadata(p).ok())
        .fold(0u64, |a, m| a.saturating_add(m.len()));
    let bar = progress::bar(total, files.len());
    let started = Instant::now();
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()
    {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("gamefmt: export: {e}");
            return ExitCode::from(IO_ERROR);
        }
    };
    // One writer per thread, packing the inputs it exports into its parts.
    let run = run_name();
    let writers: Vec<Mutex<PartWriter>> = (0..pool.current_num_threads())
        .map(|i| Mutex::new(dataset.writer(&format!("{run}-{i}"))))
        .collect();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let outcomes: Vec<Outcome> = pool.install(|| {
        files
            .par_iter()
            .map(|path| {
                let thread = rayon::current_thread_index().unwrap_or_default();
                let outcome = match writers.get(thread) {
                    Some(writer) => export_one(
                        &mut writer.lock().unwrap_or_else(PoisonError::into_inner),
                        path,
                        batch_rows,
                        &bar,
                    ),
                    None => Outcome::Failed(Error::Io(std::io::ErrorKind::Other.into())),
                };
                let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                bar.set_message(format!("{}/{}", n.saturating_add(1), files.len()));
                outcome
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut finished = Ok(());
    for writer in writers {
        let done = writer
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .finish();
        if finished.is_ok() {
            finished = done;
        }
    }
    if let Err(e) = &finished {
        eprintln!("gamefmt: export: {e}");
    }
    let (mut exported, mut refused, mut failed, mut rows) = (0usize, 0usize, 0usize, 0u64);
    let mut skipped = 0usize;
    for ((path, outcome), &skip) in files.iter().zip(&outcomes).zip(&skip) {
        match outcome {
            Outcome::Refused(Error::UnknownFormat) if skip => {
                skipped = skipped.saturating_add(1);
            }
            Outcome::Exported { rows: n } => {
                exported = exported.saturating_add(1);
                rows = rows.saturating_add(*n);
            }
            Outcome::Refused(e) => {
                refused = refused.saturating_add(1);
                eprintln!("gamefmt: export: {}: {e}", path.display());
            }
            Outcome::Failed(e) => {
                failed = failed.saturating_add(1);
                eprintln!("gamefmt: export: {}: {e}", path.display());
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    #[expect(clippy::cast_precision_loss, reason = "rates for people")]
    let (mb, count) = (bar.position() as f64 / 1e6, files.len() as f64);
    eprintln!(
        "gamefmt: export: {exported} of {} files exported ({refused} refused, {failed} failed, {skipped} skipped: not game files, --all reports them), {rows} rows, {mb:.1} MB in {secs:.2} s ({:.1} MB/s, {:.0} files/s)",
        files.len(),
        mb / secs.max(1e-9),
        count / secs.max(1e-9),
    );
    if failed > 0 || finished.is_err() {
        ExitCode::from(IO_ERROR)
    } else if refused > 0 {
        ExitCode::from(REFUSED)
    } else {
        ExitCode::SUCCESS
    }
}
