"""Post-game analysis (issue #61): stable verdicts on golden records, judged from the
acting player's view only (the no-leak property), marks by their thresholds, bad records
refused with a clear message, and the ``rallye analyse`` command's text and JSON."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rallye.agents.base import make_agent
from rallye.agents.mille.sampler import sample_state as mille_sample
from rallye.analysis import MARKS, POINT_MARKS, WIN_MARKS, analyse, decision_views, evaluator_for, mark
from rallye.analysis.analyse import judge
from rallye.analysis.command import sparkline
from rallye.cli import main
from rallye.core.errors import ConfigError, GameError, RecordError
from rallye.core.record import read_jsonl
from rallye.games import game_for
from rallye.i18n import LANGUAGES, translator
from rallye.knightrider.sampling import sample_state as kr_sample
from rallye.mille.engine import start_hand

from . import regen_golden

DATA = regen_golden.DATA
MILLE = DATA / "analysis" / "mille_meilen.jsonl"
KR = DATA / "knightrider" / "rules2_built_by_bots.jsonl"


@pytest.fixture(scope="module")
def golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(regen_golden.GOLDEN.read_text(encoding="utf-8"))
    return data


def test_golden_records_give_the_same_analysis(golden: dict[str, Any]) -> None:
    now = regen_golden.analyses()
    assert list(now) == list(golden)
    for record, old in golden.items():
        new = now[record]
        for a, b in zip(old["decisions"], new["decisions"], strict=True):
            assert a == b, f"{record}, move {a['move']}: golden {a} != now {b} (regen_golden.py if intended)"
        assert new == old, record


def test_the_golden_analyses_keep_the_contract(golden: dict[str, Any]) -> None:
    for record, data in golden.items():
        game = game_for(data["game"])
        rep = game.replay(read_jsonl(DATA / record))
        assert data["format"] == 1 and data["moves"] == len(rep.moves)
        assert len(data["graph"]) == data["moves"] + 1
        for point in data["graph"]:
            assert len(point) == len(data["sides"]) and all(0.0 <= w <= 1.0 for w in point)
        out = game.outcome(rep.final)
        if out.winners:  # the graph ends on the result
            assert data["graph"][-1] == [1.0 if s in out.winners else 0.0 for s in range(len(data["sides"]))]
        assert data["decisions"], record
        for d in data["decisions"]:
            seat, action = rep.moves[d["move"] - 1]
            assert d["seat"] == seat and d["played"] == game.format_action(action)
            played = [c for c in d["candidates"] if c["action"] == d["played"]]
            assert len(played) == 1  # the move played is always among the candidates
            assert d["candidates"][0]["action"] == d["best"]
            assert d["loss_win"] is None or d["loss_win"] >= 0
            assert d["loss_points"] is None or d["loss_points"] >= 0
            assert d["mark"] in (None, *MARKS)
            if d["played"] == d["best"]:
                assert d["mark"] is None and d["loss_win"] in (0.0, None) and d["loss_points"] in (0.0, None)
        for p in data["players"]:
            mine = [d for d in data["decisions"] if d["seat"] == p["seat"]]
            assert p["decisions"] == len(mine)
            assert sum(p["marks"].values()) == sum(1 for d in mine if d["mark"])
    mille = golden["analysis/mille_meilen.jsonl"]
    assert any(d["hindsight"] and d["hindsight"]["label"] == "hindsight" for d in mille["decisions"])
    assert any(d["mark"] for d in mille["decisions"])  # the easy bot's side is marked somewhere
    easy, medium = mille["players"][1], mille["players"][0]
    assert easy["loss_points"] > medium["loss_points"]


def test_the_same_seed_gives_the_same_analysis_and_another_seed_samples_other_deals() -> None:
    lines = read_jsonl(MILLE)[:25]  # the first moves: an unfinished record is analysed too
    a = analyse(lines, bot="hard", seed=1).to_json()
    assert analyse(lines, bot="hard", seed=1).to_json() == a
    b = analyse(lines, bot="hard", seed=2).to_json()
    assert [d["candidates"] for d in a["decisions"]] != [d["candidates"] for d in b["decisions"]]


def test_marks_by_their_thresholds() -> None:
    assert mark(0.0, 0.0, False) is None
    assert mark(POINT_MARKS[2] + 1, 0.5, False) is None  # not more than twice its error: no mark
    assert mark(POINT_MARKS[0] - 1, WIN_MARKS[0] - 0.001, True) is None
    assert mark(POINT_MARKS[0], None, True) == "inaccuracy"
    assert mark(POINT_MARKS[1], 0.0, True) == "mistake"
    assert mark(10.0, WIN_MARKS[2], True) == "blunder"  # the graver of the two scales
    assert mark(None, WIN_MARKS[1], True) == "mistake"


# -- the no-leak property: the analysis of a decision sees the acting player's view only --
def _decisions(path: Path) -> list[tuple[Any, int, Any, int]]:
    game = game_for(json.loads(path.read_text().splitlines()[0])["game"])
    rep = game.replay(read_jsonl(path))
    state, out = rep.initial, []
    for i, (seat, action) in enumerate(rep.moves):
        if len(game.legal_actions(state)) > 1:
            out.append((state, seat, action, i + 1))
        state = game.apply(state, action, seat)
    return out


MILLE_DECISIONS = _decisions(MILLE)
KR_DECISIONS = [d for d in _decisions(KR) if d[0].villain >= 0]  # the chase: the hands and escape cards hidden


#: per game: its decisions, the analysis bot, and a state drawn behind a view (the other
#: hands and the draw pile; Knight Rider: the hands, the escape cards and the dice)
NO_LEAK: dict[str, tuple[list[tuple[Any, int, Any, int]], str, Any]] = {
    "mille": (MILLE_DECISIONS, "hard", lambda view, rng, state: mille_sample(view, rng)),
    "knightrider": (KR_DECISIONS, "expert", lambda view, rng, state: kr_sample(view, rng, state.options)),
}


@pytest.mark.parametrize("key", list(NO_LEAK))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, 10**6), hidden=st.integers(0, 2**32))
def test_a_decision_is_judged_from_the_view_alone(key: str, which: int, hidden: int) -> None:
    game = game_for(key)
    decisions, bot, redraw = NO_LEAK[key]
    state, seat, action, move = decisions[which % len(decisions)]
    view = game.view_for(state, seat)
    other = redraw(view, random.Random(hidden), state)
    assert game.view_for(other, seat) == view
    evaluator = evaluator_for(key, bot, 5)
    a = judge(game, evaluator, state, seat, action, move)
    b = judge(game, evaluator, other, seat, action, move)
    assert a is not None and b is not None
    assert a[0].to_json() == b[0].to_json() and a[1] == b[1]


# -- ... and from the seat's earlier views: expert's hand tracker (2 players) --------------
def _two_player_record(seed: int, moves: int) -> list[dict[str, Any]]:
    """The record of the first ``moves`` moves of a 2-player wm2006 hand between ``medium`` bots."""
    game = game_for("mille")
    state = game.new(game.settings({"edition": "wm2006", "players": 2}), seed)
    lines = game.record_start(state)
    bots = [make_agent("mille", "medium", seed * 2 + s) for s in (0, 1)]
    for _ in range(moves):
        seat = game.current_player(state)
        assert seat is not None and not state.sheets
        view = game.view_for(state, seat)
        state = game.record_move(lines, state, seat, bots[seat].choose(view, game.legal_actions(state)))
    return lines


def _seen(initial: Any, moves: Sequence[tuple[int, Any]], seat: int) -> list[Any]:
    """``seat``'s views at each of its decisions along ``moves`` from ``initial``, and the view after them."""
    game = game_for("mille")
    state, out = initial, []
    for mover, action in moves:
        if mover == seat:
            out.append(game.view_for(state, seat))
        state = game.apply(state, action, mover)
    return [*out, game.view_for(state, seat)]


