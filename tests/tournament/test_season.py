"""Seasons (TOURNAMENT.md "Seasons"): best-N sums, the order and its ties, identity by id, categories, errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, get_args

import pytest

from shared.tournament.errors import ERROR_CODES, SEASON_ERROR_CODES, ErrorCode, TournamentError
from shared.tournament.model import Tournament
from shared.tournament.reading import read_tournament
from shared.tournament.season import Season, standings, to_json
from sprtec.cli import main
from tests.tournament.builders import Doc, bye, doc, m, players, rounds

ROOT = Path(__file__).resolve().parents[2]


def cup_file(order: list[str], *, date: str | None = "2026-04-01", season: int | None = 2026, tier: str = "expres",
             people: list[dict[str, Any]] | None = None) -> Doc:
    """A finished one-round Swiss whose ranking is ``order`` (two players: a match; three: the first has the
    bye, the second beats the third)."""
    if len(order) == 2:
        matches = [m(order[0], order[1], (1, 0))]
    else:
        first, second, third = order
        matches = [bye(first), m(second, third, (1, 0))]
    return doc(people or players(*order), stages=[{"rounds": 1}], results=rounds(matches), date=date,
               cup={"tier": tier, "season": season})


def season_of(docs: list[Doc], best: int | None = None) -> Season:
    """The season of these files."""
    return standings([read_tournament(d) for d in docs], best)


def points(s: Season) -> list[tuple[int, bool, str, int]]:
    """(rank, shared, player, points) from the top down."""
    return [(r.rank, r.shared, r.player, r.points) for r in s.rows]


def test_points_sum_the_best_n_the_highest_counted_and_the_earlier_between_equal_results() -> None:
    """Expres of two: the winner gets 22, the other 16. a: 22, 16, 22; b: 16, 22, 16. Best two: a's two 22s,
    b's 22 and his earlier 16; without --best everything counts."""
    files = [cup_file(["a", "b"]), cup_file(["b", "a"]), cup_file(["a", "b"])]
    s = season_of(files, 2)
    assert points(s) == [(1, False, "a", 44), (2, False, "b", 38)]
    a, b = s.rows
    assert [(x.tournament, x.cup_points, x.counted) for x in a.results] == [(0, 22, True), (1, 16, False),
                                                                              (2, 22, True)]
    assert [(x.tournament, x.cup_points, x.counted) for x in b.results] == [(0, 16, True), (1, 22, True),
                                                                              (2, 16, False)]
    assert points(season_of(files)) == [(1, False, "a", 60), (2, False, "b", 54)]
    assert season_of(files).best is None and s.best == 2


def test_equal_points_are_ordered_by_the_counted_results_from_the_highest_down_else_shared() -> None:
    """Expres of three: 23, 17, 12. d has 12 + 22 = 34 and b 17 + 17 = 34: d's highest is better. a and c have
    23 each: they share 3rd. y (16) is 5th, x (12) 6th."""
    files = [cup_file(["a", "b", "d"]), cup_file(["c", "b", "x"]), cup_file(["d", "y"])]
    s = season_of(files)
    assert points(s) == [(1, False, "d", 34), (2, False, "b", 34), (3, True, "a", 23), (3, True, "c", 23),
                         (5, False, "y", 16), (6, False, "x", 12)]
    assert {r.player: r.played for r in s.rows} == {"d": 2, "b": 2, "a": 1, "c": 1, "y": 1, "x": 1}


def test_equal_counted_results_are_ordered_by_the_total_of_all_results() -> None:
    """Best one: p and q both count a 22; q's other result (17) beats p's (12), so q is directly above p. z and
    t count 23 each and have nothing else: they share 1st."""
    files = [cup_file(["p", "r"]), cup_file(["z", "w", "p"]), cup_file(["q", "s"]), cup_file(["t", "q", "u"])]
    s = season_of(files, 1)
    assert points(s) == [(1, True, "t", 23), (1, True, "z", 23), (3, False, "q", 22), (4, False, "p", 22),
                         (5, False, "w", 17), (6, True, "r", 16), (6, True, "s", 16), (8, False, "u", 12)]
    by = {r.player: r for r in s.rows}
    assert [x.counted for x in by["p"].results] == [True, False] and [x.counted for x in by["q"].results] == [True,
                                                                                                              False]


