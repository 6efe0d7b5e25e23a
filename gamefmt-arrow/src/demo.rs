//! Teeworlds/DDNet demos: the `snapshot_items` and `messages` tables, from
//! one walk of the chunks through [`gamefmt::demo::Reader`], snapshots
//! rebuilt at every tick by [`Reconstructor`] and messages decoded with
//! [`gamefmt::netmsg`]. A [`Steps`] source decoding one chunk a step on
//! the caller's thread: the reconstructor owns its buffers and lives next
//! to the reader.

use std::io::Read;

use arrow_array::RecordBatch;
use gamefmt::Protocol;
use gamefmt::demo::{
    Chunk, ChunkKind, DemoHeader, Frame, Item, OwnedBuffers, Reader, Reconstructor, message_id,
};
use gamefmt::stream::End;
use gamefmt::zerocopy::IntoBytes;

use crate::columns::{
    BinaryColumn, Bool, FileColumn, Int32Column, IntList, Rows, StringColumn, UInt16Column, table,
};
use crate::source::Steps;
use crate::{Error, Table, netmsg};

table! {
    /// `format=demo/table=snapshot_items`: every item of the snapshot in
    /// effect at every tick.
    SnapshotItems {
        file: FileColumn = "the input's path",
        tick: Int32Column = "tick",
        keyframe: Bool = "the tick marker flagged a keyframe",
        type_id: UInt16Column = "item type (0.6/DDNet or 0.7 numbering, by the demo's net version; extended types above 0x4000 map to a UUID item)",
        id: UInt16Column = "item id (a client id for characters and players)",
        ints: IntList = "the item's ints",
    }
}

table! {
    /// `format=demo/table=messages`: every message chunk.
    Messages {
        file: FileColumn = "the input's path",
        tick: Int32Column = "the tick in effect (null before the first)",
        system: Bool = "a system (engine) message",
        msg_id: Int32Column = "message id",
        message: StringColumn = "message name (DDNet's: `Sv_Chat`, `Sv_KillMsg`, `NETMSG_SNAP`, ...; `unknown_system`, `unknown_game`, `unknown_ex`)",
        text: StringColumn = "its text: chat, broadcast, MOTD, vote, a client's name, an rcon line, an alert",
        client_id: Int32Column = "the client it names (the core's `client_id` field: Sv_Chat's author, Sv_Emoticon, 0.7 Sv_VoteSet, Sv_RaceFinish, ...; -1 the server)",
        team: Int32Column = "0.6 Sv_Chat/Cl_Say `team` (0 all, 1 team, 2-3 whisper)",
        mode: Int32Column = "0.7 Sv_Chat/Cl_Say `mode`",
        killer: Int32Column = "Sv_KillMsg `killer` (client id)",
        victim: Int32Column = "Sv_KillMsg `victim` (client id)",
        weapon: Int32Column = "Sv_KillMsg `weapon`",
        timeout: Int32Column = "Sv_VoteSet `timeout` (s; 0 ends the vote)",
        yes: Int32Column = "Sv_VoteStatus `yes`",
        no: Int32Column = "Sv_VoteStatus `no`",
        pass: Int32Column = "Sv_VoteStatus `pass`",
        total: Int32Column = "Sv_VoteStatus `total`",
        time: Int32Column = "race time: Sv_RaceFinish `time` (ms), Sv_DDRaceTime `time` (cs)",
        data: BinaryColumn = "the message's bytes (Huffman-decoded payload)",
    }
}

/// One row per item of the snapshot at `frame`'s tick.
fn snapshot_rows(t: &mut SnapshotItems, file: Option<&str>, frame: &Frame<'_>) {
    for item in frame.snapshot.items() {
        t.file.append_option(file);
        t.tick.append_value(frame.tick);
        t.keyframe.append_value(frame.keyframe);
        t.type_id.append_value(item.type_id());
        t.id.append_value(item.id());
        t.ints
            .append_value(item.data().iter().map(|v| Some(v.get())));
    }
}

/// One message chunk's row.
fn message_row(
    t: &mut Messages,
    file: Option<&str>,
    tick: Option<i32>,
    protocol: Protocol,
    bytes: &[u8],
) {
    let (id, system) = message_id(bytes).unzip();
    let (name, text) = netmsg::describe(protocol, bytes);
    t.file.append_option(file);
    t.tick.append_option(tick);
    t.system.append_option(system);
    t.msg_id.append_option(id);
    t.message.append_option(name);
    t.text.append_option(text);
    let [
        client_id,
        team,
        mode,
        killer,
        victim,
        weapon,
        timeout,
        yes,
        no,
        pass,
        total,
        time,
    ] = netmsg::typed(protocol, bytes);
    t.client_id.append_option(client_id);
    t.team.append_option(team);
    t.mode.append_option(mode);
    t.killer.append_option(killer);
    t.victim.append_option(victim);
    t.weapon.append_option(weapon);
    t.timeout.append_option(timeout);
    t.yes.append_option(yes);
    t.no.append_option(no);
    t.pass.append_option(pass);
    t.total.append_option(total);
    t.time.append_option(time);
    t.data.append_value(bytes);
}

