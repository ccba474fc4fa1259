"""``sprtec verify --data DIR [MATCH] [--json]``: prove the stored matches by running them again.

Every match (or MATCH) is run through the physics and the referee from its initial position
(``server.replays.verification``); every position its log kept, every move clock and every stored result must be what
the fold gives. Exit 0 when all agree, 1 when one does not (the line says which entry), 2 without a database. Safe
beside a running server? No: it opens the store; stop the server, or run it on a copy.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HELP = "run every stored match again through physics and referee and check the positions it kept"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--data, MATCH, --json."""
    parser.add_argument("--data", type=Path, default=Path("./data"), metavar="DIR", help="the server's data directory")
    parser.add_argument("match", nargs="?", metavar="MATCH", help="one match id (default: every match)")
    parser.add_argument("--json", action="store_true", help="one JSON object for scripts")


def run(args: argparse.Namespace) -> int:
    """Verify and report."""
    from server.replays.verification import all_matches, verify_match
    from server.store.sqlite.sqlite_store import DATABASE, SqliteStore, StoreOpenError

    if not (args.data / DATABASE).is_file():
        print(f"sprtec verify: no sprtec database in {args.data}", file=sys.stderr)
        return 2
    try:
        store = SqliteStore(args.data)
    except StoreOpenError as problem:
        print(f"sprtec verify: {problem}", file=sys.stderr)
        return 2
    try:
        verdicts = [verify_match(store, m) for m in ([args.match] if args.match else all_matches(store))]
    finally:
        store.close()
    bad = [v for v in verdicts if v.problem is not None]
    if args.json:
        print(json.dumps({"format": "sprtec-verify/1", "matches": len(verdicts), "failed": len(bad),
                          "problems": [{"match": v.match_id, "problem": v.problem} for v in bad]}))
    else:
        entries, compared = sum(v.entries for v in verdicts), sum(v.compared for v in verdicts)
        for v in bad:
            print(f"match {v.match_id}: {v.problem}")
        print(f"{len(verdicts)} matches, {entries} entries, {compared} kept positions checked: "
              f"{'all agree' if not bad else f'{len(bad)} disagree'}")
    return 1 if bad else 0
