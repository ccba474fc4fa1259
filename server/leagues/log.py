"""A league's event log: what happened to it, in order, as typed events with one JSON form each.

Why events of the server's own around the engine's file (``shared.league``): the league file knows teams, rosters,
fixtures, line-ups and games, but a league the server runs also has players who took their roster places, captains,
the open match day, rounds played at tables or on boards, the tables' rooms and where each result came from.
``server.leagues.state`` folds these events (the file's part checked by the engine), so the log alone rebuilds the
league after a crash. Every row also says who acted and when (``server.tournaments.log.Row``'s "who, when").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from server.tournaments.log import Outcome

ORGANISER = "organiser"  # who acted: the holder of the organiser secret, the server, or a roster player's id
SERVER = "server"


@dataclass(frozen=True, kw_only=True, slots=True)
class Created:
    """The league begins as this file (the contract's JSON); ``code_hashes`` are the hashes of the codes each roster
    player's place is taken with, ``captains`` each team's captain, ``settings`` every game's match settings."""

    file: Mapping[str, Any]
    no_show_ms: int
    code_hashes: Mapping[str, str] = field(default_factory=dict)
    captains: Mapping[str, str] = field(default_factory=dict)
    settings: Mapping[str, Any] = field(default_factory=dict)  # every game's match settings (a room's overrides)


@dataclass(frozen=True, kw_only=True, slots=True)
class PlaceTaken:
    """A connected player plays as roster player ``player`` from now on."""

    player: str
    player_id: int
    name: str


@dataclass(frozen=True, kw_only=True, slots=True)
class DayOpened:
    """Match day ``day`` is the open one: its line-ups may be given and its rounds started."""

    day: int


@dataclass(frozen=True, kw_only=True, slots=True)
class LineupGiven:
    """The home or away team's line-up of a fixture, in board order."""

    fixture: str
    side: str
    players: tuple[str, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class LeagueRoundStarted:
    """Round ``round`` of a fixture begins: its k games at tables, or on boards (``boards``) entered by hand."""

    fixture: str
    round: int
    boards: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class GameTableOpened:
    """A game is played in room ``room`` (its match ``match_id``); a later one for the same game replaces it."""

    fixture: str
    round: int
    board: int
    room: str
    match_id: str


@dataclass(frozen=True, kw_only=True, slots=True)
class GameResult:
    """The result of a game: from its room (``source`` ``match`` or ``forfeit``), a no-show (``no_show``), a board
    entered by hand (``board``) or the organiser's correction (``override``)."""

    fixture: str
    round: int
    board: int
    outcome: Outcome
    source: str
    match_id: str | None = None
    reason: str = ""


Event = Created | PlaceTaken | DayOpened | LineupGiven | LeagueRoundStarted | GameTableOpened | GameResult


@dataclass(frozen=True, kw_only=True, slots=True)
class Row:
    """One event of the log: its index, when (ms since the epoch), who acted, the event."""

    index: int
    at_ms: int
    actor: str
    event: Event


_KINDS: dict[type, str] = {
    Created: "created",
    PlaceTaken: "place_taken",
    DayOpened: "day_opened",
    LineupGiven: "lineup_given",
    LeagueRoundStarted: "round_started",
    GameTableOpened: "table_opened",
    GameResult: "result",
}
_CLASSES: dict[str, type] = {kind: cls for cls, kind in _KINDS.items()}


def to_json(event: Event) -> tuple[str, dict[str, Any]]:
    """The event's kind and JSON body, as the store keeps them."""
    body: dict[str, Any] = {}
    for name in event.__dataclass_fields__:
        value = getattr(event, name)
        if isinstance(value, Outcome):
            value = {"score": None if value.score is None else list(value.score), "walkover": value.walkover}
        elif isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, Mapping):
            value = dict(value)
        body[name] = value
    return _KINDS[type(event)], body


def from_json(kind: str, body: Mapping[str, Any]) -> Event:
    """The event of a stored kind and body (a ValueError for a kind this program does not know)."""
    cls = _CLASSES.get(kind)
    if cls is None:
        raise ValueError(f"unknown league event {kind!r}")
    values = dict(body)
    if "outcome" in values:
        o = values["outcome"]
        values["outcome"] = Outcome(score=None if o["score"] is None else (int(o["score"][0]), int(o["score"][1])),
                                    walkover=o["walkover"])
    if "players" in values:
        values["players"] = tuple(values["players"])
    return cast(Callable[..., Event], cls)(**values)
