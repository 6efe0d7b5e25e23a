//! Every typed accessor of every Slippi event, frame and metadata.

use gamefmt::slippi::{
    Event, Frame, GameEnd, GameStart, GeckoList, MessageSplitter, Metadata, PLAYER_BLOCKS, PORTS,
    PlayerSlot, zelda_sheik_external,
};

use crate::touch;

/// Calls every accessor of `event`.
pub fn touch_event(event: &Event<'_>) {
    touch((event.code(), event.payload(), event.frame()));
    match *event {
        Event::EventPayloads(e) => touch(e.entries().count()),
        Event::GameStart(e) => touch_game_start(&e),
        Event::PreFrame(e) => touch((
            (
                e.frame(),
                e.player_index(),
                e.is_follower(),
                e.random_seed(),
            ),
            (
                e.action_state(),
                e.position_x(),
                e.position_y(),
                e.facing_direction(),
            ),
            (
                e.joystick_x(),
                e.joystick_y(),
                e.cstick_x(),
                e.cstick_y(),
                e.trigger(),
            ),
            (
                e.buttons(),
                e.physical_buttons(),
                e.physical_l(),
                e.physical_r(),
            ),
            (e.raw_joystick_x(), e.percent(), e.raw_joystick_y()),
            (e.raw_cstick_x(), e.raw_cstick_y(), e.bytes()),
        )),
        Event::PostFrame(e) => touch((
            (
                e.frame(),
                e.player_index(),
                e.is_follower(),
                e.internal_character(),
            ),
            (
                e.action_state(),
                e.position_x(),
                e.position_y(),
                e.facing_direction(),
            ),
            (
                e.percent(),
                e.shield_size(),
                e.last_attack_landed(),
                e.combo_count(),
            ),
            (
                e.last_hit_by(),
                e.stocks_remaining(),
                e.action_state_frame_counter(),
            ),
            (e.misc_action_state(), e.is_airborne(), e.last_ground_id()),
            (e.jumps_remaining(), e.l_cancel_status(), e.hurtbox_state()),
            (e.self_induced_air_x_speed(), e.self_induced_y_speed()),
            (e.attack_based_x_speed(), e.attack_based_y_speed()),
            (e.self_induced_ground_x_speed(), e.hitlag_remaining()),
            (e.animation_index(), e.instance_hit_by(), e.instance_id()),
            (
                e.state_flags(),
                e.internal_character().map(zelda_sheik_external),
            ),
        )),
        Event::GameEnd(e) => touch_game_end(&e),
        Event::FrameStart(e) => touch((e.frame(), e.random_seed(), e.scene_frame_counter())),
        Event::ItemUpdate(e) => touch((
            (e.frame(), e.type_id(), e.state(), e.facing_direction()),
            (
                e.velocity_x(),
                e.velocity_y(),
                e.position_x(),
                e.position_y(),
            ),
            (
                e.damage_taken(),
                e.expiration_timer(),
                e.spawn_id(),
                e.missile_type(),
            ),
            (
                e.turnip_face(),
                e.charge_shot_launched(),
                e.charge_power(),
                e.owner(),
            ),
            (e.instance_id(), e.misc()),
        )),
        Event::FrameBookend(e) => touch((e.frame(), e.latest_finalized_frame())),
        Event::MessageSplitter(e) => touch_splitter(&e),
        Event::GeckoList(l) => touch_gecko(&l),
        Event::FodPlatform(e) => touch((e.frame(), e.platform(), e.height())),
        Event::Whispy(e) => touch((e.frame(), e.direction())),
        Event::StadiumTransformation(e) => touch((e.frame(), e.event(), e.transformation())),
        Event::Unknown(e) => touch((e.code(), e.payload())),
        _ => {}
    }
}

/// Every Game Start accessor, per port and per player block, out of range too.
pub fn touch_game_start(g: &GameStart<'_>) {
    touch((
        (g.version().map(|v| v.to_string()), g.game_info_block()),
        (
            g.game_bitfield1(),
            g.game_bitfield2(),
            g.game_bitfield3(),
            g.game_bitfield4(),
        ),
        (
            g.bomb_rain(),
            g.is_teams(),
            g.item_spawn_behavior(),
            g.self_destruct_score(),
        ),
        (
            g.stage(),
            g.timer_seconds(),
            g.damage_ratio(),
            g.random_seed(),
        ),
        (
            g.is_pal(),
            g.is_frozen_ps(),
            g.minor_scene(),
            g.major_scene(),
        ),
        (
            g.language(),
            g.game_number(),
            g.tiebreaker_number(),
            g.match_id(),
        ),
        (
            g.timer_type(),
            g.game_mode(),
            g.friendly_fire(),
            g.item_spawn_bitfields(),
        ),
    ));
    for port in [0, 1, 2, 3, PORTS, usize::MAX] {
        touch((
            g.dashback_fix(port),
            g.shield_drop_fix(port),
            g.name_tag(port),
        ));
        touch((
            g.display_name(port),
            g.connect_code(port),
            g.slippi_uid(port),
        ));
    }
    for i in (0..=PLAYER_BLOCKS).chain([usize::MAX]) {
        if let Some(p) = g.player(i) {
            touch_player(&p);
        }
    }
    for (i, p) in g.players() {
        touch(i);
        touch_player(&p);
    }
}

fn touch_player(p: &PlayerSlot<'_>) {
    touch((
        (
            p.bytes(),
            p.character(),
            p.player_type(),
            p.stocks(),
            p.costume(),
        ),
        (
            p.team_shade(),
            p.handicap(),
            p.team_id(),
            p.player_bitfield(),
        ),
        (
            p.cpu_level(),
            p.damage_start(),
            p.damage_spawn(),
            p.offense_ratio(),
        ),
        (p.defense_ratio(), p.model_scale()),
    ));
}

/// Every Game End accessor.
pub fn touch_game_end(e: &GameEnd<'_>) {
    touch((e.method(), e.lras_initiator(), e.placements(), e.bytes()));
}

fn touch_splitter(e: &MessageSplitter<'_>) {
    touch((
        e.block(),
        e.data(),
        e.actual_size(),
        e.internal_command(),
        e.is_last(),
    ));
}

/// Walks the Gecko codes (each consumes input, so the walk ends).
pub fn touch_gecko(l: &GeckoList<'_>) {
    for code in l.codes() {
        touch((code.code_type, code.address, code.bytes));
    }
}

/// Every field of a frame and its characters.
pub fn touch_frame(f: &Frame<'_>) {
    touch((f.number, f.is_rollback, f.start, f.bookend, f.overflow));
    for (index, follower, c) in f.characters() {
        touch((index, follower));
        for e in c
            .pre
            .map(Event::PreFrame)
            .into_iter()
            .chain(c.post.map(Event::PostFrame))
        {
            touch_event(&e);
        }
    }
    for i in &f.items {
        touch_event(&Event::ItemUpdate(*i));
    }
    for e in &f.stage_events {
        touch_event(e);
    }
}

/// Every metadata accessor, players and their characters included.
pub fn touch_metadata(m: &Metadata<'_>) {
    touch((
        m.start_at(),
        m.last_frame(),
        m.played_on(),
        m.console_nick(),
    ));
    for p in m.players() {
        touch((p.index(), p.netplay_name(), p.connect_code()));
        for c in p.characters() {
            touch(c);
        }
    }
    crate::ubjson::walk(gamefmt::slippi::ubjson::Value::Object(m.object()));
}
