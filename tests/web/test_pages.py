"""The pages in a real browser: lobby, Mille Bornes tables, a Knight Rider table.

Each test plays through the pages only (clicks, keys, what the page shows); the state the
page was sent is read from ``window.rallye`` to decide what to click, never to act.
"""

from __future__ import annotations

import time
from typing import Any

from web_helpers import Pages, check_accessibility, check_both_schemes, shot

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "color_scheme": "dark"}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


def ready(page: Any) -> None:
    page.wait_for_selector("body[data-ready='1']")


def state(page: Any) -> Any:
    return page.evaluate("window.rallye && window.rallye.state")


def seat_of(page: Any) -> Any:
    return page.evaluate("window.rallye.seat")


def my_turn(page: Any) -> bool:
    return bool(
        page.evaluate(
            "(() => { const r = window.rallye; return !!(r && r.state && r.seat !== null"
            " && r.state.turn === r.seat && r.state.legal.length); })()"
        )
    )


def wait_past(page: Any, move_no: int) -> None:
    page.wait_for_function("n => window.rallye.state && window.rallye.state.move_no > n", arg=move_no)


def create_table(
    page: Any, base_url: str, game: str, seats: list[str], name: str, edition: str | None = None, timer: int = 0
) -> str:
    """Fill the lobby form; ``seats`` holds "person" or a bot level per seat. Returns the invite link."""
    page.goto(base_url + "/")
    ready(page)
    if game == "knightrider":
        page.check("input[name=game][value=knightrider]")
    elif edition:
        page.select_option("#edition", edition)
    page.select_option("#players", str(len(seats)))
    for i, kind in enumerate(seats):
        li = f"#seat-list li:nth-child({i + 1})"
        page.select_option(f"{li} select.kind", "person" if kind == "person" else "bot")
        if kind != "person":
            page.select_option(f"{li} select.level", kind)
    page.check("#seat-list li:nth-child(1) input[name=sit]")
    if timer:
        page.fill("#turn-timer", str(timer))
    page.fill("#name", name)
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#invite:not([hidden])")
    link: str = page.input_value("#invite-link")
    return link


def join(page: Any, link: str, name: str, seat: int) -> None:
    page.goto(link)
    page.wait_for_selector("#join:not([hidden])")
    page.fill("#join-name", name)
    page.select_option("#join-seat", str(seat))
    page.click("#join-form button[type=submit]")
    ready(page)


# ----------------------------------------------------------------------------- Mille Bornes

PREFERENCE = ("play", "attack", "discard")


def mille_move(page: Any, *, keyboard: bool = False) -> None:
    """Make one move by clicking (or by keys): a card, then where it goes; or answer the extension."""
    s = state(page)
    before = s["move_no"]
    legal = s["legal"]
    answer = next((entry for entry in legal if entry["info"]["verb"] in ("extend", "decline")), None)
    if answer is not None:
        page.click(f"#controls button[data-action='{answer['info']['verb']}']")
    else:
        entry = min(legal, key=lambda e: (PREFERENCE.index(e["info"]["verb"]), -len(e["info"]["card"] or "")))
        if page.locator(".card-button.selected").count():  # a card still chosen (say, after a refusal)
            page.keyboard.press("Escape")  # puts it back, so choosing the next one does not un-choose it
            page.wait_for_selector(".card-button.selected", state="detached")
        card = page.locator(f".card-button[data-card='{entry['info']['card']}']").first
        if keyboard:
            card.focus()
            page.keyboard.press("Enter")
            focused = page.evaluate("document.activeElement.dataset.action")
            assert focused, "choosing a card by key moves the focus to where it can go"
            page.keyboard.press("Enter")
        else:
            card.click()
            page.click(f"button.target.legal[data-action='{entry['action']}']")
    wait_past(page, before)


def play_mille_hand(players: list[Any], *, keyboard: set[int] | None = None, limit: float = 120) -> int:
    """Play until the first hand's score sheet is out; returns the moves the people made."""
    keyboard = keyboard or set()
    made = 0
    deadline = time.monotonic() + limit
    while True:
        assert time.monotonic() < deadline, "the hand did not end in time"
        # the hand is over for everyone once one page has its sheet (the others' summaries
        # may already stand over their new hand)
        if any((s := state(page)) and s["view"]["sheets"] for page in players):
            return made
        for i, page in enumerate(players):
            if my_turn(page):
                mille_move(page, keyboard=i in keyboard)
                made += 1
                break
        else:
            time.sleep(0.03)


