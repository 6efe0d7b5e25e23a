//! Writing teehistorian files the way DDNet's server does (`alloc`).

use alloc::vec::Vec;

use super::decoder::TickState;
use super::header::Header;
use super::message::{
    Args, Ex, ExMessage, ID_CONSOLE_COMMAND, ID_DROP, ID_EX, ID_FINISH, ID_INPUT_DIFF,
    ID_INPUT_NEW, ID_JOIN, ID_MESSAGE, ID_PLAYER_NEW, ID_PLAYER_OLD, ID_TICK_SKIP, Message,
};
use super::uuids;
use crate::error::{Error, ErrorKind, Result};
use crate::varint::encode_to_vec;

/// Writes a teehistorian file: the header, then messages with their ticks.
///
/// Ticks are not written as messages: the writer derives TICK_SKIP and
/// implicit ticks exactly as DDNet's `CTeeHistorian` does (teeworlds.md
/// §2.5), so writing back the messages of any DDNet recording with their
/// decoded ticks gives the same bytes. TICK_SKIP messages passed in are
/// therefore ignored. FINISH at a later tick than the current one is
/// preceded by a TICK_SKIP, like any non-player record, so that it decodes
/// at that tick; at the current tick or an earlier one it is written alone.
///
/// ```
/// use gamefmt::teehistorian::{Message, TeehistorianIter, TeehistorianWriter};
/// let mut w = TeehistorianWriter::new(r#"{"version":"2"}"#)?;
/// w.write(1, &Message::PlayerNew { cid: 0, x: 64, y: 32 })?;
/// w.write(5, &Message::PlayerDiff { cid: 0, dx: 1, dy: 0 })?;
/// w.write(5, &Message::Finish)?;
/// let bytes = w.into_bytes();
/// let ticks: Vec<i32> = TeehistorianIter::new(&bytes)?.map(|r| r.map(|r| r.tick)).collect::<Result<_, _>>()?;
/// assert_eq!(ticks, [1, 5, 5, 5]); // PLAYER_NEW, TICK_SKIP(3), PLAYER_DIFF, FINISH
/// # Ok::<(), gamefmt::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct TeehistorianWriter {
    out: Vec<u8>,
    ticks: TickState,
    finished: bool,
}

impl TeehistorianWriter {
    /// Starts a file with the magic UUID and `header_json` (written as
    /// given, then a NUL). The JSON must be a header [`Header::parse`]
    /// accepts, without NUL bytes.
    pub fn new(header_json: &str) -> Result<Self> {
        if let Some(nul) = header_json.bytes().position(|b| b == 0) {
            return Err(Error::new(ErrorKind::InvalidString, nul));
        }
        Header::parse(header_json)?;
        let mut out = Vec::with_capacity(header_json.len().saturating_add(17));
        out.extend_from_slice(uuids::TEEHISTORIAN.as_bytes());
        out.extend_from_slice(header_json.as_bytes());
        out.push(0);
        Ok(Self {
            out,
            ticks: TickState::START,
            finished: false,
        })
    }

    /// The tick of the last message written (0 at the start).
    #[must_use]
    pub const fn tick(&self) -> i32 {
        self.ticks.tick()
    }

