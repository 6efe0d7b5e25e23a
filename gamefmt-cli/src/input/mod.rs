//! The command's inputs: paths expanded
//! (directories recursively, zip archives into their members, `-` for
//! stdin), each opened as one stream of bytes, decompressed on the fly when
//! its first bytes are a gzip, zstd or xz magic number, an `.slpz` replay
//! decoded back to its `.slp` bytes; and the progress bar they count into
//! ([`progress`]).
//!
//! A zip archive (`replays.zip`) is a folder of its members, each named
//! `replays.zip/MEMBER` and read from the archive as a stream, no
//! temporary file ([`zip`]); such a path names one member on the command
//! line too.
//!
//! Every command (`inspect`, `dump`, `validate`, `chat`, `export`) takes
//! its inputs through it, so all take the same inputs.
//!
//! Nothing here reads a whole file (but an `.slpz` replay, a few hundred
//! kilobytes, decoded whole by `gamefmt::slippi::decompress_slpz`): decompression is streaming (an xz
//! stream is decoded on a thread, handed over in bounded blocks), so memory
//! stays flat whatever the input's size.
//!
//! ```
//! # fn main() -> std::io::Result<()> {
//! use gamefmt_cli::input::{Input, expand};
//! let dir = std::env::temp_dir().join("gamefmt-input-doctest");
//! std::fs::create_dir_all(&dir)?;
//! std::fs::write(dir.join("sample.slp"), gamefmt::slippi::SAMPLE)?;
//! let files = expand(&[dir])?;
//! let bar = gamefmt_cli::input::indicatif::ProgressBar::hidden();
//! let mut input = Input::open(&files[0], &bar)?;
//! assert_eq!(gamefmt::Format::detect(input.head()), Some(gamefmt::Format::Slippi));
//! assert_eq!(input.finish()?, gamefmt::slippi::SAMPLE.len() as u64);
//! # Ok(()) }
//! ```

pub mod progress;
pub mod zip;

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::thread::JoinHandle;

use std::boxed::Box;
use std::format;
use std::vec::Vec;

/// `indicatif`, whose [`ProgressBar`] counts the bytes [`Input`] reads
/// (re-exported so callers name the same version).
pub use indicatif;
use indicatif::ProgressBar;
use ruzstd::decoding::{FrameDecoder, StreamingDecoder};

/// The name standing for standard input.
pub const STDIN: &str = "-";

/// How many leading bytes [`Input::head`] holds: enough for
/// [`gamefmt::Format::detect`].
const HEAD: usize = 64;

const GZIP_MAGIC: &[u8] = &[0x1f, 0x8b];
const ZSTD_MAGIC: &[u8] = &[0x28, 0xb5, 0x2f, 0xfd];
const XZ_MAGIC: &[u8] = &[0xfd, b'7', b'z', b'X', b'Z', 0x00];

/// Expands the command line's paths into the files to read, in order:
/// a directory becomes every file below it, sorted by path (hidden
/// entries skipped), a zip archive every member in it, sorted by name
/// (`replays.zip/a.slp`; [`zip::members`]); `-` is standard input.
///
/// # Errors
/// A directory cannot be listed, or an archive read.
pub fn expand(paths: &[PathBuf]) -> io::Result<Vec<PathBuf>> {
    Ok(expand_found(paths)?.into_iter().map(|f| f.path).collect())
}

/// A file to read, and whether it may be skipped when it is not a game
/// file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Its path (`-`: standard input).
    pub path: PathBuf,
    /// Found by walking a directory given on the command line (not named
    /// there) and not named as a game file ([`GAME_EXTENSIONS`]): if its
    /// first bytes are no format gamefmt reads, the commands skip it
    /// (counted in the summary) unless `--all` asks to report it. A
    /// damaged `.slp` found in a folder is still reported.
    pub walked: bool,
}

/// The file name extensions of game files (before a `.gz`, `.zst` or
/// `.xz`): a file found in a directory with one of them is reported
/// when it is not recognised, as a damaged game file, not skipped.
pub const GAME_EXTENSIONS: &[&str] = &["slp", "slpz", "map", "demo", "teehistorian"];

/// Whether `path`'s name ends in a game file's extension
/// ([`GAME_EXTENSIONS`]), compressed or not.
#[must_use]
pub fn named_as_game_file(path: &Path) -> bool {
    let mut path = path.to_path_buf();
    if path.extension().is_some_and(|e| {
        ["gz", "zst", "xz"]
            .iter()
            .any(|c| e.eq_ignore_ascii_case(c))
    }) {
        path.set_extension("");
    }
    path.extension()
        .is_some_and(|e| GAME_EXTENSIONS.iter().any(|g| e.eq_ignore_ascii_case(g)))
}

