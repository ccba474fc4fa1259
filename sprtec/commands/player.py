"""``sprtec player NAME --data DIR [--json]``: a player's profile from a server's data directory.

The same profile a client gets with ``GetProfile`` (``server.players``): ratings per family with RD and the
provisional flag, matches played, won, drawn and lost, and the last matches with their rating changes.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from server.players import profile_of
from server.store.player_records import PlayerRecords
from server.store.sqlite.data_reader import NoData, ReadOnlyData

HELP = "print a player's profile (ratings, record, last matches) from a server's data directory"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """NAME, --data, --json."""
    parser.add_argument("name", metavar="NAME", help="the player's display name (any case)")
    parser.add_argument("--data", type=Path, default=Path("./data"), metavar="DIR", help="the server's data directory")
    parser.add_argument("--json", action="store_true", help="one JSON object for scripts")


def run(args: argparse.Namespace) -> int:
    """Print the profile; exit 2 without a database, 1 when nobody has that name."""
    try:
        data = ReadOnlyData(args.data)
    except NoData as problem:
        print(f"sprtec player: {problem}", file=sys.stderr)
        return 2
    try:
        records = PlayerRecords(data)
        found = records.named(args.name)
        if found is None:
            print(f"sprtec player: nobody is called {args.name!r} on this server", file=sys.stderr)
            return 1
        profile = profile_of(records, found[0])
    finally:
        data.close()
    if args.json:
        print(json.dumps({"format": "sprtec-player/1", **dataclasses.asdict(profile)}, ensure_ascii=False))
        return 0
    print(profile.player)
    for r in profile.ratings:
        print(f"  {r.family}: {r.rating}{'?' if r.provisional else ''} ±{r.rd} ({r.games} rated matches)")
    print(f"  {profile.played} played: {profile.won} won, {profile.drawn} drawn, {profile.lost} lost")
    for m in profile.last:
        change = "" if m.rating_change is None else f" ({m.rating_change:+d})"
        print(f"  {m.result:<4} {m.score.home}:{m.score.away} against {m.opponent} as {m.team}, {m.reason}{change}")
    return 0
