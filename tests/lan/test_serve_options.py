"""`sprtec serve --lan` and the config file's lan/name: where the server listens and what it announces."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from server.app import ServerConfig
from server.lan.announcer import announced_addresses
from sprtec.commands.serve import add_arguments, config_from


def _config(tmp_path: Path, *argv: str, toml: str | None = None) -> ServerConfig:
    """The ServerConfig ``sprtec serve ARGV`` would run with (``toml``: the text of a --config file)."""
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    if toml is not None:
        path = tmp_path / "sprtec.toml"
        path.write_text(toml, encoding="utf-8")
        argv = (*argv, "--config", str(path))
    return config_from(parser.parse_args(argv))


def test_lan_listens_on_every_interface_unless_a_host_is_given(tmp_path: Path) -> None:
    """--lan alone listens on 0.0.0.0; --host keeps its address; without --lan the default stays loopback."""
    assert (_config(tmp_path, "--lan").host, _config(tmp_path, "--lan").lan) == ("0.0.0.0", True)
    assert _config(tmp_path, "--lan", "--host", "198.18.0.1").host == "198.18.0.1"
    assert (_config(tmp_path).host, _config(tmp_path).lan) == ("127.0.0.1", False)


def test_the_config_file_sets_lan_and_name_and_the_command_line_wins(tmp_path: Path) -> None:
    """`lan = true` and `name` in the TOML file announce like the flags; --name overrides the file's name."""
    config = _config(tmp_path, toml='lan = true\nname = "Klub Šprtec"\n')
    assert (config.lan, config.name, config.host) == (True, "Klub Šprtec", "0.0.0.0")
    assert _config(tmp_path, "--name", "Hall B", toml='lan = true\nname = "Klub"\n').name == "Hall B"
    assert _config(tmp_path, toml='lan = true\nhost = "198.18.0.1"\n').host == "198.18.0.1"


def test_a_config_file_with_a_lan_that_is_not_a_boolean_is_refused(tmp_path: Path) -> None:
    """`lan = "yes"` ends the command with a message instead of announcing by accident."""
    with pytest.raises(SystemExit, match=r"lan .* must be true or false"):
        _config(tmp_path, toml='lan = "yes"\n')


def test_a_port_that_is_not_a_whole_number_is_refused(tmp_path: Path) -> None:
    """`port = "80"` in the file is refused with a message naming the key."""
    with pytest.raises(SystemExit, match="port must be a whole number"):
        _config(tmp_path, toml='port = "80"\n')


async def test_a_given_address_is_the_only_one_announced() -> None:
    """A server bound to one IPv4 address announces that address, and an IPv6 one none (IPv4 only)."""
    assert await announced_addresses("198.18.0.7") == ["198.18.0.7"]
    assert await announced_addresses("::1") == []