def test_two_people_create_join_and_play_a_whole_hand(pages: Pages, base_url: str) -> None:
    anna = pages.new(locale="de-DE", **DESKTOP)
    link = create_table(anna, base_url, "mille", ["person", "person"], "Anna", edition="wm2006")
    check_accessibility(anna, "lobby")
    shot(anna, "lobby")
    anna.context.grant_permissions(["clipboard-read", "clipboard-write"])
    anna.click("#copy")
    assert anna.evaluate("navigator.clipboard.readText()") == link
    anna.click("#go")
    anna.wait_for_selector("#waiting:not([hidden])")
    bob = pages.new(locale="fr-FR", **PHONE)
    join(bob, link, "Bob", 1)
    ready(anna)
    assert anna.inner_text("#turn")  # whose turn, in words
    assert "Bob" in anna.inner_text("#players")
    # the card names are the edition's (German for wm2006), the page words the browser's
    assert anna.locator(".card-button svg.card").count() in (6, 7)  # the cards as pictures (test_cards.py)
    names = anna.eval_on_selector_all(".card-button svg.card", "cs => cs.map((c) => c.dataset.name)")
    german = anna.evaluate("window.rallye.info.games?.editions ?? window.rallye.info.editions")
    wm = next(e for e in german if e["key"] == "wm2006")
    assert set(names) <= set(wm["names"]["de"].values())
    assert bob.evaluate("document.documentElement.lang") == "fr"

    # a refused move shows the rule it breaks: try a card where the server says no
    first = anna if my_turn(anna) else bob
    for card in dict.fromkeys(first.evaluate("window.rallye.state.view.hand")):
        first.locator(f".card-button[data-card='{card}']").first.click()
        refused = first.locator(".tableau.mine button.target:not(.legal)")
        if refused.count():  # this card may not go onto your own side now
            break
    else:
        raise AssertionError("every card of the hand may be played onto one's own side")
    refused.click()
    first.wait_for_function("document.getElementById('error').textContent.length > 0")
    rule = first.get_attribute("#error", "data-rule")
    assert rule, "a refusal names the rule it breaks"
    words = first.evaluate("rule => window.rallye.ruleWords(rule)", rule)
    assert words and words in first.inner_text("#error")  # the game catalog's words, in the page's language
    assert first.locator("#error *").count() == 0  # and nothing else: no engine sentence in English
    shot(first, "mille-refused")

    # a few moves, Bob by keys alone; then Bob reloads and is back at his seat
    play_until = time.monotonic() + 30
    made = 0
    while made < 6 and time.monotonic() < play_until:
        for i, page in enumerate((anna, bob)):
            if my_turn(page):
                mille_move(page, keyboard=i == 1)
                made += 1
                break
        else:
            time.sleep(0.03)
    hand_before = bob.evaluate("window.rallye.state.view.hand")
    bob.reload()
    ready(bob)
    assert seat_of(bob) == 1
    assert bob.evaluate("window.rallye.state.view.hand") == hand_before
    # the other player's moves are announced in the live region, and so is what they say
    announced = anna.inner_text("#announce")
    assert "Bob" in announced, announced
    bob.fill("#chat-text", "Bonne chance !")
    bob.press("#chat-text", "Enter")
    anna.wait_for_selector("#chat-log li:has-text('Bonne chance !')")
    assert "Bonne chance !" in anna.inner_text("#announce")
    check_accessibility(anna, "Mille Bornes table")
    shot(anna, "mille-2p-desktop")
    shot(bob, "mille-2p-phone")

    play_mille_hand([anna, bob], keyboard={1})
    anna.wait_for_selector("#result:not([hidden]) table.sheet")
    sheet = anna.inner_text("#result table.sheet")
    assert wm["score_words"]["de"]["distance"] in sheet  # the edition's own words
    hidden = anna.evaluate("JSON.stringify(window.rallye.state)")
    assert '"hand":' in hidden and bob.evaluate("window.rallye.state.view.seat") == 1
    shot(anna, "mille-2p-score-sheet")

    # the coup fourré moment: drawn from the view's events (here a copy of the view with one)
    anna.evaluate(
        """() => { const r = window.rallye; const v = r.state.view;
        v.events = [...v.events, {seat: 1, kind: "coup_fourre", card: "DRIVING_ACE", side: 1}]; v.cf_turn = true;
        r.refresh(); }"""
    )
    assert "Bob" in anna.inner_text("#moment") and anna.is_visible("#moment")

    # the lobby lists the tables this browser sits at
    code = link.rsplit("/", 1)[1]
    anna.goto(base_url + "/")
    anna.wait_for_selector(f"#mine a[href='/t/{code}']")


