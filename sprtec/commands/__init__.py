"""One module per ``sprtec`` subcommand, each with ``add_arguments(parser)`` and ``run(args) -> int``.

Also what several subcommands parse alike (``--setting K=V``), so they accept the same text the same way.
"""

from __future__ import annotations

import argparse
from typing import Any


def add_setting_argument(parser: argparse.ArgumentParser, help_text: str) -> None:
    """``--setting K=V``, repeatable, into ``args.setting`` (a list; ``parse_settings`` reads it)."""
    parser.add_argument("--setting", action="append", default=[], metavar="K=V", help=help_text)


def parse_settings(pairs: list[str]) -> dict[str, Any]:
    """``k=v`` pairs as a dict, values coerced to the setting's type (``shared.rulesets``); ValueError names a bad
    pair (no ``=``, an unknown name, a value of the wrong type)."""
    from shared.rulesets import coerce_setting

    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"--setting expects k=v, not {pair!r}")
        out[name] = coerce_setting(name, value)
    return out
