//! Rebuilding the full snapshot at every tick from keyframes and deltas.

use zerocopy::little_endian::I32;

use super::chunk::{Chunk, ChunkKind, DemoChunkIter};
use super::{DemoView, decode_payload, in_decoded};
use crate::error::{Error, Result};
use crate::snapshot::{DeltaView, SnapshotView, apply};
use crate::stream::End;

/// Bytes a Huffman-decoded chunk payload may take (DDNet drops larger ones).
pub const MAX_PAYLOAD: usize = crate::snapshot::MAX_SIZE;
/// Ints an unpacked chunk payload may take.
pub const MAX_PAYLOAD_INTS: usize = MAX_PAYLOAD / 4;

/// The buffers a [`Reconstructor`] works in, all owned by the caller:
/// `scratch` for Huffman output ([`MAX_PAYLOAD`] bytes suffice), `payload`
/// for unpacked delta and message ints ([`MAX_PAYLOAD_INTS`]), and the two
/// snapshot buffers `current` and `next`
/// ([`crate::snapshot::MAX_SNAPSHOT_INTS`] each).
#[derive(Debug)]
pub struct Buffers<'b> {
    /// Huffman-decoded payload bytes.
    pub scratch: &'b mut [u8],
    /// Unpacked payload ints.
    pub payload: &'b mut [I32],
    /// The snapshot in effect.
    pub current: &'b mut [I32],
    /// Where the next snapshot is built.
    pub next: &'b mut [I32],
}

/// Heap-allocated [`Buffers`] of the maximal sizes (feature `alloc`).
#[cfg(feature = "alloc")]
#[derive(Clone, Debug)]
pub struct OwnedBuffers {
    scratch: alloc::vec::Vec<u8>,
    payload: alloc::vec::Vec<I32>,
    current: alloc::vec::Vec<I32>,
    next: alloc::vec::Vec<I32>,
}

#[cfg(feature = "alloc")]
impl OwnedBuffers {
    /// Buffers large enough for any demo DDNet can play.
    #[must_use]
    pub fn new() -> Self {
        let snap = crate::snapshot::MAX_SNAPSHOT_INTS;
        Self {
            scratch: alloc::vec![0; MAX_PAYLOAD],
            payload: alloc::vec![I32::ZERO; MAX_PAYLOAD_INTS],
            current: alloc::vec![I32::ZERO; snap],
            next: alloc::vec![I32::ZERO; snap],
        }
    }

    /// Lends the buffers.
    pub fn buffers(&mut self) -> Buffers<'_> {
        Buffers {
            scratch: &mut self.scratch,
            payload: &mut self.payload,
            current: &mut self.current,
            next: &mut self.next,
        }
    }
}

#[cfg(feature = "alloc")]
impl Default for OwnedBuffers {
    fn default() -> Self {
        Self::new()
    }
}

/// Where a [`Reconstructor`] keeps its buffers, as the caller chooses:
/// borrowed [`Buffers`] (no_std, no allocation), owned `OwnedBuffers`
/// (feature `alloc`: a reconstructor that can live next to its reader,
/// with no self-borrow), or a `&mut` to either.
///
/// The buffers' sizes bound what decodes (see [`Buffers`]); an
/// implementation lending buffers too small only makes chunks fail to
/// decode, never panics.
///
/// ```
/// use gamefmt::demo::{Buffers, Reconstructor};
/// use zerocopy::little_endian::I32;
///
/// // Borrowed, in the caller's arrays: no allocation.
/// let (mut scratch, mut payload) = ([0u8; 64], [I32::ZERO; 16]);
/// let (mut a, mut b) = ([I32::ZERO; 16], [I32::ZERO; 16]);
/// let buffers = Buffers { scratch: &mut scratch, payload: &mut payload, current: &mut a, next: &mut b };
/// let rec = Reconstructor::new(buffers, gamefmt::demo::net_item_sizes("0.6 626fce9a778df4d4"));
/// assert!(rec.snapshot().is_none());
/// ```
pub trait Storage {
    /// Lends the four buffers.
    fn buffers(&mut self) -> Buffers<'_>;
    /// The snapshot in effect's buffer (`current`), read-only.
    fn current(&self) -> &[I32];
    /// Exchanges `current` and `next` (the snapshot built in `next` takes
    /// effect); no copy.
    fn swap(&mut self);
}

