"""The scripts of ``benchmarks/`` imported as modules, for their tests."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"

#: the ``ladder.py`` spec whose matches against ``medium`` make today's ``expert``'s record
#: (``benchmarks/results/h16track_*.csv`` but the first filter's 221000 and 231000; docs/bots.md,
#: "The 70 % goal"); ``tests/test_ladder_script.py`` checks the level is that bot
EXPERT_SPEC = (
    "pimc/deals=160/plies=8400/top_k=4/extra_discards=3/horizon=16/endgame=20/z=1.0/min_gain=0.0"
    "/style=fitted/track=1000"
)


def load(name: str) -> ModuleType:
    """``benchmarks/NAME.py`` as the module ``NAME``: the folder goes on the import path, as
    when a script runs from it (they import each other), and the module is importable by
    name, so its functions pickle for worker processes."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    return importlib.import_module(name)