def hidden_twin(initial: Any, moves: Sequence[tuple[int, Any]], seat: int, rng: random.Random, swaps: int = 4) -> Any:
    """Another deal of the hand (``initial``, its first state) in which the same ``moves``
    show ``seat`` exactly what they showed it (its view at each of its decisions, and after
    the last move) but the hidden cards differ: cards of the deck swapped that the seat never
    saw by then (the other hand, the draw pile), each swap kept only when the moves are still
    legal and the seat's views unchanged."""
    want = _seen(initial, moves, seat)
    deck = list(initial.deck)
    done = 0
    for _ in range(3000):
        i, j = rng.sample(range(len(deck)), 2)
        if deck[i] == deck[j]:
            continue
        trial = deck.copy()
        trial[i], trial[j] = trial[j], trial[i]
        try:
            if _seen(_dealt(initial, trial), moves, seat) != want:
                continue
        except GameError:  # a move the other hand could no longer make
            continue
        deck, done = trial, done + 1
        if done == swaps:
            break
    assert done, "no card the seat never saw could be swapped"
    return _dealt(initial, deck)


def _dealt(initial: Any, deck: Sequence[str]) -> Any:
    s = initial
    return start_hand(
        s.edition, s.n_players, s.sides, s.side_of, s.seed, s.hand_no, s.dealer, s.totals, s.sheets, tuple(deck)
    )


