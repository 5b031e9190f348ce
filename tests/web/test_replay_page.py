"""The replay page in a real browser (docs/server.md, "Replays"): a finished game of each game
stepped through to the record's end, the keys, the jumps between hands, an unfinished table
refused, record files opened (a good one and a broken one), the server's real analysis of a
finished game (its progress, then the graph and the marks without a reload), the analysis
drawn from a fixture (the hindsight line), and what it looks like on a phone and a desktop."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

import pytest
from web_helpers import Pages, check_both_schemes, shot, small_targets

from rallye.core.record import parse_jsonl
from rallye.games import game_for
from rallye.server.games import JSON

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 860}}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
BOTS = {"kind": "bot", "level": "easy"}
FIXTURE = Path(__file__).resolve().parent / "data" / "analysis_fixture.json"
# each side's places, in the order the page shows them
PLACES_JS = """[...document.querySelectorAll('.tableau')]
  .map((t) => [...t.querySelectorAll('.slot')].map((s) => s.dataset.slot))"""


# Every move, one "next" at a time, as fast as the page draws them: the frames shown and the
# moves not said in words (their notation shown as it is).
STEP_ALL_JS = """async () => {
  const r = window.rallye, frames = [], unsaid = [];
  const next = document.getElementById('next');
  while (!next.disabled) {
    const want = r.at + 1;
    next.click();
    while (document.body.dataset.frame !== String(want)) await new Promise((ok) => setTimeout(ok, 5));
    frames.push(want);
    const words = document.getElementById('move-words').textContent;
    const action = r.move.action;
    if (!words || words === action || words.endsWith(': ' + action)) unsaid.push([want, words]);
  }
  return { frames, unsaid };
}"""


def finished(page: Any, base_url: str, **settings: Any) -> str:
    """A table of two bots played to its end through the API; its code."""
    made = page.request.post(base_url + "/api/tables", data={"players": 2, "seats": [BOTS, BOTS], **settings}).json()
    code: str = made["code"]
    deadline = time.monotonic() + 120
    while page.request.get(f"{base_url}/api/tables/{code}").json()["table"]["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    return code


def ready(page: Any) -> None:
    page.wait_for_function("document.body.dataset.ready === '1' || document.body.dataset.ready === 'error'")


def at_frame(page: Any, n: int) -> None:
    page.wait_for_function(f"document.body.dataset.frame === '{n}'")


def final_json(page: Any, base_url: str, code: str, game: str) -> Any:
    record = page.request.get(f"{base_url}/api/tables/{code}/record").text()
    return json.loads(json.dumps(JSON[game].full_json(game_for(game).replay(parse_jsonl(record)).final)))


@pytest.mark.parametrize("game", ["mille", "knightrider"])
def test_a_finished_game_steps_to_the_records_end(pages: Pages, base_url: str, game: str) -> None:
    settings = (
        {"game": "mille", "edition": "hu"}
        if game == "mille"
        else {"game": "knightrider", "options": {"quick_build": True, "turn_limit": 40}}
    )
    page = pages.new(locale="en-GB", **PHONE)
    code = finished(page, base_url, **settings)
    page.goto(f"{base_url}/r/{code}")
    ready(page)
    at_frame(page, 0)
    data = page.evaluate("window.rallye.data")
    last = data["frames"] - 1
    # the steps fit a phone's screen without scrolling; every control is big enough for a finger
    box = page.locator("#steps").bounding_box()
    assert box["y"] + box["height"] <= 844 and box["y"] > 300
    assert not small_targets(page), small_targets(page)
    page.locator("#next").tap()
    at_frame(page, 1)
    words = page.locator("#move-words").text_content()
    assert words and words != page.evaluate("window.rallye.move.action")  # in words, not the notation
    assert page.locator(".open-seat").count() == 2
    page.locator("#next").tap()
    at_frame(page, 2)
    page.locator("#prev").tap()
    at_frame(page, 1)
    middle = data["frames"] * 2 // 3
    page.locator("#slider").fill(str(middle))
    at_frame(page, middle)
    shot(page, f"replay-{game}-phone-middle", screen=True)
    # to the end (frames fetched stretch by stretch): the last is the record's end
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url) if "/frames" in r.url else None)
    page.locator("#last").tap()
    at_frame(page, last)
    assert page.evaluate("window.rallye.state.view") == final_json(page, base_url, code, game)
    assert page.locator("#next").is_disabled() and not page.locator("#prev").is_disabled()
    assert len(requests) <= 2  # the stretch of the last frame (and the one before it)
    # and every move, one by one from the start: each drawn, each said in words
    page.locator("#first").tap()
    at_frame(page, 0)
    seen = page.evaluate(STEP_ALL_JS)
    assert seen["frames"] == list(range(1, last + 1)), seen["frames"][:5]
    assert not seen["unsaid"], seen["unsaid"][:5]
    assert page.evaluate("window.rallye.state.view") == final_json(page, base_url, code, game)
    if game == "mille":
        assert page.locator("#result .sheet").count() >= 1  # the score sheets
    assert page.locator("#result .winner").count() == 1
    shot(page, f"replay-{game}-phone-end", screen=True)
    check_both_schemes(page, f"the {game} replay on a phone")


def test_keys_step_and_jump_between_hands(pages: Pages, base_url: str) -> None:
    page = pages.new(locale="en-GB", **DESKTOP)
    code = finished(page, base_url, game="mille", edition="hu")
    page.goto(f"{base_url}/r/{code}")
    ready(page)
    at_frame(page, 0)
    data = page.evaluate("window.rallye.data")
    page.keyboard.press("ArrowRight")
    at_frame(page, 1)
    page.keyboard.press("ArrowRight")
    at_frame(page, 2)
    page.keyboard.press("ArrowLeft")
    at_frame(page, 1)
    page.keyboard.press("End")
    at_frame(page, data["frames"] - 1)
    page.keyboard.press("Home")
    at_frame(page, 0)
    stages = data["stages"]
    assert len(stages) >= 2, "the match has more than one hand"
    page.keyboard.press("PageDown")
    at_frame(page, stages[1])
    assert page.evaluate("window.rallye.state.view.hand_no") == 1
    page.keyboard.press("PageUp")
    at_frame(page, 0)
    # the slider: to the middle of the game
    middle = data["frames"] // 2
    page.locator("#slider").fill(str(middle))
    at_frame(page, middle)
    assert page.locator("#turn").text_content() == f"Move {middle} of {data['frames'] - 1}"
    # the live region tells a screen reader where the step went
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    at_frame(page, 1)
    assert "Move 1 of" in page.locator("#announce").text_content()


def test_an_unfinished_table_is_refused(pages: Pages, base_url: str) -> None:
    page = pages.new(locale="en-GB", **PHONE)
    made = page.request.post(
        base_url + "/api/tables",
        data={
            "game": "mille",
            "edition": "hu",
            "players": 2,
            "seats": [{"kind": "person"}, BOTS],
            "sit": 0,
            "name": "A",
        },
    ).json()
    page.goto(f"{base_url}/r/{made['code']}")
    ready(page)
    assert page.evaluate("document.body.dataset.ready") == "error"
    assert "not over yet" in page.locator("#error").text_content()
    assert page.locator("#play").is_hidden() and page.locator(".card").count() == 0
    expected = [e for e in pages.errors if "409" in e]
    assert len(expected) == 1, pages.errors  # the refusal itself, and nothing else
    pages.errors[:] = [e for e in pages.errors if e not in expected]


def test_open_a_good_and_a_broken_record_file(pages: Pages, base_url: str, tmp_path: Path) -> None:
    page = pages.new(locale="fr-FR", **PHONE)
    code = finished(page, base_url, game="knightrider", options={"quick_build": True, "turn_limit": 40})
    record = page.request.get(f"{base_url}/api/tables/{code}/record").text()
    good = tmp_path / "partie.jsonl"
    good.write_text(record, encoding="utf-8")
    lines = [json.loads(line) for line in record.splitlines()]
    at = [i for i, line in enumerate(lines) if line["type"] == "action"][3]
    lines[at]["player"] = (lines[at]["player"] + 1) % 2
    broken = tmp_path / "cassee.jsonl"
    broken.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    page.goto(f"{base_url}/replay")
    ready(page)
    check_both_schemes(page, "the replay page with no file")
    page.locator("#open-file").set_input_files(str(broken))
    page.locator("#open-form button[type=submit]").tap()
    page.wait_for_function("document.getElementById('open-error').textContent.length > 0")
    said = page.locator("#open-error").text_content()
    assert f"la ligne {at + 1} est fausse" in said and "Traceback" not in said
    assert page.locator("#play").is_hidden()
    expected = [e for e in pages.errors if "422" in e]
    assert len(expected) == 1, pages.errors  # the refusal itself, and nothing else
    pages.errors[:] = [e for e in pages.errors if e not in expected]
    page.locator("#open-file").set_input_files(str(good))
    page.locator("#open-form button[type=submit]").tap()
    at_frame(page, 0)
    assert page.locator("#open-error").text_content() == ""
    assert "/replay?file=" in page.url
    page.locator("#last").tap()
    data = page.evaluate("window.rallye.data")
    at_frame(page, data["frames"] - 1)
    assert page.evaluate("window.rallye.state.view") == final_json(page, base_url, code, "knightrider")
    # the address opens the same replay again (as `rallye replay FILE --web` prints it)
    page.reload()
    at_frame(page, 0)
    assert page.evaluate("window.rallye.data.frames") == data["frames"]


def test_the_servers_analysis_of_a_finished_game(pages: Pages, base_url: str) -> None:
    """The replay asks the server for the game's analysis: the first to open it sees its
    progress, then the graph and the marks appear without a reload; the next one is served
    at once (the server made it once)."""
    code = finished(pages.new(), base_url, game="mille", edition="hu")
    for size, where in ((PHONE, "phone"), (LAPTOP, "desktop")):
        page = pages.new(locale="en-GB", **size)
        page.goto(f"{base_url}/r/{code}")
        ready(page)
        at_frame(page, 0)
        if where == "phone":  # the first to open it: the server is making it
            page.wait_for_function("document.getElementById('analysis-wait') !== null")
            words = page.locator("#analysis-wait").text_content()
            assert "analysing this game" in words or "starts soon" in words, words
        page.wait_for_function("document.body.dataset.analysis === 'ready'", timeout=120_000)
        analysis = page.evaluate("window.rallye.analysis")
        assert analysis == page.request.get(f"{base_url}/api/tables/{code}/analysis").json()
        assert analysis["moves"] == page.evaluate("window.rallye.data.frames") - 1
        assert page.locator("#analysis svg.win-graph polyline").count() == 2
        assert page.locator("#analysis-wait").count() == 0
        marked = [d for d in analysis["decisions"] if d["mark"]]
        assert marked, "the easy bots' game has marked moves"
        assert page.locator("#analysis circle.dot").count() == len(marked)
        worst = max(marked, key=lambda d: (["inaccuracy", "mistake", "blunder"].index(d["mark"]), d["loss_win"] or 0))
        page.locator("#slider").fill(str(worst["move"]))
        at_frame(page, worst["move"])
        verdict = page.locator("#verdict").text_content()
        assert worst["mark"].capitalize() in verdict and "Preferred:" in verdict, verdict
        assert "Chance to win now" in page.locator("#analysis .win-now").text_content()
        # each side's places in the table's order
        for places in page.evaluate(PLACES_JS):
            assert places == ["battle", "speed", "distance", "safeties"], places
        picture = "web-replay-phone.png" if where == "phone" else "web-replay.png"
        page.evaluate("document.activeElement.blur()")  # the picture without the slider's focus ring
        shot(page, f"replay-real-analysis-{where}", screen=True, docs=picture)
        check_both_schemes(page, f"the replay with the server's analysis on a {where}")


def test_the_analysis_graph_and_marks_from_a_fixture(pages: Pages, base_url: str) -> None:
    code = finished(pages.new(), base_url, game="mille", edition="hu")
    for size, where in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = pages.new(locale="en-GB", **size)
        data = page.request.get(f"{base_url}/api/tables/{code}/replay").json()
        data["moves"] = [
            m
            for start in range(0, data["frames"], data["chunk"])
            for m in page.request.get(f"{base_url}/api/tables/{code}/replay/frames?from={start}").json()["moves"]
            if m
        ]
        analysis = fixture_for(data)
        # a made-up analysis in place of the server's (it has the hindsight line, which the server does not make)
        page.route("**/analysis", answer_json(lambda route, a=analysis: a))
        page.route(f"**/api/tables/{code}/replay", with_analysis(f"/api/tables/{code}/analysis"))
        page.goto(f"{base_url}/r/{code}")
        ready(page)
        at_frame(page, 0)
        assert page.locator("#analysis svg.win-graph polyline").count() == 2
        desc = page.locator("#analysis svg.win-graph desc").text_content()
        assert "% at the start" in desc and "% at the end" in desc
        marked = next(d for d in analysis["decisions"] if d["mark"] == "blunder")
        page.locator("#slider").fill(str(marked["move"]))
        at_frame(page, marked["move"])
        verdict = page.locator("#verdict").text_content()
        assert "Blunder" in verdict and "Preferred:" in verdict and "With hindsight" in verdict
        assert "Chance to win now" in page.locator("#analysis .win-now").text_content()
        assert page.locator("#analysis circle.dot").count() == sum(1 for d in analysis["decisions"] if d["mark"])
        shot(page, f"replay-analysis-{where}", screen=True)
        check_both_schemes(page, f"the replay with its analysis on a {where}")


def answer_json(body: Any) -> Any:
    def handle(route: Any, request: Any = None) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body(route)))

    return handle


def with_analysis(url: str) -> Any:
    """The server's replay summary, naming where the analysis is."""
    return answer_json(lambda route: {**route.fetch().json(), "analysis": url})


