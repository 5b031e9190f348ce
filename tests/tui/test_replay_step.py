"""``rallye replay FILE --step``: stepping through a record of either game on its screens,
with scripted input and a recording console (tests/tui/helpers.py)."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.tui.helpers import feed, random_record, recording_console, rewrite_line

from rallye.cli import main
from rallye.core.game import Replayed
from rallye.core.record import read_jsonl
from rallye.games import game_for
from rallye.knightrider import Options
from rallye.tui.knightrider.step import KRStepper
from rallye.tui.mille.step import MilleStepper
from rallye.tui.replay import step_command
from rallye.tui.stepper import Stepper

#: short finished games: Mille Bornes' meilen for two is one hand; Knight Rider to a turn limit
SHORT = [
    ("mille", {"edition": "meilen", "players": 2}, 1),
    ("knightrider", {"players": 2, "options": Options(quick_build=True, turn_limit=6)}, 1),
]


def replayed(path: Path) -> Replayed[Any, Any]:
    numbered = read_jsonl(path)
    return game_for(numbered[0][1]["game"]).replay(numbered, str(path))


def stepper(path: Path, lines: list[str], width: int = 100, people: tuple[int, ...] = ()) -> Stepper[Any, Any]:
    rep = replayed(path)
    c = recording_console(width)
    if read_jsonl(path)[0][1]["game"] == "mille":
        return MilleStepper(rep, c, feed(lines), tags={}, people=people, lang="en", ui="en")
    return KRStepper(rep, c, feed(lines), tags={}, people=people, ui="en")


def screens(out: str) -> list[str]:
    """The screens printed, each from its heading ("Start …" or "Move k of n")."""
    parts = re.split(r"(?m)^(?=(?:Start, before the first move \(\d+ moves?\)|Move \d+ of \d+) ·)", out)
    return [p for p in parts if p.startswith(("Start", "Move"))]


def last_screen(s: Stepper[Any, Any]) -> str:
    return screens(s.c.export_text(clear=False))[-1]


@pytest.mark.parametrize(("key", "settings", "seed"), SHORT)
def test_forward_to_the_end_is_the_records_end_and_back_is_its_start(
    tmp_path: Path, key: str, settings: dict[str, Any], seed: int
) -> None:
    path = random_record(tmp_path / "game.jsonl", key, settings, seed)
    rep = replayed(path)
    n = len(rep.moves)
    s = stepper(path, ["n"] * n + ["n"])  # one more than there are: told, not a crash
    assert s.run() == 0
    assert s.k == n and s.state == rep.final
    out = s.c.export_text(clear=False)
    assert len(screens(out)) == n + 1  # the start and every move
    assert f"Move {n} of {n}" in out
    assert f"This is the last move ({n})" in out
    end = last_screen(s)
    game = game_for(key)
    assert game.is_over(rep.final)
    if key == "mille":
        assert "The match is over." in end and "wins with" in end  # the totals and the result
        assert "Score sheet — Hand 1" in end
    else:
        assert "The game is over: no winner (turn limit)." in end
    # every move in words, by its seat
    for k in (1, n // 2, n):
        screen = screens(out)[k]
        seat = rep.moves[k - 1][0]
        assert re.search(rf"^\s+(· )?P{seat + 1}\b", screen, re.M), screen[:400]

    back = stepper(path, ["last"] + ["p"] * n + ["p"])
    assert back.run() == 0
    assert back.k == 0 and back.state == rep.initial
    assert "This is the start" in back.c.export_text(clear=False)
    assert last_screen(back).startswith("Start, before the first move")


@pytest.mark.parametrize(("key", "settings", "seed"), SHORT)
def test_jumps_first_last_and_show(tmp_path: Path, key: str, settings: dict[str, Any], seed: int) -> None:
    path = random_record(tmp_path / "game.jsonl", key, settings, seed)
    rep = replayed(path)
    n = len(rep.moves)
    s = stepper(path, ["7"])
    s.run()
    assert s.k == 7 and last_screen(s).startswith(f"Move 7 of {n}")
    assert s.state == stepper(path, ["n"] * 7).states[7]
    for script, k in ((["go 3"], 3), (["last", "first"], 0), (["last"], n), (["5", "0"], 0), (["4", "show"], 4)):
        s = stepper(path, script)
        s.run()
        assert s.k == k, script
    # the same position shows the same screen, however it was reached
    a, b = stepper(path, ["9"]), stepper(path, ["n"] * 9)
    a.run(), b.run()
    assert last_screen(a) == last_screen(b)


def test_mille_hand_ends_show_their_score_sheet_and_the_next_deal(tmp_path: Path) -> None:
    path = random_record(tmp_path / "game.jsonl", "mille", {"edition": "wm2006", "players": 2}, 3)
    rep = replayed(path)
    sheets = rep.final.sheets
    assert len(sheets) > 2
    s = stepper(path, [">", ">", "<"])
    stops = list(s.stops())
    assert len(stops) == len(sheets) and stops[-1] == len(rep.moves)
    s.run()
    shown = screens(s.c.export_text(clear=False))
    assert shown[1].startswith(f"Move {stops[0]} of") and "Score sheet — Hand 1" in shown[1]
    assert "Hand 2: the deal" in shown[1]
    assert shown[2].startswith(f"Move {stops[1]} of") and "Score sheet — Hand 2" in shown[2]
    assert shown[3].startswith(f"Move {stops[0]} of")
    # the sheet is the record's, hand totals and running totals
    for total in sheets[0].totals:
        assert re.search(rf"Running total\s.*\b{total}\b", shown[1])
    # no score sheet before a hand's end
    s = stepper(path, [str(stops[0] - 1)])
    s.run()
    assert "Score sheet" not in last_screen(s)


def test_knightrider_turns_are_the_chapters(tmp_path: Path) -> None:
    settings = {"players": 2, "options": Options(quick_build=True, turn_limit=6)}
    path = random_record(tmp_path / "game.jsonl", "knightrider", settings, 1)
    s = stepper(path, [">", ">", ">", ">"])
    s.run()
    shown = screens(s.c.export_text(clear=False))
    assert shown[1].startswith("Move 1 of") and "cars wait at the start" in shown[1]  # the set-up's phases
    turns = [re.search(r"^turn (\d+): P\d", sc, re.M) for sc in shown[2:]]
    assert all(turns), shown[1][:600]
    numbers = [int(m.group(1)) for m in turns if m]
    assert numbers == sorted(numbers) and len(set(numbers)) == 3
    assert re.search(r"P\d rolls \d", shown[2])  # the rolls, in words


def test_every_hand_once_over_only_the_peoples_in_a_save(tmp_path: Path) -> None:
    settings = {"edition": "meilen", "players": 2}
    done = random_record(tmp_path / "done.jsonl", "mille", settings, 1)
    s = stepper(done, [])
    s.run()
    screen = last_screen(s)
    assert re.search(r"^ P1 ", screen, re.M) and re.search(r"^ P2 ", screen, re.M)
    assert "every hand is shown" in screen

    save = random_record(tmp_path / "save.jsonl", "mille", settings, 1, moves=10)
    rewrite_line(save, 0, tui={"human_seat": 0, "bots": [None, "random"]})
    c = recording_console(100)
    assert step_command(save, c, feed(["last"]), lang="en") == 0
    screen = screens(c.export_text(clear=False))[-1]
    assert "Move 10 of 10" in screen
    assert re.search(r"^ P1 \(human\) ", screen, re.M)
    assert not re.search(r"^ P2 ", screen, re.M)  # a bot's hand stays hidden while the game is on
    assert "only the hands of those who played here are shown (P1 (human))" in screen

    kr = random_record(tmp_path / "kr.jsonl", "knightrider", {"players": 2, "options": Options(quick_build=True)}, 2, 8)
    c = recording_console(100)
    assert step_command(kr, c, feed(["last"]), lang="en") == 0  # no "tui" seats: no hand at all
    assert "no hand is shown" in c.export_text(clear=False) and not re.search(
        r"^P\d: ", c.export_text(clear=False), re.M
    )


@pytest.mark.parametrize(("key", "settings", "seed"), SHORT)
def test_bad_input_is_named_and_the_end_of_input_or_ctrl_c_leave(
    tmp_path: Path, key: str, settings: dict[str, Any], seed: int
) -> None:
    path = random_record(tmp_path / "game.jsonl", key, settings, seed)
    n = len(replayed(path).moves)
    s = stepper(path, ["99999", "12345678901234567890", "fly away", "-3", "go", "p", "help"])
    assert s.run() == 0  # the end of input leaves
    out = s.c.export_text(clear=False)
    assert f"There is no move 99999: the moves are 1 to {n}" in out
    assert "There is no move 123456789012: the moves" in out
    assert "Not understood: fly away. Type help for the commands." in out
    assert "Not understood: -3." in out and "Not understood: go." in out
    assert "This is the start" in out and "the next / previous" in out
    assert s.k == 0

    def interrupted(prompt: str) -> str:
        raise KeyboardInterrupt

    c = recording_console(100)
    assert step_command(path, c, interrupted, lang="en") == 130
    assert "interrupted" in c.export_text(clear=False)


def test_in_the_players_language(tmp_path: Path) -> None:
    path = random_record(tmp_path / "game.jsonl", "mille", {"edition": "meilen", "players": 2}, 1)
    c = recording_console(100)
    step_command(path, c, feed(["5", "xyz", "help"]))  # meilen is German
    out = c.export_text(clear=False)
    assert "Zug 5 von 92" in out and "Nicht verstanden: xyz" in out and "Schritt für Schritt" in out
    kr = random_record(tmp_path / "kr.jsonl", "knightrider", SHORT[1][1], 1)
    for lang, said in (("hu", "Nem értem"), ("fr", "Pas compris"), (None, "Nicht verstanden")):
        c = recording_console(100)
        step_command(kr, c, feed(["xyz"]), lang=lang)
        assert said in c.export_text(clear=False), lang


def test_a_broken_record_is_refused(tmp_path: Path) -> None:
    path = random_record(tmp_path / "game.jsonl", "mille", {"edition": "meilen", "players": 2}, 1)
    rewrite_line(path, 5, player=7)
    c = recording_console(120)
    assert step_command(path, c, feed([]), lang="en") == 2
    out = c.export_text(clear=False)
    assert out.startswith("rallye replay:") and "line 6" in out and "Traceback" not in out
    odd = tmp_path / "odd.jsonl"
    odd.write_text('{"type": "header", "game": "chess"}\n', encoding="utf-8")
    c = recording_console(120)
    assert step_command(odd, c, feed([]), lang="en") == 2
    assert "the header names no known game" in c.export_text(clear=False)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    c = recording_console(120)
    assert step_command(empty, c, feed([]), lang="en") == 2
    assert step_command(tmp_path / "missing.jsonl", c, feed([]), lang="en") == 2


# -- the analysis ------------------------------------------------------------------------------
def analysis_of(path: Path, key: str) -> dict[str, Any]:
    """An analysis in the contract's shape: the third move judged a mistake (another legal
    move preferred), the fifth the preferred move, the rest not judged."""
    game = game_for(key)
    rep = replayed(path)
    state = rep.initial
    decisions = []
    for k, (seat, action) in enumerate(rep.moves, 1):
        legal = list(game.legal_actions(state))
        if k in (3, 5):
            other = next((a for a in legal if a != action), action)
            best = other if k != 5 else action
            decisions.append(
                {
                    "move": k,
                    "seat": seat,
                    "side": 0,
                    "hand": 0,
                    "played": game.format_action(action),
                    "best": game.format_action(best),
                    "candidates": [],
                    "loss_points": 0.0 if best == action else 37.5,
                    "loss_win": None if best == action else 0.125,
                    "mark": None if best == action else "mistake",
                    "win_before": [0.5, 0.5],
                    "hindsight": None,
                }
            )
        state = game.apply(state, action, seat)
    n = len(rep.moves)
    return {
        "format": 1,
        "game": key,
        "bot": "expert",
        "seed": 1,
        "sides": [[0], [1]],
        "moves": n,
        "decisions": decisions,
        "graph": [[0.5, 0.5]] * (n + 1),
        "players": [],
    }


@pytest.mark.parametrize(("key", "settings", "seed"), SHORT)
def test_an_analysis_shows_marks_and_the_preferred_move(
    tmp_path: Path, key: str, settings: dict[str, Any], seed: int
) -> None:
    path = random_record(tmp_path / "game.jsonl", key, settings, seed)
    data = analysis_of(path, key)
    first = data["decisions"][0]
    assert first["move"] == 3 and first["played"] != first["best"]
    file = tmp_path / "analysis.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    c = recording_console(120)
    assert step_command(path, c, feed(["3", "5", "1"]), lang="en", analysis=file) == 0
    shown = screens(c.export_text(clear=False))
    assert f"mistake · expert prefers {first['best']} (" in shown[1]
    lost = "37.5 points of the hand" if key == "mille" else "37.5 of the bot's value"  # Knight Rider keeps no score
    assert f"the move played gives up {lost}, 12.5 % of the chance to win" in shown[1]
    assert "analysis (expert): the preferred move" in shown[2]
    assert "analysis (expert): not judged" in shown[3]
    sides = "Side 1 50 %, Side 2 50 %" if key == "mille" else "P1 50 %, P2 50 %"
    assert f"estimated chance to win after the move: {sides}" in shown[1]
    assert "analysis" not in shown[0]


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda d: d.update(format=2), "the analysis has format 2; this rallye reads format 1"),
        (lambda d: d.update(game="knightrider"), 'an analysis of the game "knightrider", but the record is of mille'),
        (lambda d: d.update(moves=d["moves"] + 1), "the record has 92: not this game"),
        (lambda d: d["decisions"][0].update(played="discard D200"), "decision 1: move 3 is "),
        (
            lambda d: d["decisions"][0].update(seat=d["decisions"][0]["seat"] ^ 1),
            "decision 1: move 3 was played by seat",
        ),
        (lambda d: d["decisions"][0].update(best="fly"), 'decision 1: "fly" is not a move in the game\'s notation'),
        (
            lambda d: d["decisions"][0].update(best="extend"),
            "decision 1: the preferred move extend is not a legal move at move 3",
        ),
        (lambda d: d["decisions"][0].update(mark="brilliant"), "decision 1: field 'mark' is \"brilliant\""),
        (lambda d: d["decisions"][0].update(loss_points=-1), "decision 1: field 'loss_points' is -1; expected"),
        (lambda d: d["decisions"][1].update(move=3), "decision 2: move 3 is judged twice"),
        (lambda d: d["decisions"][0].update(move=0), "decision 1: field 'move' is 0; expected a move from 1 to 92"),
        (lambda d: d.update(decisions={}), "the analysis: field 'decisions' is {}; expected a list"),
        (lambda d: d.update(graph=[[0.5]]), "field 'graph' is [[0.5]]; expected a list of 93 points"),
        (lambda d: d["graph"].__setitem__(4, [2, -1]), "point 4 of the graph is [2, -1]"),
        (lambda d: d["decisions"].append("x"), "field '' is \"x\"; expected an object"),
    ],
)
def test_a_broken_or_mismatched_analysis_is_refused(tmp_path: Path, change: Any, said: str) -> None:
    path = random_record(tmp_path / "game.jsonl", "mille", {"edition": "meilen", "players": 2}, 1)
    data = analysis_of(path, "mille")
    change(data)
    file = tmp_path / "analysis.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    c = recording_console(200)
    assert step_command(path, c, feed([]), lang="en", analysis=file) == 2
    out = c.export_text(clear=False)
    assert out.startswith(f"rallye replay: {file}: ") and said in out, out


def test_an_analysis_that_is_not_json_or_missing_is_refused(tmp_path: Path) -> None:
    path = random_record(tmp_path / "game.jsonl", "mille", {"edition": "meilen", "players": 2}, 1)
    for content, said in (
        (b"{not json", "the analysis is not JSON"),
        (b"\xff\xfe", "the analysis is not JSON"),
        (b"[1, 2]", "the analysis is not a JSON object"),
        (b"[" * 100_000, "not JSON"),
    ):
        file = tmp_path / "a.json"
        file.write_bytes(content)
        c = recording_console(200)
        assert step_command(path, c, feed([]), lang="en", analysis=file) == 2
        assert said in c.export_text(clear=False)
    c = recording_console(200)
    assert step_command(path, c, feed([]), lang="hu", analysis=tmp_path / "nope.json") == 2
    assert "az elemzés nem olvasható" in c.export_text(clear=False)


def test_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = random_record(tmp_path / "game.jsonl", "mille", {"edition": "meilen", "players": 2}, 1)
    monkeypatch.setattr(sys, "stdin", io.StringIO("5\nq\n"))
    assert main(["replay", str(path), "--step", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Move 5 of 92" in out and "Move 6 of 92" not in out
    file = tmp_path / "a.json"
    file.write_text("{}", encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["replay", str(path), "--analysis", str(file), "--lang", "en"]) == 2  # --analysis steps
    assert "the analysis has format null" in capsys.readouterr().out
