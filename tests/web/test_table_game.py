"""The table as a game (issue #59): one screen on a phone, every moment seen, the hand's and
the match's summaries, a lost connection, every state checked by axe-core.

A whole Mille Bornes hand is played by tapping at phone size (390 × 844, a touch screen) and
by clicking at desktop size (1366 × 768); after every tap the test checks that nothing
scrolled and every place to tap is inside the screen (above the docked hand).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from test_pages import ready, state, wait_my_turn, wait_past
from web_helpers import Pages, Served, check_both_schemes, shot, small_targets

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LANDSCAPE = {"viewport": {"width": 844, "height": 390}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1366, "height": 768}}

# What must be on screen now: every card of the hand and every place the chosen card can go,
# inside the viewport, the places above the docked hand; and the page must not have scrolled.
LAYOUT_JS = """() => {
  const vw = innerWidth, vh = innerHeight, bad = [], root = document.documentElement;
  const wide = root.scrollWidth > root.clientWidth + 1 || vw > root.clientWidth + 1;
  if (wide) bad.push(['wider than the screen', root.scrollWidth]);
  const dock = document.getElementById('dock').getBoundingClientRect();
  for (const b of document.querySelectorAll('.card-button, button.target, #controls button')) {
    const r = b.getBoundingClientRect();
    if (!r.width) continue;
    const what = b.dataset.action || b.dataset.card || b.textContent.trim();
    const off = r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1;
    if (off) bad.push(['off screen', what, r.top, r.bottom]);
    if (b.matches('button.target') && r.bottom > dock.top + 1) bad.push(['under the hand', what, r.bottom, dock.top]);
  }
  return {scroll: [scrollX, scrollY], bad};
}"""


def new_table(page: Any, base_url: str, game: str, seats: list[Any], **settings: Any) -> str:
    """A table made through the API as a program would, this browser sitting at seat 0."""
    page.goto(base_url + "/")
    ready(page)
    made = page.request.post(
        base_url + "/api/tables",
        data={"game": game, "players": len(seats), "seats": seats, "sit": 0, "name": "Anna", **settings},
    ).json()
    page.evaluate(
        "m => localStorage.setItem('rallye.seats', JSON.stringify({[m.code]: {seat: m.seat, token: m.token}}))", made
    )
    page.goto(f"{base_url}/t/{made['code']}")
    ready(page)
    code: str = made["code"]
    return code


def my_turn_or_done(page: Any) -> None:
    wait_my_turn(page, 30, done="r.state.view.sheets.length > 0")


def check_screen(page: Any, where: str) -> None:
    found = page.evaluate(LAYOUT_JS)
    assert found["scroll"] == [0, 0], f"{where}: the page scrolled to {found['scroll']}"
    assert not found["bad"], f"{where}: {found['bad']}"


def tap_hand(page: Any, *, touch: bool, shots: str | None = None, docs: str | None = None) -> int:
    """Play the hand by tapping (or clicking) a card, then the place it goes, until the hand's
    score sheet is out; checks the screen after every tap. Returns the moves made."""
    press = (lambda loc: loc.tap()) if touch else (lambda loc: loc.click())
    made = 0
    marked = False
    deadline = time.monotonic() + 150
    while True:
        assert time.monotonic() < deadline, "the hand did not end in time"
        my_turn_or_done(page)
        s = state(page)
        if s["view"]["sheets"]:
            assert marked, "the other side's moves were marked where they landed"
            return made
        if s["view"]["events"] and s["view"]["events"][-1]["card"] and made:
            # the card played before this turn (the bot's) is marked where it landed
            assert page.locator(".last-move:not(.flying)").count() == 1
            marked = True
        before = s["move_no"]
        legal = s["legal"]
        answer = next((e for e in legal if e["info"]["verb"] in ("extend", "decline")), None)
        if answer is not None:
            press(page.locator(f"#controls button[data-action='{answer['info']['verb']}']"))
        else:
            entry = min(legal, key=lambda e: (("play", "attack", "discard").index(e["info"]["verb"]), e["action"]))
            press(page.locator(f".card-button[data-card='{entry['info']['card']}']").first)
            check_screen(page, f"after choosing {entry['info']['card']}")
            if shots and made == 2:
                shot(page, f"{shots}-chosen", screen=True, docs=docs)
            press(page.locator(f"button.target.legal[data-action='{entry['action']}']"))
        wait_past(page, before)
        check_screen(page, f"after move {made}")
        made += 1
        if shots and made == 3:
            shot(page, f"{shots}-played")


def test_a_whole_hand_on_a_phone_by_tapping(pages: Pages, base_url: str) -> None:
    anna = pages.new(locale="fr-FR", color_scheme="dark", **PHONE)
    code = new_table(anna, base_url, "mille", [{"kind": "person"}, {"kind": "bot", "level": "easy"}], edition="wm2006")
    my_turn_or_done(anna)
    shot(anna, "mille-phone")
    check_both_schemes(anna, "Mille Bornes on a phone")
    assert not small_targets(anna), small_targets(anna)
    # on a French page the cards carry French names (the box is German); the control says so
    names = anna.locator(".card-button .name").all_inner_texts()
    wm = next(e for e in anna.evaluate("window.rallye.info.editions") if e["key"] == "wm2006")
    assert set(names) <= set(wm["names"]["fr"].values()), names
    assert anna.input_value("#cardlang") == "page"
    # a touch screen is not told about the Escape key
    anna.locator(".card-button").first.tap()
    assert "Échap" not in anna.inner_text("#hand-hint")
    anna.locator(".card-button").first.tap()  # tapped again: put back

    tap_hand(anna, touch=True, shots="mille-phone", docs="web-mille-phone.png")
    # the hand's summary: it stays until dismissed, whatever the table does meanwhile
    anna.wait_for_selector("dialog#summary[open]")
    text = anna.inner_text("#summary")
    assert wm["score_words"]["fr"]["distance"] in text  # the sheet in the edition's words
    assert "Manche 2" in text or "manche 2" in text  # what comes next
    shot(anna, "mille-phone-hand-end", screen=True)
    check_both_schemes(anna, "the hand's summary on a phone")
    assert "Manche 1" in anna.inner_text("#announce") or "manche 1" in anna.inner_text("#announce")
    anna.wait_for_timeout(600)  # the bot may play on in the next hand: the summary stays
    assert anna.is_visible("dialog#summary")
    anna.locator("#summary-close").tap()
    assert not anna.is_visible("dialog#summary")
    anna.reload()
    ready(anna)
    assert not anna.is_visible("dialog#summary"), "a dismissed summary does not come back"
    assert code in anna.url


def test_a_whole_hand_on_a_desktop_to_the_end_of_the_match(pages: Pages, base_url: str) -> None:
    """meilen plays one hand: its end is the match's end, with play again and the record."""
    anna = pages.new(locale="en-GB", **DESKTOP)
    code = new_table(anna, base_url, "mille", [{"kind": "person"}, {"kind": "bot", "level": "easy"}], edition="meilen")
    my_turn_or_done(anna)
    shot(anna, "mille-desktop")
    check_both_schemes(anna, "Mille Bornes on a desktop")
    tap_hand(anna, touch=False, shots="mille-desktop", docs="web-mille.png")
    anna.wait_for_selector("dialog#summary[open]")
    assert anna.locator("#summary .winner").count() == 1
    link = anna.locator("#summary a[download]")
    assert link.get_attribute("href") == f"/api/tables/{code}/record"
    record = anna.request.get(anna.url.split("/t/")[0] + link.get_attribute("href"))
    assert record.ok and record.text().startswith("{")
    assert anna.locator("#summary button.again").count() == 1
    assert anna.locator("#summary a.replay-link").get_attribute("href") == f"/r/{code}"  # the replay, for anyone
    shot(anna, "mille-desktop-match-end")
    check_both_schemes(anna, "the match's summary on a desktop")
    anna.locator("#summary button.again").click()
    anna.wait_for_url(lambda url: code not in url)
    ready(anna)
    assert anna.evaluate("window.rallye.seat") == 0
    # "Your tables" links the finished one's replay (and not the new one's)
    anna.goto(anna.url.split("/t/")[0] + "/")
    anna.wait_for_selector(f"#mine a.replay-link[href='/r/{code}']")
    assert anna.locator("#mine a.replay-link").count() == 1
    anna.locator(f"#mine a.replay-link[href='/r/{code}']").click()
    anna.wait_for_function("document.body.dataset.frame === '0'")
    assert anna.locator("#hands .open-seat").count() == 2


