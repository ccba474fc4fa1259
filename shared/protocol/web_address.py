"""The web pages' addresses on a server known by its websocket URL.

Why here: the server serves its pages on the game's own port (``server.web``: ``http://HOST:PORT/`` for people,
``ws://HOST:PORT/`` for clients), so everything that knows a server's websocket URL — the desk's QR code, the hall,
``sprtec tournament run`` — names the same page the same way, and a phone that scans the code opens the tournament
rather than a websocket address it cannot use.
"""

from __future__ import annotations

from urllib.parse import quote, urlsplit, urlunsplit

SCHEMES = {"ws": "http", "wss": "https", "http": "http", "https": "https"}


def web_base(url: str) -> str:
    """The site's root for the server at websocket ``url``: its scheme made HTTP(S), its path and query dropped, no
    trailing slash (``ws://10.0.0.5:8765/`` → ``http://10.0.0.5:8765``). A URL without a scheme reads as ``ws``."""
    parts = urlsplit(url if "://" in url else f"ws://{url}")
    return urlunsplit((SCHEMES.get(parts.scheme.lower(), "http"), parts.netloc, "", "", ""))


def tournament_page(url: str, tournament: str) -> str:
    """The tournament's public page (``/tournaments/ID``) on the server at websocket ``url``."""
    return f"{web_base(url)}/tournaments/{quote(tournament, safe='')}"