/// [`expand`], telling the files found in directories from those named.
///
/// # Errors
/// A directory cannot be listed.
pub fn expand_found(paths: &[PathBuf]) -> io::Result<Vec<Found>> {
    let mut files = Vec::new();
    for path in paths {
        if path.as_os_str() != STDIN && path.is_dir() {
            let mut walked = Vec::new();
            walk(path, &mut walked)?;
            files.extend(walked.into_iter().map(|path| Found {
                walked: !named_as_game_file(&path),
                path,
            }));
        } else if zip::is_zip(path) {
            // An archive's members are found as a directory's files are.
            files.extend(zip::members(path)?.into_iter().map(|path| Found {
                walked: !named_as_game_file(&path),
                path,
            }));
        } else {
            files.push(Found {
                path: path.clone(),
                walked: false,
            });
        }
    }
    Ok(files)
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> io::Result<()> {
    let mut entries = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<io::Result<Vec<_>>>()?;
    entries.sort();
    for path in entries {
        let hidden = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if hidden {
            continue;
        }
        if path.is_dir() {
            walk(&path, files)?;
        } else if zip::is_zip(&path) {
            files.extend(zip::members(&path)?);
        } else {
            files.push(path);
        }
    }
    Ok(())
}

/// Counts the bytes read from the underlying file (compressed bytes for
/// a compressed input) into the progress bar.
struct Counted<R> {
    inner: R,
    progress: ProgressBar,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.progress.inc(u64::try_from(n).unwrap_or(u64::MAX));
        Ok(n)
    }
}

/// Decoded xz bytes in flight between the decoding thread and the reader:
/// at most this many blocks of [`XZ_BLOCK`] bytes.
const XZ_BLOCKS: usize = 4;
const XZ_BLOCK: usize = 1 << 16;

/// The decoding thread's end: each block written is sent to the reader.
struct Sender(SyncSender<Vec<u8>>);

impl Write for Sender {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .send(buf.to_vec())
            .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// An xz stream decoded on its own thread (lzma-rs decodes into a
/// `Write`) and handed over in blocks through a bounded channel; the
/// thread's error, if any, surfaces at the end.
struct Xz {
    blocks: Receiver<Vec<u8>>,
    block: Vec<u8>,
    at: usize,
    thread: Option<JoinHandle<io::Result<()>>>,
}

impl Xz {
    fn spawn(source: Box<dyn BufRead + Send>) -> Self {
        let (send, blocks) = mpsc::sync_channel(XZ_BLOCKS);
        let thread = std::thread::spawn(move || {
            let mut source = source;
            let mut out = io::BufWriter::with_capacity(XZ_BLOCK, Sender(send));
            lzma_rs::xz_decompress(&mut source, &mut out)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("xz: {e}")))?;
            out.flush()
        });
        Self {
            blocks,
            block: Vec::new(),
            at: 0,
            thread: Some(thread),
        }
    }
}

impl Read for Xz {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at >= self.block.len() {
            if let Ok(block) = self.blocks.recv() {
                self.block = block;
                self.at = 0;
                continue;
            }
            // The thread is done: its error, if any, then the end.
            if let Some(thread) = self.thread.take() {
                thread
                    .join()
                    .map_err(|_| io::Error::other("xz decoder thread failed"))??;
            }
            return Ok(0);
        }
        let pending = self.block.get(self.at..).unwrap_or_default();
        let n = pending.len().min(buf.len());
        if let (Some(dst), Some(src)) = (buf.get_mut(..n), pending.get(..n)) {
            dst.copy_from_slice(src);
        }
        self.at = self.at.saturating_add(n);
        Ok(n)
    }
}

/// A zstd stream of one or more frames (as `zstd` and `pzstd` write
/// them), each decoded by ruzstd in turn.
struct Zstd<R: BufRead> {
    /// `None` only while moving to the next frame.
    frame: Option<StreamingDecoder<R, FrameDecoder>>,
}

impl<R: BufRead> Zstd<R> {
    fn new(source: R) -> io::Result<Self> {
        let frame = StreamingDecoder::new(source).map_err(zstd_error)?;
        Ok(Self { frame: Some(frame) })
    }
}

fn zstd_error(e: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("zstd: {e}"))
}

impl<R: BufRead> Read for Zstd<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let Some(frame) = self.frame.as_mut() else {
                return Ok(0);
            };
            let n = frame.read(buf)?;
            if n > 0 || buf.is_empty() || frame.get_mut().fill_buf()?.is_empty() {
                return Ok(n);
            }
            // This frame is done and more bytes follow: the next frame.
            if let Some(done) = self.frame.take() {
                let (source, decoder) = done.into_parts();
                let next =
                    StreamingDecoder::new_with_decoder(source, decoder).map_err(zstd_error)?;
                self.frame = Some(next);
            }
        }
    }
}

