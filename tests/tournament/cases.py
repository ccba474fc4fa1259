"""The golden tournaments, played event by event through the engine, and the example files built from them.

Why played and not written by hand: a golden case is a realistic tournament (a 40-player Czech Cup field
over five Swiss rounds with draws, walkovers, a bye every round, an absence, a late entry, a withdrawal and
cards leading to suspensions; a round robin; a knockout; a Swiss advancing to a knockout), so each round is
paired by ``pair`` and applied with ``ApplyPairing``, and results come from the seeded score model of
``sprtec bench tournament`` except where the story needs a walkover, a shoot-out or a card. Each case
yields the tournament before every pairing and at its end; ``regenerate`` writes those states and the
command's answers to ``golden/``, and the tests check both.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from benchmarks.tournament_pairing import simulated_score
from shared.draws import draw
from shared.tournament.events import (
    AddPlayer,
    ApplyPairing,
    Event,
    GiveCard,
    MarkAbsent,
    RecordResult,
    Withdraw,
    apply,
    fold,
)
from shared.tournament.model import CardKind, Cup, Player, Points, Sex, Side, Stage, Tournament
from shared.tournament.pairing import Pairing, pair

State = tuple[str, Tournament]

# 40 entrants of a Czech Cup "Expres": id, name, club, rating (None: unrated), category.
CZECH_FIELD: tuple[tuple[str, str, str, int | None, str], ...] = (
    ("jnovak", "Jan Novák", "SK Brno", 1842, "men"),
    ("psvoboda", "Petr Svoboda", "Sokol Praha", 1796, "men"),
    ("tdvorak", "Tomáš Dvořák", "HC Olomouc", 1770, "men"),
    ("mcerny", "Martin Černý", "TJ Ostrava", 1755, "men"),
    ("jprochazka", "Jakub Procházka", "SK Brno", 1731, "men"),
    ("lkucera", "Lukáš Kučera", "ŠK Plzeň", 1718, "men"),
    ("oves", "Ondřej Veselý", "Sprtec Zlín", 1702, "men"),
    ("dhorak", "David Horák", "HK Jihlava", 1690, "men"),
    ("mnemec", "Michal Němec", "SK Pardubice", 1677, "men"),
    ("pmarek", "Pavel Marek", "Sokol Praha", 1665, "men"),
    ("jpokorny", "Jiří Pokorný", "HC Olomouc", 1650, "men"),
    ("jpospisil", "Josef Pospíšil", "TJ Ostrava", 1641, "men"),
    ("fhajek", "Filip Hájek", "SK Brno", 1630, "men"),
    ("vjelinek", "Vojtěch Jelínek", "ŠK Plzeň", 1618, "men"),
    ("akral", "Adam Král", "Sprtec Zlín", 1604, "men"),
    ("mruzicka", "Matěj Růžička", "HK Jihlava", 1596, "juniors"),
    ("dbenes", "Daniel Beneš", "SK Pardubice", 1583, "men"),
    ("mfiala", "Marek Fiala", "Sokol Praha", 1570, "men"),
    ("ksedlacek", "Karel Sedláček", "HC Olomouc", 1561, "men"),
    ("rdolezal", "Roman Doležal", "TJ Ostrava", 1549, "men"),
    ("zzeman", "Zdeněk Zeman", "SK Brno", 1540, "men"),
    ("rkolar", "Radek Kolář", "ŠK Plzeň", 1528, "men"),
    ("anavratil", "Aleš Navrátil", "Sprtec Zlín", 1515, "men"),
    ("vcermak", "Vladimír Čermák", "HK Jihlava", 1502, "men"),
    ("mvanek", "Milan Vaněk", "SK Pardubice", 1490, "men"),
    ("surban", "Stanislav Urban", "Sokol Praha", 1478, "men"),
    ("lblazek", "Libor Blažek", "HC Olomouc", 1466, "men"),
    ("jkriz", "Jaroslav Kříž", "TJ Ostrava", 1455, "men"),
    ("mkovar", "Miroslav Kovář", "SK Brno", 1441, "men"),
    ("vbartos", "Václav Bartoš", "ŠK Plzeň", 1430, "men"),
    ("enovakova", "Eva Nováková", "SK Brno", 1512, "women"),
    ("lsvobodova", "Lucie Svobodová", "Sokol Praha", 1467, "women"),
    ("tdvorakova", "Tereza Dvořáková", "HC Olomouc", 1421, "women"),
    ("kcerna", "Kateřina Černá", "TJ Ostrava", None, "women"),
    ("skopecky", "Šimon Kopecký", "Sprtec Zlín", 1398, "juniors"),
    ("vstastny", "Vít Šťastný", "HK Jihlava", None, "juniors"),
    ("smoravec", "Štěpán Moravec", "SK Pardubice", 1377, "older pupils"),
    ("kholub", "Kryštof Holub", "ŠK Plzeň", None, "younger pupils"),
    ("dbures", "Dominik Bureš", "Sokol Praha", 1352, "juniors"),
    ("pvlcek", "Patrik Vlček", "SK Brno", 1604, "men"),  # enters late, from round 2
)

# Year of birth, sex and veteran of the same entrants, as an organiser's list has them (None: not given). The
# free-text categories above do not count: the category is derived (so dbures, born 2008, is M in 2026).
BORN: dict[str, tuple[int | None, Sex | None, bool]] = {
    "jnovak": (1988, "m", False), "psvoboda": (1992, "m", False), "tdvorak": (1979, "m", False),
    "mcerny": (1985, "m", False), "jprochazka": (1996, "m", False), "lkucera": (1990, "m", False),
    "oves": (1983, "m", False), "dhorak": (1999, "m", False), "mnemec": (1975, "m", False),
    "pmarek": (1994, "m", False), "jpokorny": (1970, "m", False), "jpospisil": (1961, "m", True),
    "fhajek": (2001, "m", False), "vjelinek": (1998, "m", False), "akral": (2003, "m", False),
    "mruzicka": (2009, "m", False), "dbenes": (1987, "m", False), "mfiala": (1981, "m", False),
    "ksedlacek": (1977, "m", False), "rdolezal": (1993, "m", False), "zzeman": (1968, "m", False),
    "rkolar": (1986, "m", False), "anavratil": (1995, "m", False), "vcermak": (1972, "m", False),
    "mvanek": (1989, "m", False), "surban": (1957, "m", True), "lblazek": (1963, None, True),
    "jkriz": (None, "m", False), "mkovar": (None, None, False), "vbartos": (1984, "m", False),
    "enovakova": (1990, "f", False), "lsvobodova": (2001, "f", False), "tdvorakova": (2012, "f", False),
    "kcerna": (None, "f", False), "skopecky": (2010, "m", False), "vstastny": (2011, "m", False),
    "smoravec": (2013, "m", False), "kholub": (2016, "m", False), "dbures": (2008, "m", False),
    "pvlcek": (1999, "m", False),
}


def player(entry: tuple[str, str, str, int | None, str]) -> Player:
    """A Player from a row of a field table, with his year of birth, sex and veteran from ``BORN``."""
    pid, name, club, rating, category = entry
    year, sex, veteran = BORN.get(pid, (None, None, False))
    return Player(id=pid, name=name, club=club, rating=rating, category=category, year_of_birth=year, sex=sex,
                  veteran=veteran)


@dataclass(frozen=True, kw_only=True, slots=True)
class Case:
    """A golden tournament: its name (the folder under golden/) and the states it passes through."""

    name: str
    states: Callable[[], Iterator[State]]


def play(t: Tournament, *, walkovers: dict[tuple[str, str], str] | None = None,
         cards: tuple[tuple[str, CardKind, str], ...] = ()) -> tuple[Tournament, Pairing]:
    """Pair the next round, apply it and record a result for every match; ``walkovers`` maps a pair of ids
    (either order) to the winning side; ``cards`` are (player, card, reason) given in this round."""
    pairing = pair(t)
    events: list[Event] = [ApplyPairing(pairing=pairing)]
    chosen = walkovers or {}
    knockout = t.stages[pairing.stage].system == "knockout"
    for m in pairing.matches:
        if m.walkover is not None:
            continue
        side = chosen.get((m.home, m.away)) or chosen.get((m.away, m.home))
        if side is not None:
            events.append(RecordResult(stage=pairing.stage, round=pairing.round, home=m.home, away=m.away,
                                       walkover="home" if side == "home" else "away"))
            continue
        score = simulated_score(t.seed, pairing.stage, pairing.round, t.player(m.home), t.player(m.away))
        shootout: Side | None = None
        if knockout and score[0] == score[1]:
            shootout = "home" if draw(t.seed, "golden-shootout", pairing.round, m.home) < 0.5 else "away"
        events.append(RecordResult(stage=pairing.stage, round=pairing.round, home=m.home, away=m.away,
                                   score=score, shootout=shootout))
    for pid, card, reason in cards:
        events.append(GiveCard(stage=pairing.stage, round=pairing.round, player=pid, card=card,
                               reason=reason))
    return fold(t, events), pairing


def no_show(pairing: Pairing, pid: str) -> dict[tuple[str, str], str]:
    """The walkover of ``pid``'s match in this pairing, won by his opponent (he did not show)."""
    for m in pairing.matches:
        if pid in (m.home, m.away):
            return {(m.home, m.away): "away" if m.home == pid else "home"}
    raise KeyError(pid)


