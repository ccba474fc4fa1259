"""A web request about something another node runs (a tournament, a league, a room), answered by that node.

Why ask the owner rather than send the browser there, as ``MOVED`` sends a coach: a page and a club's script have one
address (the one the hall shows, behind whatever balances the nodes), and the API's answers are the contract's files,
the same bytes whichever node is asked - but only the node that runs a tournament has it in memory. And why through
the nodes' inboxes rather than an HTTP request to the owner's URL: a node's URL is where clients reach it (through
the cluster's proxy), which the nodes themselves may not reach; the inboxes on Redis are how nodes already talk
(``server.cluster.forwarding``).

On the wire (JSON, to the owner's inbox): ``web`` - an id, the asking node, the method, path and the headers that
choose the answer; the owner answers it with its own web table, as if asked directly but without asking anyone else
(``answer_here``), and publishes ``web-answer`` - the id, status, reason, headers and body (base64) - to the asker's
inbox. An answer not back within ``WEB_TIMEOUT_S`` is a 503 the page's next poll asks again.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from server.cluster.redis_registry import inbox
from server.rooms.placement import ElsewhereUnavailable

log = logging.getLogger(__name__)
WEB_TIMEOUT_S = 5.0  # how long the owner's answer is waited for
ASKED_WITH = ("Accept", "Accept-Language", "If-None-Match")  # the request's headers that choose the answer
Publish = Callable[[str, str], Awaitable[int]]
AnswerHere = Callable[[Request], Awaitable[Response]]


async def _nothing_here(request: Request) -> Response:
    """Before the server's web table is given: nothing is answered."""
    raise ElsewhereUnavailable("the web side of this server has not started")


class WebRequests:
    """This node's web requests waiting for another node's answer, and the answers it gives others."""

    def __init__(self, node: str, publish: Publish) -> None:
        self.node = node
        self.publish = publish
        self.answer_here: AnswerHere = _nothing_here  # the server's web table, without asking anyone else
        self._waiting: dict[str, asyncio.Future[Response]] = {}
        self._answering: set[asyncio.Task[None]] = set()

    async def ask(self, owner: str, request: Request) -> Response:
        """``request`` answered by node ``owner`` as it answers it; ``ElsewhereUnavailable`` when it does not answer in
        time."""
        ident = secrets.token_hex(8)
        waiting: asyncio.Future[Response] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = waiting
        headers = [[name, request.headers[name]] for name in ASKED_WITH if name in request.headers]
        asked = {"kind": "web", "id": ident, "node": self.node, "method": request.method, "path": request.path,
                 "headers": headers}
        try:
            if not await self.publish(inbox(owner), json.dumps(asked)):
                raise ElsewhereUnavailable(f"the server running it ({owner}) does not listen")
            return await asyncio.wait_for(waiting, WEB_TIMEOUT_S)
        except TimeoutError:
            log.warning("node %s: node %s did not answer %s in %s s", self.node, owner, request.path[:100],
                        WEB_TIMEOUT_S)
            raise ElsewhereUnavailable(f"the server running it ({owner}) did not answer in time") from None
        finally:
            self._waiting.pop(ident, None)

    def heard(self, message: dict[str, Any]) -> bool:
        """One message of the inbox: True when it was a web request or answer."""
        kind = message.get("kind")
        if kind == "web":
            task = asyncio.get_running_loop().create_task(self._answer(message))
            self._answering.add(task)
            task.add_done_callback(self._answering.discard)
        elif kind == "web-answer":
            waiting = self._waiting.get(str(message.get("id")))
            if waiting is not None and not waiting.done():
                waiting.set_result(Response(int(message["status"]), str(message["reason"]),
                                            Headers([(str(k), str(v)) for k, v in message["headers"]]),
                                            base64.b64decode(str(message["body"]))))
        else:
            return False
        return True

    async def _answer(self, asked: dict[str, Any]) -> None:
        """Another node's web request: answered by this node's web table, the answer sent back to it."""
        try:
            request = Request(path=str(asked["path"]), headers=Headers([(str(k), str(v)) for k, v in asked["headers"]]),
                              method="HEAD" if asked.get("method") == "HEAD" else "GET")
            response = await self.answer_here(request)
            answer = {"kind": "web-answer", "id": str(asked["id"]), "status": response.status_code,
                      "reason": response.reason_phrase, "headers": list(response.headers.raw_items()),
                      "body": base64.b64encode(bytes(response.body)).decode("ascii")}
            await self.publish(inbox(str(asked["node"])), json.dumps(answer))
        except Exception:  # a bug or a lost Redis must not stop the inbox: the asker's wait ends (a 503 there)
            log.exception("node %s: a web request forwarded from node %s failed", self.node, asked.get("node"))

