//! DDNet teehistorian recordings: the `games`, `inputs`, `positions` and
//! `events` tables, from one walk of the messages through
//! [`gamefmt::teehistorian::Reader`], with [`PlayerState`] (absolute
//! inputs and positions), [`PlayerNames`] and [`ClientProtocols`] (to
//! decode MESSAGE records with [`gamefmt::netmsg`]) following along.

use std::io::Read;

use arrow_array::RecordBatch;
use gamefmt::stream::End;
use gamefmt::teehistorian::{
    ClientProtocols, CommandSource, ExMessage, Header, Item, MAX_CLIENTS, Message, PlayerNames,
    PlayerState, Reader, TeehistorianIter,
};

use crate::columns::{
    Bool, FileColumn, Int32Column, IntList, LabelColumn, Labels, StringColumn, UInt16Column,
    UInt32Column, UInt64Column, table,
};
use crate::source::{READ_BUFFER, Steps};
use crate::{Error, Table, netmsg};

table! {
    /// `format=teehistorian/table=games`: one row per recording.
    Games {
        file: FileColumn = "the input's path",
        version: UInt32Column = "header `version` (1 or 2)",
        version_minor: UInt32Column = "header `version_minor`",
        game_uuid: StringColumn = "header `game_uuid`",
        prev_game_uuid: StringColumn = "header `prev_game_uuid`",
        server_version: StringColumn = "header `server_version`",
        start_time: StringColumn = "header `start_time`",
        server_name: StringColumn = "header `server_name`",
        server_port: UInt16Column = "header `server_port`",
        game_type: StringColumn = "header `game_type`",
        map_name: StringColumn = "header `map_name`",
        map_size: UInt32Column = "header `map_size`",
        map_sha256: StringColumn = "header `map_sha256` (hex)",
        map_crc: UInt32Column = "header `map_crc`",
        prng_description: StringColumn = "header `prng_description`",
        comment: StringColumn = "header `comment`",
        messages: UInt64Column = "messages recorded",
        last_tick: Int32Column = "the last tick",
        end: StringColumn = "how the stream ended: `complete` (FINISH), `eof` (no FINISH), `truncated`",
    }
}

table! {
    /// `format=teehistorian/table=inputs`: one row per input sent.
    Inputs {
        file: FileColumn = "the input's path",
        tick: Int32Column = "tick",
        client: Int32Column = "client id",
        name: StringColumn = "the client's name at that tick, when recorded (EX player-name)",
        new: Bool = "INPUT_NEW (absolute) rather than INPUT_DIFF",
        direction: Int32Column = "the absolute input (`CNetObj_PlayerInput`): direction −1, 0, 1",
        target_x: Int32Column = "aim x, relative to the character",
        target_y: Int32Column = "aim y",
        jump: Int32Column = "jump",
        fire: Int32Column = "fire counter",
        hook: Int32Column = "hook",
        player_flags: Int32Column = "player flags",
        wanted_weapon: Int32Column = "wanted weapon",
        next_weapon: Int32Column = "next weapon counter",
        prev_weapon: Int32Column = "previous weapon counter",
    }
}

table! {
    /// `format=teehistorian/table=positions`: one row per PLAYER_NEW,
    /// PLAYER_DIFF and PLAYER_OLD.
    Positions {
        file: FileColumn = "the input's path",
        tick: Int32Column = "tick",
        client: Int32Column = "client id",
        kind: LabelColumn<PositionKind> = "`new` (appeared), `move`, `old` (disappeared); dictionary-encoded",
        x: Int32Column = "absolute x (32 units a tile); for `old`, the last position",
        y: Int32Column = "absolute y",
    }
}

table! {
    /// `format=teehistorian/table=events`: every other message.
    Events {
        file: FileColumn = "the input's path",
        tick: Int32Column = "tick",
        client: Int32Column = "client id (−1: the server)",
        kind: StringColumn = "`join`, `drop`, `chat command`, `rcon command`, `server command`, `message`, `finish`, or the EX record's name (`teehistorian-player-name@ddnet.org`, ...; `ex` when unknown)",
        name: StringColumn = "the client's name at that tick, when recorded",
        message: StringColumn = "for `message`: the network message (DDNet's name: `Cl_Say`, `Cl_StartInfo`, `NETMSG_INPUT`, ...; `unknown_system`, `unknown_game`, `unknown_ex` for what DDNet does not define)",
        text: StringColumn = "drop reason, command and arguments, chat text, player name, or the EX record's fields",
        ints: IntList = "integer fields: a command's flags; an EX record's (team, time, ...)",
        uuid: StringColumn = "the EX record's UUID",
    }
}

