"""The golden leagues, played game by game, and the invalid files whose errors are golden too.

Why played and not written by hand: a golden case is a realistic league (a three-team match day of five-player
teams with draws and walkovers; a league of three-player teams over two match days; a league whose table needs
the mini-table and shared ranks), so each fixture's games come from its line-ups' schedule and each result from
a seeded model (``shared.draws.draw``) except where the story needs a walkover, a game still being played or a
given team score. Each case yields the league at a few moments; ``regenerate`` writes those states and the
commands' answers to ``golden/``, and the tests check both. ``ERRORS`` are invalid files, one or more for every
error code, with the answer each gives.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shared.draws import draw
from shared.league.model import Fixture, Game, League, LeagueSettings, Lineups, Player, Team
from shared.league.schedule import schedule
from tests.league.builders import Doc, doc, fixture, team

State = tuple[str, League]
Slot = tuple[int, int]  # (round, board)


@dataclass(frozen=True, kw_only=True, slots=True)
class Case:
    """A golden league: its name (the folder under golden/) and the states it passes through."""

    name: str
    states: Callable[[], Iterator[State]]


def club(tid: str, name: str, people: Sequence[str]) -> Team:
    """A team whose players' ids are ``<tid>1`` … in the order of ``people``."""
    return Team(id=tid, name=name, club=name,
                players=tuple(Player(id=f"{tid}{n}", name=person) for n, person in enumerate(people, start=1)))


def with_lineups(league: League, fid: str, home: Sequence[int] | None = None,
                 away: Sequence[int] | None = None) -> League:
    """The league with fixture ``fid``'s line-ups given: each a list of roster places (1-based)."""
    f = league.fixture(fid)
    lineups = Lineups(
        home=f.lineups.home if home is None else tuple(league.team(f.home).players[n - 1].id for n in home),
        away=f.lineups.away if away is None else tuple(league.team(f.away).players[n - 1].id for n in away),
    )
    return _replace_fixture(league, dataclasses.replace(f, lineups=lineups))


def with_games(league: League, fid: str, rounds: Sequence[int], *, strength: Mapping[str, float] | None = None,
               marks: Mapping[Slot, str] | None = None) -> League:
    """The league with every game of these rounds of fixture ``fid`` recorded: a seeded result (the home team's
    ``strength`` against the away team's), or ``marks[(round, board)]``: ``A``/``B``/``D`` (won by the home or
    the away team's player, drawn), ``a``/``b`` (a walkover won by the home or the away team's player), ``.``
    (listed, still being played), ``-`` (not listed)."""
    f = league.fixture(fid)
    assert f.lineups.home is not None and f.lineups.away is not None
    strengths = strength or {}
    edge = strengths.get(f.home, 0.0) - strengths.get(f.away, 0.0)
    chosen = marks or {}
    recorded = list(f.games)
    for r in schedule(f.lineups.home, f.lineups.away):
        if r.round not in rounds:
            continue
        for g in r.games:
            mark = chosen.get((r.round, g.board)) or _seeded_mark(league.seed, fid, r.round, g.board, edge)
            if mark != "-":
                recorded.append(_game(league.seed, fid, r.round, g.board, g.home, g.away, mark))
    return _replace_fixture(league, dataclasses.replace(f, games=tuple(recorded)))


def with_team_score(league: League, fid: str, home: int, away: int) -> League:
    """The league with fixture ``fid`` played to this team score: ``home`` games won by the home team's players,
    ``away`` by the away team's, the rest drawn, spread over the boards by a seeded shuffle."""
    f = league.fixture(fid)
    assert f.lineups.home is not None
    size = len(f.lineups.home)
    slots = sorted(((r, b) for r in range(1, size + 1) for b in range(1, size + 1)),
                   key=lambda s: draw(league.seed, "golden-spread", fid, *s))
    marks = {s: "A" if n < home else "B" if n < home + away else "D" for n, s in enumerate(slots)}
    return with_games(league, fid, range(1, size + 1), marks=marks)


def _seeded_mark(seed: int, fid: str, number: int, board: int, edge: float) -> str:
    """A won, drawn or lost game: the home team's player wins 41% of games (plus its edge), 18% are drawn."""
    u = draw(seed, "golden-outcome", fid, number, board)
    home_wins = min(max(0.41 + 0.1 * edge, 0.05), 0.77)
    return "A" if u < home_wins else "D" if u < home_wins + 0.18 else "B"