def fixture_for(data: dict[str, Any]) -> dict[str, Any]:
    """The analysis contract's JSON (docs/analysis.md) for this game's moves: a made-up graph
    and a mark on a few of them, from the fixture's shape."""
    base = json.loads(FIXTURE.read_text("utf-8"))
    n = len(data["moves"])
    graph = []
    for i in range(n + 1):
        a = 0.5 + (0.35 * (i / n) ** 1.5 + 0.08 * math.sin(i / 9)) * (1 if data["result"]["winners"] == [0] else -1)
        a = min(0.98, max(0.02, a)) if i < n else (1.0 if data["result"]["winners"] == [0] else 0.0)
        graph.append([round(a, 3), round(1 - a, 3)])
    decisions = []
    for i, m in enumerate(data["moves"][: n - 1]):
        if i % 9:
            continue
        mark = ["inaccuracy", "mistake", "blunder"][(i // 9) % 3] if i % 27 == 0 or i % 45 == 0 else None
        later = [x["action"] for x in data["moves"][i + 1 :] if x["seat"] == m["seat"]]
        other = next(
            (a for a in later if a != m["action"]), "discard D25" if m["action"] != "discard D25" else "discard D50"
        )
        decisions.append(
            {
                **base["decisions"][0],
                "move": i + 1,
                "seat": m["seat"],
                "side": m["seat"],
                "played": m["action"],
                "best": other if mark else m["action"],
                "mark": mark,
                "loss_points": 12.5 if mark else 0.0,
                "win_before": graph[i],
                "hindsight": {"best": other, "loss_points": 30.0} if mark == "blunder" else None,
            }
        )
    assert any(d["mark"] == "blunder" and d["best"] != d["played"] for d in decisions)
    return {**base, "moves": n, "decisions": decisions, "graph": graph}