TRACKED = _two_player_record(31, 48)
TRACKED_GAME = game_for("mille").replay(TRACKED)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(upto=st.integers(16, 47), hidden=st.integers(0, 2**32))
def test_a_decision_is_judged_from_the_seats_views_alone_now_and_before(upto: int, hidden: int) -> None:
    """Two deals that show the acting seat the same views, at every decision of the hand and
    now, but other hidden cards (the other hand, the draw pile): the same verdict, with
    expert's tracker following the opponent's hand through those views."""
    game = game_for("mille")
    initial, moves = TRACKED_GAME.initial, TRACKED_GAME.moves[:upto]
    seat, action = TRACKED_GAME.moves[upto]
    twin = hidden_twin(initial, moves, seat, random.Random(hidden))
    assert twin.deck != initial.deck
    verdicts = []
    for start in (initial, twin):
        *history, _ = _seen(start, moves, seat)
        state = start
        for mover, a in moves:
            state = game.apply(state, a, mover)
        evaluator = evaluator_for("mille", "expert/8", 5)
        verdicts.append(judge(game, evaluator, state, seat, action, upto + 1, history))
        tracker = evaluator.agent.tracker
        assert tracker is not None and tracker.updates + tracker.resets == len(history) + 1  # every view followed
    a, b = verdicts
    assert a is not None and b is not None
    assert a[0].to_json() == b[0].to_json() and a[1] == b[1]


def test_the_analysis_passes_each_seat_its_own_earlier_views() -> None:
    """``analyse`` judges a decision as one call with the seat's views before it
    (``decision_views`` of the record so far, as the coach is given them)."""
    game = game_for("mille")
    lines = TRACKED[:40]
    analysed = analyse(lines, bot="expert/8", seed=2).decisions[-3:]
    rep = game.replay(lines)
    for d in analysed:
        state = rep.initial
        for mover, a in rep.moves[: d.move - 1]:
            state = game.apply(state, a, mover)
        history = decision_views(game, lines[: 2 + d.move - 1], d.seat)
        assert len(history) == sum(1 for mover, _ in rep.moves[: d.move - 1] if mover == d.seat)
        evaluator = evaluator_for("mille", "expert/8", 2)
        alone = judge(game, evaluator, state, d.seat, rep.moves[d.move - 1][1], d.move, history)
        assert alone is not None and alone[0] == d


def test_the_tracker_follows_the_hand_whatever_order_the_decisions_are_asked_in() -> None:
    """The particles are a function of the seat's views: a decision asked alone (its tracker
    fed the hand from the start) is judged as it was along the record (the tracker carried
    from one decision to the next), and without the history it is judged otherwise somewhere."""
    game = game_for("mille")
    rep = game.replay(TRACKED)
    along = evaluator_for("mille", "expert/8", 4)
    asked = []
    state, seen = rep.initial, {0: [], 1: []}  # type: ignore[var-annotated]
    for i, (seat, action) in enumerate(rep.moves):
        view = game.view_for(state, seat)
        legal = game.legal_actions(state)
        if len(legal) > 1:
            asked.append((i, view, legal, tuple(seen[seat]), along.evaluate(view, legal, key=i, history=seen[seat])))
        seen[seat].append(view)
        state = game.apply(state, action, seat)
    alone = evaluator_for("mille", "expert/8", 4)
    blind = evaluator_for("mille", "expert/8", 4)
    differs = 0
    for i, view, legal, history, judged in asked[::-1][:8]:
        assert alone.evaluate(view, legal, key=i, history=history) == judged
        differs += blind.evaluate(view, legal, key=i) != judged
    assert differs  # the earlier views count


def test_the_history_is_the_seats_own() -> None:
    game = game_for("mille")
    rep = game.replay(TRACKED)
    state = rep.initial
    first = game.view_for(state, rep.moves[0][0])
    for seat, action in rep.moves[:3]:
        state = game.apply(state, action, seat)
    seat = game.current_player(state)
    assert seat is not None and seat != first.seat
    with pytest.raises(ValueError, match="its own seat's earlier decisions"):
        evaluator_for("mille", "expert/8").evaluate(
            game.view_for(state, seat), game.legal_actions(state), history=[first]
        )


