"""A server shutting down (its organiser closed the desk) closes every connection with 1001: the client says the
server was closed, not that the connection was lost."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

from client.match.net import ConnectionEvent, NetClient
from server.app import Server, ServerConfig


def test_the_client_says_the_server_was_closed_when_it_shuts_down(tmp_path: Path) -> None:
    """Connected, the server shuts down gracefully: the client's news is a ``stopped`` connection."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    server = Server(ServerConfig(port=0, data_dir=tmp_path / "data", workers=0))
    port = asyncio.run_coroutine_threadsafe(server.start(), loop).result(10)
    client = NetClient(f"ws://127.0.0.1:{port}/", "Jana")
    client.start()
    try:
        seen: list[object] = []
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not any(getattr(m, "player", None) == "Jana" for m in seen):
            seen += client.drain()
            time.sleep(0.05)
        asyncio.run_coroutine_threadsafe(server.shutdown(), loop).result(20)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not any(isinstance(m, ConnectionEvent) and m.kind == "stopped"
                                                      for m in seen):
            seen += client.drain()
            time.sleep(0.05)
        assert any(isinstance(m, ConnectionEvent) and m.kind == "stopped" for m in seen), seen
    finally:
        client.close()
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
