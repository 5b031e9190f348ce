"""Decisions per second through each research adapter, next to the engine's own rate.

Every loop plays uniformly random legal moves in 2-player ``wm2006`` hands (one hand per
episode) and counts engine decisions (one ``mille.apply`` each):

* engine      ``legal_actions`` + ``apply`` on engine states (no encoding at all);
* pettingzoo  ``raw_env``: ``last()`` (observation + mask) and ``step`` per decision; and the
              ``env()`` with PettingZoo's wrappers;
* gymnasium   ``MilleEnv`` (one learner vs the ``random`` bot): the learner's decisions get
              an observation + mask, the bot's decisions a view;
* openspiel   ``legal_actions`` + ``apply_action`` per decision, then the same with the
              observation of the player to act, both as ``state.observation_tensor()`` (a
              new Python list each time, as ``rl_environment`` uses it) and as
              ``make_observation(game).set_from`` (a NumPy buffer); the 102 chance nodes
              that deal each hand are timed as well (they are not decisions).

Knight Rider rows (``--game knightrider`` or ``all``) play 2-player quick-build games with a
turn limit of 60, random legal moves, the same loops: engine, ``knightrider_v0.raw_env``
and ``env()``, ``KnightRiderEnv`` vs the ``random`` bot, and ``python_rallye_knightrider``
(its chance nodes — seed, dice, escape cards — are sampled and timed apart; each re-runs
``apply``).
As the engine row times ``new_game`` apart, the PettingZoo and Gymnasium rows time
``reset`` apart (for Gymnasium with the bots' moves before the learner's first turn);
its observation row uses ``make_observation(game).set_from`` (a NumPy buffer), because
``state.observation_tensor()`` copies the 67,005 floats into a Python list (~3 ms). The
last four Knight Rider rows are PettingZoo, Gymnasium and OpenSpiel's ``set_from`` again
with the compact observation (``obs_version=2``, :mod:`rallye.rl.knightrider.compact`: the same
values on the 16 × 16 squares, 24,765 floats).

``--phases EPISODES`` prints instead where a decision's time goes in the engine loop and in
the PettingZoo ``raw_env`` loop: the engine's calls, the adapter's (mask, view, encoding,
Knight Rider's action codes) and the rest.

``--keep N`` makes every loop that observes keep its last ``N`` observations, as a replay
buffer or a list of collected episodes does (PettingZoo's and Gymnasium's observation dicts
as returned, ``observation_tensor``'s list, a copy of the ``set_from`` buffer): a new vector
that is kept has to be written into fresh memory, which costs far more than one dropped at
once when it is large (Knight Rider's 99-268 KB), so these rows show what a training run
that stores its observations pays. The engine rows keep nothing (they observe nothing).

``--floor`` adds, for each game, the PettingZoo rows again with the observation (the view
and its encoding) replaced by one constant array; the mask is still computed. That is what
the protocol, the mask and the random pick cost if observing cost nothing, so the
observation's share of a PettingZoo row is the difference between the two.

The figure compared is CPU time per decision (``time.process_time``, steadier than the
wall clock on a shared machine). The loops run interleaved, episode by episode, in
``--rounds`` rounds of ``seconds / rounds`` each, so a change in the machine's load hits
every row alike and the ratios stay comparable. Each line gives the ratio over all rounds
and, as a steadier figure where the load comes in bursts (a shared virtual machine's
ratios moved by a third between whole runs), the median and the range of the ratios taken
within each round against the engine's turn of that round. Every loop picks its random legal move the
same way as the engine loop (``random.Random.randrange`` over the legal codes, from
``mask.view(bool).nonzero()[0]`` in the adapters: NumPy's ``nonzero`` over an ``int8``
array takes a slow generic path, ~70 us for Knight Rider's 15,753 codes on the reference
machine, against ~3 us through a boolean view of the same bytes, and a policy reads its
mask as booleans anyway). Target: every adapter within 2x the engine's time.

    python benchmarks/env_speed.py [--seconds 3] [--rounds 12] [--game mille|knightrider|all] [--floor] [--keep N]
    python benchmarks/env_speed.py --phases 1000 [--game mille|knightrider|all]
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import time
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from rallye import mille

# A loop is a generator: one ``(decisions, excluded seconds, excluded units)`` per episode,
# where the excluded time (dealing, chance nodes, new games) is reported apart.
Loop = Iterator[tuple[int, float, int]]


def _keeper(keep: int) -> Callable[[Any], None] | None:
    """``append`` of a buffer holding the last ``keep`` observations (``--keep``), or ``None``."""
    return deque(maxlen=keep).append if keep > 0 else None


def _pick(mask: np.ndarray, rng: random.Random) -> int:  # see the module docstring
    legal = mask.view(np.bool_).nonzero()[0]  # the legal codes
    return int(legal[rng.randrange(len(legal))])


def engine_loop() -> Loop:
    rng = random.Random(0)
    seed = 0
    while True:
        s = mille.new_match("wm2006", 2, seed=seed)
        seed += 1
        hand = s.hand_no
        n = 0
        while not mille.is_over(s) and s.hand_no == hand:
            legal = mille.legal_actions(s)
            s = mille.apply(s, legal[rng.randrange(len(legal))])
            n += 1
        yield n, 0.0, 0


def _aec_loop(env: Any, setup: bool, keep: int = 0) -> Loop:
    rng = random.Random(0)
    store = _keeper(keep)
    seed = 0
    while True:
        s0 = time.process_time()
        env.reset(seed=seed)
        reset_time = time.process_time() - s0 if setup else 0.0
        seed += 1
        n = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if store is not None:
                store(obs)
            if term or trunc:
                env.step(None)
                continue
            env.step(_pick(obs["action_mask"], rng))
            n += 1
        yield n, reset_time, 1


def pettingzoo_loop(wrapped: bool, floor: bool = False, keep: int = 0) -> Loop:
    from rallye.rl import mille_v0

    env = mille_v0.env() if wrapped else mille_v0.raw_env()
    return _aec_loop(_without_observation(env) if floor else env, setup=False, keep=keep)


def _without_observation(env: Any) -> Any:
    """``env`` with its adapter's ``observe`` returning one constant array (``--floor``)."""
    adapter = env.unwrapped.adapter
    constant = np.zeros(adapter.obs_size, dtype=np.float32)
    adapter.observe = lambda state, seat: constant
    return env


