"""The Mille Bornes table at every number of sides and every screen size: no pile's box lies
over another's (the empty Safeties and Distance boxes of three sides on a desktop did).

For 2 to 6 sides (1000 Meilen, each player a side; 6 players in three teams of 1000
Kilometer) at phone, tablet and desktop size, the page is shown its sides empty and then as
full as a hand can make them, in each language in turn; the bounding boxes of every pile (the discard, draw and totals
piles, each side's battle, speed, safeties and distance places and what lies in them) must
not intersect, and each side's boxes stay inside that side.

At every size (two phones, 390 × 844 and 360 × 740) everything of the game above the docked
hand (the bar, the turn, the piles, every side's name, km and places) lies within the first
screen, above the hand, and no card is smaller than the smallest the page draws (a phone's
safety, 1.7rem wide); on a phone your own side's cards are larger than the others' at four
sides or more; on a tablet and a desktop the safeties are as large as the design makes them
(an older, more specific rule kept a tablet's at a phone's size).
"""

from __future__ import annotations

from typing import Any

import pytest
from test_pages import state, wait_my_turn
from test_table_game import FULL_SIDES_JS, new_table
from web_helpers import Pages, shot

SIZES = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "small-phone": {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True},
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


# On a phone: whatever of the game lies outside the first screen or under the docked hand, and
# the cards of the sides smaller than the smallest the page draws; the sizes of the cards.
SCREEN_JS = """() => {
  const vw = innerWidth, vh = innerHeight, out = [], dock = document.getElementById('dock').getBoundingClientRect();
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const check = (e, what, above) => {
    const r = e.getBoundingClientRect(), at = [r.left, r.top, r.right, r.bottom].map(Math.round);
    if (!r.width || !r.height) return;
    if (r.left < -0.5 || r.right > vw + 0.5 || r.top < -0.5) out.push(`${what} off the screen: ${at}`);
    if (above && r.bottom > dock.top + 0.5) out.push(`${what} under the hand: ${at[3]} > ${Math.round(dock.top)}`);
    if (!above && r.bottom > vh + 0.5) out.push(`${what} below the screen: ${at[3]} > ${vh}`);
  };
  check(document.querySelector('.bar'), 'the bar', true);
  check(document.getElementById('turn'), 'the turn', true);
  document.querySelectorAll('.piles-row > .pile').forEach((p, i) => check(p, `pile ${i}`, true));
  for (const tab of document.querySelectorAll('.tableau')) {
    const side = `side ${tab.dataset.side}`;
    check(tab, side, true);
    check(tab.querySelector('h3'), `${side} name`, true);
    check(tab.querySelector('.km-text'), `${side} km`, true);
    tab.querySelectorAll('.slot dd').forEach((d) => check(d, `${side} ${d.parentElement.dataset.slot}`, true));
    for (const c of tab.querySelectorAll('.card.small')) {
      const w = c.getBoundingClientRect().width;
      if (w < 1.7 * rem - 0.5) out.push(`${side}: a card ${w.toFixed(1)} px wide, smaller than ${1.7 * rem} px`);
    }
  }
  document.querySelectorAll('#controls button').forEach((b, i) => check(b, `control ${i}`, false));
  if (scrollX || scrollY) out.push(`scrolled to ${scrollX}, ${scrollY}`);
  const widths = (sel) => [...document.querySelectorAll(sel)].map((c) => c.getBoundingClientRect().width);
  return {bad: out, mine: Math.max(0, ...widths('.tableau.mine .slot-battle .card.small')),
          others: Math.max(0, ...widths('.tableau:not(.mine) .slot-battle .card.small')),
          safeties: widths('.slot-safeties .card.small')};
}"""


def safety_width(size: str, sides: int) -> float:
    """The width (px) the design gives a side's safeties: a tablet's 3rem and a desktop's
    (where three sides stand next to each other, 2.3rem), and at four sides or more 2.3rem on
    both, so a side's places share a row; a phone's 1.7rem."""
    rem = {"tablet": 3 if sides < 4 else 2.3, "desktop": 3 if sides < 3 else 2.3}.get(size, 1.7)
    return rem * 16


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
            where = f"{size}, {sides} sides, {fill}"
            bad += [f"{where}: {b}" for b in overlaps(page.evaluate(BOXES_JS))]
            screen = page.evaluate(SCREEN_JS)
            bad += [f"{where}: {b}" for b in screen["bad"]]
            if "phone" in size:
                mine, others = screen["mine"], screen["others"]
                if shown > 3 and fill == "full" and not mine > others > 0:
                    bad.append(f"{where}: your side's cards ({mine} px) not larger than the others' ({others})")
            least = safety_width(size, shown)
            small = [w for w in screen["safeties"] if w < least - 0.5]
            bad += [f"{where}: a safety {w:.1f} px wide, the design's {least}" for w in small]
        page.context.close()
    assert not bad, "\n".join(bad[:40])
