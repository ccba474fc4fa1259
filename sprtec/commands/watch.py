"""``sprtec watch --server URL --room CODE``: open a running match as a spectator in the arcade client.

Why: spectating is first-class (players of every online game ask to watch). The client connects, says Hello, sends
``Watch`` for the room and then shows exactly what the coaches see, without input, with the spectators' count in the top
bar; at the end the results, and Escape leads to the server's lobby. ``--screenshot PATH`` waits up to
``--wait`` seconds for the room's snapshot, saves a PNG and exits.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "watch a running match as a spectator"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--server, --room, --screenshot, --wait, --mute."""
    parser.add_argument("--server", required=True, help="the server's websocket URL, e.g. ws://host:8765")
    parser.add_argument("--room", required=True, help="the room code")
    parser.add_argument("--screenshot", type=Path, metavar="PATH", help="save a PNG of the view and exit")
    parser.add_argument("--wait", type=float, default=10.0, help="seconds to wait for the room with --screenshot")
    parser.add_argument("--mute", action="store_true", help="no sound")


def run(args: argparse.Namespace) -> int:
    """Connect, watch the room, open the match view (or save its screenshot)."""
    from client.common import window as app

    window = app.open_window(f"sprtec — watching {args.room}", args.screenshot)
    from client.common import i18n, user_settings
    from client.common.sound import Sounds
    from client.match.net import NetClient, NetLink
    from client.player.lobby_model import LobbyModel
    from client.player.navigator import Navigator
    from shared.protocol import Watch

    user = user_settings.load()  # the player's language and volumes (nothing is written back from here)
    i18n.set_language(user.language or None)
    client = NetClient(args.server)
    client.start()
    try:
        sounds = Sounds(muted=args.mute or args.screenshot is not None or user.muted, volume=user.volume,
                        effects=user.effects)
        nav = Navigator(window, NetLink(client), LobbyModel(), sounds, user=user)
        nav.first_request = Watch(args.room)
        nav.show_lobby()
        if args.screenshot is not None:
            if not app.settle(window, lambda: nav.state.position is not None and not nav.state.busy, args.wait):
                print(f"sprtec watch: no snapshot of room {args.room} from {args.server}", file=sys.stderr)
                for line in nav.state.log:
                    print(f"  {line.text}", file=sys.stderr)
                window.close()
                return 1
        return app.finish(window, args.screenshot)
    finally:
        client.close()
