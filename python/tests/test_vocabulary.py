"""One vocabulary across the surfaces: every corpus Slippi replay and
teehistorian recording read by the CLI (``gamefmt dump FILE``, JSON lines
from the core's ``Serialize``) and by the Python API give the same records,
key by key and value by value (same names, same numbers, floats equal as
the f32 they are), and the Arrow ``events``/``items`` tables carry the same
values where they have the field.

The CLI is ``$GAMEFMT_BIN``, else ``target/debug/gamefmt`` (under
``$CARGO_TARGET_DIR`` when set), built with ``cargo build -p gamefmt-cli
--no-default-features`` when missing. Without the corpus the tests are
SKIPPED (with the reason); the totals compared are printed (``-s``) and
kept in ``COUNTS``.
"""

import functools
import json
import math
import struct
import subprocess
import tempfile
from collections import Counter

import pytest

import typing

import gamefmt
from gamefmt import records as shapes
from conftest import corpus_files, gamefmt_cli

# Records and values compared, by surface pair (printed at the end).
COUNTS = Counter()


@pytest.fixture(scope="module")
def cli():
    binary = gamefmt_cli()
    if binary is None:
        pytest.skip("SKIPPED: no gamefmt CLI ($GAMEFMT_BIN unset, cargo not found)")
    return binary


def dump_lines(cli, path):
    """The CLI's ``dump`` of ``path``: its JSON lines, one at a time; the
    exit status checked by the caller through ``proc``."""
    proc = subprocess.Popen(
        [cli, "dump", str(path)], stdout=subprocess.PIPE, stderr=tempfile.TemporaryFile(), text=True
    )
    return proc, (json.loads(line) for line in proc.stdout)


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def same(cli_value, py_value, where, counts):
    """Asserts the CLI's JSON value and the Python value are the same
    value of the same type (bytes are JSON arrays of numbers; a float is
    compared as an f32, NaN and infinities are JSON null); counts the
    values compared."""
    if isinstance(py_value, float):
        if math.isnan(py_value) or math.isinf(py_value):
            assert cli_value is None, where
        else:
            assert isinstance(cli_value, (int, float)) and not isinstance(cli_value, bool), where
            assert f32(cli_value) == f32(py_value), (where, cli_value, py_value)
        counts["values"] += 1
    elif isinstance(py_value, bool) or py_value is None or isinstance(py_value, str):
        assert type(cli_value) is type(py_value) and cli_value == py_value, (where, cli_value, py_value)
        counts["values"] += 1
    elif isinstance(py_value, int):
        assert type(cli_value) is int and cli_value == py_value, (where, cli_value, py_value)
        counts["values"] += 1
    elif isinstance(py_value, bytes):
        assert cli_value == list(py_value), where
        counts["values"] += 1
    elif isinstance(py_value, list):
        assert isinstance(cli_value, list) and len(cli_value) == len(py_value), where
        for i, (c, p) in enumerate(zip(cli_value, py_value)):
            same(c, p, f"{where}[{i}]", counts)
    elif isinstance(py_value, dict):
        assert isinstance(cli_value, dict), where
        assert sorted(cli_value) == sorted(py_value), (where, sorted(cli_value), sorted(py_value))
        for key, value in py_value.items():
            same(cli_value[key], value, f"{where}.{key}", counts)
    else:
        raise AssertionError(f"{where}: unexpected Python type {type(py_value)}")


# The TypedDict of each record kind (gamefmt.records), which the .pyi gives.
SLIPPI_SHAPES = {
    typing.get_type_hints(t)["kind"].__args__[0]: t for t in typing.get_args(shapes.SlippiEvent)
}
TEEHISTORIAN_SHAPES = {
    typing.get_type_hints(t)["kind"].__args__[0]: t
    for t in typing.get_args(shapes.TeehistorianRecordDict)
}
EX_FIELDS = typing.get_type_hints(shapes.ExFields)


def conforms(value, hint):
    """Whether `value` is of the type `hint` (the hints gamefmt.records uses)."""
    return checker(hint)(value)


@functools.lru_cache(maxsize=None)
def checker(hint):
    """The test `conforms` runs for `hint`, built once per hint (the typing
    introspection, done per value, took most of this file's time)."""
    if hint is None:
        return lambda value: False
    if hint is typing.Any:
        return lambda value: True
    origin = typing.get_origin(hint)
    if origin is typing.Union:
        checks = tuple(checker(h) for h in typing.get_args(hint))

        def any_of(value):
            for check in checks:
                if check(value):
                    return True
            return False

        return any_of
    if origin is typing.Literal:
        allowed = typing.get_args(hint)
        return lambda value: value in allowed
    if origin is list:
        (item,) = typing.get_args(hint)
        check = checker(item)
        return lambda value: isinstance(value, list) and all(check(v) for v in value)
    if hint is type(None):
        return lambda value: value is None
    if typing.is_typeddict(hint):
        return lambda value: isinstance(value, dict) and not shape_errors(value, hint)
    if hint is int:
        return lambda value: isinstance(value, int) and not isinstance(value, bool)
    return lambda value: isinstance(value, hint)


