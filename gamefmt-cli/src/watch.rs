//! `gamefmt watch`: Slippi games followed as they are played, one JSON
//! line per thing that happens, and (`--record DIR`) each game kept as a
//! `.slp`.
//!
//! Three sources, told apart by what the argument names:
//!
//! - a `.slp` file being written (Dolphin, a mirror): followed as it grows,
//!   until its game ends;
//! - a folder where Dolphin writes its replays: each new `.slp` file in it
//!   is a new game (the files there before `watch` started are not games);
//! - `HOST:PORT`: a Wii (Slippi Nintendont, port 51441) or a Slippi relay,
//!   over TCP: the client handshake, then the console's framed messages
//!   ([`ConsoleDecoder`]), whose replay bytes a [`GameFeed`] splits into
//!   games; with `--reconnect`, a dropped connection is made again and
//!   the replay resumes at the cursor reached, as slippi-js's
//!   `ConsoleConnection` does.
//!
//! Every line is a JSON object with `kind` and `game` (the game's number
//! in this watch, from 0; for `handshake`, the next game's):
//! `handshake` (a console's: nick, versions),
//! `game_start` (the core's serialized Game Start event: stage, players),
//! `combo_start`, `combo_end`, `conversion_start`, `conversion_end` and
//! `stock_lost` (the core's live stats events, `slippi::stats::live`, as
//! slippi-js's stats compute them, each once the frame deciding it is
//! final), `game_end` (the core's serialized Game End event when
//! there was one, `winners` by slippi-js's rules, the last frame, how the
//! events ended, and the recorded file). Each line is written and flushed
//! when the event that decides it has arrived.
//!
//! The same watch is a library ([`watch`] with a [`Sink`] of its lines):
//! Python's `gamefmt.watch` iterates over the lines as dicts.
//!
//! ```
//! # fn main() -> std::io::Result<()> {
//! use gamefmt_cli::watch::{Options, Sink, watch};
//! struct Lines(Vec<serde_json::Value>);
//! impl Sink for Lines {
//!     fn line(&mut self, value: serde_json::Value) -> std::io::Result<()> {
//!         self.0.push(value);
//!         Ok(())
//!     }
//! }
//! let path = std::env::temp_dir().join("gamefmt-watch-doctest.slp");
//! std::fs::write(&path, gamefmt::slippi::SAMPLE)?;
//! let mut lines = Lines(Vec::new());
//! let options = Options { idle: Some(std::time::Duration::from_millis(100)), ..Options::default() };
//! watch(path.to_str().unwrap_or_default(), &options, &mut lines).map_err(std::io::Error::other)?;
//! assert_eq!(lines.0.first().and_then(|l| l["kind"].as_str()), Some("game_start"));
//! assert_eq!(lines.0.last().and_then(|l| l["kind"].as_str()), Some("game_end"));
//! # Ok(()) }
//! ```

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use gamefmt::slippi::live::{
    ConsoleDecoder, ConsoleMessage, Continuity, FeedItem, GameFeed, RecordMetadata, Recorder,
    client_handshake,
};
use gamefmt::slippi::stats::StatsEvent;
use gamefmt::slippi::{
    CMD_GAME_END, Decoder, Event, FinalPosts, GameEnd, Item, SlippiStats, winners,
};
use gamefmt::stream::{Decoded, End, ReadError, Reader};
use serde_json::{Value, json};

/// How often a file or folder is polled for new bytes.
const POLL: Duration = Duration::from_millis(20);

/// `gamefmt watch`'s arguments.
#[derive(Args)]
pub struct WatchArgs {
    /// What to follow: a `.slp` file being written, a folder where Dolphin
    /// writes replays, or HOST:PORT of a console (Slippi Nintendont listens
    /// on 51441) or a relay.
    source: String,
    /// Keep each game as DIR/Game_YYYYMMDDTHHMMSS.slp, written while it is
    /// played, with its metadata at the end as slippi-js's file writer
    /// writes it.
    #[arg(long, value_name = "DIR")]
    record: Option<PathBuf>,
    /// Stop once the first game has ended.
    #[arg(long)]
    exit_on_game_end: bool,
    /// Stop after this many seconds without a new byte.
    #[arg(long, value_name = "SECONDS")]
    idle_timeout: Option<f64>,
    /// When a console's connection drops, connect again (after 2, 2, 4,
    /// 6, then every 10 seconds, as slippi-js does) and resume the replay
    /// where it stopped, until --idle-timeout passes without a byte.
    #[arg(long)]
    reconnect: bool,
    /// The `startAt` written in recorded files (ISO 8601 with
    /// milliseconds, e.g. 2024-05-01T18:30:00.123Z) instead of the clock's
    /// when each game starts: reproducible recordings.
    #[arg(long, value_name = "TIME")]
    start_at: Option<String>,
}

