"""``sprtec tournament import``: a turnaj-sprtec save becomes a tournament file whose standings are the program's.

The saves in ``tests/tournament/turnaj/`` were made by the organisers' program itself - its app.js (commit 1c8a813)
run under node with Vue 2.6.10, players entered with ``addPlayer``, rounds paired by ``generateRound``, scores and
referees entered, saved by ``saveTournament`` - and ``*.program.json`` is what its Results tab shows for each
(``tournamentResults``); turnaj/README.md says how they were made. Each
difference between the two programs is a test here and a note in docs/TOURNAMENT-NOTES.md ("Importing").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.tournament.board_referees import read_referees, refereed_counts, refereed_too_little, to_json
from shared.tournament.course import follow
from shared.tournament.errors import TournamentError
from shared.tournament.model import Match
from shared.tournament.pairing import pair
from shared.tournament.ranking import rank
from shared.tournament.standings import standings
from shared.tournament.table import Row
from shared.tournament.turnaj_import import NO_CAP, Imported, import_save, program_category
from shared.tournament.writing import dumps
from sprtec.cli import main

HERE = Path(__file__).parent / "turnaj"


def _save(name: str) -> dict[str, Any]:
    """A save of the program as JSON."""
    value: dict[str, Any] = json.loads((HERE / f"{name}.save.json").read_text(encoding="utf-8"))
    return value


def _imported(name: str) -> Imported:
    """The import of one of the program's saves."""
    return import_save((HERE / f"{name}.save.json").read_bytes())


def _shown(name: str) -> list[dict[str, Any]]:
    """What the program's Results tab shows for a save, best first."""
    results: list[dict[str, Any]] = json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))["results"]
    return results


def _rows(imported: Imported) -> dict[int, Row]:
    """sprtec's standings rows by the program's player index."""
    table = standings(follow(imported.tournament))
    by_id = {row.player: row for row in table.rows}
    return {index: by_id[pid] for index, pid in enumerate(imported.ids)}


def _counts(row: Row) -> tuple[int, ...]:
    """A row's numbers in the program's order: Z V R P B BS VB BSS BV BO."""
    return (row.played, row.wins, row.draws, row.losses, row.points, row.tiebreak("buchholz"),
            row.tiebreak("goals_capped"), row.tiebreak("buchholz2"), row.goals_for, row.goals_against)


def _program_counts(shown: dict[str, Any]) -> tuple[int, ...]:
    """The program's numbers of one player."""
    return tuple(shown[k] for k in ("matches", "wins", "ties", "losses", "points", "opponentsPoints", "goalsForSort",
                                    "opponentsOpponentsPoints", "goalsFor", "goalsAgainst"))


def test_the_imported_standings_are_the_programs_when_its_buchholz_compensation_works() -> None:
    """Every number and the order of a finished 27-player ČP24 tournament (a late entry, an absence, byes) equal what
    the program shows once its compensation of an opponent's missed rounds is applied as its code means it."""
    imported = _imported("cup24")
    rows = _rows(imported)
    shown = _shown("cup24.compensated")
    assert [rows[s["playerIndex"]].player for s in shown] == [r.player for r in standings(
        follow(imported.tournament)).rows]
    for s in shown:
        assert _counts(rows[s["playerIndex"]]) == _program_counts(s), s["name"]


def test_the_programs_buchholz_counts_an_opponents_missed_rounds_as_nothing() -> None:
    """The program never compensates (``roundsComplete.length`` of a number): its BS misses a draw per round an
    opponent did not play, which sprtec counts as the contract says; everyone else's BS is the program's."""
    imported = _imported("cup24")
    rows = _rows(imported)
    t = imported.tournament
    missed = {p.id: 5 - rows[i].played for i, p in enumerate(t.players)}
    assert sorted(pid for pid, n in missed.items() if n) == ["pospisil-adam", "prihoda-krystof"]
    opponents: dict[str, list[str]] = {pid: [] for pid in missed}
    for r in t.results:
        for e in r.matches:
            if isinstance(e, Match) and e.score is not None:
                opponents[e.home].append(e.away)
                opponents[e.away].append(e.home)
    for s in _shown("cup24.program"):
        row = rows[s["playerIndex"]]
        draws = sum(missed[o] for o in opponents[row.player])
        assert row.tiebreak("buchholz") == s["opponentsPoints"] + draws, s["name"]
    assert any(missed[o] for o in opponents["stastna-eva"])