def test_a_team_table_with_two_bots_plays_to_the_end_of_a_hand(pages: Pages, base_url: str) -> None:
    anna = pages.new(locale="en-GB", **DESKTOP)
    # a wrong code says so in words (the browser logs the 404 itself: that one is expected)
    anna.goto(base_url + "/t/nosuchcode")
    anna.wait_for_selector("#error:has-text('No table has that code.')")
    pages.errors[:] = [e for e in pages.errors if "404" not in e]
    link = create_table(
        anna, base_url, "mille", ["person", "person", "easy", "easy"], "Anna", edition="wm2006", timer=600
    )
    teams = anna.inner_text("#teams")
    assert "1 + 3" in teams and "2 + 4" in teams  # the edition's teams, drawn in the lobby
    anna.click("#go")
    bob = pages.new(locale="hu-HU", color_scheme="dark", **DESKTOP)
    join(bob, link, "Bob", 1)
    ready(anna)
    assert anna.locator(".tableau").count() == 2  # two sides: the teams
    anna.wait_for_function("/\\d+ seconds? left/.test(document.getElementById('turn').textContent)")
    # someone who only watches sees the table but no hand
    carl = pages.new(locale="en-GB", **PHONE)
    carl.goto(link)
    ready(carl)
    assert carl.evaluate("window.rallye.seat") is None
    assert carl.locator(".card-button").count() == 0 and carl.locator(".tableau").count() == 2
    play_mille_hand([anna, bob])
    anna.wait_for_selector("#result:not([hidden]) table.sheet")
    carl.wait_for_selector("#result:not([hidden]) table.sheet")
    shot(carl, "mille-4p-spectator-phone")
    shot(anna, "mille-4p-teams")
    check_accessibility(bob, "Mille Bornes table, dark, Hungarian")
    shot(bob, "mille-4p-teams-dark-hu")


# ----------------------------------------------------------------------------- Knight Rider


def kr_kinds(page: Any) -> list[str]:
    return [entry["info"]["kind"] for entry in state(page)["legal"]]


def wait_my_turn(page: Any, limit: float = 60, done: str = "r.state.view.over") -> None:
    """Until this page may move, or ``done`` (a condition on ``r = window.rallye``) holds."""
    page.wait_for_function(
        f"(() => {{ const r = window.rallye; return r.state && (({done})"
        " || (r.state.turn === r.seat && r.state.legal.length > 0)); })()",
        timeout=limit * 1000,
    )


