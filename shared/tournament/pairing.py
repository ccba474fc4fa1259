"""The next round's pairing, as ``sprtec tournament pair`` prints it and as the server would play it.

Why one entry point for three systems: a caller asks "what is played next" without knowing the system.
Swiss pairs by ``pairing_swiss`` among the players who can play; round robin takes its Berger round;
knockout its bracket round. Who cannot play (absent, suspended, withdrawn, disqualified): in Swiss he is
left out (``not_paired``); in round robin and knockout his scheduled match is listed with ``walkover``
already set for the opponent (both out: a round-robin match is dropped and both are ``not_paired``, a
knockout match goes to the better seed). Tables are numbered from the top of the standings down (for a
knockout's last round the final is table 1). Every match carries the ruleset it is played under (a
knockout's final: ``final_ruleset``), which the JSON of the contract does not show.

When the last stage is finished, or the organiser ended the tournament, there is ``NOTHING_TO_PAIR``; when
the last listed round is still being played, ``ROUND_ORDER``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shared.tournament.bracket import MatchKind
from shared.tournament.course import follow, rating_order
from shared.tournament.errors import TournamentError
from shared.tournament.model import PAIRING_FORMAT, Bye, Match, Side, Tournament
from shared.tournament.pairing_swiss import pair_swiss
from shared.tournament.progress import Course, Reason, StageCourse
from shared.tournament.standings import stage_standings


@dataclass(frozen=True, kw_only=True, slots=True)
class PairedMatch:
    """A match of the pairing: its table, home and away, a walkover already decided, its kind and ruleset."""

    table: int
    home: str
    away: str
    walkover: Side | None = None
    kind: MatchKind = "match"
    ruleset: str = "standard"


@dataclass(frozen=True, kw_only=True, slots=True)
class Unpaired:
    """A player of the stage left out of the round, and why."""

    player: str
    why: Reason


@dataclass(frozen=True, kw_only=True, slots=True)
class Pairing:
    """The matches, byes and left-out players of one round of one stage."""

    stage: int
    round: int
    matches: tuple[PairedMatch, ...]
    byes: tuple[str, ...] = ()
    not_paired: tuple[Unpaired, ...] = ()


def pair(t: Tournament) -> Pairing:
    """The next round of the tournament (checking the file first)."""
    return pair_course(follow(t))


def pair_course(course: Course) -> Pairing:
    """The next round of an already followed tournament."""
    sc = course.current
    end = course.tournament.ended
    if end is not None:
        why = f" ({end.reason})" if end.reason else ""
        raise TournamentError("NOTHING_TO_PAIR", f"the tournament ended after stage {end.after_stage} round "
                                                 f"{end.after_round}{why}")
    if sc.last_listed > sc.finished:
        raise TournamentError(
            "ROUND_ORDER", f"stage {sc.index} round {sc.last_listed} is still being played{_playing(sc)}"
        )
    if sc.complete:
        raise TournamentError("NOTHING_TO_PAIR", f"the tournament is complete (stage {sc.index} is its last stage)")
    number = sc.finished + 1
    reasons = sc.unavailable[number - 1]
    places = stage_standings(course.tournament, sc, sc.finished).places()
    if sc.stage.system == "swiss":
        return _swiss(course.tournament, sc, number, places, reasons)
    return _scheduled(sc, number, places, reasons)


def to_json(pairing: Pairing) -> dict[str, Any]:
    """The ``sprtec-pairing/1`` object."""
    matches: list[dict[str, Any]] = []
    for m in pairing.matches:
        entry: dict[str, Any] = {"table": m.table, "home": m.home, "away": m.away}
        if m.walkover is not None:
            entry["walkover"] = m.walkover
        matches.append(entry)
    return {
        "format": PAIRING_FORMAT,
        "stage": pairing.stage,
        "round": pairing.round,
        "matches": matches,
        "byes": list(pairing.byes),
        "not_paired": [{"player": u.player, "why": u.why} for u in pairing.not_paired],
    }


def _swiss(t: Tournament, sc: StageCourse, number: int, places: tuple[str, ...],
           reasons: Mapping[str, Reason]) -> Pairing:
    """A Swiss round: the bye, the matching, then home and away."""
    present = [p for p in places if p not in reasons]
    seeded = sc.stage.seeding == "rating" and number == 1
    order = list(rating_order(t, sc.index, present)) if seeded else present
    met: set[frozenset[str]] = set()
    byes_had: dict[str, int] = {}
    for _, entry in sc.matches_until(sc.finished):
        if isinstance(entry, Bye):
            byes_had[entry.player] = byes_had.get(entry.player, 0) + 1
        else:
            met.add(frozenset(entry.players()))
    pairs, bye = pair_swiss(order, met, byes_had, seed=t.seed, stage=sc.index, round_number=number,
                            top_half_against_bottom=seeded)
    homes = home_matches(t)
    matches = []
    for table, (better, worse) in enumerate(pairs, start=1):
        home, away = (worse, better) if homes.get(worse, 0) < homes.get(better, 0) else (better, worse)
        matches.append(PairedMatch(table=table, home=home, away=away, ruleset=sc.stage.ruleset))
    return Pairing(
        stage=sc.index,
        round=number,
        matches=tuple(matches),
        byes=() if bye is None else (bye,),
        not_paired=tuple(Unpaired(player=p, why=reasons[p]) for p in places if p in reasons),
    )


def _scheduled(sc: StageCourse, number: int, places: tuple[str, ...], reasons: Mapping[str, Reason]) -> Pairing:
    """A round-robin or knockout round as scheduled, walkovers set for players who cannot play."""
    place = {p: i for i, p in enumerate(places)}
    found: list[tuple[int, str, str, Side | None, MatchKind, str]] = []
    out: list[str] = []
    byes: list[str] = []
    scheduled: list[tuple[str, str, MatchKind]]
    if sc.stage.system == "round_robin":
        pairs, bye = sc.berger_round(number)
        scheduled = [(home, away, "match") for home, away in pairs]
        if bye is not None:
            (out if bye in reasons else byes).append(bye)
    else:
        bracket = sc.brackets[number - 1]
        scheduled = [(m.home, m.away, m.kind) for m in bracket.matches]
        byes = list(bracket.byes)
    for home, away, kind in scheduled:
        home_out, away_out = home in reasons, away in reasons
        if home_out and away_out and sc.stage.system == "round_robin":
            out += [home, away]
            continue
        walkover: Side | None = "away" if home_out and not away_out else "home" if away_out else None
        ruleset = sc.stage.final_ruleset if kind == "final" else sc.stage.ruleset
        found.append((min(place[home], place[away]), home, away, walkover, kind, ruleset))
    found.sort(key=lambda m: m[0])
    matches = tuple(
        PairedMatch(table=table, home=home, away=away, walkover=walkover, kind=kind, ruleset=ruleset)
        for table, (_, home, away, walkover, kind, ruleset) in enumerate(found, start=1)
    )
    return Pairing(
        stage=sc.index,
        round=number,
        matches=matches,
        byes=tuple(sorted(byes, key=lambda p: place[p])),
        not_paired=tuple(Unpaired(player=p, why=reasons[p]) for p in sorted(out, key=lambda p: place[p])),
    )


def home_matches(t: Tournament) -> dict[str, int]:
    """How many matches each player has been listed at home for in the whole tournament (walkovers count)."""
    counts: dict[str, int] = {}
    for r in t.results:
        for entry in r.matches:
            if isinstance(entry, Match):
                counts[entry.home] = counts.get(entry.home, 0) + 1
    return counts


def _playing(sc: StageCourse) -> str:
    """A match of the stage's last listed round still without a result, for the message."""
    for entry in sc.rounds[-1].matches:
        if isinstance(entry, Match) and not entry.finished:
            return f" ({entry.home} v {entry.away} has no result)"
    return " (a scheduled match is not listed)"
