"""Small constructors for hand-written league files in the tests (plain JSON values, as a user writes them).

``outcomes`` describes a fixture's results team by team in schedule order (round 1 board 1 first): ``A`` a game
won by the home team's player, ``B`` by the away team's, ``D`` a draw, ``a``/``b`` a walkover won by the home/away
team's player, ``.`` a game listed without a result (still being played), ``-`` a game not listed.
"""

from __future__ import annotations

from typing import Any

from shared.league.reading import read_league
from shared.league.schedule import schedule

Doc = dict[str, Any]

_SCORES = {"A": (3, 1), "B": (1, 3), "D": (2, 2)}


def roster(team: str, size: int) -> list[str]:
    """The ids ``team1`` … ``team<size>``."""
    return [f"{team}{n}" for n in range(1, size + 1)]


def team(tid: str, size: int = 5, **fields: Any) -> Doc:
    """A team named after its id with ``size`` players ``<tid>1`` …"""
    return {"id": tid, "name": tid.upper(), "players": [{"id": p, "name": p.upper()} for p in roster(tid, size)],
            **fields}


def games(home: list[str], away: list[str], outcomes: str) -> list[Doc]:
    """The games of a fixture between these line-ups, one per character of ``outcomes`` (see the module)."""
    out: list[Doc] = []
    slots = [(r.round, g) for r in schedule(home, away) for g in r.games]
    assert len(outcomes) <= len(slots), "more outcomes than games"
    for (number, g), mark in zip(slots, outcomes, strict=False):
        if mark == "-":
            continue
        game: Doc = {"round": number, "home": g.home, "away": g.away}
        a_is_home = number % 2 == 1
        if mark in _SCORES:
            h, a = _SCORES[mark]
            game["score"] = [h, a] if a_is_home or mark == "D" else [a, h]
        elif mark in "ab":
            game["walkover"] = "home" if (mark == "a") == a_is_home else "away"
        else:
            assert mark == ".", f"unknown outcome {mark!r}"
        out.append(game)
    return out


def fixture(fid: str, home: str, away: str, outcomes: str | None = None, *, day: int = 1, size: int = 5,
            referee: str | None = None, **fields: Any) -> Doc:
    """A fixture whose line-ups are each team's first ``size`` players, with games from ``outcomes``
    (None: no line-ups, no games)."""
    out: Doc = {"id": fid, "day": day, "home": home, "away": away}
    if referee is not None:
        out["referee_team"] = referee
    if outcomes is not None:
        lineup_home, lineup_away = roster(home, size), roster(away, size)
        out["lineups"] = {"home": lineup_home, "away": lineup_away}
        out["games"] = games(lineup_home, lineup_away, outcomes)
    return {**out, **fields}


def doc(teams: list[Doc], fixtures: list[Doc] | None = None, *, size: int | None = None, **fields: Any) -> Doc:
    """A league file with these teams and fixtures (``size``: settings.team_size) and any other top-level field."""
    out: Doc = {"format": "sprtec-league/1", "name": "test", "teams": teams, "fixtures": fixtures or []}
    if size is not None:
        out["settings"] = {"team_size": size}
    return {**out, **fields}


def code_of(value: Any) -> str | None:
    """The error code reading ``value`` gives (None when it reads)."""
    from shared.league.errors import LeagueError

    try:
        read_league(value)
    except LeagueError as exc:
        return exc.code
    return None


def message_of(value: Any) -> str:
    """The error message reading ``value`` gives."""
    from shared.league.errors import LeagueError

    try:
        read_league(value)
    except LeagueError as exc:
        return exc.message
    raise AssertionError("the file was read")