/// The `positions.kind` labels: keys 0, 1, 2.
pub struct PositionKind;

impl Labels for PositionKind {
    const VALUES: &'static [&'static str] = &["new", "move", "old"];
}

/// The state following the messages.
struct Walk {
    file: Option<String>,
    header: Option<String>,
    header_pieces: Vec<u8>,
    players: Box<PlayerState<MAX_CLIENTS>>,
    names: Box<PlayerNames<MAX_CLIENTS>>,
    protocols: Box<ClientProtocols<MAX_CLIENTS>>,
    messages: u64,
    last_tick: i32,
    games: Option<Games>,
    inputs: Option<Inputs>,
    positions: Option<Positions>,
    events: Option<Events>,
}

/// The teehistorian tables of one recording, streamed.
pub struct Teehistorian {
    reader: Reader<Box<dyn Read + Send>>,
    walk: Walk,
    done: bool,
    batch_rows: usize,
}

/// Records decoded per [`Steps::step`] at most: a message adds at most one
/// row, so a step stops as soon as a table holds a batch, and otherwise
/// after this many (the batching's checks then cost little per record).
const STEP_RECORDS: usize = 256;

impl Teehistorian {
    /// Reads `input` for the `tables` wanted.
    pub fn new(
        input: Box<dyn Read + Send>,
        file: Option<String>,
        tables: &[Table],
        batch_rows: usize,
    ) -> Self {
        let walk = Walk::new(file, tables, batch_rows);
        Self {
            reader: Reader::with_capacity(input, READ_BUFFER),
            walk,
            done: false,
            batch_rows,
        }
    }
}

impl Walk {
    /// The state before the first message, with builders for the `tables`
    /// wanted.
    fn new(file: Option<String>, tables: &[Table], batch_rows: usize) -> Self {
        Self {
            file,
            header: None,
            header_pieces: Vec::new(),
            players: Box::default(),
            names: Box::default(),
            protocols: Box::default(),
            messages: 0,
            last_tick: 0,
            games: tables
                .contains(&Table::TeehistorianGames)
                .then(|| Games::with_capacity(1)),
            inputs: tables
                .contains(&Table::TeehistorianInputs)
                .then(|| Inputs::with_capacity(batch_rows)),
            positions: tables
                .contains(&Table::TeehistorianPositions)
                .then(|| Positions::with_capacity(batch_rows)),
            events: tables
                .contains(&Table::TeehistorianEvents)
                .then(|| Events::with_capacity(batch_rows)),
        }
    }
}

/// Every table of a recording held in memory, from one walk of
/// [`TeehistorianIter`] over it (no refill loop, no batching steps: a
/// table's batch goes to `sink` once it has `batch_rows` rows, the rest at
/// the end).
///
/// # Errors
/// A damaged recording (after the batches before the damage were handed
/// over), or `sink`'s error.
pub fn export_in_memory(
    bytes: &[u8],
    file: Option<String>,
    batch_rows: usize,
    sink: &mut dyn FnMut(Table, RecordBatch) -> Result<(), Error>,
) -> Result<(), Error> {
    let tables = Table::of(gamefmt::Format::Teehistorian);
    // A recording cut inside its header ends inside the header, which
    // starts at 0: the streamed walk and `gamefmt validate` say so too.
    let mut iter = TeehistorianIter::new(bytes).map_err(|e| match e.kind {
        gamefmt::ErrorKind::Truncated => gamefmt::Error::truncated(0),
        _ => e,
    })?;
    let mut walk = Walk::new(file, tables, batch_rows);
    // The header is the recording's first part: checked whole before the
    // messages, as `gamefmt validate` checks it.
    iter.header().validate()?;
    walk.header = Some(iter.header().json().to_owned());
    let mut rows: usize = 0;
    for record in iter.by_ref() {
        let record = record?;
        match record.message {
            Message::PlayerDiff { cid, dx, dy } => walk.player_diff(record.tick, cid, dx, dy),
            ref message => walk.message(record.tick, message),
        }
        .map_err(|e| at_record(e, record.offset))?;
        // A message adds at most one row: no table can pass the batch
        // size before `rows` reaches it.
        rows = rows.saturating_add(1);
        if rows >= batch_rows {
            rows = walk.flush(batch_rows, sink)?;
        }
    }
    walk.finish(iter.end())?;
    walk.flush(1, sink)?;
    Ok(())
}

