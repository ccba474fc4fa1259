"""``sprtec hall --server URL --tournament ID``: the spectators' big screen of a tournament, full screen.

Why a command of its own: the hall's screen is a machine left alone in a club's hall. It connects as a guest (or
the identity kept for that server), follows the tournament and cycles through the standings, the round's tables,
the bracket, the cards and every table being played, watched live (``client.hall.hall_director``). ``--screenshot
PATH`` waits up to ``--wait`` seconds for the tournament, shows ``--page`` and saves a PNG.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "the spectators' hall of a tournament: standings, tables, bracket, cards, live tables in turn (full screen)"
PAGES = ("standings", "tables", "bracket", "cards")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--server, --tournament, --windowed, --screenshot, --page, --wait, --mute."""
    parser.add_argument("--server", required=True, help="the server's websocket URL, e.g. ws://host:8765/")
    parser.add_argument("--tournament", required=True, help="the tournament's id (`sprtec servers` lists them)")
    parser.add_argument("--windowed", action="store_true", help="a window instead of the full screen")
    parser.add_argument("--screenshot", type=Path, metavar="PATH", help="save a PNG of the hall and exit")
    parser.add_argument("--page", choices=PAGES, default="standings", help="with --screenshot: the page to save")
    parser.add_argument("--wait", type=float, default=15.0, help="seconds a screenshot waits for the tournament")
    parser.add_argument("--mute", action="store_true", help="no sound")


def run(args: argparse.Namespace) -> int:
    """Connect, follow the tournament, run the hall until Escape (or save its screenshot)."""
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
    client.start()
    try:
        sounds = Sounds(muted=args.mute or args.screenshot is not None or user.muted, volume=user.volume,
                        effects=user.effects)
        director = HallDirector(window, NetLink(client), args.tournament, sounds=sounds)
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
