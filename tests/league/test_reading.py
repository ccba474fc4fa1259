"""Reading and writing a league file: defaults, strictness, the checks in the contract's order, canonical bytes."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from shared.league.checks import check
from shared.league.errors import LeagueError
from shared.league.model import Fixture, Game, League, LeagueSettings, Lineups, Player, Team
from shared.league.reading import parse, read_league
from shared.league.writing import dumps, to_json
from shared.tournament.model import Points
from tests.league.builders import code_of, doc, fixture, games, message_of, roster, team


def _three(outcomes: str | None = "", **m1: Any) -> dict[str, Any]:
    """Two teams of four players, team_size 3, one fixture m1 (a v b) with these outcomes."""
    return doc([team("a", 4), team("b", 4)], [fixture("m1", "a", "b", outcomes, size=3, **m1)], size=3)


# ------------------------------------------------------------------------------------------------ the file


def test_a_minimal_league_takes_every_default_of_the_contract() -> None:
    """No fields at all: name "", season null, seed 0, team_size 5, points 2/1/0, ruleset standard, no teams."""
    league = read_league({})
    assert league == League(name="", season=None, seed=0, settings=LeagueSettings(team_size=5,
                            points=Points(win=2, draw=1, loss=0), ruleset="standard"), teams=(), fixtures=())
    partial = read_league({"settings": {"points": {"win": 3}}, "teams": [{"id": "t", "name": "T"}]})
    assert partial.settings.points == Points(win=3, draw=1, loss=0)
    assert partial.teams == (Team(id="t", name="T", club="", players=()),)


def test_the_contracts_example_reads() -> None:
    """The file shown in TOURNAMENT.md "Team competitions", its rosters and games completed, reads as written."""
    people = [{"id": p, "name": p.upper()} for p in roster("p", 5)]
    others = [{"id": q, "name": q.upper()} for q in roster("q", 5)]
    value = {"format": "sprtec-league/1", "name": "2. liga družstev — Praha", "season": 2026, "seed": 7,
             "settings": {"team_size": 5, "points": {"win": 2, "draw": 1, "loss": 0}, "ruleset": "standard"},
             "teams": [{"id": "most", "name": "BHC Most", "club": "BHC Most", "players": people},
                       {"id": "brno", "name": "SK Brno", "players": others},
                       {"id": "kladno", "name": "SK Kladno"}],
             "fixtures": [{"id": "m1", "day": 1, "home": "most", "away": "brno", "referee_team": "kladno",
                           "lineups": {"home": roster("p", 5), "away": roster("q", 5)},
                           "games": [{"round": 1, "home": "p1", "away": "q1", "score": [2, 1]}]}]}
    league = read_league(value)
    assert league.season == 2026 and league.seed == 7 and league.fixture("m1").referee_team == "kladno"
    assert league.fixture("m1").games == (Game(round=1, home="p1", away="q1", score=(2, 1)),)


BAD_FORMAT_CASES = [
    ({"formats": "x"}, "formats"),
    ({"format": "sprtec-tournament/1"}, "format"),
    ({"settings": {"team_sise": 3}}, "team_sise"),
    ({"settings": {"points": {"won": 3}}}, "won"),
    ({"settings": {"team_size": 0}}, "settings.team_size"),
    ({"settings": {"ruleset": "rugby"}}, "settings.ruleset"),
    ({"season": "2026"}, "season"),
    ({"seed": 1.5}, "seed"),
    ({"teams": [{"id": "a", "name": "A", "colour": "red"}]}, "colour"),
    ({"teams": [{"id": "a b", "name": "A"}]}, "teams[0].id"),
    ({"teams": [{"id": "a"}]}, "teams[0]"),
    ({"teams": [{"id": "a", "name": " "}]}, "teams[0].name"),
    ({"teams": [{"id": "a", "name": "A", "players": [{"id": "p", "name": "P", "rating": 1500}]}]}, "rating"),
    ({"teams": [{"id": "a", "name": "A"}, {"id": "a", "name": "B"}]}, "team id a"),
    ({"teams": [team("a"), team("b")], "fixtures": [{"id": "m1", "day": 1, "home": "a", "away": "c"}]},
     '"c" is not one of the teams'),
    ({"teams": [team("a"), team("b")], "fixtures": [{"id": "m1", "day": 1, "home": "a", "away": "a"}]}, "itself"),
    ({"teams": [team("a"), team("b")], "fixtures": [{"id": "m1", "day": 1, "home": "a", "away": "b",
                                                      "referee_team": "a"}]}, "referee team a"),
    ({"teams": [team("a"), team("b")], "fixtures": [{"id": "m1", "home": "a", "away": "b"}]}, "'day'"),
    ({"teams": [team("a"), team("b")], "fixtures": [{"id": "m1", "day": 0, "home": "a", "away": "b"}]}, "day"),
    ({"teams": [team("a"), team("b")], "fixtures": [fixture("m1", "a", "b"), fixture("m1", "b", "a")]},
     "fixture id m1"),
    ({"teams": [team("a"), team("b")], "fixtures": [fixture("m1", "a", "b", venue="Most")]}, "venue"),
    ({"teams": [team("a"), team("b")], "fixtures": [fixture("m1", "a", "b", lineups={"home": [1]})]},
     "lineups.home[0]"),
    ({"teams": [team("a"), team("b")], "fixtures": [fixture("m1", "a", "b", lineups={"bench": []})]}, "bench"),
    ({"teams": [team("a"), team("b")], "fixtures": [fixture("m1", "a", "b", "A")],
      "_game": {"board": 1}}, "_game"),
]


@pytest.mark.parametrize("value, named", BAD_FORMAT_CASES, ids=[named for _, named in BAD_FORMAT_CASES])
def test_what_the_contract_does_not_allow_is_bad_format_naming_the_item(value: dict[str, Any], named: str) -> None:
    """Unknown fields, wrong types, bad ids, unknown teams and rulesets: ``BAD_FORMAT`` with the item named."""
    assert code_of(value) == "BAD_FORMAT"
    assert named in message_of(value)


def test_a_game_with_a_field_the_contract_does_not_define_is_bad_format() -> None:
    """``board`` or ``shootout`` in a game is refused, naming the field and the game."""
    value = _three("A")
    value["fixtures"][0]["games"][0]["shootout"] = "home"
    assert code_of(value) == "BAD_FORMAT" and "'shootout'" in message_of(value)
    assert "fixture m1, game 1" in message_of(value)


def test_not_json_a_repeated_key_and_nan_are_bad_format() -> None:
    """The tournament reader's rules: a file that is not JSON, repeats a key or holds NaN is ``BAD_FORMAT``."""
    for text in ("{nope", '{"seed": 1, "seed": 2}', '{"seed": NaN}', "[1, 2]"):
        with pytest.raises(LeagueError) as caught:
            parse(text)
        assert caught.value.code == "BAD_FORMAT"