/// How a watch runs (the command's options).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Keep each game as `DIR/Game_YYYYMMDDTHHMMSS.slp` (`--record`).
    pub record: Option<PathBuf>,
    /// The `startAt` written in recorded files (`--start-at`).
    pub start_at: Option<String>,
    /// Stop once the first game has ended (`--exit-on-game-end`).
    pub exit_on_game_end: bool,
    /// Stop after this long without a new byte (`--idle-timeout`).
    pub idle: Option<Duration>,
    /// Reconnect to a console whose connection dropped (`--reconnect`).
    pub reconnect: bool,
}

/// Where a watch's output goes: its lines, each game's final stats, its
/// warnings.
pub trait Sink {
    /// One line (a JSON object with `kind` and `game`), as it happens.
    ///
    /// # Errors
    /// The line cannot be delivered: the watch stops with this error.
    fn line(&mut self, value: Value) -> io::Result<()>;

    /// Game `game`'s stats, finished, just before its `game_end` line
    /// (the command prints none; Python keeps them).
    ///
    /// # Errors
    /// As [`Sink::line`].
    fn stats(&mut self, game: u32, stats: &SlippiStats) -> io::Result<()> {
        let _ = (game, stats);
        Ok(())
    }

    /// Something worth saying that does not stop the watch (a damaged
    /// file in a folder, console data out of sequence): on stderr by
    /// default.
    fn warning(&mut self, message: &str) {
        eprintln!("gamefmt: {message}");
    }

    /// Whether the consumer is gone: checked while waiting for bytes, so
    /// that a watch of a file or folder stops without a new line.
    fn stopped(&self) -> bool {
        false
    }
}

/// One game being followed.
struct Game {
    number: u32,
    stats: SlippiStats,
    posts: FinalPosts,
    /// Game Start's and Game End's bytes (events are lent only until the
    /// next one).
    start: Option<Vec<u8>>,
    end: Option<Vec<u8>>,
    recorder: Option<(PathBuf, Recorder<BufWriter<File>>)>,
    /// Its `game_end` line was written.
    over: bool,
}

/// The watch: games in, JSON lines out.
struct Watch<'o> {
    out: &'o mut dyn Sink,
    record: Option<PathBuf>,
    start_at: Option<String>,
    /// The console's nick, once its handshake came.
    nick: Option<String>,
    game: Option<Game>,
    games: u32,
    /// Games whose `game_end` was written.
    ended: u32,
    exit_on_game_end: bool,
}

