"""The local default server — the one ``make run`` starts — found quickly, and what only it allows (no arcade).

Why: the README's path is ``make run`` in one terminal and ``sprtec play`` in another, so ``sprtec play`` first
asks the default address; a server that answers Hello with Welcome within half a second is used, otherwise
the client starts a private one. Only for that server does the client know where the match log lives
(``./data``, ``make run``'s data directory), so only there can it tell the player how to export a replay.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from shared.protocol import PROTOCOL_VERSION, SERVER_MESSAGES, Hello, Welcome, decode, encode

LOCAL_HOST = "127.0.0.1"
LOCAL_PORT = 8765
LOCAL_URL = f"ws://{LOCAL_HOST}:{LOCAL_PORT}/"
LOCAL_DATA = "./data"
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


def is_local(url: str) -> bool:
    """True for the default local server's address (``localhost`` or 127.0.0.1, port 8765)."""
    parts = urlsplit(url)
    return parts.hostname in (LOCAL_HOST, "localhost") and (parts.port or 80) == LOCAL_PORT


def replay_command(match_id: str) -> str:
    """The shell line that exports a match of the local server and opens its replay."""
    return f"sprtec export --data {LOCAL_DATA} {match_id} > match.json && sprtec replay match.json"