def test_mid_way_the_standings_count_finished_rounds_and_the_program_every_entered_score() -> None:
    """Imported while round 3 is being entered, sprtec's standings are after round 2 - exactly the program's on the
    save of round 2 - while the program already counts the three scores of round 3."""
    imported = _imported("midway")
    table = standings(follow(imported.tournament))
    assert (table.after_round, table.complete) == (2, False)
    rows = _rows(imported)
    for s in _shown("midway-after-round-2.program"):
        assert _counts(rows[s["playerIndex"]]) == _program_counts(s), s["name"]
    assert [rows[s["playerIndex"]].rank for s in _shown("midway-after-round-2.program")] == list(range(1, 12))
    assert sum(s["matches"] for s in _shown("midway.program")) == sum(r.played for r in table.rows) + 6


def test_mid_way_the_round_being_entered_stays_open_and_the_next_is_paired_once_it_is_finished() -> None:
    """The unfinished round keeps its entered scores and its matches without one; ``pair`` answers ROUND_ORDER until
    the last two scores are in, then pairs round 4 of the imported field."""
    imported = _imported("midway")
    third = imported.tournament.results[-1]
    assert [e.score is not None for e in third.matches if isinstance(e, Match)] == [True, True, True, False, False]
    with pytest.raises(TournamentError) as refused:
        pair(imported.tournament)
    assert refused.value.code == "ROUND_ORDER"
    save = _save("midway")
    for match in save["rounds"][2]["matches"][3:]:
        match["home_score"], match["away_score"] = 2, 1
    finished = import_save(json.dumps(save))
    fourth = pair(finished.tournament)
    assert (fourth.stage, fourth.round, len(fourth.matches), len(fourth.byes)) == (0, 4, 5, 1)


def test_a_player_left_out_of_a_round_is_absent_and_a_late_entry_is_absent_before_he_came() -> None:
    """Pospíšil took no part in round 4, Příhoda entered after round 1; a player who will miss a round not yet
    paired is absent from it too, so ``pair`` leaves him out."""
    t = _imported("cup24").tournament
    assert [(a.round, a.player) for a in t.absent] == [(1, "prihoda-krystof"), (4, "pospisil-adam")]
    save = _save("midway")
    save["players"][0]["rounds"] = [0, 1, 2, 4]
    for match in save["rounds"][2]["matches"][3:]:
        match["home_score"], match["away_score"] = 0, 0
    away = import_save(json.dumps(save))
    assert ("maly-tadeas", 4) in {(a.player, a.round) for a in away.tournament.absent}
    assert [u.player for u in pair(away.tournament).not_paired] == ["maly-tadeas"]


def test_the_programs_settings_become_the_files() -> None:
    """Rounds, points for a win and a draw, a bye's goals, the goals cap (0: none), the tier and season, the date."""
    cup, midway = _imported("cup24").tournament, _imported("midway").tournament
    assert (cup.stages[0].rounds, cup.stages[0].points.win, cup.stages[0].points.draw) == (5, 3, 1)
    assert (cup.settings.bye_score, cup.settings.goals_cap) == ((5, 0), 5)
    assert (cup.cup is not None and cup.cup.tier, cup.season, cup.date) == ("cp24", 2026, "2025-11-22")
    assert (midway.stages[0].points.win, midway.settings.bye_score, midway.settings.goals_cap) == (2, (3, 0), NO_CAP)
    assert (midway.cup, midway.date, midway.name) == (None, "2025-12-13", "Mikulášský turnaj")


def test_each_player_keeps_his_name_club_sex_year_of_birth_and_veteran_mark() -> None:
    """``Jan Novák`` of SHL Brno, born 1988; a woman is ``f``; the program's veteran is ``veteran`` with no sex."""
    t = _imported("cup24").tournament
    people = {p.id: p for p in t.players}
    assert (people["novak-jan"].name, people["novak-jan"].club, people["novak-jan"].year_of_birth) == \
        ("Jan Novák", "BHC Dragons Brno", 1988)
    assert (people["cerna-katerina"].sex, people["horak-karel"].veteran, people["horak-karel"].sex) == ("f", True, None)
    assert people["nemec-martin"].year_of_birth is None
    assert people["zolc-lukasz"].name == "Łukasz Żółć"


