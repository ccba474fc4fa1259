"""The ``sprtec`` command line: ``sprtec <subcommand> …``.

Why lazy: each subcommand lives in its own module under ``sprtec.commands`` and only the chosen one
is imported, so ``sprtec scenario`` never pays for importing arcade and ``sprtec play`` never
imports the server. A subcommand module provides ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int`` (the exit status).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType

# name -> (module under sprtec.commands, its summary in ``sprtec --help``, listed without importing it;
# the module's own ``HELP`` is the longer description of ``sprtec NAME --help``).
COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("serve", "run the server (default ws://127.0.0.1:8765/, data in ./data)"),
    "servers": ("servers", "list the sprtec servers announced on the LAN (`sprtec serve --lan`)"),
    "play": ("play", "play: the lobby of the local (or a given) server, or practice against the bot"),
    "watch": ("watch", "watch a running match as a spectator"),
    "hall": ("hall", "the spectators' hall of a tournament: standings, tables, bracket, live tables (full screen)"),
    "replay": ("replay", "step through an exported match move by move"),
    "bot": ("bot", "play one match as a bot against a server"),
    "scenario": ("scenario", "run a position and actions (SCENARIOS.md) through physics and referee, print JSON"),
    "export": ("export", "print a match from a server's data as a scenario that `sprtec scenario` replays"),
    "tournament": ("tournament", "tournament files (TOURNAMENT.md): `sprtec tournament standings|pair|ranking FILE`"),
    "league": ("league", "team leagues (TOURNAMENT.md \"Team competitions\"): `sprtec league games|table FILE`"),
    "season": ("season", "Czech Cup seasons (TOURNAMENT.md): `sprtec season standings FILE... [--best N]`"),
    "organise": ("organise", "the organiser: the LAN server, the tournament and the organiser's desk in one"),
    "players": ("players", "print the leaderboard of a server's data directory"),
    "player": ("player", "print a player's profile from a server's data directory"),
    "verify": ("verify", "run every stored match again and check the positions its log kept"),
    "bench": ("bench", "benchmarks: `sprtec bench physics`, `sprtec bench server`"),
}


def _load(name: str) -> ModuleType:
    """The module of subcommand ``name``, imported only now (see the module docstring)."""
    return importlib.import_module(f"sprtec.commands.{COMMANDS[name][0]}")


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, run one subcommand and return its exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    top = argparse.ArgumentParser(prog="sprtec", description="Online billiard-hockey (šprtec).")
    sub = top.add_subparsers(dest="command", metavar="COMMAND")
    available = []
    for name in COMMANDS:
        try:
            spec = importlib.util.find_spec(f"sprtec.commands.{COMMANDS[name][0]}")
        except ModuleNotFoundError:
            spec = None
        if spec is not None:
            available.append(name)
    chosen = args[0] if args and args[0] in available else None
    for name in available:
        if name == chosen:
            module = _load(name)
            parser = sub.add_parser(name, help=module.HELP, description=module.HELP)
            module.add_arguments(parser)
        else:
            sub.add_parser(name, help=COMMANDS[name][1], add_help=False)
    if chosen is None:
        if args and args[0] not in ("-h", "--help"):
            top.print_usage(sys.stderr)
            print(f"sprtec: unknown command {args[0]!r}; choose from {', '.join(available)}", file=sys.stderr)
            return 2
        top.print_help()
        return 0 if args else 2
    parsed = top.parse_args(args)
    return int(_load(chosen).run(parsed) or 0)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
