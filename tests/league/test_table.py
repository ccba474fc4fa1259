"""The league table and the players' lines: what they count, how they rank, what each row holds."""

from __future__ import annotations

from typing import Any

from shared.league.players import PlayerLine, player_lines
from shared.league.reading import read_league
from shared.league.table import TableRow, league_table_json, table
from tests.league.builders import doc, fixture, team

# Team scores of nine-game fixtures (team_size 3) as outcome strings: home wins, away wins, the rest drawn.


def _score(home: int, away: int) -> str:
    """Outcomes of a nine-game fixture with this team score (the rest drawn)."""
    return "A" * home + "B" * away + "D" * (9 - home - away)


def _league(*fixtures: tuple[str, str, str, str], teams: tuple[str, ...] = ("a", "b", "c", "d"),
            **fields: Any) -> dict[str, Any]:
    """Three-player teams and fixtures (id, home, away, outcomes)."""
    return doc([team(t, 3) for t in teams], [fixture(fid, h, a, o, size=3) for fid, h, a, o in fixtures], size=3,
               **fields)


def _ranks(value: dict[str, Any]) -> list[tuple[int, bool, str]]:
    """(rank, shared, team) of every row, top first."""
    return [(row.rank, row.shared, row.team) for row in table(read_league(value))]


def test_the_table_counts_finished_fixtures_only() -> None:
    """A fixture with a game still being played, or games missing, adds nothing to the table or the lines."""
    value = _league(("m1", "a", "b", _score(5, 2)), ("m2", "c", "d", _score(5, 2)[:-1] + "."),
                    ("m3", "b", "d", _score(1, 2)[:-1]))
    rows = {row.team: row for row in table(read_league(value))}
    assert (rows["a"].played, rows["b"].played, rows["c"].played, rows["d"].played) == (1, 1, 0, 0)
    assert {line.team for line in player_lines(read_league(value))} == {"a", "b"}


def test_every_team_has_a_row_before_it_plays() -> None:
    """A team without a finished fixture has a row of zeros, sharing the rank of the others at zero."""
    assert table(read_league(_league(teams=("b", "a")))) == (
        TableRow(rank=1, shared=True, team="a", played=0, wins=0, draws=0, losses=0, games_for=0, games_against=0,
                 points=0),
        TableRow(rank=1, shared=True, team="b", played=0, wins=0, draws=0, losses=0, games_for=0, games_against=0,
                 points=0),
    )


def test_a_row_counts_wins_draws_losses_team_scores_and_points() -> None:
    """Two fixtures of team a: won 5:2 and drawn 3:3 — played 2, 1/1/0, 8:5, 3 points (2/1/0)."""
    value = _league(("m1", "a", "b", _score(5, 2)), ("m2", "c", "a", _score(3, 3)))
    (row,) = [r for r in table(read_league(value)) if r.team == "a"]
    assert (row.played, row.wins, row.draws, row.losses, row.games_for, row.games_against, row.points) == (
        2, 1, 1, 0, 8, 5, 3)


def test_teams_are_ranked_by_points_then_difference_then_games_for() -> None:
    """Winners a 6:1, c 4:2, e 5:3 and their losers: a (+5) above e and c (+2), e (5 games) above c (4); among
    the losers f (-2, 3 games) above d (-2, 2 games) above b (-5)."""
    value = _league(("m1", "a", "b", _score(6, 1)), ("m2", "c", "d", _score(4, 2)), ("m3", "e", "f", _score(5, 3)),
                    teams=("a", "b", "c", "d", "e", "f"))
    assert _ranks(value) == [(1, False, "a"), (2, False, "e"), (3, False, "c"), (4, False, "f"), (5, False, "d"),
                             (6, False, "b")]


def test_the_mini_table_separates_teams_level_on_the_three_criteria() -> None:
    """a and b level on points (2), difference (0) and games_for (7); a beat b: a above b, neither shared."""
    value = _league(("m1", "a", "b", _score(4, 3)), ("m2", "c", "a", _score(4, 3)), ("m3", "b", "d", _score(4, 3)),
                    ("m4", "c", "d", _score(0, 0)))
    rows = {r.team: r for r in table(read_league(value))}
    assert (rows["a"].points, rows["a"].games_for, rows["a"].games_against) == (2, 7, 7)
    assert (rows["b"].points, rows["b"].games_for, rows["b"].games_against) == (2, 7, 7)
    assert _ranks(value) == [(1, False, "c"), (2, False, "a"), (3, False, "b"), (4, False, "d")]


def test_the_mini_table_is_applied_once_not_again_to_a_subgroup() -> None:
    """Four teams level on the three criteria; their mini-table gives w 4, x 3, y 3, z 2; x beat y, yet the
    mini-table is not applied again to x and y: they share a rank (the golden ``ties`` case's numbers)."""
    scores = [("t1", "x", "y", 3, 1), ("t2", "w", "z", 1, 0), ("t3", "w", "x", 3, 1), ("t4", "z", "e", 4, 3),
              ("t5", "x", "z", 2, 2), ("t6", "y", "e", 0, 0), ("t7", "y", "w", 5, 3), ("t8", "x", "e", 4, 4),
              ("t9", "z", "y", 4, 4), ("t10", "e", "w", 4, 3)]
    value = _league(*[(fid, h, a, _score(sh, sa)) for fid, h, a, sh, sa in scores],
                    teams=("e", "w", "x", "y", "z"))
    assert _ranks(value) == [(1, False, "e"), (2, False, "w"), (3, True, "x"), (3, True, "y"), (5, False, "z")]


