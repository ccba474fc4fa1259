"""The organiser's side of the protocol for ``sprtec tournament``: one connection, requests and their answers, and
the organiser secrets kept on the organiser's machine.

Why a file of secrets: the server tells a tournament's organiser secret once, to its creator, and keeps only its
hash; the organiser's later commands (``register``, ``start-round``, ``card`` ...) need it, so ``create`` writes it
to ``tournaments.json`` in the user's config directory (platformdirs' ``user_config_dir("sprtec")``, or
``$SPRTEC_CONFIG_DIR``), readable by the owner only (0600), under the server's URL and the tournament's id;
``--secret`` gives one by hand.

Why the organiser is a player of his own (``Connection.as_organiser``): a server may let only named players, or only
the organisers its owner lists, create tournaments; ``create --as NAME`` connects as that player once and keeps his
token (``organiser/identity.json``, 0600, beside the secrets) so every later run is the same player - apart from the
arcade client's identity, or the two would close each other's connection.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, TypeVar

from client.common.config_dir import config_dir, read_json, write_private
from shared.protocol import (
    MAX_SERVER_FRAME,
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    ClientMessage,
    CloseCode,
    Error,
    Hello,
    Welcome,
    decode,
    encode,
)

CLIENT_NAME = "sprtec-organiser/0.1"
SECRETS_FILE = "tournaments.json"
ORGANISER_FOLDER = "organiser"  # the organiser's player per server, in the config directory
ANSWER_TIMEOUT_S = 30.0
A = TypeVar("A")


class Refused(Exception):
    """The server refused a request: its Error's code and message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def secrets_path() -> Path:
    """Where the organiser secrets are kept."""
    return config_dir() / SECRETS_FILE


def remember(server: str, tournament: str, secret: str) -> Path:
    """Keep a tournament's organiser secret (0600); returns the file."""
    path = secrets_path()
    kept = read_json(path)
    kept.setdefault(server.rstrip("/"), {})[tournament] = secret
    write_private(path, kept)
    return path


def recall(server: str, tournament: str) -> str | None:
    """The organiser secret kept for a tournament of this server, if any."""
    found = read_json(secrets_path()).get(server.rstrip("/"), {})
    value = found.get(tournament.upper()) if isinstance(found, dict) else None
    return value if isinstance(value, str) else None


class Connection:
    """A welcomed connection to a server: send a request, wait for its answer (or its Error)."""

    def __init__(self, ws: Any, welcome: Welcome) -> None:
        self.ws = ws
        self.welcome = welcome
        self.pending: list[object] = []  # messages received while waiting for something else

    @classmethod
    async def open(cls, url: str, name: str | None = None, token: str | None = None) -> Connection:
        """Connect and complete the Hello handshake (a new guest player unless ``name`` or ``token`` is given; an
        unknown token is ``Refused`` BAD_TOKEN)."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        ws = await connect(url, compression=None, max_size=MAX_SERVER_FRAME, open_timeout=10)
        await ws.send(encode(Hello(PROTOCOL_VERSION, CLIENT_NAME, token, name)))
        try:
            welcome = decode(await asyncio.wait_for(ws.recv(), ANSWER_TIMEOUT_S), SERVER_MESSAGES, lenient=True)
        except ConnectionClosed:
            if ws.close_code == CloseCode.BAD_TOKEN:
                raise Refused("BAD_TOKEN", "the server does not know the kept token") from None
            raise
        if not isinstance(welcome, Welcome):
            await ws.close()
            code = welcome.code if isinstance(welcome, Error) else type(welcome).__name__
            raise Refused(code, f"the server did not welcome us: {welcome}")
        return cls(ws, welcome)

    @classmethod
    async def as_organiser(cls, url: str, name: str | None) -> Connection:
        """Connect as the organiser's player of this server: the one kept from an earlier run, else a new player
        called ``name`` (a guest without one), kept for the next run."""
        from client.common.identity import IdentityStore

        store = IdentityStore(config_dir() / ORGANISER_FOLDER)
        kept = store.get(url.rstrip("/"))
        if kept.token is not None:
            try:
                return await cls.open(url, token=kept.token)
            except Refused as exc:
                if exc.code != "BAD_TOKEN":
                    raise
                store.update(url.rstrip("/"), token=None)
        connection = await cls.open(url, name)
        if name is not None:
            store.update(url.rstrip("/"), token=connection.welcome.token, name=connection.welcome.player)
        return connection

    async def receive(self, timeout: float | None = ANSWER_TIMEOUT_S) -> object:
        """The next message from the server."""
        if self.pending:
            return self.pending.pop(0)
        return decode(await asyncio.wait_for(self.ws.recv(), timeout), SERVER_MESSAGES, lenient=True)

    async def ask(self, request: ClientMessage, answer: type[A]) -> A:
        """Send ``request`` and wait for its ``answer`` (``Refused`` for its Error); other messages are kept."""
        await self.ws.send(encode(request))
        ref = type(request).__name__
        kept: list[object] = []
        try:
            while True:
                message = decode(await asyncio.wait_for(self.ws.recv(), ANSWER_TIMEOUT_S), SERVER_MESSAGES,
                                 lenient=True)
                if isinstance(message, answer):
                    return message
                if isinstance(message, Error) and message.ref in (ref, None):
                    raise Refused(message.code, message.message)
                kept.append(message)
        finally:
            self.pending += kept

    async def close(self) -> None:
        """Close the connection."""
        await self.ws.close()
