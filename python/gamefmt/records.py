"""The shapes of gamefmt's records, as ``TypedDict`` types.

They follow the core's one vocabulary (``gamefmt::vocabulary``: the names
the CLI's JSON, the Python dicts and the Arrow event tables share):
snake_case keys, ``kind`` naming the record, Slippi ``port`` counted from 1,
Teeworlds ``cid``. A field an older file version lacks, or a payload too
short to hold, is ``None``, never left out.

- Slippi events (``Replay`` iteration, ``Replay.events()``): one type per
  ``kind`` (``PreFrame``, ``PostFrame``, ...), ``SlippiEvent`` their union;
  ``SlippiFrame`` for ``Replay.frames()``; ``SlippiHeader`` for
  ``Replay.header``.
- Teehistorian records (``TeehistorianRecord.to_dict()``): one type per
  DDNet kind (``PlayerDiff`` for ``PLAYER_DIFF``, ...),
  ``TeehistorianRecordDict`` their union; ``ExFields`` for an EX record's
  ``fields``.

Use them in annotations::

    from gamefmt.records import PreFrame, SlippiEvent

    def percent(e: SlippiEvent) -> float | None:
        return e["percent"] if e["kind"] == "pre_frame" else None
"""

from typing import Any, List, Literal, Optional, TypedDict, Union

__all__ = [
    "EventPayloads", "GameStart", "PreFrame", "PostFrame", "GameEnd", "FrameStart",
    "ItemUpdate", "FrameBookend", "MessageSplitter", "GeckoList", "FodPlatform", "Whispy",
    "StadiumTransformation", "UnknownEvent", "SlippiEvent", "SlippiPlayer", "SlippiHeader",
    "SlippiFrame", "SlippiStats", "SlippiWinner",
    "PlayerDiff", "PlayerNew", "PlayerOld", "InputDiff", "InputNew", "TickSkip", "Join",
    "Finish", "PlayerMessage", "Drop", "ConsoleCommand", "Ex", "ExFields", "ExError",
    "TeehistorianRecordDict",
]

_Int = Optional[int]
_Float = Optional[float]
_Bool = Optional[bool]

# --- Slippi ----------------------------------------------------------------


class _Event(TypedDict):
    code: int
    """The command byte (0x35 event payloads, 0x36 Game Start, ...)."""
    offset: int
    """The event's byte offset in the file."""


class EventPayloads(_Event):
    kind: Literal["event_payloads"]
    commands: int


class SlippiPlayer(TypedDict):
    """One player slot of Game Start."""

    port: int
    character: _Int
    character_name: Optional[str]
    type: _Int
    stocks: _Int
    costume: _Int
    team_id: _Int
    cpu_level: _Int
    team_shade: _Int
    handicap: _Int
    offense_ratio: _Float
    defense_ratio: _Float
    model_scale: _Float
    dashback_fix: _Int
    shield_drop_fix: _Int
    name_tag: Optional[str]
    display_name: Optional[str]
    connect_code: Optional[str]
    """Names decoded from Shift-JIS as the console shows them (``ABCD#123``)."""
    user_id: Optional[str]


class _GameStartFields(TypedDict):
    version: Optional[str]
    """``"major.minor.build"``."""
    stage: _Int
    stage_name: Optional[str]
    is_pal: _Bool
    is_teams: _Bool
    game_mode: _Int
    random_seed: _Int
    timer_type: _Int
    timer_seconds: _Int
    friendly_fire: _Bool
    item_spawn_behavior: _Int
    item_spawn_bitfields: Optional[List[int]]
    game_bitfield1: _Int
    game_bitfield2: _Int
    game_bitfield3: _Int
    game_bitfield4: _Int
    bomb_rain: _Int
    self_destruct_score: _Int
    damage_ratio: _Float
    is_frozen_ps: _Bool
    minor_scene: _Int
    major_scene: _Int
    language: _Int
    match_id: Optional[str]
    game_number: _Int
    tiebreaker_number: _Int
    players: List[SlippiPlayer]


