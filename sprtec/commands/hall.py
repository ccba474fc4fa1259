"""``sprtec hall --server URL --tournament ID`` (or ``--league ID``): the spectators' big screen of a tournament or of a
team league, full screen.

Why a command of its own: the hall's screen is a machine left alone in a club's hall. It connects as a guest (or
the identity kept for that server), follows the tournament and cycles through the standings, the round's tables,
the bracket, the cards and every table being played, watched live (``client.hall.hall_director``). ``--screenshot
PATH`` waits up to ``--wait`` seconds for the tournament, shows ``--page`` and saves a PNG. A league's hall shows each
team match of the open day as a grid filling with results, then the league table (``client.hall.league_director``;
``--page match:FIXTURE`` or ``table``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

HELP = ("the spectators' hall of a tournament (standings, tables, bracket, cards, live tables in turn) or of a league "
        "(each team match's grid, the table), full screen")
PAGES = ("standings", "tables", "bracket", "cards")
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def phone_page(server: str, tournament: str, addresses: Sequence[str]) -> str:
    """The tournament's web page as a phone in the hall opens it: a hall beside the desk connects to the loopback
    address, which a phone cannot reach, so this machine's first LAN address (``addresses``) takes its place."""
    from shared.protocol.web_address import tournament_page

    parts = urlsplit(server if "://" in server else f"ws://{server}")
    if parts.hostname in LOOPBACK and addresses:
        port = f":{parts.port}" if parts.port else ""
        server = urlunsplit((parts.scheme, f"{addresses[0]}{port}", parts.path, "", ""))
    return tournament_page(server, tournament)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--server, --tournament, --windowed, --screenshot, --page, --wait, --mute."""
    parser.add_argument("--server", required=True, help="the server's websocket URL, e.g. ws://host:8765/")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--tournament", help="the tournament's id (`sprtec servers` lists them)")
    which.add_argument("--league", help="a team league's id (as `sprtec league create` printed it)")
    parser.add_argument("--windowed", action="store_true", help="a window instead of the full screen")
    parser.add_argument("--screenshot", type=Path, metavar="PATH", help="save a PNG of the hall and exit")
    parser.add_argument("--page", default=None, help="with --screenshot: the page to save (a tournament's "
                        f"{', '.join(PAGES)}; a league's match:FIXTURE or table)")
    parser.add_argument("--wait", type=float, default=15.0, help="seconds a screenshot waits for the tournament")
    parser.add_argument("--mute", action="store_true", help="no sound")


def run(args: argparse.Namespace) -> int:
    """Connect, follow the tournament, run the hall until Escape (or save its screenshot)."""
    if args.league is not None:
        return _league(args)
    if args.page is not None and args.page not in PAGES:
        print(f"sprtec hall: a tournament's pages are {', '.join(PAGES)}, not {args.page!r}", file=sys.stderr)
        return 2
    args.page = args.page or "standings"
    from client.common import window as app

    window = app.open_window(f"sprtec — hall {args.tournament}", args.screenshot)
    from client.common import i18n, user_settings
    from client.common.identity import IdentityStore
    from client.common.sound import Sounds
    from client.hall.hall_director import HallDirector
    from client.hall.hall_model import Shown
    from client.match.net import NetClient, NetLink
    from shared.protocol.lan_record import HALL_CLIENT

    user = user_settings.load()
    i18n.set_language(user.language or None)
    client = NetClient(args.server, identity=IdentityStore() if args.screenshot is None else None,
                       program=HALL_CLIENT)  # the hall's screen is not a player online
    client.on_news = getattr(window, "wake_soon", None)  # an idle hall ticks again when news comes
    client.start()
    try:
        sounds = Sounds(muted=args.mute or args.screenshot is not None or user.muted, volume=user.volume,
                        effects=user.effects)
        from server.lan.announcer import interface_addresses

        director = HallDirector(window, NetLink(client), args.tournament, sounds=sounds,
                                page=phone_page(args.server, args.tournament, interface_addresses()))
        director.start()
        if args.screenshot is not None:
            if not app.settle(window, lambda: director.update is not None, args.wait):
                print(f"sprtec hall: no tournament {args.tournament} from {args.server}: {director.status()}",
                      file=sys.stderr)
                window.close()
                return 1
            director.cycle.hold(Shown(args.page), 0.0)
            director.cycle.held_until = float("inf")
            app.settle(window, lambda: False, 0.3)
        elif not args.windowed:
            window.set_fullscreen(True)
        return app.finish(window, args.screenshot)
    finally:
        client.close()


def _league(args: argparse.Namespace) -> int:
    """A league's hall: its team matches' grids and its table in turn (or the screenshot of one page)."""
    from client.common import window as app

    if args.page is not None and args.page != "table" and not args.page.startswith("match:"):
        print(f"sprtec hall: a league's pages are match:FIXTURE and table, not {args.page!r}", file=sys.stderr)
        return 2
    window = app.open_window(f"sprtec — hall {args.league}", args.screenshot)
    from client.common import i18n, user_settings
    from client.common.identity import IdentityStore
    from client.hall.league_director import LeagueHallDirector
    from client.match.net import NetClient, NetLink
    from shared.protocol.lan_record import HALL_CLIENT

    user = user_settings.load()
    i18n.set_language(user.language or None)
    client = NetClient(args.server, identity=IdentityStore() if args.screenshot is None else None,
                       program=HALL_CLIENT)
    client.start()
    try:
        director = LeagueHallDirector(window, NetLink(client), args.league)
        director.start()
        if args.screenshot is not None:
            if not app.settle(window, lambda: director.update is not None, args.wait):
                print(f"sprtec hall: no league {args.league} from {args.server}: {director.status()}", file=sys.stderr)
                window.close()
                return 1
            director.hold(args.page or "table")
            app.settle(window, lambda: False, 0.3)
        elif not args.windowed:
            window.set_fullscreen(True)
        return app.finish(window, args.screenshot)
    finally:
        client.close()
