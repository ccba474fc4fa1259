"""The web's HTTP answers: JSON with an ETag, a JSON error, 304, static files, CORS open for GET.

Why one module: every answer of the API must carry the same headers (ETag, Cache-Control, CORS, Content-Type) and
every error the same JSON shape (the tournament contract's ``{"error": {"code", "message"}}``), so a club's script
handles them all alike. The connection closes after each answer (websockets' handshake hook answers one request a
connection): ``Connection: close`` says so.
"""

from __future__ import annotations

import email.utils
import hashlib
import http
import json
from dataclasses import dataclass
from typing import Any

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

JSON = "application/json; charset=utf-8"
LIVE = "no-cache"  # may be kept, but asked again each time: the ETag makes the answer a 304 when nothing changed
FINISHED = "public, max-age=86400"  # a finished match never changes
STATIC = "public, max-age=300"  # the pages' files change only with the server's version (their ETag tells)
CORS = (("Access-Control-Allow-Origin", "*"), ("Access-Control-Expose-Headers", "ETag, Retry-After"))
PREFLIGHT = (("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS"),
             ("Access-Control-Allow-Headers", "If-None-Match"), ("Access-Control-Max-Age", "86400"))


@dataclass(frozen=True, kw_only=True, slots=True)
class Body:
    """An answer's bytes with their ETag, made once and sent to everyone who asks for the same version."""

    data: bytes
    etag: str
    content_type: str = JSON
    cache: str = LIVE
    vary: str = ""  # the request headers the body depends on (a page's language: Accept-Language, Cookie)


def body_of(data: bytes, *, content_type: str = JSON, cache: str = LIVE, vary: str = "") -> Body:
    """A body and its strong ETag (a hash of the bytes: equal bytes, equal tag, whichever process made them)."""
    return Body(data=data, etag=f'"{hashlib.blake2b(data, digest_size=12).hexdigest()}"', content_type=content_type,
                cache=cache, vary=vary)


def json_body(value: Any, *, cache: str = LIVE) -> Body:
    """A JSON value as the API writes it: UTF-8, no NaN, one line and a newline (as the file commands print)."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False) + "\n"
    return body_of(text.encode("utf-8"), cache=cache)


def _headers(*pairs: tuple[str, str]) -> Headers:
    """The headers of every answer, then ``pairs``."""
    return Headers([("Date", email.utils.formatdate(usegmt=True)), ("Connection", "close"), *pairs])


def answer(request: Request, body: Body, status: http.HTTPStatus = http.HTTPStatus.OK) -> Response:
    """``body``, or 304 when the request's If-None-Match already names its ETag; HEAD gets the headers only."""
    tags = request.headers.get("If-None-Match", "")
    fresh = status == http.HTTPStatus.OK and (tags.strip() == "*" or body.etag in
                                              (tag.strip().removeprefix("W/") for tag in tags.split(",")))
    if fresh:
        headers = _headers(("ETag", body.etag), ("Cache-Control", body.cache), *CORS)
        return Response(304, "Not Modified", headers, b"")
    vary = (("Vary", body.vary),) if body.vary else ()
    headers = _headers(("Content-Type", body.content_type), ("Content-Length", str(len(body.data))),
                       ("ETag", body.etag), ("Cache-Control", body.cache), ("X-Content-Type-Options", "nosniff"),
                       *vary, *CORS)
    return Response(status.value, status.phrase, headers, b"" if request.method == "HEAD" else body.data)


def error(request: Request, status: http.HTTPStatus, code: str, message: str, *,
          retry_after_s: int | None = None) -> Response:
    """A JSON error ``{"error": {"code", "message"}}`` (never cached); ``retry_after_s`` for 429 and 503."""
    data = (json.dumps({"error": {"code": code, "message": message}}, ensure_ascii=False) + "\n").encode("utf-8")
    extra = () if retry_after_s is None else (("Retry-After", str(retry_after_s)),)
    headers = _headers(("Content-Type", JSON), ("Content-Length", str(len(data))), ("Cache-Control", "no-store"),
                       *extra, *CORS)
    return Response(status.value, status.phrase, headers, b"" if request.method == "HEAD" else data)


def preflight() -> Response:
    """The answer to a CORS preflight (OPTIONS): GET from any origin, with If-None-Match."""
    return Response(204, "No Content", _headers(("Content-Length", "0"), *CORS, *PREFLIGHT), b"")
