"""A plain HTTP/1.1 GET for the tests, on asyncio: the server answers one request a connection and closes it.

Why not a client library: the answers are short and end at the close, and the tests need exactly what the server
sent - the status, every header and the bytes of the body - from the same event loop the server runs in.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Answer:
    """One HTTP answer."""

    status: int
    headers: dict[str, str]  # names in lower case
    body: bytes

    def json(self) -> Any:
        """The body as JSON."""
        return json.loads(self.body)


async def get(url: str, path: str, headers: dict[str, str] | None = None, method: str = "GET",
              local: str | None = None) -> Answer:
    """``method path`` on the server at ``url`` (ws:// or http://) with ``headers``; ``local``: the address to send
    from (another loopback address is another client)."""
    where = urlsplit(url)
    reader, writer = await asyncio.open_connection(where.hostname, where.port,
                                                   local_addr=(local, 0) if local else None)
    lines = [f"{method} {path} HTTP/1.1", f"Host: {where.hostname}:{where.port}",
             *(f"{k}: {v}" for k, v in (headers or {}).items()), "", ""]
    writer.write("\r\n".join(lines).encode("latin-1"))
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 30)
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    first, *rest = head.decode("latin-1").split("\r\n")
    found = {}
    for line in rest:
        name, _, value = line.partition(":")
        found[name.strip().lower()] = value.strip()
    return Answer(int(first.split()[1]), found, body)