    /// The bytes written and not yet taken.
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        &self.out
    }

    /// Takes the bytes written so far (to flush them to a file), leaving
    /// the writer ready to continue the same stream.
    pub fn take_bytes(&mut self) -> Vec<u8> {
        core::mem::take(&mut self.out)
    }

    /// The bytes written and not yet taken.
    #[must_use]
    pub fn into_bytes(self) -> Vec<u8> {
        self.out
    }

    /// Writes `msg` as belonging to `tick`, preceded by a TICK_SKIP when the
    /// reader could not infer the tick otherwise.
    ///
    /// Fails with [`ErrorKind::Corrupt`] (nothing written) when the tick
    /// goes backwards, when a player record in the current tick does not
    /// have a higher client id than the previous one (a reader would start
    /// a new tick there), for a PLAYER_DIFF with a negative client id, for
    /// anything after FINISH, and with [`ErrorKind::InvalidString`] for a
    /// string containing NUL.
    pub fn write(&mut self, tick: i32, msg: &Message<'_>) -> Result<()> {
        let at = self.out.len();
        if self.finished {
            return Err(Error::corrupt("message after FINISH", at));
        }
        let current = self.ticks.tick();
        let tick = match *msg {
            Message::TickSkip { .. } => return Ok(()),
            // FINISH is never refused for its tick (a server writes it
            // whenever it stops): an earlier one stays at the current tick,
            // a later one gets its TICK_SKIP like any non-player record.
            Message::Finish => tick.max(current),
            _ if tick < current => return Err(Error::corrupt("tick goes backwards", at)),
            _ => tick,
        };
        let implicit = match msg.player_record_cid() {
            Some(cid) if tick == current => {
                if self.ticks.starts_tick(cid) {
                    return Err(Error::corrupt(
                        "player records of one tick need ascending client ids",
                        at,
                    ));
                }
                true
            }
            Some(cid) => current.checked_add(1) == Some(tick) && self.ticks.starts_tick(cid),
            None => tick == current,
        };
        let mut ticks = self.ticks;
        if !implicit {
            let dt = tick
                .checked_sub(current)
                .and_then(|d| d.checked_sub(1))
                .ok_or(Error::corrupt("tick out of range", at))?;
            let skip = Message::TickSkip { dt };
            ticks.apply(&skip);
            encode(&skip, &mut self.out)?;
        }
        if let Err(e) = encode(msg, &mut self.out) {
            self.out.truncate(at);
            return Err(e);
        }
        ticks.apply(msg);
        self.ticks = ticks;
        self.finished = matches!(msg, Message::Finish);
        Ok(())
    }

    /// Writes a typed EX message (encoding its payload) at `tick`.
    pub fn write_ex(&mut self, tick: i32, ex: &ExMessage<'_>) -> Result<()> {
        let mut data = Vec::new();
        encode_ex(ex, &mut data)?;
        self.write(
            tick,
            &Message::Ex(Ex {
                uuid: &ex.uuid(),
                data: &data,
            }),
        )
    }
}

fn ints(values: &[i32], out: &mut Vec<u8>) {
    for &v in values {
        encode_to_vec(v, out);
    }
}

fn len(n: usize, out: &mut Vec<u8>) -> Result<()> {
    let n = i32::try_from(n).map_err(|_| Error::new(ErrorKind::OutOfBounds, out.len()))?;
    encode_to_vec(n, out);
    Ok(())
}

fn cstr(s: &[u8], out: &mut Vec<u8>) -> Result<()> {
    if let Some(nul) = s.iter().position(|&b| b == 0) {
        return Err(Error::new(ErrorKind::InvalidString, nul));
    }
    out.extend_from_slice(s);
    out.push(0);
    Ok(())
}

/// Appends the wire form of `msg`.
fn encode(msg: &Message<'_>, out: &mut Vec<u8>) -> Result<()> {
    match *msg {
        Message::PlayerDiff { cid, dx, dy } => {
            if cid < 0 {
                return Err(Error::corrupt("negative PLAYER_DIFF client id", out.len()));
            }
            ints(&[cid, dx, dy], out);
        }
        Message::Finish => ints(&[ID_FINISH], out),
        Message::TickSkip { dt } => ints(&[ID_TICK_SKIP, dt], out),
        Message::PlayerNew { cid, x, y } => ints(&[ID_PLAYER_NEW, cid, x, y], out),
        Message::PlayerOld { cid } => ints(&[ID_PLAYER_OLD, cid], out),
        Message::InputDiff { cid, diff } => {
            ints(&[ID_INPUT_DIFF, cid], out);
            ints(&diff.get(), out);
        }
        Message::InputNew { cid, input } => {
            ints(&[ID_INPUT_NEW, cid], out);
            ints(&input.get(), out);
        }
        Message::PlayerMessage { cid, data } => {
            ints(&[ID_MESSAGE, cid], out);
            len(data.len(), out)?;
            out.extend_from_slice(data);
        }
        Message::Join { cid } => ints(&[ID_JOIN, cid], out),
        Message::Drop { cid, reason } => {
            ints(&[ID_DROP, cid], out);
            cstr(reason, out)?;
        }
        Message::ConsoleCommand { cid, flags, line } => {
            let args = line.args();
            ints(&[ID_CONSOLE_COMMAND, cid, flags], out);
            cstr(line.cmd(), out)?;
            len(args.len(), out)?;
            out.extend_from_slice(Args::raw(&args));
        }
        Message::Ex(Ex { uuid, data }) => {
            ints(&[ID_EX], out);
            out.extend_from_slice(uuid.as_bytes());
            len(data.len(), out)?;
            out.extend_from_slice(data);
        }
    }
    Ok(())
}