def test_name_club_and_category_come_from_the_latest_tournament_by_date() -> None:
    """A file without a date comes before every dated one; between equal dates the later file wins."""

    def entry(club: str, category: str = "") -> list[dict[str, Any]]:
        return [{"id": "p", "name": f"P of {club}", "club": club, "category": category}, {"id": "o", "name": "O"}]

    may, undated, march = (cup_file(["p", "o"], date="2026-05-01", people=entry("May")),
                           cup_file(["p", "o"], date=None, people=entry("Undated")),
                           cup_file(["p", "o"], date="2026-03-01", people=entry("March")))
    row = season_of([may, undated, march]).rows[0]
    assert (row.name, row.club, row.category) == ("P of May", "May", "?")
    again = cup_file(["p", "o"], date="2026-05-01", people=entry("Again", "V"))
    row = season_of([may, undated, march, again]).rows[0]
    assert (row.name, row.club, row.category) == ("P of Again", "Again", "V")
    row = season_of([again, may]).rows[0]
    assert row.club == "May"


def test_a_later_file_in_which_he_was_not_ranked_does_not_change_his_name() -> None:
    """p is listed in the later file but absent from its only round: his name and club stay the earlier
    file's, and that file is not among his results."""
    first = cup_file(["p", "o"], date="2026-03-01",
                     people=[{"id": "p", "name": "Petr", "club": "Brno"}, {"id": "o", "name": "O"}])
    later = cup_file(["o", "q"], date="2026-06-01",
                     people=[{"id": "o", "name": "O"}, {"id": "q", "name": "Q"}, {"id": "p", "name": "Pete",
                                                                                  "club": "Praha"}])
    later["absent"] = [{"round": 1, "player": "p"}]
    row = next(r for r in season_of([first, later]).rows if r.player == "p")
    assert (row.name, row.club, row.played, [x.tournament for x in row.results]) == ("Petr", "Brno", 1, [0])


def test_categories_rank_each_category_apart_with_its_own_ranks() -> None:
    """Men a (22) and c (16), a woman b (22), u unknown (16): a and b share 1st of the season, but ``categories``
    has M (a 1, c 2) and L (b 1), and no ?."""
    people: list[dict[str, Any]] = [{"id": "a", "name": "A", "year_of_birth": 1990},
                                    {"id": "b", "name": "B", "sex": "f"},
                                    {"id": "c", "name": "C", "year_of_birth": 1991}, {"id": "u", "name": "U"}]
    s = season_of([cup_file(["a", "c"], people=people[:1] + people[2:3]),
                   cup_file(["b", "u"], people=[people[1], people[3]])])
    assert [code for code, _ in s.categories] == ["L", "M"]
    categories = dict(s.categories)
    assert points(s) == [(1, True, "a", 22), (1, True, "b", 22), (3, True, "c", 16), (3, True, "u", 16)]
    assert [(r.rank, r.shared, r.player, r.points) for r in categories["M"]] == [(1, False, "a", 22),
                                                                                 (2, False, "c", 16)]
    assert [(r.rank, r.player) for r in categories["L"]] == [(1, "b")]
    assert "?" not in to_json(s)["categories"]


def _error(docs: list[Any]) -> tuple[str, int | None, str]:
    """The code, file and message of a season that fails."""
    with pytest.raises(TournamentError) as caught:
        standings([d if isinstance(d, Tournament) else read_tournament(d) for d in docs])
    return caught.value.code, caught.value.file, caught.value.message


def test_a_file_that_is_not_of_the_season_is_season_file_naming_it_and_why() -> None:
    """Unfinished, without a cup, of another season, without any season: SEASON_FILE, ``file`` its index."""
    good = cup_file(["a", "b"])
    unfinished = {**good, "results": [{"round": 1, "matches": [m("a", "b")]}]}
    no_cup = {**good, "cup": None}
    other = cup_file(["a", "b"], date="2025-04-01", season=None)
    none = cup_file(["a", "b"], date=None, season=None)
    assert _error([good, unfinished])[:2] == ("SEASON_FILE", 1) and "not complete" in _error([good, unfinished])[2]
    assert _error([good, good, no_cup])[:2] == ("SEASON_FILE", 2) and "no cup" in _error([good, no_cup])[2]
    assert _error([good, other])[:2] == ("SEASON_FILE", 1) and "2025" in _error([good, other])[2]
    assert _error([none, good])[:2] == ("SEASON_FILE", 0) and "neither" in _error([none, good])[2]
    assert _error([good, none])[:2] == ("SEASON_FILE", 1)


