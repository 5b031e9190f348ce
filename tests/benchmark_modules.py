"""The scripts of ``benchmarks/`` imported as modules, for their tests."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load(name: str) -> ModuleType:
    """``benchmarks/NAME.py`` as the module ``NAME``: the folder goes on the import path, as
    when a script runs from it (they import each other), and the module is importable by
    name, so its functions pickle for worker processes."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    return importlib.import_module(name)
