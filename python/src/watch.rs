//! `gamefmt.watch(source)`: the live iterator of `gamefmt watch`.
//!
//! The CLI's own watch (`gamefmt_cli::watch::watch`) runs on a thread of
//! its own and hands its lines over a bounded channel; each line comes out
//! of the iterator as a dict (through pythonize, so with the names the
//! command prints: the core's `Serialize`), as soon as it is decided. A
//! game's final stats (`SlippiStats`, the same dict as `Replay.stats()`)
//! are kept in `stats` by game number when its `game_end` line comes.
//! Warnings (a damaged file in a watched folder, console data out of
//! sequence) become Python `UserWarning`s; a damaged followed replay
//! raises `gamefmt.DecodeError` after its `game_end` line.

use std::ffi::CString;
use std::io;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use gamefmt::slippi::SlippiStats;
use gamefmt_cli::watch::{Options, Sink, Stop};
use pyo3::exceptions::PyUserWarning;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value;

use crate::error;
use crate::slippi::serialized;

/// Lines in flight between the watching thread and the iterator.
const IN_FLIGHT: usize = 1024;

/// How often a waiting `__next__` checks for Ctrl-C.
const TICK: Duration = Duration::from_millis(100);

/// What the watching thread hands over.
enum Msg {
    Line(Value),
    Stats(u32, Py<PyAny>),
    Warning(String),
}

/// The watching thread's sink: each line sent, stats converted under the
/// GIL; a gone iterator stops the watch.
struct Channel {
    send: SyncSender<Msg>,
    stop: Arc<AtomicBool>,
}

fn gone() -> io::Error {
    io::Error::from(io::ErrorKind::BrokenPipe)
}

impl Sink for Channel {
    fn line(&mut self, value: Value) -> io::Result<()> {
        self.send.send(Msg::Line(value)).map_err(|_| gone())
    }

    fn stats(&mut self, game: u32, stats: &SlippiStats) -> io::Result<()> {
        let dict = Python::with_gil(|py| {
            serialized(py, stats)
                .map(|d| d.into_any().unbind())
                .map_err(io::Error::other)
        })?;
        self.send.send(Msg::Stats(game, dict)).map_err(|_| gone())
    }

    fn warning(&mut self, message: &str) {
        // The iterator gone, nobody is left to warn.
        let _ = self.send.send(Msg::Warning(message.to_owned()));
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// The events of a Slippi game followed as it is played, as
/// `gamefmt watch` prints them.
#[pyclass(module = "gamefmt")]
pub struct Watch {
    /// `None` once the watch ended (or was closed).
    lines: Mutex<Option<Receiver<Msg>>>,
    thread: Mutex<Option<JoinHandle<Result<(), Stop>>>>,
    stop: Arc<AtomicBool>,
    stats: Py<PyDict>,
}

impl Watch {
    /// The watching thread's outcome, once its channel closed.
    fn outcome(&mut self, py: Python<'_>) -> PyResult<()> {
        let thread = self.thread.get_mut().ok().and_then(Option::take);
        let Some(thread) = thread else {
            return Ok(());
        };
        match py.allow_threads(|| thread.join()) {
            Ok(Ok(())) | Ok(Err(Stop::Io(_))) if self.stop.load(Ordering::Relaxed) => Ok(()),
            Ok(Ok(())) => Ok(()),
            Ok(Err(Stop::Decode(e))) => Err(error::decode(e)),
            Ok(Err(Stop::Io(e))) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            Ok(Err(Stop::Io(e))) => Err(error::source(e, None)),
            Err(_) => Err(error::source(
                io::Error::other("the watch thread failed"),
                None,
            )),
        }
    }

    fn stop_now(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Dropping the receiver fails the thread's next send.
        if let Ok(lines) = self.lines.get_mut() {
            *lines = None;
        }
    }
}

#[pymethods]
impl Watch {
    /// The final stats of each game whose `game_end` came, by game number:
    /// the same dict as `Replay.stats()` of the finished file.
    #[getter]
    fn stats(&self, py: Python<'_>) -> Py<PyDict> {
        self.stats.clone_ref(py)
    }

    /// Stops watching: the iterator ends (the thread stops at its next
    /// poll of the file or folder, or its next line).
    fn close(&mut self) {
        self.stop_now();
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<PyObject>> {
        loop {
            let Some(lines) = self.lines.get_mut().ok().and_then(Option::take) else {
                return Ok(None);
            };
            let (lines, msg) = py.allow_threads(move || {
                let msg = lines.recv_timeout(TICK);
                (lines, msg)
            });
            if let Ok(slot) = self.lines.get_mut() {
                *slot = Some(lines);
            }
            match msg {
                Ok(Msg::Line(value)) => {
                    return Ok(Some(pythonize::pythonize(py, &value)?.unbind()));
                }
                Ok(Msg::Stats(game, stats)) => self.stats.bind(py).set_item(game, stats)?,
                Ok(Msg::Warning(message)) => {
                    let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
                    PyErr::warn(py, &py.get_type::<PyUserWarning>(), &message, 1)?;
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        self.stop_now();
                        return Err(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    if let Ok(slot) = self.lines.get_mut() {
                        *slot = None;
                    }
                    return self.outcome(py).map(|()| None);
                }
            }
        }
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __exit__(
        &mut self,
        _exc_type: &Bound<'_, PyAny>,
        _exc: &Bound<'_, PyAny>,
        _tb: &Bound<'_, PyAny>,
    ) -> bool {
        self.stop_now();
        false
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        // The thread sees the flag at its next poll, or its next send fails.
        self.stop_now();
    }
}

/// Starts watching `source`: a `.slp` file being written (followed
/// until its game ends), a folder where Dolphin writes replays (each
/// new `.slp` a game), or `"HOST:PORT"` of a console or relay.
/// Keyword arguments as the command's options (`--record`,
/// `--exit-on-game-end`, `--idle-timeout` in seconds, `--start-at`,
/// `--reconnect`).
#[pyfunction]
#[pyo3(signature = (source, *, record = None, exit_on_game_end = false, idle_timeout = None, start_at = None, reconnect = false))]
pub fn watch(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    record: Option<PathBuf>,
    exit_on_game_end: bool,
    idle_timeout: Option<f64>,
    start_at: Option<String>,
    reconnect: bool,
) -> PyResult<Watch> {
    let source: String = py
        .import("os")?
        .call_method1("fsdecode", (source,))?
        .extract()?;
    let idle = match idle_timeout {
        Some(s) => Some(
            Duration::try_from_secs_f64(s)
                .map_err(|e| error::usage(format!("idle_timeout: {e}")))?,
        ),
        None => None,
    };
    let options = Options {
        record,
        start_at,
        exit_on_game_end,
        idle,
        reconnect,
    };
    let (send, lines) = mpsc::sync_channel(IN_FLIGHT);
    let stop = Arc::new(AtomicBool::new(false));
    let mut sink = Channel {
        send,
        stop: Arc::clone(&stop),
    };
    let thread = std::thread::Builder::new()
        .name("gamefmt-watch".into())
        .spawn(move || gamefmt_cli::watch::watch(&source, &options, &mut sink))
        .map_err(|e| error::source(e, None))?;
    Ok(Watch {
        lines: Mutex::new(Some(lines)),
        thread: Mutex::new(Some(thread)),
        stop,
        stats: PyDict::new(py).unbind(),
    })
}