def test_landscape_phone_a_turn_fits(pages: Pages, base_url: str) -> None:
    anna = pages.new(locale="de-DE", **LANDSCAPE)
    new_table(anna, base_url, "mille", [{"kind": "person"}, {"kind": "bot", "level": "easy"}], edition="hu")
    my_turn_or_done(anna)
    # a German page names the Hungarian box's cards as the German box does (the same cards)
    german = set(anna.evaluate("window.rallye.info.editions.find((e) => e.key === 'wm2006').names.de").values())
    shown = anna.eval_on_selector_all(".card-button svg.card", "cs => cs.map((c) => c.dataset.name)")
    assert shown and set(shown) <= german, shown
    entry = min(state(anna)["legal"], key=lambda e: e["info"]["verb"] == "discard")  # a play if there is one
    anna.locator(f".card-button[data-card='{entry['info']['card']}']").first.tap()
    check_screen(anna, "landscape, a card chosen")
    shot(anna, "mille-landscape-chosen")
    before = state(anna)["move_no"]
    anna.locator(f"button.target[data-action='{entry['action']}']").tap()
    wait_past(anna, before)
    check_screen(anna, "landscape, after the move")


def test_the_server_goes_down_and_comes_back(browser: Any, tmp_path: Path) -> None:
    served = Served(tmp_path / "tables.db")
    pages = Pages(browser, served.url)
    try:
        anna = pages.new(locale="en-GB", **PHONE)
        anna.add_init_script(
            "(() => { window.__sent = []; const send = WebSocket.prototype.send;"
            " WebSocket.prototype.send = function (d) { window.__sent.push(d); return send.call(this, d); }; })()"
        )
        new_table(anna, served.url, "mille", [{"kind": "person"}, {"kind": "bot", "level": "easy"}], edition="wm2006")
        my_turn_or_done(anna)
        entry = next(e for e in state(anna)["legal"] if e["info"]["verb"] == "discard")
        anna.locator(f".card-button[data-card='{entry['info']['card']}']").first.tap()
        port = served.port
        served.stop()
        anna.wait_for_selector("#offline:not([hidden])")
        # wherever the page is scrolled, the notice is in view; the controls say why they are off
        anna.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        box = anna.locator("#offline").bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= 844
        target = anna.locator(f"button.target[data-action='{entry['action']}']")
        assert target.is_disabled() and target.get_attribute("aria-describedby") == "offline"
        sent = anna.evaluate("window.__sent.length")
        target.tap(force=True)  # a tap on the disabled place: nothing is sent
        assert anna.evaluate("a => window.rallye.act(a)", entry["action"]) is False
        assert anna.evaluate("window.__sent.length") == sent
        assert "no connection" in anna.inner_text("#announce")
        anna.evaluate("window.scrollTo(0, 0)")
        shot(anna, "mille-offline")
        check_both_schemes(anna, "the offline notice")
        served = Served(tmp_path / "tables.db", port=port)
        anna.wait_for_selector("#offline", state="hidden", timeout=20_000)
        my_turn_or_done(anna)
        before = state(anna)["move_no"]
        card = anna.locator(f".card-button[data-card='{entry['info']['card']}']").first
        if not anna.locator(".card-button.selected").count():
            card.tap()
        anna.locator(f"button.target[data-action='{entry['action']}']").tap()
        wait_past(anna, before)  # play goes on
        # a move sent just before the connection went, never answered: sent again on reconnect
        my_turn_or_done(anna)
        s = state(anna)
        pending = {"action": s["legal"][0]["action"], "move_no": s["move_no"]}
        anna.evaluate("p => { window.rallye.pending = p; }", pending)
        served.stop()
        anna.wait_for_selector("#offline:not([hidden])")
        served = Served(tmp_path / "tables.db", port=port)
        wait_past(anna, s["move_no"])
        assert "sent again" in anna.inner_text("#announce")
        assert any(pending["action"] in m for m in anna.evaluate("window.__sent"))
    finally:
        pages.close()
        served.stop()
    assert not pages.foreign, pages.foreign
    assert not [e for e in pages.errors if "ERR_CONNECTION_REFUSED" not in e], pages.errors