def test_knight_rider_build_the_track_and_chase(pages: Pages, base_url: str) -> None:
    anna = pages.new(locale="de-DE", **DESKTOP)
    create_table(anna, base_url, "knightrider", ["person", "easy"], "Anna")
    anna.click("#go")
    ready(anna)
    placed = rotated = 0
    while True:
        wait_my_turn(anna)
        kinds = set(kr_kinds(anna))
        if "place" not in kinds:
            break
        before = state(anna)["move_no"]
        if placed == 0:
            check_accessibility(anna, "Knight Rider building")
            shot(anna, "kr-building")
        if placed == 1 and anna.is_enabled("#rotate"):
            label = anna.inner_text(".drawn p")
            anna.click("#rotate")
            assert anna.inner_text(".drawn p") != label  # the drawn tile turned
            rotated += 1
        square = anna.locator("g.choice.square").first
        if placed == 2:  # by keys: the squares are focusable buttons
            square.focus()
            anna.keyboard.press("Enter")
        else:
            square.click()
        wait_past(anna, before)
        placed += 1
    assert placed >= 8 and state(anna)["view"]["drawn"] == 0
    assert "Molekül-Mantel" in anna.inner_text("#controls")  # the box's card names, as in the terminal
    tiles = state(anna)["view"]["tiles"]
    assert anna.locator("svg.kr-board g.tile:not(.ghost)").count() == len(tiles)
    # on a wide screen the whole map fits the width: nothing to scroll sideways
    assert anna.evaluate(
        "(() => { const s = document.querySelector('.kr-scroll'), d = document.documentElement;"
        " return s.scrollWidth <= s.clientWidth + 1 && d.scrollWidth <= d.clientWidth + 1; })()"
    )

    turns = 0
    detoured = False
    deadline = time.monotonic() + 90
    while turns < 3 and time.monotonic() < deadline:
        wait_my_turn(anna)
        if state(anna)["view"]["over"]:
            break
        kinds = kr_kinds(anna)
        before = state(anna)["move_no"]
        if "start" in kinds or "enter" in kinds:
            anna.locator("#controls button[data-action^='start'], #controls button[data-action^='enter']").first.click()
        elif "recover" in kinds:
            anna.click("#controls button[data-action=recover]")
        elif "move" in kinds:
            assert anna.locator(".dice").count() == 1  # the roll is shown
            dest = anna.locator("g.choice.dest").first
            if turns == 1:
                dest.hover()  # its path is drawn
                assert anna.locator("polyline.path").count() >= 1
                shot(anna, "kr-moves")
            if turns == 2:  # by keys: a destination is a focusable button too
                dest.focus()
                anna.keyboard.press("Enter")
            else:
                dest.click()
            if state(anna)["move_no"] == before and anna.locator(".dest-choices button[data-action]").count():
                shot(anna, "kr-choose-way")
                anna.locator(".dest-choices button[data-action]").first.click()
        elif "detour" in kinds and not detoured:
            anna.locator(".kr-hand button.kr-card[aria-pressed]").first.click()
            anna.locator("g.choice.square").first.click()
            anna.locator("#controls .rotations button").first.click()
            detoured = True
        else:
            if turns == 1:
                check_both_schemes(anna, "Knight Rider chase")
                shot(anna, "kr-chase", screen=True, docs="web-knightrider.png")
            anna.click("#controls button.end")
            turns += 1
        wait_past(anna, before)
    assert turns == 3 or state(anna)["view"]["over"]
    assert anna.locator("#log li").count() > placed
    shot(anna, "kr-after-chase")

    # on a phone, watching: the same map (scrolling), no hand, the moves in Hungarian
    watcher = pages.new(locale="hu-HU", **PHONE)
    watcher.goto(anna.url)
    ready(watcher)
    assert watcher.evaluate("window.rallye.seat") is None
    assert watcher.locator("svg.kr-board g.tile:not(.ghost)").count() == len(state(anna)["view"]["tiles"])
    assert watcher.locator("#controls .kr-hand button").count() == 0
    check_accessibility(watcher, "Knight Rider, watching on a phone")
    shot(watcher, "kr-spectator-phone")


