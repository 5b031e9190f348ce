"""The browser pages of ``rallye serve``: plain HTML, CSS and JavaScript modules.

``static/`` is served as ``/static``; ``index.html`` is the lobby (``/``) and ``table.html``
every table (``/t/{code}``). No build step and nothing from another host: the pages hold
no rule, they draw what the server sends a seat and offer the legal actions it listed.
Their words come from the catalogs ``rallye/i18n/catalogs/web/<lang>.json``.
"""

from __future__ import annotations

from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"
CATALOGS = Path(__file__).resolve().parents[1] / "i18n" / "catalogs" / "web"
LANGUAGES = ("de", "hu", "en", "fr")