def test_knight_rider_on_a_phone(pages: Pages, base_url: str) -> None:
    """Fingers: every destination at least 44 px, the map pinched and panned, centred on the
    player's car on their turn."""
    anna = pages.new(locale="hu-HU", color_scheme="dark", **PHONE)
    new_table(
        anna,
        base_url,
        "knightrider",
        [{"kind": "person"}, {"kind": "bot", "level": "easy"}],
        options={"quick_build": True},
    )
    deadline = time.monotonic() + 60
    while "move" not in [e["info"]["kind"] for e in state(anna)["legal"]]:
        assert time.monotonic() < deadline, "no move to choose came"
        wait_my_turn(anna)
        before = state(anna)["move_no"]
        kinds = [e["info"]["kind"] for e in state(anna)["legal"]]
        if "move" in kinds:
            break
        if not kinds:  # a newer state came meanwhile (no longer this seat's turn): wait again
            continue
        if "start" in kinds or "enter" in kinds:
            anna.locator("#controls button[data-action^='start'], #controls button[data-action^='enter']").first.tap()
        elif "recover" in kinds:
            anna.locator("#controls button[data-action=recover]").tap()
        elif "end" in kinds:
            anna.locator("#controls button.end").tap()
        else:  # a card to play first (the rules may ask it): the first one offered
            assert anna.locator("#controls .kr-hand button[data-action]").count(), kinds
            anna.locator("#controls .kr-hand button[data-action]").first.tap()
        wait_past(anna, before)
    assert anna.locator("g.choice.dest").count() > 0
    assert not small_targets(anna), small_targets(anna)
    # your car is in sight on your turn
    seen = anna.evaluate(
        """() => { const s = document.querySelector('.kr-scroll').getBoundingClientRect();
        const c = document.querySelector('g.car.mine').getBoundingClientRect();
        return c.left >= s.left && c.right <= s.right && c.top >= s.top && c.bottom <= s.bottom; }"""
    )
    assert seen, "the player's car is inside the map's window"
    shot(anna, "kr-phone", screen=True, docs="web-knightrider-phone.png")
    check_both_schemes(anna, "Knight Rider on a phone")
    # two fingers spread: the map grows; the buttons do the same for one finger
    width = anna.evaluate("document.querySelector('svg.kr-board').getBoundingClientRect().width")
    anna.evaluate(
        """() => { const s = document.querySelector('.kr-scroll'); const r = s.getBoundingClientRect();
        const y = r.top + r.height / 2, x = r.left + r.width / 2;
        const ev = (type, id, dx) => s.dispatchEvent(new PointerEvent(type, {pointerId: id, pointerType: 'touch',
          clientX: x + dx, clientY: y, bubbles: true}));
        ev('pointerdown', 1, -30); ev('pointerdown', 2, 30); ev('pointermove', 1, -60); ev('pointermove', 2, 60);
        ev('pointerup', 1, -60); ev('pointerup', 2, 60); }"""
    )
    grown = anna.evaluate("document.querySelector('svg.kr-board').getBoundingClientRect().width")
    assert grown > width * 1.5, (width, grown)
    anna.locator(".map-tool.zoom-out").tap()
    assert anna.evaluate("document.querySelector('svg.kr-board').getBoundingClientRect().width") < grown
    # a destination tapped is a move made
    before = state(anna)["move_no"]
    dest = anna.locator("g.choice.dest[data-action]").first
    if dest.count():
        dest.scroll_into_view_if_needed()
        dest.tap()
        wait_past(anna, before)
        assert anna.locator(".last-path").count() == 1  # the path the car took, marked