def test_a_player_id_on_two_rosters_is_a_duplicate_player() -> None:
    """A player id used twice, in one roster or in two, is ``DUPLICATE_PLAYER`` naming it."""
    twice_in_one = doc([{"id": "a", "name": "A", "players": [{"id": "p", "name": "P"}, {"id": "p", "name": "Q"}]}])
    in_two = doc([team("a", 2), {"id": "b", "name": "B", "players": [{"id": "a1", "name": "X"}]}])
    for value in (twice_in_one, in_two):
        assert code_of(value) == "DUPLICATE_PLAYER"
    assert "a1" in message_of(in_two)


def test_a_fixture_not_yet_played_may_omit_lineups_and_games_and_give_one_lineup_first() -> None:
    """No ``lineups``, null line-ups, or one team's line-up alone: a fixture not yet (fully) set."""
    base = doc([team("a", 3), team("b", 3)], size=3)
    for given in (None, {"home": None, "away": None}, {"home": ["a1", "a2", "a3"]}):
        f: dict[str, Any] = {"id": "m1", "day": 1, "home": "a", "away": "b"}
        if given is not None:
            f["lineups"] = given
        league = read_league({**base, "fixtures": [f]})
        assert league.fixture("m1").games == () and not league.fixture("m1").finished
    assert read_league({**base, "fixtures": [f]}).fixture("m1").lineups == Lineups(home=("a1", "a2", "a3"))


# ------------------------------------------------------------------------------------------------ line-ups


def test_a_lineup_player_outside_the_teams_roster_is_unknown_player() -> None:
    """A player of the other team, or of nobody, in a line-up: ``UNKNOWN_PLAYER`` naming him and the fixture."""
    for stranger in ("b1", "zed"):
        value = _three(None, lineups={"home": ["a1", stranger, "a3"], "away": ["b2", "b3", "b4"]})
        assert code_of(value) == "UNKNOWN_PLAYER"
        assert stranger in message_of(value) and "fixture m1" in message_of(value)


def test_a_player_named_twice_in_a_lineup_is_played_twice() -> None:
    """``PLAYED_TWICE`` for a player named twice in one line-up."""
    value = _three(None, lineups={"home": ["a1", "a2", "a3"], "away": ["b2", "b3", "b2"]})
    assert code_of(value) == "PLAYED_TWICE" and "b2" in message_of(value)


def test_a_lineup_of_other_than_k_players_is_bad_format() -> None:
    """Two or four players where team_size is 3: ``BAD_FORMAT``."""
    for away in (["b1", "b2"], ["b1", "b2", "b3", "b4"]):
        value = _three(None, lineups={"home": ["a1", "a2", "a3"], "away": away})
        assert code_of(value) == "BAD_FORMAT" and "team_size" in message_of(value)


