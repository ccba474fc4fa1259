"""Small constructors for hand-written tournament files in the tests (plain JSON values, as a user writes them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.tournament.course import follow
from shared.tournament.errors import ErrorCode, TournamentError
from shared.tournament.pairing import Pairing, pair
from shared.tournament.reading import read_tournament
from shared.tournament.standings import standings
from shared.tournament.table import Row, Standings

Doc = dict[str, Any]


def players(*ids: str, ratings: Mapping[str, int | None] | None = None) -> list[dict[str, Any]]:
    """Player objects named after their ids (``ratings`` adds a rating to some)."""
    out: list[dict[str, Any]] = []
    for pid in ids:
        entry: dict[str, Any] = {"id": pid, "name": pid.upper()}
        if ratings and pid in ratings:
            entry["rating"] = ratings[pid]
        out.append(entry)
    return out


def m(home: str, away: str, score: tuple[int, int] | None = None, *, walkover: str | None = None,
      shootout: str | None = None) -> dict[str, Any]:
    """A match entry: ``m("a", "b", (2, 1))``, ``m("a", "b", walkover="home")``, or still playing."""
    out: dict[str, Any] = {"home": home, "away": away}
    if score is not None:
        out["score"] = list(score)
    if walkover is not None:
        out["walkover"] = walkover
    if shootout is not None:
        out["shootout"] = shootout
    return out


def bye(player: str) -> dict[str, str]:
    """A bye entry."""
    return {"bye": player}


def rounds(*matches_per_round: list[dict[str, Any]], stage: int = 0) -> list[dict[str, Any]]:
    """Results entries for rounds 1, 2, ... of one stage."""
    return [{"stage": stage, "round": n, "matches": ms} for n, ms in enumerate(matches_per_round, start=1)]


def doc(ids: list[dict[str, Any]], *, seed: int = 1, **fields: Any) -> Doc:
    """A tournament file with these players and any other top-level fields."""
    return {"format": "sprtec-tournament/1", "name": "test", "seed": seed, "players": ids, **fields}


def standings_of(d: Doc, stage: int | None = None) -> Standings:
    """The standings the command prints for this file."""
    return standings(follow(read_tournament(d)), stage)


def row(table: Standings, player: str) -> Row:
    """One player's row."""
    return next(r for r in table.rows if r.player == player)


def order(table: Standings) -> list[str]:
    """The players from the top down."""
    return [r.player for r in table.rows]


def pairing_of(d: Doc) -> Pairing:
    """The pairing the command prints for this file."""
    return pair(read_tournament(d))


def pairs(p: Pairing) -> list[tuple[str, str]]:
    """(home, away) of every match, by table."""
    return [(x.home, x.away) for x in p.matches]


def refusal(d: Doc, what: str = "pair") -> tuple[ErrorCode, str]:
    """The code and message with which reading, following or pairing the file fails."""
    try:
        t = read_tournament(d)
        follow(t) if what == "follow" else pair(t)
    except TournamentError as exc:
        return exc.code, exc.message
    raise AssertionError(f"the file was accepted: {d}")
