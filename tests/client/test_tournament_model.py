"""The tournament's pictures as numbers and words: standings rows with tie-breaks, rank changes and points by round
from the updates seen, the bracket laid out as a bracket, and the table tiles and their grid."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from client.common.tournament_model import (
    Box,
    StandingsHistory,
    bracket_layout,
    chart_points,
    rank_change_text,
    row_cells,
    standing_rows,
    standings_columns,
    tiebreak_names,
    tile_at,
    tile_grid,
    tile_of,
    tiles_of,
)
from shared.protocol import BracketLine, EntryLine, Score, StandingLine, TableLine, TournamentUpdate

NAMES = {"a": "Novák", "b": "Dvořák", "c": "Svoboda", "d": "Kowalski"}


def _line(entry: str, rank: int, points: int, shared: bool = False, **tiebreaks: int) -> StandingLine:
    """A standings line of ``entry``."""
    return StandingLine(rank=rank, shared=shared, entry=entry, name=NAMES[entry], points=points, played=2, wins=1,
                        draws=0, losses=1, byes=0, goals_for=4, goals_against=3, tiebreaks=tiebreaks, yellow=0,
                        red=0, suspended_next=False)


def _update(after_round: int, standings: tuple[StandingLine, ...], **fields: object) -> TournamentUpdate:
    """An update of a Swiss tournament after ``after_round``."""
    entries = tuple(EntryLine(entry=e, name=n, club="", category="", rating=None, claimed=True, checked_in=True,
                              out=False) for e, n in NAMES.items())
    update = TournamentUpdate(tournament="T1", name="Cup", sequence=after_round, version=after_round,
                              status="between", system="swiss", stage=0, round=after_round, standings_stage=0,
                              after_round=after_round, complete=False, entries=entries, standings=standings,
                              tables=(), byes=(), bracket=(), cards=(), suspended=(), cases=(), audit=())
    return replace(update, **fields)  # type: ignore[arg-type]


def test_rank_change_is_shown_as_arrows() -> None:
    """A rise reads ▲n, a fall ▼n, no change =, and nothing while the previous round is unknown."""
    assert [rank_change_text(c) for c in (2, -1, 0, None)] == ["▲2", "▼1", "=", ""]


def test_rank_change_and_points_by_round_come_from_the_rounds_seen() -> None:
    """After two rounds seen, each row says how many places it moved and its points after each round."""
    history = StandingsHistory()
    first = _update(1, (_line("a", 1, 2), _line("b", 2, 2), _line("c", 3, 0)))
    second = _update(2, (_line("c", 1, 4), _line("a", 2, 2), _line("b", 3, 2)))
    history.absorb(first)
    history.absorb(second)
    rows = {row.entry: row for row in standing_rows(second, history)}
    assert (rows["c"].change, rows["a"].change, rows["b"].change) == (2, -1, -1)
    assert rows["c"].points_by_round == (0, 4)
    assert rows["a"].points_by_round == (2, 2)


def test_a_client_that_missed_the_previous_round_shows_no_change() -> None:
    """Watching from round 3 on, the rank change is unknown rather than guessed."""
    history = StandingsHistory()
    third = _update(3, (_line("a", 1, 6), _line("b", 2, 4)))
    history.absorb(third)
    assert [row.change for row in standing_rows(third, history)] == [None, None]


def test_shared_ranks_are_written_once() -> None:
    """Two players sharing second place: the rank is written on the first of them only."""
    rows = standing_rows(_update(1, (_line("a", 1, 4), _line("b", 2, 2, shared=True), _line("c", 2, 2, shared=True))))
    assert [row.rank_text for row in rows] == ["1.", "2.", ""]


def test_a_player_out_of_the_tournament_keeps_his_line_marked_out() -> None:
    """A withdrawn or disqualified player stays in the standings with his points, his name marked "(out)"; the
    others' names are as they are."""
    update = _update(2, (_line("a", 1, 4), _line("b", 2, 2)))
    entries = tuple(replace(entry, out=entry.entry == "b") for entry in update.entries)
    rows = {row.entry: row for row in standing_rows(replace(update, entries=entries))}
    assert rows["b"].out and not rows["a"].out and rows["b"].points == 2
    columns = standings_columns(())
    name_at = [column.key for column in columns].index("name")
    assert row_cells(rows["b"], columns)[name_at] == "Dvořák (out)"
    assert row_cells(rows["a"], columns)[name_at] == "Novák"


