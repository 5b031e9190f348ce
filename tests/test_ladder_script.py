"""``research/ladder.py``: the per-game CSV pairs the two seat orders of every deal."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmark_modules import EXPERT_SPEC
from rallye import mille
from rallye.agents.mille.levels import CPU_LIMITS
from rallye.core.values import attributes

LADDER = Path(__file__).resolve().parents[1] / "research" / "ladder.py"


def _run(out: Path, workers: int = 1, resume: bool = False) -> tuple[str, list[dict[str, str]]]:
    """The printed summary and the CSV rows, in deal and seat order (rows are written as
    games finish, which with two workers need not be that order)."""
    cmd = [sys.executable, str(LADDER), "--pairs", "medium:easy", "--hands", "--matches", "2"]
    cmd += ["--first-seed", "70", "--workers", str(workers), "--csv", str(out)] + (["--resume"] if resume else [])
    done = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=300)
    with out.open(newline="") as f:
        rows = list(csv.DictReader(f))
    return done.stdout, sorted(rows, key=lambda r: (int(r["deal_seed"]), int(r["seat_a"])))


def test_ladder_csv_has_one_row_per_game_and_reproduces(tmp_path: Path) -> None:
    printed, rows = _run(tmp_path / "a.csv")
    assert [(r["deal_seed"], r["seat_a"]) for r in rows] == [("70", "0"), ("70", "1"), ("71", "0"), ("71", "1")]
    assert all(r["a"] == "medium" and r["b"] == "easy" and r["hands"] == "1" for r in rows)
    wins = sum(float(r["result_a"]) for r in rows)
    assert f"medium wins {wins:5.1f}/4" in printed
    build = "compiled build (scripts/compile)" if mille.engine.__file__.endswith(".so") else "pure Python"
    assert printed.splitlines()[0].endswith(f"levels with their CPU ceiling, {build}")  # which build played
    for r in rows:  # a hand's result follows from its points
        pa, pb = int(r["points_a"]), int(r["points_b"])
        assert float(r["result_a"]) == (1.0 if pa > pb else 0.5 if pa == pb else 0.0)
    again, rows_again = _run(tmp_path / "b.csv", workers=2)
    assert rows_again == rows
    assert again.split("(")[0] == printed.split("(")[0]  # the same figures (the time may differ)


def test_ladder_refuses_an_unwritable_csv_before_playing(tmp_path: Path) -> None:
    bad = tmp_path / "no such dir" / "out.csv"
    cmd = [sys.executable, str(LADDER), "--pairs", "expert:medium", "--matches", "50", "--csv", str(bad)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert f"--csv: cannot write {bad}: No such file or directory" in done.stderr
    assert "wins" not in done.stdout  # no game was played


def test_ladder_exact_plays_whole_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--exact`` lifts the levels' CPU ceiling (as tournaments do); without it the levels
    keep it, as a person meets them."""
    monkeypatch.syspath_prepend(str(LADDER.parent))
    import ladder

    built: list[Any] = []
    real = ladder.build

    def spy(spec: str, seed: int, exact: bool = False) -> Any:
        bot = real(spec, seed, exact)
        if hasattr(bot, "deals"):
            bot.deals, bot.plies = 3, 60  # (a quick hand)
        built.append(bot)
        return bot

    monkeypatch.setattr(ladder, "build", spy)
    for exact, want in ((True, None), (False, CPU_LIMITS["hard"])):
        built.clear()
        ladder.play(("hard", "medium", 0, True, "wm2006", exact))
        assert [getattr(b, "cpu_limit", "-") for b in built] == [want, "-"]


