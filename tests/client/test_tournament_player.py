"""The player's side of a tournament without a screen: the Tournaments page (list, enter as himself or with a code,
the refusals in words), and his session (the table given, read for a few seconds, then the way there; a decided
table forgotten; check-in once)."""

from __future__ import annotations

from dataclasses import replace

from client.common.menu import Close
from client.player.tournament_list import OpenHall, TournamentsPage, info_cells
from client.player.tournament_session import TAKE_TO_TABLE_S, TournamentSession
from shared.protocol import (
    CheckIn,
    EntryLine,
    Error,
    JoinRoom,
    JoinTournament,
    Leave,
    ListTournaments,
    TableAssigned,
    TableLine,
    TournamentDone,
    TournamentInfo,
    TournamentJoined,
    TournamentList,
    TournamentUpdate,
    WatchTournament,
)

INFO = TournamentInfo(tournament="ABC123", name="Brno Open", status="registering", stage=0, round=0, entries=12,
                      playing=0)
TABLE = TableAssigned(tournament="ABC123", stage=0, round=3, table=7, room="ROOM77", ruleset="standard",
                      seat="home", opponent="Novák", no_show_ms=300_000)


def _page_with_list() -> TournamentsPage:
    """The page once the server listed its tournaments."""
    page = TournamentsPage()
    assert isinstance(page.first_request(), ListTournaments)
    assert page.apply(TournamentList((INFO,)))
    return page


def test_the_list_names_each_tournament_with_its_state_and_entrants() -> None:
    """A tournament of the list: name, state, entrants (tables being played once a round runs)."""
    assert info_cells(INFO) == ("Brno Open", "registering", "12 entrants")
    running = replace(INFO, status="playing", round=2, playing=3)
    assert info_cells(running)[1:] == ("Round 2 — round being played", "12 entrants  ·  3 tables playing")


def test_entering_as_himself_asks_without_a_code() -> None:
    """Choose the tournament, Enter as myself: his year of birth and sex asked (both may stay empty), then
    JoinTournament without a code carrying them; a second click sends nothing; a year in the future is refused."""
    page = _page_with_list()
    assert page.activate("choose:ABC123") is None and page.chosen == INFO
    assert page.activate("join") is None and [i.command for i in page.items()][:3] == ["born", "cycle:sex",
                                                                                       "join_me"]
    assert page.activate("join_me") == JoinTournament("ABC123", None)
    assert page.activate("join_me") is None
    page = _page_with_list()
    page.activate("choose:ABC123")
    page.activate("join")
    page.type_text("2999")
    assert page.activate("join_me") is None and "future" in page.error
    page.backspace()
    page.backspace()
    page.backspace()
    page.type_text("011")
    page.activate("cycle:sex")
    page.activate("cycle:sex")
    assert page.activate("join_me") == JoinTournament("ABC123", None, year_of_birth=2011, sex="f")


def test_entering_with_the_organisers_code() -> None:
    """The typed code (letters and digits, upper case) goes with JoinTournament; without one nothing is sent."""
    page = _page_with_list()
    page.activate("choose:ABC123")
    assert page.activate("join_code") is None
    page.type_text("k7-q2 x")
    assert page.code == "K7Q2X"
    assert page.activate("join_code") == JoinTournament("ABC123", "K7Q2X")


def test_a_refused_code_is_explained_and_the_page_acts_again() -> None:
    """BAD_ENTRY_CODE says to check the code with the organiser; the buttons work again."""
    page = _page_with_list()
    page.activate("choose:ABC123")
    page.type_text("WRONG")
    page.activate("join_code")
    assert page.apply(Error("BAD_ENTRY_CODE", "no", "JoinTournament"))
    assert "organiser" in page.error and not page.pending
    assert page.activate("join_code") == JoinTournament("ABC123", "WRONG")


def test_watching_in_the_hall_and_going_back() -> None:
    """Watch in the hall opens the hall of that tournament; Back goes to the list, then closes the page."""
    page = _page_with_list()
    page.activate("choose:ABC123")
    assert page.activate("hall:ABC123") == OpenHall("ABC123")
    assert page.activate("back") == ListTournaments() and page.chosen is None
    assert page.activate("back") == Close()


def _update(**fields: object) -> TournamentUpdate:
    """A tournament update of ABC123 in round 3 (the player is entry p1, checked in or not)."""
    entry = EntryLine(entry="p1", name="Jana", club="", category="", rating=None, claimed=True,
                      checked_in=bool(fields.pop("checked_in", True)), out=False)
    update = TournamentUpdate(tournament="ABC123", name="Brno Open", sequence=1, version=1, status="playing",
                              system="swiss", stage=0, round=3, standings_stage=0, after_round=2, complete=False,
                              entries=(entry,), standings=(), tables=(), byes=(), bracket=(), cards=(), suspended=(),
                              cases=(), audit=())
    return replace(update, **fields)  # type: ignore[arg-type]


