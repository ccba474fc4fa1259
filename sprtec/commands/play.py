"""``sprtec play [--server URL]``: the coach's way in — the lobby of a server, or practice against the bot.

Why this order: the README's path is ``make run`` in one terminal and ``sprtec play`` in another, so without
``--server`` the command first asks the local default server (``client.common.local_server``, half a second) and
opens its lobby: quick match, play the bot, create a room with a ruleset and settings, join by code, watch a
running match. When nothing answers there it looks on the LAN for two seconds (``client.common.lan_browser``): at a club
event the organiser's server is found and opened, nobody types a URL (the lobby's Servers page lists any others).
When none is found either, a club player can still play at once: the command starts a private server
(``client.player.practice``) where the lobby offers only the bot. Either way the bot is the real
``sprtec bot`` as a child process (``client.player.bot_process``), stopped by pid. ``--room CODE`` joins at once,
``--quick`` queues at once. A player new to the server is asked for his name first (or a claim code from his other
machine, or to play as a guest); ``--name NAME`` answers for him (and renames a returning player).

Screenshots: ``--screenshot PATH`` saves the first screen the server's answer allows (the lobby once the
room list arrived — the rooms screen — or the match once joined) and exits. ``--view lobby|match|setup|results`` instead
draws a sample of that screen from a match really played through the engine (``client.match.samples``),
without any server.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from client.player.lobby_model import Origin
    from shared.protocol.lan_record import FoundServer

HELP = "play: the lobby of the local server (or --server URL), or practice against the bot on a private one"
VIEWS = ("lobby", "match", "setup", "results")
LAN_WAIT_S = 2.0  # how long a client without a server looks for one on the LAN (one answers in ~1.2 s)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--server, --room, --quick, --ruleset, --name, --screenshot, --view, --wait, --mute."""
    parser.add_argument("--server", help="the server's websocket URL (default: the local server if one runs, "
                        "else practice against the bot on a private one)")
    parser.add_argument("--room", help="join this room code at once")
    parser.add_argument("--quick", action="store_true", help="ask for a quick match at once")
    parser.add_argument("--league", help="take your place in this team league (with --code) and play its games")
    parser.add_argument("--code", help="with --league: the code the organiser gave you for your roster place")
    parser.add_argument("--ruleset", help="the ruleset for --quick (standard, ko, final, strict, quick)")
    parser.add_argument("--name", help="your display name on this server (default: asked on the first visit, then "
                        "the one the server keeps for you)")
    parser.add_argument("--screenshot", type=Path, metavar="PATH", help="save a PNG of the view and exit")
    parser.add_argument("--view", choices=VIEWS, help="with --screenshot: draw a sample of this screen, no server")
    parser.add_argument("--wait", type=float, default=20.0, help="seconds a screenshot waits for the server")
    parser.add_argument("--mute", action="store_true", help="no sound")


def run(args: argparse.Namespace) -> int:
    """Open the window on the lobby (the given, the local or a private server), or save a screenshot."""
    from client.common import window as app

    if args.view is not None:
        return _sample(args)
    _exit_on_termination()
    app.prepare(args.screenshot)
    from client.common.local_server import LOCAL_URL, answers
    from client.player.lobby_model import Origin
    from client.player.practice import PrivateServer

    practice: PrivateServer | None = None
    url = args.server
    origin = Origin("server", url or "")
    local = url is None and answers(LOCAL_URL)
    lan = lan_server() if url is None and not local else None
    if local:
        url, origin = LOCAL_URL, Origin("local", LOCAL_URL)
    elif lan is not None:
        url, origin = lan.url, Origin("lan", lan.url, lan.name)
    elif url is None:
        practice = PrivateServer()
        practice.start()
        origin = Origin("practice")
        print(f"no server at {LOCAL_URL}; starting a private practice server…", file=sys.stderr)
        url = practice.wait(30.0)
        if url is None:
            print(f"sprtec play: {practice.error or 'the practice server did not answer'}", file=sys.stderr)
            practice.stop()
            return 1
    print(origin.text(), file=sys.stderr)  # English until the player's language is read
    try:
        return _connected(args, url, practice is not None, origin)
    finally:
        if practice is not None:
            practice.stop()


def lan_server(browser: Any = None, wait_s: float = LAN_WAIT_S) -> FoundServer | None:
    """The server to open when none was named and none runs here: one found on the LAN within ``wait_s`` (at a
    club event the organiser's; nobody types a URL), else None (practice). The Servers page lists the others."""
    from client.common.lan_browser import BackgroundBrowser

    browser = browser if browser is not None else BackgroundBrowser()
    browser.start()
    try:
        deadline = time.monotonic() + wait_s
        while True:
            chosen = choose_lan_server(browser.snapshot())
            if chosen is not None or time.monotonic() >= deadline or not browser.running:
                return chosen
            time.sleep(0.1)
    finally:
        browser.close()


def choose_lan_server(found: Sequence[FoundServer]) -> FoundServer | None:
    """Of the servers found, the first (by name) that speaks our protocol and runs a tournament, else the first
    that speaks our protocol."""
    usable = [server for server in found if server.compatible]
    with_tournaments = [server for server in usable if server.tournaments_running]
    return (with_tournaments or usable)[0] if usable else None


def _exit_on_termination() -> None:
    """Turn SIGTERM and SIGHUP (a closed terminal) into a normal exit, so the ``finally`` blocks still stop the
    bot and the private server this client started: a killed client must not leave them running."""

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, leave_on_signal)