/// A damaged `.slpz` replay: the decoding error (its offset in the
/// `.slpz` bytes), inside the `io::Error` [`Input::open`] returns, for
/// callers that report offsets (Python's `gamefmt.DecodeError`).
#[derive(Debug, Clone, Copy)]
pub struct SlpzError(pub gamefmt::Error);

impl std::fmt::Display for SlpzError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "slpz: {}", self.0)
    }
}

impl std::error::Error for SlpzError {}

/// One input, opened and decompressed: a byte stream whose first bytes
/// are at hand for format detection.
pub struct Input {
    /// The first bytes (up to 64; fewer only for a shorter input).
    head: Vec<u8>,
    /// Where the rest comes from.
    rest: Box<dyn Read + Send>,
    /// Bytes read so far (decompressed), `head` included once passed.
    read: u64,
    /// Position in `head` of the next byte to return.
    at: usize,
}

impl Input {
    /// Opens `path` (`-`: standard input; `archive.zip/MEMBER`: a member
    /// of a zip archive), counting the bytes read into `progress`,
    /// decompresses it if it is gzip, zstd or xz, and decodes it if it is
    /// an `.slpz` replay.
    ///
    /// # Errors
    /// The file cannot be opened or read, its compression header is
    /// invalid, or it is a damaged `.slpz`.
    pub fn open(path: &Path, progress: &ProgressBar) -> io::Result<Self> {
        let source: Box<dyn Read + Send> = if path.as_os_str() == STDIN {
            Box::new(io::stdin())
        } else {
            match File::open(path) {
                Ok(file) => Box::new(file),
                Err(e) => match zip::split(path) {
                    Some((archive, member)) => zip::open(archive, &member)?,
                    None => return Err(e),
                },
            }
        };
        let mut source = BufReader::with_capacity(
            1 << 16,
            Counted {
                inner: source,
                progress: progress.clone(),
            },
        );
        let magic = source.fill_buf()?;
        let rest: Box<dyn Read + Send> = if magic.starts_with(GZIP_MAGIC) {
            Box::new(flate2::bufread::MultiGzDecoder::new(source))
        } else if magic.starts_with(ZSTD_MAGIC) {
            Box::new(Zstd::new(source)?)
        } else if magic.starts_with(XZ_MAGIC) {
            Box::new(Xz::spawn(Box::new(source)))
        } else {
            Box::new(source)
        };
        let mut input = Self {
            head: Vec::with_capacity(HEAD),
            rest,
            read: 0,
            at: 0,
        };
        let mut take = (&mut input.rest).take(HEAD as u64);
        take.read_to_end(&mut input.head)?;
        if gamefmt::slippi::is_slpz(&input.head) {
            let mut slpz = std::mem::take(&mut input.head);
            input.rest.read_to_end(&mut slpz)?;
            let slp = gamefmt::slippi::decompress_slpz(&slpz)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, SlpzError(e)))?;
            input.rest = Box::new(io::Cursor::new(slp));
            let mut take = (&mut input.rest).take(HEAD as u64);
            take.read_to_end(&mut input.head)?;
        }
        Ok(input)
    }

    /// The first bytes of the (decompressed) stream.
    pub fn head(&self) -> &[u8] {
        &self.head
    }

    /// Reads the rest of the stream without keeping it and returns its
    /// whole length (decompressed): the file's size.
    ///
    /// # Errors
    /// Reading fails.
    pub fn finish(&mut self) -> io::Result<u64> {
        io::copy(self, &mut io::sink())?;
        Ok(self.read)
    }

    /// The whole (decompressed) stream in memory, for the formats read
    /// with random access (datafiles).
    ///
    /// # Errors
    /// Reading fails.
    pub fn read_all(&mut self) -> io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        self.read_to_end(&mut bytes)?;
        Ok(bytes)
    }
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = match self.head.get(self.at..) {
            Some(pending) if !pending.is_empty() => {
                let n = pending.len().min(buf.len());
                if let (Some(dst), Some(src)) = (buf.get_mut(..n), pending.get(..n)) {
                    dst.copy_from_slice(src);
                }
                self.at = self.at.saturating_add(n);
                n
            }
            _ => self.rest.read(buf)?,
        };
        self.read = self
            .read
            .saturating_add(u64::try_from(n).unwrap_or(u64::MAX));
        Ok(n)
    }
}
