"""The batched Mille Bornes engine (``rallye.batch``) against OpenSpiel's C++ loop, in one run.

    python benchmarks/batch_speed.py [--seconds 3] [--rounds 4] [--size 256] [--sizes 1,16,256,4096]
        [--edition wm2006] [--players 2] [--games hearts,spades] [--rollouts 2000] [--no-compile-time] [--json]

A *decision* is one legal-action list, a uniformly random legal pick and the step:

* ``batch``: :meth:`MilleBatch.play_random`, ``--size`` games advanced together, the loop
  compiled (numba), one core; matches to the end, reset automatically;
* ``batch python loop``: the same through the array API a training loop uses, one call
  each a round: ``legal_mask()``, ``random_actions()``, ``step(actions, check=False)``;
* ``vector env``: :class:`rallye.rl.mille.vector.MilleVector`, the learner's random pick (the
  batch's compiled policy) then the other seats' random moves (compiled), each step
  returning every game's observation (270 floats, the learner's view) and mask: learner
  steps a second, and all seats' decisions a second;
* ``openspiel C++ GAME``: ``pyspiel.evaluate_bots`` with uniform random bots, whole games
  played in OpenSpiel's own C++ loop; decisions a game are counted by replaying sample
  games with random moves from Python (chance nodes are not decisions).

The rows run in ``--rounds`` rounds taken in turn (the machine's load hits all alike); each
rate is the median over rounds of CPU time (``time.process_time``). The ratio is the batch's
rate over the best OpenSpiel game's. Then: the rate by batch size, the memory a game holds,
the compile time at first use (a child process with an empty numba cache) and the start
with the cache filled (a second child process), and rollouts from given states (positions
of real hands loaded into the batch and played to the end of the hand) against
:class:`rallye.mille.playout.Playout` on the same positions.

``--json`` prints one JSON object instead of the table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # run from a checkout

from rallye import mille
from rallye.mille.playout import Playout

GOAL = 3_000_000


def batch_rate(edition: str, players: int, size: int, seconds: float, seed: int = 0) -> tuple[float, int]:
    """Random decisions a second of CPU time on ``size`` games: ``(rate, decisions)``."""
    from rallye.batch import MilleBatch

    games = MilleBatch(edition, players, size, seed=seed)
    games.play_random(1)  # compiled (or loaded from the cache) before the clock starts
    chunk = max(1, 20_000 // size)
    clock = time.process_time
    decisions = 0
    start = clock()
    while True:
        decisions += games.play_random(chunk)[0]
        elapsed = clock() - start
        if elapsed >= seconds:
            return decisions / elapsed, decisions


def batch_python_rate(edition: str, players: int, size: int, seconds: float, seed: int = 0) -> float:
    """The same decisions through the array API, one Python call each a round."""
    from rallye.batch import MilleBatch

    games = MilleBatch(edition, players, size, seed=seed)
    clock = time.process_time
    decisions = 0
    start = clock()
    while True:
        games.legal_mask()
        games.step(games.random_actions(), check=False)
        decisions += size
        elapsed = clock() - start
        if elapsed >= seconds:
            return decisions / elapsed


def vector_rate(edition: str, players: int, size: int, seconds: float, seed: int = 0) -> tuple[float, float]:
    """The vector environment (``rallye.rl.mille.vector.MilleVector``, random opponents
    compiled): ``(learner steps a second, all seats' decisions a second)``, each learner
    step returning every game's observation (270 floats) and mask; the learner's pick is
    the batch's compiled random policy."""
    from rallye.rl.mille.vector import MilleVector

    env = MilleVector(edition, players, size, seed)
    env.reset()
    clock = time.process_time
    steps = 0
    others = env.other_decisions
    start = clock()
    while True:
        env.step(env.games.random_actions())
        steps += size
        elapsed = clock() - start
        if elapsed >= seconds:
            return steps / elapsed, (steps + env.other_decisions - others) / elapsed


def openspiel_decisions_per_game(game: str, samples: int = 200) -> float:
    import pyspiel

    g = pyspiel.load_game(game)
    rnd = random.Random(0)
    decisions = 0
    for _ in range(samples):
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes(), strict=True)
                s.apply_action(rnd.choices(outcomes, probs)[0])
            else:
                s.apply_action(rnd.choice(s.legal_actions()))
                decisions += 1
    return decisions / samples


