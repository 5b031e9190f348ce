"""The coach at the table in a real browser (issue #61, item 3): the "Hint" button at your turn
shows the analysis bot's move (the card and where it goes marked, for Knight Rider the place
on the map), how much better it is, and the reasons, in the page's language; it plays
nothing. On a phone it fits above the docked hand without scrolling; keyboard reachable, read
out, axe-clean in both colour schemes. The lobby's box allows the coach at a table of people.

The server under test answers with the ``hard`` coach (tests/web/web_helpers.py)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from test_pages import ready, state, wait_my_turn, wait_past
from test_table_game import DESKTOP, LANDSCAPE, PHONE, check_screen, new_table
from web_helpers import Pages, check_both_schemes, shot, small_targets

BOT = {"kind": "bot", "level": "easy"}

# The hinted card and the place it goes: on screen, above the docked hand, nothing scrolled.
IN_VIEW_JS = """() => {
  const vh = innerHeight, vw = innerWidth, bad = [];
  const dock = document.getElementById('dock').getBoundingClientRect();
  const marked = '.card-button.hinted, .tableau.hinted, .pile.hinted, #hint-box, #hint-button';
  for (const e of document.querySelectorAll(marked)) {
    const r = e.getBoundingClientRect();
    const off = r.top < -1 || r.left < -1 || r.bottom > vh + 1 || r.right > vw + 1;
    if (off) bad.push(['off screen', e.className, r.top, r.bottom]);
    const under = e.matches('.tableau, .pile') && r.bottom > dock.top + 1;
    if (under) bad.push(['under the hand', e.className, r.bottom, dock.top]);
  }
  return {scroll: [scrollX, scrollY], bad};
}"""


def _mille_choice(page: Any) -> dict[str, Any]:
    """This page's turn with a real choice (two legal moves or more), playing the first
    legal card until one comes."""
    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, "no choice came"
        wait_my_turn(page, 60, done="r.state.view.sheets.length > 0")
        s = state(page)
        assert not s["view"]["sheets"], "the hand ended before a choice came"
        plays = [e for e in s["legal"] if e["info"]["verb"] in ("play", "attack", "discard")]
        if len(s["legal"]) >= 2 and plays:
            return dict(s)
        page.evaluate("a => window.rallye.act(a)", s["legal"][0]["action"])
        wait_past(page, s["move_no"])


def _ask(page: Any, *, tap: bool) -> dict[str, Any]:
    button = page.locator("#hint-button")
    button.tap() if tap else button.click()
    page.wait_for_selector("#hint-box .hint-move")
    hint: dict[str, Any] = page.evaluate("window.rallye.hint")
    return hint


def test_a_hint_at_mille_on_a_phone(pages: Pages, base_url: str) -> None:
    anna = pages.new(locale="fr-FR", color_scheme="dark", **PHONE)
    new_table(anna, base_url, "mille", [{"kind": "person"}, BOT], edition="wm2006")
    assert anna.inner_text("#coach-note") == "Conseils permis"  # one person with bots: on
    s = _mille_choice(anna)
    assert anna.inner_text("#hint-button").strip().endswith("Conseil")
    hint = _ask(anna, tap=True)
    entry = next(e for e in s["legal"] if e["code"] == hint["code"])
    assert entry["action"] == hint["hint"]["best"]
    info = entry["info"]
    # the move marked: the card in the hand, the side or the pile it goes to
    assert anna.locator(".card-button.hinted").get_attribute("data-card") == info["card"]
    if info["verb"] == "discard":
        assert anna.locator(".pile.discard.hinted").count() == 1
    else:
        assert anna.locator(f".tableau.hinted[data-side='{info['side']}']").count() == 1
    # in words, in French: the move, the margin, the reasons (no catalog key left untranslated)
    words = anna.inner_text("#hint-box")
    assert words.startswith("Conseil :"), words
    assert "coach." not in words and "{" not in words, words
    reasons = anna.locator("#hint-box .hint-reasons li").count()
    assert reasons == len(hint["hint"]["reasons"]) >= 1
    assert "Conseil :" in anna.inner_text("#announce")  # read out once
    assert anna.get_attribute("#hint-button", "aria-expanded") == "true"
    # on a phone it all fits above the docked hand: nothing scrolled, nothing under the hand
    found = anna.evaluate(IN_VIEW_JS)
    assert found["scroll"] == [0, 0] and not found["bad"], found
    assert not small_targets(anna), small_targets(anna)
    shot(anna, "coach-mille-phone", screen=True, docs="web-coach-phone.png")
    check_both_schemes(anna, "a Mille Bornes hint on a phone")
    # the hint played nothing; the hinted card chosen, its place is marked too, and played
    assert state(anna)["move_no"] == s["move_no"]
    anna.locator(".card-button.hinted").tap()
    target = anna.locator(f"button.target.hinted[data-action='{entry['action']}']")
    assert target.count() == 1
    # the hint's first line stays; its reasons make room for every place the card can go
    assert anna.is_visible("#hint-box .hint-move") and anna.is_hidden("#hint-box .hint-reasons")
    check_screen(anna, "a hinted card chosen")
    target.tap()
    wait_past(anna, s["move_no"])
    assert anna.locator("#hint-box .hint-move").count() == 0  # the next decision has no hint yet


def test_a_hint_at_mille_on_a_desktop_with_the_keyboard(pages: Pages, base_url: str) -> None:
    anna = pages.new(locale="en-GB", **DESKTOP)
    new_table(anna, base_url, "mille", [{"kind": "person"}, BOT, BOT], edition="wm2006")
    s = _mille_choice(anna)
    anna.evaluate("document.activeElement && document.activeElement.blur()")
    for _ in range(80):  # Tab reaches the button
        anna.keyboard.press("Tab")
        if anna.evaluate("document.activeElement && document.activeElement.id") == "hint-button":
            break
    else:
        raise AssertionError("the hint button is not reachable with Tab")
    anna.keyboard.press("Enter")
    anna.wait_for_selector("#hint-box .hint-move")
    assert anna.evaluate("document.activeElement.id") == "hint-button"  # the focus stays put
    words = anna.inner_text("#hint-box")
    assert words.startswith("Hint:") and ("Better than" in words or "About as good" in words), words
    shot(anna, "coach-mille-desktop", screen=True)
    check_both_schemes(anna, "a Mille Bornes hint on a desktop")
    # pressed again: put away, and the marks go with it
    anna.keyboard.press("Enter")
    assert anna.locator("#hint-box .hint-move").count() == 0
    assert anna.locator(".hinted").count() == 0
    assert state(anna)["move_no"] == s["move_no"]


@pytest.mark.parametrize("where", ["three sides on a phone", "a phone held sideways"])
def test_a_hinted_card_chosen_leaves_every_place_in_sight(pages: Pages, base_url: str, where: str) -> None:
    """With a card chosen the hint keeps its first line only: where the screen is shortest
    (three sides on a phone, a phone held sideways), every place the card can go stays above
    the hand, the hinted one marked."""
    sideways = where == "a phone held sideways"
    anna = pages.new(locale="de-DE", **(LANDSCAPE if sideways else PHONE))
    new_table(anna, base_url, "mille", [{"kind": "person"}, BOT] + ([] if sideways else [BOT]), edition="wm2006")
    _mille_choice(anna)
    hint = _ask(anna, tap=True)
    anna.locator(".card-button.hinted").tap()
    assert anna.locator(f"button.target.hinted[data-action='{hint['hint']['best']}']").count() == 1
    assert anna.is_visible("#hint-box .hint-move") and anna.is_hidden("#hint-box .hint-margin")
    check_screen(anna, f"a hinted card chosen, {where}")
    shot(anna, f"coach-mille-chosen-{'landscape' if sideways else 'phone-3'}", screen=True)


def test_a_hint_at_knight_rider(pages: Pages, base_url: str) -> None:
    anna = pages.new(locale="de-DE", **PHONE)
    new_table(anna, base_url, "knightrider", [{"kind": "person"}, BOT], options={"quick_build": True})
    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, "no move to choose came"
        wait_my_turn(anna)
        s = state(anna)
        kinds = [e["info"]["kind"] for e in s["legal"]]
        if "move" in kinds and len(kinds) >= 2:
            break
        if kinds:
            anna.evaluate("a => window.rallye.act(a)", s["legal"][0]["action"])
            wait_past(anna, s["move_no"])
    hint = _ask(anna, tap=True)
    entry = next(e for e in s["legal"] if e["code"] == hint["code"])
    words = anna.inner_text("#hint-box")
    assert words.startswith("Tipp:") and "coach." not in words, words
    # the move marked on the map (its field, its path) or in the controls (a card, end the turn)
    assert anna.locator(".hinted").count() >= 1
    if entry["info"]["kind"] == "move":
        assert anna.locator("g.choice.dest.hinted").count() == 1
        assert anna.locator(".hint-path").count() == 1
        seen = anna.evaluate(
            """() => { const s = document.querySelector('.kr-scroll').getBoundingClientRect();
            const c = document.querySelector('g.choice.dest.hinted').getBoundingClientRect();
            return c.left >= s.left - 1 && c.right <= s.right + 1
              && c.top >= s.top - 1 && c.bottom <= s.bottom + 1; }"""
        )
        assert seen, "the hinted field is inside the map's window"
    assert state(anna)["move_no"] == s["move_no"]
    shot(anna, "coach-kr-phone", screen=True)
    check_both_schemes(anna, "a Knight Rider hint on a phone")


def test_the_lobby_asks_about_the_coach_for_a_table_of_people(pages: Pages, base_url: str) -> None:
    page = pages.new(locale="hu-HU", **PHONE)
    page.goto(base_url + "/")
    ready(page)
    assert page.is_hidden("#coach-row")  # one person with bots: the coach is simply there
    page.locator("#seat-list li").nth(1).locator("select.kind").select_option("person")
    assert page.is_visible("#coach-row")
    assert page.inner_text("#coach-row label").strip() == "Az edző tippjeinek engedélyezése"
    assert not page.is_checked("#coach")  # off unless the creator allows it
    assert not small_targets(page), small_targets(page)
    page.fill("#name", "Anna")
    with page.expect_response(lambda r: r.url.endswith("/api/tables")) as made:
        page.click("#create-form button[type=submit]")
    assert made.value.json()["table"]["coach"] is False
    page.click("#go")
    ready(page)
    assert page.inner_text("#coach-note") == "Nincsenek tippek"  # shown to everyone at the table
    # allowed this time: the table says so, and so does "Your tables"
    page.goto(base_url + "/")
    ready(page)
    page.locator("#seat-list li").nth(1).locator("select.kind").select_option("person")
    page.check("#coach")
    with page.expect_response(lambda r: r.url.endswith("/api/tables")) as made:
        page.click("#create-form button[type=submit]")
    code = made.value.json()["code"]
    assert made.value.json()["table"]["coach"] is True
    page.wait_for_selector(f"#mine a[href='/t/{code}']")
    assert "Tippek engedélyezve" in page.locator("#mine li", has=page.locator(f"a[href='/t/{code}']")).inner_text()
    page.goto(f"{base_url}/t/{code}")
    ready(page)
    assert page.inner_text("#coach-note") == "Tippek engedélyezve"


# A hint whose reasons name another side (Mille Bornes) or player (Knight Rider), given to the
# page as the server would send it: the page says the name it shows, in its language.
NAMED_HINT_JS = """(reasons) => { const r = window.rallye; const s = r.state;
  r.receive({type: "hint", move_no: s.move_no, code: s.legal[0].code, ref: null,
    hint: {best: s.legal[0].action, next: null, margin: {points: null, win: null, equal: false}, win: null,
      reasons}}); }"""


@pytest.mark.parametrize("lang", ["de", "en", "fr", "hu"])
def test_a_reason_names_a_side_as_the_page_does(pages: Pages, base_url: str, lang: str) -> None:
    anna = pages.new(locale=lang, **DESKTOP)
    new_table(anna, base_url, "mille", [{"kind": "person"}, BOT, BOT], edition="wm2006")
    wait_my_turn(anna, 60, done="r.state.view.sheets.length > 0")
    shown = anna.locator(".tableau[data-side='2'] h3").inner_text().strip()  # the third side's name
    reasons = [
        {"key": "coach.mille.attack_near_end_who", "params": {"km": 200, "side": 3}},
        {"key": "coach.mille.attack_stops_who", "params": {"side": 3, "remedy": "REPAIRS"}},
    ]
    anna.evaluate(NAMED_HINT_JS, reasons)
    said = anna.locator("#hint-box .hint-reasons li").all_inner_texts()
    assert len(said) == 2 and all(shown in line and "{" not in line for line in said), (shown, said)
    assert not any(line[0].islower() for line in said), said  # a sentence begins with a capital


def test_a_knight_rider_reason_names_the_player_as_the_page_does(pages: Pages, base_url: str) -> None:
    anna = pages.new(locale="hu-HU", **DESKTOP)
    new_table(anna, base_url, "knightrider", [{"kind": "person"}, BOT])
    wait_my_turn(anna, 60)
    shown = anna.evaluate("window.rallye.name(1)")
    reasons = [{"key": "coach.kr.rival_close_who", "params": {"player": 2, "count": 3}}]
    anna.evaluate(NAMED_HINT_JS, reasons)
    said = anna.locator("#hint-box .hint-reasons li").all_inner_texts()
    assert said == [f"{shown} már csak 3 pontnyira van a gonosztevőtől: egy dobással elkaphatja."], said
