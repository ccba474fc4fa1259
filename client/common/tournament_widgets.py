"""Drawing a tournament: the standings table with its tie-breaks, rank changes and a points-by-round chart on each
line, the final ranking with categories and cup points, the knockout bracket drawn as a bracket, and a table tile —
a small board with both names, the score, the part and the time left (a VIEW module: it imports arcade).

Why shared widgets: the player's waiting screen, the spectators' hall and the organiser's desk show the same
pictures; the words and the places come from ``client.common.tournament_model`` (pure, tested), these functions only
paint them into a rectangle. Each takes the ``Texts`` pool of its view and a ``key`` prefix so several widgets of
one screen keep their own labels.
"""

from __future__ import annotations

from collections.abc import Sequence

import arcade

from client.common import palette
from client.common.i18n import _
from client.common.ranking_model import RankingColumn, RankingRow, ranking_cells
from client.common.tournament_model import (
    Box,
    BracketLayout,
    BracketSlot,
    Column,
    StandingRow,
    Tile,
    chart_points,
    column_titles,
    row_cells,
)
from client.common.widgets import Texts, fit_text, shrunk_size

ROW_HEIGHT = 26.0
HEAD_HEIGHT = 24.0
UP = (90, 200, 110)
DOWN = (230, 90, 80)
HIGHLIGHT = (70, 60, 30, 220)
LINE_DARK = (44, 52, 64, 235)
LINE_LIGHT = (36, 44, 54, 235)
WINNER = (255, 215, 90)
JOIN = (140, 150, 170)
YELLOW_CARD = (250, 215, 50)


