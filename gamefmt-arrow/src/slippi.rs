//! Slippi replays: the `games`, `frames` and `items` tables (and the stats
//! tables of `slippi_stats`, from `SlippiStats` fed the same events), from one walk
//! of the events through [`gamefmt::slippi::Reader`] and
//! [`FrameGrouper`]. A frame's events are kept (copied) until it closes, so
//! its rows know whether it was a rollback re-send; its `frames` and
//! `items` rows are then staged (their events' bytes copied once more),
//! and split into columns a column at a time, [`CHUNK_ROWS`] rows at a
//! time.

use std::io::Read;
use std::ops::Range;

use arrow_schema::ArrowError;
use arrow_schema::SchemaRef;

use arrow_array::RecordBatch;
use gamefmt::slippi::stats::SlippiStats;
use gamefmt::slippi::{
    ClosedFrame, Event, FRAME_PLAYERS, FinalPosts, FrameBookend, FrameGrouper, FrameStart, GameEnd,
    GameStart, Item, ItemUpdate, Metadata, PORTS, PostFrame, PreFrame, Reader, StartingCharacters,
    character_name, stage_name, trim_nul, winners,
};

use crate::columns::{
    BinaryColumn, Bool, Extend, FileColumn, Float32Column, Int8Column, Int32Column, Int64Column,
    IntList, Rows, StringColumn, UInt8Column, UInt16Column, UInt32Column, table,
};
use crate::slippi_stats::{ActionCounts, Combos, Conversions, Moves, Overall, StatsTables, Stocks};
use crate::source::{READ_BUFFER, Steps};
use crate::{Error, Table};

table! {
    /// `format=slippi/table=games`: one row per replay.
    Games {
        file: FileColumn = "the input's path as given to the exporter (null from `table_reader`)",
        version: StringColumn = "the recorder's spec version, e.g. `3.16.0`",
        raw_len: UInt32Column = "declared length of the raw event array (0: never patched)",
        start_at: StringColumn = "metadata `startAt` (ISO 8601)",
        played_on: StringColumn = "metadata `playedOn` (`dolphin`, `nintendont`, `network`)",
        console_nick: StringColumn = "metadata console nickname",
        stage: UInt16Column = "stage id",
        stage_name: StringColumn = "stage name (`gamefmt::slippi::stage_name`)",
        is_teams: Bool = "teams game",
        is_pal: Bool = "PAL (1.5.0)",
        timer_seconds: UInt32Column = "timer length in seconds",
        game_mode: UInt8Column = "0 time, 1 stock, 2 coin, 3 bonus",
        random_seed: UInt32Column = "random seed before the game",
        match_id: StringColumn = "online match id (3.14.0)",
        game_number: UInt32Column = "game number within the session (3.14.0)",
        tiebreaker_number: UInt32Column = "tiebreaker number (3.14.0)",
        p1_type: UInt8Column = "port 1 player type: 0 human, 1 CPU, 2 demo (null: empty port); likewise `p2_`…`p4_` below",
        p1_character: UInt8Column = "port 1 external character id (with the pre-1.6.0 Zelda/Sheik fix)",
        p1_character_name: StringColumn = "port 1 character name",
        p1_costume: UInt8Column = "port 1 costume",
        p1_team: UInt8Column = "port 1 team id: 0 red, 1 blue, 2 green (teams games)",
        p1_name_tag: BinaryColumn = "port 1 in-game name tag, Shift-JIS bytes",
        p1_display_name: StringColumn = "port 1 Slippi display name (metadata netplay name, else the Game Start name when it is ASCII)",
        p1_connect_code: StringColumn = "port 1 connect code, e.g. `ABCD#123`",
        p1_placement: Int8Column = "port 1 placement from Game End, 0 = first (3.13.0)",
        p2_type: UInt8Column = "port 2",
        p2_character: UInt8Column = "port 2",
        p2_character_name: StringColumn = "port 2",
        p2_costume: UInt8Column = "port 2",
        p2_team: UInt8Column = "port 2",
        p2_name_tag: BinaryColumn = "port 2",
        p2_display_name: StringColumn = "port 2",
        p2_connect_code: StringColumn = "port 2",
        p2_placement: Int8Column = "port 2",
        p3_type: UInt8Column = "port 3",
        p3_character: UInt8Column = "port 3",
        p3_character_name: StringColumn = "port 3",
        p3_costume: UInt8Column = "port 3",
        p3_team: UInt8Column = "port 3",
        p3_name_tag: BinaryColumn = "port 3",
        p3_display_name: StringColumn = "port 3",
        p3_connect_code: StringColumn = "port 3",
        p3_placement: Int8Column = "port 3",
        p4_type: UInt8Column = "port 4",
        p4_character: UInt8Column = "port 4",
        p4_character_name: StringColumn = "port 4",
        p4_costume: UInt8Column = "port 4",
        p4_team: UInt8Column = "port 4",
        p4_name_tag: BinaryColumn = "port 4",
        p4_display_name: StringColumn = "port 4",
        p4_connect_code: StringColumn = "port 4",
        p4_placement: Int8Column = "port 4",
        winner_ports: IntList = "winning ports (1–4), by slippi-js's `getWinners` rules (`gamefmt::slippi::winners`)",
        end_method: UInt8Column = "Game End method (1 time, 2 game, 7 no contest; 0/3 before 2.0.0)",
        lras_initiator: UInt8Column = "port (1–4) of the player who LRAS'd, null none (2.0.0)",
        first_frame: Int32Column = "first frame number (−123 normally)",
        last_frame: Int32Column = "last frame number",
        meta_last_frame: Int64Column = "metadata `lastFrame`",
        frames: UInt32Column = "frames in the replay (rollback re-sends not counted)",
        end: StringColumn = "how the stream ended: `complete`, `truncated`, ... (`gamefmt::stream::End`)",
    }
}

