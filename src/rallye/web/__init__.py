"""The browser pages of ``rallye serve``: plain HTML, CSS and JavaScript modules.

``index.html`` is the lobby (``/``) and ``table.html`` every table (``/t/{code}``); ``static/``
(CSS and JavaScript modules) is served as ``/static``. No build step and nothing from another host: the pages hold
no rule, they draw what the server sends a seat and offer the legal actions it listed.
Their words come from the catalogs ``rallye/i18n/catalogs/web/<lang>.json``.
"""

from __future__ import annotations

from pathlib import Path

PAGES = Path(__file__).resolve().parent
STATIC = PAGES / "static"
CATALOGS = Path(__file__).resolve().parents[1] / "i18n" / "catalogs" / "web"
LANGUAGES = ("de", "hu", "en", "fr")
