"""``sprtec tournament import SAVE``: a tournament saved by the organisers' program as a ``sprtec-tournament/1`` file.

Why a command of its own: an organiser who ran (part of) a tournament in turnaj-sprtec moves it to sprtec with one
command - the file on standard output (or ``--out``), ready for ``sprtec tournament standings``, ``pair``, ``ranking``
or ``create``; its boards' referees beside it (``--referees``, ``sprtec-referees/1``), which the tournament file has
no field for; and, with ``--xlsx``, the association's sheet with the save's venue and organiser. The reading is
``shared.tournament.turnaj_import``; a save it cannot read prints the contract's ``{"error": {"code", "message"}}`` on
standard output and exits 2, as the file actions do.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def import_arguments(parser: argparse.ArgumentParser) -> None:
    """SAVE, --out, --referees, --xlsx."""
    parser.add_argument("file", metavar="SAVE", help="the program's saved tournament (.json), or - for standard input")
    parser.add_argument("--out", default=None, metavar="FILE",
                        help="write the tournament file here (default: print it)")
    parser.add_argument("--referees", default=None, metavar="FILE",
                        help="write the boards' referees and the rounds' recorders here (sprtec-referees/1)")
    parser.add_argument("--xlsx", default=None, metavar="FILE",
                        help="write the association's sheet of the imported tournament here")
    parser.add_argument("--pretty", action="store_true", help="indent an error's JSON")


def run_import(args: argparse.Namespace) -> int:
    """Import; print the file (or the paths written); 2 with the contract's error when the save cannot be read."""
    from server.tournaments.association_sheet import Heading, association_xlsx
    from shared.tournament.board_referees import refereed_counts, to_json
    from shared.tournament.errors import TournamentError
    from shared.tournament.turnaj_import import import_save
    from shared.tournament.writing import dumps
    from sprtec.commands.tournament import json_text, read_file

    try:
        imported = import_save(read_file(args.file))
    except TournamentError as exc:
        sys.stdout.buffer.write(json_text(exc.to_json(), args.pretty).encode("utf-8"))
        sys.stdout.flush()
        return 2
    t = imported.tournament
    written: list[Path] = []
    if args.referees:
        written.append(_write(args.referees, json.dumps(to_json(imported.referees), ensure_ascii=False, indent=2)
                              + "\n"))
    if args.xlsx:
        heading = Heading(venue=imported.venue, host=imported.host, contests=imported.contests)
        data = association_xlsx(t, referees=imported.referees, refereed=refereed_counts(t, imported.referees),
                                heading=heading)
        path = Path(args.xlsx)
        path.write_bytes(data)
        written.append(path)
    if args.out is None:
        sys.stdout.buffer.write(dumps(t).encode("utf-8"))
    else:
        written.insert(0, _write(args.out, dumps(t)))
        sys.stdout.write("".join(f"{path}\n" for path in written))
    sys.stdout.flush()
    return 0


def _write(name: str, text: str) -> Path:
    """One UTF-8 file."""
    path = Path(name)
    path.write_text(text, encoding="utf-8")
    return path
