"""The organiser's desk model against a real server: every act goes through its confirmation, is sent as the
protocol request the desk built, and the server's answers and updates come back through ``DeskModel.apply``."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import cast

from pypdf import PdfReader

from client.desk.desk_model import DeskModel, ExportTournament, PrintSheets, WatchTable
from client.desk.desk_window import export_tournament, print_sheets
from server.app import Server
from shared.protocol import (
    ClientMessage,
    CreateTournament,
    EntryLine,
    JoinTournament,
    TournamentJoined,
    TournamentUpdate,
    UnlinkEntry,
)
from tests.server.players import WireClient

WAIT_S = 20.0


def url_of(server: Server) -> str:
    """The in-process server's address."""
    return f"ws://127.0.0.1:{server.port}/"


async def pump(model: DeskModel, wire: WireClient, done: Callable[[], bool]) -> None:
    """Feed the server's messages to the desk (sending what it asks next) until ``done()``."""
    async def loop() -> None:
        """Receive and apply."""
        while not done():
            for follow_up in model.apply(await wire.recv()):
                await wire.send(follow_up)

    await asyncio.wait_for(loop(), WAIT_S)


async def test_the_desk_undoes_a_wrong_claim_and_shows_the_entrys_new_code(server: Server) -> None:
    """Undo a wrong claim (from the entries): only claimed entries are listed; Unlink asks first, naming the entry
    with its club and id; the answer's fresh code is shown to hand out, and the entry is unclaimed again."""
    url = url_of(server)
    wire = await WireClient.connect(url, "desk")
    model = DeskModel(server=url, seed=5)
    await created(model, wire)
    code = await registered(model, wire, "Lucie Bílá", "SK Brno")
    await registered(model, wire, "Eva Malá", "SK Brno")
    await pump(model, wire, lambda: len(model.entries()) == 2)
    taker = await WireClient.connect(url, "Tomáš")
    assert model.tournament is not None
    await taker.send(JoinTournament(model.tournament, code))
    await pump(model, wire, lambda: any(e.claimed for e in model.entries()))
    entry = next(e.entry for e in model.entries() if e.claimed)
    model.activate("screen:entries")
    model.activate("screen:claims")
    assert [item.command for item in model.items() if item.command.startswith("unlink:")] == [f"unlink:{entry}"]
    request = await confirm(model, wire, f"unlink:{entry}")
    assert isinstance(request, UnlinkEntry) and request.entry == entry
    await pump(model, wire, lambda: model.screen == "code")
    assert model.last_code is not None and model.last_code.entry == entry and model.last_code.code != code
    await pump(model, wire, lambda: not any(e.claimed for e in model.entries()))
    await wire.close()
    await taker.close()


def test_a_question_on_an_entry_names_it_with_its_club_and_id() -> None:
    """Two entries of alike names (a player's own and the one prepared for him) are told apart in a withdrawal."""
    model = DeskModel(server="ws://x/", seed=5)
    model.tournament, model.secret = "ABC123", "s"
    lines = (EntryLine(entry="eva-mala", name="Eva Malá", club="SK Brno", category="", rating=None, claimed=True,
                       checked_in=False, out=False),
             EntryLine(entry="eva-mala-2", name="Eva Malá", club="", category="", rating=None, claimed=True,
                       checked_in=False, out=False))
    model.entries = lambda: lines  # type: ignore[method-assign]
    model.activate("withdraw:eva-mala-2")
    assert model.pending is not None and "Eva Malá (eva-mala-2)" in model.pending.question


def test_a_confirmation_lights_the_safe_answer_and_enter_changes_nothing() -> None:
    """Every act asks first with "No, back" lit: Enter by habit goes back and sends nothing; a long question is
    read a sentence a line."""
    model = DeskModel(server="ws://x/", seed=5)
    model.tournament, model.secret = "ABC123", "s"
    model.activate("withdraw:p1")
    focused = model.focused()
    assert model.screen == "confirm" and focused is not None and focused.command == "back"
    assert model.key("enter") is None and model.screen != "confirm" and model.pending is None
    model.activate("unlink:p1")
    lines = [item.label for item in model.items() if item.kind == "text"]
    assert len(lines) >= 3 and lines[0].endswith("?")