def test_categories_are_the_programs_even_when_its_season_is_not_the_year_of_the_date() -> None:
    """Outside the cup the contract's season is the date's year (2025), the program's its own (2026): the program's
    category is then written as the player's code, so every player keeps the category the program showed."""
    imported = _imported("midway")
    ranking = {r.player: r.category for r in rank(imported.tournament).rows}
    for s in _shown("midway.program"):
        assert ranking[imported.ids[s["playerIndex"]]] == s["category"], s["name"]
    written = {p.id: p.category for p in imported.tournament.players if p.category}
    assert written == {"maly-tadeas": "Z", "dolezal-vit": "J", "moravec-simon": "M"}


def test_ids_come_from_surname_and_name_and_two_alike_are_told_apart() -> None:
    """``novak-jan`` (diacritics and Polish letters folded), the same in every save of a season; two of one name get
    the year of birth, two of one name and year a number."""
    save = _save("ties-1")
    save["players"][1].update(surname="Żółć", name="Łukasz")
    save["players"][2].update(surname="Adámek", name="Jan", yearOfBirth=2001)
    save["players"][3].update(surname="Adámek", name="Jan", yearOfBirth=1990)
    assert import_save(json.dumps(save)).ids[:5] == ("adamek-jan-1990", "zolc-lukasz", "adamek-jan-2001",
                                                      "adamek-jan-2", "erben-pavel")


def test_the_referees_travel_beside_the_file_and_count_as_the_program_counts() -> None:
    """Every board's referee and each round's two recorders; the refereed counts and the ``!`` below half the
    matches played are the program's for every player, and the referees file reads back."""
    imported = _imported("cup24")
    t = imported.tournament
    counts = refereed_counts(t, imported.referees)
    rows = _rows(imported)
    for s in _shown("cup24.program"):
        pid = imported.ids[s["playerIndex"]]
        assert counts[pid] == s["referee"], s["name"]
        assert refereed_too_little(counts[pid], rows[s["playerIndex"]].played) == s["refereeWarning"], s["name"]
    assert len(imported.referees.boards) == sum(len([e for e in r.matches if isinstance(e, Match)]) for r in t.results)
    assert read_referees(json.loads(json.dumps(to_json(imported.referees))), t) == imported.referees


def test_cup_points_and_category_winners_are_the_programs_but_nobody_wins_the_unknown_category() -> None:
    """ČP24 points of all 27 are the program's; its first player of an unknown category (``?``) is marked a winner,
    sprtec marks no winner of ``?`` (the contract)."""
    imported = _imported("cup24")
    ranking = {r.player: r for r in rank(imported.tournament).rows}
    for s in _shown("cup24.program"):
        r = ranking[imported.ids[s["playerIndex"]]]
        assert (r.cup_points, r.category) == (s["cpPoints"], s["category"]), s["name"]
        assert r.category_winner == (s["categoryWinner"] and s["category"] != "?"), s["name"]
    assert [s["name"] for s in _shown("cup24.program") if s["categoryWinner"] and s["category"] == "?"] == \
        ["NĚMEC Martin"]


def test_an_entry_who_never_played_counts_in_the_programs_cup_field_but_is_not_ranked() -> None:
    """The program counts every listed player in the field n of the cup's formula; the contract counts the ranked,
    so each player's points are the program's less one and the entry who never played is not ranked."""
    imported = _imported("cup24-an-entry-who-never-played")
    ranking = rank(imported.tournament)
    assert ranking.cup is not None and ranking.cup.field == 27
    points = {r.player: r.cup_points for r in ranking.rows}
    for s in _shown("cup24-an-entry-who-never-played.program"):
        pid = imported.ids[s["playerIndex"]]
        if s["matches"] == 0:
            assert pid not in points and s["cpPoints"] == 29
        else:
            assert points[pid] == s["cpPoints"] - 1, s["name"]


