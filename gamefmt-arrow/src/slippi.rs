//! Slippi replays: the `games`, `frames` and `items` tables, from one walk
//! of the events through [`gamefmt::slippi::Reader`] and
//! [`FrameGrouper`]. A frame's events are kept (copied) until it closes, so
//! its rows know whether it was a rollback re-send; nothing else is kept.

use std::io::Read;

use arrow::record_batch::RecordBatch;
use gamefmt::slippi::{
    ClosedFrame, Event, FRAME_PLAYERS, FinalPosts, FrameBookend, FrameGrouper, FrameStart, GameEnd,
    GameStart, Item, ItemUpdate, Metadata, PORTS, PostFrame, PreFrame, Reader, StartingCharacters,
    character_name, stage_name, trim_nul, winners,
};

use crate::columns::{
    BinaryColumn, Bool, FileColumn, Float32Column, Int8Column, Int32Column, Int64Column, IntList,
    StringColumn, UInt8Column, UInt16Column, UInt32Column, table,
};
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
        lras_initiator: Int8Column = "player index that LRAS'd, −1 none (2.0.0)",
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
        post_character: UInt8Column = "Post-Frame Update: internal character id",
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
        owner: Int8Column = "owner player index, −1 none (3.6.0)",
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
    frames: Option<Frames>,
    items: Option<Items>,
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
                .then(|| Frames::with_capacity(batch_rows)),
            items: tables
                .contains(&Table::SlippiItems)
                .then(|| Items::with_capacity(batch_rows)),
        };
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
        let file = self.file.as_deref();
        let open = &self.open;
        if let Some(t) = self.frames.as_mut() {
            let start = parse(open.start.get(), start);
            let bookend = parse(open.bookend.get(), bookend);
            for (index, pair) in (1u8..).zip(open.characters.iter()) {
                for (follower, (pre_kept, post_kept)) in [false, true].into_iter().zip(pair) {
                    if !pre_kept.set && !post_kept.set {
                        continue;
                    }
                    let p = parse(pre_kept.get(), pre);
                    let q = parse(post_kept.get(), post);
                    frame_row(
                        t,
                        file,
                        number,
                        is_rollback,
                        index,
                        follower,
                        start,
                        bookend,
                        p,
                        q,
                    );
                }
            }
        }
        if let Some(t) = self.items.as_mut() {
            for kept in open.items.iter().take(open.item_count) {
                if let Some(i) = parse(kept.get(), item) {
                    item_row(t, file, number, is_rollback, &i);
                }
            }
        }
        self.open.clear();
    }

    fn event(&mut self, event: &Event<'_>) {
        let placed = self.grouper.push(event);
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
        match event {
            Event::GameStart(g) if self.game.game_start.is_none() => {
                self.game.game_start = Some(g.bytes().to_vec());
                self.game.characters = Some(StartingCharacters::new(g));
            }
            Event::PostFrame(p) => {
                if let Some(c) = self.game.characters.as_mut() {
                    c.observe(p);
                }
            }
            Event::GameEnd(e) => self.game.game_end = Some(e.bytes().to_vec()),
            _ => {}
        }
    }

    fn finish(&mut self, end: &str) {
        if let Some(closed) = self.grouper.finish() {
            self.close(closed);
        }
        if let Some(t) = self.games.as_mut() {
            game_row(t, self.file.as_deref(), &self.game, end);
        }
    }
}

impl Steps for Slippi {
    fn step(&mut self) -> Result<bool, Error> {
        if self.done {
            return Ok(false);
        }
        let walk = &mut self.walk;
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
                return Ok(true);
            }
            Some(Ok(Item::Metadata(m))) => {
                walk.game.metadata = Some(m.to_vec());
                return Ok(true);
            }
            Some(Ok(_)) => return Ok(true),
        };
        walk.event(&event);
        Ok(true)
    }

    fn pending(&self, table: Table) -> usize {
        match table {
            Table::SlippiGames => self.walk.games.as_ref().map_or(0, Games::len),
            Table::SlippiFrames => self.walk.frames.as_ref().map_or(0, Frames::len),
            Table::SlippiItems => self.walk.items.as_ref().map_or(0, Items::len),
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
            Table::SlippiFrames => self
                .walk
                .frames
                .as_mut()
                .map(|t| t.finish(schema))
                .transpose()?,
            Table::SlippiItems => self
                .walk
                .items
                .as_mut()
                .map(|t| t.finish(schema))
                .transpose()?,
            _ => None,
        })
    }
}