def test_closing_the_desk_asks_first_and_nothing_moves_when_an_act_becomes_undoable() -> None:
    """Close the desk asks (No lit, Enter goes back), and only Yes closes it; the home's buttons keep their places
    whether or not an act can be undone (Undo is there, dimmed, when nothing can)."""
    from client.common.menu import QUIT
    from shared.protocol import AutoStartRounds

    model = DeskModel(server="ws://x/", seed=5)
    model.tournament, model.secret, model.screen = "ABC123", "s", "home"
    before = [item.command for item in model.items()]
    assert model.activate("close") is None and model.screen == "confirm"
    assert "server" in model.pending.question if model.pending else False
    assert model.key("enter") is None and model.screen == "home"
    model.activate("close")
    assert model.activate("yes") == QUIT
    model.screen = "home"
    model.undo = ("the automatic start", AutoStartRounds("ABC123", "s", None))
    assert [item.command for item in model.items()] == before
    undo = next(item for item in model.items() if item.command == "undo")
    assert undo.enabled and "automatic start" in undo.label


def checked_in(model: DeskModel, entry: str) -> Callable[[], bool]:
    """True once the updates say ``entry`` is checked in."""
    return lambda: any(e.entry == entry and e.checked_in for e in model.entries())


def scored(score: Callable[[], tuple[int, int] | None], wanted: tuple[int, int]) -> Callable[[], bool]:
    """True once ``score()`` is ``wanted``."""
    return lambda: score() == wanted


def fill(model: DeskModel, field: str, text: str) -> None:
    """Type ``text`` into a field of the current screen, as the organiser would: focus it, then type."""
    commands = [item.command for item in model.items()]
    model.focus = commands.index(f"field:{field}")
    model.form[field] = ""
    model.type_text(text)


async def confirm(model: DeskModel, wire: WireClient, command: str) -> ClientMessage:
    """Give a command, check that it asks first, say yes and send the request."""
    assert model.activate(command) is None
    assert model.screen == "confirm" and model.pending is not None
    request = model.activate("yes")
    assert request is not None and not isinstance(request, (ExportTournament, WatchTable))
    sent = cast(ClientMessage, request)
    await wire.send(sent)
    return sent


async def created(model: DeskModel, wire: WireClient, name: str = "Desk cup") -> None:
    """The create form filled in and confirmed; the desk watches the new tournament."""
    fill(model, "name", name)
    model.activate("cycle:rounds")  # Swiss, 3 rounds
    request = await confirm(model, wire, "create")
    assert isinstance(request, CreateTournament) and request.file is not None
    await pump(model, wire, lambda: model.update is not None)


async def registered(model: DeskModel, wire: WireClient, name: str, club: str) -> str:
    """A player registered at the desk; his entry code."""
    model.activate("screen:register")
    fill(model, "name", name)
    fill(model, "club", club)
    await confirm(model, wire, "register")
    await pump(model, wire, lambda: model.screen == "code" and model.last_code is not None
               and model.last_code.name == name)
    assert model.last_code is not None
    return model.last_code.code


async def test_the_create_form_makes_a_tournament_of_its_choices(server: Server) -> None:
    """Create: the form's name, system, rounds, points and card settings are the server's tournament."""
    wire = await WireClient.connect(url_of(server), "desk")
    model = DeskModel(server=url_of(server), seed=5)
    model.form["yellows"] = 2
    model.form["points"] = (2, 1, 0)
    await created(model, wire)
    file = model.tournament_file()
    assert file["stages"][0] == {"system": "swiss", "points": {"win": 2, "draw": 1, "loss": 0},
                                 "ruleset": "standard", "settings": {}, "rounds": 3}
    assert model.update is not None and model.update.name == "Desk cup" and model.registering()
    assert model.created is not None and model.secret == model.created.secret
    assert model.screen == "home"
    assert model.subtitle() == f"Tournament {model.tournament} — registration"  # no "round 0" before a round
    await wire.close()