@functools.lru_cache(maxsize=None)
def hints_of(shape):
    return typing.get_type_hints(shape)


@functools.lru_cache(maxsize=None)
def checks_of(shape):
    """The TypedDict `shape`'s required keys and the test of each key's value."""
    return shape.__required_keys__, {k: checker(h) for k, h in hints_of(shape).items()}


def shape_errors(value, shape):
    """What in the dict `value` disagrees with the TypedDict `shape`."""
    required, checks = checks_of(shape)
    errors = [f"missing {k}" for k in required if k not in value]
    for k, v in value.items():
        check = checks.get(k)
        if check is None:
            errors.append(f"unexpected {k}")
        elif not check(v):
            if k == "fields" and shape is shapes.Ex:
                errors += [f"fields.{f}" for f, x in v.items() if not conforms(x, EX_FIELDS.get(f))]
            else:
                errors.append(f"{k}={v!r} is not {hints_of(shape)[k]}")
    return errors


def python_records(iterable):
    """The records of ``iterable`` and the error that stopped it (None)."""
    records = []
    try:
        for r in iterable:
            records.append(r)
    except gamefmt.Error as e:
        return records, e
    return records, None


def report(counts, what):
    COUNTS.update({f"{what} {k}": v for k, v in counts.items()})
    print(f"\n{what}: {dict(counts)}; totals so far {dict(COUNTS)}")


@pytest.mark.parametrize("path", corpus_files("slippi", "*.slp"))
def test_slippi_events_are_the_same_in_the_cli_python_and_arrow(cli, path):
    counts = Counter()
    try:
        python = iter(gamefmt.open(path))
    except gamefmt.DecodeError as e:
        # Not a replay at all (a damaged corpus file): the CLI refuses it too.
        proc = subprocess.run([cli, "dump", str(path)], capture_output=True)
        assert proc.returncode != 0, e
        return
    items = []
    proc, lines = dump_lines(cli, path)
    n = 0
    for n, line in enumerate(lines, 1):
        try:
            e = next(python)
        except (StopIteration, gamefmt.Error) as stop:
            raise AssertionError(f"the CLI has more events than Python ({n}): {stop!r}") from None
        same(line, e, f"event {n - 1} ({line.get('kind')})", counts)
        errors = shape_errors(e, SLIPPI_SHAPES[e["kind"]])
        assert not errors, (e, errors)
        if e["kind"] == "item_update":
            items.append(e)
    proc.wait()
    error = None
    try:
        extra = next(python)
        raise AssertionError(f"Python has more events than the CLI ({n}): {extra}")
    except StopIteration:
        pass
    except gamefmt.Error as e:
        error = e
    # The CLI fails where Python raises (a damaged replay), not elsewhere.
    assert (proc.returncode != 0) == (error is not None), (proc.returncode, error)
    counts["records"] += n
    if error is None:
        replay = gamefmt.open(path)
        assert not shape_errors(replay.header, shapes.SlippiHeader)
        for frame in replay.frames():
            assert not shape_errors(frame, shapes.SlippiFrame), frame
    report(counts, "slippi cli/python")
    if error is not None:
        return

    # Arrow's items table: one row per Item Update, the same values (its
    # `owner` is the 1-based port or null, as the core's).
    pa = pytest.importorskip("pyarrow")
    rows = pa.table(gamefmt.open(path).to_arrow("items")).to_pylist()
    arrow_counts = Counter()

    def arrow_key(row):
        owner = row["owner"]
        assert owner is None or 1 <= owner <= 4, owner
        return (
            row["frame"], row["type_id"], row["state"], row["spawn_id"],
            row["position_x"], row["position_y"], row["velocity_x"], row["velocity_y"],
            row["damage_taken"], row["expiration_timer"],
            owner,
        )

    def python_key(e):
        def g(k):
            v = e[k]
            return f32(v) if isinstance(v, float) else v

        return (
            g("frame"), g("type"), g("state"), g("spawn_id"), g("x"), g("y"),
            g("velocity_x"), g("velocity_y"), g("damage_taken"), g("expiration_timer"), g("owner"),
        )

    from_python = Counter(python_key(e) for e in items)
    from_arrow = Counter(
        tuple(f32(v) if isinstance(v, float) else v for v in arrow_key(row)) for row in rows
    )
    # A rolled-back frame's items come again in Arrow (rollback True): the
    # distinct rows agree.
    assert set(from_arrow) == set(from_python)
    arrow_counts["records"] += len(from_python)
    arrow_counts["values"] += len(from_python) * 11
    report(arrow_counts, "slippi python/arrow items")