impl Watch<'_> {
    /// Whether watching should stop (`--exit-on-game-end` and a game ended).
    fn done(&self) -> bool {
        (self.exit_on_game_end && self.ended > 0) || self.out.stopped()
    }

    fn line(&mut self, value: Value) -> io::Result<()> {
        self.out.line(value)
    }

    /// A new game starts (its events come next): the previous one, if
    /// still open, ends cut.
    fn new_game(&mut self) -> io::Result<()> {
        self.game_over(End::Eof)?;
        let number = self.games;
        self.games = self.games.saturating_add(1);
        let recorder = match &self.record {
            Some(dir) => {
                let mut meta = RecordMetadata::now();
                if let Some(at) = &self.start_at {
                    meta.start_at.clone_from(at);
                }
                if let Some(nick) = &self.nick {
                    meta.console_nick.clone_from(nick);
                }
                let path = free_name(dir, &meta.start_at);
                let file = BufWriter::new(File::create(&path)?);
                Some((path, Recorder::new(file, meta)?))
            }
            None => None,
        };
        self.game = Some(Game {
            number,
            stats: SlippiStats::new(),
            posts: FinalPosts::default(),
            start: None,
            end: None,
            recorder,
            over: false,
        });
        Ok(())
    }

    /// One event of the current game.
    fn event(&mut self, event: &Event<'_>) -> io::Result<()> {
        let Some(game) = self.game.as_mut().filter(|g| !g.over) else {
            return Ok(());
        };
        if let Some((_, r)) = game.recorder.as_mut() {
            r.event(event)?;
        }
        let number = game.number;
        let mut lines = Vec::new();
        game.stats.push_with(event, |e| {
            if printed(e) {
                lines.push(tagged(number, e.name(), e));
            }
        });
        game.posts.observe(event);
        match event {
            Event::GameStart(g) if game.start.is_none() => {
                game.start = Some(g.bytes().to_vec());
                lines.push(tagged(number, "game_start", event));
            }
            Event::GameEnd(e) => game.end = Some(e.bytes().to_vec()),
            _ => {}
        }
        for l in lines {
            self.line(l)?;
        }
        if event.code() == CMD_GAME_END {
            // As slippi-js's file writer: the game (and its file) ends at
            // Game End.
            self.game_over(End::Complete)?;
        }
        Ok(())
    }

    /// The current game is over, its events ending so: its `game_end`
    /// line, its file finished.
    fn game_over(&mut self, end: End) -> io::Result<()> {
        let Some(game) = self.game.as_mut().filter(|g| !g.over) else {
            return Ok(());
        };
        game.over = true;
        game.stats.finish();
        self.out.stats(game.number, &game.stats)?;
        let recorded = match game.recorder.take() {
            Some((path, r)) => {
                r.finish()?.flush()?;
                Some(path)
            }
            None => None,
        };
        let start = game.start.as_deref().map(Event::parse);
        let ge = game.end.as_deref().map(Event::parse);
        let won = match (&start, game.end.as_deref()) {
            (Some(Event::GameStart(s)), Some(e)) => winners(s, &GameEnd::new(e), game.posts.get()),
            _ => gamefmt::slippi::Winners::new(),
        };
        let mut value = match &ge {
            Some(e) => tagged(game.number, "game_end", e),
            None => json!({"kind": "game_end", "game": game.number}),
        };
        if let Some(obj) = value.as_object_mut() {
            obj.insert("winners".into(), json!(won.as_slice()));
            obj.insert("last_frame".into(), json!(game.stats.last_frame()));
            obj.insert("end".into(), json!(end.name()));
            obj.insert(
                "recorded".into(),
                json!(recorded.map(|p| p.display().to_string())),
            );
        }
        self.ended = self.ended.saturating_add(1);
        self.line(value)
    }
}

/// The core's live stats events printed: combos and conversions starting
/// and ending, stocks lost (not each new move of a punish, nor a stock's
/// start; the game's end is `game_end`'s, with the Game End event).
const fn printed(e: &StatsEvent) -> bool {
    matches!(
        e,
        StatsEvent::ComboStart(_)
            | StatsEvent::ComboEnd(_)
            | StatsEvent::ConversionStart(_)
            | StatsEvent::ConversionEnd(_)
            | StatsEvent::StockLost(_)
    )
}

/// `value` serialized by the core, with `kind` set to `kind` and the game's
/// number.
fn tagged(game: u32, kind: &str, value: &impl serde::Serialize) -> Value {
    let mut v = serde_json::to_value(value).unwrap_or_default();
    if let Some(obj) = v.as_object_mut() {
        // The core's own tag stays readable beside ours when they differ.
        obj.insert("kind".into(), json!(kind));
        obj.insert("game".into(), json!(game));
    }
    v
}

/// `DIR/Game_YYYYMMDDTHHMMSS.slp` from an ISO 8601 start time (slippi-js's
/// names), with `-2`, `-3`… when taken.
fn free_name(dir: &Path, start_at: &str) -> PathBuf {
    let stamp: String = start_at
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == 'T')
        .take(15)
        .collect();
    let mut path = dir.join(format!("Game_{stamp}.slp"));
    let mut n = 1u32;
    while path.exists() {
        n = n.saturating_add(1);
        path = dir.join(format!("Game_{stamp}-{n}.slp"));
    }
    path
}

/// Why watching stopped early.
#[derive(Debug)]
pub enum Stop {
    /// Reading the source or delivering a line failed.
    Io(io::Error),
    /// The replay is damaged (its game's `game_end` line was delivered).
    Decode(gamefmt::Error),
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Io(e) => e.fmt(f),
            Self::Decode(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Stop {}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Self {
        Self::Io(e)
    }
}

/// The command's lines: JSON on standard output, flushed each.
struct Stdout<'a>(io::StdoutLock<'a>);

