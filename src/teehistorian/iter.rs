//! [`TeehistorianIter`], the slice iterator: the [`SliceIter`] of
//! [`Decoder`], whose step and `fold` take the common messages on short
//! paths.

use super::decoder::{
    Decoder, MAGIC_LEN, Record, TickState, short_input_diff, short_player_diff,
    short_player_diff_any, short_player_diff_wide, starts_short_player_diff,
};
use super::header::Header;
use super::message::Message;
use crate::error::{Error, Result};
use crate::stream::{Sealed, SliceDecoder, SliceIter};

/// Iterates over the messages of a teehistorian file held in memory.
///
/// [`TeehistorianIter::new`](SliceIter::new) reads the header; the iterator then yields
/// every message with its tick, borrowing from the input. It stops after
/// FINISH, at the end of the input, or after the first error (it is fused:
/// after an error it yields `None`). If the input ends inside a message, it
/// ends quietly after the message before ([the truncation
/// rule](crate::stream#the-truncation-rule)). Once it has returned `None`,
/// [`SliceIter::end`] tells how the stream ended. Bytes after
/// FINISH are not read (DDNet writes none).
///
/// For bulk work, prefer the consuming adapters built on
/// [`Iterator::fold`] (`for_each`, `fold`, `count`, `sum`, ...) to a `for`
/// loop: they run the common messages (PLAYER_DIFF, INPUT_DIFF) through a
/// loop of their own and took about 9% fewer instructions than a `for`
/// loop on the corpus and 16% fewer on a 128-client server's recording.
/// Both yield the same items.
///
/// ```
/// use gamefmt::teehistorian::{Message, TeehistorianIter, SAMPLE};
/// let mut moves = 0;
/// TeehistorianIter::new(SAMPLE)?.for_each(|record| {
///     if let Ok(r) = record {
///         if let Message::PlayerDiff { .. } = r.message {
///             moves += 1;
///         }
///     }
/// });
/// assert_eq!(moves, 1);
/// # Ok::<(), gamefmt::Error>(())
/// ```
pub type TeehistorianIter<'a> = SliceIter<'a, Decoder>;

impl<'a> SliceIter<'a, Decoder> {
    /// Checks the magic UUID and reads the header: its end, UTF-8 and its
    /// version ([`Header::validate`] checks the rest of its JSON).
    ///
    /// # Errors
    /// A bad magic, a header that is not UTF-8 or has no supported
    /// version, or a file that ends inside the header.
    pub fn new(data: &'a [u8]) -> Result<Self> {
        let mut decoder = Decoder::new();
        // Straight to the header (no message path to try first).
        match decoder.read_header(data)? {
            Some((_, consumed)) => Ok(Self::with_decoder(
                decoder,
                data,
                data.get(consumed..).unwrap_or_default(),
            )),
            None => Err(Error::truncated(data.len())),
        }
    }

    /// The file header.
    #[must_use]
    pub fn header(&self) -> Header<'a> {
        let facts = self.decoder.header().copied().unwrap_or_default();
        facts.in_json(self.input.get(MAGIC_LEN..).unwrap_or_default())
    }

    /// The tick of the last message yielded.
    #[must_use]
    pub const fn tick(&self) -> i32 {
        self.decoder.tick()
    }
}

/// [`next_general`] as a call, for `fold`'s rare messages. Inline there,
/// it made the compiler keep `Decoder::decode_record` out of line for
/// `next` as well; with `fold` calling this, `next` has it inline.
/// Instructions (callgrind) against the tree before: a `for` loop over the
/// corpus 37.17 M → 36.23 M, over the 21 MB recording 421.2 M → 402.2 M,
/// per tiny file 1055 → 918; `for_each` per tiny file 1111 → 1146, corpus
/// 26.94 M → 27.10 M, large 284.8 M → 284.3 M.
#[inline(never)]
fn next_general_call<'a>(iter: &mut TeehistorianIter<'a>) -> Option<Result<Record<'a>>> {
    next_general(iter)
}

/// The step through the decoder's general path. Inlined into `next` like
/// the short path: out of line, it returned its record through memory, so
/// `next`'s result lived in memory on every path, and a caller's move of a
/// short-path record (built with narrow stores, read back with wide loads)
/// stalled on every message (a `for` loop over the corpus: 400 → 710
/// MB/s).
#[inline(always)]
fn next_general<'a>(iter: &mut TeehistorianIter<'a>) -> Option<Result<Record<'a>>> {
    let rest = iter.rest;
    if let Some((record, len)) = iter.decoder.decode_short_input(rest) {
        iter.rest = rest.get(len..).unwrap_or_default();
        return Some(Ok(record));
    }
    let item = iter.decoder.decode_record(rest);
    if matches!(item, Some(Ok(_))) {
        iter.rest = iter.input.get(iter.decoder.offset()..).unwrap_or_default();
    }
    item
}

