"""The final ranking (TOURNAMENT.md "The final ranking"): the order across stages, who is ranked, ``out``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from shared.tournament.ranking import Ranking, rank, to_json
from shared.tournament.reading import read_tournament
from sprtec.cli import main
from tests.tournament.builders import Doc, bye, doc, m, order, pairing_of, players, rounds, standings_of

ROOT = Path(__file__).resolve().parents[2]
RR = [{"system": "round_robin"}]


def ranking_of(d: Doc) -> Ranking:
    """The ranking the command prints for this file."""
    return rank(read_tournament(d))


def places(r: Ranking) -> list[tuple[int, bool, str]]:
    """(rank, shared, player) from the top down."""
    return [(x.rank, x.shared, x.player) for x in r.rows]


def _swiss_then_final() -> Doc:
    """Six players, two Swiss rounds, the best two play a final."""
    d = doc(players("a", "b", "c", "d", "e", "f"), stages=[{"rounds": 2, "advance": 2}, {"system": "knockout"}],
            results=rounds([m("a", "b", (3, 0)), m("c", "d", (2, 0)), m("e", "f", (1, 0))],
                           [m("a", "c", (2, 1)), m("e", "b", (1, 0)), m("d", "f", (4, 0))]))
    return d


def test_a_swiss_then_a_final_ranks_every_player_not_only_the_finalists() -> None:
    """The final's two first (its winner, its loser), then the four who did not go on in the Swiss's order."""
    d = _swiss_then_final()
    swiss = order(standings_of(d))
    assert swiss[:2] == ["a", "e"]
    d["results"].append({"stage": 1, "round": 1, "matches": [m("a", "e", (0, 1))]})
    r = ranking_of(d)
    assert places(r) == [(1, False, "e"), (2, False, "a")] + [(i, False, p) for i, p in enumerate(swiss[2:], 3)]
    assert [x.stage for x in r.rows] == [1, 1, 0, 0, 0, 0] and r.complete


def test_before_a_later_stage_has_a_finished_round_the_earlier_stage_ranks_everyone() -> None:
    """The final is paired but not played: the ranking is the Swiss's standings, provisional."""
    d = _swiss_then_final()
    d["results"].append({"stage": 1, "round": 1, "matches": [m("a", "e")]})
    r = ranking_of(d)
    assert [x.player for x in r.rows] == order(standings_of(d)) and not r.complete


def test_a_block_works_out_shared_again_and_rank_counts_the_ranked_players_above() -> None:
    """a and c share 1st, b and d share 3rd after one Swiss round; three go on to a round robin: the one of b
    and d left behind no longer shares, and is 4th."""
    d = doc(players("a", "b", "c", "d"), stages=[{"rounds": 1, "advance": 3}, {"system": "round_robin"}],
            results=rounds([m("a", "b", (1, 0)), m("c", "d", (1, 0))]))
    swiss = standings_of(d)
    assert [(x.rank, x.shared) for x in swiss.rows] == [(1, True), (1, True), (3, True), (3, True)]
    left = swiss.rows[3].player
    (match,) = pairing_of(d).matches
    d["results"].append({"stage": 1, "round": 1, "matches": [m(match.home, match.away, (2, 0))]})
    r = ranking_of(d)
    assert places(r)[-1] == (4, False, left)
    assert [x.player for x in r.rows[:3]] == order(standings_of(d))


