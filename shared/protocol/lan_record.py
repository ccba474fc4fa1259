"""The wire form of a sprtec server's announcement on the LAN (mDNS/DNS-SD, RFC 6762/6763).

Why pure and here: the server that announces, the client that browses and the tests must agree on the
service type, the TXT keys and their bounds, and a TXT record arrives from anyone on the network, so the
decoder is written once, tested with arbitrary bytes, and never raises. python-zeroconf carries the
records; this module only turns an announcement into TXT bytes and TXT bytes (plus the addresses and port
of the SRV/A records) back into a ``FoundServer``.

The TXT record (RFC 6763 §6: length-prefixed ``key=value`` strings, at most 255 bytes each; keys are
case-insensitive and the first occurrence of a key wins), in this order:

=========  ==========================================================================================
key        value
=========  ==========================================================================================
txtvers    ``1``, the version of this layout; a record with another txtvers is ignored
proto      ``shared.protocol.PROTOCOL_VERSION`` as a decimal; a record without a readable one is ignored
name       the server's name, UTF-8, at most 63 bytes; missing or unreadable: the DNS-SD instance name
scheme     ``ws`` or ``wss`` (the websocket URL's scheme); anything else reads as ``ws``
path       the websocket path, ``/`` and at most 63 printable ASCII characters; anything else reads ``/``
players    players connected now, decimal, at most 999,999; missing or unreadable reads as 0
tours      how many tournaments run in all (some may not be listed); defaults to the number listed
t1 … t8    one running tournament each: its id (1–32 of ``[A-Za-z0-9_-]``), one space, its name
rev        a number that changes with every publication of the record; clients ignore it
=========  ==========================================================================================

Why ``rev``: a browser's mDNS cache (python-zeroconf's among them) keeps records by content, so a record that
returns to an earlier content (a player leaves, players is 0 again) would match a stale cached copy and no
change would be reported; a fresh revision makes every publication a new record.

How a long tournament list is cut: the first ``MAX_LISTED_TOURNAMENTS`` (8) in the server's order are
listed, each name cut at a character boundary to ``MAX_TOURNAMENT_NAME_BYTES`` (64) bytes, so every string
stays far below DNS-SD's 255 bytes and the whole record below the 1,300 bytes RFC 6763 §6.2 recommends
(one Ethernet packet with the SRV and A records); ``tours`` still counts them all, so a client can say
"and 3 more". A tournament whose id is not of the id form is left out of the list.

Hostile input: text outside printable characters (control and format characters, which could rewrite a
terminal) is dropped from names; bad UTF-8, over-long strings, a truncated last string, non-decimal numbers
and unknown keys are ignored or defaulted as above. ``decode_txt`` and ``found_server`` return a value or
None and raise nothing for any bytes.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from shared.protocol.messages import PROTOCOL_VERSION

SERVICE_TYPE = "_sprtec._tcp.local."
TXT_VERSION = 1

MAX_NAME_BYTES = 63  # a DNS label's length: the name is also the instance name (RFC 6763 §4.1.1)
MAX_PATH_CHARS = 64  # "/" and 63 more
MAX_PLAYERS = 999_999
MAX_PROTOCOL = 65_535
MAX_LISTED_TOURNAMENTS = 8
MAX_TOURNAMENT_ID_CHARS = 32  # the id form of TOURNAMENT.md's players[].id
MAX_TOURNAMENT_NAME_BYTES = 64
MAX_TXT_STRING = 255  # RFC 6763 §6.1: one length byte
MAX_TXT_RECORD = 1300  # RFC 6763 §6.2: what fits one packet with the other records
MAX_RECORD_ACCEPTED = 9000  # an mDNS packet's absolute size (RFC 6762 §17): anything longer is not read at all
MAX_DIGITS = 6  # the longest decimal a numeric key may have (players, tours, proto)
MAX_REVISION = 999_999_999  # rev wraps around past this

SCHEMES = ("ws", "wss")
_TOURNAMENT_ID = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_TOURNAMENT_ID_CHARS}}}")
_PATH = re.compile(rf"/[\x21-\x7e]{{0,{MAX_PATH_CHARS - 1}}}")
_KEY_CHARS = frozenset(range(0x20, 0x7F)) - {ord("=")}


@dataclass(frozen=True, slots=True)
class RunningTournament:
    """A tournament a server runs, as its announcement lists it: an id to join by and a name to show."""

    id: str
    name: str


DESK_CLIENT = "sprtec-desk"  # Hello.client of the organiser's desk
HALL_CLIENT = "sprtec-hall"  # ... of the hall's screen
NOT_PLAYERS = (DESK_CLIENT, HALL_CLIENT, "sprtec-probe", "sprtec-organiser")  # programs a server does not count
# as players online: a desk, a hall, a probe of the local server, the organiser's command line


@dataclass(frozen=True, slots=True, kw_only=True)
class ServerAnnouncement:
    """What a server says about itself in its TXT record (the address and port travel in SRV/A records)."""

    name: str
    protocol_version: int = PROTOCOL_VERSION
    scheme: str = "ws"
    path: str = "/"
    players_online: int = 0
    tournaments: tuple[RunningTournament, ...] = ()
    tournaments_total: int | None = None  # None: as many as listed

    @property
    def tournaments_running(self) -> int:
        """How many tournaments the server runs, listed or not."""
        listed = len(self.tournaments)
        return listed if self.tournaments_total is None else max(listed, self.tournaments_total)


@dataclass(frozen=True, slots=True, kw_only=True)
class FoundServer:
    """A server found on the LAN: what a person chooses from and the URL the client connects to."""

    instance: str  # the DNS-SD instance name (unique on the network): the key of a browser's list
    name: str
    url: str
    address: str
    port: int
    addresses: tuple[str, ...]
    protocol_version: int
    players_online: int
    tournaments: tuple[RunningTournament, ...]
    tournaments_running: int

    @property
    def compatible(self) -> bool:
        """Whether this client speaks the server's protocol (a mismatch is refused with VERSION_MISMATCH)."""
        return self.protocol_version == PROTOCOL_VERSION

    def to_json(self) -> dict[str, object]:
        """The server as a JSON object (``sprtec servers --json``)."""
        return {
            "name": self.name,
            "url": self.url,
            "address": self.address,
            "port": self.port,
            "addresses": list(self.addresses),
            "instance": self.instance,
            "protocol_version": self.protocol_version,
            "compatible": self.compatible,
            "players_online": self.players_online,
            "tournaments": [{"id": t.id, "name": t.name} for t in self.tournaments],
            "tournaments_running": self.tournaments_running,
        }