async def test_a_desk_registers_checks_in_starts_cards_overrides_and_undoes(server: Server) -> None:
    """Register, check in, start a round, a card, an override and its undo: each confirmed, each in the updates."""
    url = url_of(server)
    wire = await WireClient.connect(url, "desk")
    model = DeskModel(server=url, seed=5)
    await created(model, wire)
    tid = model.tournament
    assert tid is not None
    codes = {name: await registered(model, wire, name, club) for name, club in
             (("Jan Novák", "SK Brno"), ("Petr Svoboda", "Sokol Praha"))}
    assert model.undo is not None  # the last registration can be taken back
    coaches = []
    for number, code in enumerate(codes.values()):
        coach = await WireClient.connect(url, f"coach-{number}")
        await coach.send(JoinTournament(tid, code))
        while not isinstance(await coach.recv(), TournamentJoined):
            pass
        coaches.append(coach)
    await pump(model, wire, lambda: sum(e.claimed for e in model.entries()) == 2)
    for entry in [e.entry for e in model.entries()]:
        model.activate("screen:entries")
        await confirm(model, wire, f"checkin:{entry}")
        await pump(model, wire, checked_in(model, entry))
    assert "cannot be taken back" in (model.pending.undo_note if model.pending else "cannot be taken back")

    await confirm(model, wire, "start")
    await pump(model, wire, lambda: len(model.tables()) == 1)
    assert model.screen == "home" and model.subtitle().startswith(f"Tournament {tid} — round 1, ")
    model.activate("screen:tables")
    tile = next(item for item in model.items() if item.kind == "tile")
    room = model.tables()[0].room
    assert room is not None and model.activate(tile.command) == WatchTable(room)

    model.activate("screen:card")
    fill(model, "reason", "stalling")
    await confirm(model, wire, "card")
    await pump(model, wire, lambda: len(model.update.cards if model.update else ()) == 1)
    assert model.update is not None and model.update.cards[0].reason == "stalling"

    def table_score() -> tuple[int, int] | None:
        """The table's result as the last update gives it."""
        score = model.tables()[0].score
        return None if score is None or model.tables()[0].status != "ended" else (score.home, score.away)

    for goals in (3, 1):
        model.activate("screen:override")
        fill(model, "reason", "the clock stopped")
        model.form["home"] = goals
        await confirm(model, wire, "override")
        await pump(model, wire, scored(table_score, (goals, 0)))
    assert model.undo is not None  # the second override replaced a result: it can be set back
    await confirm(model, wire, "undo")
    await pump(model, wire, lambda: table_score() == (3, 0))
    assert model.update is not None
    audit = [line.act for line in model.update.audit]
    assert audit.count("override") == 3 and "yellow card" in audit
    for connection in (wire, *coaches):
        await connection.close()


async def test_the_export_writes_the_standings_csv_the_file_and_the_replays(server: Server, tmp_path: Path) -> None:
    """Export: confirmed, then written from the server's data as ``sprtec tournament export`` writes it."""
    wire = await WireClient.connect(url_of(server), "desk")
    model = DeskModel(server=url_of(server), seed=5, export_dir=str(tmp_path / "out"))
    await created(model, wire)
    model.activate("screen:export")
    assert model.activate("export") is None and model.screen == "confirm"
    request = model.activate("yes")
    assert isinstance(request, ExportTournament)
    files = export_tournament(tmp_path / "data", request)
    model.exported(tuple(str(f) for f in files))
    names = {f.name for f in files}
    assert any(n.endswith(".csv") for n in names) and any("tournament" in n for n in names), names
    assert model.error == "" and model.screen == "home"
    await wire.close()


