//! Teeworlds/DDNet demos: the `snapshot_items` and `messages` tables, from
//! one walk of the chunks through [`gamefmt::demo::Reader`], snapshots
//! rebuilt at every tick by [`Reconstructor`] and messages decoded with
//! [`gamefmt::netmsg`]. Runs on a thread of its own (the reconstructor
//! borrows its buffers for the whole walk).

use std::io::Read;

use gamefmt::Protocol;
use gamefmt::demo::{Chunk, ChunkKind, Frame, OwnedBuffers, Reader, Reconstructor, message_id};
use gamefmt::zerocopy::IntoBytes;

use crate::columns::{
    BinaryColumn, Bool, FileColumn, Int32Column, IntList, StringColumn, UInt16Column, table,
};
use crate::source::Emitter;
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

/// Decodes a demo and sends its tables' batches.
pub fn run(
    input: Box<dyn Read + Send>,
    file: Option<String>,
    tables: &[Table],
    emit: &Emitter,
) -> Result<(), Error> {
    let mut items = tables
        .contains(&Table::DemoSnapshotItems)
        .then(|| SnapshotItems::with_capacity(emit.batch_rows()));
    let mut messages = tables
        .contains(&Table::DemoMessages)
        .then(|| Messages::with_capacity(emit.batch_rows()));
    let file = file.as_deref();
    let mut reader = Reader::new(input)?;
    let protocol = Protocol::of_net_version(reader.header().net_version());
    let sizes = reader.header().item_sizes();
    let mut owned = OwnedBuffers::new();
    let mut rec = Reconstructor::new(owned.buffers(), sizes);
    let mut tick = None;
    loop {
        // A chunk's payload or snapshot is damaged at the chunk's offset
        // (the decoders' offsets are within the payload), as `gamefmt
        // validate` says.
        let at = reader.offset();
        let at_chunk = |e: gamefmt::Error| Error::Decode(gamefmt::Error::new(e.kind, at));
        let Some(chunk) = reader.next() else {
            break;
        };
        let chunk = chunk?;
        if let Chunk::Tick { tick: t, .. } = chunk {
            tick = Some(t);
        }
        if let (
            Chunk::Data {
                kind: ChunkKind::Message,
                payload,
            },
            Some(t),
        ) = (chunk, messages.as_mut())
        {
            let bytes = rec.decode(payload).map_err(at_chunk)?.as_bytes();
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
            emit.flush(Table::DemoMessages, Some(t), false)?;
        }
        // DDNet's player decompresses every data chunk before it looks at
        // the type: a damaged chunk of an unknown type stops it, and
        // `gamefmt validate` (which decodes it too) says so at its offset.
        if let Chunk::Data {
            kind: ChunkKind::Unknown,
            payload,
        } = chunk
        {
            rec.decode(payload).map_err(at_chunk)?;
        }
        if let Some(frame) = rec.push(&chunk).map_err(at_chunk)?
            && let Some(t) = items.as_mut()
        {
            snapshot_rows(t, file, &frame);
            emit.flush(Table::DemoSnapshotItems, Some(t), false)?;
        }
    }
    if let (Some(frame), Some(t)) = (rec.finish(), items.as_mut()) {
        snapshot_rows(t, file, &frame);
    }
    emit.flush(Table::DemoSnapshotItems, items.as_mut(), true)?;
    emit.flush(Table::DemoMessages, messages.as_mut(), true)
}