def test_teams_level_on_everything_share_the_first_place_of_their_group() -> None:
    """a and b level on every criterion (their fixture drawn, both beat c 5:1) share rank 1 with ``shared`` on
    both; c's rank counts them both (1, 1, 3)."""
    value = _league(("m1", "a", "b", _score(4, 4)), ("m2", "a", "c", _score(5, 1)), ("m3", "c", "b", _score(1, 5)),
                    teams=("a", "b", "c"))
    assert _ranks(value) == [(1, True, "a"), (1, True, "b"), (3, False, "c")]


def test_teams_sharing_a_rank_are_listed_by_team_id() -> None:
    """Whatever the order of ``teams`` in the file, teams sharing a rank come in the order of their ids."""
    for order in (("d", "c", "b", "a"), ("b", "d", "a", "c")):
        value = _league(("m1", "c", "a", _score(2, 2)), ("m2", "d", "b", _score(2, 2)), teams=order)
        assert [team for _, _, team in _ranks(value)] == ["a", "b", "c", "d"]


def test_every_number_is_a_setting() -> None:
    """team_size 2 (four games a fixture) and 3/1/0 points: a win is worth 3."""
    value = doc([team("a", 2), team("b", 2)], [fixture("m1", "a", "b", "AABD", size=2)],
                settings={"team_size": 2, "points": {"win": 3, "draw": 1, "loss": 0}})
    rows = table(read_league(value))
    assert [(r.team, r.points, r.games_for, r.games_against) for r in rows] == [("a", 3, 2, 1), ("b", 0, 1, 2)]


def test_the_table_object_holds_the_contracts_fields_in_order() -> None:
    """``sprtec-league-table/1``: table rows (rank … points) and players' lines (player … lost)."""
    printed = league_table_json(read_league(_league(("m1", "a", "b", _score(5, 2)))))
    assert list(printed) == ["format", "table", "players"] and printed["format"] == "sprtec-league-table/1"
    assert list(printed["table"][0]) == ["rank", "shared", "team", "played", "wins", "draws", "losses",
                                         "games_for", "games_against", "points"]
    assert list(printed["players"][0]) == ["player", "team", "games", "won", "drawn", "lost"]


# ------------------------------------------------------------------------------------------------ players


def test_players_lists_every_player_named_in_a_game_of_a_finished_fixture() -> None:
    """Six players of a 3×3 fixture, each with three games; a roster player left out has no line."""
    lines = player_lines(read_league(doc([team("a", 4), team("b", 3)], [fixture("m1", "a", "b", "ABDDDDDDD",
                                                                                   size=3)], size=3)))
    assert sorted(line.player for line in lines) == ["a1", "a2", "a3", "b1", "b2", "b3"]
    assert all(line.games == 3 for line in lines)
    assert PlayerLine(player="a1", team="a", games=3, won=1, drawn=2, lost=0) in lines


def test_a_walkover_counts_as_a_game_won_or_lost() -> None:
    """b1 does not show for round 1: a1 has a game won, b1 a game lost (as if played)."""
    lines = {line.player: line for line in player_lines(read_league(_league(("m1", "a", "b", "aDDDDDDDD"))))}
    assert (lines["a1"].games, lines["a1"].won, lines["b1"].games, lines["b1"].lost) == (3, 1, 3, 1)


def test_players_are_ordered_by_games_won_then_fewer_games_then_id() -> None:
    """a1-a3 and c1 won one game in six: by id. Then the players without a win: those of three games (b, d)
    before c2 and c3 of six."""
    value = _league(("m1", "a", "b", "AAADDDDDD"), ("m2", "c", "a", "DDDDDDDDD"), ("m3", "c", "d", "ADDDDDDDD"))
    lines = player_lines(read_league(value))
    assert [line.player for line in lines] == ["a1", "a2", "a3", "c1", "b1", "b2", "b3", "d1", "d2", "d3", "c2",
                                               "c3"]
    assert [(line.won, line.games) for line in lines][3:5] == [(1, 6), (0, 3)]


def test_a_teams_players_won_its_games_for() -> None:
    """The lines and the table describe the same finished fixtures: a team's players' won games add up to its
    games_for, their lost games to its games_against."""
    value = _league(("m1", "a", "b", "ABDabADBA"), ("m2", "c", "a", "BBBAADDab"), ("m3", "b", "c", "ABABAB..."))
    league = read_league(value)
    lines = player_lines(league)
    for row in table(league):
        assert sum(line.won for line in lines if line.team == row.team) == row.games_for
        assert sum(line.lost for line in lines if line.team == row.team) == row.games_against