class GameStart(_Event, _GameStartFields):
    kind: Literal["game_start"]


class SlippiHeader(_GameStartFields):
    """``Replay.header``: Game Start's fields and ``raw_len``."""

    raw_len: int


class PreFrame(_Event):
    kind: Literal["pre_frame"]
    frame: _Int
    port: _Int
    follower: _Bool
    random_seed: _Int
    action_state: _Int
    x: _Float
    y: _Float
    facing_direction: _Float
    joystick_x: _Float
    joystick_y: _Float
    cstick_x: _Float
    cstick_y: _Float
    trigger: _Float
    buttons: _Int
    physical_buttons: _Int
    physical_l: _Float
    physical_r: _Float
    raw_joystick_x: _Int
    percent: _Float


class PostFrame(_Event):
    kind: Literal["post_frame"]
    frame: _Int
    port: _Int
    follower: _Bool
    internal_character: _Int
    """The in-game character id (not Game Start's ``character``)."""
    character_name: Optional[str]
    action_state: _Int
    x: _Float
    y: _Float
    facing_direction: _Float
    percent: _Float
    shield_size: _Float
    last_attack_landed: _Int
    combo_count: _Int
    last_hit_by: _Int
    stocks: _Int
    action_state_frame_counter: _Float
    is_airborne: _Bool
    jumps_remaining: _Int
    l_cancel_status: _Int
    hurtbox_state: _Int
    misc_action_state: _Float
    last_ground_id: _Int
    self_induced_air_x_speed: _Float
    self_induced_y_speed: _Float
    attack_based_x_speed: _Float
    attack_based_y_speed: _Float
    self_induced_ground_x_speed: _Float
    hitlag_remaining: _Float
    animation_index: _Int
    instance_hit_by: _Int
    instance_id: _Int


class GameEnd(_Event):
    kind: Literal["game_end"]
    method: _Int
    lras_initiator: _Int
    """The port (1-based) that quit with L+R+A+Start, None for nobody."""
    placements: Optional[List[int]]


class FrameStart(_Event):
    kind: Literal["frame_start"]
    frame: _Int
    random_seed: _Int
    scene_frame_counter: _Int


class ItemUpdate(_Event):
    kind: Literal["item_update"]
    frame: _Int
    type: _Int
    state: _Int
    spawn_id: _Int
    x: _Float
    y: _Float
    facing_direction: _Float
    velocity_x: _Float
    velocity_y: _Float
    damage_taken: _Int
    expiration_timer: _Float
    owner: _Int
    """The owner's port (1-based), None for none."""
    missile_type: _Int
    turnip_face: _Int
    charge_shot_launched: _Int
    charge_power: _Int
    instance_id: _Int


class FrameBookend(_Event):
    kind: Literal["frame_bookend"]
    frame: _Int
    latest_finalized_frame: _Int


class MessageSplitter(_Event):
    kind: Literal["message_splitter"]
    command: _Int
    size: _Int
    last: _Bool


class GeckoList(_Event):
    kind: Literal["gecko_list"]
    codes: int


class FodPlatform(_Event):
    kind: Literal["fod_platform"]
    frame: _Int
    platform: _Int
    height: _Float


class Whispy(_Event):
    kind: Literal["whispy"]
    frame: _Int
    direction: _Int


class StadiumTransformation(_Event):
    kind: Literal["stadium_transformation"]
    frame: _Int
    event: _Int
    type: _Int


class UnknownEvent(_Event):
    kind: Literal["unknown"]
    payload: bytes


SlippiEvent = Union[
    EventPayloads, GameStart, PreFrame, PostFrame, GameEnd, FrameStart, ItemUpdate,
    FrameBookend, MessageSplitter, GeckoList, FodPlatform, Whispy, StadiumTransformation,
    UnknownEvent,
]
"""One event of ``Replay`` iteration."""


class SlippiFrame(TypedDict):
    """One frame of ``Replay.frames()``."""

    frame: int
    rollback: bool
    start: Optional[FrameStart]
    players: List[Union[PreFrame, PostFrame]]
    items: List[SlippiEvent]
    end: Optional[FrameBookend]