def test_players_equal_on_every_criterion_share_the_place_the_program_numbers_them_apart() -> None:
    """Bláha and Fousek are equal on points, BS, VB and BSS and never met: the program shows 2. and 3. with its
    ``?`` and gives 22 and 17 cup points, sprtec both rank 2 (shared) and the points of rank 2."""
    imported = _imported("ties-1")
    shown = _shown("ties-1.program")
    assert [(s["position"], s["sharedPosition"], s["cpPoints"]) for s in shown[1:3]] == [(2, True, 22), (3, True, 17)]
    ranking = {r.player: r for r in rank(imported.tournament).rows}
    for s in shown[1:3]:
        r = ranking[imported.ids[s["playerIndex"]]]
        assert (r.rank, r.shared, r.cup_points) == (2, True, 22)


def test_the_programs_question_mark_ignores_buchholz_sprtec_shares_only_equals() -> None:
    """The program's check of a shared place compares a misspelt field (``oppontentsPoints``), so Erben and Grygar,
    level on points, VB and BSS but not on BS (11 and 7), get its ``?``; sprtec ranks them 2 and 3, not shared."""
    imported = _imported("ties-2")
    shown = _shown("ties-2.program")
    assert [(s["points"], s["opponentsPoints"], s["sharedPosition"]) for s in shown[1:3]] == [(7, 11, True),
                                                                                               (7, 7, True)]
    rows = _rows(imported)
    assert [(rows[s["playerIndex"]].rank, rows[s["playerIndex"]].shared) for s in shown[1:3]] == [(2, False),
                                                                                                   (3, False)]


def test_two_level_players_who_drew_each_other_share_the_place_the_program_numbers_them_apart() -> None:
    """Adámek and Bláha, level on everything, drew their match: the program's head-to-head takes the ``?`` away and
    numbers them 2. and 3.; the contract's head-to-head needs a decisive result, so sprtec shares rank 2."""
    imported = _imported("ties-18")
    shown = _shown("ties-18.program")
    assert [(s["position"], s["sharedPosition"]) for s in shown[1:3]] == [(2, False), (3, False)]
    rows = _rows(imported)
    assert [(rows[s["playerIndex"]].rank, rows[s["playerIndex"]].shared) for s in shown[1:3]] == [(2, True),
                                                                                                  (2, True)]


def test_a_save_from_before_the_program_kept_a_season_and_a_goals_cap_takes_its_defaults() -> None:
    """A save without ``season``, ``goalsForSortMax`` or ``byeGoalsFor`` (the program's 2017 saves) takes the date's
    year and the program's defaults, 5 and 5."""
    save = _save("cup24")
    for name in ("season", "goalsForSortMax", "byeGoalsFor"):
        del save["config"][name]
    t = import_save(json.dumps(save)).tournament
    assert (t.season, t.settings.goals_cap, t.settings.bye_score) == (2025, 5, (5, 0))


BAD_SAVES = [
    ("an unknown tier", lambda s: s["config"]["categories"][2].update(title="ČP48"), "BAD_FORMAT", "ČP48"),
    ("another points table", lambda s: s["config"]["categories"][2]["points"].__setitem__(0, 201), "BAD_FORMAT",
     "differ"),
    ("a year of birth after the season", lambda s: s["players"][0].update(yearOfBirth=2030), "BAD_FORMAT",
     "NOVÁK Jan"),
    ("a player who is not in the save", lambda s: s["rounds"][0]["matches"][0].update(home=99), "UNKNOWN_PLAYER",
     "rounds[0].matches[0].home"),
    ("a score that is no number", lambda s: s["rounds"][0]["matches"][0].update(home_score="tři"), "BAD_RESULT",
     "home_score"),
    ("a player twice in a round", lambda s: s["rounds"][0]["matches"][1].update(home=s["rounds"][0]["matches"][0]
                                                                                ["home"]), "PLAYED_TWICE", ""),
    ("more rounds than it has", lambda s: s["config"].update(numberOfRounds=3), "ROUND_ORDER", "numberOfRounds"),
]


@pytest.mark.parametrize(("why", "spoil", "code", "named"), BAD_SAVES, ids=[b[0] for b in BAD_SAVES])
def test_a_save_that_cannot_be_a_tournament_is_refused_in_words(why: str, spoil: Any, code: str, named: str) -> None:
    """The contract's code and a message naming the player, round or match of the save."""
    save = _save("cup24")
    spoil(save)
    with pytest.raises(TournamentError) as refused:
        import_save(json.dumps(save, ensure_ascii=False))
    assert refused.value.code == code and named in refused.value.message