table! {
    /// `format=slippi/table=frames`: one row per frame, port and follower.
    Frames {
        file: FileColumn = "the input's path (as in `games`)",
        frame: Int32Column = "frame number (the game starts at −123)",
        rollback: Bool = "a rollback re-send of a frame already seen",
        port: UInt8Column = "port, 1–4 (5 and 6 occur in multi-man modes)",
        follower: Bool = "the follower (Nana)",
        start_random_seed: UInt32Column = "Frame Start random seed (2.2.0)",
        scene_frame_counter: UInt32Column = "Frame Start scene frame counter (3.10.0)",
        latest_finalized_frame: Int32Column = "Frame Bookend latest finalized frame (3.7.0)",
        pre_random_seed: UInt32Column = "Pre-Frame Update: random seed",
        pre_action_state: UInt16Column = "Pre-Frame: action state id",
        pre_position_x: Float32Column = "Pre-Frame: x",
        pre_position_y: Float32Column = "Pre-Frame: y",
        pre_facing_direction: Float32Column = "Pre-Frame: facing, −1 left, +1 right",
        pre_joystick_x: Float32Column = "Pre-Frame: processed joystick x",
        pre_joystick_y: Float32Column = "Pre-Frame: processed joystick y",
        pre_cstick_x: Float32Column = "Pre-Frame: processed c-stick x",
        pre_cstick_y: Float32Column = "Pre-Frame: processed c-stick y",
        pre_trigger: Float32Column = "Pre-Frame: processed analog trigger",
        pre_buttons: UInt32Column = "Pre-Frame: processed buttons",
        pre_physical_buttons: UInt16Column = "Pre-Frame: physical buttons",
        pre_physical_l: Float32Column = "Pre-Frame: physical L",
        pre_physical_r: Float32Column = "Pre-Frame: physical R",
        pre_raw_joystick_x: Int8Column = "Pre-Frame: raw joystick x (1.2.0)",
        pre_percent: Float32Column = "Pre-Frame: damage percent (1.4.0)",
        pre_raw_joystick_y: Int8Column = "Pre-Frame: raw joystick y (3.15.0)",
        pre_raw_cstick_x: Int8Column = "Pre-Frame: raw c-stick x (3.17.0)",
        pre_raw_cstick_y: Int8Column = "Pre-Frame: raw c-stick y (3.17.0)",
        post_internal_character: UInt8Column = "Post-Frame Update: internal character id (18 = Marth; the games table's `p1_character` is the external id, 9 = Marth)",
        post_action_state: UInt16Column = "Post-Frame: action state id",
        post_position_x: Float32Column = "Post-Frame: x",
        post_position_y: Float32Column = "Post-Frame: y",
        post_facing_direction: Float32Column = "Post-Frame: facing",
        post_percent: Float32Column = "Post-Frame: damage percent",
        post_shield_size: Float32Column = "Post-Frame: shield size",
        post_last_attack_landed: UInt8Column = "Post-Frame: last attack landed",
        post_combo_count: UInt8Column = "Post-Frame: combo count",
        post_last_hit_by: UInt8Column = "Post-Frame: player that last hit",
        post_stocks_remaining: UInt8Column = "Post-Frame: stocks remaining",
        post_action_state_frame_counter: Float32Column = "Post-Frame: action-state frame counter (0.2.0)",
        post_state_flags_0: UInt8Column = "Post-Frame: state bit flags, byte 1 of 5 (2.0.0)",
        post_state_flags_1: UInt8Column = "Post-Frame: state flags byte 2",
        post_state_flags_2: UInt8Column = "Post-Frame: state flags byte 3",
        post_state_flags_3: UInt8Column = "Post-Frame: state flags byte 4",
        post_state_flags_4: UInt8Column = "Post-Frame: state flags byte 5",
        post_misc_action_state: Float32Column = "Post-Frame: misc action state, hitstun left (2.0.0)",
        post_is_airborne: Bool = "Post-Frame: airborne (2.0.0)",
        post_last_ground_id: UInt16Column = "Post-Frame: last ground id (2.0.0)",
        post_jumps_remaining: UInt8Column = "Post-Frame: jumps remaining (2.0.0)",
        post_l_cancel_status: UInt8Column = "Post-Frame: L-cancel, 0 none, 1 ok, 2 missed (2.0.0)",
        post_hurtbox_state: UInt8Column = "Post-Frame: hurtbox state (2.1.0)",
        post_self_induced_air_x_speed: Float32Column = "Post-Frame: self-induced air x speed (3.5.0)",
        post_self_induced_y_speed: Float32Column = "Post-Frame: self-induced y speed (3.5.0)",
        post_attack_based_x_speed: Float32Column = "Post-Frame: attack-based x speed (3.5.0)",
        post_attack_based_y_speed: Float32Column = "Post-Frame: attack-based y speed (3.5.0)",
        post_self_induced_ground_x_speed: Float32Column = "Post-Frame: self-induced ground x speed (3.5.0)",
        post_hitlag_remaining: Float32Column = "Post-Frame: hitlag frames left (3.8.0)",
        post_animation_index: UInt32Column = "Post-Frame: animation index (3.11.0)",
        post_instance_hit_by: UInt16Column = "Post-Frame: instance id of the last hitter (3.16.0)",
        post_instance_id: UInt16Column = "Post-Frame: own instance id (3.16.0)",
    }
}