async def test_the_desks_print_writes_the_sheets_the_tournament_has_as_one_pdf(server: Server, tmp_path: Path) -> None:
    """Print: confirmed, then the PDF written from the server's data as ``sprtec tournament print --data`` writes it,
    with every sheet the tournament has so far (before round 1: the entry list and the provisional ranking, no
    round's sheet), its players' names readable in it, and the path told."""
    wire = await WireClient.connect(url_of(server), "desk")
    model = DeskModel(server=url_of(server), seed=5, export_dir=str(tmp_path / "out"))
    await created(model, wire)
    await registered(model, wire, "Lucie Bílá", "Most")
    model.activate("screen:export")
    assert model.activate("print") is None and model.screen == "confirm"
    request = model.activate("yes")
    assert isinstance(request, PrintSheets)
    path, sheets = print_sheets(tmp_path / "data", request)
    model.printed(str(path), sheets)
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(path.read_bytes())).pages)
    assert path.name == f"sheets-{request.tournament}.pdf" and 1 <= sheets < 4, sheets
    assert "Lucie Bílá" in text and "Desk cup" in text, text[:500]
    assert model.error == "" and model.screen == "home" and str(path) in model.done
    await wire.close()


async def test_a_refused_act_says_the_servers_code(server: Server) -> None:
    """A refusal (starting a round with nobody checked in) is shown with the server's code, and nothing is kept."""
    wire = await WireClient.connect(url_of(server), "desk")
    model = DeskModel(server=url_of(server), seed=5)
    await created(model, wire)
    await confirm(model, wire, "start")
    await pump(model, wire, lambda: bool(model.error))
    assert model.error.startswith("Refused: the tournament is complete: there is no next round (")
    assert model.sent is None and model.update is not None and not model.tables()
    await wire.close()


def test_every_act_asks_first_and_says_whether_it_can_be_undone() -> None:
    """No act is sent without a confirmation, and each confirmation says whether it can be taken back."""
    model = DeskModel(server="ws://127.0.0.1:1/", tournament="ABCDEF", secret="s")
    model.update = TournamentUpdate(
        tournament="ABCDEF", name="t", sequence=1, version=1, status="between", system="swiss", stage=0, round=1,
        standings_stage=0, after_round=1, complete=False, entries=(), standings=(), tables=(), byes=(), bracket=(),
        cards=(), suspended=(), cases=(), audit=(), next_stage=0, next_round=2)
    for command in ("start", "auto"):
        assert model.activate(command) is None
        assert model.screen == "confirm" and model.pending is not None
        assert "undo" in model.pending.undo_note.lower() or "back" in model.pending.undo_note.lower()
        model.activate("back")
        assert model.screen == "home" and model.pending is None


def test_a_withdrawal_says_when_it_takes_effect() -> None:
    """Before round 1 the player plays no round; later he leaves after the current one."""
    model = DeskModel(server="ws://127.0.0.1:1/", tournament="ABCDEF", secret="s")
    for status, round_no, words in (("registering", 0, "No round has started"), ("between", 1, "after the current")):
        model.update = TournamentUpdate(
            tournament="ABCDEF", name="t", sequence=1, version=1, status=status, system="swiss", stage=0,
            round=round_no, standings_stage=0, after_round=round_no, complete=False, entries=(), standings=(),
            tables=(), byes=(), bracket=(), cards=(), suspended=(), cases=(), audit=())
        assert model.activate("withdraw:p1") is None and model.pending is not None
        assert words in model.pending.question, model.pending.question
        model.activate("back")