def openspiel_rate(game: str, per_game: float, seconds: float, seed: int = 0) -> float:
    """Decisions a second of CPU time in ``pyspiel.evaluate_bots`` (uniform random bots)."""
    import pyspiel

    g = pyspiel.load_game(game)
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(g.num_players())]
    clock = time.process_time
    games = 0
    start = clock()
    while True:
        for _ in range(50):
            pyspiel.evaluate_bots(g.new_initial_state(), bots, seed + games)
            games += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return games * per_game / elapsed


_CHILD = """
import sys, time
t0 = time.perf_counter()
sys.path.insert(0, {src!r})
from rallye.batch import MilleBatch
games = MilleBatch({edition!r}, {players}, 4)
games.play_random(2)
games.legal_mask(); games.step(games.random_actions()); games.rollouts()
print(time.perf_counter() - t0)
"""


def start_times(edition: str, players: int) -> tuple[float, float]:
    """Seconds from a fresh interpreter to a first random step, with an empty numba
    cache (everything compiled) and again with the cache it left."""
    src = str(Path(__file__).resolve().parents[1] / "src")
    code = _CHILD.format(src=src, edition=edition, players=players)
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out: list[float] = []
        for _ in range(2):
            done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            out.append(float(done.stdout.strip().splitlines()[-1]))
    return out[0], out[1]


def sample_positions(n: int, seed: int = 0) -> list[mille.MilleState]:
    """Positions from random 2-player wm2006 hands, a random number of decisions in."""
    rnd = random.Random(seed)
    out: list[mille.MilleState] = []
    while len(out) < n:
        s = mille.new_match("wm2006", 2, seed=rnd.randrange(1 << 30))
        for _ in range(rnd.randrange(60)):
            s = mille.apply(s, rnd.choice(mille.legal_actions(s)))
        if s.phase == "play" and not s.sheets:
            out.append(s)
    return out


