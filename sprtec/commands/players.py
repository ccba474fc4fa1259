"""``sprtec players --data DIR [--ruleset R] [--all] [--json]``: the leaderboard of a server's data directory.

Why from the data directory: an operator or a club's results page reads it beside a running server (read-only)
without speaking the protocol. The ranking is the server's own (``server.players``: established players, RD at most
75 as it stands now, best rating first); ``--all`` lists provisional players too, each with its flag.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from server.players import LEADERBOARD_MAX_RD, now_ms
from server.store.player_records import PlayerRecords
from server.store.sqlite.data_reader import NoData, ReadOnlyData
from shared.ratings import family_of, rating_at
from shared.rulesets import RULESETS

HELP = "print the leaderboard of a server's data directory (--all: provisional players too)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--data, --ruleset, --all, --json."""
    parser.add_argument("--data", type=Path, default=Path("./data"), metavar="DIR", help="the server's data directory")
    parser.add_argument("--ruleset", choices=RULESETS, default="standard",
                        help="the ruleset whose family to rank (quick, or standard for the others)")
    parser.add_argument("--all", action="store_true", help="every rated player, provisional ones too")
    parser.add_argument("--json", action="store_true", help="one JSON object for scripts")


def run(args: argparse.Namespace) -> int:
    """Print the leaderboard; exit 2 when the data directory holds no database."""
    try:
        data = ReadOnlyData(args.data)
    except NoData as problem:
        print(f"sprtec players: {problem}", file=sys.stderr)
        return 2
    try:
        family = family_of(args.ruleset)
        now = now_ms()
        rows = []
        for _pid, name, stored in PlayerRecords(data).rated_players(family):
            shown = rating_at(stored.rating, now)
            if args.all or shown.rd <= LEADERBOARD_MAX_RD:
                rows.append({"player": name, "rating": shown.shown_rating, "rd": shown.shown_rd,
                             "provisional": shown.provisional, "games": stored.games})
    finally:
        data.close()
    for rank, row in enumerate(rows, 1):
        row["rank"] = rank
    if args.json:
        print(json.dumps({"format": "sprtec-players/1", "family": family, "players": rows}, ensure_ascii=False))
        return 0
    print(f"{family} ({'all rated players' if args.all else 'established players, RD ≤ 75'})")
    if not rows:
        print("  nobody yet")
    for row in rows:
        mark = "?" if row["provisional"] else " "
        print(f"{row['rank']:>4}. {row['player']:<24} {row['rating']:>5}{mark} ±{row['rd']:<3} {row['games']} games")
    return 0
