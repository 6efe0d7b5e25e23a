//! [`Recorder`] (feature `std`): one game's events written as a `.slp`
//! while they arrive, as slippi-js's `SlpFile` writes them.

use std::boxed::Box;
use std::format;
use std::io::{self, Seek, SeekFrom, Write};
use std::string::String;
use std::vec::Vec;

use super::super::events::Event;
use super::super::{CMD_GAME_START, CMD_POST_FRAME, PORTS, SIGNATURE};
use super::sjis::name_chars;

/// What the recorder writes in the metadata that the events do not tell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMetadata {
    /// `startAt`: when the game started, ISO 8601 with milliseconds
    /// (`2024-05-01T18:30:00.000Z`); [`RecordMetadata::now`] gives the
    /// clock's, as slippi-js does when the file is created.
    pub start_at: String,
    /// `consoleNick`: the console's nickname (slippi-js: `"unknown"` unless
    /// told; the console's handshake gives it).
    pub console_nick: String,
    /// `playedOn`: slippi-js writes `"network"`.
    pub played_on: String,
}

impl RecordMetadata {
    /// `startAt` now, console nick `"unknown"`, played on `"network"`:
    /// slippi-js's defaults.
    #[must_use]
    pub fn now() -> Self {
        Self::at(std::time::SystemTime::now())
    }

    /// The defaults with `startAt` at `time`.
    #[must_use]
    pub fn at(time: std::time::SystemTime) -> Self {
        Self {
            start_at: iso8601(time),
            console_nick: String::from("unknown"),
            played_on: String::from("network"),
        }
    }
}

/// One player as the metadata lists it.
#[derive(Clone, Debug)]
struct Player {
    /// Frames per internal character id.
    usage: [u32; 256],
    netplay: String,
    code: String,
}

/// Writes one game's events as a `.slp` into `out` as they arrive, in
/// constant memory: the header with raw length 0 first (so that the file
/// reads as a game in progress), each event as given, then, at
/// [`Recorder::finish`], the metadata and the raw length — the bytes
/// slippi-js 9.1.2's `SlpFile` writes for the same events: `startAt`,
/// `lastFrame` (the last non-follower Post-Frame's frame, −124 before
/// any), `consoleNick`, `players` (each non-empty port of Game Start, its
/// internal characters' frame counts and its display name and connect code
/// as slippi-js decodes them) and `playedOn`.
///
/// Each event is two `write_all` calls: give a file as an
/// `io::BufWriter<File>` (it seeks too), which keeps the recording a few
/// kilobytes behind the game at most.
///
/// Two choices differ from slippi-js, on purpose: an event whose command
/// the payload table declares with size 0 is written (its command byte; slippi-js
/// drops it), and a name's length is its UTF-8 byte count (slippi-js writes
/// its UTF-16 length, which corrupts the metadata of a name with kana).
///
/// ```
/// use gamefmt::slippi::live::{RecordMetadata, Recorder};
/// use gamefmt::slippi::{SlippiView, SAMPLE};
///
/// let mut meta = RecordMetadata::at(std::time::UNIX_EPOCH);
/// meta.console_nick = "Wii".into();
/// let mut rec = Recorder::new(std::io::Cursor::new(Vec::new()), meta)?;
/// for event in SlippiView::parse(SAMPLE)?.events() {
///     rec.event(&event?)?;
/// }
/// let file = rec.finish()?.into_inner();
/// let view = SlippiView::parse(&file)?;
/// assert_eq!(view.events().count(), 9);
/// let meta = view.metadata()?.expect("written");
/// assert_eq!(meta.start_at(), Some("1970-01-01T00:00:00.000Z"));
/// assert_eq!((meta.last_frame(), meta.console_nick()), (Some(-123), Some("Wii")));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Recorder<W: Write + Seek> {
    out: W,
    /// Where the file starts in `out`.
    base: u64,
    raw_len: u64,
    last_frame: i32,
    players: [Option<Box<Player>>; PORTS],
    meta: RecordMetadata,
}

impl<W: Write + Seek> Recorder<W> {
    /// Starts a file at `out`'s current position: writes the header.
    ///
    /// # Errors
    /// `out`'s.
    pub fn new(mut out: W, meta: RecordMetadata) -> io::Result<Self> {
        let base = out.stream_position()?;
        out.write_all(SIGNATURE)?;
        out.write_all(&[0; 4])?;
        Ok(Self {
            out,
            base,
            raw_len: 0,
            last_frame: -124,
            players: Default::default(),
            meta,
        })
    }

    /// The metadata to write at the end (set the console nick once the
    /// handshake gives it, as slippi-js's file writer does at the end).
    pub fn metadata_mut(&mut self) -> &mut RecordMetadata {
        &mut self.meta
    }

    /// Bytes of events written so far.
    #[must_use]
    pub const fn raw_len(&self) -> u64 {
        self.raw_len
    }

