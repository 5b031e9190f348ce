"""``rallye bot``: views in, actions out, one line each; errors are lines, not crashes."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rallye import mille
from rallye.agents.base import make_agent
from rallye.agents.process import answer, serve


def _view_line(seed: int = 1, players: int = 2) -> str:
    s = mille.new_match("wm2006", players, seed=seed)
    return json.dumps(mille.view_for(s, s.current).to_json())


def test_serve_answers_good_lines_and_reports_bad_ones() -> None:
    good = _view_line()
    out = io.StringIO()
    rc = serve(make_agent("mille", "heuristic", 0), io.StringIO(f"{good}\nnot json\n\n[1, 2]\n{good}\n"), out)
    lines = out.getvalue().splitlines()
    assert rc == 0
    assert len(lines) == 4
    legal = {str(a) for a in mille.legal_from_view(mille.MilleView.from_json(json.loads(good)))}
    assert lines[0] in legal and lines[3] == lines[0]
    assert lines[1].startswith("error: not JSON")
    assert lines[2].startswith("error: view JSON")


def test_answer_refuses_a_view_whose_seat_is_not_to_act() -> None:
    s = mille.new_match("wm2006", 2, seed=1)
    line = json.dumps(mille.view_for(s, 1).to_json())
    assert answer(make_agent("mille", "heuristic", 0), line).startswith("error: it is P1's turn")


def test_answer_names_a_missing_field() -> None:
    data = json.loads(_view_line())
    del data["hand"]
    assert (
        answer(make_agent("mille", "heuristic", 0), json.dumps(data))
        == "error: view JSON: missing field 'hand' [rule: view-json]"
    )


def test_bot_process_runs_until_end_of_input() -> None:
    src = Path(__file__).resolve().parents[2] / "src"
    env = dict(os.environ, PYTHONPATH=str(src) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    good = _view_line(seed=3, players=3)
    proc = subprocess.run(
        [sys.executable, "-m", "rallye", "bot", "--game", "mille", "--bot", "heuristic", "--seed", "4"],
        input=f"{good}\n{{broken\n{good}\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 3
    assert lines[1].startswith("error: ")
    legal = {str(a) for a in mille.legal_from_view(mille.MilleView.from_json(json.loads(good)))}
    assert lines[0] in legal and lines[2] in legal


def test_bot_process_rejects_an_unknown_bot() -> None:
    from rallye.cli import main

    assert main(["bot", "--game", "mille", "--bot", "nonesuch"]) == 2


def _no_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    """This install as one without NumPy, as :func:`rallye.agents.base.levels_for` sees it."""
    import importlib.util

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "numpy" else find_spec(name, *a))


def test_the_levels_of_rallye_bot_come_from_the_registry(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--level`` offers each game's levels of the table server (``learned`` for Mille
    Bornes where NumPy is installed): in its help, its check and its errors."""
    pytest.importorskip("numpy")
    from rallye.agents import process
    from rallye.agents.mille.learned import LearnedAgent
    from rallye.cli import build_parser, main

    def help_text() -> str:
        with pytest.raises(SystemExit):
            build_parser().parse_args(["bot", "--help"])
        return " ".join(capsys.readouterr().out.split())

    assert "mille: easy, medium, hard, expert, learned; knightrider: easy, medium, hard, expert" in help_text()
    made: list[object] = []
    monkeypatch.setattr(process, "serve", lambda agent, *a: made.append(agent) or 0)
    assert main(["bot", "--game", "mille", "--level", "learned"]) == 0
    assert isinstance(made.pop(), LearnedAgent)
    assert main(["bot", "--game", "knightrider", "--level", "learned"]) == 2
    assert "'learned' is not a level of knightrider; its levels: easy, medium, hard, expert" in capsys.readouterr().err
    assert main(["bot", "--level", "grandmaster"]) == 2
    err = capsys.readouterr().err
    assert "'grandmaster' is not a level of mille; its levels: easy, medium, hard, expert, learned" in err
    assert main(["bot", "--level", "hard"]) == 0 and not isinstance(made.pop(), LearnedAgent)

    _no_numpy(monkeypatch)  # without NumPy: offered nowhere, and refused saying why
    assert "mille: easy, medium, hard, expert;" in help_text()
    assert main(["bot", "--game", "mille", "--level", "learned"]) == 2
    err = capsys.readouterr().err
    assert "the learned level needs NumPy" in err and "the levels here: easy, medium, hard, expert" in err
    assert not made and "Traceback" not in err


def test_knightrider_bot_process_answers_views_and_reports_bad_lines() -> None:
    """Issue 4, item 3: a Knight Rider bot as a process, same line protocol."""
    import io
    import json as _json

    from rallye import knightrider as kr
    from rallye.agents.base import make_agent
    from rallye.agents.process import serve

    state = kr.new_game(3, seed=4, options=kr.Options(quick_build=True))
    while kr.current_player(state) is None or state.phase != "turn":
        state = kr.apply(state, kr.legal_actions(state)[0])
    seat = kr.current_player(state)
    assert seat is not None
    good = _json.dumps(kr.view_for(state, seat).to_json())
    other = _json.dumps(kr.view_for(state, (seat + 1) % 3).to_json())
    out = io.StringIO()
    serve(
        make_agent("knightrider", "heuristic", 1),
        io.StringIO(f"{good}\n{{bad\n{other}\n[]\n{good}\n"),
        out,
        "knightrider",
    )
    lines = out.getvalue().splitlines()
    assert len(lines) == 5
    legal = {str(a) for a in kr.legal_actions(state)}
    assert lines[0] in legal and lines[4] in legal
    assert lines[1].startswith("error: not JSON")
    assert lines[2].startswith("error: it is P")
    assert lines[3].startswith("error:")