def draw_standings(texts: Texts, key: str, area: Box, rows: Sequence[StandingRow], columns: Sequence[Column],
                   highlight: str | None = None, size: float = 12.0) -> int:
    """The standings table in ``area``, top down: a head line, then one line per row (``highlight`` an entry to
    light: the player's own); rank changes in green/red, the chart in its column. Returns how many rows fitted."""
    height = max(ROW_HEIGHT, size * 2.1)
    arcade.draw_lbwh_rectangle_filled(area.left, area.top - HEAD_HEIGHT, area.width, HEAD_HEIGHT, palette.HUD_BG)
    for i, column in enumerate(columns):
        fit_heading(texts, f"{key}.head.{i}", column.heading, _x(area, column), area.top - HEAD_HEIGHT + 7,
                    _width(area, columns, i), min(size - 1.5, 13.0))
    fits = max(0, int((area.height - HEAD_HEIGHT) // height))
    scale_max = max((max(r.points_by_round, default=0) for r in rows), default=0)
    for n, row in enumerate(rows[:fits]):
        top = area.top - HEAD_HEIGHT - n * height
        fill = HIGHLIGHT if row.entry == highlight else LINE_DARK if n % 2 == 0 else LINE_LIGHT
        arcade.draw_lbwh_rectangle_filled(area.left, top - height, area.width, height, fill)
        for i, (column, cell) in enumerate(zip(columns, row_cells(row, columns), strict=True)):
            color = _cell_colour(column.key, row)
            if column.key == "chart":
                _chart(area, columns, i, top - height + 4, height - 8, row.points_by_round, scale_max)
                continue
            fit_text(texts, f"{key}.{n}.{i}", cell, _x(area, column), top - height / 2 - size / 2.6,
                     _width(area, columns, i), color, size, bold=column.key in ("name", "points"))
    return min(fits, len(rows))


def draw_ranking(texts: Texts, key: str, area: Box, rows: Sequence[RankingRow], columns: Sequence[RankingColumn],
                 highlight: str | None = None, size: float = 12.0) -> int:
    """The final ranking in ``area``, top down: a head line, then one line per player (``highlight`` lit), a
    category's winner in gold, a player who left dim. Returns how many rows fitted."""
    height = max(ROW_HEIGHT, size * 2.1)
    arcade.draw_lbwh_rectangle_filled(area.left, area.top - HEAD_HEIGHT, area.width, HEAD_HEIGHT, palette.HUD_BG)
    starts = [c.start for c in columns]
    for i, column in enumerate(columns):
        fit_heading(texts, f"{key}.head.{i}", column.heading, area.left + 6 + (area.width - 12) * column.start,
                    area.top - HEAD_HEIGHT + 7, _span(area, starts, i), min(size - 1.5, 13.0))
    fits = max(0, int((area.height - HEAD_HEIGHT) // height))
    for n, row in enumerate(rows[:fits]):
        top = area.top - HEAD_HEIGHT - n * height
        fill = HIGHLIGHT if row.entry == highlight else LINE_DARK if n % 2 == 0 else LINE_LIGHT
        arcade.draw_lbwh_rectangle_filled(area.left, top - height, area.width, height, fill)
        colour = palette.TEXT_DIM if row.out else WINNER if row.winner else palette.TEXT
        for i, (column, cell) in enumerate(zip(columns, ranking_cells(row, columns), strict=True)):
            fit_text(texts, f"{key}.{n}.{i}", cell, area.left + 6 + (area.width - 12) * column.start,
                     top - height / 2 - size / 2.6, _span(area, starts, i), colour, size,
                     bold=column.key in ("name", "points") or row.winner)
    return min(fits, len(rows))


def _span(area: Box, starts: Sequence[float], i: int) -> float:
    """The room of column ``i`` up to the next one (the last to the edge)."""
    end = starts[i + 1] if i + 1 < len(starts) else 1.0
    return (area.width - 12) * (end - starts[i]) - 6


def fit_heading(texts: Texts, key: str, text: str, x: float, y: float, max_width: float, size: float) -> None:
    """A column's head, shrunk until it fits its column: a head cut short ("Goa…" against the next one) names no
    column. Only below the smallest size is it cut."""
    shrunk = shrunk_size(texts, key, text, max_width, size, bold=True)
    fit_text(texts, key, text, x, y, max_width, palette.TEXT_DIM, shrunk, bold=True)


def _cell_colour(column: str, row: StandingRow) -> palette.Colour:
    """A cell's colour: a rise green, a fall red, cards yellow, the name of a player out of the tournament dim, the
    rest as text."""
    if column == "name" and row.out:
        return palette.TEXT_DIM
    if column == "change":
        return UP if (row.change or 0) > 0 else DOWN if (row.change or 0) < 0 else palette.TEXT_DIM
    if column == "cards":
        return DOWN if row.red or row.suspended else YELLOW_CARD
    return palette.TEXT


def _x(area: Box, column: Column) -> float:
    """Where a column's text starts."""
    return area.left + 6 + (area.width - 12) * column.start


def _width(area: Box, columns: Sequence[Column], i: int) -> float:
    """The room of column ``i`` up to the next one."""
    end = columns[i + 1].start if i + 1 < len(columns) else 1.0
    return (area.width - 12) * (end - columns[i].start) - 6


def _chart(area: Box, columns: Sequence[Column], i: int, bottom: float, height: float, values: Sequence[int],
           scale_max: int) -> None:
    """A player's points after each round as a small line with a dot per round (nothing before two rounds seen:
    one dot says no more than the points column)."""
    if len(values) < 2:
        return
    width = max(4.0, _width(area, columns, i))
    left = _x(area, columns[i])
    arcade.draw_line(left, bottom, left + width, bottom, (90, 100, 115), 1)
    points = [(left + x, bottom + y) for x, y in chart_points(values, scale_max, width, height)]
    if len(points) > 1:
        arcade.draw_line_strip(points, palette.WARNING, 2)
    for x, y in points:
        arcade.draw_circle_filled(x, y, 2.5, palette.WARNING)


def draw_bracket(texts: Texts, key: str, area: Box, layout: BracketLayout, size: float = 11.0) -> None:
    """The knockout bracket in ``area``: a column per round, a box per match with both names (the winner lit)
    and the result, lines from each match to the one its winner went on to; the match for third place under the
    final."""
    if layout.columns == 0:
        return
    gap = 28.0
    box_w = min(320.0, (area.width - gap * (layout.columns - 1)) / layout.columns)
    box_h = min(size * 4.4, 60.0)
    heads = size + 14
    for column, title in enumerate(column_titles(layout)):
        fit_text(texts, f"{key}.column{column}", title, area.left + column * (box_w + gap) + 4, area.top - size - 2,
                 box_w - 8, palette.TEXT_DIM, size, bold=True)
    inside = Box(area.left, area.bottom, area.width, area.height - heads)
    places = [_slot_box(inside, slot, box_w, box_h, gap) for slot in layout.slots]
    for n, (slot, box) in enumerate(zip(layout.slots, places, strict=True)):
        if slot.kind == "third_place":
            fit_text(texts, f"{key}.third{n}", _("Match for third place"), box.left + 4, box.top + 6, box.width - 8,
                     palette.TEXT_DIM, size - 1)
    for source, target, side in layout.joins:
        a, b = places[source], places[target]
        start_x, start_y = a.left + a.width, a.bottom + a.height / 2
        end_y = b.bottom + b.height * (0.75 if side == "home" else 0.25)
        middle = start_x + gap / 2
        arcade.draw_line_strip([(start_x, start_y), (middle, start_y), (middle, end_y), (b.left, end_y)], JOIN, 2)
    for n, (slot, box) in enumerate(zip(layout.slots, places, strict=True)):
        _bracket_box(texts, f"{key}.{n}", slot, box, size)


def _slot_box(area: Box, slot: BracketSlot, width: float, height: float, gap: float) -> Box:
    """Where a bracket match's box goes."""
    left = area.left + slot.column * (width + gap)
    centre = area.bottom + height / 2 + (area.height - height) * slot.y
    return Box(left, centre - height / 2, width, height)


def _bracket_box(texts: Texts, key: str, slot: BracketSlot, box: Box, size: float) -> None:
    """One bracket match: two lines (home above away) with their goals, the winner in gold; a walkover or a
    shoot-out marked by the winner's goals."""
    edge = palette.WARNING if slot.kind == "final" else (110, 130, 160)
    arcade.draw_lbwh_rectangle_filled(box.left, box.bottom, box.width, box.height, palette.PANEL)
    arcade.draw_lbwh_rectangle_outline(box.left, box.bottom, box.width, box.height, edge, 2 if slot.kind == "final"
                                       else 1)
    arcade.draw_line(box.left + 4, box.bottom + box.height / 2, box.left + box.width - 4,
                     box.bottom + box.height / 2, (70, 80, 95), 1)
    goals_room = size * 5
    for side, name, goals, row in (("home", slot.home_name, slot.home_goals, 1),
                                   ("away", slot.away_name, slot.away_goals, 0)):
        colour = WINNER if slot.winner == side else palette.TEXT_DIM if slot.winner else palette.TEXT
        baseline = box.bottom + row * box.height / 2 + box.height / 4 - size / 2.6
        arcade.draw_lbwh_rectangle_filled(box.left, box.bottom + row * box.height / 2 + 4, 4, box.height / 2 - 8,
                                          palette.kit("home" if side == "home" else "away")[0])
        fit_text(texts, f"{key}.{side}", name, box.left + 10, baseline, box.width - 20 - goals_room, colour, size,
                 bold=slot.winner == side)
        mark = goals
        if slot.winner == side and slot.result and slot.result != f"{slot.home_goals}:{slot.away_goals}":
            mark = f"{goals} ●" if goals else slot.result  # a shoot-out's winner, or a walkover's
        fit_text(texts, f"{key}.{side}.goals", mark, box.left + box.width - 8, baseline, goals_room, colour, size,
                 "right", bold=True)


def draw_tile(texts: Texts, key: str, box: Box, tile: Tile, lit: bool = False, heading: str = "") -> None:
    """One table as a small board: the table's number (or ``heading``), a miniature board with both kits, the
    names on their sides, the score large, the part and time left, the status; lit when the pointer is on it."""
    arcade.draw_lbwh_rectangle_filled(box.left, box.bottom, box.width, box.height, palette.PANEL)
    arcade.draw_lbwh_rectangle_outline(box.left, box.bottom, box.width, box.height,
                                       palette.TEXT if lit else (110, 130, 160), 2 if lit else 1)
    text_size = max(9.0, min(14.0, box.height / 9))
    title = heading or f"#{tile.table}"
    fit_text(texts, f"{key}.title", title, box.left + 8, box.top - text_size - 6, box.width * 0.5,
             palette.WARNING, text_size, bold=True)
    fit_text(texts, f"{key}.status", tile.status_text, box.left + box.width - 8, box.top - text_size - 6,
             box.width * 0.5 - 16, palette.TEXT_DIM, text_size - 1, "right")
    board = Box(box.left + box.width * 0.18, box.bottom + box.height * 0.34, box.width * 0.64, box.height * 0.42)
    _mini_board(board)
    score = texts.get(f"{key}.score", tile.score, board.left + board.width / 2, board.bottom + board.height / 2,
                      palette.TEXT, text_size * 2, "center", "center", bold=True)
    arcade.draw_lbwh_rectangle_filled(score.left - 6, score.bottom - 2, score.content_width + 12,
                                      score.content_height + 4, (16, 20, 26, 200))
    texts.show(f"{key}.score")
    name_room = box.width * 0.48 - 10
    for side, name, x, anchor in (("home", tile.home_name, box.left + 8, "left"),
                                  ("away", tile.away_name, box.left + box.width - 8, "right")):
        colour = WINNER if tile.winner == side else palette.TEXT
        fit_text(texts, f"{key}.{side}", name, x, box.bottom + box.height * 0.08, name_room, colour, text_size,
                 anchor, bold=True)
        dot_x = box.left + box.width * (0.09 if side == "home" else 0.91)
        arcade.draw_circle_filled(dot_x, board.bottom + board.height / 2, min(10.0, box.height / 14),
                                  palette.kit("home" if side == "home" else "away")[0])
    when = "  ".join(part for part in (tile.part, tile.time_left) if part)
    fit_text(texts, f"{key}.when", when, box.left + box.width / 2, box.bottom + box.height * 0.21,
             box.width - 16, palette.WARNING, text_size - 1, "center")


def _mini_board(box: Box) -> None:
    """A small board: wood inside the boards, the red centre line, the blue lines, both goal lines and goals."""
    arcade.draw_lbwh_rectangle_filled(box.left - 3, box.bottom - 3, box.width + 6, box.height + 6, palette.BOARD_FRAME)
    arcade.draw_lbwh_rectangle_filled(box.left, box.bottom, box.width, box.height, palette.WOOD)
    middle = box.left + box.width / 2
    arcade.draw_line(middle, box.bottom, middle, box.bottom + box.height, palette.RED_LINE, 2)
    for fraction in (0.35, 0.65):
        x = box.left + box.width * fraction
        arcade.draw_line(x, box.bottom, x, box.bottom + box.height, palette.BLUE_LINE, 2)
    for fraction in (0.08, 0.92):
        x = box.left + box.width * fraction
        arcade.draw_line(x, box.bottom + 2, x, box.bottom + box.height - 2, palette.RED_LINE, 1)
        arcade.draw_lbwh_rectangle_outline(x - (6 if fraction < 0.5 else 0), box.bottom + box.height * 0.42, 6,
                                           box.height * 0.16, palette.GOAL_FRAME, 1)
