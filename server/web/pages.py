"""The spectators' pages: an HTML shell per page in the visitor's language, and the static files the shells load.

Why shells and scripts: every page is live (a round's tables, a match's moves), so what it shows is drawn by its
script from the API and the game's websocket; the server sends a small shell that names the page and what it shows
(``data-page``, ``data-id``), carries the words of the visitor's language (``server.web.web_words``) and loads the
scripts. The shell's title and fallback text are in that language already, so a phone shows something sensible
before the scripts run. Static files are read once and kept with their ETag.
"""

from __future__ import annotations

import html
import json
import mimetypes
from pathlib import Path

from websockets.http11 import Request, Response

from server.web.body_cache import BodyCache
from server.web.web_responses import STATIC, Body, body_of
from server.web.web_words import COOKIE, LANGUAGES, N_, choose, words

STATIC_DIR = Path(__file__).resolve().parent / "static"
TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml",
         ".png": "image/png", ".txt": "text/plain; charset=utf-8", ".json": "application/json; charset=utf-8"}
SCRIPTS = ("vendor/msgpack.min.js", "common.js", "rulings.js", "board.js", "match.js")  # every page's, before its own
TITLES = {
    "home": N_("Live matches and tournaments"),
    "tournament": N_("Tournament"),
    "league": N_("League"),
    "watch": N_("Watch a match"),
    "replay": N_("Replay"),
    "player": N_("Player"),
    "leaderboard": N_("Leaderboard"),
}


def language_of(request: Request, query: str | None) -> str:
    """The visitor's language (``web_words.choose``)."""
    return choose(query, request.headers.get("Cookie", ""), request.headers.get("Accept-Language", ""))


def shell(page: str, language: str, ident: str = "") -> Body:
    """The HTML shell of ``page`` in ``language``, about ``ident`` (a tournament, room, match or player)."""
    said = words(language)
    title = said.get(TITLES[page], TITLES[page])
    subject = f"{title} {ident}".strip()
    scripts = "\n".join(f'<script src="/static/{name}"></script>' for name in (*SCRIPTS, f"{page}.js"))
    loading = said.get("Loading…", "Loading…")
    text = f"""<!doctype html>
<html lang="{language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(subject)} — sprtec</title>
<link rel="stylesheet" href="/static/style.css">
<link rel="icon" href="data:,">
</head>
<body data-page="{page}" data-id="{html.escape(ident, quote=True)}" data-cookie="{COOKIE}">
<header class="top"><a class="brand" href="/">sprtec</a><nav id="nav"></nav><span id="languages"></span></header>
<main id="main"><p class="loading">{html.escape(loading)}</p></main>
<script type="application/json" id="words">{_json_in_html(said)}</script>
<script type="application/json" id="languages-known">{_json_in_html(LANGUAGES)}</script>
{scripts}
</body>
</html>
"""
    return body_of(text.encode("utf-8"), content_type="text/html; charset=utf-8", vary="Accept-Language, Cookie")


def _json_in_html(value: object) -> str:
    """JSON that cannot end the ``<script>`` element it sits in."""
    return json.dumps(value, ensure_ascii=False).replace("</", "<\\/")


class Pages:
    """The shells (kept per page, language and subject) and the static files (kept per path)."""

    def __init__(self, cache: BodyCache | None = None) -> None:
        self.cache = cache or BodyCache()

    def page(self, page: str, language: str, ident: str = "") -> Body:
        """The shell, made once per (page, language, subject)."""
        return self.cache.get(("page", page, language, ident), lambda: shell(page, language, ident))

    def static(self, name: str) -> Body | None:
        """The static file ``name`` under ``static/`` (None when there is none: no path leaves the folder)."""
        path = (STATIC_DIR / name).resolve()
        if STATIC_DIR not in path.parents or not path.is_file() or path.suffix not in TYPES:
            return None
        return self.cache.get(("static", str(path)), lambda: _file_body(path))


def _file_body(path: Path) -> Body:
    """A static file's body with its type."""
    kind = TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return body_of(path.read_bytes(), content_type=kind, cache=STATIC)


def redirect(location: str) -> Response:
    """A 308 to ``location`` (a page's address without its trailing slash)."""
    from websockets.datastructures import Headers

    return Response(308, "Permanent Redirect", Headers([("Location", location), ("Content-Length", "0"),
                                                        ("Connection", "close")]), b"")
