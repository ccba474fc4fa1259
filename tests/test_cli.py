"""The ``sprtec`` command shell: every subcommand is reachable and listed, mistakes exit 2."""

from __future__ import annotations

import importlib

import pytest

from sprtec.cli import COMMANDS, main


def test_every_listed_command_has_a_module_with_the_subcommand_interface():
    """Each subcommand module provides HELP, add_arguments and run (the lazy dispatcher relies on them)."""
    for name, (module_name, _) in COMMANDS.items():
        module = importlib.import_module(f"sprtec.commands.{module_name}")
        assert callable(module.add_arguments) and callable(module.run), name
        assert isinstance(module.HELP, str) and module.HELP, name


def test_help_lists_every_command(capsys):
    """``sprtec --help`` names every subcommand with its one-line help."""
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in COMMANDS:
        assert name in out


def test_unknown_command_exits_2(capsys):
    """A mistyped subcommand is refused with status 2 and says which commands exist."""
    assert main(["serv"]) == 2
    assert "unknown command 'serv'" in capsys.readouterr().err


def test_subcommand_flags_are_parsed_by_the_subcommand():
    """A subcommand's own parser rejects its bad flags (argparse exits 2)."""
    with pytest.raises(SystemExit) as exc:
        main(["scenario", "--no-such-flag"])
    assert exc.value.code == 2
