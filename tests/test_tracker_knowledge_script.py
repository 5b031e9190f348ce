"""``research/tracker_knowledge.py``: it scores the tracker and the sampler on the same
decisions, and the tracker knows the heuristic's hand better."""

from __future__ import annotations

import pytest

from benchmark_modules import load


def test_the_tracker_shares_more_cards_with_the_true_hand_than_the_sampler() -> None:
    m = load("tracker_knowledge").measure(hands=3, first_seed=1, particles=100)
    assert m["decisions"] > 60
    assert 3 <= m["resets"] < m["decisions"] / 4  # each hand's first decision, and a few more
    assert 0 < m["sampler"] < m["tracker"] <= 7


def test_the_script_prints_both_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert load("tracker_knowledge").main(["--hands", "1", "--particles", "20"]) == 0
    out = capsys.readouterr().out
    assert "decisions followed" in out and "tracker" in out and "sampler" in out
    with pytest.raises(SystemExit):
        load("tracker_knowledge").main(["--particles", "0"])
