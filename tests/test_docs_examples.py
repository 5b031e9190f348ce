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


def _anchors(page: Path) -> set[str]:
    """GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces to hyphens."""
    text = page.read_text(encoding="utf-8")
    heads = re.findall(r"^#+ (.+)$", re.sub(r"^```.*?^```", "", text, flags=re.S | re.M), re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in heads}


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_relative_link_resolves(page: Path) -> None:
    """Links between the README and the pages of docs/ (and their anchors) lead somewhere."""
    text = page.read_text(encoding="utf-8")
    for target, anchor in re.findall(r"\]\(([^)\s#]*)(?:#([^)\s]*))?\)", text):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        linked = (page.parent / target).resolve() if target else page
        assert linked.exists(), f"{page.relative_to(ROOT)} links to a missing {target}"
        if anchor and linked.suffix == ".md":
            assert anchor in _anchors(linked), f"{page.relative_to(ROOT)} links to a missing #{anchor} in {target}"
