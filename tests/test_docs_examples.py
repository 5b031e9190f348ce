"""The Python examples in the README and in ``docs/`` run as written (issue 55, item 1: the
README's quick start moved, and its examples stay checked wherever they are)."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
EXAMPLES = [
    pytest.param(textwrap.dedent(code), id=f"{page.relative_to(ROOT)}#{n}")
    for page in PAGES
    for n, code in enumerate(
        re.findall(r"^\s*```python\n(.*?)^\s*```", page.read_text(encoding="utf-8"), re.S | re.M), 1
    )
]


def test_the_readme_and_the_engine_page_have_examples() -> None:
    ids = {p.id.split("#")[0] for p in EXAMPLES}
    assert {"README.md", "docs/engine.md"} <= ids


@pytest.mark.parametrize("code", EXAMPLES)
def test_the_example_runs(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(code, "<example>", "exec"), {})