def test_every_word_in_the_page_language(pages: Pages, base_url: str) -> None:
    """A Hungarian page: the Hungarian box chosen, the editions' titles and the bots' levels in
    Hungarian (in "Your tables" too); the card names' control remembered on a French page."""
    hu = pages.new(locale="hu-HU", color_scheme="dark", **PHONE)
    hu.goto(base_url + "/")
    ready(hu)
    assert hu.input_value("#edition") == "hu"
    titles = hu.locator("#edition option").all_inner_texts()
    assert "1000 Kilométer (magyar kiadás)" in titles and not any("Hungarian" in x for x in titles)
    check_both_schemes(hu, "the lobby on a phone, Hungarian")
    assert not small_targets(hu), small_targets(hu)
    shot(hu, "lobby-phone-dark-hu")
    hu.select_option("#seat-list li:nth-child(2) select.kind", "bot")
    hu.select_option("#seat-list li:nth-child(2) select.level", "hard")
    hu.fill("#name", "Anna")
    hu.click("#create-form button[type=submit]")
    hu.wait_for_selector("#invite:not([hidden])")
    hu.wait_for_selector("#mine li a")
    mine = hu.inner_text("#mine")
    assert "gép (nehéz)" in mine and "hard" not in mine, mine

    fr = pages.new(locale="fr-FR", **DESKTOP)
    new_table(fr, base_url, "mille", [{"kind": "person"}, {"kind": "bot", "level": "easy"}], edition="wm2006")
    wm = next(e for e in fr.evaluate("window.rallye.info.editions") if e["key"] == "wm2006")
    assert fr.is_visible("#cardlang")
    assert set(fr.locator(".card-button .name").all_inner_texts()) <= set(wm["names"]["fr"].values())
    fr.select_option("#cardlang", "box")
    fr.reload()
    ready(fr)
    assert fr.input_value("#cardlang") == "box"
    assert set(fr.locator(".card-button .name").all_inner_texts()) <= set(wm["names"]["de"].values())
    assert fr.inner_text("#title").startswith("Mille Bornes")


