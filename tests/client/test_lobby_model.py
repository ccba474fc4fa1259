"""The lobby, results and placement models without a screen: menus, requests, words and the engine's verdicts."""

from __future__ import annotations

from client.common.menu import QUIT, OpenProfile
from client.match import placement, prompts, samples
from client.player import results_model
from client.player.lobby_model import LobbyModel
from shared.model import GoalieReset, Position
from shared.protocol import (
    CreateRoom,
    Error,
    JoinRoom,
    Left,
    ListRooms,
    Notice,
    QueueStatus,
    QuickMatch,
    RoomInfo,
    RoomList,
    SeatInfo,
    Seats,
    Watch,
    Welcome,
)


def _online(practice: bool = False) -> LobbyModel:
    """A lobby that has been welcomed by the server."""
    model = LobbyModel(practice)
    model.apply(Welcome(1, "sprtec", "Jana", "tok"))
    return model


def test_menu_items_are_disabled_until_the_server_welcomes():
    """Quick match needs a connection; after Welcome it is enabled and the status names the player."""
    model = LobbyModel()
    assert not next(i for i in model.items() if i.command == "screen:quick").enabled
    model.apply(Welcome(1, "sprtec", "Jana", "tok"))
    assert next(i for i in model.items() if i.command == "screen:quick").enabled and "Jana" in model.status


def test_create_room_carries_the_chosen_ruleset_and_settings():
    """Cycling the ruleset, period and move clock ends in a CreateRoom with those overrides."""
    model = _online()
    model.activate("screen:create")
    model.key("right")  # ruleset standard -> ko
    model.key("down")
    model.key("right")  # period: from ko's own 6 minutes to 10
    model.key("down")
    model.key("left")  # move clock: from ko's own 30 s to 15 s
    model.key("left")  # ... and off
    request = model.activate("create")
    assert request == CreateRoom("ko", {"period_ms": 600_000, "move_clock_ms": 0}, False)


def test_join_by_code_types_only_letters_and_digits_and_enter_joins():
    """Typed text is upper-cased and cleaned; Backspace deletes; Enter sends JoinRoom."""
    model = _online()
    model.activate("screen:join")
    model.type_text("ab-7 x")
    model.key("backspace")
    assert model.code == "AB7"
    assert model.key("enter") == JoinRoom("AB7")


def test_rooms_screen_lists_rooms_watch_or_join():
    """A playing room is watched, a waiting room with a free seat is joined, each coach beside his room opens his
    profile; entering the screen asks the list."""
    model = _online()
    assert model.activate("screen:rooms") == ListRooms()
    seats = Seats(SeatInfo("Petr", True), SeatInfo("Ola", True))
    half = Seats(SeatInfo("bot", True), None)
    model.apply(RoomList((RoomInfo("PLAY1", "standard", seats, 3, "playing"),
                          RoomInfo("WAIT2", "quick", half, 0, "waiting"))))
    items = model.items()
    assert "Petr v Ola" in items[0].label and "3 watching" in items[0].label
    assert model.activate(items[0].command) == Watch("PLAY1")
    assert [model.activate(item.command) for item in items[1:3]] == [OpenProfile("Petr"), OpenProfile("Ola")]
    assert {item.group for item in items[:3]} == {"room:PLAY1"}
    assert model.activate(items[3].command) == JoinRoom("WAIT2")
    assert model.activate(items[4].command) == OpenProfile("bot") and items[5].kind == "text"  # the free seat
    assert items[6].command == "refresh"


def test_quick_match_waits_and_a_refusal_returns_to_the_menu():
    """Quick match shows the queue; an Error about it shows the reason and goes back to the menu."""
    model = _online()
    assert model.activate("quick") == QuickMatch(None)
    model.apply(QueueStatus(True, None, 2))
    assert model.screen == "waiting" and "2 in the queue" in model.items()[0].label
    model.apply(Error("RATE_LIMITED", "slow down", "QuickMatch"))
    assert model.screen == "menu" and model.error == "slow down"


def test_an_opponent_who_never_came_puts_the_player_back_on_the_waiting_screen():
    """After a quick match whose opponent (sent from another node) never arrived: Left, a Notice said in the
    player's words, and QueueStatus queued - the lobby shows the queue again, not the menu."""
    model = _online()
    model.apply(Left("K7QZ"))
    model.apply(Notice("OPPONENT_MISSING", "your opponent did not arrive: you are back in the queue"))
    model.apply(QueueStatus(True, "quick", 1))
    assert model.screen == "waiting" and model.status == "Your opponent did not arrive — you are back in the queue"
    model.apply(Notice("SOMETHING_NEW", "news from a newer server"))
    assert model.status == "news from a newer server"