impl Storage for Buffers<'_> {
    #[inline]
    fn buffers(&mut self) -> Buffers<'_> {
        Buffers {
            scratch: self.scratch,
            payload: self.payload,
            current: self.current,
            next: self.next,
        }
    }

    #[inline]
    fn current(&self) -> &[I32] {
        self.current
    }

    #[inline]
    fn swap(&mut self) {
        core::mem::swap(&mut self.current, &mut self.next);
    }
}

#[cfg(feature = "alloc")]
impl Storage for OwnedBuffers {
    #[inline]
    fn buffers(&mut self) -> Buffers<'_> {
        Self::buffers(self)
    }

    #[inline]
    fn current(&self) -> &[I32] {
        &self.current
    }

    #[inline]
    fn swap(&mut self) {
        core::mem::swap(&mut self.current, &mut self.next);
    }
}

impl<S: Storage + ?Sized> Storage for &mut S {
    #[inline]
    fn buffers(&mut self) -> Buffers<'_> {
        S::buffers(self)
    }

    #[inline]
    fn current(&self) -> &[I32] {
        S::current(self)
    }

    #[inline]
    fn swap(&mut self) {
        S::swap(self);
    }
}

/// The snapshot-reconstruction stage: keeps the snapshot in effect while
/// chunks are fed to it — a full snapshot replaces it, a delta is applied
/// to it — and, fed every chunk with [`Reconstructor::push`], yields the
/// full snapshot at every tick. The chunks may come from any source:
/// [`DemoView::chunks`], the push [`super::ChunkDecoder`], or the
/// [`super::Item::Chunk`]s of the whole-file [`super::Decoder`] and a
/// [`Reader`](super::Reader). Works in two fixed snapshot buffers (plus the
/// payload buffers) and never allocates; [`Frames`] is it over a demo in
/// memory.
///
/// Its buffers are borrowed or owned as the caller chooses (the
/// [`Storage`] `S`): `Reconstructor<'b>` borrows [`Buffers<'b>`] (no_std,
/// zero allocation), `Reconstructor<'static, OwnedBuffers>` owns them
/// (feature `alloc`; see `Reconstructor::owned`) and can be kept in a
/// struct next to the [`Reader`](super::Reader) it is fed from. `'b` is
/// also the lifetime of the item size table (those of
/// [`super::net_item_sizes`] are `'static`).
///
/// A chunk that fails to decode or apply leaves the snapshot in effect
/// unchanged (DDNet's player skips such a delta and goes on).
#[derive(Debug)]
pub struct Reconstructor<'b, S = Buffers<'b>> {
    storage: S,
    len: Option<usize>,
    sizes: &'b [u16],
    /// The tick open since the last tick marker pushed, and its keyframe
    /// flag.
    open: Option<(i32, bool)>,
}

#[cfg(feature = "alloc")]
impl<'b> Reconstructor<'b, OwnedBuffers> {
    /// A reconstructor owning buffers of the maximal sizes
    /// ([`OwnedBuffers::new`]), with the item size table `sizes`.
    ///
    /// ```
    /// # fn main() -> Result<(), gamefmt::Error> {
    /// use gamefmt::demo::{DemoMap, DemoView, OwnedBuffers, Reconstructor, Recorder, RecorderOptions};
    /// use gamefmt::snapshot::SnapshotBuilder;
    ///
    /// let options = RecorderOptions::ddnet("2026-11-28_20-00-00");
    /// let map = DemoMap { name: "dm1", crc: 0, sha256: [0; 32], data: None };
    /// let mut recorder = Recorder::new(&options, &map)?;
    /// let mut b = SnapshotBuilder::new();
    /// for tick in 100..110 {
    ///     b.clear();
    ///     b.add(9, 0, &[tick; 22])?; // a character (type 9, 22 ints)
    ///     recorder.snapshot(tick, &b.snapshot())?;
    /// }
    /// let bytes = recorder.finish();
    /// let view = DemoView::parse(&bytes)?;
    ///
    /// // No borrow of a local buffer: a struct field, a return value.
    /// struct Walk { rec: Reconstructor<'static, OwnedBuffers> }
    /// let mut walk = Walk { rec: Reconstructor::owned(view.header().item_sizes()) };
    /// let mut ticks = Vec::new();
    /// for chunk in view.chunks() {
    ///     if let Some(frame) = walk.rec.push(&chunk?)? {
    ///         assert_eq!(frame.snapshot.find(9, 0).and_then(|c| c.int(0)), Some(frame.tick));
    ///         ticks.push(frame.tick);
    ///     }
    /// }
    /// ticks.extend(walk.rec.finish().map(|f| f.tick));
    /// assert_eq!(ticks, (100..110).collect::<Vec<_>>());
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn owned(sizes: &'b [u16]) -> Self {
        Self::new(OwnedBuffers::new(), sizes)
    }
}