def _game(seed: int, fid: str, number: int, board: int, home: str, away: str, mark: str) -> Game:
    """One game of a team match with the result ``mark`` (see ``with_games``)."""
    a_is_home = number % 2 == 1
    if mark in "ab":
        return Game(round=number, home=home, away=away, walkover="home" if (mark == "a") == a_is_home else "away")
    if mark == ".":
        return Game(round=number, home=home, away=away)
    winner_goals = 1 + int(draw(seed, "golden-goals", fid, number, board, "winner") * 4)
    loser_goals = int(draw(seed, "golden-goals", fid, number, board, "loser") * winner_goals)
    if mark == "D":
        level = int(draw(seed, "golden-goals", fid, number, board, "draw") * 4)
        return Game(round=number, home=home, away=away, score=(level, level))
    home_won = (mark == "A") == a_is_home
    score = (winner_goals, loser_goals) if home_won else (loser_goals, winner_goals)
    return Game(round=number, home=home, away=away, score=score)


def _replace_fixture(league: League, changed: Fixture) -> League:
    """The league with one fixture replaced (same place)."""
    return dataclasses.replace(league, fixtures=tuple(changed if f.id == changed.id else f for f in league.fixtures))


# ------------------------------------------------------------------------------------------------ the cases


MOST = ("Jan Novák", "Petr Svoboda", "Tomáš Dvořák", "Martin Černý", "Jakub Procházka", "Lukáš Kučera",
        "Ondřej Veselý")
KLADNO = ("David Horák", "Michal Němec", "Pavel Marek", "Jiří Pokorný", "Josef Pospíšil", "Filip Hájek")
PRAHA = ("Vojtěch Jelínek", "Adam Král", "Matěj Růžička", "Daniel Beneš", "Marek Fiala", "Karel Sedláček",
         "Eva Nováková")


def trojutkani_5() -> Iterator[State]:
    """A three-team match day (trojutkání) of five-player teams: three fixtures, each supervised by the idle team.

    m1 (Most v Kladno) is played first: Kladno's Josef Pospíšil does not show for his round-4 game (a walkover).
    While m2 (Kladno v Praha) is under way, two games of its round 4 are being played and the rest of the round
    is not yet listed. In m3 (Praha v Most) Praha's Karel Sedláček leaves after round 3: his games of rounds 4
    and 5 are walkovers for Most.
    """
    league = League(
        name="2. liga družstev — skupina Střed, 1. kolo", season=2026, seed=20260307,
        settings=LeagueSettings(team_size=5),
        teams=(club("most", "BHC Most", MOST), club("kladno", "SK Kladno", KLADNO),
               club("praha", "Sprtec Praha", PRAHA)),
        fixtures=(Fixture(id="m1", day=1, home="most", away="kladno", referee_team="praha"),
                  Fixture(id="m2", day=1, home="kladno", away="praha", referee_team="most"),
                  Fixture(id="m3", day=1, home="praha", away="most", referee_team="kladno")),
    )
    strength = {"most": 0.6, "kladno": 0.0, "praha": 0.3}
    league = with_lineups(league, "m1", home=(1, 2, 3, 4, 5), away=(1, 2, 3, 4, 5))
    league = with_lineups(league, "m2", home=(1, 2, 3, 6, 4))
    yield "lineups-given", league
    # Josef Pospíšil (kladno5, B5) meets A2 in round 4: board 2.
    league = with_games(league, "m1", range(1, 6), strength=strength, marks={(4, 2): "a"})
    league = with_lineups(league, "m2", away=(2, 1, 3, 4, 6))
    league = with_games(league, "m2", range(1, 4), strength=strength)
    league = with_games(league, "m2", (4,), strength=strength, marks={(4, 1): ".", (4, 2): ".", (4, 3): "-",
                                                                       (4, 4): "-", (4, 5): "-"})
    league = with_lineups(league, "m3", home=(1, 2, 6, 4, 7), away=(1, 2, 6, 4, 7))
    yield "under-way", league
    m2 = league.fixture("m2")
    league = _replace_fixture(league, dataclasses.replace(m2, games=tuple(g for g in m2.games if g.round < 4)))
    league = with_games(league, "m2", (4, 5), strength=strength)
    # Karel Sedláček (praha6) is A3 of m3: board 3 in every round.
    league = with_games(league, "m3", range(1, 6), strength=strength, marks={(4, 3): "b", (5, 3): "b"})
    yield "final", league


BRNO = ("Filip Hájek", "Zdeněk Zeman", "Miroslav Kovář", "Patrik Vlček")
OSTRAVA = ("Martin Černý", "Josef Pospíšil", "Roman Doležal", "Jaroslav Kříž")
PLZEN = ("Lukáš Kučera", "Vojtěch Jelínek", "Radek Kolář", "Václav Bartoš")
ZLIN = ("Ondřej Veselý", "Adam Král", "Aleš Navrátil", "Šimon Kopecký")


