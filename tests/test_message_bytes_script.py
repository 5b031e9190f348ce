"""``benchmarks/message_bytes.py``: it measures what a move sends each player, by field, and
the log as a delta sends less than the last 30 moves every time (docs/server.md)."""

from __future__ import annotations

from benchmark_modules import load
from rallye.server import table as table_module


def test_it_measures_a_match_and_the_delta_log_is_smaller() -> None:
    message_bytes = load("message_bytes")
    drawn = table_module.new_seed
    delta = message_bytes.measure("hu", 2, 1, 5, 6, False)
    full = message_bytes.measure("hu", 2, 1, 5, 6, True)
    assert table_module.new_seed is drawn  # the benchmark's fixed deals do not outlive it
    assert delta["moves"] == full["moves"] > 50  # the same deal, the same play
    assert delta["by_field"]["view"] == full["by_field"]["view"]
    assert delta["by_field"]["log"] * 10 < full["by_field"]["log"]
    assert delta["bytes_per_move_per_player"] < full["bytes_per_move_per_player"]
    assert 0 < delta["deflated_per_move_per_player"] < delta["bytes_per_move_per_player"]