def test_a_finished_tournament_offers_no_next_round_and_says_where_its_results_are() -> None:
    """After the last round the desk shows no (disabled) "Start round N": it says the tournament has ended and
    where the final standings and the files are."""
    model = DeskModel(server="ws://127.0.0.1:1/", tournament="ABCDEF", secret="s")
    model.update = TournamentUpdate(
        tournament="ABCDEF", name="t", sequence=9, version=9, status="finished", system="swiss", stage=0, round=5,
        standings_stage=0, after_round=5, complete=True, entries=(), standings=(), tables=(), byes=(), bracket=(),
        cards=(), suspended=(), cases=(), audit=())
    commands = [item.command for item in model.items()]
    assert "start" not in commands and "auto" not in commands
    assert any("ended" in item.label and "Standings" in item.label and "Export" in item.label for item in model.items())
    assert "screen:standings" in commands and "screen:export" in commands


def _round_update(status: str, stage: int, round_no: int, coming: tuple[int, int] | None) -> TournamentUpdate:
    """A Swiss-then-knockout tournament's update at ``stage``/``round_no``; ``coming`` as the server says it."""
    return TournamentUpdate(
        tournament="ABCDEF", name="t", sequence=3, version=3, status=status, system="swiss" if stage == 0 else
        "knockout", stage=stage, round=round_no, standings_stage=stage, after_round=round_no, complete=False,
        entries=(), standings=(), tables=(), byes=(), bracket=(), cards=(), suspended=(), cases=(), audit=(),
        next_stage=None if coming is None else coming[0], next_round=None if coming is None else coming[1])


def test_the_start_button_names_the_round_the_server_pairs_next_and_none_during_the_last() -> None:
    """The desk's start button says the round StartRound pairs, as the update names it: "Start round 2" during round
    1 (disabled while it is played); the next stage's first round by its stage; during the last round no round to
    start, only that it is the last (and no automatic start)."""
    model = DeskModel(server="ws://127.0.0.1:1/", tournament="ABCDEF", secret="s")

    def start() -> tuple[str, bool]:
        item = next(item for item in model.items() if item.command == "start")
        return item.label, item.enabled

    model.update = _round_update("playing", 0, 1, (0, 2))
    assert start() == ("Start round 2", False)
    model.update = _round_update("between", 0, 2, (1, 1))
    assert start() == ("Start stage 2, round 1", True)
    assert model.activate("start") is None and model.pending is not None
    assert model.pending.question.startswith("Start stage 2, round 1?")
    model.activate("back")
    model.update = _round_update("playing", 1, 2, None)
    assert start() == ("Round 2 is the last", False)
    assert not next(item for item in model.items() if item.command == "auto").enabled
    assert model.activate("start") is None and model.pending is None


async def test_the_desk_mutes_a_coach_in_the_chat_after_asking_and_undoes_it(server: Server) -> None:
    """Mute on an entry's line of the chat screen (reached from the entries) asks first, saying he can be unmuted;
    the update marks the entry muted and its button becomes Unmute; Undo unmutes him; both are in the audit log."""
    url = url_of(server)
    wire = await WireClient.connect(url, "desk")
    model = DeskModel(server=url, seed=5)
    await created(model, wire)
    await registered(model, wire, "Jan Novák", "SK Brno")
    await pump(model, wire, lambda: bool(model.entries()))
    entry = model.entries()[0].entry
    model.activate("screen:entries")
    assert "screen:chat" in [item.command for item in model.items()]
    model.activate("screen:chat")
    assert f"mute:{entry}" in [item.command for item in model.items()]
    assert model.activate(f"mute:{entry}") is None and model.pending is not None
    assert "Jan Novák" in model.pending.question and "unmuted" in model.pending.undo_note
    model.activate("back")
    assert model.screen == "chat"
    await confirm(model, wire, f"mute:{entry}")
    await pump(model, wire, lambda: any(e.chat_muted for e in model.entries()))
    model.activate("screen:chat")
    assert f"unmute:{entry}" in [item.command for item in model.items()]
    assert model.undo is not None
    await confirm(model, wire, "undo")
    await pump(model, wire, lambda: not any(e.chat_muted for e in model.entries()))
    assert model.update is not None
    acts = [line.act for line in model.update.audit]
    assert acts.count("mute") == 1 and acts.count("unmute") == 1
    await wire.close()


