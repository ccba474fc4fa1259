"""The local default server — the one ``make run`` starts — found quickly (no arcade).

Why: the README's path is ``make run`` in one terminal and ``sprtec play`` in another, so ``sprtec play`` first
asks the default address; a server that answers Hello with Welcome within half a second is used, otherwise
the client starts a private one. The Servers page offers "This computer" only while one answers there
(``LocalWatch`` asks again every few seconds on a thread of its own, so the page never waits).
"""

from __future__ import annotations

import threading

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


WATCH_SECONDS = 3.0  # how often LocalWatch asks again


class LocalWatch:
    """Whether a sprtec server answers on this computer's default address, asked again every few seconds on a
    daemon thread (start, then close); ``running`` never waits."""

    def __init__(self, url: str = LOCAL_URL, every: float = WATCH_SECONDS) -> None:
        self.url = url
        self.every = every
        self.running = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start asking; returns at once."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="sprtec-local-server", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop asking (the thread ends after its current question)."""
        self._stop.set()

    def _run(self) -> None:
        """Ask until closed."""
        while not self._stop.is_set():
            self.running = answers(self.url)
            self._stop.wait(self.every)