def test_lineup_checks_come_in_the_contracts_order() -> None:
    """Unknown player, then named twice, then the count: a line-up wrong in all three ways is ``UNKNOWN_PLAYER``,
    one named twice and too long is ``PLAYED_TWICE``."""
    all_three = _three(None, lineups={"home": ["a1", "a1", "zed", "a2"], "away": ["b1", "b2", "b3"]})
    assert code_of(all_three) == "UNKNOWN_PLAYER"
    two = _three(None, lineups={"home": ["a1", "a1", "a2", "a3"], "away": ["b1", "b2", "b3"]})
    assert code_of(two) == "PLAYED_TWICE"


def test_every_lineup_is_checked_before_any_game() -> None:
    """A bad game in the first fixture and a bad line-up in the second: the line-up's error is the answer."""
    value = _three("A")
    value["fixtures"][0]["games"][0]["home"], value["fixtures"][0]["games"][0]["away"] = "b1", "a1"
    assert code_of(value) == "BAD_RESULT"
    value["fixtures"].append(fixture("m2", "b", "a", None, lineups={"home": ["b1", "b2", "b3"],
                                                                    "away": ["a1", "a2", "a2"]}))
    assert code_of(value) == "PLAYED_TWICE" and "fixture m2" in message_of(value)


# ------------------------------------------------------------------------------------------------ games


def test_a_game_not_its_rounds_scheduled_pair_is_bad_result() -> None:
    """Round 1 pairs A1 with B1: a1 v b2 in round 1 is ``BAD_RESULT``, and the message names the scheduled game."""
    value = _three("", games=[{"round": 1, "home": "a1", "away": "b2", "score": [1, 0]}])
    assert code_of(value) == "BAD_RESULT"
    assert "a1 v b1" in message_of(value)


def test_a_game_with_home_and_away_swapped_is_bad_result() -> None:
    """In even rounds B's player is home: a1 v b2 in round 2 (scheduled b2 v a1) is ``BAD_RESULT``, and so is
    b1 v a1 in round 1."""
    for game in ({"round": 2, "home": "a1", "away": "b2"}, {"round": 1, "home": "b1", "away": "a1"}):
        value = _three("", games=[{**game, "score": [1, 0]}])
        assert code_of(value) == "BAD_RESULT" and "other way round" in message_of(value)


def test_a_round_beyond_k_and_a_player_outside_the_lineups_are_bad_result() -> None:
    """Round 4 of a three-player match, or a roster player left out of the line-up: not a scheduled game."""
    beyond = _three("", games=[{"round": 4, "home": "a1", "away": "b1", "score": [1, 0]}])
    assert code_of(beyond) == "BAD_RESULT" and "rounds 1-3" in message_of(beyond)
    benched = _three("", games=[{"round": 1, "home": "a4", "away": "b1", "score": [1, 0]}])
    assert code_of(benched) == "BAD_RESULT" and "a4 is not in this fixture's line-ups" in message_of(benched)


def test_a_game_naming_nobody_is_unknown_player() -> None:
    """An id that is no roster's player, in a game: ``UNKNOWN_PLAYER``."""
    value = _three("", games=[{"round": 1, "home": "a1", "away": "zed", "score": [1, 0]}])
    assert code_of(value) == "UNKNOWN_PLAYER" and "'zed'" in message_of(value)


def test_a_game_listed_twice_is_played_twice() -> None:
    """The same game twice (with the same or another result): ``PLAYED_TWICE``."""
    value = _three("AD")
    again = dict(value["fixtures"][0]["games"][0], score=[0, 0])
    value["fixtures"][0]["games"].append(again)
    assert code_of(value) == "PLAYED_TWICE" and "listed twice" in message_of(value)


def test_games_before_both_lineups_are_bad_result() -> None:
    """Without both line-ups there is no schedule, so no game can be its round's scheduled pair."""
    value = _three(None, lineups={"home": ["a1", "a2", "a3"]},
                   games=[{"round": 1, "home": "a1", "away": "b1", "score": [1, 0]}])
    assert code_of(value) == "BAD_RESULT" and "line-ups" in message_of(value)


@pytest.mark.parametrize("result", [{"score": [1]}, {"score": [1, -1]}, {"score": "2:1"}, {"walkover": "both"},
                                    {"score": [1, 0], "walkover": "home"}])
def test_a_malformed_score_or_walkover_is_bad_result(result: dict[str, Any]) -> None:
    """As in tournaments: two non-negative integers, a side, never both a score and a walkover."""
    value = _three("", games=[{"round": 1, "home": "a1", "away": "b1", **result}])
    assert code_of(value) == "BAD_RESULT"


