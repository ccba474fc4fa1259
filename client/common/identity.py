"""The player's identity on each server — resume token, display name, the seat of a running match — kept on disk
so that closing or crashing the client does not lose the match (no arcade).

Why on disk: a seat is held by the player's resume token (docs/ARCHITECTURE.md "Seats and resume tokens"); kept only in
memory, a coach whose client closed came back as a stranger and forfeited after the grace period. With the token saved
per server URL (``identity.json`` in ``client.common.config_dir``, 0600: tokens are secrets), every start says
``Hello{token}``; the server welcomes the same player and sends him back to his running match. The room of that
match is kept too, so that the client can ask to rejoin it itself from servers that do not (``JoinRoom`` with
the seat token). A refused token (close 4002) is forgotten and the client connects afresh.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from client.common.config_dir import config_dir, read_json, write_private

FILE = "identity.json"


@dataclass(frozen=True, slots=True)
class Identity:
    """Who this client is on one server: the resume token, the display name, and the seat of a running match."""

    token: str | None = None
    name: str | None = None
    room: str | None = None
    room_token: str | None = None


class IdentityStore:
    """The identities of every server the player used, by URL, in one small JSON file."""

    def __init__(self, folder: Path | None = None) -> None:
        """Keep the file in ``folder`` (default: the client's config directory, read when first needed)."""
        self.folder = folder

    @property
    def path(self) -> Path:
        """The identity file."""
        return (self.folder or config_dir()) / FILE

    def _servers(self) -> dict[str, Any]:
        """The stored identities by server URL (only well-formed entries)."""
        servers = read_json(self.path).get("servers", {})
        return {url: entry for url, entry in servers.items() if isinstance(entry, dict)} \
            if isinstance(servers, dict) else {}

    def get(self, url: str) -> Identity:
        """The identity kept for ``url`` (an empty one for a server never used)."""
        entry = self._servers().get(url, {})

        def text(key: str) -> str | None:
            value = entry.get(key)
            return value if isinstance(value, str) and value else None

        return Identity(text("token"), text("name"), text("room"), text("room_token"))

    def update(self, url: str, **changes: str | None) -> Identity:
        """Change some of ``url``'s fields (``token``, ``name``, ``room``, ``room_token``; None forgets one) and
        write the file; returns the identity now kept."""
        unknown = set(changes) - set(Identity.__slots__)
        if unknown:
            raise ValueError(f"unknown identity fields: {', '.join(sorted(unknown))}")
        servers = self._servers()
        entry = {key: value for key, value in servers.get(url, {}).items() if key in Identity.__slots__}
        for key, value in changes.items():
            if value is None:
                entry.pop(key, None)
            else:
                entry[key] = value
        servers[url] = entry
        write_private(self.path, {"servers": servers})
        return self.get(url)
