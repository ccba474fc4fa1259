"""``sprtec replay FILE``: watch an exported match (a SCENARIOS.md scenario) move by move in the arcade client.

Why a command: a scenario is the match log, so any exported match or bug report can be watched — the
client re-runs it through the engine (``client.match.replay_model``). It opens playing from the start (Space pauses,
↑/↓ change the speed, Esc closes); ``--at-move N`` opens paused after move N. ``--screenshot PATH --at-move N``
saves a picture of the position after move N and exits, for documentation and headless checks.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "watch an exported match (scenario JSON) move by move"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """FILE, --at-move, --screenshot, --mute."""
    parser.add_argument("file", type=Path, help="a sprtec-scenario/1 (or position) JSON file")
    parser.add_argument("--at-move", type=int, default=0, metavar="N", help="start after move N (default 0)")
    parser.add_argument("--screenshot", type=Path, metavar="PATH", help="save a PNG of the view and exit")
    parser.add_argument("--mute", action="store_true", help="no sound")


def run(args: argparse.Namespace) -> int:
    """Build the replay, then open the replay view (or save its screenshot)."""
    from client.common import window as app

    app.prepare(args.screenshot)
    from client.common import i18n, user_settings
    from client.match.replay_model import ReplayCursor, load

    user = user_settings.load()
    i18n.set_language(user.language or None)
    from shared.notation import NotationError

    try:
        replay = load(args.file)
    except (OSError, NotationError) as exc:
        print(f"sprtec replay: cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    for index, message in replay.refused:
        print(f"action {index} was refused: {message}", file=sys.stderr)

    def make(window: object) -> object:
        """The replay view at ``--at-move`` (built once the window exists: the views import arcade)."""
        import time

        from client.common.sound import Sounds
        from client.match.replay_view import ReplayView
        from client.match.state import MatchState

        state = MatchState(names={"home": "Home", "away": "Away", **replay.names})
        cursor = ReplayCursor(replay)
        cursor.jump(state, args.at_move, time.monotonic())
        state.note(f"Replay of {args.file.name}: {cursor.total} moves")
        sounds = Sounds(muted=args.mute or args.screenshot is not None or user.muted, volume=user.volume,
                        effects=user.effects)
        return ReplayView(cursor, state, sounds,
                          autoplay=args.at_move == 0 and args.screenshot is None)

    return app.run(make, f"sprtec — replay {args.file.name}", args.screenshot)
