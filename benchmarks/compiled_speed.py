"""The compiled build (``scripts/compile``) against the pure sources: the same moves, and
how much less CPU time each move takes.

Copies ``src/`` twice into a temporary folder, compiles one copy with ``scripts/compile``,
then plays the same 2-player wm2006 hands in each copy, in turn, in child processes: the
measured bot at seat 0 against the heuristic, as ``bot_speed.py`` does. Prints each
bot's CPU seconds a move in each build (mean over the rounds' moves) and the ratio, and
fails if any move differs between the builds.

    python benchmarks/compiled_speed.py --bots medium,hard,expert --hands 2 --rounds 2

Not a test: the compile alone takes about a minute, and the figures move with the load
(CPU time of each process, so a busy machine moves them less than it moves the wall clock).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def play(bot: str, hands: int) -> dict[str, Any]:
    """In a child: the measured bot's moves (notation) and CPU seconds, seat 0 of ``hands``
    2-player wm2006 hands against the heuristic (``bot_speed.py``'s games, whole budgets)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bot_speed import measure

    from rallye.mille import engine

    moves: list[str] = []
    times = measure(bot, hands, 2, "wm2006", moves=moves, exact=True)
    return {"moves": moves, "times": times, "module": engine.__file__}


def child(src: Path, bot: str, hands: int) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run(
        [sys.executable, __file__, "--child", bot, "--hands", str(hands)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    out: dict[str, Any] = json.loads(done.stdout)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bots", default="medium,hard,expert")
    ap.add_argument("--hands", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(play(args.child, args.hands)))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        builds = {}
        for name in ("pure", "compiled"):
            shutil.copytree(ROOT / "src", Path(tmp, name, "src"), ignore=shutil.ignore_patterns("*.so", "__pycache__"))
            builds[name] = Path(tmp, name, "src")
        Path(tmp, "compiled", "scripts").mkdir()
        shutil.copy(ROOT / "scripts" / "compile", Path(tmp, "compiled", "scripts", "compile"))
        subprocess.run(
            ["bash", str(Path(tmp, "compiled", "scripts", "compile"))], check=True, stdout=subprocess.DEVNULL
        )
        print(f"wm2006, 2 players, {args.hands} hands a bot, {args.rounds} rounds a build; CPU time a move")
        same = True
        for bot in args.bots.split(","):
            times: dict[str, list[float]] = {"pure": [], "compiled": []}
            moves: dict[str, list[str]] = {}
            for _ in range(args.rounds):
                for name, src in builds.items():  # in turn, so that load hits both alike
                    got = child(src, bot, args.hands)
                    if name == "compiled" and not got["module"].endswith(".so"):
                        raise SystemExit("the compiled copy did not load its compiled engine")
                    times[name] += got["times"]
                    if moves.setdefault(name, got["moves"]) != got["moves"]:
                        raise SystemExit(f"{bot}: the {name} build played differently from one round to the next")
            pure, fast = statistics.mean(times["pure"]), statistics.mean(times["compiled"])
            agree = moves["pure"] == moves["compiled"]
            same &= agree
            print(
                f"{bot:>9}: pure {1000 * pure:.2f} ms  compiled {1000 * fast:.2f} ms  ratio {pure / fast:.2f}x  "
                f"({len(moves['pure'])} moves, {'the same' if agree else 'MOVES DIFFER'})",
                flush=True,
            )
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
