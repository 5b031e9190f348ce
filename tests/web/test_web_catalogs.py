"""The pages' words: every id a page asks for exists in all four catalogs, alike in shape.

The pages look words up by id (``t("mille.log.play", {...})``, ``data-i18n="..."``); an id
missing from a catalog would show the bare id to a player, so the ids are read out of the
page sources and checked here, with their placeholders and plural forms.
"""

from __future__ import annotations

import json
import re

import pytest

from rallye.knightrider.actions import DETOUR_KINDS, KITT_KINDS
from rallye.web import CATALOGS, LANGUAGES, PAGES

#: Ids built at run time from a fixed set of values (prefix → the values).
DYNAMIC = {
    "language.": LANGUAGES,
    "game.": ("mille", "knightrider"),
    "level.": ("easy", "medium", "hard", "expert"),
    "status.": ("waiting", "playing", "over"),
    "mille.kind.": ("distance", "hazard", "remedy", "safety", "other"),
    "kr.effect.": ("ram", "oil", "jump", "target", "win"),
}


def catalog(lang: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((CATALOGS / f"{lang}.json").read_text("utf-8"))
    return data


def used_ids() -> set[str]:
    ids: set[str] = set()
    for path in PAGES.rglob("*"):
        if path.suffix not in (".js", ".html"):
            continue
        text = path.read_text("utf-8")
        ids |= set(re.findall(r"""\bt\(\s*"([a-z_][\w.]*)\"""", text))
        ids |= set(re.findall(r"""\"((?:kr|mille|table|lobby|error)\.[a-z_][\w.]*)\"""", text))
        ids |= set(re.findall(r"""data-i18n(?:-[a-z-]+)?="([\w.]+)\"""", text))
    for prefix, values in DYNAMIC.items():
        ids |= {prefix + v for v in values}
    return ids


def placeholders(value: object) -> set[str]:
    texts = value.values() if isinstance(value, dict) else [value]
    return {p for s in texts for p in re.findall(r"\{(\w+)\}", str(s))}


def test_every_id_a_page_uses_is_in_the_english_catalog() -> None:
    missing = sorted(used_ids() - set(catalog("en")))
    assert not missing, f"ids used by the pages but missing from en.json: {missing}"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_each_catalog_has_the_english_ids_shapes_and_placeholders(lang: str) -> None:
    en, other = catalog("en"), catalog(lang)
    assert set(other) == set(en), (sorted(set(en) - set(other)), sorted(set(other) - set(en)))
    for key, value in en.items():
        assert isinstance(other[key], dict) == isinstance(value, dict), f"{lang}: {key} plural or not"
        if isinstance(value, dict):
            assert isinstance(other[key], dict) and "other" in other[key] and "other" in value, key
        assert placeholders(other[key]) <= placeholders(value), f"{lang}: {key} names a placeholder English lacks"


def test_the_game_catalogs_the_pages_read_have_what_they_ask_for() -> None:
    """The Knight Rider page takes card names, directions and the ram and oil tables from the
    terminal's ``kr`` catalog (``tIn("kr", ...)``): those ids exist there in every language."""
    wanted = [f"card.{k}" for k in KITT_KINDS + DETOUR_KINDS] + [f"dir.{d}" for d in "NESW"]
    wanted += [f"{table}.{r}" for table in ("ram", "oil") for r in range(1, 7)]
    for lang in LANGUAGES:
        kr = json.loads((CATALOGS.parent / "kr" / f"{lang}.json").read_text("utf-8"))
        assert [w for w in wanted if w not in kr] == [], lang


def test_pages_load_nothing_from_another_host() -> None:
    for path in PAGES.rglob("*"):
        if path.suffix in (".js", ".html", ".css"):
            text = path.read_text("utf-8")
            refs = re.findall(r"""(?:src|href)=["']([^"']+)""", text) + re.findall(r"""url\(([^)]+)\)""", text)
            refs += re.findall(r"""from\s+["']([^"']+)""", text)
            for ref in refs:
                assert not re.match(r"^(https?:)?//", ref.strip("'\"")), f"{path.name} loads {ref}"
