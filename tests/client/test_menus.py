"""Lobby and menus: the period arrows step in order and the words follow, quick match chooses its ruleset, a second
click does nothing until the server answers, no stale error after a match, no rematch for spectators, messages
say who, a waiting host has no move clock or choices; the settings screen keeps its choices on disk."""

from __future__ import annotations

from client.common import user_settings
from client.common.menu import OpenClaimCode
from client.match import hud_model, samples
from client.match.net import NetLink
from client.player import results_model
from client.player.lobby_model import LobbyModel, PlayBot
from shared.protocol import CreateRoom, Error, Presence, QuickMatch, Rename, Renamed, SeatInfo, Seats, Welcome
from tests.client.test_net import FakeClient, _joined, _snapshot


def _online() -> LobbyModel:
    """A welcomed lobby."""
    model = LobbyModel()
    model.apply(Welcome(1, "sprtec", "Jana", "tok"))
    return model


def test_the_period_arrows_step_in_order_and_the_words_follow():
    """From quick's own 5 minutes, ◀ gives 3, ▶ gives 6 (never a jump to 10); the hint says the chosen length."""
    model = _online()
    model.activate("screen:bot")
    period = next(i for i in model.items() if i.command == "cycle:period")
    assert "5 min (ruleset)" in period.label and period.hint == "One 5-minute period"
    model.focus = model.items().index(period)
    model.key("left")
    assert model.period == 3 and model.items()[model.focus].hint == "One 3-minute period"
    model.key("right")
    model.key("right")
    assert model.period == 6
    for _ in range(10):
        model.key("right")
    assert model.period == 10  # the arrows stop at the ends
    for _ in range(10):
        model.key("left")
    assert model.period == 0.5  # a 30-second blitz is the shortest


def test_quick_match_can_choose_its_ruleset():
    """The quick-match screen cycles any → standard → …; Find an opponent queues for that ruleset."""
    model = _online()
    model.activate("screen:quick")
    assert model.activate("quick") == QuickMatch(None)
    model.activate("back")
    model.activate("screen:quick")
    model.activate("cycle:quick_ruleset")
    assert model.activate("quick") == QuickMatch("standard")


def test_a_second_click_does_nothing_until_the_server_answers():
    """Create the room twice: one CreateRoom; after the server's answer (an error here) the button acts again."""
    model = _online()
    model.activate("screen:create")
    assert isinstance(model.activate("create"), CreateRoom)
    assert model.activate("create") is None
    assert not next(i for i in model.items() if i.command == "create").enabled
    model.apply(Error("BAD_SETTINGS", "no", "CreateRoom"))
    assert isinstance(model.activate("create"), CreateRoom)


def test_the_bot_screen_chooses_the_bots_strength():
    """Easy, medium or hard: the choice travels with PlayBot."""
    model = _online()
    model.activate("screen:bot")
    model.activate("cycle:level")
    request = model.activate("bot")
    assert isinstance(request, PlayBot) and request.level == "hard"


def test_no_stale_error_follows_the_coach_back_to_the_menu():
    """An error of the last match is gone when the coach is back in the menu."""
    model = _online()
    model.error = "The bot stopped (exit status -15)"
    model.pending = "bot"
    model.back_from_match()
    assert model.error == "" and model.pending is None and model.screen == "menu"


def test_spectators_are_not_offered_a_rematch():
    """A spectator's results have Save replay and Back, never Rematch."""
    spectator = results_model.build(2, 1, "home", "REGULAR_TIME", None, {"home": "Jana", "away": "Ola"})
    assert "rematch" not in [command for _, command in spectator.options]
    coach = results_model.build(2, 1, "home", "REGULAR_TIME", "home", {"home": "Jana", "away": "Ola"})
    assert "rematch" in [command for _, command in coach.options]


def test_a_tournament_table_offers_no_rematch_and_goes_back_to_the_tournament():
    """At a tournament's table the coach gets no rematch (the next round is the organiser's) and goes back to his
    tournament while it runs; after its last match the button says the lobby again."""
    names = {"home": "Jana", "away": "Ola"}
    running = results_model.build(0, 0, None, "DRAW", "home", names, table=True, back_to_tournament=True)
    assert [command for _, command in running.options] == ["save", "lobby"]
    assert running.options[-1][0] == "Back to the tournament" and running.rematch == ""
    over = results_model.build(0, 0, None, "DRAW", "home", names, table=True, back_to_tournament=False)
    assert over.options[-1] == ("Back to the lobby", "lobby") and "rematch" not in dict(over.options).values()
    assert running.profiles == ()  # the seats are named as the entries: no profile of that name to open


def test_a_room_outside_a_tournament_offers_both_coaches_profiles():
    """Outside a tournament the results open each coach's profile by his name."""
    names = {"home": "Jana", "away": "Ola"}
    shown = results_model.build(0, 0, None, "DRAW", "home", names)
    assert [command for _, command in shown.profiles] == ["profile:Jana", "profile:Ola"]