def test_knockout_players_out_in_the_same_round_follow_their_previous_place_and_do_not_share() -> None:
    """Four of a Swiss into a knockout without third place: the semi-final losers (3rd equal in the knockout's
    standings) are 3rd and 4th by their Swiss places."""
    d = doc(players("a", "b", "c", "d", "e"), stages=[{"rounds": 1, "advance": 4}, {"system": "knockout"}],
            results=rounds([m("a", "b", (3, 0)), m("c", "d", (2, 0)), bye("e")]))
    swiss = order(standings_of(d))
    seeds = swiss[:4]
    semis = [m(seeds[0], seeds[3], (0, 1)), m(seeds[1], seeds[2], (0, 1))]
    d["results"] += [{"stage": 1, "round": 1, "matches": semis},
                     {"stage": 1, "round": 2, "matches": [m(seeds[3], seeds[2], (1, 0))]}]
    knockout = standings_of(d)
    assert [(x.rank, x.shared) for x in knockout.rows] == [(1, False), (2, False), (3, True), (3, True)]
    r = ranking_of(d)
    assert places(r) == [(1, False, seeds[3]), (2, False, seeds[2]), (3, False, seeds[0]), (4, False, seeds[1]),
                         (5, False, swiss[4])]


def test_a_first_stage_knockout_orders_them_by_bracket_seed_and_players_still_in_likewise() -> None:
    """Four rated players, no third place: after round 1 the two still in are 1st and 2nd by seed, the two out
    3rd and 4th by seed; none shares."""
    ratings: dict[str, int | None] = {"s1": 1900, "s2": 1800, "s3": 1700, "s4": 1600}
    d = doc(players("s1", "s2", "s3", "s4", ratings=ratings), stages=[{"system": "knockout", "seeding": "rating"}],
            results=[{"round": 1, "matches": [m("s1", "s4", (0, 1)), m("s2", "s3", (0, 1))]}])
    r = ranking_of(d)
    assert places(r) == [(1, False, "s3"), (2, False, "s4"), (3, False, "s1"), (4, False, "s2")]
    assert not r.complete


def test_who_is_ranked_every_player_with_a_played_round() -> None:
    """Over the board, a walkover won or lost and a Swiss bye count; a player absent from every round is not
    ranked."""
    d = doc(players("a", "b", "c", "d", "e", "f"), stages=[{"rounds": 3}],
            results=rounds([m("a", "b", (1, 0)), m("c", "d", walkover="home"), bye("e")]),
            absent=[{"round": 1, "player": "f"}])
    assert sorted(x.player for x in ranking_of(d).rows) == ["a", "b", "c", "d", "e"]


def test_a_round_robin_bye_is_not_a_played_round_but_a_knockout_bye_is() -> None:
    """Round robin of three after round 1: the player with the bye is not ranked. A first-stage knockout of
    three after round 1: the top seed's bye ranks him."""
    robin = ranking_of(doc(players("a", "b", "c"), stages=RR, results=rounds([m("b", "c", (1, 0)), bye("a")])))
    assert sorted(x.player for x in robin.rows) == ["b", "c"]
    ratings: dict[str, int | None] = {"a": 3, "b": 2, "c": 1}
    knockout = ranking_of(doc(players("a", "b", "c", ratings=ratings), stages=[{"system": "knockout",
                                                                                 "seeding": "rating"}],
                              results=rounds([bye("a"), m("b", "c", (1, 0))])))
    assert [x.player for x in knockout.rows] == ["a", "b", "c"]


def test_stage_is_the_last_stage_with_a_played_round() -> None:
    """Three go on from a Swiss to a round robin; after its round 1 the player with the bye is in the round
    robin's block but his ``stage`` is 0."""
    d = doc(players("a", "b", "c"), stages=[{"rounds": 1}, {"system": "round_robin"}],
            results=[*rounds([m("a", "b", (1, 0)), bye("c")]),
                     {"stage": 1, "round": 1, "matches": [m("b", "c", (1, 0)), bye("a")]}])
    r = ranking_of(d)
    assert {x.player: x.stage for x in r.rows} == {"a": 0, "b": 1, "c": 1}
    assert len(r.rows) == 3


