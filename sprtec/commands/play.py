"""``sprtec play --server URL [--room CODE]``: play a match in the arcade client.

Why: the coach's way in. With ``--room`` the client joins that room (or takes its seat back with the token
the server issued); without it, it asks the server for a quick match and waits for an opponent. The match
view then takes the slingshot aim (see ``client.aiming``) and the prompts. ``--screenshot PATH`` saves a
PNG once the room's snapshot has arrived and exits.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HELP = "play a match against another coach on a sprtec server"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--server, --room, --ruleset, --name, --screenshot, --wait, --mute."""
    parser.add_argument("--server", required=True, help="the server's websocket URL, e.g. ws://host:8765")
    parser.add_argument("--room", help="join this room code (default: quick match)")
    parser.add_argument("--ruleset", help="quick match in this ruleset (standard, ko, final, strict, quick)")
    parser.add_argument("--name", help="your display name")
    parser.add_argument("--screenshot", type=Path, metavar="PATH", help="save a PNG of the view and exit")
    parser.add_argument("--wait", type=float, default=120.0, help="seconds to wait for a room")
    parser.add_argument("--mute", action="store_true", help="no sound")


def run(args: argparse.Namespace) -> int:
    """Connect, join or quick-match, then open the match view (or save its screenshot)."""
    from client import app

    app.prepare(args.screenshot)
    from client.net import NetClient, NetLink
    from client.state import MatchState
    from shared.protocol import JoinRoom, QuickMatch, Welcome

    client = NetClient(args.server, args.name)
    client.start()
    link = NetLink(client)
    state = MatchState()
    asked = False
    deadline = time.monotonic() + args.wait
    print("connecting…" if args.room else "connecting, then waiting for an opponent…", file=sys.stderr)
    while time.monotonic() < deadline and state.position is None:
        for message in client.drain():
            if isinstance(message, Welcome) and not asked:
                asked = client.send(JoinRoom(args.room) if args.room else QuickMatch(args.ruleset))
            link.apply(state, message, time.monotonic())
        time.sleep(0.05)
    if state.position is None:
        print(f"sprtec play: no match from {args.server}", file=sys.stderr)
        for line in state.log:
            print(f"  {line.text}", file=sys.stderr)
        client.close()
        return 1

    def make(window: object) -> object:
        from client.match_view import MatchView
        from client.sound import Sounds

        return MatchView(state, link, Sounds(muted=args.mute or args.screenshot is not None))

    try:
        return app.run(make, f"sprtec — room {state.room}", args.screenshot)
    finally:
        client.close()
