"""Reading a tournament file with every default of the contract, refusing what it does not allow, and writing
it back canonically."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from shared.tournament.errors import TournamentError
from shared.tournament.model import Absence, Cup, Ended, Match, Player, Points, Stage, TournamentSettings
from shared.tournament.reading import parse, read_tournament
from shared.tournament.writing import dump_bytes, dumps, to_json
from tests.tournament.builders import doc, m, players, rounds
from tests.tournament.cup_cases import ALL_CASES as CASES


def _code(value: object) -> tuple[str, str]:
    """The error code and message of reading ``value``."""
    with pytest.raises(TournamentError) as caught:
        read_tournament(value) if not isinstance(value, str | bytes) else parse(value)
    return caught.value.code, caught.value.message


def test_a_minimal_file_takes_every_default_of_the_contract() -> None:
    """Players only: one Swiss stage 3/1/0 under standard, walkover and bye 5:0, goals cap 5, 3 yellows."""
    t = read_tournament({"players": [{"id": "p1", "name": "Jan Novák"}]})
    assert t.format == "sprtec-tournament/1" and t.name == "" and t.seed == 0
    assert t.players == (Player(id="p1", name="Jan Novák", club="", rating=None, category="", year_of_birth=None,
                                sex=None, veteran=False),)
    assert (t.date, t.cup, t.ended, t.season) == (None, None, None, None)
    assert t.stages == (Stage(system="swiss", rounds=None, points=Points(win=3, draw=1, loss=0), ruleset="standard",
                              final_ruleset="final", settings=(), advance=None, third_place=False, double=False,
                              seeding="random"),)
    assert (t.results, t.absent, t.withdrawn, t.discipline) == ((), (), (), ())
    assert t.settings == TournamentSettings(walkover_score=(5, 0), bye_score=(5, 0), goals_cap=5,
                                            yellows_for_suspension=3, two_yellows_in_a_match_is_red=False)


def test_a_knockout_stage_defaults_to_the_ko_ruleset_and_a_partial_points_object_keeps_the_rest() -> None:
    """``{"system": "knockout"}`` plays ``ko`` with the final under ``final``; ``{"win": 2}`` keeps draw 1, loss 0."""
    t = read_tournament(doc(players("a"), stages=[{"system": "swiss", "points": {"win": 2}}, {"system": "knockout"}]))
    assert t.stages[0].points == Points(win=2, draw=1, loss=0)
    assert (t.stages[1].ruleset, t.stages[1].final_ruleset) == ("ko", "final")


def test_entries_default_to_stage_zero() -> None:
    """A results, absent, withdrawn or discipline entry without ``stage`` belongs to stage 0."""
    t = read_tournament(doc(players("a", "b"), results=[{"round": 1, "matches": [m("a", "b")]}],
                            absent=[{"round": 2, "player": "a"}], withdrawn=[{"player": "b", "after_round": 2}],
                            discipline=[{"round": 1, "player": "a", "card": "yellow"}]))
    assert (t.results[0].stage, t.absent[0].stage, t.withdrawn[0].stage, t.discipline[0].stage) == (0, 0, 0, 0)
    assert t.discipline[0].reason == ""


def test_stage_settings_are_checked_against_the_ruleset() -> None:
    """A stage's settings override its ruleset's named settings: an unknown name or a wrong type is BAD_FORMAT."""
    t = read_tournament(doc(players("a"), stages=[{"settings": {"period_ms": 300000}}]))
    assert t.stages[0].settings == (("period_ms", 300000),)
    assert _code(doc(players("a"), stages=[{"settings": {"no_such": 1}}]))[0] == "BAD_FORMAT"
    assert _code(doc(players("a"), stages=[{"settings": {"period_ms": "long"}}]))[0] == "BAD_FORMAT"
    assert _code(doc(players("a"), stages=[{"ruleset": "blitz"}]))[0] == "BAD_FORMAT"


@pytest.mark.parametrize("value, where", [
    ({"format": "sprtec-tournament/2"}, "format"),
    ({"players": [], "walkover_scor": [5, 0]}, "walkover_scor"),
    ({"players": [{"id": "a b", "name": "x"}]}, "players[0].id"),
    ({"players": [{"id": "x" * 33, "name": "x"}]}, "players[0].id"),
    ({"players": [{"id": "", "name": "x"}]}, "players[0].id"),
    ({"players": [{"id": "p1"}]}, "players[0]"),
    ({"players": [{"id": "p1", "name": "x", "rating": 16.5}]}, "rating"),
    ({"stages": []}, "stages"),
    ({"stages": [{"system": "league"}]}, "stages[0].system"),
    ({"stages": [{"rounds": 0}]}, "stages[0].rounds"),
    ({"seed": True}, "seed"),
    ({"settings": {"goals_cap": -1}}, "settings.goals_cap"),
    ({"results": [{"round": 1, "matches": [{"home": "a"}]}], "players": [{"id": "a", "name": "A"}]}, "match 1"),
    ({"results": [{"stage": 3, "round": 1}]}, "results[0].stage"),
])
def test_what_the_contract_does_not_allow_is_bad_format_naming_the_item(value: Any, where: str) -> None:
    """Wrong format, unknown field, bad id, missing name, bad numbers, an unknown stage: BAD_FORMAT naming it."""
    code, message = _code(value)
    assert code == "BAD_FORMAT" and where in message


def test_an_id_of_32_characters_is_allowed() -> None:
    """1-32 characters of [A-Za-z0-9_-]."""
    assert read_tournament({"players": [{"id": "A-z_9" + "x" * 27, "name": "x"}]}).players[0].id == "A-z_9" + "x" * 27


def test_not_json_a_repeated_key_and_nan_are_bad_format() -> None:
    """The file must be one JSON document with unique keys and real numbers."""
    assert _code(b"{not json")[0] == "BAD_FORMAT"
    assert _code('{"seed": 1, "seed": 2}')[0] == "BAD_FORMAT"
    assert _code('{"seed": NaN}')[0] == "BAD_FORMAT"
    assert _code(b"\xff\xfe\x00")[0] == "BAD_FORMAT"


def test_two_players_with_one_id_are_duplicate_player() -> None:
    """DUPLICATE_PLAYER names the id."""
    code, message = _code({"players": [{"id": "p1", "name": "A"}, {"id": "p1", "name": "B"}]})
    assert code == "DUPLICATE_PLAYER" and "p1" in message


@pytest.mark.parametrize("field, entry", [
    ("results", {"round": 1, "matches": [{"home": "ghost", "away": "a"}]}),
    ("results", {"round": 1, "matches": [{"bye": "ghost"}]}),
    ("absent", {"round": 1, "player": "ghost"}),
    ("withdrawn", {"player": "ghost", "after_round": 1}),
    ("discipline", {"round": 1, "player": "ghost", "card": "red"}),
])
def test_an_id_that_is_not_a_player_is_unknown_player(field: str, entry: dict[str, Any]) -> None:
    """Every reference to a player names one of ``players``."""
    code, message = _code({"players": [{"id": "a", "name": "A"}], field: [entry]})
    assert code == "UNKNOWN_PLAYER" and "ghost" in message


@pytest.mark.parametrize("match", [
    {"home": "a", "away": "b", "score": [1]},
    {"home": "a", "away": "b", "score": [1, -1]},
    {"home": "a", "away": "b", "score": "3:1"},
    {"home": "a", "away": "b", "score": [1.5, 0]},
    {"home": "a", "away": "b", "walkover": "both"},
    {"home": "a", "away": "b", "score": [1, 0], "walkover": "home"},
    {"home": "a", "away": "b", "score": [2, 1], "shootout": "away"},
    {"home": "a", "away": "b", "shootout": "home"},
])
def test_a_malformed_result_is_bad_result_naming_the_match(match: dict[str, Any]) -> None:
    """Scores are two goals counts; a walkover is home or away; a shoot-out only decides a drawn score."""
    code, message = _code(doc(players("a", "b"), results=[{"round": 1, "matches": [match]}]))
    assert code == "BAD_RESULT" and "stage 0 round 1, match 1" in message


def test_a_round_listed_twice_and_a_player_withdrawn_twice_are_bad_format() -> None:
    """One entry per (stage, round) and per withdrawn player."""
    assert _code(doc(players("a", "b"), results=[{"round": 1}, {"round": 1}]))[0] == "BAD_FORMAT"
    assert _code(doc(players("a"), withdrawn=[{"player": "a", "after_round": 1},
                                              {"player": "a", "after_round": 2}]))[0] == "BAD_FORMAT"


def test_the_canonical_file_reads_back_to_the_same_value_and_writes_the_same_bytes() -> None:
    """For every golden state: parse(dumps(t)) == t and the bytes are stable."""
    for case in CASES:
        for _, t in case.states():
            text = dumps(t)
            assert parse(text) == t
            assert dumps(parse(text)) == text


def test_files_that_mean_the_same_write_the_same_bytes() -> None:
    """Results, absences and withdrawals listed in another order, and defaults left out, give the same file."""
    base = doc(players("a", "b", "c", "d"),
               results=rounds([m("a", "b", (1, 0)), m("c", "d", (0, 0))], [m("a", "c", (2, 2)), m("b", "d")]),
               absent=[{"round": 3, "player": "a"}, {"round": 3, "player": "b"}, {"round": 2, "player": "c"}],
               withdrawn=[{"player": "d", "after_round": 2}, {"player": "c", "after_round": 3}])
    shuffled = json.loads(json.dumps(base))
    rng = random.Random(4)
    for key in ("results", "absent", "withdrawn"):
        rng.shuffle(shuffled[key])
    explicit = json.loads(dumps(read_tournament(base)))
    assert dump_bytes(read_tournament(shuffled)) == dump_bytes(read_tournament(base)) == dump_bytes(
        read_tournament(explicit))


def test_the_canonical_file_writes_every_default_and_only_the_result_fields_a_match_has() -> None:
    """Defaults are written out; a match still being played has only home and away."""
    value = to_json(read_tournament(doc(players("a", "b"), results=[{"round": 1, "matches": [m("a", "b")]}])))
    assert value["stages"] == [{"system": "swiss", "rounds": None, "points": {"win": 3, "draw": 1, "loss": 0},
                                "ruleset": "standard", "final_ruleset": "final", "settings": {}, "advance": None,
                                "third_place": False, "double": False, "seeding": "random"}]
    assert value["results"] == [{"stage": 0, "round": 1, "matches": [{"home": "a", "away": "b"}]}]
    assert value["players"][0] == {"id": "a", "name": "A", "club": "", "rating": None, "category": "",
                                   "year_of_birth": None, "sex": None, "veteran": False}
    assert list(value) == ["format", "name", "seed", "players", "stages", "results", "absent", "withdrawn",
                           "discipline", "settings", "date", "cup", "ended"]
    assert (value["date"], value["cup"], value["ended"]) == (None, None, None)


def test_the_czech_cup_fields_are_read_and_written_back() -> None:
    """``date``, ``cup`` {tier, season}, ``ended`` {after_stage, after_round, reason} and a player's
    ``year_of_birth``, ``sex`` and ``veteran`` come back as they were, in the contract's order."""
    value = doc([{"id": "a", "name": "A", "year_of_birth": 2011, "sex": "f", "veteran": True}, *players("b")],
                date="2026-03-14", cup={"tier": "cp24", "season": 2026},
                ended={"after_stage": 0, "after_round": 0, "reason": "a power cut"})
    t = read_tournament(value)
    assert (t.date, t.cup, t.ended) == ("2026-03-14", Cup(tier="cp24", season=2026),
                                         Ended(after_stage=0, after_round=0, reason="a power cut"))
    assert (t.players[0].year_of_birth, t.players[0].sex, t.players[0].veteran) == (2011, "f", True)
    written = to_json(t)
    assert written["cup"] == {"tier": "cp24", "season": 2026}
    assert written["ended"] == {"after_stage": 0, "after_round": 0, "reason": "a power cut"}
    assert list(written["players"][0])[-3:] == ["year_of_birth", "sex", "veteran"]
    assert read_tournament(json.loads(dumps(t))) == t