def test_a_table_is_shown_then_the_player_is_taken_there() -> None:
    """TableAssigned: the screen says where and against whom; TAKE_TO_TABLE_S later the session joins the room."""
    session = TournamentSession("ABC123", "p1", "Jana")
    assert session.first_requests() == [WatchTournament("ABC123")]
    assert session.apply(TABLE, 100.0)
    assert session.phase(100.0) == "assigned"
    assert session.assignment_text() == "Round 3 — table 7: you play Novák (home, red)"
    assert session.walkover_text(160.0) == "Be at your table within 4:00 or lose by walkover"
    assert session.due(100.0 + TAKE_TO_TABLE_S - 0.1, None) == []
    assert session.due(100.0 + TAKE_TO_TABLE_S, None) == [JoinRoom("ROOM77")]
    assert session.due(100.0 + TAKE_TO_TABLE_S + 1, None) == []  # once


def test_the_session_keeps_every_room_that_was_his_table() -> None:
    """Each table given is remembered after its round is over, so its results are known for a tournament's."""
    session = TournamentSession("ABC123", "p1", "Jana")
    session.apply(TABLE, 0.0)
    line = TableLine(table=7, home="p1", away="p2", home_name="Jana", away_name="Novák", kind="match",
                     ruleset="standard", status="ended", room="ROOM77")
    session.apply(_update(tables=(line,)), 1.0)
    assert session.assignment is None and session.table_rooms == {"ROOM77"}
    session.apply(replace(TABLE, round=4, table=2, room="ROOM42"), 2.0)
    assert session.table_rooms == {"ROOM77", "ROOM42"}


def test_a_player_watching_elsewhere_leaves_that_room_first() -> None:
    """Going to the table from another room: Leave, then JoinRoom; already in the table's room: nothing."""
    session = TournamentSession("ABC123", "p1")
    session.apply(TABLE, 0.0)
    assert session.go_to_table("OTHER1") == [Leave(), JoinRoom("ROOM77")]
    other = TournamentSession("ABC123", "p1")
    other.apply(TABLE, 0.0)
    assert other.due(TAKE_TO_TABLE_S + 1, "ROOM77") == [] and other.taken


def test_a_table_decided_before_he_sat_down_is_forgotten() -> None:
    """The organiser set the table's result: no assignment any more, the waiting screen instead."""
    session = TournamentSession("ABC123", "p1")
    session.apply(TABLE, 0.0)
    line = TableLine(table=7, home="p1", away="p2", home_name="Jana", away_name="Novák", kind="match",
                     ruleset="standard", status="ended", room=None)
    session.apply(_update(tables=(line,)), 1.0)
    assert session.assignment is None and session.phase(1.0) == "waiting"
    assert session.due(TAKE_TO_TABLE_S + 1, None) == []


def test_check_in_is_asked_once_and_known_from_the_update() -> None:
    """Check in sends CheckIn once; the update saying he is checked in ends it; the server's answer too."""
    session = TournamentSession("ABC123", "p1")
    session.apply(_update(checked_in=False), 0.0)
    assert session.check_in() == CheckIn("ABC123") and session.check_in() is None
    session.apply(TournamentDone("ABC123", "CheckIn"), 0.0)
    session.apply(_update(checked_in=True), 0.0)
    assert session.checked_in() and session.check_in() is None


def _his_line(**fields: object) -> TournamentUpdate:
    """An update whose entry p1 (his) is changed by ``fields``."""
    update = _update(checked_in=False)
    return replace(update, entries=(replace(update.entries[0], **fields),))  # type: ignore[arg-type]


def test_an_entry_out_of_the_tournament_offers_no_check_in_and_says_why() -> None:
    """His entry withdrawn: no check-in (it could only be refused), and the state line says it is out."""
    session = TournamentSession("ABC123", "p1")
    session.apply(_his_line(out=True), 0.0)
    assert not session.may_check_in() and session.check_in() is None
    assert "out of the tournament" in session.state_line(0.0)


def test_an_entry_unlinked_by_the_organiser_says_so_and_how_to_enter_again() -> None:
    """The organiser undid his claim: the entry is no longer his, no check-in, and he is told to enter with his
    code."""
    session = TournamentSession("ABC123", "p1")
    session.apply(_his_line(claimed=False), 0.0)
    assert not session.may_check_in() and "unlinked" in session.state_line(0.0)