# ---------------------------------------------------------------------- text helpers
def cut_utf8(text: str, max_bytes: int) -> str:
    """``text`` cut to at most ``max_bytes`` bytes of UTF-8, never inside a character."""
    encoded = text.encode("utf-8")
    if len(encoded) <= max_bytes:
        return text
    return encoded[:max_bytes].decode("utf-8", "ignore")


def printable(text: str) -> str:
    """``text`` without control, format, surrogate, private-use or unassigned characters, trimmed.

    Why: a name from the network is printed to terminals and drawn in the client; an escape sequence or a
    right-to-left override must not reach either.
    """
    kept = "".join(" " if ch.isspace() else ch for ch in text if ch.isspace() or unicodedata.category(ch)[0] != "C")
    return " ".join(kept.split())


def display_text(text: str, max_bytes: int) -> str:
    """``text`` made printable and cut to ``max_bytes`` bytes of UTF-8, without a space left at the cut."""
    return cut_utf8(printable(text), max_bytes).rstrip()


def instance_name(name: str) -> str:
    """The DNS-SD instance label for a server called ``name``: printable, at most 63 bytes, never empty."""
    return display_text(name, MAX_NAME_BYTES) or "sprtec"


# ---------------------------------------------------------------------- encoding
def _string(key: str, value: str) -> bytes:
    """One TXT string ``key=value`` with its length byte (the callers keep it within 255 bytes)."""
    item = f"{key}={value}".encode()
    assert len(item) <= MAX_TXT_STRING, item
    return bytes((len(item),)) + item


def encode_txt(announcement: ServerAnnouncement, revision: int | None = None) -> bytes:
    """The TXT record's bytes for an announcement, cut to the bounds of the module docstring.

    ``revision`` (``rev``, at most ``MAX_REVISION``) is for the announcer, which changes it on every
    publication; None leaves it out.
    """
    listed = [
        RunningTournament(t.id, display_text(t.name, MAX_TOURNAMENT_NAME_BYTES))
        for t in announcement.tournaments
        if _TOURNAMENT_ID.fullmatch(t.id)
    ]
    total = len(listed) if announcement.tournaments_total is None else max(len(listed), announcement.tournaments_total)
    scheme = announcement.scheme if announcement.scheme in SCHEMES else "ws"
    path = announcement.path if _PATH.fullmatch(announcement.path) else "/"
    parts = [
        _string("txtvers", str(TXT_VERSION)),
        _string("proto", str(min(max(announcement.protocol_version, 0), MAX_PROTOCOL))),
        _string("name", instance_name(announcement.name)),
        _string("scheme", scheme),
        _string("path", path),
        _string("players", str(min(max(announcement.players_online, 0), MAX_PLAYERS))),
        _string("tours", str(min(total, MAX_PLAYERS))),
    ]
    for number, tournament in enumerate(listed[:MAX_LISTED_TOURNAMENTS], start=1):
        parts.append(_string(f"t{number}", f"{tournament.id} {tournament.name}"))
    if revision is not None:
        parts.append(_string("rev", str(revision % (MAX_REVISION + 1))))
    return b"".join(parts)


