"""A round on physical boards over real websockets on port 0: the coaches told "board N, on the board", results
entered by the organiser's ``sprtec tournament result`` and by two coaches confirming each other, a disagreement a
dispute the organiser decides, referees named for every board, and the refusals in words."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from server.app import Server
from server.tournaments.export import export
from shared.protocol import EnterResult, Score, TableAssigned, TournamentDone, TournamentUpdate
from shared.tournament.model import Match
from sprtec.cli import main
from tests.tournament_server.helpers import expect, refused, tournament, update_until, watcher

CLUBS = ["SK Brno", "SK Brno", "BHC Most", "BHC Most", "Kladno", "Kladno", "Praha", "Praha"]


async def _sprtec(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``sprtec ARGV`` in a thread (it runs its own event loop) and capture what it printed."""
    status = await asyncio.to_thread(main, list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _file(players: int) -> str:
    """A Swiss of ``players`` entries of two per club."""
    entries = [{"id": f"p{i}", "name": f"Hráč {i}", "club": CLUBS[(i - 1) % len(CLUBS)]}
               for i in range(1, players + 1)]
    return json.dumps({"name": "Český pohár", "seed": 4, "players": entries,
                       "stages": [{"system": "swiss", "rounds": 3}]})


async def test_a_round_on_boards_is_entered_by_the_organiser_and_by_two_coaches(
        server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Eight entries on boards: start-round opens no room; board 1 by the CLI (a second, different score and an
    unknown board refused); board 2 by both coaches; board 3's coaches disagree and the organiser rules; board 4 by
    the CLI; the watchers see the referees and the refereed counts; the export writes them."""
    url = server.url
    setup = await tournament(url, _file(8), on_boards=True)
    tid = setup.tid
    organiser = ("--server", url, "--secret", setup.secret)
    status, out, _ = await _sprtec(capsys, "tournament", "start-round", tid, *organiser)
    assert (status, out) == (0, "round 1 started\n")
    told = {entry: await expect(coach, TableAssigned) for entry, coach in setup.coaches.items()}
    assert all(a.on_board and a.room is None and a.no_show_ms is None and a.referee for a in told.values())
    run = server.tournaments.runs[tid]
    assert run.state.tables == {} and run.core.next_wake() is None
    matches = [m for m in run.state.tournament.results[0].matches if isinstance(m, Match)]

    status, out, _ = await _sprtec(capsys, "tournament", "result", tid, "--table", "1", "--score", "3:1", *organiser)
    assert (status, out) == (0, "board 1: 3:1\n")
    status, _, err = await _sprtec(capsys, "tournament", "result", tid, "--table", "1", "--score", "2:2", *organiser)
    assert status == 1 and "RESULT_ENTERED" in err and "3:1" in err
    status, _, err = await _sprtec(capsys, "tournament", "result", tid, "--table", "9", "--score", "1:0", *organiser)
    assert status == 1 and "BAD_RESULT" in err and "no table 9" in err

    home, away = setup.coaches[matches[1].home], setup.coaches[matches[1].away]
    await home.send(EnterResult(tournament=tid, table=2, score=Score(2, 0)))
    await expect(home, TournamentDone)
    assert not run.state.tournament.results[0].matches[1].finished
    assert await refused(home, EnterResult(tournament=tid, table=2, score=Score(0, 2))) == "RESULT_ENTERED"
    await away.send(EnterResult(tournament=tid, table=2, score=Score(2, 0)))
    await expect(away, TournamentDone)
    assert run.state.sources[(0, 1, 2)] == "board"

    home, away = setup.coaches[matches[2].home], setup.coaches[matches[2].away]
    await home.send(EnterResult(tournament=tid, table=3, score=Score(1, 1)))
    await expect(home, TournamentDone)
    await away.send(EnterResult(tournament=tid, table=3, score=Score(1, 2)))
    await expect(away, TournamentDone)
    (case,) = run.state.cases
    assert case.kind == "dispute" and "1:1" in case.reason and "1:2" in case.reason
    status, _, err = await _sprtec(capsys, "tournament", "resolve", tid, str(case.id), "stands", "--reason", "?",
                                   *organiser)
    assert status == 1 and "BAD_RESULT" in err
    assert (await _sprtec(capsys, "tournament", "resolve", tid, str(case.id), "changed", "--score", "1:2",
                          "--reason", "the referee's sheet", *organiser))[0] == 0
    status, _, err = await _sprtec(capsys, "tournament", "result", tid, "--table", "4", "--walkover", "away",
                                   *organiser)
    assert status == 0
    spectator, shown = await watcher(url, tid)
    assert shown.status == "between"
    assert [t.status for t in shown.tables] == ["ended", "ended", "ended", "walkover"]
    assert all(t.on_board and t.referee for t in shown.tables)
    referees = {t.referee for t in shown.tables}
    assert {s.entry for s in shown.standings if s.refereed == 1} == referees
    assert all(s.refereed is not None and not s.refereed_short for s in shown.standings)

    status, out, _ = await _sprtec(capsys, "tournament", "status", tid, "--server", url, "--once")
    assert status == 0 and out.count("on the board") == 4 and "referee " in out and "  ref" in out
    assert (await _sprtec(capsys, "tournament", "boards", tid, "--stage", "0", "--online", *organiser))[0] == 0
    assert (await _sprtec(capsys, "tournament", "start-round", tid, *organiser))[0] == 0
    await update_until(spectator, lambda u: u.round == 2 and all(t.room for t in u.tables))
    status, _, err = await _sprtec(capsys, "tournament", "result", tid, "--table", "1", "--score", "1:0", *organiser)
    assert status == 1 and "NOT_ON_BOARD" in err
    exported = export(server.config.data_dir, tid, tmp_path / "out")
    names = {p.name for p in exported.files}
    assert "referees.json" in names
    written = json.loads((tmp_path / "out" / "referees.json").read_text())
    assert written["format"] == "sprtec-referees/1" and len(written["boards"]) == 4
    assert (tmp_path / "out" / "standings.csv").read_text(encoding="utf-8-sig").splitlines()[1].endswith(
        ("0", "1"))
    await spectator.close()


async def test_a_coach_of_another_match_cannot_enter_a_boards_result(server: Server) -> None:
    """NOT_ENTERED for a coach whose match it is not; a spectator neither."""
    setup = await tournament(server.url, _file(4), on_boards=True)
    organiser = setup.organiser
    from shared.protocol import StartRound
    await organiser.send(StartRound(setup.tid, setup.secret))
    await expect(organiser, TournamentDone)
    run = server.tournaments.runs[setup.tid]
    m = [m for m in run.state.tournament.results[0].matches if isinstance(m, Match)][1]
    other = setup.coaches[m.home]
    assert await refused(other, EnterResult(tournament=setup.tid, table=1, score=Score(1, 0))) == "NOT_ENTERED"
    spectator, update = await watcher(server.url, setup.tid, "a-spectator")
    assert isinstance(update, TournamentUpdate)
    assert await refused(spectator, EnterResult(tournament=setup.tid, table=1, score=Score(1, 0))) == "NOT_ENTERED"