def czech_cup_40() -> Iterator[State]:
    """A Czech Cup Expres: 39 entrants, a 40th from round 2, five Swiss rounds, each with a bye.

    Round 2: rkolar is absent and zzeman does not show for his match (walkover). After round 2 vbartos
    withdraws. ksedlacek collects yellows in rounds 1-3 and lkucera a red in round 3: both sit out round 4.
    Round 4 has a second walkover.
    """
    field = tuple(player(e) for e in CZECH_FIELD)
    t = Tournament(name="Český pohár Expres — Brno", seed=20261201, players=field[:39], stages=(Stage(rounds=5),),
                   date="2026-03-14", cup=Cup(tier="expres", season=2026))
    yield "before-round-1", t
    t, _ = play(t, cards=(("ksedlacek", "yellow", "stalling"),))
    t = fold(t, [AddPlayer(player=field[39]), MarkAbsent(round=2, player="rkolar")])
    yield "before-round-2", t
    t, _ = play(t, walkovers=no_show(pair(t), "zzeman"), cards=(("ksedlacek", "yellow", "time wasting"),))
    t = apply(t, Withdraw(player="vbartos", after_round=2))
    yield "before-round-3", t
    t, _ = play(t, cards=(("ksedlacek", "yellow", "ignored the ready check"), ("lkucera", "red", "abusive chat"),
                          ("jnovak", "yellow", "late to the table")))
    yield "before-round-4", t
    upcoming = pair(t)
    late = upcoming.matches[-1]
    t, _ = play(t, walkovers={(late.home, late.away): "home"})
    yield "before-round-5", t
    t, _ = play(t)
    yield "final", t