def test_bot_process_exact_lifts_the_cpu_ceiling(monkeypatch) -> None:
    """``--exact``: the level's whole count budget (the same answers for a seed anywhere);
    without it the level keeps its CPU ceiling (its per-move limit, issue 4 item 2)."""
    import argparse

    from rallye.agents import process
    from rallye.agents.mille.levels import CPU_LIMITS

    made = []
    monkeypatch.setattr(process, "serve", lambda agent, *a: made.append(agent) or 0)
    parser = argparse.ArgumentParser()
    process.add_bot_arguments(parser)
    for flags, want in ((["--exact"], None), ([], CPU_LIMITS["expert"])):
        made.clear()
        assert process.run_bot(parser.parse_args(["--level", "expert", *flags])) == 0
        assert made[0].cpu_limit == want


# -- issue 55, item 8: the bot checks what it is told ----------------------------------
def _impossible(edit) -> str:
    data = json.loads(_view_line())
    edit(data)
    return json.dumps(data)


def _fifty_card_hand(d):
    d["hand"] = ["D25"] * 50
    d["hand_sizes"][d["seat"]] = 50


def _seven_d200(d):
    d["discard"] = d["discard"] + ["D200"] * 7


def _km_off(d):
    d["tableaus"][1]["km"] = 300


def _cards_missing(d):
    d["draw_count"] -= 5


IMPOSSIBLE_VIEWS = [
    ("a 50-card hand", _fifty_card_hand, "holds 50 cards; a hand holds at most 7"),
    ("seven D200 in wm2006", _seven_d200, "D200; the wm2006 deck for 2 players has 4"),
    ("km disagreeing with the distance pile", _km_off, "side 1's 'km' is 300, but its distance pile adds up to 0"),
    ("cards that do not add up to the deck", _cards_missing, "do not add up to the deck"),
    ("a target the edition does not have", lambda d: d.update(target=5000), "wm2006 plays to 700 or 1000 km"),
]


@pytest.mark.parametrize("level", ["random", "heuristic", "easy", "medium", "hard", "expert"])
@pytest.mark.parametrize(("desc", "edit", "what"), IMPOSSIBLE_VIEWS, ids=[v[0] for v in IMPOSSIBLE_VIEWS])
def test_bot_answers_an_impossible_view_with_an_error_naming_it(level, desc, edit, what):
    out = answer(make_agent("mille", level, 0), _impossible(edit))
    assert out.startswith("error: view JSON: ") and what in out, out


def test_a_mille_view_sent_to_the_knight_rider_bot_says_it_is_the_wrong_game():
    out = answer(make_agent("knightrider", "random", 0), _view_line(), "knightrider")
    assert out.startswith("error: this is a Mille Bornes view") and "--game mille" in out


def test_a_knight_rider_view_sent_to_the_mille_bot_says_it_is_the_wrong_game():
    from rallye import knightrider as kr

    state = kr.new_game(3, seed=4, options=kr.Options(quick_build=True))
    line = json.dumps(kr.view_for(state, 0).to_json())
    out = answer(make_agent("mille", "random", 0), line)
    assert out.startswith("error: this is a Knight Rider view") and "--game knightrider" in out


def test_bot_exits_quietly_when_its_reader_goes_away() -> None:
    src = Path(__file__).resolve().parents[2] / "src"
    env = dict(os.environ, PYTHONPATH=str(src) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen(
        [sys.executable, "-m", "rallye", "bot", "--game", "mille", "--bot", "random"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # nobody reads the answers any more
    with contextlib.suppress(BrokenPipeError):  # the bot may have gone already: allowed too
        proc.stdin.write((_view_line() + "\n").encode() * 50)
    with contextlib.suppress(BrokenPipeError):
        proc.stdin.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err, err


@pytest.mark.parametrize(
    ("value", "what"), [("2.5", "must be an integer"), ("1e400", "too large"), ("true", "integer")]
)
def test_a_view_with_a_non_integer_where_an_integer_belongs_is_refused(value, what) -> None:
    line = _view_line().replace('"km": 0', f'"km": {value}', 1)
    out = answer(make_agent("mille", "random", 0), line)
    assert out.startswith("error: ") and what in out, out


@pytest.mark.parametrize(
    ("field", "value", "what"),
    [("pips", 10**6, "'pips' must be from 0 to 12"), ("roll", 7, "'roll' must be from 0 to 6"),
     ("turn", 10**9, "from -10,000,000 to 10,000,000"), ("hand_kitt", [10**6] * 4, "from 0 to 20 cards")],
)  # fmt: skip
def test_knight_rider_bot_refuses_a_view_beyond_what_a_turn_holds(field, value, what) -> None:
    """A view claiming a million pips made the bots enumerate moves for minutes."""
    from rallye import knightrider as kr

    state = kr.new_game(3, seed=4, options=kr.Options(quick_build=True))
    while kr.current_player(state) is None or state.phase != "turn":
        state = kr.apply(state, kr.legal_actions(state)[0])
    seat = kr.current_player(state)
    data = kr.view_for(state, seat).to_json()
    data[field] = value
    out = answer(make_agent("knightrider", "heuristic", 0), json.dumps(data), "knightrider")
    assert out.startswith("error: view JSON") and what in out, out