/// A message's error (the player state's, whose offsets are relative to
/// the message) at the offset of the message in the input, as `gamefmt
/// validate` reports it.
fn at_record(e: Error, offset: usize) -> Error {
    match e {
        Error::Decode(e) => Error::Decode(e.shifted(offset)),
        other => other,
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

impl Walk {
    /// Follows one message and appends its row. Each kind of message
    /// moves only the state it can change (positions and inputs, or
    /// names and protocols), and the common ones (PLAYER_DIFF, then
    /// inputs) are handled first, without the general path's lookups.
    fn message(&mut self, tick: i32, msg: &Message<'_>) -> Result<(), Error> {
        self.messages = self.messages.saturating_add(1);
        self.last_tick = tick;
        match *msg {
            Message::PlayerDiff { cid, dx, dy } => self.moved(tick, cid, dx, dy)?,
            Message::PlayerNew { cid, .. } => {
                self.players.apply(msg)?;
                let pos = self.players.get(cid).and_then(|p| p.pos);
                self.position(tick, cid, 0, pos);
            }
            Message::PlayerOld { cid } => {
                // The last position, before the player is gone.
                let pos = self.players.get(cid).and_then(|p| p.pos);
                self.players.apply(msg)?;
                self.position(tick, cid, 2, pos);
            }
            Message::InputNew { cid, .. } | Message::InputDiff { cid, .. } => {
                self.players.apply(msg)?;
                let input = self.players.get(cid).and_then(|p| p.input);
                if let (Some(t), Some(input)) = (self.inputs.as_mut(), input) {
                    t.file.append_option(self.file.as_deref());
                    t.tick.append_value(tick);
                    t.client.append_value(cid);
                    t.name
                        .append_option(self.names.get(cid).map(String::from_utf8_lossy));
                    t.new.append_value(matches!(msg, Message::InputNew { .. }));
                    let cols = [
                        &mut t.direction,
                        &mut t.target_x,
                        &mut t.target_y,
                        &mut t.jump,
                        &mut t.fire,
                        &mut t.hook,
                        &mut t.player_flags,
                        &mut t.wanted_weapon,
                        &mut t.next_weapon,
                        &mut t.prev_weapon,
                    ];
                    for (col, value) in cols.into_iter().zip(input) {
                        col.append_value(value);
                    }
                }
            }
            Message::TickSkip { .. } => {}
            _ => {
                self.names.apply(msg);
                self.protocols.apply(msg);
                if let Some(t) = self.events.as_mut() {
                    let cid = msg.client_id();
                    let protocol = cid.map_or(gamefmt::Protocol::V06, |c| self.protocols.get(c));
                    // Text when valid UTF-8 is borrowed.
                    let name = cid
                        .and_then(|c| self.names.get(c))
                        .map(String::from_utf8_lossy);
                    event_row(
                        t,
                        self.file.as_deref(),
                        tick,
                        msg,
                        name.as_deref(),
                        protocol,
                    );
                }
            }
        }
        Ok(())
    }

    /// [`Self::message`] for a PLAYER_DIFF, inline: its fields come in
    /// registers, not through the record in memory (whose dx and dy,
    /// stored apart, were loaded as one word, which waited for both).
    #[inline(always)]
    fn player_diff(&mut self, tick: i32, cid: i32, dx: i32, dy: i32) -> Result<(), Error> {
        self.messages = self.messages.saturating_add(1);
        self.last_tick = tick;
        self.moved(tick, cid, dx, dy)
    }

    /// A PLAYER_DIFF's move and `positions` row.
    #[inline(always)]
    fn moved(&mut self, tick: i32, cid: i32, dx: i32, dy: i32) -> Result<(), Error> {
        self.players.apply(&Message::PlayerDiff { cid, dx, dy })?;
        let pos = self.players.get(cid).and_then(|p| p.pos);
        self.position(tick, cid, 1, pos);
        Ok(())
    }

    /// A `positions` row: `key` is the [`PositionKind`].
    #[inline(always)]
    fn position(&mut self, tick: i32, cid: i32, key: i8, pos: Option<(i32, i32)>) {
        if let Some(t) = self.positions.as_mut() {
            t.file.append_option(self.file.as_deref());
            t.tick.append_value(tick);
            t.client.append_value(cid);
            t.kind.append_key(key);
            t.x.append_option(pos.map(|p| p.0));
            t.y.append_option(pos.map(|p| p.1));
        }
    }

    fn finish(&mut self, end: End) -> Result<(), Error> {
        let Some(t) = self.games.as_mut() else {
            return Ok(());
        };
        // A recording cut inside its header has none: it ends inside a
        // structure, as `gamefmt validate` says.
        let Some(text) = self.header.as_deref() else {
            let offset = match end {
                End::Truncated { offset } => offset,
                _ => 0,
            };
            return Err(gamefmt::Error::truncated(offset).into());
        };
        let h = Header::parse_in_file(text.as_bytes())?;
        let s = |v: Option<gamefmt::teehistorian::JsonStr<'_>>| v.map(|v| v.to_string());
        t.file.append_option(self.file.as_deref());
        t.version.append_value(h.version());
        t.version_minor.append_option(h.version_minor());
        t.game_uuid
            .append_option(h.game_uuid().map(|u| u.to_string()));
        t.prev_game_uuid
            .append_option(h.prev_game_uuid().map(|u| u.to_string()));
        t.server_version.append_option(s(h.server_version()));
        t.start_time.append_option(s(h.start_time()));
        t.server_name.append_option(s(h.server_name()));
        t.server_port.append_option(h.server_port());
        t.game_type.append_option(s(h.game_type()));
        t.map_name.append_option(s(h.map_name()));
        t.map_size.append_option(h.map_size());
        let sha = h
            .map_sha256()
            .map(|d| d.iter().map(|b| format!("{b:02x}")).collect::<String>());
        t.map_sha256.append_option(sha);
        t.map_crc.append_option(h.map_crc());
        t.prng_description.append_option(s(h.prng_description()));
        t.comment.append_option(s(h.comment()));
        t.messages.append_value(self.messages);
        t.last_tick.append_value(self.last_tick);
        t.end.append_value(end.name());
        Ok(())
    }
}

fn event_row(
    t: &mut Events,
    file: Option<&str>,
    tick: i32,
    msg: &Message<'_>,
    name: Option<&str>,
    protocol: gamefmt::Protocol,
) {
    let mut kind = String::new();
    let (mut message, mut body, mut ints, mut uuid) = (None, None, Vec::new(), None);
    let mut client = msg.client_id();
    match *msg {
        Message::Join { .. } => kind.push_str("join"),
        Message::Drop { reason, .. } => {
            kind.push_str("drop");
            body = Some(text(reason));
        }
        Message::Finish => kind.push_str("finish"),
        Message::ConsoleCommand {
            cid,
            flags,
            line: command,
        } => {
            kind.push_str(CommandSource::of(cid, flags).name());
            client = Some(cid);
            let mut line = text(command.cmd());
            for arg in command.args().iter() {
                line.push(' ');
                line.push_str(&String::from_utf8_lossy(arg));
            }
            body = Some(line);
            ints.push(flags);
        }
        Message::PlayerMessage { data, .. } => {
            kind.push_str("message");
            let decoded = netmsg::describe(protocol, data);
            message = decoded.0;
            body = decoded.1;
        }
        Message::Ex(ex) => {
            kind.push_str(ex.name().unwrap_or("ex"));
            uuid = Some(ex.uuid.to_string());
            match ex.parse() {
                Ok(ExMessage::PlayerName { cid, name }) => {
                    client = Some(cid);
                    body = Some(text(name));
                }
                Ok(ExMessage::PlayerFinish { cid, time }) => {
                    client = Some(cid);
                    ints.push(time);
                }
                Ok(ExMessage::PlayerTeam { cid, team }) => {
                    client = Some(cid);
                    ints.push(team);
                }
                Ok(ExMessage::TeamFinish { team, time }) => ints.extend([team, time]),
                Ok(other) => body = Some(format!("{other:?}")),
                Err(e) => body = Some(format!("undecodable: {e}")),
            }
        }
        _ => kind.push_str(msg.kind().name()),
    }
    t.file.append_option(file);
    t.tick.append_value(tick);
    t.client.append_option(client);
    t.kind.append_value(kind);
    t.name.append_option(name);
    t.message.append_option(message);
    t.text.append_option(body);
    t.ints.append_value(ints.into_iter().map(Some));
    t.uuid.append_option(uuid);
}

impl Walk {
    /// Hands each table holding at least `rows` rows to `sink` as a batch;
    /// returns the most rows left in a table.
    fn flush(
        &mut self,
        rows: usize,
        sink: &mut dyn FnMut(Table, RecordBatch) -> Result<(), Error>,
    ) -> Result<usize, Error> {
        for &table in Table::of(gamefmt::Format::Teehistorian) {
            if self.pending(table) >= rows
                && let Some(batch) = self.take(table)?
            {
                sink(table, batch)?;
            }
        }
        Ok(self.most_rows())
    }

    /// Rows of `table` not yet taken (0 for a table not wanted).
    fn pending(&self, table: Table) -> usize {
        match table {
            Table::TeehistorianGames => self.games.as_ref().map_or(0, Games::len),
            Table::TeehistorianInputs => self.inputs.as_ref().map_or(0, Inputs::len),
            Table::TeehistorianPositions => self.positions.as_ref().map_or(0, Positions::len),
            Table::TeehistorianEvents => self.events.as_ref().map_or(0, Events::len),
            _ => 0,
        }
    }

    /// Those rows as one batch (`None` for a table not wanted).
    fn take(&mut self, table: Table) -> Result<Option<RecordBatch>, Error> {
        let schema = table.schema();
        Ok(match table {
            Table::TeehistorianGames => self.games.as_mut().map(|t| t.finish(schema)),
            Table::TeehistorianInputs => self.inputs.as_mut().map(|t| t.finish(schema)),
            Table::TeehistorianPositions => self.positions.as_mut().map(|t| t.finish(schema)),
            Table::TeehistorianEvents => self.events.as_mut().map(|t| t.finish(schema)),
            _ => None,
        }
        .transpose()?)
    }

    /// The most rows any table holds.
    fn most_rows(&self) -> usize {
        let inputs = self.inputs.as_ref().map_or(0, Inputs::len);
        let positions = self.positions.as_ref().map_or(0, Positions::len);
        let events = self.events.as_ref().map_or(0, Events::len);
        inputs.max(positions).max(events)
    }
}

impl Teehistorian {
    /// Decodes one record; `false` at the end.
    fn record(&mut self) -> Result<bool, Error> {
        if self.done {
            return Ok(false);
        }
        let walk = &mut self.walk;
        match self.reader.next() {
            None => {
                self.done = true;
                let end = self.reader.end();
                walk.finish(end)?;
                Ok(false)
            }
            Some(Err(e)) => {
                self.done = true;
                Err(e.into())
            }
            Some(Ok(Item::Header(h))) => {
                h.validate()?;
                walk.header = Some(h.json().to_owned());
                Ok(true)
            }
            Some(Ok(Item::HeaderPiece { json, last })) => {
                walk.header_pieces.extend_from_slice(json);
                if last {
                    let pieces = std::mem::take(&mut walk.header_pieces);
                    walk.header = Some(Header::parse_in_file(&pieces)?.json().to_owned());
                }
                Ok(true)
            }
            Some(Ok(Item::Message(record))) => {
                walk.message(record.tick, &record.message)
                    .map_err(|e| at_record(e, record.offset))?;
                Ok(true)
            }
        }
    }
}

impl Steps for Teehistorian {
    /// Up to [`STEP_RECORDS`] records, fewer when a table fills a batch.
    fn step(&mut self) -> Result<bool, Error> {
        for _ in 0..STEP_RECORDS {
            if !self.record()? {
                return Ok(false);
            }
            if self.walk.most_rows() >= self.batch_rows {
                break;
            }
        }
        Ok(true)
    }

    fn pending(&self, table: Table) -> usize {
        self.walk.pending(table)
    }

    fn take(&mut self, table: Table) -> Result<Option<RecordBatch>, Error> {
        self.walk.take(table)
    }
}
