"""The scripts of ``benchmarks/`` and ``research/`` imported as modules, for their tests."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
RESEARCH = Path(__file__).resolve().parents[1] / "research"

#: the ``ladder.py`` spec whose matches against ``medium`` make today's ``expert``'s record
#: (``research/results/h16track_*.csv`` but the first filter's 221000 and 231000; docs/bots.md,
#: "The 70 % goal"); ``tests/test_ladder_script.py`` checks the level is that bot
EXPERT_SPEC = (
    "pimc/deals=160/plies=8400/top_k=4/extra_discards=3/horizon=16/endgame=20/z=1.0/min_gain=0.0"
    "/style=fitted/track=1000"
)


def load(name: str) -> ModuleType:
    """``benchmarks/NAME.py`` or ``research/NAME.py`` as the module ``NAME``: the folders go
    on the import path, as when a script runs from one (they import each other), and the
    module is importable by name, so its functions pickle for worker processes."""
    for folder in (RESEARCH, BENCHMARKS):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
    return importlib.import_module(name)