def rollout_rates(positions: list[mille.MilleState], seconds: float) -> dict[str, float]:
    """Random rollouts to the end of the hand, per second of CPU time: ``Playout`` on the
    positions one by one; the batch with the positions loaded (load included, and not)."""
    from rallye.batch import MilleBatch

    clock = time.process_time
    rnd = random.Random(1)
    done = 0
    start = clock()
    while clock() - start < seconds:
        for s in positions:
            p = Playout(s)
            while not p.sheets and p.phase != "over":
                legal = p.legal_actions()
                p.apply(legal[rnd.randrange(len(legal))])
            done += 1
    playout = done / (clock() - start)
    games = MilleBatch("wm2006", 2, len(positions), seed=1, auto_reset=False)
    loads = rolls = 0.0
    done = decisions = 0
    while loads + rolls < seconds:
        t = clock()
        for b, s in enumerate(positions):
            games.load(b, s)
        t2 = clock()
        decisions += games.rollouts(to="hand")[1]
        loads += t2 - t
        rolls += clock() - t2
        done += len(positions)
    return {
        "playout_rollouts_per_s": playout,
        "batch_rollouts_per_s_with_load": done / (loads + rolls),
        "batch_rollouts_per_s": done / rolls,
        "batch_load_us_per_state": 1e6 * loads / done,
        "batch_decisions_per_rollout": decisions / done,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per row (default 3), split over rounds")
    p.add_argument("--rounds", type=int, default=4, help="rounds taken in turn (default 4)")
    p.add_argument("--edition", default="wm2006")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--size", type=int, default=256, help="games in the batch (default 256)")
    p.add_argument("--sizes", default="1,16,256,4096", help="batch sizes for the rate by size ('' to skip)")
    p.add_argument("--games", default="hearts,spades", help="OpenSpiel games (default hearts,spades)")
    p.add_argument("--rollouts", type=int, default=1000, help="positions for the rollout rows (0 to skip)")
    p.add_argument("--no-compile-time", action="store_true", help="skip the two child processes")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1 or args.size < 1:
        p.error("--seconds, --rounds and --size must be positive")
    mille.get_edition(args.edition).sides_for(args.players)  # a clear error for a player count it lacks
    sizes = [int(x) for x in args.sizes.split(",") if x.strip()]
    spiel_games = [g for g in args.games.split(",") if g.strip()]
    per_round = args.seconds / args.rounds

    per_game = {g: openspiel_decisions_per_game(g) for g in spiel_games}
    rows: dict[str, list[float]] = {"batch": [], "batch_python": [], "vector": [], "vector_all": []}
    rows.update({g: [] for g in spiel_games})
    for r in range(args.rounds):
        rows["batch"].append(batch_rate(args.edition, args.players, args.size, per_round, seed=r)[0])
        rows["batch_python"].append(batch_python_rate(args.edition, args.players, args.size, per_round, seed=r))
        learner, everyone = vector_rate(args.edition, args.players, args.size, per_round, seed=r)
        rows["vector"].append(learner)
        rows["vector_all"].append(everyone)
        for g in spiel_games:
            rows[g].append(openspiel_rate(g, per_game[g], per_round, seed=1000 * r))
    med = {k: statistics.median(v) for k, v in rows.items()}
    best = max((med[g] for g in spiel_games), default=0.0)
    by_size = {b: batch_rate(args.edition, args.players, b, per_round, seed=b)[0] for b in sizes}
    from rallye.batch import MilleBatch

    result: dict[str, Any] = {
        "edition": args.edition,
        "players": args.players,
        "size": args.size,
        "seconds": args.seconds,
        "rounds": args.rounds,
        "batch_decisions_per_s": med["batch"],
        "batch_python_loop_decisions_per_s": med["batch_python"],
        "vector_env_learner_steps_per_s": med["vector"],
        "vector_env_decisions_per_s": med["vector_all"],
        "openspiel_cpp_decisions_per_s": {g: med[g] for g in spiel_games},
        "openspiel_decisions_per_game": per_game,
        "ratio": med["batch"] / best if best else None,
        "goal_decisions_per_s": GOAL,
        "meets_goal": med["batch"] >= GOAL and med["batch"] > best,
        "rounds_decisions_per_s": rows,
        "decisions_per_s_by_size": {str(b): v for b, v in by_size.items()},
        "memory_bytes_per_game": MilleBatch.memory_per_game(),
        "machine": f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}",
    }
    if not args.no_compile_time:
        cold, warm = start_times(args.edition, args.players)
        result["compile_start_seconds_cold_cache"] = cold
        result["start_seconds_warm_cache"] = warm
    if args.rollouts:
        result["rollouts"] = rollout_rates(sample_positions(args.rollouts), args.seconds)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(
        f"random decisions, {args.edition} {args.players} players, one core, CPU time, median of {args.rounds} rounds"
    )
    print(f"  {f'batch ({args.size} games, compiled loop)':<42}{med['batch']:>14,.0f} /s")
    print(f"  {'batch, Python loop over the array API':<42}{med['batch_python']:>14,.0f} /s")
    print(f"  {'vector env, learner steps with observations':<42}{med['vector']:>14,.0f} /s")
    print(f"  {'vector env, all seats decisions':<42}{med['vector_all']:>14,.0f} /s")
    for g in spiel_games:
        print(f"  {f'openspiel C++ {g} ({per_game[g]:.1f} decisions a game)':<42}{med[g]:>14,.0f} /s")
    if best:
        print(f"  {'ratio batch / best OpenSpiel':<42}{result['ratio']:>14.2f}")
    print(f"  goal {GOAL:,}/s and ahead of OpenSpiel: {'met' if result['meets_goal'] else 'NOT met'}")
    print("rate by batch size: " + ", ".join(f"B={b}: {v:,.0f}/s" for b, v in by_size.items()))
    print(f"memory a game: {result['memory_bytes_per_game']:,} bytes")
    if "start_seconds_warm_cache" in result:
        print(
            f"first start (compile): {result['compile_start_seconds_cold_cache']:.1f} s; "
            f"with the cache: {result['start_seconds_warm_cache']:.1f} s"
        )
    if args.rollouts:
        ro = result["rollouts"]
        print(
            f"rollouts to the end of the hand from {args.rollouts} positions: "
            f"Playout {ro['playout_rollouts_per_s']:,.0f}/s; "
            f"batch {ro['batch_rollouts_per_s']:,.0f}/s ({ro['batch_rollouts_per_s_with_load']:,.0f}/s with "
            f"loading the states, {ro['batch_load_us_per_state']:.0f} us a state)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
