"""Issue 55, item 6: no input gives a traceback.

Every reader of outside input (game records and save files of both games, edition files,
Knight Rider tile and escape-card files, ``rallye bot`` lines) is shown the same hostile
inputs — a nesting 200,000 deep, a 5,000-digit number, bytes that are not UTF-8, a huge
line, a huge file — and must answer each with the project's own error naming the file (and
line) and the rule, without holding the whole of it in memory. Then a Hypothesis fuzz test
per reader: whatever the bytes, a valid result or a :class:`~rallye.core.errors.GameError`,
never anything else.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rallye import knightrider as kr
from rallye.agents.base import make_agent
from rallye.agents.process import answer, serve
from rallye.core.errors import ConfigError, GameError, RecordError
from rallye.core.jsonio import MAX_CONFIG_BYTES, MAX_LINE_BYTES, MAX_RECORD_BYTES, loads
from rallye.core.record import dumps_line
from rallye.knightrider import record as kr_record
from rallye.knightrider.pieces import load_pieces
from rallye.mille import legal_actions, new_match, view_for
from rallye.mille.edition import load_edition
from rallye.mille.record import Recorder, replay_file

DATA = Path(__file__).resolve().parents[2] / "src" / "rallye"


def _mille_record() -> bytes:
    rec = Recorder.start(new_match("wm2006", 2, 5))
    for _ in range(12):
        rec.step(rec.state.current, legal_actions(rec.state)[0])
    return ("\n".join(dumps_line(x) for x in rec.lines) + "\n").encode()


def _kr_record() -> bytes:
    rec = kr_record.Recorder(3, 4, kr.Options(quick_build=True))
    for _ in range(6):
        rec.play(kr.legal_actions(rec.state)[0])
    return ("\n".join(dumps_line(x) for x in rec.lines()) + "\n").encode()


def _mille_view() -> bytes:
    s = new_match("wm2006", 2, seed=1)
    return json.dumps(view_for(s, s.current).to_json()).encode()


#: name -> (reader of a file's path, a valid file's bytes)
READERS: dict[str, tuple[Callable[[Path], Any], bytes]] = {
    "mille record": (replay_file, _mille_record()),
    "knightrider record": (kr_record.load, _kr_record()),
    "edition file": (load_edition, (DATA / "mille" / "editions" / "wm2006.json").read_bytes()),
    "tile file": (
        lambda p: load_pieces.__wrapped__(str(p), None),
        (DATA / "knightrider" / "data" / "tiles.json").read_bytes(),
    ),
    "escape-card file": (
        lambda p: load_pieces.__wrapped__(None, str(p)),
        (DATA / "knightrider" / "data" / "escape_cards.json").read_bytes(),
    ),
}

HOSTILE: dict[str, bytes] = {
    "deep nesting": b"[" * 200_000,
    "deep nesting in an object": b'{"type": ' + b'{"a": ' * 100_000,
    "5000-digit number": b'{"type": "header", "players": ' + b"7" * 5000 + b"}",
    "invalid UTF-8": b'{"type": "header", "game": "\xff\xfe"}',
    "NaN": b'{"type": "header", "seed": NaN}',
}


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize("bad", sorted(HOSTILE))
def test_hostile_input_is_refused_with_the_file_the_line_and_the_rule(tmp_path, reader, bad):
    read, _ = READERS[reader]
    path = tmp_path / "in.json"
    path.write_bytes(HOSTILE[bad])
    with pytest.raises(GameError) as info:
        read(path)
    msg = str(info.value)
    assert str(path) in msg and "line 1" in msg and info.value.rule, msg


@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_huge_file_is_refused_unread(tmp_path, reader):
    read, _ = READERS[reader]
    path = tmp_path / "huge.json"
    with path.open("wb") as fh:  # sparse: the reader must not read it all to refuse it
        fh.truncate(max(MAX_RECORD_BYTES, MAX_CONFIG_BYTES) + 1)
    with pytest.raises(GameError, match="larger than") as info:
        read(path)
    assert str(path) in str(info.value) and info.value.rule == "json-limits"


@pytest.mark.parametrize("reader", ["mille record", "knightrider record"])
def test_a_huge_line_in_a_record_is_refused_naming_it(tmp_path, reader):
    read, good = READERS[reader]
    path = tmp_path / "rec.jsonl"
    first = good.split(b"\n")[0]
    path.write_bytes(first + b"\n" + b'{"type": "action", "pad": "' + b"x" * MAX_LINE_BYTES + b'"}\n')
    with pytest.raises(RecordError, match="line 2 is longer than") as info:
        read(path)
    assert info.value.rule == "json-limits"


def _record_with_line_4_edited(tmp_path: Path, old: bytes, new: bytes) -> Path:
    lines = READERS["mille record"][1].split(b"\n")
    lines[3] = lines[3].replace(old, new, 1)
    path = tmp_path / "rec.jsonl"
    path.write_bytes(b"\n".join(lines))
    return path


def test_invalid_utf8_names_its_line(tmp_path):
    with pytest.raises(RecordError, match=r"line 4: not UTF-8"):
        replay_file(_record_with_line_4_edited(tmp_path, b"play", b"pl\xc3ay"))


def test_json_errors_say_at_once_where():
    """Issue 55 item 9, "at at column in JSON errors": json's own message ends in "at"."""
    with pytest.raises(ConfigError) as info:
        loads('{"a": "open', source="x.json")
    assert " at at " not in str(info.value)
    assert "Unterminated string starting at column 7" in str(info.value)
    out = answer(make_agent("mille", "random", 0), '{"a": "open')
    assert out.startswith("error: not JSON") and " at at " not in out