def round_robin_7() -> Iterator[State]:
    """A club round robin of seven (a bye each round): a walkover in round 2, a red card in round 3 whose
    suspension makes round 4's match a walkover already in the pairing."""
    field = tuple(player(e) for e in CZECH_FIELD[:7])
    t = Tournament(name="Klubový turnaj SK Brno", seed=77, players=field,
                   stages=(Stage(system="round_robin", points=Points(win=2, draw=1, loss=0)),))
    yield "before-round-1", t
    t, _ = play(t)
    upcoming = pair(t)
    first = upcoming.matches[0]
    t, _ = play(t, walkovers={(first.home, first.away): "away"})
    t, _ = play(t, cards=(("tdvorak", "red", "unsporting conduct"),))
    yield "before-round-4", t
    while True:
        t, _ = play(t)
        if pair_or_none(t) is None:
            break
    yield "final", t


def knockout_12() -> Iterator[State]:
    """A knockout of twelve seeded by rating (byes to seeds 1-4), with a match for third place; a player
    absent in round 2 loses it by walkover."""
    field = tuple(player(e) for e in CZECH_FIELD[:12])
    t = Tournament(name="Pohár vítězů", seed=1212, players=field,
                   stages=(Stage(system="knockout", ruleset="ko", seeding="rating", third_place=True),))
    yield "before-round-1", t
    t, _ = play(t)
    t = apply(t, MarkAbsent(round=2, player="jpospisil"))
    yield "before-round-2", t
    t, _ = play(t)
    t, _ = play(t)
    yield "before-round-4", t
    t, _ = play(t)
    yield "final", t


