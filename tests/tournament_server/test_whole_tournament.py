"""A whole tournament played by bots over websockets against a real server: an 8-player Swiss of 3 rounds, then a
4-player knockout with a match for third place; a spectator receives every update; the exported standings are
``sprtec tournament standings`` of the exported file."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from client.player.practice import ServerProcess
from server.tournaments.export import export
from shared.protocol import StartRound, TournamentDone, TournamentUpdate, WatchTournament
from sprtec.commands.tournament import standings_answer
from sprtec.commands.tournament_actions import create, standings_of
from sprtec.commands.tournament_client import Connection
from sprtec.commands.tournament_coach import CoachOptions, coach

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "tournament-swiss-ko.json"
# Matches of one 2-second period, a 1-second overtime and a shoot-out of one pair, then sudden death.
QUICK = {"periods": 1, "period_ms": 2000, "break_ms": 0, "overtime_ms": [1000], "shootout_series": 1,
         "move_clock_ms": 3000}
QUICK_ARGS = [arg for name, value in QUICK.items()
              for arg in ("--setting", f"{name}={','.join(map(str, value)) if isinstance(value, list) else value}")]


def _quick(file: dict) -> dict:
    """The file with every stage's matches short."""
    for stage in file["stages"]:
        stage["settings"] = {**stage.get("settings", {}), **QUICK}
    return file


async def _collect(spectator: Connection, updates: list[TournamentUpdate]) -> None:
    """Every update until the tournament is finished."""
    while not updates or updates[-1].status != "finished":
        message = await spectator.receive(timeout=None)
        if isinstance(message, TournamentUpdate):
            updates.append(message)


@pytest.mark.slow(seconds=40)
async def test_a_swiss_then_a_knockout_played_by_bots_to_the_exported_standings(tmp_path: Path) -> None:
    """Eight bots coach the example's entries through 3 Swiss rounds and the knockout of the best 4 (semi-finals,
    final, match for third place); the spectator's updates come numbered without a gap and show every round, the
    tables' rooms and the bracket; the final standings are those of the exported file, as the CLI computes them."""
    data = tmp_path / "data"
    server = ServerProcess(data, workers=0, log=tmp_path / "server.log", log_level="WARNING")
    server.start()
    coaches: list[asyncio.Task[object]] = []
    try:
        url = await asyncio.to_thread(server.wait, 60)
        assert url is not None, server.error
        organiser = await Connection.open(url, "organiser")
        created, codes = await create(organiser, _quick(json.loads(EXAMPLE.read_text())), no_show_ms=60_000,
                                      next_round_after_ms=300)
        tid = created.tournament
        spectator = await Connection.open(url, "spectator")
        updates = [await spectator.ask(WatchTournament(tid), TournamentUpdate)]
        assert updates[0].sequence == 0 and updates[0].status == "registering"
        following = asyncio.create_task(_collect(spectator, updates))
        coaches = [asyncio.create_task(coach(url, tid, CoachOptions(name=f"bot-{c.entry}", code=c.code, level=None)))
                   for c in codes]  # random legal flicks: the tournament is under test, not the bots' search
        ready = await organiser.ask(WatchTournament(tid), TournamentUpdate)
        while not all(e.checked_in for e in ready.entries):
            message = await organiser.receive()
            ready = message if isinstance(message, TournamentUpdate) else ready
        await organiser.ask(StartRound(tid, created.secret), TournamentDone)
        await asyncio.wait_for(following, 240)
        reports = await asyncio.wait_for(asyncio.gather(*coaches), 60)
    finally:
        for task in coaches:
            task.cancel()
        await asyncio.to_thread(server.stop, 30)
    sequences = [u.sequence for u in updates]
    assert sequences == list(range(len(updates)))
    rounds = {(u.stage, u.round) for u in updates if u.status == "playing"}
    assert rounds == {(0, 1), (0, 2), (0, 3), (1, 1), (1, 2)}
    assert any(t.status == "playing" and t.room and t.part for u in updates for t in u.tables)
    final = updates[-1]
    assert final.complete and final.standings_stage == 1 and len(final.standings) == 4
    assert sorted(line.kind for line in final.bracket) == ["final", "match", "match", "third_place"]
    assert all(line.winner is not None for line in final.bracket)
    played = [match for report in reports for match in report.matches]  # type: ignore[attr-defined]
    assert len(played) == 2 * 16 and len(set(played)) == 4 * 3 + 2 + 2  # each match seen by both its coaches
    out = tmp_path / "export"
    exported = export(data, tid, out)
    standings = (out / "standings.json").read_text(encoding="utf-8")
    assert standings_answer((out / "tournament.json").read_bytes()) == (0, standings)
    assert json.loads(standings) == standings_of(final)
    assert len(list((out / "matches").glob("*.json"))) == 16
    assert out / "audit.csv" in exported.files


@pytest.mark.slow(seconds=15)
def test_sprtec_tournament_run_plays_a_whole_tournament_of_bots(tmp_path: Path) -> None:
    """`sprtec tournament run FILE --bots` on a 4-player Swiss and final: exit 0, the final ranking on standard
    output (complete, the final's two and then the two who did not go on: everybody), the export beside the data."""
    file = {"name": "run", "seed": 3, "players": [{"id": f"p{i}", "name": f"Player {i}"} for i in range(1, 5)],
            "stages": [{"system": "swiss", "rounds": 1, "advance": 2}, {"system": "knockout", "ruleset": "ko"}]}
    path = tmp_path / "small.json"
    path.write_text(json.dumps(file))
    command = [sys.executable, "-m", "sprtec", "tournament", "run", str(path), "--bots", "--level", "random", "--data",
               str(tmp_path / "data"), "--out", str(tmp_path / "out"), "--timeout", "200", *QUICK_ARGS]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    ranking = json.loads(done.stdout)
    assert ranking["format"] == "sprtec-ranking/1" and ranking["complete"]
    assert [r["stage"] for r in ranking["ranking"]] == [1, 1, 0, 0]
    assert sorted(r["player"] for r in ranking["ranking"]) == ["p1", "p2", "p3", "p4"]
    assert (tmp_path / "out" / "ranking.json").read_text() == done.stdout
    assert "sprtec tournament status" in done.stderr
