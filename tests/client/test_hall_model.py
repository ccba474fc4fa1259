"""The hall's cycle without a screen: which pages a tournament has, each page in turn for its seconds, every table
being played watched longer, a table that ends left at once, and a page a person chose held a while."""

from __future__ import annotations

from dataclasses import replace

from client.hall.hall_model import HOLD_S, PAGE_S, TABLE_S, HallCycle, Shown, pages_of
from shared.protocol import BracketLine, CardLine, TableLine, TournamentUpdate


def _table(number: int, status: str, room: str | None) -> TableLine:
    """Table ``number`` of the round."""
    return TableLine(table=number, home=f"h{number}", away=f"a{number}", home_name="A", away_name="B", kind="match",
                     ruleset="standard", status=status, room=room)


def _update(**fields: object) -> TournamentUpdate:
    """A Swiss tournament in round 2 with two tables being played and one ended."""
    update = TournamentUpdate(tournament="T", name="Cup", sequence=1, version=1, status="playing", system="swiss",
                              stage=0, round=2, standings_stage=0, after_round=1, complete=False, entries=(),
                              standings=(), tables=(_table(1, "playing", "R1"), _table(2, "ended", "R2"),
                                                    _table(3, "playing", "R3")),
                              byes=(), bracket=(), cards=(), suspended=(), cases=(), audit=())
    return replace(update, **fields)  # type: ignore[arg-type]


def test_a_tournament_has_the_pages_it_can_fill() -> None:
    """Standings and tables always (while a round has tables); the bracket and the cards only when there are
    some; then each table being played."""
    assert pages_of(_update()) == [Shown("standings"), Shown("tables"), Shown("table", "R1", 1),
                                   Shown("table", "R3", 3)]
    knockout = _update(bracket=(BracketLine(round=1, kind="match", home="a", away="b"),),
                       cards=(CardLine(0, 1, "a", "yellow", "late"),), tables=())
    assert pages_of(knockout) == [Shown("standings"), Shown("bracket"), Shown("cards")]
    assert pages_of(None) == [Shown("standings")]


def test_left_alone_the_hall_goes_round_its_pages_and_tables() -> None:
    """Each page for PAGE_S, each table being played for TABLE_S, then the standings again."""
    cycle, update = HallCycle(), _update()
    now = 0.0
    seen = [cycle.tick(now, update)]
    for _step in range(4):
        now += cycle.duration()
        seen.append(cycle.tick(now, update))
    assert seen == [Shown("standings"), Shown("tables"), Shown("table", "R1", 1), Shown("table", "R3", 3),
                    Shown("standings")]
    assert cycle.tick(now + PAGE_S - 0.1, update) == Shown("standings")


def test_a_table_that_ends_is_left_for_the_next_one() -> None:
    """While table 1 is watched its match ends: the hall goes on to table 3 at once, not after TABLE_S."""
    cycle, update = HallCycle(), _update()
    cycle.hold(Shown("table", "R1", 1), 0.0)
    cycle.held_until = 0.0
    over = replace(update, tables=(_table(1, "ended", "R1"), update.tables[1], update.tables[2]))
    assert cycle.tick(1.0, over) == Shown("table", "R3", 3)
    assert cycle.tick(1.0 + TABLE_S - 0.1, over) == Shown("table", "R3", 3)


def test_a_page_chosen_by_hand_is_held_then_the_cycle_goes_on() -> None:
    """→ from the standings shows the tables and keeps them for HOLD_S; after that the cycle moves on."""
    cycle, update = HallCycle(), _update()
    cycle.tick(0.0, update)
    assert cycle.choose(1, 1.0, update) == Shown("tables")
    assert cycle.tick(1.0 + HOLD_S - 0.1, update) == Shown("tables")
    assert cycle.tick(1.0 + HOLD_S, update) == Shown("table", "R1", 1)
    assert cycle.choose(-1, 2.0 + HOLD_S, update) == Shown("tables")