#[expect(clippy::too_many_arguments, reason = "one frame row's parts")]
fn frame_row(
    t: &mut Frames,
    file: Option<&str>,
    number: i32,
    rollback: bool,
    port: u8,
    follower: bool,
    start: Option<FrameStart<'_>>,
    bookend: Option<FrameBookend<'_>>,
    p: Option<PreFrame<'_>>,
    q: Option<PostFrame<'_>>,
) {
    t.file.append_option(file);
    t.frame.append_value(number);
    t.rollback.append_value(rollback);
    t.port.append_value(port);
    t.follower.append_value(follower);
    t.start_random_seed
        .append_option(start.and_then(|s| s.random_seed()));
    t.scene_frame_counter
        .append_option(start.and_then(|s| s.scene_frame_counter()));
    t.latest_finalized_frame
        .append_option(bookend.and_then(|b| b.latest_finalized_frame()));
    t.pre_random_seed
        .append_option(p.and_then(|p| p.random_seed()));
    t.pre_action_state
        .append_option(p.and_then(|p| p.action_state()));
    t.pre_position_x
        .append_option(p.and_then(|p| p.position_x()));
    t.pre_position_y
        .append_option(p.and_then(|p| p.position_y()));
    t.pre_facing_direction
        .append_option(p.and_then(|p| p.facing_direction()));
    t.pre_joystick_x
        .append_option(p.and_then(|p| p.joystick_x()));
    t.pre_joystick_y
        .append_option(p.and_then(|p| p.joystick_y()));
    t.pre_cstick_x.append_option(p.and_then(|p| p.cstick_x()));
    t.pre_cstick_y.append_option(p.and_then(|p| p.cstick_y()));
    t.pre_trigger.append_option(p.and_then(|p| p.trigger()));
    t.pre_buttons.append_option(p.and_then(|p| p.buttons()));
    t.pre_physical_buttons
        .append_option(p.and_then(|p| p.physical_buttons()));
    t.pre_physical_l
        .append_option(p.and_then(|p| p.physical_l()));
    t.pre_physical_r
        .append_option(p.and_then(|p| p.physical_r()));
    t.pre_raw_joystick_x
        .append_option(p.and_then(|p| p.raw_joystick_x()));
    t.pre_percent.append_option(p.and_then(|p| p.percent()));
    t.pre_raw_joystick_y
        .append_option(p.and_then(|p| p.raw_joystick_y()));
    t.pre_raw_cstick_x
        .append_option(p.and_then(|p| p.raw_cstick_x()));
    t.pre_raw_cstick_y
        .append_option(p.and_then(|p| p.raw_cstick_y()));
    t.post_character
        .append_option(q.and_then(|q| q.internal_character()));
    t.post_action_state
        .append_option(q.and_then(|q| q.action_state()));
    t.post_position_x
        .append_option(q.and_then(|q| q.position_x()));
    t.post_position_y
        .append_option(q.and_then(|q| q.position_y()));
    t.post_facing_direction
        .append_option(q.and_then(|q| q.facing_direction()));
    t.post_percent.append_option(q.and_then(|q| q.percent()));
    t.post_shield_size
        .append_option(q.and_then(|q| q.shield_size()));
    t.post_last_attack_landed
        .append_option(q.and_then(|q| q.last_attack_landed()));
    t.post_combo_count
        .append_option(q.and_then(|q| q.combo_count()));
    t.post_last_hit_by
        .append_option(q.and_then(|q| q.last_hit_by()));
    t.post_stocks_remaining
        .append_option(q.and_then(|q| q.stocks_remaining()));
    t.post_action_state_frame_counter
        .append_option(q.and_then(|q| q.action_state_frame_counter()));
    let flags = q.and_then(|q| q.state_flags());
    t.post_state_flags_0.append_option(flags.map(|f| f[0]));
    t.post_state_flags_1.append_option(flags.map(|f| f[1]));
    t.post_state_flags_2.append_option(flags.map(|f| f[2]));
    t.post_state_flags_3.append_option(flags.map(|f| f[3]));
    t.post_state_flags_4.append_option(flags.map(|f| f[4]));
    t.post_misc_action_state
        .append_option(q.and_then(|q| q.misc_action_state()));
    t.post_is_airborne
        .append_option(q.and_then(|q| q.is_airborne()));
    t.post_last_ground_id
        .append_option(q.and_then(|q| q.last_ground_id()));
    t.post_jumps_remaining
        .append_option(q.and_then(|q| q.jumps_remaining()));
    t.post_l_cancel_status
        .append_option(q.and_then(|q| q.l_cancel_status()));
    t.post_hurtbox_state
        .append_option(q.and_then(|q| q.hurtbox_state()));
    t.post_self_induced_air_x_speed
        .append_option(q.and_then(|q| q.self_induced_air_x_speed()));
    t.post_self_induced_y_speed
        .append_option(q.and_then(|q| q.self_induced_y_speed()));
    t.post_attack_based_x_speed
        .append_option(q.and_then(|q| q.attack_based_x_speed()));
    t.post_attack_based_y_speed
        .append_option(q.and_then(|q| q.attack_based_y_speed()));
    t.post_self_induced_ground_x_speed
        .append_option(q.and_then(|q| q.self_induced_ground_x_speed()));
    t.post_hitlag_remaining
        .append_option(q.and_then(|q| q.hitlag_remaining()));
    t.post_animation_index
        .append_option(q.and_then(|q| q.animation_index()));
    t.post_instance_hit_by
        .append_option(q.and_then(|q| q.instance_hit_by()));
    t.post_instance_id
        .append_option(q.and_then(|q| q.instance_id()));
}

fn item_row(t: &mut Items, file: Option<&str>, number: i32, rollback: bool, i: &ItemUpdate<'_>) {
    t.file.append_option(file);
    t.frame.append_value(number);
    t.rollback.append_value(rollback);
    t.type_id.append_option(i.type_id());
    t.state.append_option(i.state());
    t.facing_direction.append_option(i.facing_direction());
    t.velocity_x.append_option(i.velocity_x());
    t.velocity_y.append_option(i.velocity_y());
    t.position_x.append_option(i.position_x());
    t.position_y.append_option(i.position_y());
    t.damage_taken.append_option(i.damage_taken());
    t.expiration_timer.append_option(i.expiration_timer());
    t.spawn_id.append_option(i.spawn_id());
    t.missile_type.append_option(i.missile_type());
    t.turnip_face.append_option(i.turnip_face());
    t.charge_shot_launched
        .append_option(i.charge_shot_launched());
    t.charge_power.append_option(i.charge_power());
    t.owner.append_option(i.owner());
    t.instance_id.append_option(i.instance_id());
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
        .append_option(game_end.and_then(|e| e.lras_initiator()));
    t.first_frame.append_option(g.first_frame);
    t.last_frame.append_option(g.last_frame);
    t.meta_last_frame
        .append_option(meta.and_then(|m| m.last_frame()));
    t.frames.append_value(g.frames);
    t.end.append_value(end);
}
