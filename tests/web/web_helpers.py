"""Helpers of the browser tests: pages that watch their requests, screenshots, axe-core."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
SHOTS = HERE / "screenshots"
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


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def check_accessibility(page: Any, where: str) -> None:
    """axe-core in the page: no serious or critical violation."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # evaluated by the browser's debugging protocol: an inline <script> tag is refused by
        # the pages' Content-Security-Policy (as it should be)
        page.evaluate(AXE.read_text("utf-8"))
    result = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    bad = [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in result
        if v["impact"] in ("serious", "critical")
    ]
    assert not bad, f"{where}: accessibility violations {json.dumps(bad, indent=1)}"
