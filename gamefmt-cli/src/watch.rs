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
//!   games.
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

use crate::json_line;

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
    /// The `startAt` written in recorded files (ISO 8601 with
    /// milliseconds, e.g. 2024-05-01T18:30:00.123Z) instead of the clock's
    /// when each game starts: reproducible recordings.
    #[arg(long, value_name = "TIME")]
    start_at: Option<String>,
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
    out: &'o mut dyn Write,
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
    const fn done(&self) -> bool {
        self.exit_on_game_end && self.ended > 0
    }

    fn line(&mut self, value: &Value) -> io::Result<()> {
        json_line(self.out, value)?;
        self.out.flush()
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
        for l in &lines {
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
        self.line(&value)
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
enum Stop {
    Io(io::Error),
    Decode(gamefmt::Error),
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Self {
        Self::Io(e)
    }
}

/// `gamefmt watch`.
pub fn run(args: &WatchArgs) -> ExitCode {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if let Some(dir) = &args.record
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        eprintln!("gamefmt: {}: {e}", dir.display());
        return ExitCode::from(2);
    }
    let mut watch = Watch {
        out: &mut out,
        record: args.record.clone(),
        start_at: args.start_at.clone(),
        nick: None,
        game: None,
        games: 0,
        ended: 0,
        exit_on_game_end: args.exit_on_game_end,
    };
    let idle = args
        .idle_timeout
        .and_then(|s| Duration::try_from_secs_f64(s).ok());
    let path = Path::new(&args.source);
    let result = if path.is_dir() {
        folder(path, &mut watch, idle)
    } else if path.is_file() || args.source.ends_with(".slp") {
        follow(path, &mut watch, idle, &mut || false).map(|_| ())
    } else {
        console(&args.source, &mut watch, idle)
    };
    let result = result.and_then(|()| watch.game_over(End::Eof).map_err(Stop::Io));
    match result {
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
            Err(e) if e.kind() == io::ErrorKind::NotFound && !idle_over(idle, since) => {
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
            if idle_over(idle, since) {
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
            Err(Stop::Decode(e)) => eprintln!("gamefmt: {}: {e}", next.display()),
            Err(e) => return Err(e),
        }
        since = Instant::now();
    }
    Ok(())
}

/// Follows a console or relay at `addr` (`HOST:PORT`) until it closes the
/// connection, the idle timeout, or (`--exit-on-game-end`) a game ends.
fn console(addr: &str, watch: &mut Watch<'_>, idle: Option<Duration>) -> Result<(), Stop> {
    let mut sock = TcpStream::connect(addr)?;
    sock.set_nodelay(true)?;
    sock.set_read_timeout(idle)?;
    let decoder = ConsoleDecoder::new();
    sock.write_all(&client_handshake(decoder.expected_cursor(), 0, true))?;
    let mut reader = Reader::with_decoder(sock, decoder);
    let mut feed = GameFeed::new();
    let mut replay: Vec<u8> = Vec::new();
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
                break;
            }
            Some(Err(ReadError::Io(e))) => return Err(e.into()),
            Some(Err(ReadError::Decode(e))) => {
                watch.game_over(End::Damaged(e))?;
                return Err(Stop::Decode(e));
            }
        };
        match message {
            ConsoleMessage::Handshake(h) => {
                watch.nick = h.nick.map(str::to_owned);
                let line = tagged(watch.games, "handshake", &h);
                watch.line(&line)?;
            }
            ConsoleMessage::Replay(r) => {
                if r.continuity != Continuity::Continuous {
                    eprintln!(
                        "gamefmt: {addr}: warning: replay data out of sequence ({}), {} bytes skipped",
                        r.continuity.name(),
                        r.skipped().unwrap_or(0)
                    );
                }
                replay.extend_from_slice(r.data);
                let mut at = 0usize;
                while let Ok(Decoded::Record { record, consumed }) =
                    feed.decode(replay.get(at..).unwrap_or_default())
                {
                    at = at.saturating_add(consumed);
                    match record {
                        FeedItem::NewGame { .. } => watch.new_game()?,
                        FeedItem::Event(e) => watch.event(&e)?,
                        FeedItem::GameOver { end, .. } => watch.game_over(end)?,
                        FeedItem::Damaged { error } => {
                            eprintln!("gamefmt: {addr}: damaged game: {error}");
                        }
                        _ => {}
                    }
                    if watch.done() {
                        break;
                    }
                }
                replay.drain(..at);
            }
            _ => {}
        }
    }
    if let Some(end) = feed.end(replay.len()) {
        watch.game_over(end)?;
    }
    Ok(())
}