/// A demo's tables, decoded one chunk a step.
pub struct Demo {
    /// The input, until the first step reads its header.
    input: Option<Box<dyn Read + Send>>,
    /// The reader and reconstructor, from the first step.
    open: Option<Open>,
    file: Option<String>,
    items: Option<SnapshotItems>,
    messages: Option<Messages>,
    /// The tick in effect.
    tick: Option<i32>,
    done: bool,
}

/// A demo whose header was read: the chunk reader, and the reconstructor
/// (owning its buffers) fed its chunks.
struct Open {
    reader: Reader<Box<dyn Read + Send>>,
    rec: Reconstructor<'static, OwnedBuffers>,
    protocol: Protocol,
}

impl Demo {
    /// The `tables` wanted of the demo `input`, in batches of `batch_rows`
    /// rows; the header is read by the first step (its errors come from
    /// the batches, as the other formats').
    pub fn new(
        input: Box<dyn Read + Send>,
        file: Option<String>,
        tables: &[Table],
        batch_rows: usize,
    ) -> Self {
        Self {
            input: Some(input),
            open: None,
            file,
            items: tables
                .contains(&Table::DemoSnapshotItems)
                .then(|| SnapshotItems::with_capacity(batch_rows)),
            messages: tables
                .contains(&Table::DemoMessages)
                .then(|| Messages::with_capacity(batch_rows)),
            tick: None,
            done: false,
        }
    }
}

/// Reads the first record of a new reader, the header: its facts. A file
/// that ends before it is cut (an error here: nothing can be read).
fn read_header<R: Read>(reader: &mut Reader<R>) -> Result<DemoHeader, Error> {
    if let Some(item) = reader.next() {
        item?;
    }
    match (reader.header(), reader.end()) {
        (Some(header), _) => Ok(header.clone()),
        (None, End::Damaged(e)) => Err(Error::Decode(e)),
        (None, _) => Err(Error::Decode(gamefmt::Error::truncated(reader.offset()))),
    }
}

impl Steps for Demo {
    /// Decodes one chunk: a message's row, or a frame's rows when a tick
    /// marker ends a tick (the last frame's at the end).
    fn step(&mut self) -> Result<bool, Error> {
        if self.done {
            return Ok(false);
        }
        if let Some(input) = self.input.take() {
            let mut reader = Reader::new(input);
            let header = read_header(&mut reader)?;
            let protocol = Protocol::of_net_version(header.net_version());
            let rec = Reconstructor::owned(header.item_sizes());
            self.open = Some(Open {
                reader,
                rec,
                protocol,
            });
        }
        let Some(Open {
            reader,
            rec,
            protocol,
        }) = self.open.as_mut()
        else {
            self.done = true;
            return Ok(false);
        };
        // A chunk's payload or snapshot is damaged at the chunk's offset
        // (the decoders' offsets are within the payload), as `gamefmt
        // validate` says.
        let at = reader.offset();
        let at_chunk = |e: gamefmt::Error| Error::Decode(gamefmt::Error::new(e.kind, at));
        let Some(item) = reader.next() else {
            self.done = true;
            if let (Some(frame), Some(t)) = (rec.finish(), self.items.as_mut()) {
                snapshot_rows(t, self.file.as_deref(), &frame);
            }
            return Ok(false);
        };
        // The embedded map's pieces are not read.
        let Item::Chunk(chunk) = item? else {
            return Ok(true);
        };
        match chunk {
            Chunk::Tick { tick, .. } => self.tick = Some(tick),
            Chunk::Data {
                kind: ChunkKind::Message,
                payload,
            } => {
                if let Some(t) = self.messages.as_mut() {
                    let bytes = rec.decode(payload).map_err(at_chunk)?.as_bytes();
                    message_row(t, self.file.as_deref(), self.tick, *protocol, bytes);
                }
            }
            // DDNet's player decompresses every data chunk before it looks
            // at the type: a damaged chunk of an unknown type stops it, and
            // `gamefmt validate` (which decodes it too) says so at its
            // offset.
            Chunk::Data {
                kind: ChunkKind::Unknown,
                payload,
            } => {
                rec.decode(payload).map_err(at_chunk)?;
            }
            Chunk::Data { .. } => {}
        }
        if let Some(frame) = rec.push(&chunk).map_err(at_chunk)?
            && let Some(t) = self.items.as_mut()
        {
            snapshot_rows(t, self.file.as_deref(), &frame);
        }
        Ok(true)
    }

    fn pending(&self, table: Table) -> usize {
        match table {
            Table::DemoSnapshotItems => self.items.as_ref().map_or(0, Rows::rows),
            Table::DemoMessages => self.messages.as_ref().map_or(0, Rows::rows),
            _ => 0,
        }
    }

    fn take(&mut self, table: Table) -> Result<Option<RecordBatch>, Error> {
        let schema = table.schema();
        Ok(match table {
            Table::DemoSnapshotItems => self.items.as_mut().map(|t| t.batch(schema)).transpose()?,
            Table::DemoMessages => self
                .messages
                .as_mut()
                .map(|t| t.batch(schema))
                .transpose()?,
            _ => None,
        })
    }
}