FLIGHTS = (
    "(() => { window.__flights = 0; new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes)"
    " if (n.classList && n.classList.contains('flying')) window.__flights++; })"
    ".observe(document, {childList: true, subtree: true});"
    " window.__sounds = 0; const AC = window.AudioContext; window.AudioContext = class extends AC {"
    " createOscillator() { window.__sounds++; return super.createOscillator(); }"
    " createBufferSource() { window.__sounds++; return super.createBufferSource(); } }; })()"
)


def test_moments_flights_and_sounds(pages: Pages, base_url: str) -> None:
    """A card flies to where it lands (not under reduced motion); a completed trip, the
    extension question and a coup fourré are moments everyone sees and hears read out; sounds
    are off until switched on, and the switch is remembered."""
    anna = pages.new(locale="en-GB", **DESKTOP)
    anna.add_init_script(FLIGHTS)
    new_table(anna, base_url, "mille", [{"kind": "person"}, {"kind": "bot", "level": "easy"}], edition="wm2006")
    my_turn_or_done(anna)
    assert anna.get_attribute("#sound", "aria-pressed") == "false"
    entry = next(e for e in state(anna)["legal"] if e["info"]["verb"] == "discard")
    anna.locator(f".card-button[data-card='{entry['info']['card']}']").first.click()
    before = state(anna)["move_no"]
    anna.click(f"button.target[data-action='{entry['action']}']")
    wait_past(anna, before)
    anna.wait_for_function("window.__flights > 0")
    assert anna.evaluate("window.__sounds") == 0  # silent by default
    anna.click("#sound")
    assert anna.get_attribute("#sound", "aria-pressed") == "true"
    assert anna.evaluate("window.__sounds") > 0
    anna.reload()
    ready(anna)
    assert anna.get_attribute("#sound", "aria-pressed") == "true"  # remembered

    # the moments, from states as the server would send them (a copy of this one, changed;
    # without this deal's own events, which may hold a real coup fourré)
    my_turn_or_done(anna)
    anna.evaluate(
        """() => { const r = window.rallye; const m = structuredClone(r.state); m.move_no += 1;
        m.view.events = []; m.view.tableaus[1].km = m.view.target; m.legal = []; m.turn = 1; r.receive(m); }"""
    )
    assert anna.is_visible("#moment") and "completed the trip" in anna.inner_text("#moment")
    assert "completed the trip" in anna.inner_text("#announce")
    anna.evaluate(
        """() => { const r = window.rallye; const m = structuredClone(r.state); m.move_no += 1;
        m.view.events = []; m.view.phase = "extend"; m.view.current = 1; r.receive(m); }"""
    )
    assert "extend" in anna.inner_text("#moment")
    anna.evaluate(
        """() => { const r = window.rallye; const m = structuredClone(r.state); m.move_no += 1;
        m.view.phase = "play"; m.view.events = [...m.view.events,
          {seat: 1, kind: "attack", card: "ACCIDENT", side: 0},
          {seat: 0, kind: "coup_fourre", card: "DRIVING_ACE", side: 0}]; m.view.cf_turn = true; r.receive(m); }"""
    )
    assert "Coup fourré" in anna.inner_text("#moment")
    shot(anna, "mille-moment")

    calm = pages.new(locale="en-GB", reduced_motion="reduce", **DESKTOP)
    calm.add_init_script(FLIGHTS)
    new_table(calm, base_url, "mille", [{"kind": "person"}, {"kind": "bot", "level": "easy"}], edition="wm2006")
    my_turn_or_done(calm)
    entry = next(e for e in state(calm)["legal"] if e["info"]["verb"] == "discard")
    calm.locator(f".card-button[data-card='{entry['info']['card']}']").first.click()
    before = state(calm)["move_no"]
    calm.click(f"button.target[data-action='{entry['action']}']")
    wait_past(calm, before)
    my_turn_or_done(calm)  # the bot's answer came too: two cards landed, none flew
    assert calm.evaluate("window.__flights") == 0
    assert calm.locator(".last-move").count() == 1


