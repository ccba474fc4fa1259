"""``sprtec export`` end to end: a stored match (and a bot match on a real server) exports to a scenario that
``sprtec scenario`` replays to exactly the server's own replay of the log."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any, Literal

import pytest

from server.app import Server, ServerConfig
from server.store import match_statements
from server.store.log_rows import entry_row
from server.store.match_records import MatchStart
from server.store.sqlite.sqlite_store import SqliteStore
from shared import match as rules
from shared import match_log, notation
from shared.match_log import LogEntry
from shared.model import Elapse, Flick, Forfeit, Position, Timeout
from shared.protocol import JoinRoom, RoomJoined
from sprtec.commands.bot import BotOptions, play
from tests.server.players import WireClient

ROOT = Path(__file__).resolve().parent.parent
MATCH_ID = "0123456789ab"
ROOM = "KQ7TXM"
SHORT = {"period_ms": 4000, "break_ms": 2000}


def _sprtec(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m sprtec ARGS`` as a separate process."""
    return subprocess.run([sys.executable, "-m", "sprtec", *args], input=stdin, capture_output=True, cwd=ROOT,
                          timeout=120, check=False)


def _at_puck(position: Position) -> Flick:
    """The team to move flicks its first selectable stone straight at the puck at 1.5 m/s (a real, legal move)."""
    team = position.to_move
    stone = position.stone(rules.legal_stones(position, team)[0])
    assert stone is not None
    dx, dy = position.puck.x - stone.x, position.puck.y - stone.y
    norm = math.hypot(dx, dy) or 1.0
    return Flick(team, stone.id, 1500.0 * dx / norm, 1500.0 * dy / norm)


def _record_match(data_dir: Path, plan: list[tuple[str, int]]) -> tuple[Position, list[LogEntry]]:
    """Play ``plan`` ((kind, elapsed_ms) with kind flick, timeout, elapse-to-end, forfeit) through the server's
    ``apply_entry`` and store it through ``server.store.sqlite.sqlite_store`` the way a room logs: an accepted entry as
    it is, a refused one only for its clock part (as ``elapse``), nothing when nothing happened."""
    initial = match_log.new_match("standard", dict(SHORT), seed=4242)
    position, log = initial, list[LogEntry]()
    for kind, elapsed in plan:
        team = position.to_move
        if kind == "flick":
            entry = LogEntry(index=len(log), elapsed_ms=elapsed, input=_at_puck(position))
        elif kind == "elapse-to-end":
            entry = LogEntry(index=len(log), elapsed_ms=position.part.clock_ms)
        elif kind == "timeout":
            entry = LogEntry(index=len(log), elapsed_ms=elapsed, input=Timeout(team))
        else:
            reason: Literal["RESIGNED", "FORFEIT_DISCONNECTED"] = (
                "RESIGNED" if kind == "resign" else "FORFEIT_DISCONNECTED")
            entry = LogEntry(index=len(log), elapsed_ms=elapsed, input=Forfeit("away" if kind == "forfeit" else team,
                                                                               reason))
        outcome = match_log.apply_entry(position, entry)
        if not outcome.accepted:
            if not outcome.decisions:
                continue
            entry = dataclasses.replace(entry, input=None)
        log.append(entry)
        position = outcome.position
    store = SqliteStore(data_dir)
    try:
        statements = [match_statements.add_match(MatchStart(match_id=MATCH_ID, room_code=ROOM, seed=initial.seed,
                                                 ruleset=initial.ruleset, overrides=SHORT, initial=initial,
                                                 home_player=1, away_player=2, version_base=0))]
        statements += [match_statements.append_log(MATCH_ID, e) for e in log]
        if position.result is not None:
            statements.append(match_statements.finish_match(MATCH_ID, {"winner": position.result.winner,
                                                            "reason": position.result.reason}, position.score))
        store.write_sync(statements)
    finally:
        store.close()
    return initial, log


# Three periods: a period and a break ended by the clock alone, move-clock timeouts, waits while aiming, an
# action whose clock part runs through the end of period 2 and its break (the action is then refused, so it is
# logged as clock time only), and a forfeit that ends the match in period 3.
PLAN = [("flick", 700), ("timeout", 1200), ("flick", 300), ("flick", 0), ("elapse-to-end", 0),
        ("elapse-to-end", 0), ("flick", 450), ("timeout", 900), ("flick", 5000), ("flick", 250), ("flick", 100),
        ("forfeit", 800)]


