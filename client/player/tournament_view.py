"""The player's tournament screen: his table when a round starts ("Round 3 — table 7: you play Novák (home, red)",
the walkover countdown, taken there by himself), between rounds the standings and the tables still being played
(click one to watch it), at the end the final ranking - his place overall and in his category, his Czech Cup points -
or the final standings (a VIEW module: it imports arcade).

Why a view of its own: it is a picture more than a menu — the standings table, the live tiles — drawn with the
shared widgets (``client.common.tournament_widgets``); every word and every decision comes from
``client.player.tournament_session``. Its buttons give commands to ``choose``: ``checkin``, ``table``, ``hall``,
``lobby``, ``watch:<room>``; for a match on a physical board ``score:home:+1`` (and the like), ``shootout`` and
``enter`` (the score entered, or the opponent's confirmed).
"""

from __future__ import annotations

from collections.abc import Callable

import arcade

from client.common import buttons, palette
from client.common.help_view import global_key
from client.common.i18n import _, team_word
from client.common.menu_view import draw_menu_button
from client.common.ranking_model import columns_of, own_ranking_line, ranking_heading, ranking_rows
from client.common.tournament_model import (
    Box,
    refereed_shown,
    standings_columns,
    tiebreak_names,
    tile_at,
    tile_grid,
)
from client.common.tournament_widgets import draw_ranking, draw_standings, draw_tile
from client.common.widgets import Texts, fit_text
from client.player import board_entry
from client.player.tournament_session import TournamentSession

HEADER = 92.0
FOOTER = 64.0
MARGIN = 16.0


def _shrunk(texts: Texts, key: str, text: str, x: float, y: float, width: float, colour: palette.Colour,
            size: float) -> None:
    """A line drawn whole, its font made smaller until it fits ``width`` (a name is never cut)."""
    label = texts.get(key, text, x, y, colour, size, bold=True)
    while label.content_width > width and label.font_size > 10:
        label.font_size -= 1
    texts.show(key)