def liga_3_two_days() -> Iterator[State]:
    """A league of three-player teams over two match days: on day 1 Brno, Ostrava and Plzeň play a three-team
    day; on day 2 Zlín plays each of them. On day 2 the fixture Ostrava v Zlín is unfinished for a while (round 3
    not yet played) and Zlín v Plzeň has no line-ups yet."""
    league = League(
        name="1. liga družstev trojic", season=2026, seed=3303,
        settings=LeagueSettings(team_size=3),
        teams=(club("brno", "SK Brno", BRNO), club("ostrava", "TJ Ostrava", OSTRAVA),
               club("plzen", "ŠK Plzeň", PLZEN), club("zlin", "Sprtec Zlín", ZLIN)),
        fixtures=(Fixture(id="d1-1", day=1, home="brno", away="ostrava", referee_team="plzen"),
                  Fixture(id="d1-2", day=1, home="ostrava", away="plzen", referee_team="brno"),
                  Fixture(id="d1-3", day=1, home="plzen", away="brno", referee_team="ostrava"),
                  Fixture(id="d2-1", day=2, home="zlin", away="brno", referee_team="ostrava"),
                  Fixture(id="d2-2", day=2, home="ostrava", away="zlin", referee_team="plzen"),
                  Fixture(id="d2-3", day=2, home="zlin", away="plzen", referee_team="brno")),
    )
    strength = {"brno": 0.4, "ostrava": -0.2, "plzen": 0.1, "zlin": 0.5}
    for fid, home, away in (("d1-1", (1, 2, 3), (1, 2, 3)), ("d1-2", (1, 2, 4), (1, 2, 3)),
                            ("d1-3", (1, 2, 3), (1, 2, 4))):
        league = with_games(with_lineups(league, fid, home, away), fid, (1, 2, 3), strength=strength)
    yield "after-day-1", league
    league = with_games(with_lineups(league, "d2-1", (1, 2, 3), (1, 4, 3)), "d2-1", (1, 2, 3), strength=strength)
    league = with_games(with_lineups(league, "d2-2", (3, 2, 1), (1, 2, 3)), "d2-2", (1, 2), strength=strength,
                        marks={(2, 3): "b"})
    yield "day-2-unfinished", league
    league = with_games(league, "d2-2", (3,), strength=strength)
    league = with_games(with_lineups(league, "d2-3", (1, 2, 4), (1, 2, 3)), "d2-3", (1, 2, 3), strength=strength)
    yield "final", league


# The ties: Tábor, Jihlava, Kolín, Liberec and Opava all end on 4 points with a team-score difference of 0.
# Tábor has 11 games for, the other four 10: Tábor is first on games_for. Among the four, the mini-table of
# their six fixtures gives Jihlava 4, Kolín 3, Liberec 3, Opava 2 (Kolín beat Liberec, but the mini-table is
# applied once): Jihlava 2nd, Kolín and Liberec share 3rd, Opava 5th.
TIES: tuple[tuple[str, int, str, str, int, int, str | None], ...] = (
    # id, day, home, away, team score, referee
    ("t1", 1, "kolin", "liberec", 3, 1, "opava"),
    ("t2", 1, "jihlava", "opava", 1, 0, "tabor"),
    ("t3", 2, "jihlava", "kolin", 3, 1, "liberec"),
    ("t4", 2, "opava", "tabor", 4, 3, None),
    ("t5", 3, "kolin", "opava", 2, 2, "jihlava"),
    ("t6", 3, "liberec", "tabor", 0, 0, None),
    ("t7", 4, "liberec", "jihlava", 5, 3, "opava"),
    ("t8", 4, "kolin", "tabor", 4, 4, None),
    ("t9", 5, "opava", "liberec", 4, 4, "kolin"),
    ("t10", 5, "tabor", "jihlava", 4, 3, None),
)


def ties() -> Iterator[State]:
    """Five three-player teams level on points and team-score difference (``TIES``), the table decided by games
    won, the mini-table once and a shared rank."""
    names = {"jihlava": "HK Jihlava", "kolin": "SK Kolín", "liberec": "Sprtec Liberec", "opava": "TJ Opava",
             "tabor": "BHC Tábor"}
    people = (BRNO, OSTRAVA, PLZEN, ZLIN, KLADNO[:4])
    league = League(
        name="Krajský přebor družstev", season=2026, seed=55,
        settings=LeagueSettings(team_size=3),
        teams=tuple(club(tid, names[tid], who) for tid, who in zip(sorted(names), people, strict=True)),
        fixtures=tuple(Fixture(id=fid, day=day, home=home, away=away, referee_team=referee)
                       for fid, day, home, away, _, _, referee in TIES),
    )
    for fid, _, _, _, home_games, away_games, _ in TIES:
        if fid == "t9":
            yield "after-day-4", league
        league = with_team_score(with_lineups(league, fid, (1, 2, 3), (1, 2, 3)), fid, home_games, away_games)
    yield "final", league