def test_messages_say_who_left_dropped_and_came_back():
    """Presence changes are told with the coach's name."""
    client, state, link = _joined(_snapshot(), now=0.0)
    for seats in (Seats(SeatInfo("Jana", True), SeatInfo("Piotr", True)),
                  Seats(SeatInfo("Jana", True), SeatInfo("Piotr", False, 60_000)),
                  Seats(SeatInfo("Jana", True), None)):
        client.inbox.put(Presence("ABCD", seats, 0))
        link.poll(state, now=1.0)
    texts = [line.text for line in state.log]
    assert "Piotr is back" in texts and "Piotr lost the connection" in texts and "Piotr left the match" in texts
    assert isinstance(link, NetLink) and isinstance(client, FakeClient)


def test_a_host_waiting_for_an_opponent_has_no_move_clock_or_choices():
    """Before the opponent comes: no move clock on the HUD and no choice panel."""
    from client.match import prompts

    state = samples.match_state(moves=0)
    state.free_seats = ("away",)
    hud = hud_model.build(state, 5.0)
    assert hud.home.move_clock is None and hud.away.move_clock is None
    assert prompts.choices(state.position, "home", 0.0)  # the engine would offer choices ...
    import os

    os.environ.setdefault("ARCADE_HEADLESS", "1")
    import arcade

    from client.match.match_view import MatchView

    window = arcade.Window(800, 500, "waiting", visible=False)
    try:
        view = MatchView(state, clock=lambda: 5.0)
        window.show_view(view)
        assert view.choices(5.0) == ()  # ... but none is shown while the host waits
    finally:
        window.close()


def test_settings_change_at_once_and_are_kept_on_disk(config_dir):
    """Cycling a setting hands it on at once; saved settings read back; a bad file reads as the defaults."""
    seen: list[user_settings.UserSettings] = []
    model = _online()
    model.on_settings = seen.append
    model.activate("screen:settings")
    model.activate("cycle:aim_guide")
    model.activate("cycle:language")
    assert seen[-1].aim_guide is False and seen[-1].language == "en"
    user_settings.save(seen[-1])
    assert user_settings.load() == seen[-1]
    (config_dir / user_settings.FILE).write_text('{"volume": "loud", "muted": 3, "name": 7}')
    assert user_settings.load() == user_settings.UserSettings()


def test_settings_rename_on_the_server_and_say_when_the_name_is_taken():
    """The name field starts from the server's name; Enter asks Rename; NAME_TAKEN keeps the typed name with the
    reason; Renamed makes it the name shown and the one offered on the next new server."""
    seen: list[user_settings.UserSettings] = []
    model = _online()
    model.on_settings = seen.append
    model.activate("screen:settings")
    model.focus = 0
    assert model.items()[0].label == "Name: Jana_"
    model.type_text(" K")
    assert model.key("enter") == Rename("Jana K") and model.key("enter") is None  # once, until the answer
    model.apply(Error("NAME_TAKEN", "another player is called 'Jana K'", "Rename"))
    assert model.error == "“Jana K” is taken on this server, or looks like a name that is — choose another name"
    assert model.items()[0].label == "Name: Jana K_" and not seen
    model.key("backspace")
    model.type_text("Karel")
    assert model.key("enter") == Rename("Jana Karel")
    model.apply(Renamed("Jana Karel"))
    assert model.player == "Jana Karel" and model.items()[0].label == "Name: Jana Karel_"
    assert seen[-1].name == "Jana Karel" and "Jana Karel" in model.status_line()


def test_settings_offer_the_claim_code_on_a_real_server_only():
    """"Use this identity on another machine" opens the claim code; a private practice server has none."""
    model = _online()
    model.activate("screen:settings")
    assert model.activate("claimcode") == OpenClaimCode()
    practice = LobbyModel(practice=True)
    practice.activate("screen:settings")
    assert "claimcode" not in [item.command for item in practice.items()]


def test_create_a_room_offers_rated_or_casual_and_the_bot_stays_casual():
    """A created room is casual unless Ratings is switched to rated; Play the bot always creates a casual room."""
    model = _online()
    model.activate("screen:create")
    assert model.activate("create").rated is False
    model.answered()
    model.activate("cycle:rated")
    assert any(item.label == "Ratings: rated room" for item in model.items())
    assert model.activate("create").rated is True
    model.answered()
    model.activate("screen:bot")
    bot = model.activate("bot")
    assert isinstance(bot, PlayBot) and bot.create.rated is False


def test_ratings_stand_beside_the_names_in_the_hud_and_the_room_list():
    """SeatInfo.rating beside the coach's name, "?" while provisional; a coach without one shows none."""
    from dataclasses import replace

    from client.player.lobby_model import room_line
    from shared.protocol.messages import RoomInfo

    seats = Seats(SeatInfo("Jana", True, rating=1512, provisional=True), SeatInfo("Piotr", True, rating=1620))
    _client, state, _link = _joined(replace(_snapshot(), seats=seats))
    hud = hud_model.build(state, 0.0)
    assert hud.home.name == "Jana (you)  1512?" and hud.away.name == "Piotr  1620"
    line = room_line(RoomInfo("K7QZ", "standard", Seats(seats.home, SeatInfo("Ola", True)), 0, "waiting"))
    assert "Jana 1512? v Ola" in line