class TournamentView(arcade.View):
    """Shows ``session``; ``choose`` takes the screen's commands; ``poll`` brings in news every frame."""

    def __init__(self, session: TournamentSession, choose: Callable[[str], None],
                 poll: Callable[[], None] | None = None, clock: Callable[[], float] | None = None) -> None:
        """Show ``session`` by ``clock`` (the navigator's)."""
        super().__init__()
        import time

        self.session = session
        self.choose = choose
        self.poll = poll
        self.clock = clock or time.monotonic
        self.texts = Texts()
        self.hover: tuple[float, float] | None = None
        self.buttons: list[buttons.Button] = []
        self.tile_boxes: tuple[Box, ...] = ()

    # ----------------------------------------------------------------- layout
    def commands(self) -> list[tuple[str, str]]:
        """The buttons at the foot: check in (until he is), go to the table (while it waits), hall, lobby."""
        s = self.session
        found: list[tuple[str, str]] = []
        if s.phase(self.clock()) == "board":
            line = s.board()
            label = _("Confirm {score}") if board_entry.confirms(line, s.entry, s.draft) else _("Enter {score}")
            found.append((label.format(score=s.draft.text()), "enter"))
            if s.update is not None and s.update.system == "knockout" and s.draft.home == s.draft.away:
                side = team_word(s.draft.shootout) if s.draft.shootout else _("none")
                found.append((_("Shoot-out: {side}").format(side=side), "shootout"))
        elif s.phase(self.clock()) == "assigned":
            found.append((_("Go to my table now"), "table"))
        elif s.may_check_in():
            found.append((_("I am here: check in"), "checkin"))
        elif s.disputable() is not None:
            found.append((_("Dispute my result"), "dispute"))
        found.append((_("Watch in the hall"), "hall"))
        found.append((_("Back to the lobby"), "lobby"))
        return found

    def layout_buttons(self) -> list[buttons.Button]:
        """The foot's buttons: the hall and the lobby always where a row of three centred puts them, so they never
        move under the pointer when check-in (or the way to the table) comes or goes; the others to their left."""
        width, gap = 230.0, 12.0
        commands = self.commands()
        first = (self.window.width - (3 * width + 2 * gap)) / 2 + width + gap  # the hall's place
        x = first - (len(commands) - 2) * (width + gap)
        found = [buttons.Button(label, command, x + i * (width + gap), 14, width, 40)
                 for i, (label, command) in enumerate(commands)]
        return found + self.score_buttons

    @property
    def score_buttons(self) -> list[buttons.Button]:
        """The − and + beside each side's goals while he enters a board's score."""
        if self.session.phase(self.clock()) != "board":
            return []
        panel = self._panel()
        y = panel.bottom + 96
        found = []
        for side, centre in (("home", panel.left + panel.width * 0.3), ("away", panel.left + panel.width * 0.7)):
            found.append(buttons.Button("−", f"score:{side}:-1", centre - 120, y, 56, 48))
            found.append(buttons.Button("+", f"score:{side}:1", centre + 64, y, 56, 48))
        return found

    def _panel(self) -> Box:
        """The assignment's panel."""
        width, height = self.window.width, self.window.height
        body = Box(MARGIN, FOOTER + 8, width - 2 * MARGIN, height - HEADER - FOOTER - 8)
        return Box(body.left + body.width * 0.1, body.bottom + body.height * 0.12, body.width * 0.8,
                   body.height * 0.78)

    def frame_key(self) -> object:
        """What the screen shows: the update, the phase, the second counted down, the pointer, the size."""
        s = self.session
        now = self.clock()
        return (self.window.width, self.window.height, None if s.update is None else s.update.sequence,
                s.phase(now), int(now), s.notice(), s.checking_in, self.hover, s.assignment, tuple(s.news),
                s.draft.text())

    # ----------------------------------------------------------------- loop
    def on_update(self, delta_time: float) -> None:
        """Bring in the server's news."""
        if self.poll is not None:
            self.poll()

    def on_draw(self) -> None:
        """Paint the screen."""
        self.clear(color=palette.BACKGROUND)
        self.draw_at(self.clock())

    def draw_at(self, now: float) -> None:
        """The header, then the assignment, the final standings or the waiting screen, then the buttons."""
        s = self.session
        width, height = self.window.width, self.window.height
        fit_text(self.texts, "title", s.title(), MARGIN, height - 42, width - 2 * MARGIN, palette.TEXT, 26, bold=True)
        fit_text(self.texts, "state", s.state_line(now), MARGIN, height - 70, width - 2 * MARGIN, palette.WARNING, 13)
        phase = s.phase(now)
        body = Box(MARGIN, FOOTER + 8, width - 2 * MARGIN, height - HEADER - FOOTER - 8)
        if phase == "board":
            self._board()
        elif phase == "assigned":
            self._assignment(body, now)
        elif phase == "final" and s.update is not None and s.update.ranking:
            self._ranking(body)
        elif phase == "final":
            self._standings(body, _("Final standings"))
        else:
            self._waiting(body)
        if s.notice():
            fit_text(self.texts, "error", s.notice(), width / 2, FOOTER - 4, width - 40, palette.WARNING, 12,
                     "center", bold=True)
        self.buttons = self.layout_buttons()
        for i, b in enumerate(self.buttons):
            lit = self.hover is not None and b.contains(*self.hover)
            draw_menu_button(self.texts, f"button{i}", b, lit, b.label, 22 if b.label in ("−", "+") else 14)

    def _assignment(self, body: Box, now: float) -> None:
        """The round's table in large letters, the walkover countdown and when he is taken there."""
        s = self.session
        panel = Box(body.left + body.width * 0.1, body.bottom + body.height * 0.3, body.width * 0.8,
                    body.height * 0.45)
        arcade.draw_lbwh_rectangle_filled(panel.left, panel.bottom, panel.width, panel.height, palette.PANEL)
        arcade.draw_lbwh_rectangle_outline(panel.left, panel.bottom, panel.width, panel.height, palette.WARNING, 3)
        seat = s.assignment.seat if s.assignment is not None else "home"
        heading, opponent = s.assignment_lines()
        arcade.draw_circle_filled(panel.left + 48, panel.top - 58, 20, palette.kit("away" if seat == "away" else
                                                                                    "home")[0])
        _shrunk(self.texts, "assigned", heading, panel.left + 84, panel.top - 72, panel.width - 110, palette.WARNING,
                34)
        _shrunk(self.texts, "opponent", opponent, panel.left + 84, panel.top - 118, panel.width - 110, palette.TEXT,
                26)
        fit_text(self.texts, "walkover", s.walkover_text(now), panel.left + panel.width / 2, panel.top - 176,
                 panel.width - 40, palette.WARNING, 17, "center", bold=True)
        fit_text(self.texts, "ruleset", s.ruleset_text(), panel.left + panel.width / 2, panel.top - 208,
                 panel.width - 40, palette.TEXT, 13, "center")
        fit_text(self.texts, "taking", s.taking_text(now), panel.left + panel.width / 2, panel.bottom + 24,
                 panel.width - 40, palette.TEXT_DIM, 14, "center")

    def _board(self) -> None:
        """His match on a physical board: the board and his opponent, its referee, the score he enters with − and +
        (or his opponent's entry to confirm), and what the board waits for."""
        s = self.session
        a = s.assignment
        if a is None:
            return
        line = s.board()
        panel = self._panel()
        arcade.draw_lbwh_rectangle_filled(panel.left, panel.bottom, panel.width, panel.height, palette.PANEL)
        arcade.draw_lbwh_rectangle_outline(panel.left, panel.bottom, panel.width, panel.height, palette.WARNING, 3)
        arcade.draw_circle_filled(panel.left + 48, panel.top - 58, 20, palette.kit("away" if a.seat == "away" else
                                                                                    "home")[0])
        heading, opponent = s.assignment_lines()
        _shrunk(self.texts, "assigned", heading, panel.left + 84, panel.top - 72, panel.width - 110, palette.WARNING,
                32)
        _shrunk(self.texts, "opponent", opponent, panel.left + 84, panel.top - 114, panel.width - 110, palette.TEXT,
                24)
        fit_text(self.texts, "referee", board_entry.referee_line(a), panel.left + panel.width / 2,
                 panel.top - 156, panel.width - 40, palette.TEXT_DIM, 15, "center")
        names = (line.home_name, line.away_name) if line is not None else (
            (_("you"), a.opponent) if a.seat == "home" else (a.opponent, _("you")))
        for i, (name, goals) in enumerate(((names[0], s.draft.home), (names[1], s.draft.away))):
            side = "home" if i == 0 else "away"
            centre = panel.left + panel.width * (0.3 if i == 0 else 0.7)
            fit_text(self.texts, f"name.{side}", name, centre, panel.bottom + 200, panel.width * 0.38,
                     palette.kit("home" if i == 0 else "away")[0], 16, "center", bold=True)
            fit_text(self.texts, f"goals.{side}", str(goals), centre, panel.bottom + 104, 120, palette.TEXT, 48,
                     "center", bold=True)
        fit_text(self.texts, "colon", ":", panel.left + panel.width / 2, panel.bottom + 104, 40, palette.TEXT, 48,
                 "center", bold=True)
        fit_text(self.texts, "board.status", board_entry.status(line, s.entry), panel.left + panel.width / 2,
                 panel.bottom + 40, panel.width - 40, palette.WARNING, 16, "center", bold=True)

    def _standings(self, area: Box, heading: str) -> None:
        """A heading over the standings table (his line lit)."""
        s = self.session
        fit_text(self.texts, "standings.title", heading, area.left, area.top - 18, area.width, palette.TEXT, 15,
                 bold=True)
        table = Box(area.left, area.bottom, area.width, area.height - 28)
        update = s.update
        columns = standings_columns(tiebreak_names(update.standings) if update is not None else (),
                                    refereed=update is not None and refereed_shown(update.standings))
        draw_standings(self.texts, "standings", table, s.rows(), columns, highlight=s.entry)

    def _ranking(self, area: Box) -> None:
        """The final ranking of every player (his line lit), with his own place overall and in his category."""
        s = self.session
        update = s.update
        fit_text(self.texts, "ranking.title", ranking_heading(update), area.left, area.top - 18, area.width,
                 palette.TEXT, 15, bold=True)
        fit_text(self.texts, "ranking.own", own_ranking_line(update, s.entry), area.left, area.top - 40, area.width,
                 palette.WARNING, 13, bold=True)
        table = Box(area.left, area.bottom, area.width, area.height - 52)
        rows = ranking_rows(update)
        draw_ranking(self.texts, "ranking", table, rows,
                     columns_of(update), highlight=s.entry)

    def _waiting(self, body: Box) -> None:
        """The standings on the left; the tables of the round on the right, with who is still playing."""
        s = self.session
        split = body.width * 0.6
        update = s.update
        after = update.after_round if update is not None else 0
        heading = _("Standings after round {n}").format(n=after) if after else _("Entrants")
        self._standings(Box(body.left, body.bottom, split - 12, body.height), heading)
        side = Box(body.left + split, body.bottom, body.width - split, body.height)
        round_number = update.round if update is not None else 0
        fit_text(self.texts, "tables.title", _("Tables of round {n}").format(n=round_number) if round_number else
                 _("Tables"), side.left, side.top - 18, side.width, palette.TEXT, 15, bold=True)
        fit_text(self.texts, "tables.playing", s.playing_line(), side.left, side.top - 40, side.width,
                 palette.TEXT_DIM, 12)
        tiles = s.tiles(self.clock())
        self.tile_boxes = tile_grid(Box(side.left, side.bottom, side.width, side.height - 52), len(tiles),
                                    min_width=200.0)
        for i, (box, tile) in enumerate(zip(self.tile_boxes, tiles, strict=True)):
            lit = tile.live and self.hover is not None and box.contains(*self.hover)
            draw_tile(self.texts, f"tile{i}", box, tile, lit)

    # ----------------------------------------------------------------- input
    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """The pointer lights a button or a tile."""
        self.hover = (x, y)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """A button's command, or a live tile: watch its table."""
        hit = buttons.hit(self.buttons, x, y)
        if hit is not None:
            self.choose(hit.command)
            return
        if self.session.phase(self.clock()) == "waiting":
            tile = tile_at(self.tile_boxes, self.session.tiles(self.clock()), x, y)
            if tile is not None and tile.live and tile.room is not None:
                self.choose(f"watch:{tile.room}")

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Enter goes to the table while it waits; Escape back to the lobby."""
        if global_key(self.window, symbol, modifiers):
            return
        if symbol in (arcade.key.ENTER, arcade.key.RETURN) and self.session.assignment is not None:
            self.choose("table")
        elif symbol == arcade.key.ESCAPE:
            self.choose("lobby")