def _replay_through_cli(data_dir: Path, match: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``sprtec export`` piped into ``sprtec scenario``: the exported scenario and the result entries."""
    exported = _sprtec("export", "--data", str(data_dir), match)
    assert exported.returncode == 0, exported.stdout + exported.stderr
    ran = _sprtec("scenario", "-", stdin=exported.stdout)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    return json.loads(exported.stdout), json.loads(ran.stdout)["results"]


def _final(scenario: dict[str, Any], results: list[dict[str, Any]]) -> dict[str, Any]:
    """The position after the last accepted entry (the scenario's own position when none was accepted)."""
    accepted = [r["position"] for r in results if r["accepted"]]
    return accepted[-1] if accepted else scenario["position"]


def test_export_of_a_stored_match_replays_to_the_servers_replay(tmp_path: Path):
    """Every entry accepted, and the final position (score, part, result) equals the server's replay of the log."""
    initial, log = _record_match(tmp_path, PLAN)
    assert {entry_row(e)[0] for e in log} == {"action", "timeout", "elapse", "forfeit"}
    expected, _ = match_log.replay(initial, log)
    scenario, results = _replay_through_cli(tmp_path, MATCH_ID)
    assert all(r["accepted"] for r in results), [r for r in results if not r["accepted"]]
    final = _final(scenario, results)
    assert final == notation.position_to_json(expected)
    assert expected.part.kind == "period" and expected.part.number == 3
    assert expected.result is not None and expected.result.winner == "home"
    assert final["result"] == {"winner": "home", "reason": "FORFEIT_DISCONNECTED"}


@pytest.mark.parametrize("last", ["forfeit", "resign"])
def test_every_log_kind_replays_entry_by_entry_alike_on_the_server_and_through_the_export(tmp_path: Path, last: str):
    """Each entry's position, decisions and duration through apply_entry equal its events' through export | scenario."""
    initial, log = _record_match(tmp_path, [*PLAN[:-1], (last, 800)])
    assert {entry_row(e)[0] for e in log} == {"action", "timeout", "elapse", last}
    _, results = _replay_through_cli(tmp_path, MATCH_ID)
    position, at = initial, 0
    for entry in log:
        outcome = match_log.apply_entry(position, entry)
        count = len(entry.events())
        group, at = results[at : at + count], at + count
        assert count > 0 and outcome.accepted and all(r["accepted"] for r in group), (entry, group)
        assert [d for r in group for d in r["decisions"]] == [d.to_json() for d in outcome.decisions], entry
        assert sum(r["duration_ms"] for r in group) == outcome.duration_ms, entry
        assert group[-1]["position"] == notation.position_to_json(outcome.position), entry
        position = outcome.position
    assert at == len(results)
    reason = {"forfeit": "FORFEIT_DISCONNECTED", "resign": "RESIGNED"}[last]
    assert position.result is not None and position.result.reason == reason


def test_export_writes_each_log_entry_as_its_clock_time_then_its_input(tmp_path: Path):
    """elapse N (only when N > 0) before each input; timeouts, clock-only entries and the forfeit as events."""
    initial, log = _record_match(tmp_path, PLAN)
    done = _sprtec("export", "--data", str(tmp_path), MATCH_ID)
    assert done.returncode == 0, done.stderr
    scenario = notation.scenario_from_json(done.stdout)
    assert scenario.timed and scenario.position == initial
    expected: list[object] = []
    for e in log:
        if e.elapsed_ms > 0:
            expected.append(Elapse(e.elapsed_ms))
        if e.input is not None:
            expected.append(e.input)
    assert list(scenario.actions) == expected
    assert done.stdout.decode().strip() == notation.dumps(notation.scenario_to_json(scenario))  # canonical


def _replay_log(path: Path) -> list[str]:
    """The decision lines ``sprtec replay`` writes stepping through the exported match in ``path`` (its names)."""
    from client.match.replay_model import ReplayCursor, load
    from client.match.state import MatchState

    replay = load(path)
    state, cursor = MatchState(names={"home": "Home", "away": "Away"}), ReplayCursor(replay)
    for index in range(1, len(replay.moves) + 1):
        cursor.jump(state, index, 0.0)
    return [line.text for line in state.log if line.kind == "decision"]


def test_A35_move_clock_timeouts_of_an_export_are_ruled_TIMEOUT_in_sprtec_scenario_and_sprtec_replay(
        tmp_path: Path):
    """A35: each move-clock timeout of the stored match is, in the exported scenario's results, one TIMEOUT of the
    team whose clock ran out (kind null), and sprtec replay tells it: "Time (A35): Home did not move in 30 s — Away
    to move"."""
    _initial, log = _record_match(tmp_path, PLAN)
    scenario, results = _replay_through_cli(tmp_path, MATCH_ID)
    told = [d for r in results for d in r["decisions"] if d["code"] == "TIMEOUT"]
    timed_out = [e.input.team for e in log if isinstance(e.input, Timeout)]
    assert len(timed_out) == 2 and told == [{"code": "TIMEOUT", "team": t, "kind": None} for t in timed_out]
    exported = tmp_path / "match.json"
    exported.write_text(json.dumps(scenario), encoding="utf-8")
    names = {"home": "Home", "away": "Away"}
    expected = [f"Time (A35): {names[t]} did not move in 30 s — {names['away' if t == 'home' else 'home']} to move"
                for t in timed_out]
    assert [line for line in _replay_log(exported) if line.startswith("Time")] == expected


def test_A33_a_choice_timeout_logged_with_its_kind_exports_and_replays_as_TIMEOUT_with_the_kind(tmp_path: Path):
    """A33, XV.11: a stored penalty shot whose goalie and shooter setups timed out (log kind timeout, action
    {"kind": "setup"}) exports as timeout events with the kind; replayed, each is ruled TIMEOUT with its team and
    kind and the shot goes on from the defaults."""
    shot = rules.apply_action(notation.scenario_from_json((ROOT / "examples" / "penalty-shot.json").read_text())
                              .position, notation.action_from_json({"team": "home", "action": "take_penalty"}))
    assert shot.accepted and shot.position.penalty is not None
    log = [LogEntry(index=0, elapsed_ms=10_000, input=Timeout("away", "setup")),
           LogEntry(index=1, elapsed_ms=0, input=Timeout("home", "setup")),
           LogEntry(index=2, elapsed_ms=1200, input=Flick("home", "h2", 900.0, 0.0))]
    store = SqliteStore(tmp_path)
    try:
        start = MatchStart(match_id=MATCH_ID, room_code=ROOM, seed=0, ruleset="standard", overrides={},
                           initial=shot.position, home_player=1, away_player=2, version_base=0)
        store.write_sync([match_statements.add_match(start), *(match_statements.append_log(MATCH_ID, e) for e in log)])
    finally:
        store.close()
    scenario, results = _replay_through_cli(tmp_path, MATCH_ID)
    assert [a for a in scenario["actions"] if a["action"] == "timeout"] == [
        {"team": "away", "action": "timeout", "kind": "setup"}, {"team": "home", "action": "timeout", "kind": "setup"}]
    assert all(r["accepted"] for r in results)
    told = [d for r in results for d in r["decisions"] if d["code"] == "TIMEOUT"]
    assert told == [{"code": "TIMEOUT", "team": "away", "kind": "setup"},
                    {"code": "TIMEOUT", "team": "home", "kind": "setup"}]
    assert _final(scenario, results)["penalty"]["moves"] == 1
    exported = tmp_path / "match.json"
    exported.write_text(json.dumps(scenario), encoding="utf-8")
    assert [line for line in _replay_log(exported) if line.startswith("Time")] == [
        "Time: the default was chosen for Away — the stone stays where the referee set it up",
        "Time: the default was chosen for Home — the stone stays where the referee set it up"]


def test_a_room_code_names_its_match(tmp_path: Path):
    """The room code, typed in lower case with a dash, exports the same scenario as the match id."""
    _record_match(tmp_path, PLAN[:3])
    by_id = _sprtec("export", "--data", str(tmp_path), MATCH_ID)
    by_code = _sprtec("export", "--data", str(tmp_path), "kq7-txm")
    assert by_id.returncode == 0 and by_code.stdout == by_id.stdout


@pytest.mark.parametrize(("where", "match", "code"), [("missing", MATCH_ID, "NO_DATA"), ("store", "ffffffffffff",
                                                       "NO_MATCH"), ("store", "NOROOM", "NO_MATCH")])
def test_an_unknown_data_dir_or_match_exits_2_with_a_json_error(tmp_path: Path, where: str, match: str, code: str):
    """Exit 2 and one JSON error object on standard output naming what was not found."""
    if where == "store":
        _record_match(tmp_path, PLAN[:1])
    done = _sprtec("export", "--data", str(tmp_path if where == "store" else tmp_path / "nowhere"), match)
    assert done.returncode == 2
    out = json.loads(done.stdout)
    assert out["format"] == "sprtec-export-error/1" and out["error"]["code"] == code and out["error"]["message"]


def _expected_end(data_dir: Path, match_id: str) -> Position:
    """The server's own replay (``shared.match_log.replay``) of a stored match's log, from its stored start."""
    store = SqliteStore(data_dir)
    try:
        stored = store.match(match_id)
        assert stored is not None and stored.finished
        expected, _ = match_log.replay(notation.position_from_json(stored.initial_position), store.log(match_id))
    finally:
        store.close()
    return expected


@pytest.mark.slow
async def test_a_bot_match_on_a_real_server_exports_and_replays_to_the_same_end(tmp_path: Path):
    """A thinking bot and a random bot finish a short quick match; its export names both coaches and replays to the
    server's final position and to the score both bots were told."""
    server = Server(ServerConfig(port=0, data_dir=tmp_path, workers=0))
    port = await server.start()
    url = f"ws://127.0.0.1:{port}/"
    code: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    settings = {"period_ms": 4000, "move_clock_ms": 1500}
    try:
        creator = asyncio.create_task(play(url, BotOptions(mode="create", ruleset="quick", settings=settings, budget=4),
                                           code.set_result))
        room = await asyncio.wait_for(code, 10)
        joiner = asyncio.create_task(play(url, BotOptions(mode="room", room=room, random=True, name="rnd")))
        first, second = await asyncio.wait_for(asyncio.gather(creator, joiner), 60)
    finally:
        await server.shutdown()
    expected = _expected_end(tmp_path, first["match"])
    scenario, results = _replay_through_cli(tmp_path, first["match"])
    final = _final(scenario, results)
    assert len(scenario["actions"]) >= 2 and final == notation.position_to_json(expected)
    assert final["score"] == first["score"] == second["score"] and final["result"]["winner"] == first["winner"]
    names = {first["seat"]: "bot", second["seat"]: "rnd"}
    assert scenario["players"] == {"home": names["home"], "away": names["away"]}  # replays show who played


@pytest.mark.slow
async def test_timeouts_and_a_disconnect_forfeit_on_a_real_server_export_as_clock_events(tmp_path: Path):
    """A bot plays against a coach who never moves (his move clock runs out) and then drops; the export holds the
    running clock, the timeouts and the forfeit, and replays to the server's end: the bot wins by forfeit."""
    server = Server(ServerConfig(port=0, data_dir=tmp_path, workers=0))
    port = await server.start()
    url = f"ws://127.0.0.1:{port}/"
    code: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    settings = {"period_ms": 60_000, "move_clock_ms": 300, "disconnect_grace_ms": 300}
    try:
        bot = asyncio.create_task(play(url, BotOptions(mode="create", ruleset="quick", settings=settings, random=True),
                                       code.set_result))
        idle = await WireClient.connect(url, "idle")
        await idle.send(JoinRoom(await asyncio.wait_for(code, 10)))
        await idle.until(RoomJoined)
        while sum(1 for m in idle.moves if m.action is None) < 2:  # two of its own turns timed out
            await idle.recv()
        await idle.close()
        ended = await asyncio.wait_for(bot, 30)
    finally:
        await server.shutdown()
    assert ended["winner"] == ended["seat"] and ended["reason"] == "FORFEIT_DISCONNECTED"
    expected = _expected_end(tmp_path, ended["match"])
    scenario, results = _replay_through_cli(tmp_path, ended["match"])
    kinds = [a["action"] for a in scenario["actions"]]
    assert {"elapse", "timeout", "forfeit", "flick"} <= set(kinds) and kinds[-1] == "forfeit"
    assert all(r["accepted"] for r in results)
    assert _final(scenario, results) == notation.position_to_json(expected)
    assert expected.result is not None and expected.result.reason == "FORFEIT_DISCONNECTED"