def test_tiebreak_columns_follow_the_contract_order() -> None:
    """Swiss tie-breaks come as Buchholz, capped goals, Buchholz of Buchholz whatever the map's order."""
    lines = (_line("a", 1, 2, buchholz2=9, goals_capped=3, buchholz=4),)
    assert tiebreak_names(lines) == ("buchholz", "goals_capped", "buchholz2")
    columns = standings_columns(tiebreak_names(lines))
    cells = dict(zip((c.key for c in columns), row_cells(standing_rows(_update(1, lines))[0], columns), strict=True))
    assert (cells["tb:buchholz"], cells["tb:goals_capped"], cells["tb:buchholz2"]) == ("4", "3", "9")
    assert cells["name"] == "Novák" and cells["goals"] == "4:3" and cells["record"] == "1-0-1"


@given(st.lists(st.sampled_from(("buchholz", "goals_capped", "buchholz2", "mini_points", "goals_for")),
                unique=True, max_size=5))
def test_standings_columns_start_in_order_inside_the_table(names: list[str]) -> None:
    """Every column starts after the one before it and inside the table, however many tie-breaks there are."""
    starts = [c.start for c in standings_columns(names)]
    assert starts == sorted(starts) and len(set(starts)) == len(starts)
    assert 0.0 <= starts[0] and starts[-1] < 1.0


@given(st.lists(st.integers(0, 40), min_size=1, max_size=12), st.integers(0, 40))
def test_the_points_chart_stays_in_its_box(values: list[int], top: int) -> None:
    """The chart's points lie inside its box, left to right, one per round."""
    points = chart_points(values, max(top, max(values)), 100.0, 20.0)
    assert len(points) == len(values)
    assert all(0 <= x <= 100 and 0 <= y <= 20 for x, y in points)
    assert [x for x, _y in points] == sorted(x for x, _y in points)


def _table(number: int, status: str, **fields: object) -> TableLine:
    """Table ``number`` of the round between a and b."""
    return TableLine(table=number, home="a", away="b", home_name="Novák", away_name="Dvořák", kind="match",
                     ruleset="standard", status=status, **fields)  # type: ignore[arg-type]


def test_a_playing_table_shows_score_part_and_time_left() -> None:
    """A table being played: its score, its part in words and the part's time left, clickable to watch."""
    tile = tile_of(_table(7, "playing", room="ABC123", score=Score(2, 1), part="period 2", part_ms=125_000))
    assert (tile.score, tile.part, tile.time_left, tile.live) == ("2:1", "Period 2", "2:05", True)


def test_a_decided_table_names_its_winner() -> None:
    """An ended table lights the coach who won; a walkover says who won it, and in its score that it was one;
    neither is live."""
    ended = tile_of(_table(1, "ended", room="R1", score=Score(0, 3)))
    walkover = tile_of(_table(2, "walkover", walkover="home"))
    assert (ended.winner, ended.live) == ("away", False)
    assert walkover.winner == "home"
    assert walkover.score == "w/o"  # not "–:–", which reads as a match not played yet


def test_a_waiting_table_counts_down_to_the_walkover() -> None:
    """A table whose coaches are coming shows the time left before the missing one loses by walkover."""
    assert tile_of(_table(3, "waiting", room="R3", no_show_ms=61_000)).time_left == "1:01"


def test_tiles_come_by_table_number() -> None:
    """The tiles of an update are in table order whatever the update's order."""
    update = _update(1, (), tables=(_table(2, "waiting", room="R2"), _table(1, "waiting", room="R1")))
    assert [t.table for t in tiles_of(update)] == [1, 2]