impl<'b, S: Storage> Reconstructor<'b, S> {
    /// A reconstructor using `buffers` (borrowed [`Buffers`] or owned
    /// `OwnedBuffers`) and the static item size table `sizes` (see
    /// [`super::DemoHeader::item_sizes`]).
    #[must_use]
    pub const fn new(buffers: S, sizes: &'b [u16]) -> Self {
        Self {
            storage: buffers,
            len: None,
            sizes,
            open: None,
        }
    }

    /// Gives the buffers back.
    #[must_use]
    pub fn into_storage(self) -> S {
        self.storage
    }

    /// Feeds one chunk: snapshots and deltas update the snapshot in effect;
    /// tick markers, messages and unknown chunks are ignored.
    ///
    /// # Errors
    /// A payload that does not decode, a snapshot or delta that is invalid
    /// or does not apply, a delta before the first snapshot; offsets are
    /// relative to the chunk's payload (see [`decode_payload`]).
    pub fn feed(&mut self, chunk: &Chunk<'_>) -> Result<()> {
        let Chunk::Data { kind, payload } = *chunk else {
            return Ok(());
        };
        let b = self.storage.buffers();
        let len = match kind {
            ChunkKind::Snapshot => {
                let ints = decode_payload(payload, b.scratch, b.next)?;
                SnapshotView::from_ints(ints).map_err(in_decoded)?;
                ints.len()
            }
            ChunkKind::Delta => {
                let Some(len) = self.len else {
                    return Err(Error::corrupt("delta before the first snapshot", 0));
                };
                // Validated when it became the snapshot in effect.
                let current = b.current.get(..len).unwrap_or_default();
                let base = SnapshotView::from_valid_ints(current).map_err(in_decoded)?;
                let ints = decode_payload(payload, b.scratch, b.payload)?;
                let delta = DeltaView::from_ints(ints, self.sizes).map_err(in_decoded)?;
                apply(&base, &delta, b.next)
                    .map_err(in_decoded)?
                    .as_ints()
                    .len()
            }
            ChunkKind::Message | ChunkKind::Unknown => return Ok(()),
        };
        self.storage.swap();
        self.len = Some(len);
        Ok(())
    }

    /// Feeds the next chunk of the stream, tick markers included: a tick
    /// marker ends the tick before it, whose frame is then returned (once
    /// a full snapshot was seen), borrowing the buffers until the next
    /// call.
    ///
    /// # Errors
    /// As [`Reconstructor::feed`].
    pub fn push(&mut self, chunk: &Chunk<'_>) -> Result<Option<Frame<'_>>> {
        let tick = self.push_tick(chunk)?;
        Ok(tick.and_then(|t| self.frame(t)))
    }

    /// [`Reconstructor::push`] without borrowing: the tick it ends.
    fn push_tick(&mut self, chunk: &Chunk<'_>) -> Result<Option<(i32, bool)>> {
        match *chunk {
            Chunk::Tick { tick, keyframe } => Ok(self.open.replace((tick, keyframe))),
            Chunk::Data { .. } => self.feed(chunk).map(|()| None),
        }
    }

    /// The end of the stream: the frame of the last tick, if any.
    pub fn finish(&mut self) -> Option<Frame<'_>> {
        let tick = self.open.take()?;
        self.frame(tick)
    }

