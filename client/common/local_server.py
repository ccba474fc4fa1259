"""The local default server — the one ``make run`` starts — found quickly (no arcade).

Why: the README's path is ``make run`` in one terminal and ``sprtec play`` in another, so ``sprtec play`` first
asks the default address; a server that answers Hello with Welcome within half a second is used, otherwise
the client starts a private one.
"""

from __future__ import annotations

from shared.protocol import PROTOCOL_VERSION, SERVER_MESSAGES, Hello, Welcome, decode, encode

LOCAL_HOST = "127.0.0.1"
LOCAL_PORT = 8765
LOCAL_URL = f"ws://{LOCAL_HOST}:{LOCAL_PORT}/"
PROBE_SECONDS = 0.5


def answers(url: str = LOCAL_URL, seconds: float = PROBE_SECONDS) -> bool:
    """True when a sprtec server at ``url`` welcomes a Hello within ``seconds`` (connect and answer each)."""
    from websockets.sync.client import connect

    try:
        with connect(url, compression=None, open_timeout=seconds, close_timeout=seconds) as socket:
            socket.send(encode(Hello(PROTOCOL_VERSION, "sprtec-probe")))
            return isinstance(decode(socket.recv(timeout=seconds), SERVER_MESSAGES), Welcome)
    except Exception:  # refused, timed out, not a websocket, not sprtec: no local server to use
        return False