# ---------------------------------------------------------------------- decoding
def txt_strings(text: bytes) -> dict[str, bytes | None]:
    """The key/value pairs of a TXT record: keys lower-cased, the first occurrence of a key kept (RFC 6763 §6.4).

    A string without ``=`` is a key without value (None); an empty string, a key with characters outside
    printable ASCII and a last string cut short by the record's end are skipped.
    """
    pairs: dict[str, bytes | None] = {}
    position = 0
    while position < len(text):
        length = text[position]
        item = text[position + 1 : position + 1 + length]
        position += 1 + length
        if len(item) != length or not item:
            continue
        raw_key, separator, value = item.partition(b"=")
        if not raw_key or any(byte not in _KEY_CHARS for byte in raw_key):
            continue
        key = raw_key.decode("ascii").lower()
        if key not in pairs:
            pairs[key] = value if separator else None
    return pairs


def _text(value: bytes | None) -> str | None:
    """A value as UTF-8 text, or None when missing or not UTF-8."""
    if value is None:
        return None
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _number(value: bytes | None, maximum: int) -> int | None:
    """A non-negative decimal of at most ``MAX_DIGITS`` ASCII digits and at most ``maximum``, else None."""
    if value is None or not 0 < len(value) <= MAX_DIGITS or not value.isdigit():
        return None
    number = int(value)
    return number if number <= maximum else None


def _tournament(value: bytes | None) -> RunningTournament | None:
    """A ``tN`` value ("id name") as a tournament, or None when it is not of that form."""
    text = _text(value)
    if text is None:
        return None
    identifier, _, name = text.partition(" ")
    if not _TOURNAMENT_ID.fullmatch(identifier):
        return None
    return RunningTournament(identifier, display_text(name, MAX_TOURNAMENT_NAME_BYTES))


def decode_txt(text: bytes) -> ServerAnnouncement | None:
    """The announcement a TXT record makes, or None when it is not one this client can read (docstring above).

    ``name`` is empty when the record has no readable name: ``found_server`` then uses the instance name.
    """
    if len(text) > MAX_RECORD_ACCEPTED:
        return None
    pairs = txt_strings(text)
    if "txtvers" in pairs and pairs["txtvers"] != str(TXT_VERSION).encode():
        return None
    protocol = _number(pairs.get("proto"), MAX_PROTOCOL)
    if protocol is None:
        return None
    name = display_text(_text(pairs.get("name")) or "", MAX_NAME_BYTES)
    scheme = (_text(pairs.get("scheme")) or "").lower()
    path = _text(pairs.get("path")) or "/"
    tournaments = []
    for number in range(1, MAX_LISTED_TOURNAMENTS + 1):
        tournament = _tournament(pairs.get(f"t{number}"))
        if tournament is not None:
            tournaments.append(tournament)
    total = _number(pairs.get("tours"), MAX_PLAYERS)
    return ServerAnnouncement(
        name=name,
        protocol_version=protocol,
        scheme=scheme if scheme in SCHEMES else "ws",
        path=path if _PATH.fullmatch(path) else "/",
        players_online=_number(pairs.get("players"), MAX_PLAYERS) or 0,
        tournaments=tuple(tournaments),
        tournaments_total=total,
    )


def _ipv4(addresses: Sequence[str]) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses among ``addresses`` a client could connect to, in order, each once.

    Unspecified (0.0.0.0), multicast and reserved (240/4, the broadcast address) ones are dropped.
    """
    parsed: list[ipaddress.IPv4Address] = []
    for text in addresses:
        try:
            address = ipaddress.IPv4Address(text)
        except ValueError:
            continue
        if address.is_unspecified or address.is_multicast or address.is_reserved:
            continue
        if address not in parsed:
            parsed.append(address)
    return parsed


def _preferred_address(
    parsed: Sequence[ipaddress.IPv4Address], local_networks: Sequence[str]
) -> ipaddress.IPv4Address | None:
    """The first address inside one of ``local_networks`` (CIDR strings), else the first address.

    Why: a server with several interfaces announces each address; the one on a network this machine is on
    is the one it can reach.
    """
    networks = []
    for text in local_networks:
        try:
            networks.append(ipaddress.IPv4Network(text, strict=False))
        except ValueError:
            continue
    for address in parsed:
        if any(address in network for network in networks):
            return address
    return parsed[0] if parsed else None


def found_server(
    *, instance: str, addresses: Sequence[str], port: int, text: bytes, local_networks: Sequence[str] = ()
) -> FoundServer | None:
    """A found server from its instance name, its A records, its SRV port and its TXT record; None if unusable.

    Unusable: no IPv4 address, a port outside 1–65535, or a TXT record ``decode_txt`` does not read.
    """
    announcement = decode_txt(text)
    usable = _ipv4(addresses)
    address = _preferred_address(usable, local_networks)
    if announcement is None or address is None or not 0 < port < 65536:
        return None
    label = instance_name(instance)
    return FoundServer(
        instance=instance,
        name=announcement.name or label,
        url=f"{announcement.scheme}://{address}:{port}{announcement.path}",
        address=str(address),
        port=port,
        addresses=tuple(str(a) for a in usable),
        protocol_version=announcement.protocol_version,
        players_online=announcement.players_online,
        tournaments=announcement.tournaments,
        tournaments_running=announcement.tournaments_running,
    )