def test_the_table_page_is_light(pages: Pages, base_url: str) -> None:
    """The first load of a table page (a French page: two catalogs of each domain), every byte
    that crossed the network, compressed as the server sends it: under 150 KB."""
    anna = pages.new(locale="fr-FR", **PHONE)
    new_table(anna, base_url, "mille", [{"kind": "person"}, {"kind": "bot", "level": "easy"}], edition="wm2006")
    anna.context.clear_cookies()
    anna.reload()  # a fresh load; the browser's cache was empty for the page's files the first time too
    ready(anna)
    loaded = anna.evaluate(
        """() => { const p = performance;
        const all = [...p.getEntriesByType('navigation'), ...p.getEntriesByType('resource')];
        return all.map((e) => [e.name, e.transferSize, e.encodedBodySize, e.decodedBodySize]); }"""
    )
    # transferSize is 0 for a file the cache answered: count what a first visit fetches
    total = sum(max(t, enc) for _, t, enc, _ in loaded)
    assert total < 150_000, sorted(loaded, key=lambda e: -e[2])[:6]
    compressed = [name for name, _, enc, dec in loaded if dec > 2000 and enc < dec * 0.7]
    assert any(name.endswith("mille.js") for name in compressed), loaded  # the server compresses


# The fullest tableaus a hand can show, on every side (the state the page holds, redrawn).
FULL_SIDES_JS = """() => { const r = window.rallye; const m = structuredClone(r.state);
  for (const tab of m.view.tableaus) {
    tab.safeties = ["RIGHT_OF_WAY", "EXTRA_TANK", "PUNCTURE_PROOF", "DRIVING_ACE"];
    tab.coups = ["EXTRA_TANK", "DRIVING_ACE"];
    tab.battle = ["STOP", "ROLL", "ACCIDENT"]; tab.speed = ["SPEED_LIMIT"]; tab.d200 = 2; tab.km = 650;
    tab.distance = ["D25", "D50", "D75", "D100", "D200", "D200", "D100", "D75"]; }
  r.receive(m); }"""


def test_three_full_sides_still_fit_a_phone(pages: Pages, base_url: str) -> None:
    """The fullest tableaus a hand can show (four safeties, two of them coups fourrés, both
    piles, a long distance pile), three sides: every place still above the docked hand."""
    anna = pages.new(locale="de-DE", **PHONE)
    new_table(anna, base_url, "mille", [{"kind": "person"}] + [{"kind": "bot", "level": "easy"}] * 2, edition="wm2006")
    my_turn_or_done(anna)
    anna.evaluate(FULL_SIDES_JS)
    card = state(anna)["legal"][0]["info"]["card"]
    anna.locator(f".card-button[data-card='{card}']").first.tap()
    shot(anna, "mille-phone-three-full-sides", screen=True)
    check_screen(anna, "three full sides, a card chosen")
    assert anna.locator("button.target").count() == 4  # three sides and the discard pile
