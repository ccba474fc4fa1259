"""``sprtec bench <target>``: the benchmarks that live in the repository, in the ``benchmarks`` package.

Why a table: each target is a module of ``benchmarks`` with ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``, imported only when chosen (a benchmark pulls in the server, the client or pymunk), so
``sprtec bench --help`` costs nothing and a new target is one line here.
"""

from __future__ import annotations

import argparse
import importlib

HELP = "Run a benchmark against a floor measured in the same run: physics, server, recovery, client, tournament, web."

TARGETS: dict[str, str] = {  # target -> module of the benchmarks package
    "client": "client_frames",
    "physics": "physics_cost",
    "recovery": "recovery_time",
    "server": "server_load",
    "tournament": "tournament_pairing",
    "web": "web_load",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """A positional target, then the target's own options (parsed by its module in ``run``)."""
    parser.add_argument("target", choices=sorted(TARGETS), help="what to benchmark")
    parser.add_argument("options", nargs=argparse.REMAINDER, help="the target's options (see --help after it)")


def run(args: argparse.Namespace) -> int:
    """Load the target's module, parse its options and run it."""
    module = importlib.import_module(f"benchmarks.{TARGETS[args.target]}")
    parser = argparse.ArgumentParser(prog=f"sprtec bench {args.target}", description=module.HELP)
    module.add_arguments(parser)
    return int(module.run(parser.parse_args(args.options)) or 0)