def test_ladder_pairs_keep_the_truehands_colon(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(LADDER.parent))
    import ladder

    assert ladder.split_pair("expert:medium") == ("expert", "medium")
    assert ladder.split_pair("truehands:expert:medium") == ("truehands:expert", "medium")
    assert ladder.split_pair("medium:truehands:pimc/deals=3") == ("medium", "truehands:pimc/deals=3")
    assert ladder.split_pair("truehands-but-hazards:hard:easy") == ("truehands-but-hazards:hard", "easy")
    for bad in ("expert", "expert:medium:easy", "truehands:expert", "expert:"):
        with pytest.raises(ValueError, match="a pairing is A:B"):
            ladder.split_pair(bad)
    with pytest.raises(ValueError, match="needs a search bot"):
        ladder.build("truehands:medium", 0)
    with pytest.raises(ValueError, match="no card group 'wheels'"):
        ladder.build("truehands-but-wheels:expert", 0)
    assert ladder.build("truehands-but-hazards:hard", 0).hidden >= {"ACCIDENT", "FLAT_TIRE"}


def test_ladder_specs_take_numbers_and_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(LADDER.parent))
    import ladder

    bot = ladder.build("pimc/deals=7/z=0.5/style=fitted", 0)
    assert (bot.deals, bot.z, bot.style) == (7, 0.5, ladder.STYLES["fitted"])
    with pytest.raises(ValueError, match="unknown style"):
        ladder.build("pimc/style=wrong", 0)
    for spec in ("pimc/deals=abc", "pimc/z=x"):  # a word only for the style
        with pytest.raises(ValueError, match="the value must be a number"):
            ladder.build(spec, 0)


