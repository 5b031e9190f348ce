"""Helpers of the browser tests: pages that watch their requests, screenshots, axe-core."""

from __future__ import annotations

import json
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
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        page.on("console", lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None)
        return page

    def close(self) -> None:
        for c in self.contexts:
            c.close()


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def check_accessibility(page: Any, where: str) -> None:
    """axe-core in the page: no serious or critical violation."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text("utf-8"))
    result = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    bad = [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in result
        if v["impact"] in ("serious", "critical")
    ]
    assert not bad, f"{where}: accessibility violations {json.dumps(bad, indent=1)}"
