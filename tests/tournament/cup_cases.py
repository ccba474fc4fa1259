"""The golden tournaments of the Czech Cup: categories, every tier, players out, an early end, and a season.

Why apart from ``cases``: these cases exist for the final ranking (``sprtec tournament ranking``) and the
season (``sprtec season standings``): a 40-player cp24 Swiss (``examples/tournament-czech-cup-24.json`` is its
start), a Swiss and a knockout in which players withdraw and one is disqualified, a round robin whose players
cover every rule of the categories, one small field ranked under each tier with shared ranks, and a Swiss the
organiser ended after round 3. ``SEASONS`` lists the season's runs over the final states of these files.
Rounds are played as in ``cases`` (the seeded score model) except where the story needs a result.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass

from shared.tournament.berger import berger_rounds
from shared.tournament.course import follow
from shared.tournament.events import (
    ApplyPairing,
    End,
    Event,
    GiveCard,
    MarkAbsent,
    RecordResult,
    Withdraw,
    apply,
    fold,
)
from shared.tournament.model import Cup, Match, Player, Points, Sex, Stage, Tier, Tournament
from shared.tournament.pairing import pair
from shared.tournament.standings import standings
from tests.tournament.cases import CASES, CZECH_FIELD, Case, State, pair_or_none, play, player

TIER_NAMES: tuple[Tier, ...] = ("expres", "cp12", "cp24", "cp36", "czech_open")


def czech_cup_24_example() -> Tournament:
    """examples/tournament-czech-cup-24.json: a Czech Cup 24 of 40 players with their years of birth, sexes and
    veterans (six Swiss rounds by the field's size), before its first round."""
    return Tournament(name="Český pohár 24 — Olomouc", seed=20260516, players=tuple(player(e) for e in CZECH_FIELD),
                      date="2026-05-16", cup=Cup(tier="cp24", season=2026))


def czech_cup_24() -> Iterator[State]:
    """The example played out: rkolar is absent in round 2, vbartos withdraws after round 4."""
    t = czech_cup_24_example()
    yield "before-round-1", t
    t, _ = play(t)
    t = apply(t, MarkAbsent(round=2, player="rkolar"))
    t, _ = play(t)
    t, _ = play(t)
    yield "before-round-4", t
    t, _ = play(t)
    t = apply(t, Withdraw(player="vbartos", after_round=4))
    t, _ = play(t)
    yield "before-round-6", t
    t, _ = play(t)
    yield "final", t


def players_out() -> Iterator[State]:
    """Twelve players, four Swiss rounds, the best four to a knockout with a match for third place (cp12, a
    season but no date). jpokorny withdraws after round 1; the Swiss's first is disqualified for his conduct in
    round 4 and its second withdraws before the knockout (both give their places to the next best); a semi-final
    winner withdraws before the final and loses it by walkover."""
    t = Tournament(name="Český pohár 12 — Zlín", seed=20260919, players=tuple(player(e) for e in CZECH_FIELD[:12]),
                   stages=(Stage(rounds=4, advance=4), Stage(system="knockout", third_place=True)),
                   cup=Cup(tier="cp12", season=2026))
    yield "before-round-1", t
    t, _ = play(t)
    t = apply(t, Withdraw(player="jpokorny", after_round=1))
    t, _ = play(t)
    t, _ = play(t)
    t, _ = play(t)
    first, second = standings(follow(t)).places()[:2]
    t = fold(t, [GiveCard(round=4, player=first, card="disqualified", reason="abusive conduct"),
                 Withdraw(stage=1, player=second, after_round=0)])
    yield "before-stage-1-round-1", t
    semis = pair(t)
    t, _ = play(t)
    winner = _winner(t, 1, 1, semis.matches[0].home, semis.matches[0].away)
    t = apply(t, Withdraw(stage=1, player=winner, after_round=1))
    yield "before-stage-1-round-2", t
    t, _ = play(t)
    yield "final", t


def _winner(t: Tournament, stage: int, number: int, home: str, away: str) -> str:
    """The winner of a listed match."""
    (r,) = [r for r in t.results if (r.stage, r.round) == (stage, number)]
    (found,) = [e.winner for e in r.matches if isinstance(e, Match) and (e.home, e.away) == (home, away)]
    assert found is not None
    return found


# Players of the categories case: one for each rule of TOURNAMENT.md "Categories" in the season 2026 (from the
# date: the cup has no season): id, name, club, category, year of birth, sex, veteran.
CATEGORY_FIELD: tuple[tuple[str, str, str, str, int | None, Sex | None, bool], ...] = (
    ("jnovak", "Jan Novák", "SK Brno", "J", 1988, "m", False),  # an explicit code wins: J
    ("mnemec", "Michal Němec", "Sokol Praha", "men", 1975, "m", False),  # free text, derived: M (moved club)
    ("smoravec", "Štěpán Moravec", "SK Pardubice", "m", 2013, "m", False),  # "m" is free text: age 13, Z
    ("surban", "Stanislav Urban", "Sokol Praha", "", 1957, "m", True),  # veteran: V
    ("lblazek", "Libor Blažek", "HC Olomouc", "v", None, None, True),  # "v" is free text; veteran, no year: V
    ("kholub", "Kryštof Holub", "ŠK Plzeň", "", 2015, "m", False),  # age 11: P
    ("advorakova", "Anna Dvořáková", "HC Olomouc", "", 2016, "f", False),  # age 10, a girl: P before L
    ("tdvorakova", "Tereza Dvořáková", "HC Olomouc", "", 2012, "f", False),  # age 14, a woman: L before Z
    ("kcerna", "Kateřina Černá", "TJ Ostrava", "", None, "f", False),  # no year, a woman: L
    ("pholub", "Petr Holub", "ŠK Plzeň", "", 2014, "m", False),  # age 12: Z
    ("vstastny", "Vít Šťastný", "HK Jihlava", "?", 2011, "m", False),  # "?" is not a code; age 15: J
    ("dbures", "Dominik Bureš", "Sokol Praha", "juniors", 2008, "m", False),  # age 18: M
    ("lsvobodova", "Lucie Svobodová", "Sokol Praha", "", 2001, "f", True),  # a veteran woman: V before L
    ("mkovar", "Miroslav Kovář", "SK Brno", "", None, None, False),  # nothing known: ?
    ("jkriz", "Jaroslav Kříž", "TJ Ostrava", "", None, "m", False),  # a man without a year: ?
    ("fhajek", "Filip Hájek", "SK Brno", "", 2001, None, False),  # a year and no sex: M
)


def categories() -> Iterator[State]:
    """A round robin of sixteen (fifteen rounds) whose players cover every category rule; the same file
    without a date (no season: only the explicit code gives a category)."""
    field = tuple(Player(id=pid, name=name, club=club, category=category, year_of_birth=year, sex=sex,
                         veteran=veteran) for pid, name, club, category, year, sex, veteran in CATEGORY_FIELD)
    t = Tournament(name="Czech Open — Praha", seed=20261121, players=field,
                   stages=(Stage(system="round_robin"),), date="2026-11-21", cup=Cup(tier="czech_open"))
    yield "before-round-1", t
    while pair_or_none(t) is not None:
        t, _ = play(t)
    yield "final", t
    yield "final-without-a-season", dataclasses.replace(t, date=None)


# Six players of a round robin whose results give shared ranks: a wins all 2:0; b and c draw 1:1 and beat d,
# e, f 1:0; d, e and f draw 0:0 among themselves. So a 1st, b and c share 2nd, d, e and f share 4th.
TIER_FIELD = ("mcerny", "tdvorak", "psvoboda", "enovakova", "oves", "fhajek")


def tiers() -> Iterator[State]:
    """One small finished round robin of the season 2025 ranked under each tier (a field of 6, below every
    table's length), with shared ranks."""
    field = tuple(player(e) for pid in TIER_FIELD for e in CZECH_FIELD if e[0] == pid)
    a, b, c, d, e, f = TIER_FIELD
    score = {frozenset((b, c)): (1, 1)} | {frozenset((x, y)): (0, 0) for x, y in ((d, e), (d, f), (e, f))}
    winners = {a: 2} | dict.fromkeys((b, c), 1)
    t = Tournament(name="Turnaj pro každou úroveň", seed=2025, players=field,
                   stages=(Stage(system="round_robin", points=Points(win=3, draw=1, loss=0)),), date="2025-06-07")
    for number, r in enumerate(berger_rounds(len(field)), start=1):
        t = _apply_round(t, number, [(field[h - 1].id, field[x - 1].id) for h, x in r.pairs], score, winners)
    for tier in TIER_NAMES:
        yield tier, dataclasses.replace(t, cup=Cup(tier=tier, season=2025))


def _apply_round(t: Tournament, number: int, pairs: list[tuple[str, str]],
                 score: dict[frozenset[str], tuple[int, int]], winners: dict[str, int]) -> Tournament:
    """Pair round ``number`` as scheduled and give each match its hand-made result."""
    t = apply(t, ApplyPairing(pairing=pair(t)))
    events: list[Event] = []
    for home, away in pairs:
        if frozenset((home, away)) in score:
            goals = score[frozenset((home, away))]
        else:
            better = min((home, away), key=lambda p: -winners.get(p, 0))
            margin = winners[better]
            goals = (margin, 0) if better == home else (0, margin)
        events.append(RecordResult(round=number, home=home, away=away, score=goals))
    return fold(t, events)


def ended_early() -> Iterator[State]:
    """A Swiss of ten planned for five rounds that the organiser ended after round 3 (the hall had to be
    vacated); it is complete and counts for the season."""
    field = tuple(player(e) for e in CZECH_FIELD[8:18])
    t = Tournament(name="Český pohár Expres — Jihlava", seed=20261122, players=field, stages=(Stage(rounds=5),),
                   date="2026-11-21", cup=Cup(tier="expres", season=2026))
    yield "before-round-1", t
    t, _ = play(t)
    t, _ = play(t)
    yield "before-round-3", t
    t, _ = play(t)
    yield "before-round-4", t
    yield "ended", apply(t, End(after_round=3, reason="the hall had to be vacated"))


CUP_CASES: tuple[Case, ...] = (
    Case(name="czech-cup-24", states=czech_cup_24),
    Case(name="players-out", states=players_out),
    Case(name="categories", states=categories),
    Case(name="tiers", states=tiers),
    Case(name="ended-early", states=ended_early),
)
ALL_CASES: tuple[Case, ...] = CASES + CUP_CASES


@dataclass(frozen=True, kw_only=True, slots=True)
class SeasonRun:
    """One golden run of ``sprtec season standings``: its label, its files (case/state) and ``--best``."""

    label: str
    files: tuple[str, ...]
    best: int | None = None


SEASON_FILES = ("czech-cup-40/final", "czech-cup-24/final", "players-out/final", "categories/final",
                "ended-early/ended")
SEASONS: tuple[SeasonRun, ...] = (
    SeasonRun(label="all-results", files=SEASON_FILES),
    SeasonRun(label="best-3", files=SEASON_FILES, best=3),
    SeasonRun(label="best-1-in-another-order", files=tuple(reversed(SEASON_FILES)), best=1),
    SeasonRun(label="an-unfinished-file", files=("czech-cup-40/final", "czech-cup-24/before-round-6")),
    SeasonRun(label="a-file-without-a-cup", files=("czech-cup-40/final", "swiss-then-knockout/final")),
    SeasonRun(label="a-file-of-another-season", files=("czech-cup-40/final", "tiers/cp12")),
    SeasonRun(label="a-file-without-a-season", files=("categories/final-without-a-season", "czech-cup-40/final")),
)
