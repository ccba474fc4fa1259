"""The web's route table and the ``process_request`` hook that puts the operators' table before it.

Why tables: the operators' paths (/healthz, /readyz, /metrics: ``server.ops.http_endpoints``) and the web's are
separate tables tried in order, so the operators' may move to an address of their own without touching this one.
A websocket upgrade on any path goes on to the game's handshake; every other request is the web's: routed here by
its path, refused 405 for a method other than GET, HEAD or OPTIONS (a CORS preflight), 429 past the address's
budget (the server's own per-address budgets, ``server.connections.address_budgets``: the same address
``--trusted-proxy`` and ``--exempt`` mean for the game's connections), 404 with a JSON error for a path no route has.

A route is a path pattern whose ``{name}`` segments match one path segment each (percent-decoded), a handler, and
what the OpenAPI document (``server.web.openapi``) says of it.
"""

from __future__ import annotations

import http
import logging
import math
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from server.connections.address_budgets import WEB_REQUEST, AddressBudgets
from server.rooms.placement import ElsewhereUnavailable
from server.web.web_responses import error, preflight

log = logging.getLogger(__name__)
MAX_SEGMENT = 100  # characters of one path segment after decoding (a name is at most 32, an id 16)
Hook = Callable[[ServerConnection, Request], "Awaitable[Response | None] | Response | None"]
Elsewhere = Callable[[str, str, Request], Awaitable[Response | None]]  # ``Placement.web_elsewhere``


async def _all_here(_kind: str, _ident: str, _request: Request) -> Response | None:
    """One process: everything it shows runs here."""
    return None


@dataclass(frozen=True, kw_only=True, slots=True)
class Call:
    """One request as a handler sees it: the request, the path's parameters and the query's values."""

    request: Request
    params: dict[str, str]
    query: dict[str, list[str]]

    def one(self, name: str) -> str | None:
        """The query parameter ``name`` given once, None when absent (``BadParameter`` when given twice)."""
        values = self.query.get(name)
        if values is None:
            return None
        if len(values) != 1:
            raise BadParameter(f"{name} is given {len(values)} times")
        return values[0]


class BadParameter(Exception):
    """A parameter that is not what the route takes: answered 400 BAD_PARAMETER with this message."""


Handler = Callable[[Call], Awaitable[Response]]


@dataclass(frozen=True, kw_only=True, slots=True)
class QueryParameter:
    """A query parameter as the OpenAPI document describes it."""

    name: str
    description: str
    schema: dict[str, Any]


@dataclass(frozen=True, kw_only=True, slots=True)
class Route:
    """A path pattern, its handler, and its description for the OpenAPI document."""

    pattern: str
    handler: Handler
    operation: str  # the OpenAPI operationId
    summary: str
    schema: dict[str, Any] = field(default_factory=dict)  # the 200 answer's JSON Schema (empty: not JSON)
    content_type: str = "application/json"
    query: tuple[QueryParameter, ...] = ()
    errors: tuple[int, ...] = ()  # the statuses it may answer besides 200, 304, 429
    api: bool = True  # False: a page or a static file (not in the OpenAPI document)
    owned_by: str | None = None  # what the path's first parameter names when another node may run it ("tournament")
    regex: re.Pattern[str] = field(init=False)
    names: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        names = tuple(re.findall(r"\{(\w+)\}", self.pattern))
        rest = self.pattern.endswith("{rest}")  # the last segment takes everything after it (static files)
        source = re.escape(self.pattern)
        for name in names:
            source = source.replace(re.escape("{" + name + "}"), r"(.+)" if rest and name == "rest" else r"([^/]+)")
        object.__setattr__(self, "regex", re.compile(source))
        object.__setattr__(self, "names", names)

    def match(self, path: str) -> dict[str, str] | None:
        """The path's parameters (percent-decoded), or None when the path is not this route's."""
        found = self.regex.fullmatch(path)
        if found is None:
            return None
        return {name: unquote(value) for name, value in zip(self.names, found.groups(), strict=True)}


