//! Zip archives as folders: `replays.zip` stands for its members, each
//! named `replays.zip/MEMBER` and read straight from the archive (stored
//! or deflated, streamed, no temporary file).
//!
//! The `zip` crate reads the central directory and each member's local
//! header once per archive (kept for the archive last opened, so that a
//! zip of thousands of replays is indexed once, not once per member);
//! the bytes are then read through a plain `File` limited to the member's
//! compressed size and inflated by `flate2`, and their CRC-32 checked at
//! the end.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::io::{Read, Write};
//! use gamefmt_cli::input::zip::{members, open};
//!
//! let dir = std::env::temp_dir().join("gamefmt-zip-doctest");
//! std::fs::create_dir_all(&dir)?;
//! let archive = dir.join("replays.zip");
//! let mut w = ::zip::ZipWriter::new(std::fs::File::create(&archive)?);
//! w.start_file("games/sample.slp", ::zip::write::SimpleFileOptions::default())?;
//! w.write_all(gamefmt::slippi::SAMPLE)?;
//! w.finish()?;
//!
//! let files = members(&archive)?;
//! assert_eq!(files, [archive.join("games/sample.slp")]);
//! let mut bytes = Vec::new();
//! open(&archive, "games/sample.slp")?.read_to_end(&mut bytes)?;
//! assert_eq!(bytes, gamefmt::slippi::SAMPLE);
//! # Ok(()) }
//! ```

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use zip::CompressionMethod;

/// Whether `path` names a zip archive (by its extension).
pub fn is_zip(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zip"))
        && path.is_file()
}

/// One member's place in its archive.
#[derive(Clone, Copy)]
struct Member {
    data_start: u64,
    compressed: u64,
    deflated: bool,
    crc32: u32,
}

/// An archive's members by name, in the archive's order.
struct Index {
    names: Vec<String>,
    members: HashMap<String, Member>,
}

/// The index of the archive last opened.
static LAST: Mutex<Option<(PathBuf, Arc<Index>)>> = Mutex::new(None);

fn zip_error(path: &Path, e: impl std::fmt::Display) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{}: zip: {e}", path.display()),
    )
}

fn index(path: &Path) -> io::Result<Arc<Index>> {
    if let Ok(last) = LAST.lock()
        && let Some((p, index)) = last.as_ref()
        && p == path
    {
        return Ok(Arc::clone(index));
    }
    let mut archive = zip::ZipArchive::new(io::BufReader::new(File::open(path)?))
        .map_err(|e| zip_error(path, e))?;
    let mut index = Index {
        names: Vec::new(),
        members: HashMap::new(),
    };
    for i in 0..archive.len() {
        let file = archive.by_index_raw(i).map_err(|e| zip_error(path, e))?;
        if file.is_dir() {
            continue;
        }
        let deflated = match file.compression() {
            CompressionMethod::Stored => false,
            CompressionMethod::Deflated => true,
            other => {
                return Err(zip_error(
                    path,
                    format!("{}: {other} is not read", file.name().unwrap_or_default()),
                ));
            }
        };
        if file.encrypted() {
            return Err(zip_error(path, "encrypted members are not read"));
        }
        let Some(name) = file.enclosed_name() else {
            continue;
        };
        let name = name.to_string_lossy().into_owned();
        let member = Member {
            data_start: file.data_start().unwrap_or(0),
            compressed: file.compressed_size(),
            deflated,
            crc32: file.crc32(),
        };
        index.names.push(name.clone());
        index.members.insert(name, member);
    }
    let index = Arc::new(index);
    if let Ok(mut last) = LAST.lock() {
        *last = Some((path.to_path_buf(), Arc::clone(&index)));
    }
    Ok(index)
}

/// The members of the archive at `zip`, as paths below it
/// (`replays.zip/a.slp`), sorted by name, hidden ones skipped, as a
/// folder's files are.
///
/// # Errors
/// The archive cannot be read.
pub fn members(zip: &Path) -> io::Result<Vec<PathBuf>> {
    let index = index(zip)?;
    let mut names: Vec<&String> = index
        .names
        .iter()
        .filter(|n| {
            !Path::new(n)
                .iter()
                .any(|c| c.to_string_lossy().starts_with('.'))
        })
        .collect();
    names.sort();
    Ok(names.into_iter().map(|n| zip.join(n)).collect())
}

/// Where `path` is a member of an archive: the archive and the member's
/// name (`None` when no ancestor of `path` is a zip file).
pub fn split(path: &Path) -> Option<(&Path, String)> {
    let mut archive = path.parent()?;
    loop {
        if is_zip(archive) {
            let member = path.strip_prefix(archive).ok()?;
            let name: Vec<String> = member
                .iter()
                .map(|c| c.to_string_lossy().into_owned())
                .collect();
            return Some((archive, name.join("/")));
        }
        archive = archive.parent()?;
    }
}

/// A member's bytes as they are read: CRC-32 checked at its end.
struct Checked<R> {
    inner: R,
    crc: flate2::Crc,
    want: u32,
}

impl<R: Read> Read for Checked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 && !buf.is_empty() && self.crc.sum() != self.want {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "zip: member's CRC-32 differs",
            ));
        }
        self.crc.update(buf.get(..n).unwrap_or_default());
        Ok(n)
    }
}

/// Opens member `name` of the archive at `zip`: its decompressed bytes.
///
/// # Errors
/// The archive cannot be read or has no such member.
pub fn open(zip: &Path, name: &str) -> io::Result<Box<dyn Read + Send>> {
    let index = index(zip)?;
    let Some(m) = index.members.get(name).copied() else {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("{}: no member {name}", zip.display()),
        ));
    };
    let mut file = File::open(zip)?;
    file.seek(SeekFrom::Start(m.data_start))?;
    let raw = io::BufReader::with_capacity(1 << 16, file.take(m.compressed));
    let inner: Box<dyn Read + Send> = if m.deflated {
        Box::new(flate2::bufread::DeflateDecoder::new(raw))
    } else {
        Box::new(raw)
    };
    Ok(Box::new(Checked {
        inner,
        crc: flate2::Crc::new(),
        want: m.crc32,
    }))
}
