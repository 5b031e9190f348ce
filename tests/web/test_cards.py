"""The card pictures (static/js/cards.js) in a real browser: every card of every edition, in
every card language, on a page in each of the four page languages, at a phone's card size.

One page draws them all at once (the names from /api/info, as the table page has them) and
reports what it drew; the names must be the editions' own (read here from the engine's data),
every line of a name whole words (or a syllable break the module lists), and no text outside
its card. Knight Rider's cars: each player's own colour, the villain's car red. Screenshots of
the gallery (light and dark) and of a Knight Rider board go to tests/web/screenshots/.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from web_helpers import SHOTS, Pages, shot

from rallye.server.games import lobby_info

CATALOGS = Path(__file__).resolve().parents[2] / "src" / "rallye" / "i18n" / "catalogs" / "web"
PAGE_LANGUAGES = ("de", "hu", "en", "fr")
KINDS = {"distance", "hazard", "remedy", "safety"}

# Draws the gallery: for each edition and card language a row of upright cards, then a row of
# small ones; returns, per card, what a reader would check by eye.
GALLERY = """
async (pageLang) => {
  const i18n = await import("/static/js/i18n.js");
  const cards = await import("/static/js/cards.js");
  await i18n.loadLanguage(pageLang);
  if (!document.querySelector("link[href='/static/css/cards.css']")) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = "/static/css/cards.css";
    const loaded = new Promise((ok) => link.addEventListener("load", ok));
    document.head.append(link);
    await loaded;
  }
  const info = await (await fetch("/api/info")).json();
  // each hazard beside its remedy and its safety
  const ORDER = ["D25", "D50", "D75", "D100", "D200", "STOP", "ROLL", "SPEED_LIMIT", "END_OF_LIMIT",
    "RIGHT_OF_WAY", "OUT_OF_GAS", "GASOLINE", "EXTRA_TANK", "FLAT_TIRE", "SPARE_TIRE", "PUNCTURE_PROOF",
    "ACCIDENT", "REPAIRS", "DRIVING_ACE"];
  const box = document.createElement("main");
  box.style.cssText = "display:flex;flex-direction:column;gap:6px;padding:8px;max-width:none";
  document.body.replaceChildren(box);
  const drawn = [];
  for (const ed of info.editions) {
    for (const [lang, names] of Object.entries(ed.names)) {
      for (const small of [false, true]) {
        const row = document.createElement("div");
        row.style.cssText = "display:flex;flex-wrap:wrap;gap:4px;align-items:center";
        const head = document.createElement("span");
        head.textContent = `${ed.key} ${lang}${small ? " small" : ""}`;
        head.style.cssText = "width:7rem;font-size:12px";
        row.append(head);
        for (const card of ORDER.filter((c) => c in names)) {
          const name = names[card];
          const kind = cards.KIND[card];
          const pic = cards.cardSVG(card, { name, lang, kindLabel: i18n.t(`mille.kind.${kind}`), small });
          // a phone's sizes: 64 × 90 in the hand, 2.7 × 3.3 rem on a side's piles
          pic.style.width = small ? "2.7rem" : "64px";
          pic.style.height = small ? "3.3rem" : "90px";
          row.append(pic);
          drawn.push({ edition: ed.key, lang, card, small, pic });
        }
        box.append(row);
      }
    }
  }
  await document.fonts.ready;
  return drawn.map(({ edition, lang, card, small, pic }) => {
    const r = pic.getBoundingClientRect();
    const texts = [...pic.querySelectorAll("text")];
    return {
      edition, lang, card, small,
      tag: pic.tagName.toLowerCase(),
      classes: pic.getAttribute("class"),
      name: pic.dataset.name,
      label: pic.getAttribute("aria-label"),
      role: pic.getAttribute("role"),
      title: pic.querySelector("title")?.textContent,
      lines: [...pic.querySelectorAll(".rc-name text")].map((t) => [t.textContent, t.dataset.break]),
      outside: texts.filter((t) => {
        const b = t.getBoundingClientRect();
        return b.left < r.left - 0.5 || b.right > r.right + 0.5 || b.top < r.top - 0.5 || b.bottom > r.bottom + 0.5;
      }).map((t) => t.textContent),
      styled: pic.querySelectorAll("[style], style").length,  // the pages' CSP allows no inline style
    };
  });
}
"""


def _catalog(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CATALOGS / f"{lang}.json").read_text("utf-8"))
    return data


def _joined(lines: list[list[str]], breaks: dict[str, list[str]]) -> tuple[str, list[str]]:
    """The name the lines spell, and what is wrong with any break between them."""
    out = ""
    wrong = []
    soft = []  # where in the spelt name a word was broken at a syllable
    for text, how in lines:
        if not text or text != text.strip():
            wrong.append(f"line {text!r} is empty or has spaces at its ends")
        if how == "soft":
            if not text.endswith("-"):
                wrong.append(f"line {text!r} breaks a word without a hyphen")
            out += text[:-1]
            soft.append(len(out))
        elif how == "space":
            out += text + " "
        elif how in ("hyphen", "end"):
            if how == "hyphen" and not text.endswith("-"):
                wrong.append(f"line {text!r} claims to end at a hyphen")
            out += text
        else:
            wrong.append(f"line {text!r}: unknown break {how!r}")
    for at in soft:
        word = next((m for m in re.finditer(r"[\w'’]+", out) if m.start() < at < m.end()), None)
        if word is None:
            wrong.append(f"a syllable break at {at} of {out!r} is not inside a word")
            continue
        syllables = breaks.get(word.group(), [])
        points = {sum(len(s) for s in syllables[:k]) for k in range(1, len(syllables))}
        if at - word.start() not in points:
            wrong.append(f"{word.group()!r} broken after {at - word.start()} letters: not a break the module lists")
    return out, wrong


def test_every_card_of_every_edition_in_every_language(pages: Pages, base_url: str) -> None:
    page = pages.new(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page.goto(base_url + "/")
    page.wait_for_selector("body[data-ready='1']")
    hyphens = page.evaluate("async () => (await import('/static/js/cards.js')).HYPHENS")
    breaks = {re.sub("[|·]", "", w): re.split("[|·]", w) for words in hyphens.values() for w in words}
    for word, syllables in breaks.items():  # the module's breaks leave two letters each side
        assert all(len(re.sub(r"\W", "", s)) >= 2 for s in syllables), word
    editions = {e["key"]: e for e in lobby_info()["editions"]}
    for page_lang in PAGE_LANGUAGES:
        kind_words = {k: _catalog(page_lang)[f"mille.kind.{k}"] for k in KINDS}
        drawn = page.evaluate(GALLERY, page_lang)
        assert len(drawn) == sum(2 * len(e["names"][n]) for e in editions.values() for n in e["names"])
        problems = []
        for d in drawn:
            where = f"{page_lang} page, {d['edition']} {d['lang']} {d['card']}{' small' if d['small'] else ''}"
            expected = editions[d["edition"]]["names"][d["lang"]][d["card"]]
            kind = next(k for k in KINDS if k in d["classes"].split())
            if d["tag"] != "svg" or d["role"] != "img" or "card" not in d["classes"].split():
                problems.append(f"{where}: not a card picture ({d['tag']}, {d['classes']})")
            if d["name"] != expected:
                problems.append(f"{where}: name {d['name']!r}, the edition says {expected!r}")
            if d["label"] != f"{expected} ({kind_words[kind]})":
                problems.append(f"{where}: label {d['label']!r}")
            if d["small"]:  # too small to read a name: the symbol, the name in the label and tooltip
                if d["lines"] or d["title"] != d["label"]:
                    problems.append(f"{where}: a small card shows {d['lines']}, titled {d['title']!r}")
            else:
                spelt, wrong = _joined(d["lines"], breaks)
                if spelt != expected:
                    problems.append(f"{where}: the lines {d['lines']} spell {spelt!r}, not {expected!r}")
                problems += [f"{where}: {w}" for w in wrong]
            if d["styled"]:
                problems.append(f"{where}: inline styles, which the pages' CSP refuses")
            if d["outside"]:
                problems.append(f"{where}: text leaves the card: {d['outside']}")
        assert not problems, "\n".join(problems[:40])
    # the same cards on a light and a dark page: look at them
    shot(page, "cards-light")
    page.emulate_media(color_scheme="dark")
    shot(page, "cards-dark")


def test_knight_rider_cars_have_their_own_colours_and_the_villain_is_red(pages: Pages, base_url: str) -> None:
    """Five players (four bots) on a quickly built track, played until every car is on it."""
    page = pages.new(locale="en-GB", viewport={"width": 1280, "height": 900}, device_scale_factor=2)
    page.goto(base_url + "/")
    page.wait_for_selector("body[data-ready='1']")
    made = page.request.post(
        base_url + "/api/tables",
        data={
            "game": "knightrider",
            "players": 5,
            "seats": [{"kind": "person"}] + [{"kind": "bot", "level": "easy"}] * 4,
            "sit": 0,
            "name": "Anna",
            "options": {"quick_build": True, "turn_limit": 30},
        },
    ).json()
    page.evaluate(
        "m => localStorage.setItem('rallye.seats', JSON.stringify({[m.code]: {seat: m.seat, token: m.token}}))", made
    )
    page.goto(f"{base_url}/t/{made['code']}")
    page.wait_for_selector("body[data-ready='1']")
    on_board = "(((v) => (v.cars.length > 0 && v.cars.every((c) => c.field)) || v.over)(window.rallye.state.view))"
    for _ in range(40):
        page.wait_for_function(
            f"(() => {{ const r = window.rallye; return r.state && ({on_board}"
            " || (r.state.turn === r.seat && r.state.legal.length > 0)); })()"
        )
        if page.evaluate(on_board):
            break
        before = page.evaluate("window.rallye.state.move_no")
        kinds = [entry["info"]["kind"] for entry in page.evaluate("window.rallye.state.legal")]
        if "move" in kinds:
            page.locator("#controls .all-moves button[data-action]").first.dispatch_event("click")
        else:
            page.locator("#controls button[data-action]").last.click()
        page.wait_for_function("n => window.rallye.state.move_no > n", arg=before)
    # the view and the board in one evaluation: a bot's move between two reads would pair a
    # view with the drawing of the next one
    snap = page.evaluate(
        """() => ({ view: window.rallye.state.view,
          cars: [...document.querySelectorAll("svg.kr-board g.car")].map((g) => ({
            cls: g.getAttribute("class"), label: g.getAttribute("aria-label"), role: g.getAttribute("role"),
            body: getComputedStyle(g.querySelector(".kr-body")).fill,
            number: g.querySelector("text").textContent, transform: g.getAttribute("transform") })),
          villain: (() => { const g = document.querySelector("svg.kr-board g.villain");
            const body = g && getComputedStyle(g.querySelector(".kr-body")).fill;
            return g && { label: g.getAttribute("aria-label"), body }; })() })"""
    )
    view, cars, villain = snap["view"], snap["cars"], snap["villain"]
    shown = [c for c in view["cars"] if c["field"] or c["side"] >= 0]
    assert len(shown) >= 2 and len(cars) == len(shown), (cars, view["cars"])
    for car in cars:
        player = int(re.search(r"car-(\d)", car["cls"])[1])
        assert car["role"] == "img" and car["label"] and car["number"] == str(player + 1)
        heading = next(c["heading"] for c in view["cars"] if c["player"] == player)
        assert f"rotate({heading * 90})" in car["transform"]  # the picture faces the car's heading
    colours = {car["body"] for car in cars}
    assert len(colours) == len(cars), f"two players share a colour: {cars}"
    assert view["villain"] and villain and villain["label"]
    assert villain["body"] == "rgb(208, 2, 27)", villain  # the red car
    assert villain["body"] not in colours
    shot(page, "kr-cars")
    # a close look at the cars and the villain (the page's own size, twice the pixels)
    box = page.evaluate(
        """() => { const rs = [...document.querySelectorAll("svg.kr-board g.car, svg.kr-board g.villain")]
          .map((g) => g.getBoundingClientRect());
          const x = Math.min(...rs.map((r) => r.left)) - 48, y = Math.min(...rs.map((r) => r.top)) - 48;
          const right = Math.max(...rs.map((r) => r.right)) + 48, bottom = Math.max(...rs.map((r) => r.bottom)) + 48;
          return { x: Math.max(0, x + scrollX), y: Math.max(0, y + scrollY), width: right - x,
            height: bottom - y }; }"""
    )
    page.screenshot(path=str(SHOTS / "kr-cars-close.png"), clip=box, full_page=True)
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=str(SHOTS / "kr-cars-close-dark.png"), clip=box, full_page=True)