table! {
    /// `format=slippi/table=items`: one row per Item Update (3.0.0).
    Items {
        file: FileColumn = "the input's path (as in `games`)",
        frame: Int32Column = "frame number",
        rollback: Bool = "a rollback re-send",
        type_id: UInt16Column = "item type id",
        state: UInt8Column = "item state",
        facing_direction: Float32Column = "facing",
        velocity_x: Float32Column = "x velocity",
        velocity_y: Float32Column = "y velocity",
        position_x: Float32Column = "x",
        position_y: Float32Column = "y",
        damage_taken: UInt16Column = "damage taken",
        expiration_timer: Float32Column = "expiration timer",
        spawn_id: UInt32Column = "spawn id",
        missile_type: UInt8Column = "misc byte 1, missile type (3.2.0)",
        turnip_face: UInt8Column = "misc byte 2, turnip face (3.2.0)",
        charge_shot_launched: UInt8Column = "misc byte 3 (3.2.0)",
        charge_power: UInt8Column = "misc byte 4 (3.2.0)",
        owner: UInt8Column = "owner's port (1–4), null none (3.6.0)",
        instance_id: UInt16Column = "instance id (3.16.0)",
    }
}

/// An event's bytes, kept until its frame closes (the buffer reused).
#[derive(Default)]
struct Kept {
    bytes: Vec<u8>,
    set: bool,
}

impl Kept {
    fn keep(&mut self, bytes: &[u8]) {
        self.bytes.clear();
        self.bytes.extend_from_slice(bytes);
        self.set = true;
    }

    fn get(&self) -> Option<&[u8]> {
        self.set.then_some(self.bytes.as_slice())
    }
}

/// The events of the open frame.
#[derive(Default)]
struct OpenFrame {
    start: Kept,
    bookend: Kept,
    /// Pre- and Post-Frame Update per player index and follower.
    characters: [[(Kept, Kept); 2]; FRAME_PLAYERS],
    items: Vec<Kept>,
    item_count: usize,
}

impl OpenFrame {
    fn clear(&mut self) {
        self.start.set = false;
        self.bookend.set = false;
        for slot in self.characters.iter_mut().flatten() {
            slot.0.set = false;
            slot.1.set = false;
        }
        self.item_count = 0;
    }

    fn keep(&mut self, event: &Event<'_>) {
        match event {
            Event::FrameStart(e) => self.start.keep(e.bytes()),
            Event::FrameBookend(e) => self.bookend.keep(e.bytes()),
            Event::PreFrame(e) => {
                if let Some(slot) = self.slot(e.player_index(), e.is_follower()) {
                    slot.0.keep(e.bytes());
                }
            }
            Event::PostFrame(e) => {
                if let Some(slot) = self.slot(e.player_index(), e.is_follower()) {
                    slot.1.keep(e.bytes());
                }
            }
            Event::ItemUpdate(e) => {
                if self.items.len() <= self.item_count {
                    self.items.push(Kept::default());
                }
                if let Some(kept) = self.items.get_mut(self.item_count) {
                    kept.keep(e.bytes());
                    self.item_count = self.item_count.saturating_add(1);
                }
            }
            _ => {}
        }
    }

    fn slot(&mut self, index: Option<u8>, follower: Option<bool>) -> Option<&mut (Kept, Kept)> {
        let follower = usize::from(follower.unwrap_or(false));
        self.characters
            .get_mut(usize::from(index?))?
            .get_mut(follower)
    }
}

/// Rows waiting for their batch, turned into columns a whole batch at a
/// time (a loop per column, not 60 appends per row): each row's own
/// facts, and its events' bytes, copied into one buffer.
struct Staged<R> {
    rows: Vec<R>,
    bytes: Vec<u8>,
}

impl<R> Staged<R> {
    fn new() -> Self {
        Self {
            rows: Vec::new(),
            bytes: Vec::new(),
        }
    }

    /// Copies an event's bytes; where they lie.
    fn keep(&mut self, bytes: &[u8]) -> Range<usize> {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(bytes);
        start..self.bytes.len()
    }

    /// The bytes kept at `range` (empty for a range not kept).
    fn get(&self, range: Range<usize>) -> &[u8] {
        self.bytes.get(range).unwrap_or_default()
    }

    /// Forgets the rows and their bytes (their room is kept).
    fn clear(&mut self) {
        self.rows.clear();
        self.bytes.clear();
    }
}

/// A `frames` row waiting for its batch.
struct FrameRow {
    number: i32,
    rollback: bool,
    port: u8,
    follower: bool,
    start_random_seed: Option<u32>,
    scene_frame_counter: Option<u32>,
    latest_finalized_frame: Option<i32>,
    /// The Pre- and Post-Frame Update's bytes in [`Staged::bytes`].
    pre: Option<Range<usize>>,
    post: Option<Range<usize>>,
}

/// An `items` row waiting for its batch: its Item Update's bytes in
/// [`Staged::bytes`].
struct ItemRow {
    number: i32,
    rollback: bool,
    item: Range<usize>,
}

fn parse<'a, T>(bytes: Option<&'a [u8]>, pick: fn(Event<'a>) -> Option<T>) -> Option<T> {
    pick(Event::parse(bytes?))
}

