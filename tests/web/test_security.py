"""Issue 65, item 4, in the browser: the pages run under their Content-Security-Policy (the
other browser tests fail on any script error, a refused style or script included), and the
policy refuses what an injected script would need."""

from __future__ import annotations

from web_helpers import Pages


def test_the_policy_refuses_inline_script_and_framing(pages: Pages, base_url: str) -> None:
    page = pages.new()
    page.goto(base_url + "/")
    page.wait_for_selector("select, button")
    page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.injected = 1';"
        " document.head.append(s); }"
    )
    assert page.evaluate("() => window.injected") is None
    refused = [e for e in pages.errors if "Content Security Policy" in e]
    assert refused, pages.errors
    pages.errors[:] = [e for e in pages.errors if e not in refused]  # expected: it is what is tested
    # another site cannot frame the lobby
    other = pages.new()
    other.set_content(f'<iframe src="{base_url}/"></iframe>')
    other.wait_for_timeout(500)
    frame = other.frames[-1]
    assert not frame.url.startswith(base_url)  # Chromium shows its error page instead
    pages.errors[:] = [e for e in pages.errors if "frame" not in e.lower()]