/// Appends the payload of a typed EX message, as DDNet's recorder packs it.
fn encode_ex(ex: &ExMessage<'_>, out: &mut Vec<u8>) -> Result<()> {
    match *ex {
        ExMessage::Test => {}
        ExMessage::DdnetVersionOld { cid, version } => ints(&[cid, version], out),
        ExMessage::DdnetVersion {
            cid,
            connection_id,
            version,
            version_str,
        } => {
            ints(&[cid], out);
            out.extend_from_slice(connection_id.as_bytes());
            ints(&[version], out);
            cstr(version_str, out)?;
        }
        ExMessage::AuthInit {
            cid,
            level,
            auth_name,
        }
        | ExMessage::AuthLogin {
            cid,
            level,
            auth_name,
        } => {
            ints(&[cid, level], out);
            cstr(auth_name, out)?;
        }
        ExMessage::AuthLogout { cid }
        | ExMessage::JoinVer6 { cid }
        | ExMessage::JoinVer7 { cid }
        | ExMessage::PlayerReady { cid }
        | ExMessage::PlayerRejoin { cid } => ints(&[cid], out),
        ExMessage::SaveFailure { team } | ExMessage::LoadFailure { team } => ints(&[team], out),
        ExMessage::PlayerSwitch { cid1: a, cid2: b }
        | ExMessage::PlayerTeam { cid: a, team: b }
        | ExMessage::TeamPractice {
            team: a,
            practice: b,
        }
        | ExMessage::PlayerFinish { cid: a, time: b }
        | ExMessage::TeamFinish { team: a, time: b } => ints(&[a, b], out),
        ExMessage::SaveSuccess {
            team,
            save_id,
            save,
        }
        | ExMessage::LoadSuccess {
            team,
            save_id,
            save,
        } => {
            ints(&[team], out);
            out.extend_from_slice(save_id.as_bytes());
            cstr(save, out)?;
        }
        ExMessage::PlayerName { cid, name } => {
            ints(&[cid], out);
            cstr(name, out)?;
        }
        ExMessage::Antibot { data } | ExMessage::Unknown { data, .. } => {
            out.extend_from_slice(data);
        }
    }
    Ok(())
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "unit tests: a panic is the failure report"
)]
mod tests {
    use super::super::{PackedInput, SAMPLE, TeehistorianIter};
    use super::*;

    /// The recipe of [`SAMPLE`](super::super::SAMPLE).
    fn sample() -> Vec<u8> {
        let header = r#"{"comment":"teehistorian@ddnet.tw","version":"2","version_minor":"22","game_uuid":"3fd5a0a4-5d3c-4a4b-9a8e-2f1f6e0c7b11","server_version":"gamefmt sample","start_time":"2026-01-01T00:00:00+0000","server_name":"sample","server_port":"8303","game_type":"DDraceNetwork","map_name":"dm1","map_size":"5805","map_crc":"00000000","config":{},"tuning":{},"uuids":[]}"#;
        let mut w = TeehistorianWriter::new(header).unwrap();
        w.write_ex(0, &ExMessage::JoinVer6 { cid: 0 }).unwrap();
        w.write(0, &Message::Join { cid: 0 }).unwrap();
        w.write_ex(
            0,
            &ExMessage::PlayerName {
                cid: 0,
                name: b"nameless tee",
            },
        )
        .unwrap();
        w.write(
            1,
            &Message::PlayerNew {
                cid: 0,
                x: 64,
                y: 32,
            },
        )
        .unwrap();
        w.write(
            1,
            &Message::InputNew {
                cid: 0,
                input: PackedInput::from_ints(&[0; 10]),
            },
        )
        .unwrap();
        w.write(
            3,
            &Message::PlayerDiff {
                cid: 0,
                dx: 32,
                dy: 32,
            },
        )
        .unwrap();
        w.write(3, &Message::Finish).unwrap();
        w.into_bytes()
    }

