"""``sprtec season standings FILE... [--best N]``: the ranking of a Czech Cup season from its tournament files.

Why a command of its own: a season is not one tournament but many files, read together (docs/TOURNAMENT.md
"Seasons"). It prints like the file actions of ``sprtec tournament``: one ``sprtec-season/1`` JSON object on
standard output and exit 0, or ``{"error": {"code", "message", "file"}}`` on standard output and exit 2 - a
file's own error (a file that cannot be read is ``BAD_FORMAT``) or ``SEASON_FILE``; ``--pretty`` indents.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

HELP = "Czech Cup seasons: `sprtec season standings FILE...` ranks the season from its tournament files"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``standings`` action: FILE..., ``--best N``, ``--pretty``."""
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    sub = actions.add_parser("standings", help="print the season's ranking of players (one JSON object)",
                             description="print the season's ranking of players (one JSON object)")
    sub.add_argument("files", metavar="FILE", nargs="+",
                     help="the season's tournament files in order (file 0 gives the season; - reads standard input)")
    sub.add_argument("--best", type=_best, default=None, metavar="N",
                     help="sum each player's N best results (default: all of them)")
    sub.add_argument("--pretty", action="store_true", help="indent the JSON output")


def run(args: argparse.Namespace) -> int:
    """Print the season's standings (or the error object) and return the exit status."""
    status, text = standings_answer(args.files, best=args.best, pretty=args.pretty)
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.flush()
    return status


def standings_answer(names: Sequence[str], *, best: int | None = None, pretty: bool = False,
                     read: Callable[[str], bytes] | None = None) -> tuple[int, str]:
    """The exit status and the text ``sprtec season standings`` prints for these files (``read``: how a name
    becomes bytes, by default the file or, for ``-``, standard input, read once)."""
    from shared.tournament.errors import TournamentError
    from shared.tournament.season import RankedFile, read_file, season_of, to_json
    from sprtec.commands.tournament import json_text
    from sprtec.commands.tournament import read_file as read_bytes

    cache: dict[str, bytes] = {}
    try:
        files: list[RankedFile] = []
        for index, name in enumerate(names):
            try:
                if read is not None:
                    data = read(name)
                elif name == "-":
                    if name not in cache:
                        cache[name] = read_bytes(name)
                    data = cache[name]
                else:
                    data = read_bytes(name)
            except TournamentError as exc:
                raise exc.in_file(index) from None
            files.append(read_file(data, index))
        return 0, json_text(to_json(season_of(files, best)), pretty)
    except TournamentError as exc:
        return 2, json_text(exc.to_json(), pretty)


def _best(text: str) -> int:
    """N of ``--best``: 1, 2, 3, ..."""
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected a number of results 1, 2, 3, ..., not {text!r}")
    return number
