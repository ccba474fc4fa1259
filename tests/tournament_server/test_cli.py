"""The organiser's ``sprtec tournament`` actions against a real server on port 0, and ``export`` from its data."""

from __future__ import annotations

import asyncio
import json
import os
import stat
from pathlib import Path

import pytest

from server.app import Server
from shared.protocol import FileDispute, JoinTournament, TournamentDone, TournamentJoined, WatchTournament
from shared.tournament.model import Match
from sprtec.cli import main
from tests.server.conftest import Start
from tests.server.players import WireClient
from tests.tournament_server.helpers import expect, file_of, update_until


async def _sprtec(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``sprtec ARGV`` in a thread (it runs its own event loop) and capture what it printed."""
    status = await asyncio.to_thread(main, list(argv))
    out, err = capsys.readouterr()
    return status, out, err


async def test_the_organisers_commands_run_a_tournament(server: Server, tmp_path: Path, config_dir: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """create keeps the secret (0600) and prints the entry codes; register, checkin, start-round, card, override,
    resolve and end act with it; status --once prints the standings and tables; a refusal exits 1 with its code."""
    path = tmp_path / "t.json"
    path.write_text(file_of(2, stages=[{"system": "swiss", "rounds": 2}]))
    url = server.url
    status, out, _ = await _sprtec(capsys, "tournament", "create", str(path), "--server", url, "--json")
    assert status == 0
    created = json.loads(out)
    tid = created["tournament"]
    secrets = config_dir / "tournaments.json"
    assert stat.S_IMODE(os.stat(secrets).st_mode) == 0o600
    assert json.loads(secrets.read_text())[url.rstrip("/")][tid]
    status, out, _ = await _sprtec(capsys, "tournament", "register", tid, "--server", url, "--name", "Eva Malá",
                                   "--club", "SK Brno", "--rating", "1700")
    assert status == 0 and out.startswith("eva-mala Eva Malá: entry code ")
    codes = {e["entry"]: e["code"] for e in created["entries"]}
    codes["eva-mala"] = out.split()[-1]
    coaches = {}
    for entry, code in codes.items():
        coaches[entry] = await WireClient.connect(url, f"cli-{entry}")
        await coaches[entry].send(JoinTournament(tid, code))
        await expect(coaches[entry], TournamentJoined)
        assert (await _sprtec(capsys, "tournament", "checkin", tid, entry, "--server", url))[0] == 0
    status, out, _ = await _sprtec(capsys, "tournament", "start-round", tid, "--server", url)
    assert (status, out) == (0, "round 1 started\n")
    status, out, _ = await _sprtec(capsys, "tournament", "status", tid, "--server", url, "--once")
    assert status == 0 and "stage 0 round 1" in out and "Eva Malá" in out and "waiting" in out
    state = server.tournaments.runs[tid].state
    played = [m for m in state.tournament.results[0].matches if isinstance(m, Match)]
    assert (await _sprtec(capsys, "tournament", "override", tid, "0", "1", "1", "--score", "3:1", "--reason",
                          "paper sheet", "--server", url))[0] == 0
    home = played[0].home
    assert (await _sprtec(capsys, "tournament", "card", tid, home, "yellow", "--reason", "stalling", "--server",
                          url))[0] == 0
    await coaches[home].send(FileDispute(tid, 0, 1, 1, "it was 3:2"))
    case = (await expect(coaches[home], TournamentDone)).id
    assert (await _sprtec(capsys, "tournament", "resolve", tid, str(case), "changed", "--score", "3:2", "--reason",
                          "the sheet was wrong", "--server", url))[0] == 0
    status, out, _ = await _sprtec(capsys, "tournament", "status", tid, "--server", url, "--once", "--json")
    shown = json.loads(out)
    assert shown["format"] == "sprtec-standings/1" and len(shown["standings"]) == 3
    status, _, err = await _sprtec(capsys, "tournament", "start-round", tid, "--server", url, "--secret", "wrong")
    assert status == 1 and "NOT_ORGANISER" in err
    assert (await _sprtec(capsys, "tournament", "end", tid, "--reason", "done", "--server", url))[0] == 0
    status, _, err = await _sprtec(capsys, "tournament", "start-round", tid, "--server", url)
    assert status == 1 and "TOURNAMENT_CLOSED" in err
    audit = [(a.act, a.reason) for a in server.tournaments.runs[tid].state.audit]
    assert ("override", "paper sheet") in audit and ("ruling", "the sheet was wrong") in audit
    assert ("yellow card", "stalling") in audit and ("end", "done") in audit


async def test_export_writes_the_file_standings_audit_and_replays(server: Server, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """export reads the data directory: the tournament file (the contract's, so `standings` and `ranking` of it print
    the exported standings.json and ranking.json), standings CSV, the association's sheet, the audit log; an unknown
    id exits 1."""
    path = tmp_path / "t.json"
    path.write_text(file_of(2, stages=[{"system": "swiss", "rounds": 1}]))
    status, out, _ = await _sprtec(capsys, "tournament", "create", str(path), "--server", server.url, "--json")
    tid = json.loads(out)["tournament"]
    out_dir = tmp_path / "out"
    status, out, _ = await _sprtec(capsys, "tournament", "export", tid, "--data", str(server.config.data_dir),
                                   "--out", str(out_dir))
    assert status == 0
    written = {Path(line).name for line in out.splitlines()}
    assert {"tournament.json", "standings.json", "standings.csv", "ranking.json", "association.xlsx", "audit.json",
            "audit.csv"} <= written
    status, standings, _ = await _sprtec(capsys, "tournament", "standings", str(out_dir / "tournament.json"))
    assert standings == (out_dir / "standings.json").read_text()
    status, ranking, _ = await _sprtec(capsys, "tournament", "ranking", str(out_dir / "tournament.json"))
    assert ranking == (out_dir / "ranking.json").read_text()
    header = (out_dir / "standings.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header.startswith("\ufeffrank,shared,player,name,club,category,points")
    assert json.loads((out_dir / "audit.json").read_text())["audit"][0]["act"] == "create"
    status, _, err = await _sprtec(capsys, "tournament", "export", "NOSUCH", "--data", str(server.config.data_dir),
                                   "--out", str(out_dir))
    assert status == 1 and "no tournament" in err


async def test_create_as_a_named_player_on_a_server_that_lets_only_named_players_create(
        start_server: Start, tmp_path: Path, config_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """On a named server reached from another address, create as a guest exits 1 with NOT_ALLOWED and the hint;
    --as NAME creates, keeps that player's token (0600), and the next create is the same player again (no
    NAME_TAKEN)."""
    server = await start_server(exempt=())
    path = tmp_path / "t.json"
    path.write_text(file_of(2))
    status, _, err = await _sprtec(capsys, "tournament", "create", str(path), "--server", server.url)
    assert status == 1 and "NOT_ALLOWED" in err and "--as NAME" in err
    for _ in range(2):
        status, _out, err = await _sprtec(capsys, "tournament", "create", str(path), "--server", server.url, "--as",
                                         "Jana Nováková", "--json")
        assert status == 0, err
    kept = config_dir / "organiser" / "identity.json"
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o600
    assert json.loads(kept.read_text())["servers"][server.url.rstrip("/")]["name"] == "Jana Nováková"
    assert len(server.tournaments.runs) == 2


async def test_mute_silences_an_entrys_coach_and_unmute_lets_him_speak(server: Server, tmp_path: Path,
                                                                       config_dir: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """mute --player ENTRY --reason R silences the entry's coach (the audit log keeps the reason), --unmute lets him
    speak again; an entry the tournament does not have exits 1 with UNKNOWN_PLAYER."""
    path = tmp_path / "t.json"
    path.write_text(file_of(2))
    status, out, _ = await _sprtec(capsys, "tournament", "create", str(path), "--server", server.url, "--json")
    tid = json.loads(out)["tournament"]
    status, out, _ = await _sprtec(capsys, "tournament", "mute", tid, "--player", "p1", "--reason", "insults",
                                   "--server", server.url)
    assert (status, out) == (0, f"p1 muted in the chat of {tid}\n")
    assert server.tournaments.runs[tid].state.chat_muted == {"p1"}
    status, out, _ = await _sprtec(capsys, "tournament", "mute", tid, "--player", "p1", "--unmute", "--server",
                                   server.url)
    assert (status, out) == (0, f"p1 unmuted in the chat of {tid}\n")
    audit = [(a.act, a.detail, a.reason) for a in server.tournaments.runs[tid].state.audit]
    assert ("mute", "p1 in the chat", "insults") in audit and ("unmute", "p1 in the chat", "") in audit
    assert not server.tournaments.runs[tid].state.chat_muted
    status, _, err = await _sprtec(capsys, "tournament", "mute", tid, "--player", "nobody", "--server", server.url)
    assert status == 1 and "UNKNOWN_PLAYER" in err


async def test_unlink_undoes_a_claim_and_prints_the_entrys_fresh_code(server: Server, tmp_path: Path,
                                                                       config_dir: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """unlink --player ENTRY --reason R: the entry's coach is its coach no longer (the audit log keeps the reason)
    and its new code is printed; an entry without a coach exits 1 with NOT_ENTERED."""
    path = tmp_path / "t.json"
    path.write_text(file_of(2))
    status, out, _ = await _sprtec(capsys, "tournament", "create", str(path), "--server", server.url, "--json")
    tid = json.loads(out)["tournament"]
    code = json.loads(out)["entries"][0]["code"]
    coach = await WireClient.connect(server.url, "Wrong Person")
    await coach.send(JoinTournament(tid, code))
    entry = (await expect(coach, TournamentJoined)).entry
    status, out, _ = await _sprtec(capsys, "tournament", "unlink", tid, "--player", entry, "--reason", "wrong code",
                                   "--server", server.url)
    assert status == 0 and out.startswith(f"{entry} Player 1: unlinked; new entry code ")
    new_code = out.split()[-1]
    assert len(new_code) == 8 and new_code != code
    run = server.tournaments.runs[tid]
    assert entry not in run.state.coaches
    assert ("unlink", f"{entry} from Wrong Person", "wrong code") in [(a.act, a.detail, a.reason)
                                                                     for a in run.state.audit]
    status, _, err = await _sprtec(capsys, "tournament", "unlink", tid, "--player", entry, "--server", server.url)
    assert status == 1 and "NOT_ENTERED" in err


async def test_the_organisers_tools_on_the_command_line(server: Server, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """register --born --sex --veteran enters the Czech Cup's fields (a year in the future is refused before asking);
    take-back, swap and withdraw act with the kept secret and refuse in words; after the end the ranking every
    watcher got is exactly `sprtec tournament ranking` of the exported file."""
    path = tmp_path / "t.json"
    path.write_text(file_of(4, stages=[{"system": "swiss", "rounds": 2}], date="2026-05-02",
                            cup={"tier": "expres", "season": 2026}))
    url = server.url
    status, out, _ = await _sprtec(capsys, "tournament", "create", str(path), "--server", url, "--json")
    created = json.loads(out)
    tid = created["tournament"]
    with pytest.raises(SystemExit) as usage:
        await _sprtec(capsys, "tournament", "register", tid, "--server", url, "--name", "Eva Malá", "--born", "2999")
    assert usage.value.code == 2 and "year of birth up to" in capsys.readouterr().err
    status, out, _ = await _sprtec(capsys, "tournament", "register", tid, "--server", url, "--name", "Eva Malá",
                                   "--born", "2011", "--sex", "f", "--veteran")
    assert status == 0
    eva = server.tournaments.runs[tid].state.tournament.player("eva-mala")
    assert (eva.year_of_birth, eva.sex, eva.veteran) == (2011, "f", True)
    codes = {e["entry"]: e["code"] for e in created["entries"]} | {"eva-mala": out.split()[-1]}
    for entry, code in codes.items():
        coach = await WireClient.connect(url, f"tools-{entry}")
        await coach.send(JoinTournament(tid, code))
        await expect(coach, TournamentJoined)
        assert (await _sprtec(capsys, "tournament", "checkin", tid, entry, "--server", url))[0] == 0
    spectator = await WireClient.connect(url, "tools-spectator")
    await spectator.send(WatchTournament(tid))
    assert (await _sprtec(capsys, "tournament", "start-round", tid, "--server", url))[0] == 0
    status, out, _ = await _sprtec(capsys, "tournament", "take-back", tid, "--server", url, "--reason", "too early")
    assert status == 0 and "taken back" in out
    assert server.tournaments.runs[tid].state.tournament.results == ()
    assert (await _sprtec(capsys, "tournament", "start-round", tid, "--server", url))[0] == 0
    played = [m for m in server.tournaments.runs[tid].state.tournament.results[0].matches if isinstance(m, Match)]
    status, out, _ = await _sprtec(capsys, "tournament", "swap", tid, played[0].home, played[1].home, "--server", url,
                                   "--reason", "brothers")
    assert status == 0 and "changed places" in out
    status, _, err = await _sprtec(capsys, "tournament", "swap", tid, played[0].home, "nobody", "--server", url,
                                   "--reason", "x")
    assert status == 1 and "UNKNOWN_PLAYER" in err
    assert (await _sprtec(capsys, "tournament", "withdraw", tid, played[0].away, "--server", url, "--reason",
                          "train home"))[0] == 0
    for table in (1, 2):
        assert (await _sprtec(capsys, "tournament", "override", tid, "0", "1", str(table), "--score", "3:1",
                              "--reason", "paper", "--server", url))[0] == 0
    status, _, err = await _sprtec(capsys, "tournament", "take-back", tid, "--server", url, "--reason", "again")
    assert status == 1 and "ROUND_BEGUN" in err
    assert (await _sprtec(capsys, "tournament", "end", tid, "--reason", "done", "--server", url))[0] == 0
    update = await update_until(spectator, lambda u: u.status == "ended")
    status, out, _ = await _sprtec(capsys, "tournament", "status", tid, "--server", url, "--once")
    assert "Final ranking - Czech Cup expres, 5 ranked" in out and "organiser: end the tournament - done" in out
    assert "override stage 0 round 1 table 1: 3:1" in out
    out_dir = tmp_path / "out"
    assert (await _sprtec(capsys, "tournament", "export", tid, "--data", str(server.config.data_dir), "--out",
                          str(out_dir)))[0] == 0
    status, ranking, _ = await _sprtec(capsys, "tournament", "ranking", str(out_dir / "tournament.json"))
    printed = json.loads(ranking)
    assert printed["complete"] and update.cup_field == printed["cup"]["field"] == 5
    assert [{**{k: v for k, v in vars_of(line).items() if k != "entry"}, "player": line.entry}
            for line in update.ranking] == printed["ranking"]
    audit = json.loads((out_dir / "audit.json").read_text())["audit"]
    assert {"take back round", "swap", "withdraw", "end"} <= {a["act"] for a in audit}
    assert all(a["at"][:2] == "20" and a["at"][10] == "T" and a["at"][-6] in "+-" for a in audit)


def vars_of(line: object) -> dict[str, object]:
    """A record's fields by name (slots dataclasses have no __dict__)."""
    from dataclasses import fields

    return {f.name: getattr(line, f.name) for f in fields(line)}  # type: ignore[arg-type]
