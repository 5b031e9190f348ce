"""Issue 65, item 1: every new game's seed has 128 bits from ``secrets`` (a player who knows
their hand cannot search the seeds for the deal), and old records with small seeds still
replay. The server's tables are checked in tests/server/test_seeds.py."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from rallye.cli import main
from rallye.core.cli_args import seed
from rallye.core.record import read_jsonl
from rallye.core.rng import SEED_BITS, new_seed
from rallye.mille.record import replay_file
from rallye.sim.tournament import add_tournament_arguments, config_from_args
from rallye.tui.play import play_mille
from rallye.tui.replay import replay_command

DATA = Path(__file__).resolve().parent / "data"


def assert_new_seeds(seeds: list[int]) -> None:
    """Seeds of 128 random bits: none above 2^128, all different, and the largest of a few
    is long (a 128-bit draw is under 2^120 with probability 1/256)."""
    assert all(isinstance(s, int) and 0 <= s < 2**SEED_BITS for s in seeds)
    assert len(set(seeds)) == len(seeds)
    assert max(s.bit_length() for s in seeds) > 120


def test_new_seed_has_128_bits() -> None:
    assert SEED_BITS >= 128
    assert_new_seeds([new_seed() for _ in range(8)])
    # a seed that size is accepted back on the command line ("play this deal again")
    big = 2**SEED_BITS - 1
    assert seed(str(big)) == big and seed(str(-big)) == -big


def _console() -> Console:
    return Console(file=io.StringIO(), width=120, color_system=None, force_terminal=False)


def _play_args(save: Path) -> argparse.Namespace:
    return argparse.Namespace(
        game="mille", edition=None, players=None, seat=None, seed=None, bots="random",
        lang="en", save=str(save), resume=None, delay=0.0, humans=None,
    )  # fmt: skip


def test_rallye_play_deals_from_a_128_bit_seed_and_replay_verifies_it(tmp_path: Path) -> None:
    seeds = []
    for n in range(4):
        path = tmp_path / f"g{n}.jsonl"
        answers = iter(["1", "quit", ""])
        assert play_mille(_play_args(path), _console(), lambda prompt, a=answers: next(a)) == 0
        seeds.append(read_jsonl(path)[0][1]["seed"])
        replay_file(path)  # the saved game with its big seed replays and verifies
        assert replay_command(path, _console(), quiet=True) == 0
    assert_new_seeds(seeds)


def test_simulate_and_tournament_draw_a_seed_when_none_is_given(capsys: pytest.CaptureFixture[str]) -> None:
    seeds = []
    for _ in range(3):
        assert main(["simulate", "mille", "--games", "1", "--bots", "random", "--json"]) == 0
        seeds.append(json.loads(capsys.readouterr().out)["seed"])
    parser = argparse.ArgumentParser()
    add_tournament_arguments(parser)
    seeds += [config_from_args(parser.parse_args(["--bots", "random,easy"])).seed for _ in range(3)]
    assert_new_seeds(seeds)
    # a given seed is kept, so a report's seed plays the same games again
    assert config_from_args(parser.parse_args(["--bots", "random,easy", "--seed", "5"])).seed == 5


def test_an_old_record_with_a_small_seed_still_replays() -> None:
    path = DATA / "mille_hu_save_old_score_lines.jsonl"
    assert read_jsonl(path)[0][1]["seed"] == 78
    replay_file(path)
    assert replay_command(path, _console(), quiet=True) == 0