impl Sink for Stdout<'_> {
    fn line(&mut self, value: Value) -> io::Result<()> {
        serde_json::to_writer(&mut self.0, &value)?;
        self.0.write_all(b"\n")?;
        self.0.flush()
    }
}

/// `gamefmt watch`.
pub fn run(args: &WatchArgs) -> ExitCode {
    let options = Options {
        record: args.record.clone(),
        start_at: args.start_at.clone(),
        exit_on_game_end: args.exit_on_game_end,
        reconnect: args.reconnect,
        idle: args
            .idle_timeout
            .and_then(|s| Duration::try_from_secs_f64(s).ok()),
    };
    let mut out = Stdout(io::stdout().lock());
    match watch(&args.source, &options, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Stop::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Stop::Io(e)) => {
            eprintln!("gamefmt: {}: {e}", args.source);
            ExitCode::from(2)
        }
        Err(Stop::Decode(e)) => {
            eprintln!("gamefmt: {}: {e}", args.source);
            ExitCode::FAILURE
        }
    }
}

/// Watches `source` (a `.slp` file being written, a folder where Dolphin
/// writes replays, or `HOST:PORT` of a console or relay), handing each
/// line to `out` as it happens, until the source ends (a file's game
/// ended, a console closed), the idle timeout, `--exit-on-game-end`'s
/// first game end, or [`Sink::stopped`].
///
/// # Errors
/// The source cannot be read (or created, for `record`), `out` refuses a
/// line, or a followed replay is damaged.
pub fn watch(source: &str, options: &Options, out: &mut dyn Sink) -> Result<(), Stop> {
    if let Some(dir) = &options.record {
        std::fs::create_dir_all(dir)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
    }
    let mut watch = Watch {
        out,
        record: options.record.clone(),
        start_at: options.start_at.clone(),
        nick: None,
        game: None,
        games: 0,
        ended: 0,
        exit_on_game_end: options.exit_on_game_end,
    };
    let idle = options.idle;
    let path = Path::new(source);
    let result = if path.is_dir() {
        folder(path, &mut watch, idle)
    } else if path.is_file() || source.ends_with(".slp") {
        follow(path, &mut watch, idle, &mut || false).map(|_| ())
    } else {
        console(source, &mut watch, idle, options.reconnect)
    };
    result.and_then(|()| watch.game_over(End::Eof).map_err(Stop::Io))
}

/// Whether `idle` has passed since `since`.
fn idle_over(idle: Option<Duration>, since: Instant) -> bool {
    idle.is_some_and(|d| since.elapsed() >= d)
}

/// How following a file ended.
#[derive(PartialEq, Eq)]
enum Followed {
    /// Its game ended, or the file did.
    Done,
    /// No byte for the idle timeout.
    Idle,
    /// `switch` said so (a newer file appeared).
    Switched,
}

/// Follows a `.slp` file as it grows (waiting for it to appear), until its
/// game ends, the file ends (its metadata read), `switch()` says a newer
/// game began, or the idle timeout.
fn follow(
    path: &Path,
    watch: &mut Watch<'_>,
    idle: Option<Duration>,
    switch: &mut dyn FnMut() -> bool,
) -> Result<Followed, Stop> {
    let mut since = Instant::now();
    let mut file = loop {
        match File::open(path) {
            Ok(f) => break f,
            Err(e)
                if e.kind() == io::ErrorKind::NotFound
                    && !idle_over(idle, since)
                    && !watch.out.stopped() =>
            {
                std::thread::sleep(POLL);
            }
            Err(e) => return Err(e.into()),
        }
    };
    let mut decoder = Decoder::new();
    let (mut pending, mut chunk) = (Vec::new(), vec![0u8; 1 << 16]);
    let mut started = false;
    loop {
        let n = file.read(&mut chunk)?;
        if n > 0 {
            since = Instant::now();
            pending.extend_from_slice(chunk.get(..n).unwrap_or_default());
        }
        let mut used = 0usize;
        loop {
            match decoder.decode(pending.get(used..).unwrap_or_default()) {
                Ok(Decoded::Record { record, consumed }) => {
                    used = used.saturating_add(consumed);
                    match record {
                        Item::Header { .. } => {
                            watch.new_game()?;
                            started = true;
                        }
                        Item::Event(e) => watch.event(&e)?,
                        _ => {}
                    }
                }
                Ok(Decoded::NeedMore { .. }) => break,
                Ok(Decoded::Done { .. }) => return Ok(Followed::Done),
                Err(e) => {
                    if started {
                        watch.game_over(End::Damaged(e))?;
                    }
                    return Err(Stop::Decode(e));
                }
            }
        }
        pending.drain(..used);
        let over = watch.game.as_ref().is_some_and(|g| g.over);
        if over && started {
            return Ok(Followed::Done);
        }
        if n == 0 {
            if switch() {
                watch.game_over(decoder.end(pending.len()))?;
                return Ok(Followed::Switched);
            }
            if idle_over(idle, since) || watch.out.stopped() {
                return Ok(Followed::Idle);
            }
            std::thread::sleep(POLL);
        }
    }
}

