"""A tournament's event log: what happened to it, in order, as typed events with one JSON form each.

Why events of the server's own beside the engine's (``shared.tournament.events``): the engine knows a tournament
file - entries, rounds, results, cards - but a tournament the server runs also has coaches who claimed entries,
check-ins, tables opened in rooms, disputes, agreed corrections and the organiser's reasons. Each event here is
one such fact; ``server.tournaments.state`` folds them, handing the file's part to the engine, so the log alone
rebuilds the tournament after a crash (the tournament file is its snapshot). Every row also says who acted and
when (the audit log's "who, when").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from shared.tournament.model import Player, Side
from shared.tournament.pairing import PairedMatch, Pairing, Unpaired

Score = tuple[int, int]


@dataclass(frozen=True, kw_only=True, slots=True)
class Outcome:
    """A match's result as the organiser or the coaches give it: a score (a shoot-out's winner for a drawn
    knockout match) or a walkover (the winning side)."""

    score: Score | None = None
    walkover: Side | None = None
    shootout: Side | None = None

    def text(self) -> str:
        """The result in words, for the audit log and the cases."""
        if self.walkover is not None:
            return f"walkover to {self.walkover}"
        if self.score is None:
            return "no result"
        shootout = f", shoot-out to {self.shootout}" if self.shootout else ""
        return f"{self.score[0]}:{self.score[1]}{shootout}"


@dataclass(frozen=True, kw_only=True, slots=True)
class Created:
    """The tournament begins as this file (the contract's JSON) with the server's own settings; ``code_hashes``
    are the hashes of the codes the file's players claim their entries with."""

    file: Mapping[str, Any]
    no_show_ms: int
    next_round_after_ms: int | None = None
    code_hashes: Mapping[str, str] = field(default_factory=dict)
    on_boards: bool = False  # every match is played on a physical board (``BoardsSet`` changes it)


@dataclass(frozen=True, kw_only=True, slots=True)
class EntryAdded:
    """An entrant (a late entry once round 1 was paired); ``code_hash`` is the hash of the code his player claims
    the entry with (empty: a player who entered himself, coached already)."""

    player: Player
    code_hash: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class Claimed:
    """A connected player coaches the entry from now on; ``rating`` is his rating on this server, which replaces
    the file's before round 1 (None: the file's stays)."""

    entry: str
    player_id: int
    name: str
    rating: int | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class CheckedIn:
    """The entry's coach is here and plays."""

    entry: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Withdrawn:
    """The entry leaves after ``after_round`` of ``stage`` (its results stay)."""

    entry: str
    stage: int
    after_round: int
    reason: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class RoundStarted:
    """A round begins: entries without a coach here are absent from it, then the engine's pairing is applied."""

    stage: int
    round: int
    absent: tuple[str, ...]
    pairing: Pairing


@dataclass(frozen=True, kw_only=True, slots=True)
class TableOpened:
    """The match at ``table`` of a round is played in room ``room`` (its match ``match_id``); a later one for the
    same table replaces it (a replay, a table reopened after a restart)."""

    stage: int
    round: int
    table: int
    room: str
    match_id: str


@dataclass(frozen=True, kw_only=True, slots=True)
class ResultSet:
    """The result of the match at ``table``: from its room (``source`` ``match`` or ``forfeit``), a no-show
    (``no_show``), the organiser (``override``, XVII.5), a match on a board entered by hand (``board``: by the
    organiser, or confirmed by the second coach) - with ``match_id`` for a played match and a reason."""

    stage: int
    round: int
    table: int
    outcome: Outcome
    source: str
    match_id: str | None = None
    reason: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class CardGiven:
    """A card for the entry's coach's conduct in his match of that round."""

    stage: int
    round: int
    entry: str
    card: str
    reason: str


@dataclass(frozen=True, kw_only=True, slots=True)
class ChatMuted:
    """The organiser silences the entry's coach in the tournament's chat (``muted``), or lets him speak again."""

    entry: str
    muted: bool
    reason: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class Unlinked:
    """The organiser undid a claim: the entry has no coach, is not checked in, and is claimed with a new code (the
    hash of the code told to the organiser)."""

    entry: str
    code_hash: str
    reason: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class AutoStartSet:
    """The next rounds start ``after_ms`` after the last match of a round ends (None: the organiser starts them)."""

    after_ms: int | None


@dataclass(frozen=True, kw_only=True, slots=True)
class DisputeFiled:
    """A coach disputes a match of his (XVII): case ``case``."""

    case: int
    stage: int
    round: int
    table: int
    by: str
    reason: str


@dataclass(frozen=True, kw_only=True, slots=True)
class DisputeRuled:
    """The organiser decides case ``case``: ``stands``, ``changed`` to ``outcome``, or ``replay``."""

    case: int
    ruling: str
    reason: str
    outcome: Outcome | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class CorrectionProposed:
    """XVII.4: a coach proposes to correct a match of his to ``outcome``, or to replay it."""

    case: int
    stage: int
    round: int
    table: int
    by: str
    replay: bool
    outcome: Outcome | None = None
    reason: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class CorrectionAgreed:
    """XVII.4: the other coach agrees: the correction of case ``case`` is done."""

    case: int
    by: str


@dataclass(frozen=True, kw_only=True, slots=True)
class RoundTakenBack:
    """The organiser takes back a round started by mistake (none of its matches begun or decided): its pairing
    goes, its tables close, and the next start pairs it again."""

    stage: int
    round: int
    reason: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class BoardsSet:
    """The organiser puts matches on physical boards (``on_board``) or back online: the whole tournament (no
    ``stage``), a stage (``stage``), or one table of a round (``stage``, ``round``, ``table``)."""

    on_board: bool
    stage: int | None = None
    round: int | None = None
    table: int | None = None
    reason: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class PairingSwapped:
    """The organiser swaps two entries of a round whose matches have not begun (each takes the other's place: his
    seat at his table, or his bye), with his reason."""

    stage: int
    round: int
    first: str
    second: str
    reason: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class ResultEntered:
    """A coach enters the result of his match on a board; it stands when the other coach enters the same (a
    ``ResultSet`` of source ``board``), and a different one is a dispute for the organiser."""

    stage: int
    round: int
    table: int
    by: str
    outcome: Outcome


@dataclass(frozen=True, kw_only=True, slots=True)
class RefereesAssigned:
    """XVII.1: the referee of each board of a round, as (table, entry), drawn when the round started."""

    stage: int
    round: int
    boards: tuple[tuple[int, str], ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class RefereeSet:
    """The organiser names a board's referee by hand (None: nobody yet); ``agreed``: both players accept a referee
    of their club (XVII.3)."""

    stage: int
    round: int
    table: int
    referee: str | None
    agreed: bool = False
    reason: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class Ended:
    """The organiser ended the tournament (no more rounds; results stand): the file's ``ended`` is after its last
    finished round, and a round he did not let finish is taken off it (its matches no longer count)."""

    reason: str


Event = (Created | EntryAdded | Claimed | CheckedIn | Withdrawn | RoundStarted | TableOpened | ResultSet | CardGiven
         | ChatMuted | Unlinked | AutoStartSet | DisputeFiled | DisputeRuled | CorrectionProposed | CorrectionAgreed
         | RoundTakenBack | PairingSwapped | BoardsSet | ResultEntered | RefereesAssigned | RefereeSet | Ended)

ORGANISER = "organiser"  # who acted: the holder of the organiser secret ...
SERVER = "server"  # ... the server itself (a table, a no-show, a match's result) ... or an entry's id (a coach)


@dataclass(frozen=True, kw_only=True, slots=True)
class Row:
    """One event of the log: its index, when (ms since the epoch), who acted, the event."""

    index: int
    at_ms: int
    actor: str
    event: Event


# ---------------------------------------------------------------------------------------------------- JSON


def to_json(event: Event) -> tuple[str, dict[str, Any]]:
    """The event's kind and JSON body, as the store keeps them."""
    kind = _KINDS[type(event)]
    if isinstance(event, Created):
        created = {"file": dict(event.file), "no_show_ms": event.no_show_ms,
                   "next_round_after_ms": event.next_round_after_ms, "code_hashes": dict(event.code_hashes)}
        return kind, {**created, "on_boards": True} if event.on_boards else created
    if isinstance(event, EntryAdded):
        p = event.player
        return kind, {"player": {"id": p.id, "name": p.name, "club": p.club, "rating": p.rating,
                                 "category": p.category, "year_of_birth": p.year_of_birth, "sex": p.sex,
                                 "veteran": p.veteran}, "code_hash": event.code_hash}
    if isinstance(event, RoundStarted):
        return kind, {"stage": event.stage, "round": event.round, "absent": list(event.absent),
                      "pairing": _pairing_to_json(event.pairing)}
    if isinstance(event, RefereesAssigned):
        return kind, {"stage": event.stage, "round": event.round, "boards": [list(b) for b in event.boards]}
    body: dict[str, Any] = {}
    for name in event.__dataclass_fields__:
        value = getattr(event, name)
        body[name] = _outcome_to_json(value) if isinstance(value, Outcome) else value
    return kind, body


def from_json(kind: str, body: Mapping[str, Any]) -> Event:
    """The event of a stored kind and body (a ValueError for a kind this program does not know)."""
    cls = _CLASSES.get(kind)
    if cls is None:
        raise ValueError(f"unknown tournament event {kind!r}")
    if cls is Created:
        return Created(file=dict(body["file"]), no_show_ms=int(body["no_show_ms"]),
                       next_round_after_ms=body.get("next_round_after_ms"), code_hashes=dict(body["code_hashes"]),
                       on_boards=bool(body.get("on_boards", False)))
    if cls is EntryAdded:
        return EntryAdded(player=Player(**body["player"]), code_hash=str(body.get("code_hash", "")))
    if cls is RoundStarted:
        return RoundStarted(stage=body["stage"], round=body["round"], absent=tuple(body["absent"]),
                            pairing=_pairing_from_json(body["pairing"]))
    if cls is RefereesAssigned:
        return RefereesAssigned(stage=body["stage"], round=body["round"],
                                boards=tuple((int(table), str(entry)) for table, entry in body["boards"]))
    values = {name: _outcome_from_json(value) if name == "outcome" else value for name, value in body.items()}
    return cast(Callable[..., Event], cls)(**values)


def _outcome_to_json(outcome: Outcome) -> dict[str, Any]:
    """An outcome's fields (a score as a list)."""
    return {"score": None if outcome.score is None else list(outcome.score), "walkover": outcome.walkover,
            "shootout": outcome.shootout}


def _outcome_from_json(value: Any) -> Outcome | None:
    """An outcome read back (None stays None)."""
    if value is None:
        return None
    score = value.get("score")
    return Outcome(score=None if score is None else (int(score[0]), int(score[1])), walkover=value.get("walkover"),
                   shootout=value.get("shootout"))


def _pairing_to_json(pairing: Pairing) -> dict[str, Any]:
    """The engine's typed pairing with each match's kind and ruleset (the contract's pairing JSON has neither)."""
    return {
        "stage": pairing.stage,
        "round": pairing.round,
        "matches": [{"table": m.table, "home": m.home, "away": m.away, "walkover": m.walkover, "kind": m.kind,
                     "ruleset": m.ruleset} for m in pairing.matches],
        "byes": list(pairing.byes),
        "not_paired": [{"player": u.player, "why": u.why} for u in pairing.not_paired],
    }


def _pairing_from_json(value: Mapping[str, Any]) -> Pairing:
    """A stored pairing."""
    return Pairing(stage=value["stage"], round=value["round"],
                   matches=tuple(PairedMatch(**m) for m in value["matches"]), byes=tuple(value["byes"]),
                   not_paired=tuple(Unpaired(**u) for u in value["not_paired"]))


_KINDS: dict[type, str] = {
    Created: "created",
    EntryAdded: "entry_added",
    Claimed: "claimed",
    CheckedIn: "checked_in",
    Withdrawn: "withdrawn",
    RoundStarted: "round_started",
    TableOpened: "table_opened",
    ResultSet: "result_set",
    CardGiven: "card_given",
    ChatMuted: "chat_muted",
    Unlinked: "unlinked",
    AutoStartSet: "auto_start_set",
    DisputeFiled: "dispute_filed",
    DisputeRuled: "dispute_ruled",
    CorrectionProposed: "correction_proposed",
    CorrectionAgreed: "correction_agreed",
    RoundTakenBack: "round_taken_back",
    PairingSwapped: "pairing_swapped",
    BoardsSet: "boards_set",
    ResultEntered: "result_entered",
    RefereesAssigned: "referees_assigned",
    RefereeSet: "referee_set",
    Ended: "ended",
}
_CLASSES: dict[str, type] = {kind: cls for cls, kind in _KINDS.items()}