def test_the_evaluator_answers_one_live_decision_with_the_move_asked_about() -> None:
    game = game_for("mille")
    state, seat, _, _ = MILLE_DECISIONS[3]
    view = game.view_for(state, seat)
    legal = game.legal_actions(state)
    worst = legal[-1]
    j = evaluator_for("mille", "expert").evaluate(view, legal, (worst,))
    assert j.candidates[0].action == j.best
    assert j.candidate(worst) is not None
    assert abs(sum(j.wins) - 1.0) < 1e-9


# -- bad input ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("", "empty"),
        ("{not json\n", "not valid JSON"),
        ('{"type": "header", "game": "chess"}\n', "names no known game"),
        ('{"type": "header"}\n', "names no known game"),
    ],
)
def test_a_broken_file_says_what_is_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(text, encoding="utf-8")
    assert main(["analyse", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rallye analyse: ") and said in err and "Traceback" not in err


def test_an_altered_record_names_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = MILLE.read_text(encoding="utf-8").splitlines()
    obj = json.loads(lines[5])
    obj["action"] = "play D200" if obj.get("action") != "play D200" else "play D25"
    lines[5] = json.dumps(obj)
    bad = tmp_path / "altered.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["analyse", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "line 6" in err and "Traceback" not in err
    assert main(["analyse", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_an_unknown_bot_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ConfigError, match="unknown analysis bot"):
        evaluator_for("mille", "grandmaster")
    with pytest.raises(ConfigError, match="budget factor"):
        evaluator_for("mille", "expert*0")
    assert main(["analyse", str(KR), "--bot", "nobody"]) == 2
    assert "unknown analysis bot" in capsys.readouterr().err
    with pytest.raises(RecordError):
        analyse([])


def test_a_smaller_budget_is_a_cheaper_search() -> None:
    """``NAME/K``: a K-th of the level's budget (the server's tests analyse with ``hard/8``)."""
    from rallye.analysis.evaluators import parse_spec

    assert parse_spec("hard/8") == ("hard", 1 / 8) and parse_spec("expert*2") == ("expert", 2)
    full, small = evaluator_for("mille", "hard"), evaluator_for("mille", "hard/8")
    assert (small.agent.deals, small.agent.plies) == (3, full.agent.plies // 8)
    assert evaluator_for("mille", "hard/64").agent.deals == 2  # two deals at least: a paired comparison
    kr = evaluator_for("knightrider", "expert/64").agent
    assert kr.top_k == 1
    for bad in ("hard/0", "hard/x", "hard/65", "hard*2/2"):
        with pytest.raises(ConfigError):
            evaluator_for("mille", bad)
    lines = read_jsonl(MILLE)
    quick = analyse(lines, bot="hard/8")
    assert quick.bot == "hard/8" and len(quick.graph) == quick.moves + 1 and quick.decisions


# -- the command --------------------------------------------------------------------------
def test_the_command_prints_the_contract_json(capsys: pytest.CaptureFixture[str], golden: dict[str, Any]) -> None:
    assert main(["analyse", str(KR), "--json", "--seed", "7"]) == 0
    assert json.loads(capsys.readouterr().out) == golden["knightrider/rules2_built_by_bots.jsonl"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_report_speaks_the_users_language(capsys: pytest.CaptureFixture[str], lang: str) -> None:
    assert main(["analyse", str(KR), "--seed", "7", "--lang", lang]) == 0
    out = capsys.readouterr().out
    t = translator(lang, "common")
    assert out.splitlines()[0] == t("analyse.title", path=str(KR), game="Knight Rider", moves=t.n("replay.n_moves", 52))
    assert t("analyse.graph") in out and t("analyse.mark_blunder") in out
    assert "move 44" not in out or lang == "en"


def test_the_report_shows_marks_and_hindsight_for_mille(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(MILLE), "--bot", "hard", "--seed", "7", "--hindsight", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Player 2 (side 2): agrees with the bot" in out
    assert "with hindsight (every card known)" in out and "inaccurac" in out


def test_sparkline() -> None:
    assert sparkline([0.0, 0.5, 1.0]) == "▁▅█"
    assert len(sparkline([0.5] * 500, width=60)) == 60
    assert sparkline([]) == ""