class _Counting:
    """Wraps an adapter's ``apply`` to count engine decisions."""

    def __init__(self, adapter: Any) -> None:
        self.n = 0
        self._apply: Callable[[Any, Any], Any] = adapter.apply
        adapter.apply = self

    def __call__(self, state: Any, action: Any) -> Any:
        self.n += 1
        return self._apply(state, action)


def _gym_loop(env: Any, setup: bool = False, keep: int = 0) -> Loop:
    """``setup``: ``reset`` (the new game and the bots' moves before the learner's first
    turn) is timed and counted apart, as the engine row does with ``new_game``."""
    counter = _Counting(env.adapter)
    rng = random.Random(0)
    store = _keeper(keep)
    seed = 0
    while True:
        s0 = time.process_time()
        before = counter.n
        obs, _ = env.reset(seed=seed)
        reset_time = 0.0
        if setup:
            reset_time = time.process_time() - s0
            before = counter.n
        seed += 1
        if store is not None:
            store(obs)
        done = False
        while not done:
            obs, _, term, trunc, _ = env.step(_pick(obs["action_mask"], rng))
            if store is not None:
                store(obs)
            done = term or trunc
        yield counter.n - before, reset_time, 1


def gymnasium_loop(keep: int = 0) -> Loop:
    from rallye.rl.gym_env import MilleEnv

    return _gym_loop(MilleEnv(opponents="random"), keep=keep)


