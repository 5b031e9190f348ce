"""Issue 55, item 9: the small ones, each test named after its defect."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from tests.tui.knightrider.test_play import play_args as kr_args  # the sibling tests' argument builders
from tests.tui.mille.test_play import console
from tests.tui.mille.test_play import play_args as mille_args

from rallye.cli import main
from rallye.core.errors import InvalidNotation, RecordError
from rallye.knightrider.actions import parse_action as kr_parse
from rallye.mille.actions import parse_action as mille_parse
from rallye.tui.mille.app import MilleSession, run_session
from rallye.tui.play import play_mille
from rallye.tui.replay import replay_command


def _no_input(prompt: str) -> str:
    raise EOFError


def test_seat_0_is_refused_not_played_as_seat_1() -> None:
    c = console()
    assert play_mille(mille_args(seat=0, seed=3), c, _no_input) == 2
    assert "with 2 players the seats are 1..2" in c.export_text()
    from rallye.tui.knightrider.app import play_knightrider

    c = console()
    assert play_knightrider(kr_args(seat=0, seed=3), c, _no_input) == 2
    assert "with 3 players the seats are 1..3" in c.export_text()


def _saved_with_seat(tmp_path: Path, seat: int) -> Path:
    session = MilleSession.new("wm2006", 2, 5, 0, ["heuristic"])
    path = tmp_path / "save.jsonl"
    session.save(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    head["tui"]["human_seat"] = seat
    lines[0] = json.dumps(head)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("bots", [None, "random"])
def test_human_seat_out_of_range_is_refused_by_resume_and_replay_alike(tmp_path: Path, bots: str | None) -> None:
    path = _saved_with_seat(tmp_path, 5)
    c = console()
    assert play_mille(mille_args(resume=str(path), bots=bots), c, _no_input) == 2
    out = c.export_text()
    assert "seats for people (5, 0-based) are not seats of a 2-player game" in out and "StopIteration" not in out
    c = console()
    assert replay_command(path, c, quiet=True) == 2
    assert "seats for people (5, 0-based) are not seats of a 2-player game" in c.export_text()
    with pytest.raises(RecordError, match="seats for people"):
        MilleSession.resume(path)


def test_a_move_typed_at_next_hand_is_not_taken_for_enter() -> None:
    session = MilleSession.new("wm2006", 2, 11, 0, ["random"])
    asked = {"next": 0}

    def read(prompt: str) -> str:
        if prompt.startswith("Enter: next hand"):
            asked["next"] += 1
            if asked["next"] == 1:
                return "play D100"  # a move typed too early
            if asked["next"] == 2:
                return ""  # Enter: on to the next hand
            raise EOFError
        return "1"

    c = console()
    run_session(session, read, c, lang="en")
    assert asked["next"] >= 2, "the pause after the first hand asked again after the typed move"
    assert "'play D100' is not played: press Enter for the next hand" in c.export_text()


def test_a_finished_match_is_not_offered_for_resume(tmp_path: Path) -> None:
    session = MilleSession.new("wm2006", 2, 11, 0, ["random"])
    c = console()
    answer = lambda prompt: "" if prompt.startswith("Enter") else "1"  # noqa: E731
    assert run_session(session, answer, c, lang="en", save_path=tmp_path / "m.jsonl") == 0 and session.over
    out = c.export_text()
    assert "--resume" not in out
    assert f"the game is over; see it with: rallye replay {tmp_path / 'm.jsonl'}" in out


def test_the_seed_line_is_not_printed_before_a_bots_error() -> None:
    c = console()
    assert play_mille(mille_args(bots="nosuch"), c, _no_input) == 2
    out = c.export_text()
    assert "nosuch" in out and "seed " not in out
    from rallye.tui.knightrider.app import play_knightrider

    for bad in ({"bots": "nosuch"}, {"tiles": "/nonexistent/tiles.json"}):
        c = console()
        assert play_knightrider(kr_args(**bad), c, _no_input) == 2
        assert "seed " not in c.export_text(), bad


def test_simulate_with_an_unknown_bot_exits_2_like_every_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["simulate", "mille", "--games", "1", "--bots", "nosuch"])
    assert info.value.code == 2
    assert "rallye simulate:" in capsys.readouterr().err


def test_rules_players_5_is_refused_not_ignored(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "mille", "--edition", "wm2006", "--players", "5"]) == 2
    assert "not 5" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["place at 1,2 rot 45", "place 23 at 1,2 rot 45", "detour RIGHT at 1,2 rot 45"])
def test_place_rot_45_says_what_a_rotation_is(text: str) -> None:
    with pytest.raises(InvalidNotation, match="turned by 0, 90, 180 or 270 degrees, not 45"):
        kr_parse(text)


@pytest.mark.parametrize(
    ("parse", "text"),
    [
        (kr_parse, "place at " + "1" * 5000 + ",2 rot 90"),
        (kr_parse, "move 1,2N =" + "9" * 5000),
        (mille_parse, "attack " + "1" * 5000 + " STOP"),
        (mille_parse, "attack ² STOP"),
    ],
)
def test_a_5000_digit_number_in_an_action_is_invalid_notation(parse, text: str) -> None:
    with pytest.raises(InvalidNotation):
        parse(text)


def test_replay_checks_the_header_before_parsing_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "other.jsonl"
    body = b'{"type": "x", "pad": "' + b"y" * 1000 + b'"}\n'
    path.write_bytes(b'{"type": "header", "game": "chess"}\n' + b"{broken\n" + body * 2000)
    c = console()
    assert replay_command(path, c) == 2
    out = c.export_text()
    assert "no known game (field 'game' is \"chess\")" in out and "line 2" not in out


def test_elo_of_a_bot_that_won_everything_is_a_bound_not_a_zero_width_interval() -> None:
    from rallye.sim.ratings import bootstrap_elo, fit_elo, format_interval, perfect_record_bounds

    sweep = [[("a", "b", 1.0)]] * 6
    boot = bootstrap_elo(sweep, ["a", "b"], reps=30, seed=1)
    assert boot["a"][0] == boot["a"][1]  # the defect: every resample is the same record
    assert perfect_record_bounds(sweep, ["a", "b"])["a"][1] is None
    blocks = [[("a", "b", 1.0), ("a", "c", 1.0), ("b", "c", s)] for s in (1.0, 0.0, 1.0, 0.5, 0.0, 1.0)]
    bounds = perfect_record_bounds(blocks, ["a", "b", "c"])
    assert set(bounds) == {"a"}
    lo, hi = bounds["a"]
    assert hi is None and lo is not None and 0 < lo < fit_elo([p for b in blocks for p in b])["a"]
    assert format_interval(lo, hi).endswith("+∞)")
    # more deals won, a higher bound; never a finite upper end
    more = perfect_record_bounds(blocks * 10, ["a", "b", "c"])["a"][0]
    assert more is not None and more > lo and math.isfinite(more)


def test_tournament_report_prints_an_open_interval_for_a_clean_sweep(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from rallye.sim.tournament import TournamentConfig, play_tournament, print_report, write_outputs

    config = TournamentConfig(game="mille", bots=("heuristic", "random"), players=2, matches=4, seed=3, bootstrap=20)
    report, results = play_tournament(config, workers=1)
    print_report(report)
    assert "+∞)" in capsys.readouterr().out
    written = write_outputs(report, results, tmp_path)
    assert ",inf," in (tmp_path / "bots.csv").read_text(encoding="utf-8") and written
    by = {b["bot"]: b for b in report["bots"]}
    assert by["heuristic"]["match_wins"] == by["heuristic"]["matches"]  # this seed is a clean sweep
    assert by["heuristic"]["elo_ci95"][1] is None and by["random"]["elo_ci95"][0] is None
    for b in report["bots"]:
        lo, hi = b["elo_ci95"]
        assert lo is None or hi is None or lo < hi, b


HOSTILE_LINES = ["7" * 5000, "²", "d²", "d" + "9" * 5000, "[" * 200_000, "attack " + "9" * 5000 + " STOP", "\udcff"]


@pytest.mark.parametrize("game", ["mille", "knightrider"])
def test_hostile_typed_lines_get_a_message_not_a_traceback(game: str) -> None:
    """Issue 55 item 6 for the terminal's own input: a 5,000-digit menu number made ``int``
    raise, and '²' passes ``str.isdigit`` but not ``int``."""
    from rallye.tui.knightrider.app import KRSession
    from rallye.tui.knightrider.app import run_session as kr_run

    lines = iter([*HOSTILE_LINES, "quit", "n"])

    def read(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    c = console()
    if game == "mille":
        assert run_session(MilleSession.new("wm2006", 2, 3, 0, ["random"]), read, c, lang="en") == 0
    else:
        assert kr_run(KRSession.new(3, 3, 0, ["random", "random"]), read, c, lang="en") == 0
    out = c.export_text()
    assert out.count("not understood") + out.count("there is no") >= len(HOSTILE_LINES)


@pytest.mark.parametrize("game", ["mille", "knightrider"])
def test_replay_stops_at_the_first_bad_line_without_parsing_the_rest(tmp_path: Path, game: str) -> None:
    """The 41 MB file of issue 55 item 9 took 8 s and 615 MB to refuse: the first lines are
    refused now before the rest is read (and a file beyond 16 MB before anything)."""
    from rallye.knightrider.record import header as kr_header
    from rallye.mille import new_match
    from rallye.mille.record import Recorder

    head = Recorder.start(new_match("wm2006", 2, 5)).lines[0] if game == "mille" else kr_header(3, 5)
    path = tmp_path / "rec.jsonl"
    path.write_bytes(json.dumps(head).encode() + b'\n{"type": "nonsense"}\n{broken\n')
    c = console()
    assert replay_command(path, c, quiet=True) == 2
    out = c.export_text()
    assert "line 2" in out and "line 3" not in out, out