def test_keyboard_focus_skips_disabled_items_and_quit_quits():
    """Down from the top skips disabled items when offline; Enter on Quit returns QUIT."""
    model = LobbyModel()
    model.move_focus(1)
    assert model.focused().enabled
    model.focus = len(model.items()) - 1
    assert model.key("enter") == QUIT


def test_results_words_from_each_seat_and_the_rematch_handshake():
    """The winner reads 'You win!', the loser 'You lose'; an offer by the opponent turns the button into Accept."""
    names = {"home": "HC Kladno", "away": "Sokol"}
    win = results_model.build(3, 1, "home", "REGULAR_TIME", "home", names)
    lose = results_model.build(3, 1, "home", "REGULAR_TIME", "away", names, {"home"})
    watch = results_model.build(0, 0, None, "DRAW", None, names)
    assert win.headline == "You win!" and win.score == "HC Kladno  3 : 1  Sokol" and "Full time" in win.reason
    assert lose.headline == "You lose" and ("Accept the rematch", "rematch") in lose.options
    assert watch.headline == "A draw" and all(c != "rematch" for _, c in watch.options)


def test_a_legal_defender_move_is_accepted_and_an_illegal_one_names_the_rule():
    """Moving a defender within its third passes the engine's setup check; into the crease it is refused."""
    start: Position = samples.new_match()
    team = "away" if start.to_move == "home" else "home"
    end = start.own_end(team)
    defender = next(s for s in start.stones if s.team == team and abs(s.x) > 300 and s.y < 0)
    arrangement = placement.Arrangement(start, team)
    assert arrangement.pick(defender.x, defender.y) == defender.id
    arrangement.drop(defender.x - 30 * end, defender.y - 60)
    assert arrangement.problem() is None
    arrangement.pick(defender.x - 30 * end, defender.y - 60)
    arrangement.drop(470.0 * end, 0.0)
    assert "crease" in (arrangement.problem() or "")


def test_a_drop_near_a_faceoff_spot_snaps_onto_it():
    """IV.1 wants face-off spots exactly: a drop 8 mm off lands on the spot."""
    start = samples.new_match()
    spot = placement.formation.slot_spot("wing_1", start.own_end("home"))
    assert placement.snap(start, "home", spot[0] + 6, spot[1] - 5) == spot


def test_the_restart_offers_the_arrangement_and_a_spectator_gets_no_prompt():
    """Before the first move the coach is offered to move defenders; spectators are offered nothing."""
    start = samples.new_match()
    offered = {choice.kind: choice for choice in prompts.choices(start, "home", 0.0)}
    arrange = offered[prompts.ARRANGE]
    assert arrange.options == (("Move defenders", prompts.ARRANGE),) and arrange.deadline is None
    assert prompts.choices(start, None, 0.0) == ()


def test_optional_engine_offers_become_buttons_without_countdown():
    """The goalie reset the engine offers (XII.2) shows as a button timed by the move clock, not a countdown."""
    from pathlib import Path

    from shared.notation import scenario_from_json

    root = Path(__file__).resolve().parents[2]
    position = scenario_from_json((root / "examples" / "goalie-reset.json").read_text(encoding="utf-8")).position
    offered = {choice.kind: choice for choice in prompts.choices(position, "home", 0.0)}
    assert "goalie_reset" in offered
    assert offered["goalie_reset"].deadline is None
    assert prompts.action_for(offered["goalie_reset"].options[0][1], "home") == GoalieReset(team="home")
    assert "goalie_reset" not in {choice.kind for choice in prompts.choices(position, "away", 0.0)}


def test_tournaments_and_servers_are_reached_from_the_main_menu():
    """Tournaments (online only) and Servers (practice too) open their pages; once entered in a tournament its name
    leads the menu back to it."""
    from client.player.lobby_model import OpenMyTournament, OpenServers, OpenTournaments

    model = _online()
    commands = [i.command for i in model.items()]
    assert "tournaments" in commands and "servers" in commands and "mytournament" not in commands
    assert model.activate("tournaments") == OpenTournaments() and model.activate("servers") == OpenServers()
    assert "servers" in [i.command for i in _online(practice=True).items()]
    model.tournament_name = "Brno Open"
    first = model.items()[0]
    assert (first.label, first.command) == ("Back to Brno Open", "mytournament")
    assert model.activate("mytournament") == OpenMyTournament()


def test_the_main_menus_first_line_keeps_its_place_when_a_tournament_is_entered():
    """Before: Tournaments on the first line; once entered: Back to the tournament there - no line is added above
    the others, so no button moves under the pointer."""
    from shared.protocol import Welcome

    model = LobbyModel()
    model.apply(Welcome(1, "sprtec", "Jana", "tok"))
    before = [item.command for item in model.items()]
    model.tournament_name = "Velká cena Brna"
    after = [item.command for item in model.items()]
    assert before[0] == "tournaments" and after[0] == "mytournament"
    assert before[1:4] == after[1:4]
