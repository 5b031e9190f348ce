"""The Mille Bornes table at every number of sides and every screen size: no pile's box lies
over another's (the empty Safeties and Distance boxes of three sides on a desktop did).

For 2 to 6 sides (1000 Meilen, each player a side; 6 players in three teams of 1000
Kilometer) at phone, tablet and desktop size, the page is shown its sides empty and then as
full as a hand can make them, in each language in turn; the bounding boxes of every pile (the discard, draw and totals
piles, each side's battle, speed, safeties and distance places and what lies in them) must
not intersect, and each side's boxes stay inside that side.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_pages import state, wait_my_turn
from test_table_game import FULL_SIDES_JS, new_table
from web_helpers import Pages, shot

SIZES = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "tablet": {"viewport": {"width": 820, "height": 1180}, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1366, "height": 768}},
}
LOCALES = ["fr-FR", "de-DE", "hu-HU", "en-GB"]
# (edition, players): the sides the page shows are the players, or the teams
TABLES: dict[int | str, tuple[str, int]] = {n: ("meilen", n) for n in range(2, 7)} | {"6-teams": ("wm2006", 6)}

# Every pile box: [where, its rectangle, the side it belongs to (null: the piles row)].
# A slot's own box holds its name and its content; what lies in it (an empty place, cards,
# the distance count) is checked too, since that is what overflowed its column.
BOXES_JS = """() => {
  const out = [];
  const box = (e, where, side) => {
    const r = e.getBoundingClientRect();
    if (r.width && r.height) out.push([where, [r.left, r.top, r.right, r.bottom], side]);
  };
  document.querySelectorAll('.piles-row > .pile').forEach((p, i) => box(p, `pile ${i}`, null));
  for (const tab of document.querySelectorAll('.tableau')) {
    const side = tab.dataset.side;
    box(tab, `side ${side}`, `frame ${side}`);
    for (const slot of tab.querySelectorAll('.slot')) {
      const name = `side ${side} ${slot.dataset.slot}`;
      box(slot.querySelector('dd'), name, side);
      const items = slot.querySelectorAll('dd > .empty, dd > .card, dd > .safety-played, dd > .dist-count');
      items.forEach((e, i) => box(e, `${name} item ${i}`, side));
    }
  }
  return out;
}"""


def overlaps(boxes: list[Any]) -> list[str]:
    """Pairs of boxes that intersect (more than half a pixel each way), and items outside
    their side's frame."""
    bad = []
    frames = {side[6:]: rect for _, rect, side in boxes if side and side.startswith("frame ")}
    piles = [(w, r, s) for w, r, s in boxes if not (s and s.startswith("frame "))]
    for i, (w1, a, s1) in enumerate(piles):
        if s1 is not None:
            f = frames[s1]
            if a[0] < f[0] - 0.5 or a[1] < f[1] - 0.5 or a[2] > f[2] + 0.5 or a[3] > f[3] + 0.5:
                bad.append(f"{w1} leaves its side: {a} in {f}")
        for w2, b, _ in piles[i + 1 :]:
            if w2.startswith(w1 + " item") or w1.startswith(w2 + " item"):
                continue  # a place and what lies in it
            if min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5:
                bad.append(f"{w1} {[round(x) for x in a]} overlaps {w2} {[round(x) for x in b]}")
    return bad


EMPTY_JS = """() => { const r = window.rallye; const m = structuredClone(r.state);
  for (const tab of m.view.tableaus) {
    tab.safeties = []; tab.coups = []; tab.battle = []; tab.speed = []; tab.d200 = 0; tab.km = 0; tab.distance = []; }
  r.receive(m); }"""


@pytest.mark.parametrize("size", list(SIZES))
def test_no_pile_lies_over_another(pages: Pages, base_url: str, size: str) -> None:
    bad: list[str] = []
    for n, (sides, (edition, players)) in enumerate(TABLES.items()):
        # each language in turn: a place's name is longer in one, shorter in another
        page = pages.new(locale=LOCALES[(n + list(SIZES).index(size)) % len(LOCALES)], **SIZES[size])
        seats = [{"kind": "person"}] + [{"kind": "bot", "level": "easy"}] * (players - 1)
        new_table(page, base_url, "mille", seats, edition=edition)
        wait_my_turn(page, 30, done="r.state.view.sheets.length > 0")
        shown = len(state(page)["view"]["tableaus"])
        assert shown == (3 if sides == "6-teams" else sides)
        for fill, script in (("empty", EMPTY_JS), ("full", FULL_SIDES_JS)):
            page.evaluate(script)
            page.wait_for_function("() => document.querySelectorAll('.tableau').length > 1")
            shot(page, f"layout-{size}-{sides}-{fill}", screen=True)
            bad += [f"{size}, {sides} sides, {fill}: {b}" for b in overlaps(page.evaluate(BOXES_JS))]
        page.context.close()
    assert not bad, "\n".join(bad[:40])