CASES: tuple[Case, ...] = (
    Case(name="trojutkani-5", states=trojutkani_5),
    Case(name="liga-3-two-days", states=liga_3_two_days),
    Case(name="ties", states=ties),
)


# ------------------------------------------------------------------------------------------------ invalid files


@dataclass(frozen=True, kw_only=True, slots=True)
class ErrorCase:
    """An invalid file (its text), the command's arguments after FILE and the code it must answer."""

    name: str
    code: str
    text: str
    args: tuple[str, ...] = ("table",)


def _text(value: Doc) -> str:
    """A hand-written file's text."""
    return json.dumps(value, ensure_ascii=False, indent=2) + "\n"


def _two(outcomes_m1: str | None = "", size: int = 3, **m1: Any) -> Doc:
    """Two three-player teams and one fixture between them."""
    return doc([team("a", 4), team("b", 4)], [fixture("m1", "a", "b", outcomes_m1, size=size, **m1)], size=size)


def _error_cases() -> Iterator[ErrorCase]:
    """One or more invalid files for every error code, and the order in which the checks come."""
    ok = _two("AAB")
    yield ErrorCase(name="not-json", code="BAD_FORMAT", text='{"format": "sprtec-league/1", "teams": [\n')
    yield ErrorCase(name="repeated-key", code="BAD_FORMAT",
                    text='{"format": "sprtec-league/1", "seed": 1, "seed": 2}\n')
    yield ErrorCase(name="unknown-setting", code="BAD_FORMAT", text=_text({**ok, "settings": {"team_sise": 3}}))
    yield ErrorCase(name="lineup-of-two", code="BAD_FORMAT",
                    text=_text(_two(None, lineups={"home": ["a1", "a2"], "away": ["b1", "b2", "b3"]})))
    yield ErrorCase(name="player-on-two-rosters", code="DUPLICATE_PLAYER",
                    text=_text(doc([team("a", 3), {"id": "b", "name": "B", "players": [{"id": "a2", "name": "X"}]}])))
    yield ErrorCase(name="lineup-of-another-team", code="UNKNOWN_PLAYER",
                    text=_text(_two(None, lineups={"home": ["a1", "a2", "b3"], "away": ["b1", "b2", "b4"]})))
    yield ErrorCase(name="game-of-nobody", code="UNKNOWN_PLAYER",
                    text=_text(_two(None, lineups={"home": ["a1", "a2", "a3"], "away": ["b1", "b2", "b3"]},
                                    games=[{"round": 1, "home": "a1", "away": "zed", "score": [1, 0]}])))
    yield ErrorCase(name="named-twice", code="PLAYED_TWICE",
                    text=_text(_two(None, lineups={"home": ["a1", "a2", "a1"], "away": ["b1", "b2", "b3"]})))
    twice = _two("A")
    twice["fixtures"][0]["games"] *= 2
    yield ErrorCase(name="game-listed-twice", code="PLAYED_TWICE", text=_text(twice))
    swapped = _two("")
    swapped["fixtures"][0]["games"] = [{"round": 2, "home": "a1", "away": "b2", "score": [1, 0]}]
    yield ErrorCase(name="home-and-away-swapped", code="BAD_RESULT", text=_text(swapped))
    wrong = _two("")
    wrong["fixtures"][0]["games"] = [{"round": 1, "home": "a1", "away": "b2", "score": [1, 0]}]
    yield ErrorCase(name="not-the-scheduled-pair", code="BAD_RESULT", text=_text(wrong))
    both = _two("")
    both["fixtures"][0]["games"] = [{"round": 1, "home": "a1", "away": "b1", "score": [1, 0], "walkover": "home"}]
    yield ErrorCase(name="score-and-walkover", code="BAD_RESULT", text=_text(both))
    early = _two(None, games=[{"round": 1, "home": "a1", "away": "b1", "score": [1, 0]}])
    yield ErrorCase(name="games-before-lineups", code="BAD_RESULT", text=_text(early))
    order = _two("A")
    order["fixtures"][0]["games"][0]["home"], order["fixtures"][0]["games"][0]["away"] = "b1", "a1"
    order["fixtures"].append(fixture("m2", "b", "a", None, size=3,
                                     lineups={"home": ["b1", "b2", "b3"], "away": ["a1", "a9", "a3"]}))
    yield ErrorCase(name="lineups-before-games", code="UNKNOWN_PLAYER", text=_text(order))
    yield ErrorCase(name="unknown-fixture", code="UNKNOWN_FIXTURE", text=_text(ok), args=("games", "--fixture", "m9"))
    yield ErrorCase(name="no-lineups-yet", code="ROUND_ORDER", text=_text(_two(None)),
                    args=("games", "--fixture", "m1"))


ERRORS: tuple[ErrorCase, ...] = tuple(_error_cases())