class SlippiStats(TypedDict):
    """``Replay.stats()``: slippi-js 9.1.2's stats with the core's names
    (``gamefmt::slippi::stats::SlippiStats``'s ``Serialize``); players are
    1-based ``port``s; the lists are empty outside two-player games."""

    last_frame: int
    playable_frame_count: int
    game_complete: bool
    players: list[dict[str, Any]]
    stocks: list[dict[str, Any]]
    conversions: list[dict[str, Any]]
    combos: list[dict[str, Any]]
    action_counts: list[dict[str, Any]]
    input_counts: list[dict[str, Any]]
    overall: list[dict[str, Any]]
    target_breaks: Optional[list[dict[str, Any]]]
    home_run: Optional[dict[str, Any]]
    overflowed: bool
    slippi_js_would_throw: bool


class SlippiWinner(TypedDict):
    """One of ``Replay.winners``."""

    port: int
    position: int


# --- Teehistorian ----------------------------------------------------------


class _Record(TypedDict):
    tick: int
    offset: int
    """The record's byte offset in the file."""


class _Player(TypedDict, total=False):
    player: str
    """The name of the client the record is about (only when known)."""


class _ClientRecord(_Record, _Player):
    cid: int


class PlayerDiff(_ClientRecord):
    kind: Literal["PLAYER_DIFF"]
    dx: int
    dy: int


class PlayerNew(_ClientRecord):
    kind: Literal["PLAYER_NEW"]
    x: int
    y: int


class PlayerOld(_ClientRecord):
    kind: Literal["PLAYER_OLD"]


class InputDiff(_ClientRecord):
    kind: Literal["INPUT_DIFF"]
    diff: List[int]


class InputNew(_ClientRecord):
    kind: Literal["INPUT_NEW"]
    input: List[int]


class TickSkip(_Record):
    kind: Literal["TICK_SKIP"]
    dt: int


class Join(_ClientRecord):
    kind: Literal["JOIN"]


class Finish(_Record):
    kind: Literal["FINISH"]


class _Text(TypedDict, total=False):
    text: str
    """The network message's text, when it has one."""


class PlayerMessage(_ClientRecord, _Text):
    kind: Literal["MESSAGE"]
    data: bytes
    message: Optional[str]
    """The network message's name (``ClSay``, ``sys:ID``, ...), None when it
    does not decode."""


class Drop(_ClientRecord):
    kind: Literal["DROP"]
    reason: str


class ConsoleCommand(_ClientRecord):
    kind: Literal["CONSOLE_COMMAND"]
    flags: int
    source: Literal["chat command", "rcon command", "server command"]
    cmd: str
    args: List[str]


class ExFields(TypedDict, total=False):
    """An EX record's typed payload: ``kind`` (``player_name``,
    ``player_finish``, ``ddnet_version``, ..., ``unknown``) and the fields
    of that kind."""

    kind: str
    cid: int
    cid1: int
    cid2: int
    version: int
    version_str: str
    connection_id: str
    level: int
    auth_name: str
    team: int
    save_id: str
    save: str
    practice: int
    name: str
    time: int
    uuid: str
    data: bytes


class ExError(TypedDict):
    """Why an EX record's payload does not decode (as ``gamefmt.Error``)."""

    kind: str
    offset: int
    message: str


class _Ex(_Record, _Player):
    kind: Literal["EX"]
    uuid: str
    name: Optional[str]


class Ex(_Ex, total=False):
    fields: ExFields
    """The payload (when it decodes)."""
    error: ExError
    """Why the payload does not decode (instead of ``fields``)."""


TeehistorianRecordDict = Union[
    PlayerDiff, PlayerNew, PlayerOld, InputDiff, InputNew, TickSkip, Join, Finish,
    PlayerMessage, Drop, ConsoleCommand, Ex,
]
"""``TeehistorianRecord.to_dict()``: one record of a teehistorian recording."""
