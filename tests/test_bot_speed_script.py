"""``benchmarks/bot_speed.py``: it times a level or a ``pimc`` spec, move by move."""

from __future__ import annotations

from benchmark_modules import load


def test_it_times_every_move_of_a_level_and_of_a_spec() -> None:
    bot_speed = load("bot_speed")
    capped: list[bool] = []
    times = bot_speed.measure("pimc/deals=4/plies=200/horizon=4/cpu_limit=0.45", 1, 2, "wm2006", capped)
    assert len(times) == len(capped) > 10 and all(t >= 0 for t in times)
    assert len(bot_speed.measure("medium", 1, 2, "wm2006")) > 10
