"""``sprtec bot`` end to end: two bots play a whole short match on a real server started on port 0."""

from __future__ import annotations

import asyncio
import json
import sys
from asyncio.subprocess import PIPE
from pathlib import Path

import pytest

from server.app import Server, ServerConfig
from server.store.sqlite.sqlite_store import SqliteStore
from shared import match_log, notation
from sprtec.cli import main
from sprtec.commands import parse_settings
from sprtec.commands.bot import BotOptions, play

SHORT = {"period_ms": 6000, "move_clock_ms": 3000}
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
async def test_two_bots_play_a_match_to_the_end(tmp_path: Path) -> None:
    """A creating bot and a joining random bot finish one match and report the same match id and score."""
    server = Server(ServerConfig(port=0, data_dir=tmp_path, workers=0))
    port = await server.start()
    url = f"ws://127.0.0.1:{port}/"
    code: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    try:
        creator = asyncio.create_task(
            play(url, BotOptions(mode="create", ruleset="quick", settings=SHORT, budget=4), code.set_result)
        )
        room = await asyncio.wait_for(code, 10)
        joiner = asyncio.create_task(play(url, BotOptions(mode="room", room=room, random=True, name="rnd")))
        first, second = await asyncio.wait_for(asyncio.gather(creator, joiner), 60)
    finally:
        await server.shutdown()
    assert {first["seat"], second["seat"]} == {"home", "away"}
    assert first["match"] == second["match"]
    assert first["score"] == second["score"] and first["winner"] == second["winner"]
    home, away = first["score"]["home"], first["score"]["away"]
    assert first["winner"] == (None if home == away else "home" if home > away else "away")


def test_settings_parse_with_their_types() -> None:
    """--setting k=v values take the setting's type; an unknown name or a missing '=' is refused."""
    assert parse_settings(["period_ms=60000", "effects_2_5d=false"]) == {"period_ms": 60000, "effects_2_5d": False}
    with pytest.raises(ValueError):
        parse_settings(["period_ms"])
    with pytest.raises(ValueError):
        parse_settings(["no_such=1"])


def test_cli_refuses_a_bad_setting_and_a_dead_server(capsys: pytest.CaptureFixture[str]) -> None:
    """Exit 2 for a bad --setting, exit 1 with a message when nothing listened at the URL for --give-up seconds."""
    assert main(["bot", "--server", "ws://127.0.0.1:9/", "--create", "--setting", "period_ms"]) == 2
    assert main(["bot", "--server", "ws://127.0.0.1:9/", "--quick-match", "--give-up", "0.2"]) == 1
    assert "sprtec bot:" in capsys.readouterr().err


@pytest.mark.slow
async def test_two_bot_processes_on_the_quick_match_queue_play_a_short_period_to_a_result(tmp_path: Path) -> None:
    """Two `sprtec bot --quick-match --setting period_ms=4000` processes pair and play to a result without a D3
    refusal; the stored match carries the override and starts with a 4-second period."""
    server = Server(ServerConfig(port=0, data_dir=tmp_path, workers=0))
    port = await server.start()
    command = [sys.executable, "-m", "sprtec", "bot", "--server", f"ws://127.0.0.1:{port}/", "--quick-match",
               "--ruleset", "quick", "--setting", "period_ms=4000", "--random", "--json"]
    bots = [await asyncio.create_subprocess_exec(*command, "--name", name, cwd=ROOT, stdout=PIPE, stderr=PIPE)
            for name in ("ann", "bob")]
    try:
        outputs = await asyncio.wait_for(asyncio.gather(*(bot.communicate() for bot in bots)), 90)
    finally:
        for bot in bots:
            if bot.returncode is None:
                bot.kill()
        await server.shutdown()
    assert [bot.returncode for bot in bots] == [0, 0], [err.decode()[-500:] for _, err in outputs]
    assert not [err for _, err in outputs if b"still moving (D3)" in err]  # the bots waited out every playback
    first, second = (json.loads(out) for out, _ in outputs)
    assert first["match"] == second["match"] and {first["seat"], second["seat"]} == {"home", "away"}
    assert first["reason"] not in ("FORFEIT_DISCONNECTED", "RESIGNED") and first["score"] == second["score"]
    store = SqliteStore(tmp_path)
    try:
        stored = store.match(first["match"])
        assert stored is not None and stored.finished and stored.ruleset == "quick"
        assert stored.overrides == {"period_ms": 4000}
        assert stored.initial_position["part"]["clock_ms"] == 4000
        end, _ = match_log.replay(notation.position_from_json(stored.initial_position), store.log(first["match"]))
    finally:
        store.close()
    assert end.result is not None and end.result.reason == first["reason"]
