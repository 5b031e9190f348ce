"""Helpers of the browser tests: pages that watch their requests, screenshots, axe-core."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
SHOTS = HERE / "screenshots"
#: The pictures of the pages in the README and docs/: with RALLYE_DOCS_PICTURES=1 the tests that
#: take them write them there (one screen, at the page's own pixel size): look, then commit.
DOCS_PICTURES = HERE.parent.parent / "docs" / "images"
AXE = HERE / "vendor" / "axe.min.js"


class Pages:
    """Opens pages in browser contexts that record foreign requests and script errors."""

    def __init__(self, browser: Any, base_url: str) -> None:
        self.browser = browser
        self.base_url = base_url
        self.host = urlsplit(base_url).netloc
        self.foreign: list[str] = []
        self.errors: list[str] = []
        self.contexts: list[Any] = []

    def new(self, **context_args: Any) -> Any:
        context = self.browser.new_context(**context_args)
        self.contexts.append(context)

        def route(r: Any) -> None:
            url = r.request.url
            if urlsplit(url).scheme in ("http", "https", "ws", "wss") and urlsplit(url).netloc != self.host:
                self.foreign.append(url)
                r.abort()
            else:
                r.continue_()

        context.route("**/*", route)
        page = context.new_page()
        page.set_default_timeout(15_000)
        # Playwright's own wait_for_function evals its predicate in the page, which the pages'
        # Content-Security-Policy refuses (no 'unsafe-eval'): the tests poll instead
        page.wait_for_function = lambda expression, arg=None, timeout=15_000: wait_for(page, expression, arg, timeout)
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        page.on("console", lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None)
        return page

    def close(self) -> None:
        for c in self.contexts:
            c.close()


def wait_for(page: Any, expression: str, arg: Any = None, timeout: float = 15_000) -> Any:
    """``page.wait_for_function`` by polling ``page.evaluate`` (the browser's debugging
    protocol, which the pages' CSP does not govern): the first truthy value, or a failure
    after ``timeout`` milliseconds."""
    deadline = time.monotonic() + timeout / 1000
    while True:
        value = page.evaluate(expression, arg)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout / 1000:g} s: {expression}")
        page.wait_for_timeout(50)


def shot(page: Any, name: str, *, screen: bool = False, docs: str | None = None) -> None:
    """The whole page as ``name.png``; with ``screen``, also what one screen shows as
    ``name-screen.png``; ``docs``: the name of the picture of the README or docs/ this screen
    is, written to docs/images/ when RALLYE_DOCS_PICTURES is set."""
    SHOTS.mkdir(exist_ok=True)
    page.evaluate("document.getAnimations().forEach((a) => a.finish())")  # the picture as it settles
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    if screen:
        page.screenshot(path=str(SHOTS / f"{name}-screen.png"))
    if docs and os.environ.get("RALLYE_DOCS_PICTURES"):
        page.screenshot(path=str(DOCS_PICTURES / docs), scale="css")


def check_both_schemes(page: Any, where: str) -> None:
    """axe-core in the light and the dark colour scheme (the page's own scheme last)."""
    own = "dark" if page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") else "light"
    for scheme in ("dark", "light") if own == "light" else ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        check_accessibility(page, f"{where}, {scheme}")


def check_accessibility(page: Any, where: str) -> None:
    """axe-core in the page: no violation, whatever its impact."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # evaluated by the browser's debugging protocol: an inline <script> tag is refused by
        # the pages' Content-Security-Policy (as it should be)
        page.evaluate(AXE.read_text("utf-8"))
    result = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    bad = [{"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]} for v in result]
    assert not bad, f"{where}: accessibility violations {json.dumps(bad, indent=1)}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Served:
    """The app ``rallye serve`` runs, on a thread, with bots that answer at once (and games
    analysed by ``analysis_bot``); ``stop()``
    and a new ``Served`` on the same database and port is a server that went down and came back."""

    def __init__(self, db: Path, port: int | None = None, analysis_bot: str = "hard/8") -> None:
        import uvicorn

        from rallye.server.app import create_app

        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # the cheap coach (rallye serve --coach-bot hard): the same hints' code, a fraction of the search;
        # the replays' analyses by a cheap bot (an eighth of hard's budget: a match in about a second)
        app = create_app(
            database_url=f"sqlite:///{db}", bot_delay=0, owner="web-tests", coach_bot="hard", analysis_bot=analysis_bot
        )
        config = uvicorn.Config(
            app, host="127.0.0.1", port=self.port, ws="websockets-sansio", log_level="warning", lifespan="on"
        )  # as `rallye serve` runs it
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server under test did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


# Every control a finger touches on this page that is smaller than 44 × 44 CSS px.
SMALL_TARGETS_JS = """() => {
  const out = [];
  const sel = 'button, a[href], select, input:not([type=hidden]), summary, [role=button]';
  for (const e of document.querySelectorAll(sel)) {
    if (e.closest('.skip, .sr-only, [hidden], dialog:not([open])') || e.matches('.skip')) continue;
    // a radio button or a check box is touched through its label
    const r = (e.matches('[type=radio], [type=checkbox]') && e.closest('label') || e).getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(e).visibility === 'hidden') continue;
    const what = e.id || e.dataset.action || e.dataset.card || e.getAttribute('aria-label') || e.textContent.trim();
    const size = [Math.round(r.width), Math.round(r.height)];
    if (r.width < 43.5 || r.height < 43.5) out.push([e.tagName, what.slice(0, 40), ...size]);
  }
  return out;
}"""


def small_targets(page: Any) -> list[Any]:
    found: list[Any] = page.evaluate(SMALL_TARGETS_JS)
    return found
