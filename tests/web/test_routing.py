"""The web's table behind the operators': upgrades go on, the address limit, and the pages' languages."""

from __future__ import annotations

import asyncio
from typing import Any

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from server.app import Server
from server.connections.address_budgets import KINDS, WEB_REQUEST, AddressBudgets, Kind
from server.web.routes import WebTable, chain
from server.web.site import routes
from server.web.web_words import choose
from tests.web.http_get import get


class _Connection:
    """What the table reads of a connection: its remote address."""

    def __init__(self, address: str) -> None:
        self.remote_address = (address, 50000)


def _request(path: str, **headers: str) -> Request:
    return Request(path, Headers(list(headers.items())))


def _answer(table: Any, path: str, address: str = "10.0.0.1", **headers: str) -> Response | None:
    return asyncio.run(table(_Connection(address), _request(path, **headers)))


def test_a_websocket_upgrade_on_any_path_goes_on_to_the_game(server: Server) -> None:
    """The web answers nothing for a request with Upgrade: websocket (the game's handshake follows)."""
    table = WebTable(routes(server), AddressBudgets())
    assert _answer(table, "/", Upgrade="websocket", Connection="Upgrade") is None
    assert _answer(table, "/api/v1/rooms", Upgrade="WebSocket") is None


def test_the_first_table_with_an_answer_wins() -> None:
    """chain() asks its tables in order: an operators' answer comes before the web's, None from all lets it go on."""
    ops = Response(200, "OK", Headers(), b"ops")
    web = Response(200, "OK", Headers(), b"web")
    hook = chain(lambda c, r: ops if r.path == "/metrics" else None, lambda c, r: web)
    assert asyncio.run(hook(None, _request("/metrics"))).body == b"ops"  # type: ignore[arg-type]
    assert asyncio.run(hook(None, _request("/"))).body == b"web"  # type: ignore[arg-type]
    assert asyncio.run(chain(lambda c, r: None)(None, _request("/"))) is None  # type: ignore[arg-type]


def test_an_address_past_its_budget_is_refused_429_and_others_are_not(server: Server) -> None:
    """With a budget of 3, an address's 4th request is 429 RATE_LIMITED with Retry-After; another address is served."""
    clock = [0.0]
    kinds = {**KINDS, WEB_REQUEST: Kind(WEB_REQUEST, "web requests", 3, 30.0)}
    table = WebTable(routes(server), AddressBudgets(now=lambda: clock[0], kinds=kinds))
    statuses = [_answer(table, "/api/v1/board").status_code for _ in range(4)]  # type: ignore[union-attr]
    assert statuses == [200, 200, 200, 429]
    refused = _answer(table, "/api/v1/board")
    assert refused is not None and refused.headers["Retry-After"] == "10" and b"RATE_LIMITED" in refused.body
    assert _answer(table, "/api/v1/board", address="10.0.0.2").status_code == 200  # type: ignore[union-attr]
    clock[0] += 10.0
    assert _answer(table, "/api/v1/board").status_code == 200  # type: ignore[union-attr]


def test_the_pages_language_is_the_query_then_the_cookie_then_the_browsers() -> None:
    """?lang= wins, then the switch's cookie, then Accept-Language by its q-values among cs, pl, en; else English."""
    assert choose("pl", "sprtec_lang=cs", "cs") == "pl"
    assert choose(None, "a=b; sprtec_lang=cs", "pl") == "cs"
    assert choose(None, "", "de-DE,pl;q=0.8,cs;q=0.9") == "cs"
    assert choose(None, "", "de,fr") == "en"
    assert choose("xx", "sprtec_lang=zz", "") == "en"


async def test_a_page_comes_in_the_browsers_language_with_its_words(server: Server) -> None:
    """/ for a Czech browser is lang="cs" with the Czech catalogue embedded; Vary names what chose it."""
    page = await get(server.url, "/", {"Accept-Language": "cs-CZ,cs;q=0.9,en;q=0.5"})
    text = page.body.decode()
    assert page.status == 200 and page.headers["content-type"].startswith("text/html")
    assert '<html lang="cs">' in text and "Živé zápasy a turnaje" in text
    assert page.headers["vary"] == "Accept-Language, Cookie"
    english = (await get(server.url, "/?lang=en")).body.decode()
    assert '<html lang="en">' in english and "Live matches and tournaments" in english


async def test_a_pages_subject_is_escaped_in_its_shell(server: Server) -> None:
    """A player's name with markup in the path is written as text, never as markup."""
    page = (await get(server.url, "/players/%3Cscript%3Ealert(1)%3C%2Fscript%3E")).body.decode()
    assert "<script>alert(1)" not in page and "&lt;script&gt;" in page


async def test_the_pages_files_and_the_vendored_library_with_its_licence_are_served(server: Server) -> None:
    """Every script a shell loads is served as JavaScript; the msgpack library comes with its ISC licence."""
    for name in ("common.js", "board.js", "rulings.js", "match.js", "watch.js", "vendor/msgpack.min.js"):
        answer = await get(server.url, f"/static/{name}")
        assert answer.status == 200 and answer.headers["content-type"].startswith("text/javascript"), name
    licence = await get(server.url, "/static/vendor/msgpack.LICENSE.txt")
    assert b"Permission to use, copy, modify" in licence.body