def is_upgrade(request: Request) -> bool:
    """A websocket handshake (the game's clients): ``Upgrade: websocket``."""
    return any(token.strip().lower() == "websocket" for token in request.headers.get("Upgrade", "").split(","))


class WebTable:
    """The web's routes behind the address limits (see the module docstring)."""

    def __init__(self, routes: Sequence[Route], budgets: AddressBudgets, elsewhere: Elsewhere = _all_here) -> None:
        """``elsewhere``: the answer of the server that runs what a route names, when that is another one
        (``Placement.web_elsewhere``)."""
        self.routes = tuple(routes)
        self.budgets = budgets
        self.elsewhere = elsewhere

    async def __call__(self, connection: ServerConnection, request: Request) -> Response | None:
        """The web's answer, or None to let a websocket handshake go on."""
        if is_upgrade(request):
            return None
        client = self.budgets.client_of(connection, request)
        wait = self.budgets.wait_s(WEB_REQUEST, client)
        if wait > 0:
            kind = self.budgets.kinds[WEB_REQUEST]
            return error(request, http.HTTPStatus.TOO_MANY_REQUESTS, "RATE_LIMITED",
                         f"too many requests: at most {kind.burst} per {kind.window_s:g} s from one address",
                         retry_after_s=math.ceil(wait))
        self.budgets.spend(WEB_REQUEST, client)
        if request.method == "OPTIONS":
            return preflight()
        if request.method not in ("GET", "HEAD"):
            return error(request, http.HTTPStatus.METHOD_NOT_ALLOWED, "METHOD_NOT_ALLOWED",
                         "this server's web side is read-only: GET, HEAD and OPTIONS")
        return await self._route(request, ask_elsewhere=True)

    async def answer_here(self, request: Request) -> Response:
        """A request another server passed on to this one (its budgets spent there): answered here, whatever runs
        elsewhere (a request is passed on once at most)."""
        return await self._route(request, ask_elsewhere=False)

    async def _route(self, request: Request, *, ask_elsewhere: bool) -> Response:
        """The answer of the route the path matches, or of the server that runs what it names; 404 for no route."""
        parts = urlsplit(request.path)
        for route in self.routes:
            params = route.match(parts.path)
            if params is None:
                continue
            if any(len(value) > MAX_SEGMENT for value in params.values() if route.names[-1:] != ("rest",)):
                return error(request, http.HTTPStatus.NOT_FOUND, "NOT_FOUND", "no such thing on this server")
            if route.owned_by is not None and ask_elsewhere:
                try:
                    found = await self.elsewhere(route.owned_by, params[route.names[0]], request)
                except ElsewhereUnavailable as exc:
                    return error(request, http.HTTPStatus.SERVICE_UNAVAILABLE, "NODE_UNAVAILABLE",
                                 f"ask again in a moment: {exc}", retry_after_s=1)
                if found is not None:  # another server runs it: its answer, as it gave it
                    return found
            call = Call(request=request, params=params, query=parse_qs(parts.query, keep_blank_values=True))
            try:
                return await route.handler(call)
            except BadParameter as exc:
                return error(request, http.HTTPStatus.BAD_REQUEST, "BAD_PARAMETER", str(exc))
        return error(request, http.HTTPStatus.NOT_FOUND, "NOT_FOUND", f"no page or API path {parts.path[:100]!r}")


def chain(*tables: Hook) -> Hook:
    """One ``process_request`` hook of several tables tried in order: the first answer wins; None from them all lets
    the websocket handshake go on."""

    async def process_request(connection: ServerConnection, request: Request) -> Response | None:
        """The first table's answer that is not None."""
        for table in tables:
            found = table(connection, request)
            if isinstance(found, Awaitable):
                found = await found
            if found is not None:
                return found
        return None

    return process_request