def test_every_refusal_is_shown_in_words_of_his_language() -> None:
    """A refused check-in says what it means (not the server's English), in Czech too; an unknown code still says
    the server's words."""
    from client.common import i18n

    session = TournamentSession("ABC123", "p1")
    session.apply(_update(checked_in=False), 0.0)
    session.check_in()
    session.apply(Error("NOT_ENTERED", "you coach no entry p1 at all in ABC123", "CheckIn"), 0.0)
    assert not session.checking_in and "organiser" in session.error and "ABC123" not in session.error
    try:
        i18n.set_language("cs")
        session.apply(Error("NOT_ENTERED", "x", "CheckIn"), 0.0)
        assert "pořadatel" in session.error
    finally:
        i18n.set_language("en")
    session.apply(Error("SOMETHING_NEW", "the server's words", "CheckIn"), 0.0)
    assert "the server's words" in session.error


def test_the_player_with_the_bye_is_told_he_has_it() -> None:
    """His entry in the round's byes: the state line says he has a bye (a win's points), not to check in."""
    session = TournamentSession("ABC123", "p1")
    session.apply(_update(byes=("p1",)), 0.0)
    assert "bye in round 3" in session.state_line(0.0)
    session.apply(_update(byes=("p2",), sequence=2), 1.0)
    assert "bye" not in session.state_line(1.0)


def test_a_card_and_an_overridden_result_are_told_to_the_player_concerned() -> None:
    """A card for his entry and the override of his match's result become news on his screen (and for his table's
    log); another entry's card, and what was known before he came, do not."""
    from shared.protocol import AuditLine, CardLine

    session = TournamentSession("ABC123", "p1")
    old = CardLine(stage=0, round=1, entry="p1", card="yellow", reason="before he came")
    session.apply(_update(cards=(old,)), 0.0)
    session.apply(TABLE, 0.0)
    assert session.news == []
    mine = CardLine(stage=0, round=3, entry="p1", card="red", reason="insults")
    other = CardLine(stage=0, round=3, entry="p2", card="yellow", reason="late")
    override = AuditLine(at_ms=5, who="organiser", act="override", detail="stage 0 round 3 table 7: 1:2 → 2:2",
                         reason="goal not counted")
    session.apply(_update(cards=(old, mine, other), audit=(override,), sequence=2), 1.0)
    assert session.news[1] == "The organiser gave you a red card (round 3): insults"
    assert session.news[0] == "The organiser set the result of your match of round 3: 1:2 → 2:2 — goal not counted"
    assert len(session.fresh) == 2
    session.apply(_update(cards=(old, mine, other), audit=(override,), sequence=3), 2.0)
    assert len(session.news) == 2  # heard once


def test_entered_before_he_is_found_by_his_name() -> None:
    """A player entered on an earlier run: his entry is the update's entry of his name."""
    session = TournamentSession("ABC123", None, "Jana")
    session.apply(_update(), 0.0)
    assert session.entry == "p1"


def test_the_end_shows_the_final_standings() -> None:
    """A finished tournament is the final phase; another tournament's news is not this session's."""
    session = TournamentSession("ABC123", "p1")
    session.apply(_update(status="finished", complete=True), 0.0)
    assert session.phase(0.0) == "final" and session.finished()
    assert not session.apply(TournamentJoined("OTHER9", "p3", "Jana"), 0.0)


def test_the_next_round_is_counted_down_when_it_starts_by_itself() -> None:
    """Between rounds with next_round_ms, the state line counts down from the update's arrival; without, nothing."""
    session = TournamentSession("ABC123", "p1")
    session.apply(_update(status="between", next_round_ms=60_000), 10.0)
    assert "next round in 0:45" in session.state_line(25.0)
    session.apply(_update(status="between"), 30.0)
    assert "next round" not in session.state_line(31.0)


def test_a_table_that_comes_before_the_rounds_update_names_its_round() -> None:
    """TableAssigned arrives before the update of the round it opens: the state line speaks of that round."""
    session = TournamentSession("ABC123", "p1")
    session.apply(_update(status="between", round=2, after_round=2), 0.0)
    session.apply(TABLE, 0.0)
    assert session.state_line(0.0).startswith("Round 3 — round being played")


def test_a_waiting_tables_no_show_time_counts_down_on_the_players_screen() -> None:
    """A table waiting for its coaches shows its no-show time counted down from the update, not frozen at it."""
    line = TableLine(table=1, home="p1", away="p2", home_name="Jana", away_name="Eva", kind="match",
                     ruleset="standard", status="waiting", room="R1", no_show_ms=300_000)
    session = TournamentSession("ABC123", "p1")
    session.apply(_update(tables=(line,)), 10.0)
    assert session.tiles(10.0)[0].time_left == "5:00"
    assert session.tiles(70.0)[0].time_left == "4:00"