    /// The frame of `tick` with the snapshot in effect.
    fn frame(&self, (tick, keyframe): (i32, bool)) -> Option<Frame<'_>> {
        Some(Frame {
            tick,
            keyframe,
            snapshot: self.snapshot()?,
        })
    }

    /// Decodes a payload (say, a message) into the payload buffer.
    ///
    /// # Errors
    /// As [`decode_payload`].
    pub fn decode(&mut self, payload: &[u8]) -> Result<&[I32]> {
        let b = self.storage.buffers();
        decode_payload(payload, b.scratch, b.payload)
    }

    /// The snapshot in effect, or `None` before the first full snapshot.
    #[must_use]
    pub fn snapshot(&self) -> Option<SnapshotView<'_>> {
        // Validated when it became the snapshot in effect (a full snapshot
        // by `SnapshotView::from_ints`, a delta's result by `apply`).
        let ints = self.storage.current().get(..self.len?)?;
        SnapshotView::from_valid_ints(ints).ok()
    }
}

/// The snapshot in effect at one tick; see [`Frames`].
#[derive(Clone, Copy, Debug)]
pub struct Frame<'s> {
    /// The tick.
    pub tick: i32,
    /// Whether the tick marker flagged a keyframe.
    pub keyframe: bool,
    /// The full snapshot at that tick.
    pub snapshot: SnapshotView<'s>,
}

/// Yields the full snapshot at every tick of a demo (after the first full
/// snapshot), with keyframes and deltas applied in two fixed buffers: the
/// [`Reconstructor`] stage over [`DemoView::chunks`].
///
/// A lending iterator: [`Frames::next`] returns a frame borrowing the
/// buffers, valid until the next call. Messages are skipped. Fused after
/// the first error.
#[derive(Debug)]
pub struct Frames<'a, 'b> {
    chunks: DemoChunkIter<'a>,
    rec: Reconstructor<'b>,
    stopped: bool,
}

impl<'a, 'b> Frames<'a, 'b> {
    /// Frames of `demo`, using `buffers` and the demo's item size table.
    #[must_use]
    pub fn new(demo: &DemoView<'a>, buffers: Buffers<'b>) -> Self {
        Self {
            chunks: demo.chunks(),
            rec: Reconstructor::new(buffers, demo.header().item_sizes()),
            stopped: false,
        }
    }

    /// The next tick's frame, `None` at the end, or the error that stopped
    /// decoding (with its file offset: a chunk's, or a position in a
    /// chunk's payload). Not an `Iterator`: the frame borrows the buffers.
    #[allow(
        clippy::should_implement_trait,
        reason = "records borrow the buffer: a lending `next`, which `Iterator` cannot express"
    )]
    pub fn next(&mut self) -> Option<Result<Frame<'_>>> {
        if self.stopped {
            return None;
        }
        loop {
            let chunk = match self.chunks.next() {
                Some(Ok(chunk)) => chunk,
                Some(Err(e)) => return Some(Err(self.stop(e))),
                None => {
                    self.stopped = true;
                    return self.rec.finish().map(Ok);
                }
            };
            match self.rec.push_tick(&chunk) {
                Ok(None) => {}
                // Before the first full snapshot, ticks have no frame.
                Ok(Some(tick)) if self.rec.len.is_some() => return self.rec.frame(tick).map(Ok),
                Ok(Some(_)) => {}
                Err(e) => {
                    // Payload offsets, from the payload's file offset.
                    let payload = match chunk {
                        Chunk::Data { payload, .. } => payload.len(),
                        Chunk::Tick { .. } => 0,
                    };
                    let at = self.chunks.offset().saturating_sub(payload);
                    return Some(Err(self.stop(e.shifted(at))));
                }
            }
        }
    }

    #[cold]
    fn stop(&mut self, e: Error) -> Error {
        self.stopped = true;
        e
    }

    /// How the chunk stream ended (see [`SliceIter::end`](crate::stream::SliceIter::end)).
    #[must_use]
    pub fn end(&self) -> End {
        self.chunks.end()
    }
}