fn pre(e: Event<'_>) -> Option<PreFrame<'_>> {
    if let Event::PreFrame(p) = e {
        Some(p)
    } else {
        None
    }
}
fn post(e: Event<'_>) -> Option<PostFrame<'_>> {
    if let Event::PostFrame(p) = e {
        Some(p)
    } else {
        None
    }
}
fn start(e: Event<'_>) -> Option<FrameStart<'_>> {
    if let Event::FrameStart(p) = e {
        Some(p)
    } else {
        None
    }
}
fn bookend(e: Event<'_>) -> Option<FrameBookend<'_>> {
    if let Event::FrameBookend(p) = e {
        Some(p)
    } else {
        None
    }
}
fn item(e: Event<'_>) -> Option<ItemUpdate<'_>> {
    if let Event::ItemUpdate(p) = e {
        Some(p)
    } else {
        None
    }
}
fn game_start(e: Event<'_>) -> Option<GameStart<'_>> {
    if let Event::GameStart(p) = e {
        Some(p)
    } else {
        None
    }
}

/// The whole-game facts for the `games` row.
#[derive(Default)]
struct Game {
    raw_len: u32,
    game_start: Option<Vec<u8>>,
    characters: Option<StartingCharacters>,
    game_end: Option<Vec<u8>>,
    final_posts: FinalPosts,
    metadata: Option<Vec<u8>>,
    first_frame: Option<i32>,
    last_frame: Option<i32>,
    frames: u32,
}

/// The Slippi tables of one replay, streamed.
pub struct Slippi {
    reader: Reader<Box<dyn Read + Send>>,
    walk: Walk,
    done: bool,
}

/// Everything but the reader, so that an event it lends can be handled
/// while it is borrowed.
struct Walk {
    file: Option<String>,
    grouper: FrameGrouper,
    open: OpenFrame,
    game: Game,
    games: Option<Games>,
    frames: Option<(Frames, Staged<FrameRow>)>,
    items: Option<(Items, Staged<ItemRow>)>,
    /// The stats, when a stats table is wanted.
    stats: Option<Box<SlippiStats>>,
    stats_tables: StatsTables,
}

impl Slippi {
    /// Reads `input` (a whole `.slp` stream) for the `tables` wanted.
    pub fn new(
        input: Box<dyn Read + Send>,
        file: Option<String>,
        tables: &[Table],
        batch_rows: usize,
    ) -> Self {
        let walk = Walk {
            file,
            grouper: FrameGrouper::new(),
            open: OpenFrame::default(),
            game: Game::default(),
            games: tables
                .contains(&Table::SlippiGames)
                .then(|| Games::with_capacity(1)),
            frames: tables
                .contains(&Table::SlippiFrames)
                .then(|| (Frames::with_capacity(batch_rows), Staged::new())),
            items: tables
                .contains(&Table::SlippiItems)
                .then(|| (Items::with_capacity(batch_rows), Staged::new())),
            stats: None,
            stats_tables: StatsTables {
                stocks: tables
                    .contains(&Table::SlippiStocks)
                    .then(|| Stocks::with_capacity(64)),
                conversions: tables
                    .contains(&Table::SlippiConversions)
                    .then(|| Conversions::with_capacity(64)),
                combos: tables
                    .contains(&Table::SlippiCombos)
                    .then(|| Combos::with_capacity(64)),
                moves: tables
                    .contains(&Table::SlippiMoves)
                    .then(|| Moves::with_capacity(256)),
                action_counts: tables
                    .contains(&Table::SlippiActionCounts)
                    .then(|| ActionCounts::with_capacity(2)),
                overall: tables
                    .contains(&Table::SlippiOverall)
                    .then(|| Overall::with_capacity(4)),
            },
        };
        let mut walk = walk;
        if walk.stats_tables.any() {
            walk.stats = Some(Box::new(SlippiStats::new()));
        }
        Self {
            reader: Reader::with_capacity(input, READ_BUFFER),
            walk,
            done: false,
        }
    }
}

impl Walk {
    /// The open frame's rows, now that it closed.
    fn close(&mut self, closed: ClosedFrame) {
        let ClosedFrame {
            number,
            is_rollback,
        } = closed;
        let g = &mut self.game;
        if !is_rollback {
            g.frames = g.frames.saturating_add(1);
        }
        g.first_frame = Some(g.first_frame.map_or(number, |f| f.min(number)));
        g.last_frame = Some(g.last_frame.map_or(number, |f| f.max(number)));
        let open = &self.open;
        let file = self.file.as_deref();
        if let Some((t, staged)) = self.frames.as_mut() {
            let start = parse(open.start.get(), start);
            let bookend = parse(open.bookend.get(), bookend);
            let start_random_seed = start.and_then(|s| s.random_seed());
            let scene_frame_counter = start.and_then(|s| s.scene_frame_counter());
            let latest_finalized_frame = bookend.and_then(|b| b.latest_finalized_frame());
            for (port, pair) in (1u8..).zip(open.characters.iter()) {
                for (follower, (pre_kept, post_kept)) in [false, true].into_iter().zip(pair) {
                    if !pre_kept.set && !post_kept.set {
                        continue;
                    }
                    let pre = parse(pre_kept.get(), pre).map(|p| staged.keep(p.bytes()));
                    let post = parse(post_kept.get(), post).map(|q| staged.keep(q.bytes()));
                    staged.rows.push(FrameRow {
                        number,
                        rollback: is_rollback,
                        port,
                        follower,
                        start_random_seed,
                        scene_frame_counter,
                        latest_finalized_frame,
                        pre,
                        post,
                    });
                }
            }
            if staged.rows.len() >= CHUNK_ROWS {
                split(t, staged, file, frame_columns);
            }
        }
        if let Some((t, staged)) = self.items.as_mut() {
            for kept in open.items.iter().take(open.item_count) {
                if let Some(i) = parse(kept.get(), item) {
                    let item = staged.keep(i.bytes());
                    staged.rows.push(ItemRow {
                        number,
                        rollback: is_rollback,
                        item,
                    });
                }
            }
            if staged.rows.len() >= CHUNK_ROWS {
                split(t, staged, file, item_columns);
            }
        }
        self.open.clear();
    }

    /// Handles one event; whether it closed a frame (adding its rows).
    fn event(&mut self, event: &Event<'_>) -> bool {
        let placed = self.grouper.push(event);
        let closed = placed.closes.is_some() || placed.completes.is_some();
        if let Some(closed) = placed.closes {
            self.close(closed);
        }
        if placed.frame.is_some() {
            self.open.keep(event);
        }
        if let Some(closed) = placed.completes {
            self.close(closed);
        }
        self.game.final_posts.observe(event);
        if let Some(stats) = self.stats.as_mut() {
            stats.push(event);
        }
        StartingCharacters::track(&mut self.game.characters, event);
        match event {
            Event::GameStart(g) if self.game.game_start.is_none() => {
                self.game.game_start = Some(g.bytes().to_vec());
            }
            Event::GameEnd(e) => self.game.game_end = Some(e.bytes().to_vec()),
            _ => {}
        }
        closed
    }

    fn finish(&mut self, end: &str) {
        if let Some(closed) = self.grouper.finish() {
            self.close(closed);
        }
        if let Some(t) = self.games.as_mut() {
            game_row(t, self.file.as_deref(), &self.game, end);
        }
        if let Some(stats) = self.stats.as_mut() {
            stats.finish();
            self.stats_tables.append(stats, self.file.as_deref());
        }
    }
}

impl Steps for Slippi {
    /// Decodes events up to one that closes a frame (so that the rows are
    /// counted once per frame, not once per event), or to the end.
    fn step(&mut self) -> Result<bool, Error> {
        if self.done {
            return Ok(false);
        }
        let walk = &mut self.walk;
        loop {
            let event = match self.reader.next() {
                None => {
                    self.done = true;
                    let end = self.reader.end();
                    walk.finish(end.name());
                    return Ok(false);
                }
                Some(Err(e)) => {
                    self.done = true;
                    return Err(e.into());
                }
                Some(Ok(Item::Event(event))) => event,
                Some(Ok(Item::Header { raw_len })) => {
                    walk.game.raw_len = raw_len;
                    continue;
                }
                Some(Ok(Item::Metadata(m))) => {
                    walk.game.metadata = Some(m.to_vec());
                    continue;
                }
                Some(Ok(_)) => continue,
            };
            if walk.event(&event) {
                return Ok(true);
            }
        }
    }

    fn pending(&self, table: Table) -> usize {
        match table {
            Table::SlippiGames => self.walk.games.as_ref().map_or(0, Games::len),
            Table::SlippiFrames => pending_split(self.walk.frames.as_ref()),
            Table::SlippiItems => pending_split(self.walk.items.as_ref()),
            Table::SlippiStocks => rows(self.walk.stats_tables.stocks.as_ref()),
            Table::SlippiConversions => rows(self.walk.stats_tables.conversions.as_ref()),
            Table::SlippiCombos => rows(self.walk.stats_tables.combos.as_ref()),
            Table::SlippiMoves => rows(self.walk.stats_tables.moves.as_ref()),
            Table::SlippiActionCounts => rows(self.walk.stats_tables.action_counts.as_ref()),
            Table::SlippiOverall => rows(self.walk.stats_tables.overall.as_ref()),
            _ => 0,
        }
    }

    fn take(&mut self, table: Table) -> Result<Option<RecordBatch>, Error> {
        let schema = table.schema();
        Ok(match table {
            Table::SlippiGames => self
                .walk
                .games
                .as_mut()
                .map(|t| t.finish(schema))
                .transpose()?,
            Table::SlippiFrames => {
                let file = self.walk.file.as_deref();
                take_split(self.walk.frames.as_mut(), file, schema, frame_columns)?
            }
            Table::SlippiItems => {
                let file = self.walk.file.as_deref();
                take_split(self.walk.items.as_mut(), file, schema, item_columns)?
            }
            Table::SlippiStocks => batch(self.walk.stats_tables.stocks.as_mut(), schema)?,
            Table::SlippiConversions => batch(self.walk.stats_tables.conversions.as_mut(), schema)?,
            Table::SlippiCombos => batch(self.walk.stats_tables.combos.as_mut(), schema)?,
            Table::SlippiMoves => batch(self.walk.stats_tables.moves.as_mut(), schema)?,
            Table::SlippiActionCounts => {
                batch(self.walk.stats_tables.action_counts.as_mut(), schema)?
            }
            Table::SlippiOverall => batch(self.walk.stats_tables.overall.as_mut(), schema)?,
            _ => None,
        })
    }
}

/// The rows of a table built a row at a time (none when not wanted).
fn rows<T: Rows>(table: Option<&T>) -> usize {
    table.map_or(0, Rows::rows)
}

/// Those rows as one batch (none when the table is not wanted).
fn batch<T: Rows>(
    table: Option<&mut T>,
    schema: SchemaRef,
) -> Result<Option<RecordBatch>, ArrowError> {
    table.map(|t| t.batch(schema)).transpose()
}

/// The rows of a table whose rows are staged before they are split
/// into its columns: those in the columns and those staged.
fn pending_split<T: Rows, R>(table: Option<&(T, Staged<R>)>) -> usize {
    table.map_or(0, |(t, s)| t.rows().saturating_add(s.rows.len()))
}

/// Those rows as one batch: the staged ones are split (by `columns`)
/// into the columns first.
fn take_split<T: Rows, R>(
    table: Option<&mut (T, Staged<R>)>,
    file: Option<&str>,
    schema: SchemaRef,
    columns: fn(&mut T, &Staged<R>, Option<&str>),
) -> Result<Option<RecordBatch>, ArrowError> {
    table
        .map(|(t, s)| {
            split(t, s, file, columns);
            t.batch(schema)
        })
        .transpose()
}

/// Appends the staged rows to the columns (by `columns`, when there are
/// any) and empties the staging.
fn split<T, R>(
    t: &mut T,
    staged: &mut Staged<R>,
    file: Option<&str>,
    columns: fn(&mut T, &Staged<R>, Option<&str>),
) {
    if !staged.rows.is_empty() {
        columns(t, staged, file);
        staged.clear();
    }
}

/// One kind of event of a batch's rows, to be split into columns.
struct Events<E> {
    /// Each row's (`None`: the row has none).
    each: Vec<Option<E>>,
    /// Every row's, when every row has one, and the shortest of them.
    /// (A copy of `each` without its `None`s: read through `each` with a
    /// check per row instead, `--to arrow` of 46 corpus replays took
    /// 896.5 M instructions against 872.4 M.)
    all: Option<(Vec<E>, E)>,
    /// The longest (`None`: no row has one).
    longest: Option<E>,
}

/// A signed player index (−1: none) as its 1-based port, as every
/// surface numbers Slippi ports (`gamefmt::vocabulary`).
fn index_port(index: Option<i8>) -> Option<u8> {
    index
        .and_then(|i| u8::try_from(i).ok())
        .map(|i| i.saturating_add(1))
}

impl<E: Copy> Events<E> {
    /// Appends field `get` of each row's event, a signed player index
    /// (−1: none), as its 1-based port (null: none, or not in the
    /// replay's version).
    fn ports(&self, column: &mut UInt8Column, get: impl Fn(E) -> Option<i8>) {
        column.extend_options(self.each.iter().map(|&e| index_port(e.and_then(&get))));
    }

    fn new(each: Vec<Option<E>>, len: impl Fn(E) -> usize) -> Self {
        let longest = each.iter().flatten().copied().max_by_key(|&e| len(e));
        let all = each
            .iter()
            .copied()
            .collect::<Option<Vec<E>>>()
            .and_then(|all| {
                let shortest = all.iter().copied().min_by_key(|&e| len(e))?;
                Some((all, shortest))
            });
        Self { each, all, longest }
    }

    /// Appends field `get` of each row's event to `column`. A field
    /// exists when its event is long enough for it: when the longest
    /// event lacks it, every row is null; when every row has the event
    /// and the shortest one has the field, every row has it, and the
    /// values are written without a validity check per row.
    fn column<V: Default, C: Extend<V>>(&self, column: &mut C, get: impl Fn(E) -> Option<V>) {
        if self.longest.is_none_or(|e| get(e).is_none()) {
            column.extend_nulls(self.each.len());
            return;
        }
        match &self.all {
            Some((all, shortest)) if get(*shortest).is_some() => {
                column.extend_values(all.iter().map(|&e| get(e).unwrap_or_default()));
            }
            _ => column.extend_options(self.each.iter().map(|&e| e.and_then(&get))),
        }
    }
}

/// Rows staged at most before they are split into columns: the staging
/// and a pass per column over it stay in the processor's cache, whatever
/// the batch size.
const CHUNK_ROWS: usize = 512;

/// Appends the staged `frames` rows to the columns, a column at a time.
fn frame_columns(t: &mut Frames, staged: &Staged<FrameRow>, file: Option<&str>) {
    let rows = &staged.rows;
    let pre = Events::new(
        rows.iter()
            .map(|r| r.pre.clone().map(|at| PreFrame::new(staged.get(at))))
            .collect(),
        |e| e.bytes().len(),
    );
    let post = Events::new(
        rows.iter()
            .map(|r| r.post.clone().map(|at| PostFrame::new(staged.get(at))))
            .collect(),
        |e| e.bytes().len(),
    );
    t.file.extend(file, rows.len());
    t.frame.extend_values(rows.iter().map(|r| r.number));
    t.rollback.extend_values(rows.iter().map(|r| r.rollback));
    t.port.extend_values(rows.iter().map(|r| r.port));
    t.follower.extend_values(rows.iter().map(|r| r.follower));
    t.start_random_seed
        .extend_options(rows.iter().map(|r| r.start_random_seed));
    t.scene_frame_counter
        .extend_options(rows.iter().map(|r| r.scene_frame_counter));
    t.latest_finalized_frame
        .extend_options(rows.iter().map(|r| r.latest_finalized_frame));
    pre.column(&mut t.pre_random_seed, |e| e.random_seed());
    pre.column(&mut t.pre_action_state, |e| e.action_state());
    pre.column(&mut t.pre_position_x, |e| e.position_x());
    pre.column(&mut t.pre_position_y, |e| e.position_y());
    pre.column(&mut t.pre_facing_direction, |e| e.facing_direction());
    pre.column(&mut t.pre_joystick_x, |e| e.joystick_x());
    pre.column(&mut t.pre_joystick_y, |e| e.joystick_y());
    pre.column(&mut t.pre_cstick_x, |e| e.cstick_x());
    pre.column(&mut t.pre_cstick_y, |e| e.cstick_y());
    pre.column(&mut t.pre_trigger, |e| e.trigger());
    pre.column(&mut t.pre_buttons, |e| e.buttons());
    pre.column(&mut t.pre_physical_buttons, |e| e.physical_buttons());
    pre.column(&mut t.pre_physical_l, |e| e.physical_l());
    pre.column(&mut t.pre_physical_r, |e| e.physical_r());
    pre.column(&mut t.pre_raw_joystick_x, |e| e.raw_joystick_x());
    pre.column(&mut t.pre_percent, |e| e.percent());
    pre.column(&mut t.pre_raw_joystick_y, |e| e.raw_joystick_y());
    pre.column(&mut t.pre_raw_cstick_x, |e| e.raw_cstick_x());
    pre.column(&mut t.pre_raw_cstick_y, |e| e.raw_cstick_y());
    post.column(&mut t.post_internal_character, |e| e.internal_character());
    post.column(&mut t.post_action_state, |e| e.action_state());
    post.column(&mut t.post_position_x, |e| e.position_x());
    post.column(&mut t.post_position_y, |e| e.position_y());
    post.column(&mut t.post_facing_direction, |e| e.facing_direction());
    post.column(&mut t.post_percent, |e| e.percent());
    post.column(&mut t.post_shield_size, |e| e.shield_size());
    post.column(&mut t.post_last_attack_landed, |e| e.last_attack_landed());
    post.column(&mut t.post_combo_count, |e| e.combo_count());
    post.column(&mut t.post_last_hit_by, |e| e.last_hit_by());
    post.column(&mut t.post_stocks_remaining, |e| e.stocks_remaining());
    post.column(&mut t.post_action_state_frame_counter, |e| {
        e.action_state_frame_counter()
    });
    post.column(&mut t.post_misc_action_state, |e| e.misc_action_state());
    post.column(&mut t.post_is_airborne, |e| e.is_airborne());
    post.column(&mut t.post_last_ground_id, |e| e.last_ground_id());
    post.column(&mut t.post_jumps_remaining, |e| e.jumps_remaining());
    post.column(&mut t.post_l_cancel_status, |e| e.l_cancel_status());
    post.column(&mut t.post_hurtbox_state, |e| e.hurtbox_state());
    post.column(&mut t.post_self_induced_air_x_speed, |e| {
        e.self_induced_air_x_speed()
    });
    post.column(&mut t.post_self_induced_y_speed, |e| {
        e.self_induced_y_speed()
    });
    post.column(&mut t.post_attack_based_x_speed, |e| {
        e.attack_based_x_speed()
    });
    post.column(&mut t.post_attack_based_y_speed, |e| {
        e.attack_based_y_speed()
    });
    post.column(&mut t.post_self_induced_ground_x_speed, |e| {
        e.self_induced_ground_x_speed()
    });
    post.column(&mut t.post_hitlag_remaining, |e| e.hitlag_remaining());
    post.column(&mut t.post_animation_index, |e| e.animation_index());
    post.column(&mut t.post_instance_hit_by, |e| e.instance_hit_by());
    post.column(&mut t.post_instance_id, |e| e.instance_id());
    for (i, column) in [
        &mut t.post_state_flags_0,
        &mut t.post_state_flags_1,
        &mut t.post_state_flags_2,
        &mut t.post_state_flags_3,
        &mut t.post_state_flags_4,
    ]
    .into_iter()
    .enumerate()
    {
        post.column(column, |e| e.state_flags()?.get(i).copied());
    }
}

/// Appends the staged `items` rows to the columns, as [`frame_columns`].
fn item_columns(t: &mut Items, staged: &Staged<ItemRow>, file: Option<&str>) {
    let rows = &staged.rows;
    let items = Events::new(
        rows.iter()
            .map(|r| Some(ItemUpdate::new(staged.get(r.item.clone()))))
            .collect(),
        |i| i.bytes().len(),
    );
    t.file.extend(file, rows.len());
    t.frame.extend_values(rows.iter().map(|r| r.number));
    t.rollback.extend_values(rows.iter().map(|r| r.rollback));
    items.column(&mut t.type_id, |i| i.type_id());
    items.column(&mut t.state, |i| i.state());
    items.column(&mut t.facing_direction, |i| i.facing_direction());
    items.column(&mut t.velocity_x, |i| i.velocity_x());
    items.column(&mut t.velocity_y, |i| i.velocity_y());
    items.column(&mut t.position_x, |i| i.position_x());
    items.column(&mut t.position_y, |i| i.position_y());
    items.column(&mut t.damage_taken, |i| i.damage_taken());
    items.column(&mut t.expiration_timer, |i| i.expiration_timer());
    items.column(&mut t.spawn_id, |i| i.spawn_id());
    items.column(&mut t.missile_type, |i| i.missile_type());
    items.column(&mut t.turnip_face, |i| i.turnip_face());
    items.column(&mut t.charge_shot_launched, |i| i.charge_shot_launched());
    items.column(&mut t.charge_power, |i| i.charge_power());
    items.ports(&mut t.owner, |i| i.owner());
    items.column(&mut t.instance_id, |i| i.instance_id());
}

/// A connect code's Shift-JIS bytes as text: ASCII, with the full-width
/// `#` (0x81 0x94) as `#`.
fn connect_code(bytes: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(bytes).replace("\u{FFFD}\u{FFFD}", "#");
    let ascii = bytes
        .split(|&b| b == 0x81)
        .all(|part| part.iter().skip(1).all(u8::is_ascii));
    (ascii && !text.is_empty()).then_some(text)
}

/// One port's player columns.
struct Port<'b> {
    kind: &'b mut UInt8Column,
    character: &'b mut UInt8Column,
    character_name: &'b mut StringColumn,
    costume: &'b mut UInt8Column,
    team: &'b mut UInt8Column,
    name_tag: &'b mut BinaryColumn,
    display_name: &'b mut StringColumn,
    connect_code: &'b mut StringColumn,
    placement: &'b mut Int8Column,
}

fn ports(t: &mut Games) -> [Port<'_>; PORTS] {
    [
        Port {
            kind: &mut t.p1_type,
            character: &mut t.p1_character,
            character_name: &mut t.p1_character_name,
            costume: &mut t.p1_costume,
            team: &mut t.p1_team,
            name_tag: &mut t.p1_name_tag,
            display_name: &mut t.p1_display_name,
            connect_code: &mut t.p1_connect_code,
            placement: &mut t.p1_placement,
        },
        Port {
            kind: &mut t.p2_type,
            character: &mut t.p2_character,
            character_name: &mut t.p2_character_name,
            costume: &mut t.p2_costume,
            team: &mut t.p2_team,
            name_tag: &mut t.p2_name_tag,
            display_name: &mut t.p2_display_name,
            connect_code: &mut t.p2_connect_code,
            placement: &mut t.p2_placement,
        },
        Port {
            kind: &mut t.p3_type,
            character: &mut t.p3_character,
            character_name: &mut t.p3_character_name,
            costume: &mut t.p3_costume,
            team: &mut t.p3_team,
            name_tag: &mut t.p3_name_tag,
            display_name: &mut t.p3_display_name,
            connect_code: &mut t.p3_connect_code,
            placement: &mut t.p3_placement,
        },
        Port {
            kind: &mut t.p4_type,
            character: &mut t.p4_character,
            character_name: &mut t.p4_character_name,
            costume: &mut t.p4_costume,
            team: &mut t.p4_team,
            name_tag: &mut t.p4_name_tag,
            display_name: &mut t.p4_display_name,
            connect_code: &mut t.p4_connect_code,
            placement: &mut t.p4_placement,
        },
    ]
}

fn game_row(t: &mut Games, file: Option<&str>, g: &Game, end: &str) {
    let start = parse(g.game_start.as_deref(), game_start);
    let game_end = g.game_end.as_deref().map(GameEnd::new);
    let meta = g.metadata.as_deref().and_then(|m| Metadata::parse(m).ok());
    t.file.append_option(file);
    t.version
        .append_option(start.and_then(|s| s.version()).map(|v| v.to_string()));
    t.raw_len.append_value(g.raw_len);
    t.start_at.append_option(meta.and_then(|m| m.start_at()));
    t.played_on.append_option(meta.and_then(|m| m.played_on()));
    t.console_nick
        .append_option(meta.and_then(|m| m.console_nick()));
    let stage = start.and_then(|s| s.stage());
    t.stage.append_option(stage);
    t.stage_name.append_option(stage.and_then(stage_name));
    t.is_teams.append_option(start.and_then(|s| s.is_teams()));
    t.is_pal.append_option(start.and_then(|s| s.is_pal()));
    t.timer_seconds
        .append_option(start.and_then(|s| s.timer_seconds()));
    t.game_mode.append_option(start.and_then(|s| s.game_mode()));
    t.random_seed
        .append_option(start.and_then(|s| s.random_seed()));
    let match_id = start
        .and_then(|s| s.match_id())
        .map(|m| String::from_utf8_lossy(m).into_owned());
    t.match_id.append_option(match_id.filter(|m| !m.is_empty()));
    t.game_number
        .append_option(start.and_then(|s| s.game_number()));
    t.tiebreaker_number
        .append_option(start.and_then(|s| s.tiebreaker_number()));
    let placements = game_end.and_then(|e| e.placements());
    let meta_players: Vec<_> = meta.map(|m| m.players().collect()).unwrap_or_default();
    for (i, port) in ports(t).into_iter().enumerate() {
        let slot = start.and_then(|s| s.players().find(|(p, _)| *p == i).map(|(_, slot)| slot));
        let character = slot.and_then(|slot| {
            g.characters
                .as_ref()
                .and_then(|c| c.get(i))
                .or(slot.character())
        });
        port.kind.append_option(slot.and_then(|s| s.player_type()));
        port.character.append_option(character);
        port.character_name
            .append_option(character.and_then(character_name));
        port.costume.append_option(slot.and_then(|s| s.costume()));
        let teams = start.and_then(|s| s.is_teams()).unwrap_or(false);
        port.team
            .append_option(slot.and_then(|s| s.team_id()).filter(|_| teams));
        let start = start.filter(|_| slot.is_some());
        port.name_tag
            .append_option(start.and_then(|s| s.name_tag(i)).filter(|n| !n.is_empty()));
        let meta_player = meta_players
            .iter()
            .find(|p| p.index() == u8::try_from(i).ok());
        let display = meta_player
            .and_then(|p| p.netplay_name())
            .map(str::to_owned)
            .or_else(|| {
                let bytes = trim_nul(start.and_then(|s| s.display_name(i))?);
                (bytes.is_ascii() && !bytes.is_empty())
                    .then(|| String::from_utf8_lossy(bytes).into_owned())
            });
        port.display_name.append_option(display);
        let code = meta_player
            .and_then(|p| p.connect_code())
            .map(str::to_owned)
            .or_else(|| connect_code(trim_nul(start.and_then(|s| s.connect_code(i))?)));
        port.connect_code.append_option(code);
        let placement = placements
            .and_then(|p| p.get(i).copied())
            .filter(|_| slot.is_some());
        port.placement.append_option(placement);
    }
    let won = match (start, game_end) {
        (Some(s), Some(e)) => winners(&s, &e, g.final_posts.get()),
        _ => gamefmt::slippi::Winners::new(),
    };
    t.winner_ports.append_value(
        won.iter()
            .map(|w| Some(i32::from(w.player_index).saturating_add(1))),
    );
    t.end_method
        .append_option(game_end.and_then(|e| e.method()));
    t.lras_initiator
        .append_option(game_end.and_then(|e| index_port(e.lras_initiator())));
    t.first_frame.append_option(g.first_frame);
    t.last_frame.append_option(g.last_frame);
    t.meta_last_frame
        .append_option(meta.and_then(|m| m.last_frame()));
    t.frames.append_value(g.frames);
    t.end.append_value(end);
}
