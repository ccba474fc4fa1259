"""The servers a player can connect to, as a page of the lobby: the local server, the servers announced on the LAN
(name, address, tournaments, players online; refreshed live from ``client.common.lan_browser``) and a field for an
address typed by hand, for networks where multicast does not pass (pure: no arcade, no sockets).

Why live: the page reads the browser's snapshot every time it is drawn (``found`` returns it and never waits), so
a server that starts or stops while the page is open appears or leaves by itself. Choosing one gives
``ConnectTo``; the navigator connects there (the identity is kept per server as always).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from client.common.i18n import _, ngettext
from client.common.local_server import LOCAL_URL
from client.common.menu import Close, Item, Page
from shared.protocol.lan_record import FoundServer

ADDRESS_LENGTH = 120
STOPS = (0.0, 0.25, 0.52, 0.8)  # name, address, tournaments (by name: the widest), players


@dataclass(frozen=True, slots=True)
class ConnectTo:
    """Connect to the server at ``url`` (not a protocol message); ``name`` is what to call it."""

    url: str
    name: str = ""


def address_url(typed: str) -> str | None:
    """A typed address as a server URL: ``host``, ``host:port`` or ``ws://host:port/`` (the default port 8765);
    None when it cannot be one."""
    text = typed.strip()
    if not text:
        return None
    if "://" not in text:
        text = f"ws://{text}"
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("ws", "wss") or not parts.hostname or any(c.isspace() for c in text):
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}:{port or 8765}{parts.path or '/'}"


def server_cells(server: FoundServer) -> tuple[str, ...]:
    """A LAN server of the list: name, address, its tournaments and players online."""
    shown = server.tournaments[:2]
    names = ", ".join(t.name or t.id for t in shown)
    more = max(server.tournaments_running, len(server.tournaments)) - len(shown)
    if names:  # the tournaments by name, which is what a player looks for (the count alone was all that fitted)
        tournaments = f"{names} +{more}" if more > 0 else names
    elif server.tournaments_running:
        tournaments = ngettext("{n} tournament", "{n} tournaments", server.tournaments_running).format(
            n=server.tournaments_running)
    else:
        tournaments = _("no tournament")
    players = ngettext("{n} player online", "{n} players online", server.players_online).format(
        n=server.players_online)
    if not server.compatible:
        players = _("another version")
    return (server.name, f"{server.address}:{server.port}", tournaments, players)


class ServersPage(Page):
    """The local server, the LAN's servers and a typed address."""

    def __init__(self, found: Callable[[], tuple[FoundServer, ...]], current: str = "",
                 problem: Callable[[], str | None] = lambda: None, local: Callable[[], bool] = lambda: False) -> None:
        """``found`` gives the servers found so far (never waits); ``current`` is the URL connected to now;
        ``problem`` says why the LAN cannot be searched (no network), when it cannot; ``local`` whether a server
        answers on this computer now (never waits)."""
        super().__init__()
        self.found = found
        self.local = local
        self.current = current
        self.problem = problem
        self.address = ""

    def first_request(self) -> None:
        """Nothing to ask the game server: the list comes from the LAN."""
        return None

    def heading(self) -> str:
        """The page's name."""
        return _("Servers")

    def subtitle(self) -> str:
        """What the page offers."""
        return _("Servers on your network, or one by its address")

    def notes(self) -> tuple[str, ...]:
        """Where we are now, and the LAN's state."""
        problem = self.problem()
        lan = _("Cannot search the network: {why}").format(why=problem) if problem else \
            _("Searching the network… servers appear here as they are found")
        return (_("Connected to {url}").format(url=self.current) if self.current else "", lan)

    def wide(self) -> bool:
        """The list is a table."""
        return True

    def keys_help(self) -> str:
        """The address is typed on its line."""
        return _("type an address   Enter connect   Esc back")

    def items(self) -> list[Item]:
        """The local server (only while one runs here: "This computer" where nothing answers would fail with a
        socket error), each LAN server, the address field, connect, back."""
        local = [] if not self.local() else [Item(_("This computer"), f"connect:{LOCAL_URL}", "room",
                     _("A server started on this computer (sprtec serve)"),
                     cells=(_("This computer"), LOCAL_URL.removeprefix("ws://").rstrip("/"), "", ""), stops=STOPS)]
        found = [Item(server.name, f"connect:{server.url}", "room",
                      _("Connect to {name}").format(name=server.name) if server.compatible else
                      _("This server speaks another protocol version"), enabled=server.compatible,
                      cells=server_cells(server), stops=STOPS) for server in self.found()]
        if not found:
            found.append(Item(_("No server announced on the network yet"), "none", "text", enabled=False))
        typed = address_url(self.address)
        return [*local, *found,
                Item(_("Address: {address}_").format(address=self.address), "input", "input",
                     _("ws://host:port — for networks where the search finds nothing")),
                Item(_("Connect to this address"), "address", enabled=typed is not None),
                Item(_("Back"), "back")]

    def activate(self, command: str) -> object | None:
        """Connect to a server of the list or to the typed address; back."""
        self.error = ""
        verb, _sep, arg = command.partition(":")
        if verb == "connect":
            name = next((s.name for s in self.found() if s.url == arg), "")
            return ConnectTo(arg, name)
        if verb in ("address", "input"):
            url = address_url(self.address)
            if url is None:
                self.error = _("Type an address like ws://192.168.1.20:8765")
                return None
            return ConnectTo(url)
        if verb == "back":
            return Close()
        return None

    def type_text(self, text: str) -> None:
        """Printable characters go into the address."""
        if len(self.address) < ADDRESS_LENGTH:
            self.address += "".join(c for c in text if c.isprintable() and not c.isspace())

    def backspace(self) -> None:
        """Delete the address's last character."""
        self.address = self.address[:-1]

    def apply(self, message: object) -> bool:
        """No server message is this page's."""
        return False
