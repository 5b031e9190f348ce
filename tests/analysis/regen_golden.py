"""Rewrite tests/data/analysis/golden.json: the analyses the golden test expects.

    python tests/analysis/regen_golden.py

Run it only when a change of the analysis is meant to change its verdicts (say why in the
commit); the test then checks the new file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rallye.analysis import analyse
from rallye.core.record import read_jsonl

DATA = Path(__file__).resolve().parents[1] / "data"
GOLDEN = DATA / "analysis" / "golden.json"
#: (record, bot, seed, hindsight): a short Mille Bornes match (one hand of the Meilen
#: edition, 2 players: expert's hand tracker follows each seat's views) and a short Knight
#: Rider game; an eighth of expert's deals (``expert/8``) keeps the test quick
CASES: tuple[tuple[str, str, int, bool], ...] = (
    ("analysis/mille_meilen.jsonl", "expert/8", 7, True),
    ("knightrider/rules2_built_by_bots.jsonl", "expert", 7, False),
)


def analyses() -> dict[str, Any]:
    return {
        record: analyse(read_jsonl(DATA / record), bot=bot, seed=seed, hindsight=hindsight).to_json()
        for record, bot, seed, hindsight in CASES
    }


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(analyses(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")
