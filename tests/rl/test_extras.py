"""The research frameworks are optional extras: the games and bots never import them."""

from __future__ import annotations

import subprocess
import sys


def test_games_and_bots_import_no_numpy_or_frameworks():
    code = (
        "import sys, rallye, rallye.mille, rallye.agents.base\n"
        "bad = sorted(m for m in ('numpy', 'gymnasium', 'pettingzoo', 'pyspiel', 'open_spiel') if m in sys.modules)\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