def test_the_lobby_sets_a_knight_rider_turn_limit_and_says_a_bad_one_in_the_page_language(
    pages: Pages, base_url: str
) -> None:
    """The create form's turn-limit field (Knight Rider only): the rules' 500 by default, a
    number out of range stopped with the page's words before the form goes, the server's
    refusal said in the same words, and the number the table gets."""
    phone = pages.new(locale="de-DE", **PHONE)
    phone.goto(base_url + "/")
    ready(phone)
    assert not phone.is_visible("#turn-limit")  # Mille Bornes: no such field
    phone.check("input[name=game][value=knightrider]")
    assert phone.input_value("#turn-limit") == "500"
    assert "(die Regel: 500)" in phone.inner_text("#turn-limit-note")
    assert "Zuggrenze" in phone.inner_text("label[for=turn-limit]")
    phone.fill("#name", "Anna")
    german = "Die Zuggrenze ist eine ganze Zahl von Zügen der Jagd von 1 bis 10.000, oder leer für keine."
    for bad in ("0", "10001", "2.5"):
        phone.fill("#turn-limit", bad)
        assert phone.evaluate("document.getElementById('turn-limit').validationMessage") == german, bad
        phone.click("#create-form button[type=submit]")
        assert german in phone.inner_text("#create-error"), bad
        assert phone.is_hidden("#invite"), bad  # nothing was sent
    shot(phone, "lobby-kr-turn-limit-phone")
    check_both_schemes(phone, "the lobby with Knight Rider's options")
    phone.fill("#turn-limit", "")  # empty: no limit
    phone.click("#create-form button[type=submit]")
    assert german not in phone.inner_text("#create-error")
    phone.wait_for_selector("#invite:not([hidden])")
    code = phone.get_attribute("#go", "href").rsplit("/", 1)[1]
    assert phone.request.get(f"{base_url}/api/tables/{code}").json()["table"]["options"]["turn_limit"] is None

    # the server's own refusal (a page that let a number through) reads the same
    desk = pages.new(locale="de-DE", **DESKTOP)

    def wider(route: Any) -> None:
        info = route.fetch().json()
        info["knightrider"]["turn_limit"]["max"] = 50_000
        route.fulfill(json=info)

    desk.route("**/api/info", wider)
    desk.goto(base_url + "/")
    ready(desk)
    desk.check("input[name=game][value=knightrider]")
    desk.fill("#name", "Bert")
    desk.fill("#turn-limit", "20000")
    desk.click("#create-form button[type=submit]")
    desk.wait_for_function("document.getElementById('create-error').textContent.length > 0")
    assert german in desk.inner_text("#create-error")
    assert desk.is_hidden("#invite")
    expected = [e for e in pages.errors if "400" in e]
    assert len(expected) == 1, pages.errors  # the refusal itself, and nothing else
    pages.errors[:] = [e for e in pages.errors if e not in expected]
    desk.fill("#turn-limit", "40")
    shot(desk, "lobby-kr-turn-limit-desktop")
    desk.click("#create-form button[type=submit]")
    desk.wait_for_selector("#invite:not([hidden])")
    code = desk.get_attribute("#go", "href").rsplit("/", 1)[1]
    assert desk.request.get(f"{base_url}/api/tables/{code}").json()["table"]["options"]["turn_limit"] == 40


def test_a_finished_table_plays_again_with_the_same_seat(pages: Pages, base_url: str) -> None:
    """A short Knight Rider game (a turn limit, set through the API as a program would) to its
    end; "play again" opens the new table, where this browser still holds its seat."""
    anna = pages.new(locale="en-GB", **DESKTOP)
    anna.goto(base_url + "/")
    ready(anna)
    made = anna.request.post(
        base_url + "/api/tables",
        data={
            "game": "knightrider",
            "players": 2,
            "seats": [{"kind": "person"}, {"kind": "bot", "level": "easy"}],
            "sit": 0,
            "name": "Anna",
            "options": {"quick_build": True, "turn_limit": 2},
        },
    ).json()
    anna.evaluate(
        "m => localStorage.setItem('rallye.seats', JSON.stringify({[m.code]: {seat: m.seat, token: m.token}}))", made
    )
    anna.goto(f"{base_url}/t/{made['code']}")
    ready(anna)
    deadline = time.monotonic() + 60
    while not state(anna)["view"]["over"]:
        assert time.monotonic() < deadline, "the short game did not end"
        wait_my_turn(anna)
        if state(anna)["view"]["over"]:
            break
        before = state(anna)["move_no"]
        kinds = kr_kinds(anna)
        if "move" in kinds:
            anna.locator("#controls .all-moves button[data-action]").first.dispatch_event("click")
        else:
            anna.locator("#controls button[data-action]").last.click()
        wait_past(anna, before)
    anna.wait_for_selector("#result:not([hidden]) .winner")
    anna.wait_for_selector("dialog#summary[open] .winner")  # the end: a summary that stays until closed
    assert anna.get_attribute("#summary a[download]", "href") == f"/api/tables/{made['code']}/record"
    shot(anna, "kr-over")
    check_both_schemes(anna, "Knight Rider, the game's end")
    anna.click("#summary button.again")
    anna.wait_for_url(lambda url: made["code"] not in url)
    ready(anna)
    assert anna.evaluate("window.rallye.seat") == 0
    assert anna.evaluate("window.rallye.code") != made["code"]