def swiss_then_knockout() -> Iterator[State]:
    """The example of ``examples/tournament-swiss-ko.json`` played out: three Swiss rounds, the best four
    into a knockout with a match for third place; a red card in the last Swiss round carries its suspension
    into the knockout's first round."""
    t = swiss_ko_example()
    yield "before-stage-0-round-1", t
    t, _ = play(t)
    t, _ = play(t)
    yield "before-stage-0-round-3", t
    t, _ = play(t, cards=(("jnovak", "red", "abusive chat"),))
    yield "before-stage-1-round-1", t
    t, _ = play(t)
    yield "before-stage-1-round-2", t
    t, _ = play(t)
    yield "final", t


def swiss_ko_example() -> Tournament:
    """examples/tournament-swiss-ko.json: eight players, a Swiss of three rounds, the best four to a knockout."""
    return Tournament(
        name="Vánoční turnaj — Swiss a play-off",
        seed=20261224,
        players=tuple(player(e) for e in CZECH_FIELD[:8]),
        stages=(Stage(rounds=3, advance=4),
                Stage(system="knockout", ruleset="ko", final_ruleset="final", third_place=True)),
    )


SHORT_MATCHES = (("break_ms", 0), ("move_clock_ms", 10000), ("overtime_ms", (10000,)), ("period_ms", 30000),
                 ("periods", 1), ("shootout_series", 1))  # sorted by name, as a stage keeps its settings


def demo_example() -> Tournament:
    """examples/tournament-demo.json: the Swiss and play-off example in matches of one 30-second period, the
    tournament ``sprtec tournament run … --bots`` plays in a few minutes."""
    t = swiss_ko_example()
    return dataclasses.replace(t, name="Demo — Swiss and play-off in short matches",
                               stages=tuple(dataclasses.replace(s, settings=SHORT_MATCHES) for s in t.stages))


def swiss_example() -> Tournament:
    """examples/tournament-swiss.json: a nine-player Swiss (five rounds) after two rounds, one player
    announced absent for round 3 and one yellow card."""
    t = Tournament(name="Sprtec večer — Zlín", seed=31, players=tuple(player(e) for e in CZECH_FIELD[30:39]))
    t, _ = play(t)
    t, _ = play(t, cards=(("dbures", "yellow", "stalling"),))
    return apply(t, MarkAbsent(round=3, player="kcerna"))


def pair_or_none(t: Tournament) -> Pairing | None:
    """The next pairing, or None once the tournament is complete."""
    from shared.tournament.errors import TournamentError

    try:
        return pair(t)
    except TournamentError as exc:
        if exc.code == "NOTHING_TO_PAIR":
            return None
        raise


CASES: tuple[Case, ...] = (
    Case(name="czech-cup-40", states=czech_cup_40),
    Case(name="round-robin-7", states=round_robin_7),
    Case(name="knockout-12", states=knockout_12),
    Case(name="swiss-then-knockout", states=swiss_then_knockout),
)
