"""Browser tests: a real server on a free port and Debian's Chromium driven by Playwright.

The server is the app ``rallye serve`` runs (``rallye.server.app.create_app``) with a fresh
SQLite database and bots that answer at once; set ``RALLYE_WEB_BASE_URL`` to test a server
that is already running instead. Every page is opened in a context that fails the test on
any request to another host and on any script error. Screenshots go to
``tests/web/screenshots/`` (git-ignored): look at them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import Pages, Served

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    given = os.environ.get("RALLYE_WEB_BASE_URL")
    if given:
        yield given.rstrip("/")
        return
    served = Served(tmp_path_factory.mktemp("web") / "tables.db")
    yield served.url
    served.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        if os.environ.get("RALLYE_REQUIRE_BROWSER"):  # CI installs it: missing there is a failure
            pytest.fail(f"{CHROMIUM} is required (RALLYE_REQUIRE_BROWSER) but not installed")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def pages(browser: Any, base_url: str) -> Iterator[Pages]:
    p = Pages(browser, base_url)
    yield p
    p.close()
    assert not p.foreign, f"pages asked another host: {p.foreign}"
    assert not p.errors, f"script errors: {p.errors}"