/// The `.slp` files directly in `dir`.
fn slp_files(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "slp") && p.is_file())
        .collect();
    files.sort();
    Ok(files)
}

/// Follows a folder: each `.slp` file that appears in it is a game,
/// followed until it ends or a newer file appears.
fn folder(dir: &Path, watch: &mut Watch<'_>, idle: Option<Duration>) -> Result<(), Stop> {
    let mut seen: std::collections::BTreeSet<PathBuf> = slp_files(dir)?.into_iter().collect();
    let mut since = Instant::now();
    while !watch.done() {
        let new: Vec<PathBuf> = slp_files(dir)?
            .into_iter()
            .filter(|p| !seen.contains(p))
            .collect();
        // Several at once: the newest is the game being played.
        let Some(next) = new.last().cloned() else {
            if idle_over(idle, since) {
                return Ok(());
            }
            std::thread::sleep(POLL);
            continue;
        };
        seen.extend(new);
        let mut switch =
            || slp_files(dir).is_ok_and(|files| files.iter().any(|p| !seen.contains(p)));
        match follow(&next, watch, idle, &mut switch) {
            Ok(Followed::Idle) => return Ok(()),
            Ok(_) => {}
            // A damaged file ends its game, not the watch.
            Err(Stop::Decode(e)) => watch.out.warning(&format!("{}: {e}", next.display())),
            Err(e) => return Err(e),
        }
        since = Instant::now();
    }
    Ok(())
}

/// The waits before each attempt to reconnect to a console, as
/// slippi-js's `ConsoleConnection` waits (reconnect-core, fibonacci from
/// 2 s, at most 10 s, for ever): 2, 2, 4, 6, 10, 10, ... seconds.
struct Backoff(u64, u64);

impl Backoff {
    const fn new() -> Self {
        Self(2, 2)
    }

    fn next(&mut self) -> Duration {
        let now = self.0;
        *self = Self(self.1, self.0.saturating_add(self.1).min(10));
        Duration::from_secs(now)
    }
}

/// How one connection to a console ended.
enum Session {
    /// The watch is over: the idle timeout, `--exit-on-game-end`, or the
    /// consumer is gone.
    Over,
    /// The console closed the connection, or it broke (why).
    Dropped(Option<io::Error>),
}

/// A console's state across connections: the decoder's cursor, the
/// client token its handshake gave, the games being split from the replay
/// bytes (a reconnection resumes at the cursor: the bytes run on).
struct ConsoleState {
    decoder: ConsoleDecoder,
    token: u32,
    feed: GameFeed,
    replay: Vec<u8>,
    /// When the last byte came.
    since: Instant,
}

/// Follows a console or relay at `addr` (`HOST:PORT`) until it closes the
/// connection (with `reconnect`, until the idle timeout passes without
/// one), the idle timeout, or (`--exit-on-game-end`) a game ends.
fn console(
    addr: &str,
    watch: &mut Watch<'_>,
    idle: Option<Duration>,
    reconnect: bool,
) -> Result<(), Stop> {
    let mut state = ConsoleState {
        decoder: ConsoleDecoder::new(),
        token: 0,
        feed: GameFeed::new(),
        replay: Vec::new(),
        since: Instant::now(),
    };
    // The first connection must succeed (slippi-js too reconnects only
    // once it was connected).
    let mut sock = TcpStream::connect(addr)?;
    loop {
        match connection(sock, addr, watch, &mut state, idle)? {
            Session::Over => break,
            Session::Dropped(why) if !reconnect => match why {
                Some(e) => return Err(e.into()),
                None => break,
            },
            Session::Dropped(why) => {
                let mut why = format!(
                    "connection lost ({})",
                    why.map_or_else(|| "closed by the console".to_owned(), |e| e.to_string())
                );
                let mut backoff = Backoff::new();
                let next = loop {
                    let wait = backoff.next();
                    watch.out.warning(&format!(
                        "{addr}: {why}; connecting again in {} s",
                        wait.as_secs()
                    ));
                    if !pause(wait, watch, idle, state.since) {
                        break None;
                    }
                    match TcpStream::connect(addr) {
                        Ok(s) => break Some(s),
                        Err(e) => why = format!("cannot connect ({e})"),
                    }
                };
                let Some(next) = next else { break };
                state.decoder = state.decoder.reconnected();
                sock = next;
            }
        }
    }
    if let Some(end) = state.feed.end(state.replay.len()) {
        watch.game_over(end)?;
    }
    Ok(())
}