async def test_the_desk_takes_a_round_back_and_swaps_two_players_before_its_matches_begin(server: Server) -> None:
    """A Czech Cup tournament opened from its file: each name carries its category on the entries screen; a round
    started is taken back at the Round screen (its tables gone, paired again at the next start), then two players
    of the new round are swapped - each act confirmed, each in the audit."""
    import json

    url = url_of(server)
    wire = await WireClient.connect(url, "cup-desk")
    model = DeskModel(server=url, seed=5)
    players = [{"id": f"p{i}", "name": name, "year_of_birth": born, "sex": sex}
               for i, (name, born, sex) in enumerate((("Jan Novák", 1990, "m"), ("Eva Malá", 2011, "f"),
                                                      ("Petr Mladý", 2009, "m"), ("Ota Starý", 1950, "m")), start=1)]
    file = {"name": "ČP Brno", "cup": {"tier": "expres", "season": 2026}, "players": players,
            "stages": [{"system": "swiss", "rounds": 3}]}
    await wire.send(model.file_request(json.dumps(file, ensure_ascii=False)))
    await pump(model, wire, lambda: model.update is not None)
    tid = model.tournament
    assert tid is not None
    model.activate("screen:entries")
    names = [item.cells[0] for item in model.items() if item.cells]
    assert names[:2] == ["Jan Novák · M", "Eva Malá · L"]
    for entry, code in list(model.codes.items()):
        coach = await WireClient.connect(url, f"cup-coach-{entry}")
        await coach.send(JoinTournament(tid, code))
        while not isinstance(await coach.recv(), TournamentJoined):
            pass
        model.activate("screen:entries")
        await confirm(model, wire, f"checkin:{entry}")
        await pump(model, wire, checked_in(model, entry))
    await confirm(model, wire, "start")
    await pump(model, wire, lambda: len(model.tables()) == 2)
    model.activate("screen:round")
    fill(model, "reason", "started before the draw was announced")
    await confirm(model, wire, "take-back")
    await pump(model, wire, lambda: model.update is not None and model.update.round == 0)
    assert model.tables() == ()
    await confirm(model, wire, "start")
    await pump(model, wire, lambda: len(model.tables()) == 2 and all(t.room for t in model.tables()))
    before = [(t.home, t.away) for t in model.tables()]
    model.activate("screen:round")
    fill(model, "reason", "brothers")
    model.activate("cycle:second")  # first: table 1's home, second: table 2's home
    await confirm(model, wire, "swap")
    await pump(model, wire, lambda: [t.home for t in model.tables()] == [before[1][0], before[0][0]])
    assert model.update is not None
    acts = [(a.act, a.reason) for a in model.update.audit]
    assert ("take back round", "started before the draw was announced") in acts and ("swap", "brothers") in acts


def test_a_screen_opens_with_its_first_safe_item_lit() -> None:
    """The Entries screen opened from the home's second button lit its first row's Withdraw (the home's focus index
    carried over, check-in being dimmed for a player checked in): a screen opens on its first item that takes the
    focus and is not a withdrawal - the first Check in while one is due."""
    model = DeskModel(server="ws://x/", seed=5)
    from tests.client.test_tournament_player import _update

    model.tournament, model.secret, model.screen = "ABC123", "s", "home"
    model.update = _update(status="registering", round=0)
    here = EntryLine(entry="p1", name="Eva Malá", club="", category="", rating=None, claimed=True, checked_in=True,
                     out=False)
    model.entries = lambda: (here, replace(here, entry="p2", name="Jana", checked_in=False))  # type: ignore
    model.focus = [item.command for item in model.items()].index("screen:entries")
    model.activate("screen:entries")
    focused = model.focused()
    assert focused is not None and focused.command == "checkin:p2", focused
    model.entries = lambda: (here,)  # type: ignore[method-assign]
    model.activate("back")
    model.activate("screen:entries")
    focused = model.focused()
    assert focused is not None and not focused.command.startswith("withdraw:"), focused