def openspiel_loop(observe: str | None, keep: int = 0) -> Loop:
    import pyspiel
    from open_spiel.python.observation import make_observation

    import rallye.rl.mille.spiel as ms

    game = pyspiel.load_game(ms.SHORT_NAME)
    return _openspiel_hands(game, make_observation(game), observe, keep)


def _openspiel_hands(game: Any, observer: Any, observe: str | None, keep: int = 0) -> Loop:
    rng = random.Random(0)
    store = _keeper(keep)
    while True:
        d0 = time.process_time()
        s = game.new_initial_state()
        while s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply_action(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        deal_time = time.process_time() - d0
        n = 0
        while not s.is_terminal():
            if observe == "tensor":
                tensor = s.observation_tensor(s.current_player())
                if store is not None:
                    store(tensor)
            elif observe == "observer":
                observer.set_from(s, s.current_player())
                if store is not None:
                    store(observer.tensor.copy())  # the buffer is overwritten by the next call
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
            n += 1
        yield n, deal_time, 1


# ----------------------------------------------------------------------------- Knight Rider

KR_LIMIT = 60


def kr_engine_loop() -> Loop:
    from rallye import knightrider as kr

    return _kr_engine_games(kr, kr.Options(quick_build=True, turn_limit=KR_LIMIT))


def _kr_engine_games(kr: Any, opts: Any) -> Loop:
    rng = random.Random(0)
    seed = 0
    while True:
        s0 = time.process_time()
        s = kr.new_game(2, seed, opts)
        setup = time.process_time() - s0
        seed += 1
        n = 0
        while not kr.is_over(s):
            legal = kr.legal_actions(s)
            s = kr.apply(s, legal[rng.randrange(len(legal))])
            n += 1
        yield n, setup, 1


def kr_pettingzoo_loop(wrapped: bool = False, floor: bool = False, obs_version: int = 1, keep: int = 0) -> Loop:
    from rallye.rl import knightrider_v0

    env = (knightrider_v0.env if wrapped else knightrider_v0.raw_env)(turn_limit=KR_LIMIT, obs_version=obs_version)
    return _aec_loop(_without_observation(env) if floor else env, setup=True, keep=keep)


def kr_gymnasium_loop(obs_version: int = 1, keep: int = 0) -> Loop:
    from rallye.rl.gym_env import KnightRiderEnv

    env = KnightRiderEnv(opponents="random", turn_limit=KR_LIMIT, obs_version=obs_version)
    return _gym_loop(env, setup=True, keep=keep)


def kr_openspiel_loop(observe: bool, obs_version: int = 1, keep: int = 0) -> Loop:
    import pyspiel
    from open_spiel.python.observation import make_observation

    import rallye.rl.knightrider.spiel as ks

    game = pyspiel.load_game(f"{ks.SHORT_NAME}(turn_limit={KR_LIMIT},obs_version={obs_version})")
    observer = make_observation(game)  # a NumPy buffer; state.observation_tensor() builds a 67k-float list
    return _kr_openspiel_games(game, observer, observe, keep)


def _kr_openspiel_games(game: Any, observer: Any, observe: bool, keep: int = 0) -> Loop:
    rng = random.Random(0)
    store = _keeper(keep)
    while True:
        s = game.new_initial_state()
        n, chance_time, chance_nodes = 0, 0.0, 0
        while not s.is_terminal():
            if s.is_chance_node():
                c0 = time.process_time()
                outcomes = s.chance_outcomes()
                s.apply_action(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
                chance_time += time.process_time() - c0
                chance_nodes += 1
                continue
            if observe:
                observer.set_from(s, s.current_player())
                if store is not None:
                    store(observer.tensor.copy())  # the buffer is overwritten by the next call
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
            n += 1
        yield n, chance_time, chance_nodes


# ----------------------------------------------------------------------------- phases


@contextlib.contextmanager
def _timed(owner: Any, name: str, acc: dict[str, int], key: str, open_calls: list[int] | None = None) -> Iterator[None]:
    """While open, ``owner.name`` (a module function, a class's method or an object's, such
    as a game face's ``GAME.apply``) adds its time to
    ``acc[key]`` (nanoseconds). With ``open_calls`` (one list shared by the timers) a timed
    call inside another counts for its own key only: the outer one gets its time less the
    inner calls'."""
    fn = getattr(owner, name)
    own = name in vars(owner)  # (an object's method lives in its class: put back by deleting)
    clock = time.perf_counter_ns
    inner = open_calls if open_calls is not None else []

    def timed(*args: Any) -> Any:
        inner.append(0)
        t = clock()
        try:
            return fn(*args)
        finally:
            spent = clock() - t
            acc[key] += spent - inner.pop()
            if inner:
                inner[-1] += spent

    setattr(owner, name, timed)
    try:
        yield
    finally:
        if own:
            setattr(owner, name, fn)
        else:
            delattr(owner, name)


def phases(game: str, episodes: int) -> dict[str, dict[str, float]]:
    """Microseconds per decision spent in each part of a decision, in the engine loop and in
    the PettingZoo ``raw_env`` loop, over the same random games (``--phases``): the engine's
    own calls (``legal_actions``, ``apply``, timed in both loops: the environments call them
    through the game's face, ``GAME``), the adapter's (action
    codes, mask, view, encoding) and the rest (the random pick, PettingZoo's protocol and
    the loop itself). A timed call made inside another (the engine's ``legal_actions``
    inside Knight Rider's ``state_table``) counts for its own part only. Wall clock, each
    timed call paying for its two clock reads: a map of where the time goes, not a figure
    to compare with the rows above."""
    from rallye import knightrider as kr
    from rallye.rl.knightrider import compact as kcomp
    from rallye.rl.knightrider import encoding as kenc
    from rallye.rl.mille import encoding as menc

    clock = time.perf_counter_ns
    if game == "mille":
        engine: Callable[[], Loop] = engine_loop
        make: Callable[[], Loop] = lambda: pettingzoo_loop(wrapped=False)  # noqa: E731
        parts: list[tuple[Any, str, str]] = [
            (mille, "legal_actions", "legal_actions"), (mille, "apply", "apply"),
            (mille.GAME, "legal_actions", "legal_actions"), (mille.GAME, "apply", "apply"),
            (menc, "mask_from_legal", "mask"), (mille.GAME, "view_for", "view"),
            (menc.ViewEncoder, "encode", "encoding"),
        ]  # fmt: skip
    else:
        engine, make = kr_engine_loop, kr_pettingzoo_loop
        parts = [
            (kr, "legal_actions", "legal_actions"), (kenc, "legal_actions", "legal_actions"), (kr, "apply", "apply"),
            (kr.GAME, "apply", "apply"), (kenc, "state_table", "action codes"), (kenc, "mask_from_table", "mask"),
            (kr.GAME, "view_for", "view"),
            (kenc, "encode_view", "encoding"), (kcomp, "encode_view", "encoding"),
        ]  # fmt: skip
    out: dict[str, dict[str, float]] = {}
    for row, loop in (("engine", engine()), ("pettingzoo raw_env", make())):
        acc = dict.fromkeys([key for _, _, key in parts], 0)
        with contextlib.ExitStack() as stack:
            open_calls: list[int] = []
            for owner, name, key in parts:
                stack.enter_context(_timed(owner, name, acc, key, open_calls))
            n, t0, excluded = 0, clock(), 0.0
            for _ in range(episodes):
                d, e, _ = next(loop)
                n += d
                excluded += e
            total = clock() - t0 - 1e9 * excluded
        per = {key: ns / n / 1000 for key, ns in acc.items() if ns}
        per["the rest"] = total / n / 1000 - sum(per.values())
        per["total"] = total / n / 1000
        out[row] = per
    return out


def _print_phases(game: str, episodes: int) -> None:
    table = phases(game, episodes)
    rows = list(dict.fromkeys(k for per in table.values() for k in per))
    label = "2-player wm2006 hands" if game == "mille" else f"2-player Knight Rider games (turn limit {KR_LIMIT})"
    print(f"us per decision, {episodes} {label} (wall clock, timers included)")
    print(f"{'':16s}" + "".join(f"{name:>20s}" for name in table))
    for k in rows:
        print(f"{k:16s}" + "".join(f"{per[k]:20.1f}" if k in per else f"{'':20s}" for per in table.values()))


#: (name, decisions, seconds, note, per-round seconds per decision)
Row = tuple[str, int, float, str, list[float]]


def run_interleaved(loops: list[tuple[str, Loop, str]], seconds: float, rounds: int) -> list[Row]:
    """Run every loop for ``seconds`` of CPU time in all, ``rounds`` turns each, round robin.
    A row's note may hold ``{ms}`` / ``{us}``: the excluded time per excluded unit. Each row
    also keeps its time per decision round by round, so a ratio can be taken within each
    round (the engine's turn of the same round as the adapter's): a burst of load on the
    machine then moves one round's ratio, not the whole figure."""
    acc: dict[str, list[float]] = {name: [0, 0.0, 0.0, 0] for name, _, _ in loops}
    per_round: dict[str, list[float]] = {name: [] for name, _, _ in loops}
    for _ in range(rounds):
        for name, loop, _ in loops:
            a = acc[name]
            n0, ex0 = a[0], a[2]
            t0 = time.process_time()
            while time.process_time() - t0 < seconds / rounds:
                n, excluded, units = next(loop)
                a[0] += n
                a[2] += excluded
                a[3] += units
            spent = time.process_time() - t0
            a[1] += spent
            if a[0] > n0:
                per_round[name].append((spent - (a[2] - ex0)) / (a[0] - n0))
    rows: list[Row] = []
    for name, _, note in loops:
        count, t, out_time, out_units = acc[name]
        per = out_time / out_units if out_units else 0.0
        rows.append((name, int(count), t - out_time, note.format(ms=1000 * per, us=1e6 * per), per_round[name]))
    return rows


def round_ratios(row: Row, base: Row) -> list[float]:
    """``row``'s time per decision over ``base``'s, round by round (rounds both played)."""
    return [a / b for a, b in zip(row[4], base[4], strict=False) if b > 0]


def mille_rows(seconds: float, rounds: int, floor: bool = False, keep: int = 0) -> list[Row]:
    extra: list[tuple[str, Loop, str]] = []
    if floor:
        extra = [
            ("pettingzoo raw_env, no observation (floor)", pettingzoo_loop(wrapped=False, floor=True), ""),
            ("pettingzoo env(), no observation (floor)", pettingzoo_loop(wrapped=True, floor=True), ""),
        ]
    kept = f", {keep} kept" if keep else ""
    return run_interleaved(
        [
            ("engine (legal_actions + apply)", engine_loop(), ""),
            (f"pettingzoo raw_env (last + step){kept}", pettingzoo_loop(wrapped=False, keep=keep), ""),
            (f"pettingzoo env() with wrappers{kept}", pettingzoo_loop(wrapped=True, keep=keep), ""),
            (f"gymnasium MilleEnv vs random{kept}", gymnasium_loop(keep), ""),
            ("openspiel (legal_actions + apply_action)", openspiel_loop(None), "(+ dealing: {ms:.1f} ms/hand)"),
            (f"openspiel + observation_tensor{kept}", openspiel_loop("tensor", keep), ""),
            (f"openspiel + observer.set_from{kept}", openspiel_loop("observer", keep), ""),
            *extra,
        ],
        seconds,
        rounds,
    )


def knightrider_rows(seconds: float, rounds: int, floor: bool = False, keep: int = 0) -> list[Row]:
    reset = "(+ reset: {ms:.1f} ms/game)"
    extra: list[tuple[str, Loop, str]] = []
    if floor:
        extra = [
            ("KR pettingzoo raw_env, no observation (floor)", kr_pettingzoo_loop(floor=True), ""),
            ("KR pettingzoo env(), no observation (floor)", kr_pettingzoo_loop(wrapped=True, floor=True), ""),
        ]
    kept = f", {keep} kept" if keep else ""
    return run_interleaved(
        [
            ("KR engine (legal_actions + apply)", kr_engine_loop(), "(+ new_game: {ms:.1f} ms/game)"),
            (f"KR pettingzoo raw_env (last + step){kept}", kr_pettingzoo_loop(keep=keep), reset),
            (f"KR pettingzoo env() with wrappers{kept}", kr_pettingzoo_loop(wrapped=True, keep=keep), reset),
            (f"KR gymnasium KnightRiderEnv vs random{kept}", kr_gymnasium_loop(keep=keep), reset),
            ("KR openspiel (legal_actions + apply_action)", kr_openspiel_loop(False), "(+ chance: {us:.0f} us/node)"),
            (f"KR openspiel + observer.set_from{kept}", kr_openspiel_loop(True, keep=keep), ""),
            (f"KR pettingzoo raw_env, obs_version=2{kept}", kr_pettingzoo_loop(obs_version=2, keep=keep), reset),
            (f"KR pettingzoo env(), obs_version=2{kept}", kr_pettingzoo_loop(True, obs_version=2, keep=keep), reset),
            (f"KR gymnasium, obs_version=2{kept}", kr_gymnasium_loop(obs_version=2, keep=keep), reset),
            (f"KR openspiel + set_from, obs_version=2{kept}", kr_openspiel_loop(True, obs_version=2, keep=keep), ""),
            *extra,
        ],
        seconds,
        rounds,
    )


def _print(rows: list[Row]) -> None:
    """One line a loop: decisions per second and time per decision over all rounds, the
    ratio to the engine row over all rounds, then the median and the range of the ratios
    taken within each round."""
    base = rows[0]
    base_per = base[2] / base[1]
    head = f"{'loop':52s} {'decisions/s':>12s} {'us/decision':>12s} {'x engine':>9s}"
    print(f"{head} {'by round: median [min, max]':>28s}")
    for row in rows:
        name, n, t, note, _ = row
        per = t / n
        r = sorted(round_ratios(row, base))
        spread = f"{statistics.median(r):.2f} [{r[0]:.2f}, {r[-1]:.2f}]" if r else "-"
        print(f"{name:52s} {n / t:12.0f} {per * 1e6:12.1f} {per / base_per:9.2f} {spread:>28s}  {note}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="environment adapter speed vs the engine")
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per loop")
    ap.add_argument("--rounds", type=int, default=12, help="interleaved turns per loop")
    ap.add_argument("--game", choices=("mille", "knightrider", "all"), default="all")
    ap.add_argument("--floor", action="store_true", help="add the PettingZoo rows without the observation")
    ap.add_argument(
        "--keep", type=int, default=0, metavar="N", help="every observing loop keeps its last N observations"
    )
    ap.add_argument(
        "--phases", type=int, metavar="EPISODES", help="instead: where a decision's time goes, engine loop vs raw_env"
    )
    args = ap.parse_args(argv)
    if args.rounds < 1 or args.seconds <= 0:
        ap.error("--seconds must be positive and --rounds at least 1")
    if args.keep < 0:
        ap.error("--keep must be 0 (keep nothing) or more")
    if args.phases is not None:
        if args.phases < 1:
            ap.error("--phases needs at least 1 episode")
        for k, game in enumerate(g for g in ("mille", "knightrider") if args.game in (g, "all")):
            if k:
                print()
            _print_phases(game, args.phases)
        return
    if args.game in ("mille", "all"):
        _print(mille_rows(args.seconds, args.rounds, args.floor, args.keep))
    if args.game in ("knightrider", "all"):
        if args.game == "all":
            print()
        _print(knightrider_rows(args.seconds, args.rounds, args.floor, args.keep))


if __name__ == "__main__":
    main()