def test_an_ended_tournament_is_complete_for_the_season() -> None:
    """A Swiss of three rounds the organiser ended after round 1 counts."""
    ended = {**cup_file(["a", "b"]), "stages": [{"rounds": 3}], "ended": {"after_round": 1}}
    assert points(season_of([ended])) == [(1, False, "a", 22), (2, False, "b", 16)]


def _run(capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path, values: list[Any], *args: str) -> tuple[int, Any]:
    """Write the files, run ``sprtec season standings ARGS FILES`` and return the status and the JSON printed."""
    names = []
    for index, value in enumerate(values):
        path = tmp_path / f"f{index}.json"
        path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
        names.append(str(path))
    status = main(["season", "standings", *args, *names])
    out = capsysbinary.readouterr().out
    assert out.endswith(b"\n")
    return status, json.loads(out)


def test_the_season_command_prints_the_contract_object(capsysbinary: pytest.CaptureFixture[bytes],
                                                       tmp_path: Path) -> None:
    """``sprtec-season/1`` with the contract's keys in its order; ``--best`` is echoed."""
    status, answer = _run(capsysbinary, tmp_path, [cup_file(["a", "b"]), cup_file(["b", "a"])], "--best", "1")
    assert status == 0
    assert list(answer) == ["format", "season", "best", "tournaments", "standings", "categories"]
    assert (answer["format"], answer["season"], answer["best"]) == ("sprtec-season/1", 2026, 1)
    assert answer["tournaments"][0] == {"index": 0, "name": "test", "date": "2026-04-01", "tier": "expres", "field": 2}
    assert list(answer["standings"][0]) == ["rank", "shared", "player", "name", "club", "category", "points",
                                            "played", "results"]
    assert list(answer["standings"][0]["results"][0]) == ["tournament", "rank", "cup_points", "counted"]
    assert answer["standings"][0]["rank"] == answer["standings"][1]["rank"] == 1


def test_a_file_s_own_error_names_the_file_and_every_file_is_read_before_the_season_is_checked(
    capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path
) -> None:
    """File 0 unfinished and file 1 not JSON: file 1's BAD_FORMAT (with ``"file": 1``), exit 2; a missing file
    is BAD_FORMAT naming it."""
    unfinished = {**cup_file(["a", "b"]), "results": [{"round": 1, "matches": [m("a", "b")]}]}
    status, answer = _run(capsysbinary, tmp_path, [unfinished, "{nope"])
    assert status == 2
    assert list(answer["error"]) == ["code", "message", "file"]
    assert (answer["error"]["code"], answer["error"]["file"]) == ("BAD_FORMAT", 1)
    bad = doc(players("a", "b"), results=rounds([m("a", "zed", (1, 0))]))
    status, answer = _run(capsysbinary, tmp_path, [cup_file(["a", "b"]), cup_file(["a", "b"]), bad])
    assert (status, answer["error"]["code"], answer["error"]["file"]) == (2, "UNKNOWN_PLAYER", 2)
    assert main(["season", "standings", str(tmp_path / "f0.json"), str(tmp_path / "missing.json")]) == 2
    missing = json.loads(capsysbinary.readouterr().out)["error"]
    assert (missing["code"], missing["file"]) == ("BAD_FORMAT", 1)


def test_season_file_is_a_code_of_its_own_beside_the_tournament_codes() -> None:
    """The engine's codes are the tournament file's (which the server passes through) and SEASON_FILE."""
    assert get_args(ErrorCode) == ERROR_CODES + SEASON_ERROR_CODES == (*ERROR_CODES, "SEASON_FILE")


def test_best_must_be_a_positive_number() -> None:
    """``--best 0`` is a usage error (argparse, exit 2)."""
    with pytest.raises(SystemExit) as caught:
        main(["season", "standings", "--best", "0", "x.json"])
    assert caught.value.code == 2


def test_the_season_reads_standard_input_once() -> None:
    """``sprtec season standings - -`` in a real process: standard input is the file at both places."""
    data = json.dumps(cup_file(["a", "b"])).encode("utf-8")
    done = subprocess.run([sys.executable, "-m", "sprtec", "season", "standings", "-", "-"], input=data,
                          capture_output=True, cwd=ROOT, timeout=60, check=False)
    assert done.returncode == 0, done.stdout
    answer = json.loads(done.stdout)
    assert [t["index"] for t in answer["tournaments"]] == [0, 1]
    assert [(r["player"], r["points"], r["played"]) for r in answer["standings"]] == [("a", 44, 2), ("b", 32, 2)]