def test_ladder_refuses_a_malformed_pairing_before_playing() -> None:
    cmd = [sys.executable, str(LADDER), "--pairs", "expert:medium:easy", "--matches", "50"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--pairs: a pairing is A:B (two bots), not 'expert:medium:easy'" in done.stderr


def test_ladder_truehands_sees_the_true_state_of_every_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """The diagnostic is handed the game's true state before each of its decisions, and
    its deals keep the opponent's true hand (only the draw pile is reshuffled)."""
    monkeypatch.syspath_prepend(str(LADDER.parent))
    import ladder
    from mille_decisions import TrueHands

    from rallye import mille

    seen: list[bool] = []
    real_choose = TrueHands.choose
    real_sample = TrueHands._sample

    def choose(self: Any, view: Any, legal: Any) -> Any:
        seen.append(mille.view_for(self.state, self.state.current) == view)
        return real_choose(self, view, legal)

    def sample(self: Any, view: Any, *args: Any) -> Any:
        dealt = real_sample(self, view, *args)
        assert dealt.hands == self.state.hands
        assert sorted(dealt.deck[dealt.draw_pos :]) == sorted(self.state.deck[self.state.draw_pos :])
        return dealt

    monkeypatch.setattr(TrueHands, "choose", choose)
    monkeypatch.setattr(TrueHands, "_sample", sample)
    res, pa, pb, hands = ladder.play(("truehands:pimc/deals=3/plies=60", "medium", 5, True, "wm2006", True))
    assert hands == 1 and res == (1.0 if pa > pb else 0.5 if pa == pb else 0.0)
    assert seen and all(seen)


def test_expert_is_the_spec_its_record_was_played_as(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games docs/bots.md counts for ``expert`` were played under a ``pimc/...`` spec
    (``--exact``): the level is that bot, setting for setting, seeded the same."""
    monkeypatch.syspath_prepend(str(LADDER.parent))
    import ladder

    level, spec = ladder.build("expert", 7, exact=True), ladder.build(EXPERT_SPEC, 7, exact=True)
    assert (level.horizon, level.tracker.size) == (16, 1000)
    skip = {"name", "tracker", "rng"}
    assert {k: v for k, v in attributes(level).items() if k not in skip} == {
        k: v for k, v in attributes(spec).items() if k not in skip
    }
    assert level.tracker.size == spec.tracker.size
    assert level.rng.getstate() == spec.rng.getstate()
    assert level.tracker.rng.getstate() == spec.tracker.rng.getstate()


def test_ladder_resume_plays_only_the_missing_games_and_appends_them(tmp_path: Path) -> None:
    """A run stopped early is carried on with ``--resume``: the file ends with every game
    once, as one uninterrupted run writes them, and the figures are the same."""
    whole = tmp_path / "whole.csv"
    printed, rows = _run(whole)
    lines = whole.read_text(encoding="utf-8").splitlines(keepends=True)
    part = tmp_path / "part.csv"
    part.write_text("".join(lines[:3]), encoding="utf-8")  # the header and two games
    resumed, rows_resumed = _run(part, resume=True)
    assert rows_resumed == rows
    assert "medium vs easy: 2 of 4 games already in" in resumed
    assert _figures(resumed) == _figures(printed)
    again, rows_again = _run(part, resume=True)  # nothing left to play
    assert rows_again == rows and "4 of 4 games already in" in again and _figures(again) == _figures(printed)
    cmd = [sys.executable, str(LADDER), "--pairs", "medium:easy", "--hands", "--matches", "2", "--resume"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--resume needs --csv" in done.stderr


def _figures(printed: str) -> str:
    """The summary line's figures, without its time."""
    line = next(x for x in printed.splitlines() if " wins " in x)
    return line.split("(")[0]


HEADER = "a,b,deal_seed,seat_a,result_a,points_a,points_b,hands\n"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("a,b,c\n", "line 1 is not this script's header"),
        (HEADER + "medium,easy,70,0,1.0\n", "line 2: its fields are not the header's 8"),
        (HEADER + "medium,easy,70,0,one,700,0,1\n", "line 2: could not convert string to float: 'one'"),
        (HEADER + "medium,easy,70,2,1.0,700,0,1\n", "line 2: a seat is 0 or 1, a result 0, 0.5 or 1"),
        (
            HEADER + "medium,easy,70,0,1.0,700,0,1\nmedium,easy,70,0,0.0,0,700,1\n",
            "deal 70 seat 0 of medium vs easy has different results",
        ),
        (HEADER + "medium,easy,70", "its last line is incomplete"),
    ],
)
def test_ladder_resume_refuses_a_broken_file_before_playing(tmp_path: Path, content: str, message: str) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text(content, encoding="utf-8")
    cmd = [sys.executable, str(LADDER), "--pairs", "medium:easy", "--hands", "--matches", "2", "--csv", str(bad)]
    done = subprocess.run([*cmd, "--resume"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and message in done.stderr and "wins" not in done.stdout
    assert bad.read_text(encoding="utf-8") == content  # left as it was
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)  # without --resume: not overwritten
    assert done.returncode == 2 and "already holds games: --resume" in done.stderr
    assert bad.read_text(encoding="utf-8") == content


def test_ladder_compares_the_analysis_bots_moves_with_shadow_experts(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``--compare-csv`` (a job's seventh field, every K-th choice), two shadow experts
    at the analysis bot's seat see every view and, at every K-th choice, say what they would
    play: the counts of the analysis's moves that differ from the first, and of the two
    experts' that differ; the game itself is the analysis bot's (the same result as without)."""
    monkeypatch.syspath_prepend(str(LADDER.parent))
    import ladder

    seen: list[int] = []
    real = ladder.make_agent

    def small(game: str, level: str, seed: int, exact: bool = False) -> Any:
        bot = real(game, level, seed, exact=exact)
        if level != "expert":
            return bot
        bot.deals, bot.plies = 3, 60  # (a quick hand)
        return Counted(bot)

    class Counted:
        """A shadow expert whose views are counted (a wrapper: the compiled build's
        PimcAgent takes no method patched onto it)."""

        def __init__(self, bot: Any) -> None:
            self.bot = bot

        def observe(self, view: Any) -> Any:
            seen.append(view.seat)
            return self.bot.observe(view)

        def choose(self, view: Any, legal: Any) -> Any:
            seen.append(view.seat)
            return self.bot.choose(view, legal)

        def __getattr__(self, name: str) -> Any:
            return getattr(self.bot, name)

    monkeypatch.setattr(ladder, "make_agent", small)
    job = ("analysis:hard/8", "medium", 3, True, "wm2006", True)
    plain = ladder.play_hands(job)
    shadowed = ladder.play_hands((*job, 2))
    assert plain[0] == shadowed[0] and plain[2] == (0, 0, 0)
    compared, differ, experts_differ = shadowed[2]
    assert compared > 5 and 0 <= differ <= compared and 0 <= experts_differ <= compared
    assert seen and set(seen) == {1}  # seed 3: the analysis bot sits at seat 1; only its views
