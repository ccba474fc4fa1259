"""``sprtec bench <target>``: the benchmarks that live in the repository (DESIGN.md "Tests").

Why a dispatcher: each target is its own module ``sprtec.commands.bench_<target>`` with
``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``, imported only when chosen, so a new
target (``bench server``) needs no change here.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
from pathlib import Path

HELP = "Run a benchmark: physics (one move vs a bare pymunk loop) or another bench_<target> module."


def _targets() -> list[str]:
    """The benchmark targets available: every module ``sprtec/commands/bench_<target>.py``."""
    package = importlib.import_module("sprtec.commands")
    found = []
    for directory in package.__path__:
        found += [p.stem[len("bench_"):] for p in Path(directory).glob("bench_*.py")]
    return sorted(found)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """A positional target, then the target's own options (parsed by its module in ``run``)."""
    parser.add_argument("target", choices=_targets(), help="what to benchmark")
    parser.add_argument("options", nargs=argparse.REMAINDER, help="the target's options (see --help after it)")


def run(args: argparse.Namespace) -> int:
    """Load ``bench_<target>``, parse its options and run it."""
    module = importlib.import_module(f"sprtec.commands.bench_{args.target}")
    parser = argparse.ArgumentParser(prog=f"sprtec bench {args.target}", description=module.HELP)
    module.add_arguments(parser)
    return int(module.run(parser.parse_args(args.options)) or 0)