def test_the_import_command_writes_the_file_the_referees_and_the_association_sheet(
        tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    """``sprtec tournament import SAVE`` prints the canonical file (as ``standings`` reads it); ``--out``,
    ``--referees`` and ``--xlsx`` write the three files; a bad save is the contract's error, exit 2."""
    save = HERE / "cup24.save.json"
    assert main(["tournament", "import", str(save)]) == 0
    printed = capsysbinary.readouterr().out
    assert printed.decode("utf-8") == dumps(_imported("cup24").tournament)
    out, referees, sheet = tmp_path / "t.json", tmp_path / "r.json", tmp_path / "a.xlsx"
    assert main(["tournament", "import", str(save), "--out", str(out), "--referees", str(referees),
                 "--xlsx", str(sheet)]) == 0
    assert capsysbinary.readouterr().out.decode().split() == [str(out), str(referees), str(sheet)]
    assert out.read_bytes() == printed and json.loads(referees.read_text())["format"] == "sprtec-referees/1"
    assert sheet.read_bytes()[:2] == b"PK"
    broken = tmp_path / "broken.json"
    broken.write_text('{"config": {"category": 7}, "players": [], "rounds": []}')
    assert main(["tournament", "import", str(broken)]) == 2
    assert json.loads(capsysbinary.readouterr().out)["error"]["code"] == "BAD_FORMAT"


@st.composite
def _saves(draw: st.DrawFn) -> dict[str, Any]:
    """A small save of the program's shape: players, rounds of matches with scores (some not entered), byes."""
    count = draw(st.integers(min_value=2, max_value=9))
    people = [{"surname": f"Hráč{i}", "name": "Ján", "club": -1, "sex": draw(st.sampled_from(["male", "female"])),
               "yearOfBirth": draw(st.sampled_from(["", 1980, 2012, 2018])), "rounds": [0, 1, 2]}
              for i in range(count)]
    rounds = []
    for number in range(draw(st.integers(min_value=0, max_value=3))):
        order = draw(st.permutations(range(count)))
        last = number == 2
        matches = [{"home": order[i], "away": order[i + 1],
                    "home_score": draw(st.integers(0, 9)) if not last or draw(st.booleans()) else "",
                    "away_score": draw(st.integers(0, 9)), "referee": -1}
                   for i in range(0, count - 1, 2)]
        rounds.append({"matches": matches, "bye": order[-1] if count % 2 else -1, "refereeCheck": [-1, -1]})
    return {"config": {"name": "T", "numberOfRounds": 3, "date": "2026-03-01", "season": 2026, "category": 1},
            "players": people, "rounds": rounds}


@settings(max_examples=60, deadline=None)
@given(_saves())
def test_an_import_counts_every_finished_round_as_the_program_counts_it(save: dict[str, Any]) -> None:
    """Whatever the save: the import is the same bytes twice, every player is in the standings once, and his
    points, matches and goals are the program's sums over the finished rounds (a bye a 5:0 win)."""
    first, again = import_save(json.dumps(save)), import_save(json.dumps(save))
    assert dumps(first.tournament) == dumps(again.tournament)
    table = standings(follow(first.tournament))
    assert sorted(r.player for r in table.rows) == sorted(first.ids)
    finished = [r for r in save["rounds"] if all(m["home_score"] != "" for m in r["matches"])]
    for index, pid in enumerate(first.ids):
        points = goals = played = 0
        for r in finished[:table.after_round]:
            for m in r["matches"]:
                if index in (m["home"], m["away"]):
                    mine, theirs = (m["home_score"], m["away_score"]) if m["home"] == index else \
                        (m["away_score"], m["home_score"])
                    points += 3 if mine > theirs else 1 if mine == theirs else 0
                    goals += mine
                    played += 1
            if r["bye"] == index:
                points, goals, played = points + 3, goals + 5, played + 1
        row = next(r for r in table.rows if r.player == pid)
        assert (row.points, row.goals_for, row.played) == (points, goals, played)
    categories = {r.player: r.category for r in rank(first.tournament).rows}
    for index, pid in enumerate(first.ids):
        if pid in categories:
            p = save["players"][index]
            assert categories[pid] == program_category(p["sex"], p["yearOfBirth"] or None, 2026)