def test_a_closed_server_is_said_on_the_tournament_screen_until_it_answers_again() -> None:
    """The organiser closes the desk (close 1001): the player's tournament screen says the server was closed, a lost
    connection says it is reconnecting, and both are gone once connected again - not a standings screen that looks
    alive."""
    from client.match.net import ConnectionEvent

    session = TournamentSession("ABC123", "p1")
    session.apply(_update(), 0.0)
    assert session.notice() == ""
    session.apply(ConnectionEvent("stopped", "1001"), 1.0)
    assert session.notice() == "The server was closed (the organiser stopped it) — connecting again when it runs"
    session.error = "You are entered in this tournament already"
    assert session.notice().startswith("The server was closed")  # the connection first: nothing else can happen
    session.apply(ConnectionEvent("failed", "[Errno 111] Connection refused"), 1.5)
    assert session.notice().startswith("The server was closed")  # its next attempts keep saying why
    session.apply(ConnectionEvent("down", "reset"), 2.0)
    assert session.notice() == "Connection lost — reconnecting…"
    session.apply(ConnectionEvent("up"), 3.0)
    assert session.notice() == "You are entered in this tournament already"


def test_an_overridden_walkover_is_told_with_the_names_not_the_sides() -> None:
    """The organiser turns a no-show's walkover into a score: the player reads who had the walkover by name (the
    audit's "walkover to home" said it in role words, and in English whatever his language)."""
    from shared.protocol import AuditLine

    table = TableLine(table=1, home="p1", away="p2", home_name="Jana", away_name="Eva Malá", kind="match",
                      ruleset="quick", status="walkover", walkover="home")
    session = TournamentSession("ABC123", "p1")
    session.apply(_update(round=1, tables=(table,)), 0.0)
    override = AuditLine(at_ms=5, who="organiser", act="override", detail="stage 0 round 1 table 1: walkover to "
                         "home → 0:0", reason="late, excused")
    shootout = AuditLine(at_ms=6, who="organiser", act="override", detail="stage 0 round 1 table 1: 0:0 → 1:1, "
                         "shoot-out to away", reason="sheet")
    session.apply(_update(round=1, tables=(replace(table, status="ended", walkover=None),), audit=(override,),
                          sequence=2), 1.0)
    assert session.news[0] == ("The organiser set the result of your match of round 1: walkover to Jana → 0:0 — "
                               "late, excused")
    session.apply(_update(round=1, tables=(), audit=(override, shootout), sequence=3), 2.0)
    assert session.news[0] == ("The organiser set the result of your match of round 1: 0:0 → 1:1, shoot-out to Eva "
                               "Malá — sheet")  # the names kept from an earlier update


def test_a_player_disputes_his_decided_match_and_is_told_its_case() -> None:
    """His table decided (a walkover): the screen offers the dispute of that match; the page sends FileDispute once
    with his reason (Enter in the reason sends it), then says the organiser has it as case 4; a refusal is said in
    words. Before a result there is nothing to dispute."""
    from client.player.dispute_page import DisputePage
    from shared.protocol import FileDispute

    table = TableLine(table=2, home="p2", away="p1", home_name="Eva Malá", away_name="Jana", kind="match",
                      ruleset="quick", status="waiting")
    session = TournamentSession("ABC123", "p1")
    session.apply(_update(round=1, tables=(table,)), 0.0)
    assert session.disputable() is None
    session.apply(_update(round=1, tables=(replace(table, status="walkover", walkover="home"),), sequence=2), 1.0)
    found = session.disputable()
    assert found == ((0, 1, 2), "Round 1 — table 2: Eva Malá – Jana w/o")
    page = DisputePage("ABC123", *found)
    assert page.activate("send") is None  # no reason yet
    page.type_text("I was at the table, the room did not open")
    assert page.key("enter") == FileDispute("ABC123", 0, 1, 2, "I was at the table, the room did not open")
    assert page.activate("send") is None  # once
    assert page.apply(Error("NOT_ENTERED", "no", "FileDispute"))
    assert page.error.startswith("You coach no entry")
    assert page.activate("send") is not None  # a refusal lets him send again
    assert page.apply(TournamentDone("ABC123", "FileDispute", 4))
    assert page.items()[0].label == "The organiser has your dispute: case 4"


def test_the_code_pages_key_hint_reads_as_a_sentence() -> None:
    """The chosen tournament's footer names Enter's act in words that do not repeat the key ("Enter enter with it"
    was read as a stutter by the player at the club)."""
    page = _page_with_list()
    page.activate("choose:ABC123")
    assert "Enter enter" not in page.keys_help() and "Enter use the code" in page.keys_help()