impl Sealed for Decoder {}

/// The iterator's `rest` moves on with the decoder's offset (which counts
/// from the start of the input, the header included): a step reads the
/// next message from `rest` rather than cutting it from the input at the
/// offset again, whose bounds check compiled to a select per message.
/// Instructions per pass (callgrind), a `for` loop: corpus 35.88 M →
/// 34.25 M, the 21 MB recording 402.28 M → 384.08 M; `for_each`
/// unchanged (26.81 M → 26.79 M, 275.92 M → 275.75 M). (Moving `rest` on
/// while the step still cut its input from the offset cost 8% more.)
impl SliceDecoder for Decoder {
    type Item<'a> = Record<'a>;

    #[inline(always)]
    fn next_item<'a>(iter: &mut SliceIter<'a, Self>) -> Option<Result<Record<'a>>> {
        // No `stopped` flag and no test of the decoder's state: after an
        // error or FINISH `rest` is emptied, so that no path applies (the
        // general one also answers `None` by the decoder's state), and at
        // the end of the input none applies either (the short paths decode
        // a subset of what the general one does). With a flag set and
        // tested, the compiler kept a byte of state in memory through a
        // `for` loop, stored and loaded again on every message (the 21 MB
        // recording: 21.7 ms against 17.4-18.0 ms, min of 8 passes). With
        // the decoder's state tested here, the loop carried the state in a
        // register, and one fewer was left: against this, a `for` loop
        // took 32.20 M instructions per pass over the corpus (27.46 M without)
        // and 352.39 M over the 21 MB recording (299.62 M without). (Tried
        // before INPUT_DIFF's ints were decoded as one word, dropping the
        // test kept the offset in memory and ran slower.)
        //
        // The short path here is PLAYER_DIFF's alone (INPUT_DIFF's is at
        // the start of the general path): a `for` loop moves every record
        // as the union of what the paths of `next` build, and the ten ints
        // of an input built here made that ten fields wider for every
        // PLAYER_DIFF (on the corpus, 49.5 M instructions against 40.8 M;
        // the tick state is taken and given back as in `fold`, which also
        // compiled to fewer than `Decoder::decode_short`). Still so with
        // the record's fields now stored whole for every message: INPUT_DIFF's
        // path tried here after PLAYER_DIFF's, a `for` loop over the
        // corpus's tutorial recording took 2.05-2.19 ms a pass against
        // 1.23-1.25 (min of 300). Nor does INPUT_DIFF's path in
        // `next_general` go without its test of the decoder's state: with
        // `rest` emptied there instead and the offset told again only
        // while `rest` is not empty, the loop carried the offset and kept
        // the last cid in a stack slot (24.83 M instructions a pass on that
        // recording against 22.10 M, 1.34-1.37 ms against 1.19-1.25).
        let rest = iter.rest;
        let mut ticks = iter.decoder.ticks();
        if let Some((message, tick, len)) = short_player_diff_any(&mut ticks, rest) {
            let offset = iter.input.len().wrapping_sub(rest.len());
            iter.decoder.end_short_run(ticks, offset.wrapping_add(len));
            iter.rest = rest.get(len..).unwrap_or_default();
            return Some(Ok(Record {
                tick,
                offset,
                message,
            }));
        }
        // The offset, which the decoder already has, told again from
        // `rest` (as the short path above does), so that a `for` loop does
        // not carry it from message to message: there the tick state's
        // last cid then stayed in a register instead of a stack slot
        // stored and loaded again on every message (a `for` loop over the
        // corpus, min of 200 passes: 1.56-1.57 ms against 1.68-1.70;
        // instructions per pass 27.57 M against 27.46 M, the 21 MB
        // recording 300.44 M against 299.62 M).
        iter.decoder
            .sync_offset(iter.input.len().wrapping_sub(rest.len()));
        let item = next_general(iter);
        if let Some(
            Ok(Record {
                message: Message::Finish,
                ..
            })
            | Err(_),
        ) = item
        {
            iter.rest = &[];
        }
        item
    }

    /// The internal loop behind `for_each`, `count`, `collect` and the
    /// other consuming adapters: the same items as `next`, with the common
    /// messages decoded in a loop whose state (position, tick) lives in
    /// locals, so a consumer that hands records to opaque code does not
    /// make it go through memory for every message.
    #[inline]
    fn fold_items<'a, B, F>(mut iter: SliceIter<'a, Self>, init: B, mut f: F) -> B
    where
        F: FnMut(B, Result<Record<'a>>) -> B,
    {
        let mut acc = init;
        let data = iter.input;
        // A short input (a tiny file: DDNet's unit-test recordings) has no
        // runs to gain from, and its rare messages would each pay for the
        // short paths' failed tries first: the general path alone.
        if data.len().saturating_sub(iter.offset()) < SHORT_INPUT {
            return general_one_ahead(iter, acc, f);
        }
        loop {
            if let Some(mut ticks) = iter.decoder.short_run_state() {
                let mut rest = iter.rest;
                loop {
                    // Runs of PLAYER_DIFF (one per tee and tick; those of
                    // cids below 64 first) between the rarer INPUT_DIFFs:
                    // each shape has its own loop, so that each builds one
                    // kind of record.
                    if starts_short_player_diff(rest) {
                        (acc, rest, ticks) = narrow_run(&mut f, acc, data.len(), rest, ticks);
                    }
                    let mut wide = false;
                    while let Some(short) = short_player_diff_wide(&mut ticks, rest) {
                        acc = hand_on(&mut f, acc, data.len(), &mut rest, short);
                        wide = true;
                    }
                    if wide {
                        continue;
                    }
                    let Some(short) = short_input_diff(&ticks, rest) else {
                        break;
                    };
                    acc = hand_on(&mut f, acc, data.len(), &mut rest, short);
                }
                let pos = data.len().wrapping_sub(rest.len());
                iter.decoder.end_short_run(ticks, pos);
                iter.rest = rest;
            }
            match next_general_call(&mut iter) {
                Some(item) => acc = f(acc, item),
                None => return acc,
            }
        }
    }
}