# -- rallye bot -----------------------------------------------------------------------
@pytest.mark.parametrize("game", ["mille", "knightrider"])
def test_bot_reads_on_after_each_hostile_line(game):
    good = _mille_view().decode() if game == "mille" else _kr_view()
    bad = [
        b"[" * 200_000,
        b"7" * 5000,
        b'{"game": "mille", "\xff": 1}',
        b"x" * (MAX_LINE_BYTES + 10),
        b'{"a": NaN}',
    ]
    stdin = io.BytesIO(b"\n".join([*bad, good.encode()]) + b"\n")
    out = io.StringIO()
    assert serve(make_agent(game, "random", 0), stdin, out, game) == 0
    lines = out.getvalue().splitlines()
    assert len(lines) == len(bad) + 1
    assert all(line.startswith("error: ") for line in lines[:-1]), lines
    assert "line 3" in lines[2] and "UTF-8" in lines[2]
    assert "longer than" in lines[3]
    assert not lines[-1].startswith("error")


def _kr_view() -> str:
    state = kr.new_game(3, seed=4, options=kr.Options(quick_build=True))
    while kr.current_player(state) is None or state.phase != "turn":
        state = kr.apply(state, kr.legal_actions(state)[0])
    seat = kr.current_player(state)
    assert seat is not None
    return json.dumps(kr.view_for(state, seat).to_json())


# -- fuzz -----------------------------------------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@st.composite
def mutated(draw: st.DrawFn, good: bytes) -> bytes:
    """A valid file with some of it changed: bytes replaced, cut, or a JSON value put in."""
    how = draw(st.sampled_from(["splice", "cut", "value", "raw"]))
    if how == "raw":
        return draw(st.binary(max_size=200))
    at = draw(st.integers(0, len(good)))
    if how == "cut":
        return good[:at]
    if how == "splice":
        return good[:at] + draw(st.binary(max_size=8)) + good[at + draw(st.integers(0, 8)) :]
    # replace one JSON scalar (a number, a string, true/false/null) by another JSON value
    tokens = [i for i in range(len(good)) if good[i : i + 1] in b'0123456789"tfn' and good[i - 1 : i] in b":[, "]
    if not tokens:
        return good
    i = draw(st.sampled_from(tokens))
    end = i + 1
    if good[i : i + 1] == b'"':
        end = good.index(b'"', i + 1) + 1
    else:
        while end < len(good) and good[end : end + 1] not in b",]}":
            end += 1
    return good[:i] + json.dumps(draw(json_values)).encode() + good[end:]


def _fuzz(reader: str, folder: Path) -> None:
    read, good = READERS[reader]

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=mutated(good))
    def run(data: bytes) -> None:
        path = folder / reader.replace(" ", "_")
        path.write_bytes(data)
        try:
            read(path)
        except GameError as exc:  # anything else fails the test
            str(exc).encode("utf-8")  # and the message can be printed

    run()