def test_games_are_kept_in_schedule_order() -> None:
    """Whatever order a file lists them in, a fixture's games are read in the order of round, then board."""
    value = _three("ABDABDABD")
    listed = value["fixtures"][0]["games"]
    value["fixtures"][0]["games"] = listed[::-1]
    read = read_league(value).fixture("m1").games
    assert [(g.round, g.home, g.away) for g in read] == [(g["round"], g["home"], g["away"]) for g in listed]


def test_a_missing_player_loses_his_game_by_walkover_and_a_game_without_result_is_still_being_played() -> None:
    """``walkover`` names the side that wins; a game with neither score nor walkover is listed unfinished."""
    league = read_league(_three("a.b"))
    first, second, third = league.fixture("m1").games
    assert first.walkover == "home" and first.winner == "a1"
    assert not second.finished and second.winner is None
    assert third.walkover == "away" and third.winner == "b3"


def test_check_refuses_a_value_built_wrong_as_the_reader_refuses_its_file() -> None:
    """``checks.check`` runs the same checks on a value (as the server builds it): a game off the schedule is
    ``BAD_RESULT``; a valid value comes back with its games in schedule order."""
    a = Team(id="a", name="A", players=tuple(Player(id=p, name=p) for p in roster("a", 2)))
    b = Team(id="b", name="B", players=tuple(Player(id=p, name=p) for p in roster("b", 2)))
    lineups = Lineups(home=("a1", "a2"), away=("b1", "b2"))
    good = (Game(round=2, home="b2", away="a1", score=(1, 1)), Game(round=1, home="a1", away="b1", score=(2, 0)))
    league = League(settings=LeagueSettings(team_size=2), teams=(a, b),
                    fixtures=(Fixture(id="m1", day=1, home="a", away="b", lineups=lineups, games=good),))
    assert check(league).fixture("m1").games == good[::-1]
    wrong = dataclasses.replace(league.fixture("m1"), games=(Game(round=1, home="a1", away="b2"),))
    with pytest.raises(LeagueError) as caught:
        check(dataclasses.replace(league, fixtures=(wrong,)))
    assert caught.value.code == "BAD_RESULT"


# ------------------------------------------------------------------------------------------------ writing


def test_the_canonical_file_writes_every_default_and_only_the_result_field_a_game_has() -> None:
    """Every field in the contract's order, defaults and null line-ups included; a game without result has
    neither ``score`` nor ``walkover``."""
    value = doc([team("a", 3), team("b", 3)], [fixture("m1", "a", "b", "Aa.", size=3), fixture("m2", "b", "a")],
                size=3)
    written = to_json(read_league(value))
    assert list(written) == ["format", "name", "season", "seed", "settings", "teams", "fixtures"]
    assert written["settings"] == {"team_size": 3, "points": {"win": 2, "draw": 1, "loss": 0}, "ruleset": "standard"}
    assert list(written["teams"][0]) == ["id", "name", "club", "players"]
    m1, m2 = written["fixtures"]
    assert list(m1) == ["id", "day", "home", "away", "referee_team", "lineups", "games"]
    assert m2["lineups"] == {"home": None, "away": None} and m2["games"] == [] and m2["referee_team"] is None
    assert [sorted(g) for g in m1["games"]] == [["away", "home", "round", "score"], ["away", "home", "round",
                                                "walkover"], ["away", "home", "round"]]


def test_files_that_mean_the_same_write_the_same_bytes() -> None:
    """Defaults left out or written, games in any order, keys in any order: the same canonical text."""
    sparse = _three("ABD")
    full = json.loads(dumps(read_league(sparse)))
    full["fixtures"][0]["games"].reverse()
    shuffled = {key: full[key] for key in reversed(list(full))}
    assert dumps(read_league(sparse)) == dumps(read_league(shuffled))
    assert dumps(read_league(json.loads(dumps(read_league(sparse))))) == dumps(read_league(sparse))


def test_the_team_players_of_a_written_file_are_the_rosters_in_order() -> None:
    """Teams, rosters and line-ups keep the file's order (the line-up's order is its boards)."""
    lineups = {"home": ["b3", "b1", "b2"], "away": ["a2", "a3", "a1"]}
    value = doc([team("b", 3), team("a", 3)], [fixture("m1", "b", "a", "", size=3, lineups=lineups)], size=3)
    league = read_league(value)
    assert [t.id for t in league.teams] == ["b", "a"]
    assert league.fixture("m1").lineups == Lineups(home=("b3", "b1", "b2"), away=("a2", "a3", "a1"))
    assert games(["b3", "b1", "b2"], ["a2", "a3", "a1"], "A")[0] == {"round": 1, "home": "b3", "away": "a2",
                                                                     "score": [3, 1]}
