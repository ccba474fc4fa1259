"""The final ranking as the screens show it, without a screen: the whole field or one category ranked by its own
places, the winner of each category marked, cup points, the category beside every name, the hall's ranking pages,
the desk's views and its round tools (which ask first, with the safe answer lit)."""

from __future__ import annotations

from dataclasses import replace

from client.common.ranking_model import (
    categories_of,
    own_ranking_line,
    ranking_categories,
    ranking_cells,
    ranking_columns,
    ranking_heading,
    ranking_rows,
    with_category,
)
from client.common.tournament_model import entry_names, standing_rows, tiles_of
from client.desk.desk_model import DeskModel
from client.hall.hall_model import Shown, pages_of
from client.player.tournament_session import TournamentSession
from shared.protocol import (
    EntryForm,
    EntryLine,
    RankingLine,
    RegisterEntries,
    StandingLine,
    SwapEntries,
    TableLine,
    TakeBackRound,
    TournamentUpdate,
)

PLAYERS = (("a", "Jan Novák", "M", 1, 1, True), ("b", "Eva Malá", "L", 2, 1, True),
           ("c", "Petr Mladý", "J", 3, 1, True), ("d", "Karel Starý", "M", 4, 2, False),
           ("e", "Ota Nový", "?", 5, 1, False))


def _update(**fields: object) -> TournamentUpdate:
    """A finished ČP24 tournament of five: two men, a woman, a junior and one without a category."""
    entries = tuple(EntryLine(entry=e, name=n, club="SK", category="", rating=None, claimed=True, checked_in=True,
                              out=False, cup_category=c) for e, n, c, *_rest in PLAYERS)
    ranking = tuple(RankingLine(rank=r, shared=False, entry=e, name=n, club="SK", category=c, category_rank=cr,
                                category_winner=w, stage=0, cup_points=140 - 10 * r, out=False)
                    for e, n, c, r, cr, w in PLAYERS)
    standings = tuple(StandingLine(rank=r, shared=False, entry=e, name=n, points=9 - r, played=3, wins=1, draws=0,
                                   losses=2, byes=0, goals_for=5, goals_against=4, tiebreaks={}, yellow=0, red=0,
                                   suspended_next=False) for e, n, _c, r, _cr, _w in PLAYERS)
    update = TournamentUpdate(tournament="T", name="Český pohár", sequence=1, version=9, status="finished",
                              system="swiss", stage=0, round=3, standings_stage=0, after_round=3, complete=True,
                              entries=entries, standings=standings, tables=(), byes=(), bracket=(), cards=(),
                              suspended=(), cases=(), audit=(), date="2026-03-14", cup_tier="cp24", season=2026,
                              cup_field=5, ranking=ranking)
    return replace(update, **fields)  # type: ignore[arg-type]


def test_the_ranking_of_a_category_is_ranked_by_its_own_places_its_winner_marked() -> None:
    """The whole field by overall place; the men by their place among men; the winner starred, cup points shown."""
    update = _update()
    everybody = ranking_rows(update)
    assert [r.rank_text for r in everybody] == ["1.", "2.", "3.", "4.", "5."]
    men = ranking_rows(update, "M")
    assert [(r.name, r.rank_text, r.winner) for r in men] == [("Jan Novák", "1.", True), ("Karel Starý", "2.", False)]
    columns = ranking_columns(cup=True)
    assert ranking_cells(men[0], columns) == ("1.", "★ Jan Novák", "SK", "M 1.", "130")
    assert ranking_cells(everybody[4], columns)[3] == "?"
    assert [c.key for c in ranking_columns(cup=False)] == ["rank", "name", "club", "category"]
    assert ranking_categories(update) == ("L", "J", "M")
    assert ranking_heading(update, "J") == "Final ranking — juniors (J)  ·  Czech Cup ČP24, 5 ranked"
    assert own_ranking_line(update, "c") == "You are 3. overall, 1. of juniors (J) — 110 Czech Cup points"


def test_every_name_has_its_category_beside_it_where_the_tournament_has_categories() -> None:
    """Standings and tiles name each player with his category; a tournament without categories names them bare."""
    update = _update(tables=(TableLine(table=1, home="a", away="b", home_name="Jan Novák", away_name="Eva Malá",
                                       kind="match", ruleset="standard", status="waiting"),))
    assert standing_rows(update)[1].name == "Eva Malá · L"
    tile = tiles_of(update)[0]
    assert (tile.home_name, tile.away_name) == ("Jan Novák · M", "Eva Malá · L")
    assert entry_names(update)["c"] == "Petr Mladý · J"  # the bracket's, the hall's cards and byes
    session = TournamentSession("T", entry="a")
    session.apply(update, 0.0)
    assert session.with_category("Eva Malá") == "Eva Malá · L"  # "you play Eva Malá · L (home, red)"
    bare = _update(entries=tuple(replace(e, cup_category="?") for e in update.entries))
    assert categories_of(bare) == {} and standing_rows(bare)[1].name == "Eva Malá"
    assert with_category("X", "") == "X"