@given(st.integers(1, 40), st.floats(300, 2000), st.floats(200, 1200))
def test_tiles_never_overlap_and_stay_inside(count: int, width: float, height: float) -> None:
    """However many tables, the grid's tiles lie inside their area and never overlap."""
    area = Box(10.0, 20.0, width, height)
    boxes = tile_grid(area, count)
    assert len(boxes) == count
    for i, a in enumerate(boxes):
        assert a.left >= area.left - 1e-6 and a.left + a.width <= area.left + area.width + 1e-6
        assert a.bottom >= area.bottom - 1e-6 and a.top <= area.top + 1e-6
        for b in boxes[i + 1:]:
            assert not (a.left < b.left + b.width - 1e-6 and b.left < a.left + a.width - 1e-6
                        and a.bottom < b.top - 1e-6 and b.bottom < a.top - 1e-6)


def test_a_click_on_a_tile_finds_its_table() -> None:
    """The pixel in a tile's box finds that tile; one between tiles finds none."""
    tiles = (tile_of(_table(1, "playing", room="R1")), tile_of(_table(2, "playing", room="R2")))
    boxes = tile_grid(Box(0, 0, 1000, 400), 2)
    second = boxes[1]
    found = tile_at(boxes, tiles, second.left + 5, second.bottom + 5)
    assert found is not None and found.table == 2
    assert tile_at(boxes, tiles, boxes[0].left + boxes[0].width + 5, boxes[0].bottom + 5) is None


def _bm(number: int, home: str, away: str, winner: str | None = None, kind: str = "match") -> BracketLine:
    """A knockout match of round ``number``."""
    score = None if winner is None else Score(2, 1) if winner == home else Score(0, 1)
    return BracketLine(round=number, kind=kind, home=home, away=away, score=score, winner=winner)


def test_the_bracket_puts_each_match_between_the_two_it_came_from() -> None:
    """Four players: the semi-finals one above the other, the final level between them, joined to both."""
    layout = bracket_layout((_bm(1, "a", "d", "a"), _bm(1, "b", "c", "c"), _bm(2, "a", "c", kind="final"),
                             _bm(2, "d", "b", kind="third_place")), NAMES)
    semi_a, semi_b, final, third = layout.slots
    assert layout.columns == 2
    assert semi_a.y > semi_b.y and final.y == (semi_a.y + semi_b.y) / 2
    assert (final.column, final.home_name) == (1, "Novák")
    assert set(layout.joins) == {(0, 2, "home"), (1, 2, "away")}
    assert third.kind == "third_place" and third.y < min(semi_a.y, semi_b.y)
    assert semi_a.winner == "home" and semi_b.winner == "away" and semi_a.result == "2:1"


def test_a_bracket_before_its_results_has_one_column() -> None:
    """Before any result the first round alone is drawn, evenly from the top, with no lines."""
    layout = bracket_layout((_bm(1, "a", "d"), _bm(1, "b", "c")))
    assert layout.columns == 1 and layout.joins == ()
    assert [slot.y for slot in layout.slots] == [0.75, 0.25]


def test_a_bracket_column_is_named_by_the_rounds_still_to_come() -> None:
    """Four players before any result: their column is the semi-finals (the hall called it "Final"); with the
    final paired, semi-finals and final; eight players' first round alone, the quarter-finals."""
    from client.common.tournament_model import column_titles

    assert column_titles(bracket_layout((_bm(1, "a", "d"), _bm(1, "b", "c")))) == ("Semi-finals",)
    paired = (_bm(1, "a", "d", "a"), _bm(1, "b", "c", "c"), _bm(2, "a", "c", kind="final"))
    assert column_titles(bracket_layout(paired)) == ("Semi-finals", "Final")
    eight = tuple(_bm(1, f"h{i}", f"a{i}") for i in range(4))
    assert column_titles(bracket_layout(eight)) == ("Quarter-finals",)
    three = (_bm(1, "b", "c"),)  # three players: one match and a bye, the final next
    assert column_titles(bracket_layout(three)) == ("Semi-finals",)