    #[test]
    fn sample_is_writer_output() {
        let bytes = sample();
        if std::env::var_os("GAMEFMT_WRITE_SAMPLE").is_some() {
            std::fs::write(
                concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/src/teehistorian/sample.teehistorian"
                ),
                &bytes,
            )
            .unwrap();
        }
        assert_eq!(bytes, SAMPLE);
    }

    #[test]
    fn ticks_are_derived_like_ddnet() {
        let mut w = TeehistorianWriter::new(r#"{"version":"2"}"#).unwrap();
        let pd = |cid| Message::PlayerDiff { cid, dx: 1, dy: 1 };
        // Tick 1 starting with a player record: implicit (no TICK_SKIP).
        w.write(1, &pd(5)).unwrap();
        // Next tick, lower cid: implicit.
        w.write(2, &pd(3)).unwrap();
        // Next tick, higher cid: needs TICK_SKIP 0.
        w.write(3, &pd(4)).unwrap();
        // Same tick, descending cid cannot be expressed.
        assert!(w.write(3, &pd(2)).is_err());
        // Backwards is an error.
        assert!(w.write(2, &Message::Join { cid: 1 }).is_err());
        // Non-player record in a later tick: TICK_SKIP dt.
        w.write(10, &Message::Join { cid: 1 }).unwrap();
        w.write(10, &Message::Finish).unwrap();
        assert!(w.write(10, &Message::Join { cid: 1 }).is_err());
        let bytes = w.into_bytes();
        let body = &bytes[16 + r#"{"version":"2"}"#.len() + 1..];
        assert_eq!(
            body,
            [
                0x05, 0x01, 0x01, // PLAYER_DIFF 5
                0x03, 0x01, 0x01, // PLAYER_DIFF 3 (implicit tick 2)
                0x41, 0x00, // TICK_SKIP 0
                0x04, 0x01, 0x01, // PLAYER_DIFF 4
                0x41, 0x06, // TICK_SKIP 6
                0x47, 0x01, // JOIN 1
                0x40, // FINISH
            ]
        );
        let ticks: Vec<i32> = TeehistorianIter::new(&bytes)
            .unwrap()
            .map(|r| r.unwrap().tick)
            .collect();
        assert_eq!(ticks, [1, 2, 3, 3, 10, 10, 10]);
    }

    /// Fuzz finding: TICK_SKIP then FINISH decodes FINISH at the later
    /// tick; writing that back used to drop the skip, moving FINISH back.
    #[test]
    fn finish_keeps_a_later_tick() {
        let mut w = TeehistorianWriter::new(r#"{"version":"2"}"#).unwrap();
        w.write(1, &Message::Join { cid: 0 }).unwrap();
        w.write(15, &Message::Finish).unwrap();
        let bytes = w.into_bytes();
        let records: Vec<_> = TeehistorianIter::new(&bytes)
            .unwrap()
            .map(|r| r.unwrap())
            .filter(|r| !matches!(r.message, Message::TickSkip { .. }))
            .map(|r| (r.tick, r.message))
            .collect();
        assert_eq!(
            records,
            [(1, Message::Join { cid: 0 }), (15, Message::Finish)]
        );
        // An earlier tick is not an error: FINISH stays at the current one.
        let mut w = TeehistorianWriter::new(r#"{"version":"2"}"#).unwrap();
        w.write(4, &Message::Join { cid: 0 }).unwrap();
        w.write(0, &Message::Finish).unwrap();
        let bytes = w.into_bytes();
        let last = TeehistorianIter::new(&bytes).unwrap().last();
        assert_eq!(last.map(|r| r.unwrap().tick), Some(4));
    }
}
