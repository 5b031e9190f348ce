"""``scripts/screenshots``: the README's pictures of the two games' screens (issue 55, item 1)
are drawn by the terminal's own code from seeded games, and the committed ones are current."""

from __future__ import annotations

import html
import importlib.machinery
import importlib.util
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"


def _script() -> ModuleType:
    path = ROOT / "scripts" / "screenshots"
    loader = importlib.machinery.SourceFileLoader("rallye_screenshots", str(path))
    spec = importlib.util.spec_from_loader("rallye_screenshots", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def _screen_text(svg: str) -> str:
    found = re.search(r"<desc>(.*?)</desc>", svg, re.S)
    assert found, "the SVG carries no <desc> with the screen's text"
    return html.unescape(found.group(1)).strip()


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return _script()


def test_the_readme_shows_each_picture_the_script_draws(script: ModuleType) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert set(script.SCREENS) == {"mille.svg", "knightrider.svg"}
    for name in script.SCREENS:
        assert f"(docs/images/{name})" in readme, f"the README does not show docs/images/{name}"


@pytest.mark.parametrize("name", ["mille.svg", "knightrider.svg"])
def test_the_committed_screenshot_is_current(script: ModuleType, name: str) -> None:
    """The screen drawn today is the committed one; when the terminal's look changes on
    purpose, run ``PYTHONPATH=src python scripts/screenshots`` and commit the pictures."""
    fresh = script.render(name)
    ET.fromstring(fresh)  # well-formed SVG
    committed = (IMAGES / name).read_text(encoding="utf-8")
    ET.fromstring(committed)
    assert _screen_text(committed) == _screen_text(fresh), (
        f"docs/images/{name} is stale: run `PYTHONPATH=src python scripts/screenshots` and commit it"
    )


def test_the_screens_show_what_a_player_sees(script: ModuleType) -> None:
    """The pictures are the human's view at a decision: the box's card names and the moves to
    type (a play and an attack in Mille Bornes; moves with their paths in Knight Rider)."""
    from rallye.knightrider.names import card_name
    from rallye.mille.cards import CARDS
    from rallye.mille.edition import get_edition

    mille = _screen_text(script.render("mille.svg"))
    wm2006 = get_edition("wm2006")
    assert sum(f"{wm2006.card_name(c)} ({c})" in mille for c in CARDS) >= 5
    assert re.search(r"\bplay [A-Z_0-9]+\b", mille) and re.search(r"\battack \d [A-Z_]+\b", mille)
    kr = _screen_text(script.render("knightrider.svg"))
    assert "VV" in kr  # the villain on the map
    assert any(card_name(k, "de") in kr for k in ("MANTLE", "TURBO1", "TURBO2", "JUMP"))
    assert len(re.findall(r"^ *\d+ +#\d+ +[←↑→↓]+ ", kr, re.M)) >= 4  # numbered moves (#n on the map) with their paths


def test_the_script_writes_every_picture(script: ModuleType, tmp_path: Path) -> None:
    assert script.main(["--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(script.SCREENS)