def test_the_hall_shows_the_ranking_and_a_page_per_category() -> None:
    """After the standings: the ranking of everybody, then each category's (in the contract's order)."""
    pages = pages_of(_update())
    assert pages[:5] == [Shown("standings"), Shown("ranking"), Shown("ranking", category="L"),
                         Shown("ranking", category="J"), Shown("ranking", category="M")]
    assert pages[2].title() == "Ranking: women (L)" and pages[2].short() == "L"
    assert Shown("ranking") not in pages_of(_update(ranking=()))
    playing = _update(status="playing", complete=False)  # one stage being played: the standings say it all
    assert Shown("ranking") not in pages_of(playing)
    assert Shown("ranking") in pages_of(replace(playing, standings_stage=1))  # a later stage: the ranking differs


def test_the_desk_shows_a_view_per_category_and_registers_the_czech_cup_fields() -> None:
    """The ranking screen offers everybody and each category; the registration form sends year, sex, veteran;
    a year of birth in the future cannot be registered."""
    model = DeskModel(server="ws://x/", tournament="T", secret="s")
    model.update = _update()
    model.activate("screen:ranking")
    assert [i.command for i in model.items()] == ["view:", "view:L", "view:J", "view:M", "back"]
    model.activate("view:J")
    assert model.form["view"] == "J" and any(i.label == "J  ✓" for i in model.items())
    model.activate("screen:register")
    model.form.update(name="Eva Malá", born="2011")
    model.activate("cycle:sex")
    model.activate("cycle:sex")
    model.activate("cycle:veteran")
    assert "Czech Cup category in 2026: veterans (V)" in [i.label for i in model.items()]
    model.activate("register")
    assert model.pending is not None and isinstance(model.pending.request, RegisterEntries)
    (form,) = model.pending.request.entries
    assert form == EntryForm("Eva Malá", year_of_birth=2011, sex="f", veteran=True)
    model.activate("back")
    model.activate("screen:register")
    model.form.update(name="Baby", born="2999")
    assert not next(i for i in model.items() if i.command == "register").enabled


def test_the_round_tools_ask_first_and_are_there_only_before_the_matches_begin() -> None:
    """Swap and take back: offered while every table waits, each a confirmation with "No, back" lit, sending the
    request with the reason; once a match is played the home screen offers them no more."""
    waiting = tuple(TableLine(table=n, home=h, away=a, home_name=h, away_name=a, kind="match", ruleset="standard",
                              status="waiting") for n, h, a in ((1, "a", "b"), (2, "c", "d")))
    model = DeskModel(server="ws://x/", tournament="T", secret="s")
    model.update = _update(status="playing", complete=False, tables=waiting, byes=("e",), round=2)
    assert next(i for i in model.items() if i.command == "screen:round").enabled
    model.activate("screen:round")
    model.form["reason"] = "brothers"
    model.activate("cycle:second")  # first a (table 1's home), second c (table 2's home)
    model.activate("swap")
    focused = model.focused()
    assert model.screen == "confirm" and focused is not None and focused.command == "back"
    assert model.pending is not None
    assert model.pending.request == SwapEntries(tournament="T", secret="s", first="a", second="c", reason="brothers")
    model.activate("back")
    model.activate("take-back")
    assert model.pending is not None
    assert model.pending.request == TakeBackRound(tournament="T", secret="s", reason="brothers", stage=0, round=2)
    model.activate("back")
    model.update = _update(status="playing", complete=False, round=2,
                           tables=(replace(waiting[0], status="playing"), waiting[1]))
    model.screen = "home"
    assert not next(i for i in model.items() if i.command == "screen:round").enabled


def test_a_long_ranking_takes_pages_on_the_hall_and_on_the_desk() -> None:
    """Forty ranked: the hall shows everybody in pages of RANKING_ROWS, the desk a page at a time with its pager."""
    from client.desk import desk_cup
    from client.hall.hall_model import RANKING_ROWS

    lines = tuple(RankingLine(rank=n, shared=False, entry=f"p{n}", name=f"P{n}", club="", category="M",
                              category_rank=n, category_winner=n == 1, stage=0, cup_points=100 - n, out=False)
                  for n in range(1, 41))
    update = _update(ranking=lines)
    parts = [p for p in pages_of(update) if p.page == "ranking" and not p.category]
    assert [p.part for p in parts] == list(range(-(-40 // RANKING_ROWS)))
    assert parts[1].title() == "Ranking (2)" and [p.short() for p in pages_of(update) if p.category][:2] == ["M", "M2"]
    model = DeskModel(server="ws://x/", tournament="T", secret="s")
    model.update = update
    model.activate("screen:ranking")
    assert [r.entry for r in desk_cup.ranking_page(model)][:1] == ["p1"]
    model.activate("page:1")
    assert desk_cup.ranking_page(model)[0].entry == f"p{desk_cup.RANKING_ROWS + 1}"
    assert any(i.command == "page:1" for i in model.items())