def test_the_season_is_the_cup_s_else_the_year_of_the_date() -> None:
    """``cup.season`` first; without it the year of ``date``; without both none (cup.season defaults to null, an
    ``ended`` without ``after_stage`` to stage 0 and without ``reason`` to "")."""
    assert read_tournament(doc([], date="2025-11-30", cup={"tier": "expres", "season": 2026})).season == 2026
    t = read_tournament(doc([], date="2025-11-30", cup={"tier": "expres"}, ended={"after_round": 0}))
    assert (t.season, t.cup, t.ended) == (2025, Cup(tier="expres", season=None), Ended(after_round=0))
    assert read_tournament(doc([], cup={"tier": "expres"})).season is None


@pytest.mark.parametrize("fields, where", [
    ({"cup": {"tier": "cp48", "season": 2026}}, "cup.tier"),
    ({"cup": {"season": 2026}}, "cup"),
    ({"cup": {"tier": "expres", "year": 2026}}, "cup"),
    ({"date": "2026-02-29"}, "date"),
    ({"date": "2026-13-01"}, "date"),
    ({"date": "14.3.2026"}, "date"),
    ({"players": [{"id": "a", "name": "A", "sex": "x"}]}, "players[0].sex"),
    ({"players": [{"id": "a", "name": "A", "veteran": "yes"}]}, "players[0].veteran"),
    ({"players": [{"id": "a", "name": "A", "year_of_birth": "2011"}]}, "players[0].year_of_birth"),
    ({"ended": {"after_stage": 1, "after_round": 2}}, "ended.after_stage"),
    ({"ended": {"after_stage": 0}}, "ended"),
])
def test_a_bad_czech_cup_field_is_bad_format_naming_it(fields: dict[str, Any], where: str) -> None:
    """An unknown tier, a day that is not in the calendar, a bad sex, veteran or year, an end naming no stage."""
    code, message = _code({"players": [], **fields})
    assert code == "BAD_FORMAT" and where in message


def test_a_year_of_birth_after_the_season_is_bad_format() -> None:
    """Born in 2027 for the season 2026 (from cup.season or from the date): BAD_FORMAT naming the player; in
    the season's own year, or with no season at all, it is accepted."""
    born = [{"id": "kid", "name": "Kid", "year_of_birth": 2027}]
    for fields in ({"cup": {"tier": "expres", "season": 2026}}, {"date": "2026-06-01"}):
        code, message = _code({"players": born, **fields})
        assert code == "BAD_FORMAT" and "kid" in message and "2027" in message
    assert read_tournament({"players": born, "date": "2027-01-01"}).players[0].year_of_birth == 2027
    assert read_tournament({"players": born}).season is None


def test_a_repeated_absence_is_kept_once() -> None:
    """The same absence listed twice is one absence."""
    t = read_tournament(doc(players("a"), absent=[{"round": 2, "player": "a"}, {"round": 2, "player": "a"}]))
    assert t.absent == (Absence(stage=0, round=2, player="a"),)
    assert Match(home="a", away="b").finished is False