/// Sleeps `wait` (in polls, so that a stopped consumer or the idle
/// timeout ends it early); whether to go on.
fn pause(wait: Duration, watch: &Watch<'_>, idle: Option<Duration>, since: Instant) -> bool {
    let start = Instant::now();
    while start.elapsed() < wait {
        if idle_over(idle, since) || watch.done() {
            return false;
        }
        std::thread::sleep(POLL);
    }
    !idle_over(idle, since) && !watch.done()
}

/// One connection: the client handshake (resuming at the cursor
/// expected), then the console's messages until the connection ends.
fn connection(
    mut sock: TcpStream,
    addr: &str,
    watch: &mut Watch<'_>,
    state: &mut ConsoleState,
    idle: Option<Duration>,
) -> Result<Session, Stop> {
    sock.set_nodelay(true)?;
    sock.set_read_timeout(idle)?;
    let hello = client_handshake(state.decoder.expected_cursor(), state.token, true);
    if let Err(e) = sock.write_all(&hello) {
        return Ok(Session::Dropped(Some(e)));
    }
    let mut reader = Reader::with_decoder(sock, state.decoder.clone());
    let mut session = Session::Dropped(None);
    while !watch.done() {
        let message = match reader.next() {
            None => break,
            Some(Ok(m)) => m,
            Some(Err(ReadError::Io(e)))
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                return Ok(Session::Over);
            }
            Some(Err(ReadError::Io(e))) => {
                session = Session::Dropped(Some(e));
                break;
            }
            Some(Err(ReadError::Decode(e))) => {
                watch.game_over(End::Damaged(e))?;
                return Err(Stop::Decode(e));
            }
        };
        state.since = Instant::now();
        match message {
            ConsoleMessage::Handshake(h) => {
                watch.nick = h.nick.map(str::to_owned);
                if let Some(token) = h.client_token {
                    state.token = token;
                }
                let line = tagged(watch.games, "handshake", &h);
                watch.line(line)?;
            }
            ConsoleMessage::Replay(r) => {
                if r.continuity != Continuity::Continuous {
                    watch.out.warning(&format!(
                        "{addr}: warning: replay data out of sequence ({}), {} bytes skipped",
                        r.continuity.name(),
                        r.skipped().unwrap_or(0)
                    ));
                }
                state.replay.extend_from_slice(r.data);
                split_games(addr, watch, state)?;
            }
            _ => {}
        }
    }
    state.decoder = reader.decoder().clone();
    if watch.done() {
        session = Session::Over;
    }
    Ok(session)
}

/// Hands the replay bytes held to the game splitter, each game's events
/// to the watch; keeps the bytes of an event not whole yet.
fn split_games(addr: &str, watch: &mut Watch<'_>, state: &mut ConsoleState) -> io::Result<()> {
    let mut at = 0usize;
    while let Ok(Decoded::Record { record, consumed }) = state
        .feed
        .decode(state.replay.get(at..).unwrap_or_default())
    {
        at = at.saturating_add(consumed);
        match record {
            FeedItem::NewGame { .. } => watch.new_game()?,
            FeedItem::Event(e) => watch.event(&e)?,
            FeedItem::GameOver { end, .. } => watch.game_over(end)?,
            FeedItem::Damaged { error } => {
                watch.out.warning(&format!("{addr}: damaged game: {error}"));
            }
            _ => {}
        }
        if watch.done() {
            break;
        }
    }
    state.replay.drain(..at);
    Ok(())
}