def leave_on_signal(signum: int, frame: object) -> None:
    """End the window's loop while it runs, else exit: the command then ends normally and its ``finally`` blocks
    stop the bot and the private server. No raise while the loop runs: the handler may run inside a finalizer (a
    weakref's callback, a GL buffer's ``__del__``), which swallows what it raises ("Exception ignored in ..." on
    stderr) - the client then ran on after SIGTERM."""
    window_loop = sys.modules.get("pyglet.app")
    if window_loop is not None and window_loop.event_loop.is_running:
        window_loop.exit()
        return
    raise SystemExit(128 + signum)


def _connected(args: argparse.Namespace, url: str, practice: bool, origin: Origin) -> int:
    """Connect to ``url`` and navigate lobby → match → results until the window closes (the bot stopped then)."""
    # the identity outlives the window (a closed or crashed client comes back to its match); a private practice
    # server lives only as long as this process, so nothing of it is kept
    from client.common import i18n, user_settings
    from client.common import window as app
    from client.common.identity import IdentityStore
    from client.common.sound import Sounds
    from client.match.net import NetClient, NetLink
    from client.player.bot_process import BotProcess
    from client.player.lobby_model import LobbyModel
    from client.player.navigator import Navigator
    from shared.protocol import JoinLeague, JoinRoom, ListRooms, QuickMatch, WatchLeague

    user = user_settings.load()
    i18n.set_language(user.language or None)
    # a new player of a real server says who he is; a private practice server is forgotten at the end anyway
    proposed = (user.name or None) if practice else None
    client = NetClient(url, args.name or proposed, identity=None if practice else IdentityStore(),
                       ask_name=not practice)
    client.start()
    bot = BotProcess()
    nav: Navigator | None = None
    try:
        window = app.open_window("sprtec — practice" if practice else f"sprtec — {url}", args.screenshot)
        lobby = LobbyModel(practice=practice, origin=origin)
        if practice:
            lobby.activate("screen:bot")
        sounds = Sounds(muted=args.mute or args.screenshot is not None or user.muted, volume=user.volume,
                        effects=user.effects)
        nav = Navigator(window, NetLink(client), lobby, sounds, bot, user=user, keep=args.screenshot is None)
        if args.mute:
            sounds.muted = True
        if user.fullscreen and args.screenshot is None:
            window.set_fullscreen(True)
        window.on_fullscreen = lambda full: nav.apply_settings(nav.user.changed(fullscreen=full))  # F11 keeps it
        nav.wanted_name = args.name
        nav.connect = lambda server: NetClient(server, args.name, identity=IdentityStore(), ask_name=True)
        if args.league:
            nav.first_request = JoinLeague(args.league, args.code) if args.code else WatchLeague(args.league)
        elif args.room:
            nav.first_request = JoinRoom(args.room)
        elif args.quick:
            nav.first_request = QuickMatch(args.ruleset)
            lobby.screen = "waiting"
        elif not practice and args.screenshot is not None:
            nav.first_request = ListRooms()  # the live lobby's picture: the rooms of the server
            lobby.screen = "rooms"
        nav.show_first()
        if args.screenshot is not None:
            started = time.monotonic()

            def ready() -> bool:
                """True once the server's answer the screenshot should show has arrived."""
                if nav.screen == "name":
                    return True  # a new player: the name entry is the first screen
                if args.room or args.quick:
                    return nav.state.position is not None
                if not practice:
                    return lobby.connected and nav.first_request is None and time.monotonic() - started > 0.5
                return lobby.connected

            if not app.settle(window, ready, args.wait):
                print(f"sprtec play: nothing to show from {url} after {args.wait:g} s", file=sys.stderr)
        return app.finish(window, args.screenshot)
    finally:
        bot.stop()
        client.close()
        if nav is not None:
            nav.close()  # the LAN search, and the connection to a server chosen on the way
            nav.link.client.close()


def _sample(args: argparse.Namespace) -> int:
    """A sample screen from a match played through the engine (no server), saved or shown."""
    from client.common import window as app

    window = app.open_window(f"sprtec — sample {args.view}", args.screenshot)
    from client.common.menu_view import LobbyView
    from client.match import samples
    from client.match.match_view import MatchView
    from client.match.placement import Arrangement
    from client.player.lobby_model import LobbyModel
    from client.player.results_view import ResultsView

    now = 0.0
    if args.view == "lobby":
        model = LobbyModel(practice=args.server is None)
        model.status = "Sample screen — not connected"
        view: object = LobbyView(model, lambda request: None)
    elif args.view == "match":
        state = samples.match_state()
        view = MatchView(state, clock=lambda: now)
    elif args.view == "setup":
        state = samples.match_state(moves=0, seat="away")
        match_view = MatchView(state, clock=lambda: now)
        position = state.position
        assert position is not None
        arrangement = Arrangement(position, "away")
        defender = next(s for s in position.stones if s.team == "away" and s.role != "goalie"
                        and abs(s.x) > 300 and s.y < 0)
        arrangement.moved[defender.id] = (defender.x - 40.0 * position.own_end("away"), defender.y - 90.0)
        match_view.arrangement = arrangement
        view = match_view
    else:
        from client.common.rating_text import results_lines

        ended = samples.ended_match()
        view = ResultsView(ended.state, ended.ended, lambda command: None,  # a match of the engine: not rated
                           ratings=lambda: results_lines(False, None, ended.ended.match_id, samples.NAMES, 0.0))
    window.show_view(view)
    return app.finish(window, args.screenshot, now)