    /// Writes one event, and notes what the metadata needs of it.
    ///
    /// # Errors
    /// `out`'s.
    pub fn event(&mut self, event: &Event<'_>) -> io::Result<()> {
        let code = event.code();
        let payload = event.payload();
        self.out.write_all(&[code])?;
        self.out.write_all(payload)?;
        let n = u64::try_from(payload.len()).unwrap_or(u64::MAX);
        self.raw_len = self.raw_len.saturating_add(n).saturating_add(1);
        match event {
            Event::GameStart(start) if code == CMD_GAME_START => {
                for (port, slot) in self.players.iter_mut().enumerate() {
                    *slot = start
                        .player(port)
                        .filter(|p| p.player_type() != Some(3))
                        .map(|_| {
                            Box::new(Player {
                                usage: [0; 256],
                                netplay: name_chars(start.display_name(port).unwrap_or_default())
                                    .collect(),
                                code: name_chars(start.connect_code(port).unwrap_or_default())
                                    .collect(),
                            })
                        });
                }
            }
            Event::PostFrame(post) if code == CMD_POST_FRAME => {
                if post.is_follower() == Some(true) {
                    return Ok(());
                }
                if let Some(frame) = post.frame() {
                    self.last_frame = frame;
                }
                let player = post
                    .player_index()
                    .and_then(|i| self.players.get_mut(usize::from(i)))
                    .and_then(Option::as_mut);
                if let (Some(player), Some(c)) = (player, post.internal_character()) {
                    if let Some(n) = player.usage.get_mut(usize::from(c)) {
                        *n = n.saturating_add(1);
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Writes the metadata and the closing `}`, patches the raw length,
    /// flushes, and hands `out` back (positioned after the file).
    ///
    /// # Errors
    /// `out`'s; [`io::ErrorKind::InvalidData`] when the events exceed
    /// `u32::MAX` bytes.
    pub fn finish(mut self) -> io::Result<W> {
        let raw_len = u32::try_from(self.raw_len)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "raw events exceed 4 GiB"))?;
        let footer = self.footer();
        self.out.write_all(&footer)?;
        let end = self.out.stream_position()?;
        let len_at = self
            .base
            .saturating_add(u64::try_from(SIGNATURE.len()).unwrap_or(11));
        self.out.seek(SeekFrom::Start(len_at))?;
        self.out.write_all(&raw_len.to_be_bytes())?;
        self.out.seek(SeekFrom::Start(end))?;
        self.out.flush()?;
        Ok(self.out)
    }

    /// The metadata element and the file's closing `}`, as `SlpFile._final`.
    fn footer(&self) -> Vec<u8> {
        let mut f = Vec::with_capacity(512);
        f.extend_from_slice(b"U\x08metadata{");
        key(&mut f, "startAt");
        string(&mut f, &self.meta.start_at);
        key(&mut f, "lastFrame");
        f.push(b'l');
        f.extend_from_slice(&self.last_frame.to_be_bytes());
        key(&mut f, "consoleNick");
        string(&mut f, &self.meta.console_nick);
        key(&mut f, "players");
        f.push(b'{');
        for (index, player) in self.players.iter().enumerate() {
            let Some(player) = player else { continue };
            let mut digits = itoa(index);
            key(&mut f, digits.as_str());
            f.push(b'{');
            key(&mut f, "characters");
            f.push(b'{');
            for (id, &frames) in player.usage.iter().enumerate() {
                if frames == 0 {
                    continue;
                }
                digits = itoa(id);
                key(&mut f, digits.as_str());
                f.push(b'l');
                f.extend_from_slice(&frames.to_be_bytes());
            }
            f.push(b'}');
            key(&mut f, "names");
            f.push(b'{');
            key(&mut f, "netplay");
            string(&mut f, &player.netplay);
            key(&mut f, "code");
            string(&mut f, &player.code);
            f.extend_from_slice(b"}}");
        }
        f.push(b'}');
        key(&mut f, "playedOn");
        string(&mut f, &self.meta.played_on);
        f.extend_from_slice(b"}}");
        f
    }
}

/// A key as slippi-js writes it: `U`, a one-byte length, the text.
fn key(f: &mut Vec<u8>, k: &str) {
    f.push(b'U');
    f.push(u8::try_from(k.len()).unwrap_or(u8::MAX));
    f.extend_from_slice(k.as_bytes().get(..255).unwrap_or(k.as_bytes()));
}

/// A string value as slippi-js writes it: `SU`, a one-byte length, the
/// text (cut at 255 bytes, which slippi-js would have written wrongly).
fn string(f: &mut Vec<u8>, s: &str) {
    f.push(b'S');
    key(f, s);
}

/// A small number's decimal text.
fn itoa(n: usize) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = write!(s, "{n}");
    s
}

/// `time` as JavaScript's `Date.toISOString()` writes it.
#[allow(
    clippy::arithmetic_side_effects,
    reason = "calendar arithmetic on a clock reading, bounded by the i64 range of days"
)]
fn iso8601(time: std::time::SystemTime) -> String {
    // Before 1970 (a broken clock): the epoch.
    let since = time
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let secs = i64::try_from(since.as_secs()).unwrap_or(i64::MAX / 2);
    let millis = since.subsec_millis();
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used, reason = "unit tests")]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn iso_dates() {
        // Values from JavaScript's new Date(ms).toISOString().
        let cases = [
            (0u64, "1970-01-01T00:00:00.000Z"),
            (951_782_400_000, "2000-02-29T00:00:00.000Z"),
            (1_714_588_200_123, "2024-05-01T18:30:00.123Z"),
            (4_102_444_799_999, "2099-12-31T23:59:59.999Z"),
        ];
        for (ms, text) in cases {
            assert_eq!(iso8601(UNIX_EPOCH + Duration::from_millis(ms)), text);
        }
    }
}
