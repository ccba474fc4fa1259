"""Who refereed which board, and how often each player refereed: the input of the printed round sheet and of the
association's sheet until the server keeps referee duty itself.

Why a value of its own and not a field of the tournament file: the contract's file has no referees (a field it
does not define is ``BAD_FORMAT``), yet a tournament played on physical boards has one for every board (XVII.1),
the organisers' program records them (each match's ``referee`` and each round's two recorders of the referees,
"zapisovatel rozhodčích"), and the association's sheet counts them (column R, marked ``!`` below ⌊played / 2⌋).
So an imported tournament's referees travel beside its file as ``sprtec-referees/1``::

    {"format": "sprtec-referees/1",
     "boards": [{"stage": 0, "round": 1, "table": 1, "referee": "p7"}],
     "recorders": [{"stage": 0, "round": 1, "player": "p3"}]}

Counting follows the organisers' program (``tournamentResults`` in its app.js): a board's referee counts once
the board's match has a result; a recorder counts for his round whatever its results.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shared.tournament.errors import TournamentError
from shared.tournament.model import Match, Tournament

REFEREES_FORMAT = "sprtec-referees/1"


@dataclass(frozen=True, kw_only=True, slots=True)
class BoardReferee:
    """The referee of the match at ``table`` (its board) of one round."""

    stage: int = 0
    round: int
    table: int
    referee: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Recorder:
    """A player who recorded the round's referees (the program counts it as refereeing)."""

    stage: int = 0
    round: int
    player: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Referees:
    """Every board's referee and every round's recorders, sorted by (stage, round, table) and (stage, round)."""

    boards: tuple[BoardReferee, ...] = ()
    recorders: tuple[Recorder, ...] = ()

    def referee_of(self, stage: int, number: int, table: int) -> str | None:
        """The referee of one board, if one was named."""
        for b in self.boards:
            if (b.stage, b.round, b.table) == (stage, number, table):
                return b.referee
        return None

    def recorders_of(self, stage: int, number: int) -> tuple[str, ...]:
        """The recorders of one round, in the order given."""
        return tuple(r.player for r in self.recorders if (r.stage, r.round) == (stage, number))


def refereed_counts(t: Tournament, referees: Referees) -> dict[str, int]:
    """How many times each player of ``t`` refereed: boards whose match has a result, and rounds he recorded."""
    finished = {
        (r.stage, r.round, table)
        for r in t.results
        for table, m in enumerate((e for e in r.matches if isinstance(e, Match)), start=1)
        if m.finished
    }
    counts = {p.id: 0 for p in t.players}
    for b in referees.boards:
        if (b.stage, b.round, b.table) in finished and b.referee in counts:
            counts[b.referee] += 1
    for r in referees.recorders:
        if r.player in counts:
            counts[r.player] += 1
    return counts


def refereed_too_little(refereed: int, played: int) -> bool:
    """The program's warning ``!``: fewer refereed matches than half the matches played, rounded down."""
    return refereed < played // 2


def to_json(referees: Referees) -> dict[str, Any]:
    """The ``sprtec-referees/1`` object."""
    return {
        "format": REFEREES_FORMAT,
        "boards": [{"stage": b.stage, "round": b.round, "table": b.table, "referee": b.referee}
                   for b in referees.boards],
        "recorders": [{"stage": r.stage, "round": r.round, "player": r.player} for r in referees.recorders],
    }


def read_referees(value: Any, t: Tournament) -> Referees:
    """Referees from their JSON object, every player one of ``t``'s; ``BAD_FORMAT`` or ``UNKNOWN_PLAYER`` else."""
    if not isinstance(value, Mapping) or value.get("format") != REFEREES_FORMAT:
        raise TournamentError("BAD_FORMAT", f"a referees file is an object of format {REFEREES_FORMAT!r}")
    known = set(t.player_ids())
    boards = tuple(sorted((_board(item, f"boards[{i}]", known) for i, item in enumerate(_list(value, "boards"))),
                          key=lambda b: (b.stage, b.round, b.table)))
    recorders = tuple(sorted((_recorder(item, f"recorders[{i}]", known)
                              for i, item in enumerate(_list(value, "recorders"))),
                             key=lambda r: (r.stage, r.round)))
    return Referees(boards=boards, recorders=recorders)


def _list(value: Mapping[str, Any], name: str) -> list[Any]:
    """A list field (default empty)."""
    items = value.get(name, [])
    if not isinstance(items, list):
        raise TournamentError("BAD_FORMAT", f"{name}: expected a list")
    return items


def _board(item: Any, where: str, known: set[str]) -> BoardReferee:
    """One board's referee."""
    obj = _object(item, where, ("stage", "round", "table", "referee"))
    return BoardReferee(stage=_number(obj.get("stage", 0), f"{where}.stage", 0),
                        round=_number(obj.get("round"), f"{where}.round", 1),
                        table=_number(obj.get("table"), f"{where}.table", 1),
                        referee=_player(obj.get("referee"), f"{where}.referee", known))


def _recorder(item: Any, where: str, known: set[str]) -> Recorder:
    """One recorder of a round."""
    obj = _object(item, where, ("stage", "round", "player"))
    return Recorder(stage=_number(obj.get("stage", 0), f"{where}.stage", 0),
                    round=_number(obj.get("round"), f"{where}.round", 1),
                    player=_player(obj.get("player"), f"{where}.player", known))


def _object(item: Any, where: str, fields: tuple[str, ...]) -> Mapping[str, Any]:
    """An object with only the fields named."""
    if not isinstance(item, Mapping):
        raise TournamentError("BAD_FORMAT", f"{where}: expected an object")
    unknown = [k for k in item if k not in fields]
    if unknown:
        raise TournamentError("BAD_FORMAT", f"{where}: unknown field {unknown[0]!r}")
    return item


def _number(value: Any, where: str, minimum: int) -> int:
    """An integer of at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise TournamentError("BAD_FORMAT", f"{where}: expected an integer of at least {minimum}")
    return value


def _player(value: Any, where: str, known: set[str]) -> str:
    """A player of the tournament."""
    if not isinstance(value, str) or value not in known:
        raise TournamentError("UNKNOWN_PLAYER", f"{where}: {value!r} is not a player of the tournament")
    return value
