"""``sprtec servers [--wait S] [--json]``: list the sprtec servers announced on the LAN.

Why: at a club event the organiser runs ``sprtec serve --lan``; this shows who can be joined and the URL to
give ``sprtec play --server`` without anyone typing an address. It browses mDNS/DNS-SD
(``client.common.lan_browser``) for S seconds (default 2: a server answers a query within about a second) and prints
a table (name, URL, protocol version, players online, tournaments), or with ``--json`` one object
``{"servers": [...]}`` (the fields of ``FoundServer.to_json``) for scripts. Exit 0 even when none is found;
that is said on stderr (exit 1 only when the mDNS sockets cannot be opened).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from shared.protocol.lan_record import FoundServer
from shared.protocol.messages import PROTOCOL_VERSION

HELP = "list the sprtec servers announced on the LAN (mDNS/DNS-SD)"
DEFAULT_WAIT_S = 2.0
MAX_WAIT_S = 60.0
COLUMNS = ("NAME", "URL", "PROTOCOL", "PLAYERS", "TOURNAMENTS")
LISTED_IN_TABLE = 2  # tournaments named in a table row; the rest are counted


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--wait S and --json."""
    parser.add_argument(
        "--wait",
        type=float,
        default=DEFAULT_WAIT_S,
        metavar="S",
        help=f"seconds to listen (default {DEFAULT_WAIT_S:g})",
    )
    parser.add_argument("--json", action="store_true", help='print one JSON object {"servers": [...]}')


async def browse(wait_s: float) -> list[FoundServer]:
    """The servers found on the LAN within ``wait_s`` seconds."""
    from client.common.lan_browser import LanBrowser

    browser = LanBrowser()
    await browser.start()
    try:
        await asyncio.sleep(wait_s)
        return browser.servers()
    finally:
        await browser.close()


def _tournaments(server: FoundServer) -> str:
    """A table cell: the first tournaments by name, then how many more run."""
    named = [t.name or t.id for t in server.tournaments[:LISTED_IN_TABLE]]
    more = server.tournaments_running - len(named)
    if more > 0:
        named.append(f"+{more} more")
    return ", ".join(named) or "-"


def _row(server: FoundServer) -> tuple[str, ...]:
    """A table row; an incompatible protocol says which one this client speaks."""
    protocol = str(server.protocol_version)
    if not server.compatible:
        protocol += f" (this client: {PROTOCOL_VERSION})"
    return (server.name, server.url, protocol, str(server.players_online), _tournaments(server))


def table(servers: list[FoundServer]) -> str:
    """The servers as an aligned text table with a header line."""
    rows = [COLUMNS, *(_row(server) for server in servers)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Browse, print, exit 0 (1 when the LAN cannot be browsed at all, 2 for a --wait out of range)."""
    if not 0 < args.wait <= MAX_WAIT_S:
        print(f"sprtec servers: --wait must be above 0 and at most {MAX_WAIT_S:g} seconds", file=sys.stderr)
        return 2
    try:
        servers = asyncio.run(browse(args.wait))
    except OSError as error:  # no multicast-capable interface, the sockets refused
        print(f"sprtec servers: cannot browse the LAN: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"servers": [server.to_json() for server in servers]}, ensure_ascii=False))
    elif servers:
        print(table(servers))
    if not servers:
        print(f"sprtec servers: no sprtec server found on the LAN in {args.wait:g} s", file=sys.stderr)
    return 0