@pytest.mark.parametrize("reader", sorted(READERS))
def test_fuzz_each_reader_gives_a_result_or_its_own_error(tmp_path, reader):
    _fuzz(reader, tmp_path)


@pytest.mark.parametrize("game", ["mille", "knightrider"])
def test_fuzz_bot_lines_always_get_one_answer_line(game):
    good = (_mille_view().decode() if game == "mille" else _kr_view()).encode()
    agent = make_agent(game, "random", 0)

    @settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=mutated(good))
    def run(data: bytes) -> None:
        out = io.StringIO()
        serve(agent, io.BytesIO(data.replace(b"\n", b" ") + b"\n"), out, game)
        lines = out.getvalue().splitlines()
        assert len(lines) <= 1
        if lines and not lines[0].startswith("error: "):
            assert lines[0].strip()

    run()


# -- command-line options ---------------------------------------------------------------
HOSTILE_OPTIONS = [
    ["play", "mille", "--seed", "7" * 5000],
    ["play", "mille", "--seed", "7" * 41],  # would make a record no reader accepts
    ["play", "mille", "--players", "7" * 4000],
    [
        "play",
        "mille",
        "--seat",
        "7" * 5000,
    ],  # --seat -1 is a seat that does not exist: tests/cli/test_issue65_commands.py
    ["play", "mille", "--delay", "nan"],
    ["play", "mille", "--delay", "1e308"],
    ["play", "knightrider", "--tour", "7" * 40],
    ["simulate", "mille", "--games", "100000000000"],
    ["simulate", "mille", "--workers", "100000000000", "--games", "2"],
    ["simulate", "knightrider", "--turn-limit", "7" * 5000],
    ["tournament", "--bots", "random,heuristic", "--matches", "7" * 5000],
    ["tournament", "--bots", "random,heuristic", "--seed", "１２"],  # full-width digits
    ["bot", "--seed", "7" * 5000],
    ["rules", "mille", "--players", "7" * 5000],
]


@pytest.mark.parametrize("argv", HOSTILE_OPTIONS, ids=lambda a: " ".join(a)[:50])
def test_hostile_option_values_are_usage_errors(argv, capsys):
    from rallye.cli import main

    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    # the usage error names the option, in the screen's language (German for rallye play's default edition)
    assert re.search(r"(error|Fehler): --[a-z-]+: ", err) and "usage:" in err and "Traceback" not in err


@pytest.mark.parametrize("edition", ["\udcff.json", "x" * 5000 + ".json", "[" * 100_000])
def test_hostile_edition_option_is_a_clear_error(edition, capsys):
    from rallye.cli import main

    assert main(["rules", "mille", "--edition", edition]) == 2
    assert "edition" in capsys.readouterr().err


def test_a_lone_surrogate_in_a_record_gives_a_printable_message(tmp_path):
    path = _record_with_line_4_edited(tmp_path, b'"action":"', b'"action":"\\ud800')
    with pytest.raises(RecordError, match="line 4") as info:
        replay_file(path)
    assert "\\ud800" in str(info.value)
    str(info.value).encode("utf-8")


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=60) | st.from_regex(r"[+-]?[0-9]{1,60}(\.[0-9]*)?(e[+-]?[0-9]{1,4})?", fullmatch=True))
def test_fuzz_option_values_give_a_bounded_value_or_a_usage_error(text):
    import argparse

    from rallye.core.cli_args import SEED_DIGITS, seconds, seed, whole

    for parse, ok in (
        (whole(1, 64), lambda v: 1 <= v <= 64),
        (seed, lambda v: abs(v) < 10**SEED_DIGITS),
        (seconds, lambda v: 0 <= v <= 60),
    ):
        try:
            value = parse(text)
        except argparse.ArgumentTypeError:
            continue
        assert ok(value), (text, value)


def test_a_line_separator_inside_a_string_does_not_split_a_record_line():
    from rallye.core.record import parse_jsonl

    text = '{"type":"header","name":"a\u2028b\x85c"}\r\n\n{"type":"end"}'
    assert parse_jsonl(text) == [(1, {"type": "header", "name": "a\u2028b\x85c"}), (3, {"type": "end"})]
