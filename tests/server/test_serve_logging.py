"""`sprtec serve` as a subprocess configured by its --config file: the log level and format the file sets take
effect, JSON lines parse and carry the room, match and player they concern, and the command line wins over the file.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
from pathlib import Path

import pytest

from shared.protocol import CreateRoom, JoinRoom, Leave, MatchEnded, RoomJoined, Snapshot
from sprtec.commands.serve import add_arguments, log_options, settings_from
from tests.server.players import WireClient
from tests.server.test_http_endpoints import get

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = {"period_ms": 600_000, "move_clock_ms": 120_000, "disconnect_grace_ms": 120_000}
START_S = 60.0  # how long the server may take to print its URL on a loaded machine


async def _run_server(tmp_path: Path, toml: str, *argv: str) -> tuple[str, str, int]:
    """Start `sprtec serve --config` with ``toml`` (its /healthz answers), let two coaches start a match and one
    resign (/metrics: both connected, no live match), stop the server with SIGTERM; returns (room code, stderr, the
    resigning coach's player id)."""
    config = tmp_path / "sprtec.toml"
    config.write_text(f'port = 0\nworkers = 0\ndata = "{tmp_path / "data"}"\n{toml}', encoding="utf-8")
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "sprtec", "serve", "--config", str(config), *argv,
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert child.stdout is not None
        url = (await asyncio.wait_for(child.stdout.readline(), START_S)).decode().strip()
        assert url.startswith("ws://127.0.0.1:"), url
        http = url.replace("ws://", "http://").rstrip("/")
        assert (await get(f"{http}/healthz"))[0] == 200  # the Dockerfile's HEALTHCHECK on the same port
        ann = await WireClient.connect(url, "ann")
        await ann.send(CreateRoom("standard", SETTINGS, True))
        await ann.until(RoomJoined)
        bob = await WireClient.connect(url, "bob")
        await bob.send(JoinRoom(ann.code))
        await bob.until(RoomJoined)
        await ann.until(Snapshot)
        await ann.send(Leave())  # resigns: the match ends inside ann's request in the room
        await bob.until(MatchEnded)
        status, _, metrics = await get(f"{http}/metrics")
        assert status == 200 and "\nsprtec_connections 2.0\n" in metrics and "\nsprtec_live_matches 0.0\n" in metrics
        await ann.close()
        await bob.close()
        child.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(child.communicate(), START_S)
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()
    assert child.returncode == 0, err.decode()[-2000:]
    return ann.code, err.decode(), ann.welcome.player_id or 0


async def test_json_logs_from_the_config_file_parse_and_carry_room_match_and_player(tmp_path: Path) -> None:
    """`log_format = "json"` in the file: every stderr line is one JSON object; the room's opening names the room,
    the match's end names the room, its match and the coach whose request ended it."""
    code, err, ann_id = await _run_server(tmp_path, 'log_format = "json"\nlog_level = "INFO"\n')
    lines = [json.loads(line) for line in err.splitlines() if line.strip()]
    assert lines and all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    assert any(line["message"].startswith("sprtec server listening on 127.0.0.1:") for line in lines)
    opened = [line for line in lines if line["message"].startswith(f"room {code} opened")]
    assert len(opened) == 1 and opened[0]["room"] == code and "match" in opened[0]
    (ended,) = [line for line in lines if line["message"].startswith(f"room {code}: match ")]
    assert (ended["room"], ended["player"]) == (code, ann_id)
    assert ended["match"] == opened[0]["match"] and ended["message"].startswith(f"room {code}: match {ended['match']}")
    connected = [line for line in lines if line["message"].startswith(f"player {ann_id} (")]
    assert connected and connected[0]["player"] == ann_id


async def test_the_config_file_log_level_warning_keeps_only_problems(tmp_path: Path) -> None:
    """`log_level = "WARNING"` in the file: a room opened, a match played and ended log nothing at INFO."""
    code, err, _ = await _run_server(tmp_path, 'log_format = "json"\nlog_level = "WARNING"\n')
    lines = [json.loads(line) for line in err.splitlines() if line.strip()]
    assert all(line["level"] in ("WARNING", "ERROR", "CRITICAL") for line in lines), lines
    assert not [line for line in lines if line.get("room") == code]


async def test_the_command_line_log_options_win_over_the_config_file(tmp_path: Path) -> None:
    """--log-level INFO --log-format text over a file saying WARNING and json: text lines, the room's among them."""
    code, err, _ = await _run_server(tmp_path, 'log_format = "json"\nlog_level = "WARNING"\n',
                                     "--log-level", "INFO", "--log-format", "text")
    assert f" INFO server.rooms.lobby: room {code} opened" in err
    assert not err.lstrip().startswith("{")


def _options(tmp_path: Path, toml: str, *argv: str) -> dict[str, object]:
    """The merged settings of `sprtec serve ARGV --config FILE` with ``toml`` in the file."""
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    path = tmp_path / "sprtec.toml"
    path.write_text(toml, encoding="utf-8")
    return settings_from(parser.parse_args([*argv, "--config", str(path)]))


@pytest.mark.parametrize(("toml", "problem"), [('log_level = "LOUD"\n', "log_level must be one of"),
                                               ('log_format = "yaml"\n', "log_format must be one of"),
                                               ("log_level = 20\n", "log_level must be one of")])
def test_a_log_option_the_server_does_not_know_is_refused_naming_its_key(
    tmp_path: Path, toml: str, problem: str
) -> None:
    """A level or format outside the choices ends the command with a message naming the key and the choices."""
    with pytest.raises(SystemExit, match=problem):
        log_options(_options(tmp_path, toml))


def test_without_log_options_the_server_logs_text_at_info(tmp_path: Path) -> None:
    """Neither the file nor the command line saying anything: INFO in the text format."""
    chosen = log_options(_options(tmp_path, "port = 0\n"))
    assert (chosen.level, chosen.fmt) == ("INFO", "text")


def test_the_quick_match_wait_is_an_option_of_the_file_and_the_command_line(tmp_path: Path) -> None:
    """quick_match_max_wait sets the pool's longest wait (the command line wins); a wait under a second is refused."""
    from sprtec.commands.serve import server_config

    assert server_config(_options(tmp_path, "quick_match_max_wait = 12\n")).pool.max_wait_ms == 12_000
    chosen = _options(tmp_path, "quick_match_max_wait = 12\n", "--quick-match-max-wait", "45")
    assert server_config(chosen).pool.max_wait_ms == 45_000
    assert server_config(_options(tmp_path, "")).pool.max_wait_ms == 30_000
    with pytest.raises(SystemExit, match="at least 1 second"):
        server_config(_options(tmp_path, "quick_match_max_wait = 0\n"))


def test_who_may_do_what_is_set_by_the_file_and_the_command_line(tmp_path: Path) -> None:
    """tournaments, organisers, exempt, trusted_proxies and metrics from the file; repeated options on the command
    line win; 'none' exempts no address; the defaults are named, loopback exempt, no proxy, /metrics on the game
    port."""
    from server.tournaments.creation import WHO
    from sprtec.commands.serve import TOURNAMENT_CREATORS, server_config

    assert TOURNAMENT_CREATORS == WHO  # the command line's choices are the server's (kept apart: --help stays quick)
    default = server_config(_options(tmp_path, ""))
    assert (default.tournaments, default.organisers, default.exempt, default.trusted_proxies, default.metrics) == (
        "named", (), ("127.0.0.0/8", "::1/128"), (), None)
    toml = ('tournaments = "organisers"\norganisers = ["Jana Nováková", "Petr"]\nexempt = ["192.168.1.0/24"]\n'
            'trusted_proxies = ["10.0.0.0/8"]\nmetrics = "[::1]:9765"\n')
    chosen = server_config(_options(tmp_path, toml))
    assert (chosen.tournaments, chosen.organisers, chosen.exempt, chosen.trusted_proxies, chosen.metrics) == (
        "organisers", ("Jana Nováková", "Petr"), ("192.168.1.0/24",), ("10.0.0.0/8",), ("::1", 9765))
    cli = server_config(_options(tmp_path, toml, "--tournaments", "open", "--exempt", "none", "--trusted-proxy",
                                 "127.0.0.1", "--trusted-proxy", "172.16.0.0/12", "--metrics", "0.0.0.0:9100"))
    assert (cli.tournaments, cli.exempt, cli.trusted_proxies, cli.metrics) == (
        "open", (), ("127.0.0.1", "172.16.0.0/12"), ("0.0.0.0", 9100))


@pytest.mark.parametrize(("toml", "problem"), [('tournaments = "everyone"\n', "tournaments must be one of"),
                                               ('exempt = ["the lan"]\n', "is not an address or a network"),
                                               ('organisers = "Jana"\n', "must be a list of strings"),
                                               ('metrics = "9765"\n', "metrics must be HOST:PORT")])
def test_a_wrong_trust_setting_is_refused_naming_its_key(tmp_path: Path, toml: str, problem: str) -> None:
    """A value of the wrong kind for who may do what ends the command with a line naming the key."""
    from sprtec.commands.serve import server_config

    with pytest.raises(SystemExit, match=problem):
        server_config(_options(tmp_path, toml))


async def _on_uvloop() -> int:
    """1 when the running loop is uvloop's, else 0 (``run_on`` runs a coroutine returning an exit status)."""
    return int(type(asyncio.get_running_loop()).__module__.startswith("uvloop"))


def test_the_event_loop_is_asyncio_by_default_and_uvloop_on_request(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--loop``: asyncio's own loop unless uvloop is asked for; asked for but not installed, the command ends with
    a line saying how to install it."""
    from sprtec.commands.serve import LOOPS, run_on

    assert LOOPS[0] == "asyncio"
    assert run_on("asyncio", _on_uvloop()) == 0
    monkeypatch.setitem(sys.modules, "uvloop", None)  # not installed
    with pytest.raises(SystemExit, match="pip install uvloop"):
        run_on("uvloop", _on_uvloop())
    monkeypatch.undo()
    pytest.importorskip("uvloop")
    assert run_on("uvloop", _on_uvloop()) == 1