# The kinds of the Arrow `events` table (the others have tables of their
# own: positions, inputs; TICK_SKIP none).
NOT_EVENTS = {"PLAYER_DIFF", "PLAYER_NEW", "PLAYER_OLD", "INPUT_NEW", "INPUT_DIFF", "TICK_SKIP"}
ARROW_KIND = {"JOIN": "join", "DROP": "drop", "MESSAGE": "message", "FINISH": "finish"}


# The EX payloads about a client (`Message::client_id`), by the field
# naming it.
EX_CLIENT = {
    "ddnet_version_old": "cid", "ddnet_version": "cid", "auth_init": "cid",
    "auth_login": "cid", "auth_logout": "cid", "join_ver6": "cid", "join_ver7": "cid",
    "player_switch": "cid1", "player_team": "cid", "player_ready": "cid",
    "player_rejoin": "cid", "player_name": "cid", "player_finish": "cid",
}


def expected_event_row(r):
    """The Arrow events row the Python record `r` stands for (the columns
    that carry a field of the record)."""
    kind = r["kind"]
    fields = r.get("fields") or {}
    cid = r.get("cid")
    client = cid if cid is not None and cid >= 0 else None
    ints = []
    text = None
    if kind == "CONSOLE_COMMAND":
        arrow_kind = r["source"]
        client = cid
        ints = [r["flags"]]
        text = " ".join([r["cmd"], *r["args"]])
    elif kind == "EX":
        arrow_kind = r["name"] or "ex"
        sub = fields.get("kind")
        if sub in EX_CLIENT and fields[EX_CLIENT[sub]] >= 0:
            client = fields[EX_CLIENT[sub]]
        if sub in ("player_name", "player_finish", "player_team"):
            client = fields["cid"]
        if sub == "player_name":
            text = fields["name"]
        elif sub == "player_finish":
            ints = [fields["time"]]
        elif sub == "player_team":
            ints = [fields["team"]]
        elif sub == "team_finish":
            ints = [fields["team"], fields["time"]]
    else:
        arrow_kind = ARROW_KIND.get(kind, kind)
        text = r.get("reason") if kind == "DROP" else r.get("text")
    row = {
        "tick": r["tick"],
        "client": client,
        "kind": arrow_kind,
        "name": r.get("player"),
        "message": r.get("message"),
        "uuid": r.get("uuid"),
        "ints": ints,
    }
    # Arrow's text of the other EX payloads is their Debug form: not compared.
    if kind != "EX" or text is not None:
        row["text"] = text
    return row


@pytest.mark.parametrize("path", corpus_files("teeworlds/teehistorian", "*.teehistorian"))
def test_teehistorian_records_are_the_same_in_the_cli_python_and_arrow(cli, path):
    try:
        th = gamefmt.open(path)
        records, error = python_records(th)
    except gamefmt.DecodeError as e:
        records, error = None, e
    if error is not None:
        # Not a recording (the corpus facts say so): the CLI refuses it too.
        proc = subprocess.run([cli, "dump", str(path)], capture_output=True)
        assert proc.returncode != 0, error
        return
    counts = Counter()
    proc, lines = dump_lines(cli, path)
    first = next(lines)
    same(first, {"header": th.header}, "header", counts)
    n = 0
    end = None
    for line in lines:
        if set(line) == {"end"}:
            end = line
            continue
        assert end is None, "a record after the end"
        assert n < len(records), f"the CLI has more records than Python ({n})"
        mine = records[n].to_dict()
        shape = TEEHISTORIAN_SHAPES[mine["kind"]]
        assert not shape_errors(mine, shape), (mine, shape_errors(mine, shape))
        where = f"record {n} ({mine['kind']})"
        if mine["kind"] == "MESSAGE":
            # The CLI's `message` is the decoded network message (its own
            # JSON); Python's is its name (`text`: its text), as Arrow's:
            # both decode it or neither.
            theirs = line.pop("message")
            assert (theirs is None) == (mine.pop("message") is None), where
            mine.pop("text", None)
            counts["values"] += 1
        same(line, mine, where, counts)
        n += 1
    proc.wait()
    assert proc.returncode == 0 or th.end == "truncated", proc.returncode
    assert n == len(records), (n, len(records))
    same(end, {"end": th.end}, "end", counts)
    counts["records"] += n
    report(counts, "teehistorian cli/python")

    pa = pytest.importorskip("pyarrow")
    rows = pa.table(gamefmt.open(path).to_arrow("events")).to_pylist()
    expected = [expected_event_row(r) for r in records if r["kind"] not in NOT_EVENTS]
    assert len(rows) == len(expected)
    arrow_counts = Counter()
    for i, (row, want) in enumerate(zip(rows, expected)):
        for key, value in want.items():
            assert row[key] == value, (i, key, row[key], value, row)
            arrow_counts["values"] += 1
        arrow_counts["records"] += 1
    report(arrow_counts, "teehistorian python/arrow events")