def test_withdrawn_and_disqualified_players_keep_their_places_marked_out() -> None:
    """A Swiss of four, two rounds: c withdrew after round 1, a was disqualified in round 2; both keep the
    place their results give them, with ``out``."""
    d = doc(players("a", "b", "c", "d"), stages=[{"rounds": 2}],
            results=rounds([m("a", "b", (3, 0)), m("c", "d", (2, 0))], [m("a", "d", (1, 0)), m("b", "c",
                                                                                             walkover="home")]),
            withdrawn=[{"player": "c", "after_round": 1}],
            discipline=[{"round": 2, "player": "a", "card": "disqualified"}])
    r = ranking_of(d)
    assert [x.player for x in r.rows] == order(standings_of(d))
    assert {x.player: x.out for x in r.rows} == {"a": True, "b": False, "c": True, "d": False}
    announced = {**d, "stages": [{"rounds": 3}], "withdrawn": [{"player": "c", "after_round": 1},
                                                               {"player": "d", "after_round": 3}]}
    assert {x.player: x.out for x in ranking_of(announced).rows}["d"] is True  # listed as withdrawn: out


def test_the_ranking_prints_the_contract_object(capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path) -> None:
    """``sprtec-ranking/1`` with the contract's keys in its order; ``--pretty`` is the same object indented."""
    d = doc([{"id": "a", "name": "A", "club": "SK Brno", "year_of_birth": 2000}, *players("b")],
            cup={"tier": "expres", "season": 2026}, stages=[{"rounds": 1}], results=rounds([m("a", "b", (1, 0))]))
    path = tmp_path / "t.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    assert main(["tournament", "ranking", str(path)]) == 0
    answer = json.loads(capsysbinary.readouterr().out)
    assert list(answer) == ["format", "complete", "season", "cup", "ranking"]
    assert answer["format"] == "sprtec-ranking/1" and answer["complete"] is True and answer["season"] == 2026
    assert answer["cup"] == {"tier": "expres", "field": 2}
    assert answer["ranking"][0] == {"rank": 1, "shared": False, "player": "a", "name": "A", "club": "SK Brno",
                                    "category": "M", "category_rank": 1, "category_winner": True, "stage": 0,
                                    "cup_points": 40 + 2 - 20, "out": False}
    assert main(["tournament", "ranking", "--pretty", str(path)]) == 0
    pretty = capsysbinary.readouterr().out
    assert json.loads(pretty) == answer and pretty.startswith(b'{\n  "format"')


@pytest.mark.parametrize("value, code", [
    ("{nope", "BAD_FORMAT"),
    ({"players": [], "cup": {"tier": "cp48"}}, "BAD_FORMAT"),
    (doc(players("a", "b"), results=rounds([m("a", "zed", (1, 0))])), "UNKNOWN_PLAYER"),
    (doc(players("a", "b", "c"), stages=RR, results=rounds([m("a", "b", (1, 0))])), "BAD_RESULT"),
])
def test_a_ranking_of_an_invalid_file_is_the_error_object_and_exit_2(
    capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path, value: Any, code: str
) -> None:
    """The same errors as ``standings`` and ``pair``: one line on stdout, exit status 2."""
    path = tmp_path / "t.json"
    path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    assert main(["tournament", "ranking", str(path)]) == 2
    out = capsysbinary.readouterr().out
    assert out.count(b"\n") == 1 and json.loads(out)["error"]["code"] == code


def test_the_ranking_reads_standard_input() -> None:
    """``sprtec tournament ranking -`` in a real process prints what it prints for the file."""
    example = ROOT / "tests" / "tournament" / "golden" / "swiss-then-knockout" / "final.tournament.json"
    by_stdin = subprocess.run([sys.executable, "-m", "sprtec", "tournament", "ranking", "-"],
                              input=example.read_bytes(), capture_output=True, cwd=ROOT, timeout=60, check=False)
    assert by_stdin.returncode == 0 and by_stdin.stderr == b""
    assert json.loads(by_stdin.stdout) == to_json(rank(read_tournament(json.loads(example.read_bytes()))))
    assert len(json.loads(by_stdin.stdout)["ranking"]) == 8
