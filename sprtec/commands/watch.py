"""``sprtec watch --server URL --room CODE``: open a running match as a spectator in the arcade client.

Why: spectating is first-class (PEERS.md §3.2). The client connects, says Hello, sends ``Watch`` for the
room and then shows exactly what the coaches see, without input. ``--screenshot PATH`` waits up to
``--wait`` seconds for the room's snapshot, saves a PNG and exits.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HELP = "watch a running match as a spectator"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--server, --room, --screenshot, --wait, --mute."""
    parser.add_argument("--server", required=True, help="the server's websocket URL, e.g. ws://host:8765")
    parser.add_argument("--room", required=True, help="the room code")
    parser.add_argument("--screenshot", type=Path, metavar="PATH", help="save a PNG of the view and exit")
    parser.add_argument("--wait", type=float, default=5.0, help="seconds to wait for the room with --screenshot")
    parser.add_argument("--mute", action="store_true", help="no sound")


def run(args: argparse.Namespace) -> int:
    """Connect, watch the room, open the match view (or save its screenshot)."""
    from client import app

    app.prepare(args.screenshot)
    from client.net import NetClient, NetLink
    from client.state import MatchState
    from shared.protocol import Watch, Welcome

    client = NetClient(args.server)
    client.start()
    link = NetLink(client)
    state = MatchState(room=args.room)
    deadline = time.monotonic() + args.wait
    watching = False
    while time.monotonic() < deadline and state.position is None:  # Hello → Welcome → Watch → snapshot
        for message in client.drain():
            if isinstance(message, Welcome) and not watching:
                watching = client.send(Watch(args.room))
            link.apply(state, message, time.monotonic())
        time.sleep(0.05)
    if state.position is None:
        print(f"sprtec watch: no snapshot of room {args.room} from {args.server}", file=sys.stderr)
        for line in state.log:
            print(f"  {line.text}", file=sys.stderr)
        client.close()
        return 1

    def make(window: object) -> object:
        from client.match_view import MatchView
        from client.sound import Sounds

        return MatchView(state, link, Sounds(muted=args.mute or args.screenshot is not None))

    try:
        return app.run(make, f"sprtec — watching {args.room}", args.screenshot)
    finally:
        client.close()