/// Every message left through the general path, each handed to `f`
/// after the next one is decoded. A record comes back from
/// [`next_general_call`] through memory, written field by field; a
/// consumer that copies it whole (a `let Ok(r) = r`, a move into
/// `black_box`) reads it with wide loads, which cannot take their bytes
/// from those narrow stores still in flight and waited for them on every
/// message. Handed on one decode later, the record's stores are done. Two
/// slots taken in turn, so that no record is moved from one to the other
/// (that move was the same wait). `f` cannot see the iterator, so the
/// early decode is not observable; after an error or FINISH the iterator
/// is fused and the decode ahead gives `None`. The nine tiny files of
/// `benches/peers` through `for_each` (`repeat tiny "" ours for_each
/// 20000`, min ns a pass): 747-757 -> 654-669, for 9,550 -> 9,676
/// instructions a pass.
#[inline(always)]
fn general_one_ahead<'a, B, F>(mut iter: TeehistorianIter<'a>, mut acc: B, mut f: F) -> B
where
    F: FnMut(B, Result<Record<'a>>) -> B,
{
    let mut a = next_general_call(&mut iter);
    loop {
        let Some(first) = a else { return acc };
        let b = next_general_call(&mut iter);
        acc = f(acc, first);
        let Some(second) = b else { return acc };
        a = next_general_call(&mut iter);
        acc = f(acc, second);
    }
}

/// A run of narrow PLAYER_DIFFs (cids below 64) handed to `f`, in a
/// function of its own (called where one starts): inlined into
/// `fold_items`, the loop was compiled under the register pressure of the
/// other loops there and of the consumer's code for the rarer kinds. A
/// consumer that also decoded inputs made it 10% more instructions (the
/// tutorial recording's PLAYER_DIFFs alone, `for_each`: 13.36 M -> 14.66 M
/// a pass; out of line, 12.72 M). Only this loop: the wide one in a second
/// such function (or one generic function for both) made the compiler
/// stop inlining the consumer into them, a call per message (the 21 MB
/// recording 262 M -> 374 M).
#[inline(never)]
fn narrow_run<'a, B, F>(
    f: &mut F,
    mut acc: B,
    len: usize,
    mut rest: &'a [u8],
    mut ticks: TickState,
) -> (B, &'a [u8], TickState)
where
    F: FnMut(B, Result<Record<'a>>) -> B,
{
    while let Some(message) = short_player_diff(&mut ticks, rest) {
        acc = hand_on(f, acc, len, &mut rest, message);
    }
    (acc, rest, ticks)
}

/// Messages left after the header shorter than this (bytes) take only the
/// general path in `fold`. Instructions per pass over the nine tiny files
/// of `benches/peers` (callgrind): `for_each` 10131 → 9153, the `for` loop
/// and the corpus and large recordings unchanged.
const SHORT_INPUT: usize = 64;

/// Hands a message the short path decoded at the start of `rest` (the
/// input's last bytes, of `len` in all) to `f` as a record, and moves
/// `rest` past it.
#[inline(always)]
fn hand_on<'a, B>(
    f: &mut impl FnMut(B, Result<Record<'a>>) -> B,
    acc: B,
    len: usize,
    rest: &mut &'a [u8],
    (message, tick, used): (Message<'a>, i32, usize),
) -> B {
    let offset = len.wrapping_sub(rest.len());
    *rest = rest.get(used..).unwrap_or_default();
    f(
        acc,
        Ok(Record {
            tick,
            offset,
            message,
        }),
    )
}
