"""A tournament's whole state as one JSON text, so recovery folds only the events logged after it.

Why: the log is the tournament and folding it is the only way to its state, but a long tournament's log is
thousands of events; the service writes this snapshot beside the log every ``SNAPSHOT_EVERY`` events
(``server.tournaments.tournament_core``), and a restart reads the latest one and folds what came after it. The
snapshot holds everything the fold holds - the tournament file (the contract's JSON, as ``writing`` gives it) and
what only the server knows - in the order the fold made it (the tables' order is the order they are assigned in),
so reading it back gives exactly the value it was written from.

An older row's snapshot column holds the tournament file alone (it has no ``state`` format): ``read_snapshot``
returns None for it and recovery folds the whole log, as it did.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, cast

from server.tournaments.log import Outcome
from server.tournaments.state import Audit, BoardEntry, Case, Coach, Table, TableKey, TournamentState
from shared.tournament.board_referees import BoardReferee, Referees
from shared.tournament.course import follow
from shared.tournament.model import Side
from shared.tournament.reading import read_tournament
from shared.tournament.writing import to_json

STATE_FORMAT = "sprtec-tournament-state/1"


def write_snapshot(s: TournamentState) -> str:
    """The state as one line of JSON."""
    body = {
        "format": STATE_FORMAT,
        "id": s.id,
        "version": s.version,
        "file": to_json(s.tournament),
        "no_show_ms": s.no_show_ms,
        "next_round_after_ms": s.next_round_after_ms,
        "created_at_ms": s.created_at_ms,
        "code_hashes": dict(s.code_hashes),
        "coaches": [[entry, c.player_id, c.name] for entry, c in s.coaches.items()],
        "checked_in": sorted(s.checked_in),
        "chat_muted": sorted(s.chat_muted),
        "tables": [[t.stage, t.round, t.table, t.room, t.match_id, t.opened_at_ms] for t in s.tables.values()],
        "replays": sorted(list(key) for key in s.replays),
        "sources": [[*key, source] for key, source in s.sources.items()],
        "kinds": [[*key, kind, ruleset] for key, (kind, ruleset) in s.kinds.items()],
        "cases": [_case(c) for c in s.cases],
        "audit": [[a.at_ms, a.who, a.act, a.detail, a.reason] for a in s.audit],
        "ended": s.ended,
        "last_result_at_ms": s.last_result_at_ms,
        "round_absent": [[stage, number, list(absent)] for (stage, number), absent in s.round_absent.items()],
        "on_boards": s.on_boards,
        "board_stages": [[stage, on] for stage, on in s.board_stages.items()],
        "board_tables": [[*key, on] for key, on in s.board_tables.items()],
        "board_entries": [[*key, e.by, _outcome(e.outcome)] for key, e in s.board_entries.items()],
        "referees": [[b.stage, b.round, b.table, b.referee] for b in s.referees.boards],
        "agreed": sorted(list(key) for key in s.agreed),
    }
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def read_snapshot(text: str) -> TournamentState | None:
    """The state a snapshot was written from; None for a snapshot column that holds only a tournament file."""
    body = json.loads(text)
    if not isinstance(body, dict) or body.get("format") != STATE_FORMAT:
        return None
    tables = {_key(t): Table(stage=t[0], round=t[1], table=t[2], room=t[3], match_id=t[4], opened_at_ms=t[5])
              for t in body["tables"]}
    return TournamentState(
        id=body["id"],
        course=follow(read_tournament(body["file"])),
        version=body["version"],
        no_show_ms=body["no_show_ms"],
        next_round_after_ms=body["next_round_after_ms"],
        created_at_ms=body["created_at_ms"],
        code_hashes=dict(body["code_hashes"]),
        coaches={entry: Coach(player_id=player_id, name=name) for entry, player_id, name in body["coaches"]},
        checked_in=frozenset(body["checked_in"]),
        chat_muted=frozenset(body["chat_muted"]),
        tables=tables,
        replays=frozenset(_key(key) for key in body["replays"]),
        sources={_key(item): item[3] for item in body["sources"]},
        kinds={_key(item): (item[3], item[4]) for item in body["kinds"]},
        cases=tuple(_case_of(c) for c in body["cases"]),
        audit=tuple(Audit(at_ms=a[0], who=a[1], act=a[2], detail=a[3], reason=a[4]) for a in body["audit"]),
        ended=body["ended"],
        last_result_at_ms=body["last_result_at_ms"],
        round_absent={(int(a[0]), int(a[1])): tuple(a[2]) for a in body.get("round_absent", [])},
        on_boards=bool(body.get("on_boards", False)),
        board_stages={int(stage): bool(on) for stage, on in body.get("board_stages", [])},
        board_tables={_key(item): bool(item[3]) for item in body.get("board_tables", [])},
        board_entries={_key(item): BoardEntry(by=item[3], outcome=_outcome_of(item[4]))
                       for item in body.get("board_entries", [])},
        referees=Referees(boards=tuple(BoardReferee(stage=b[0], round=b[1], table=b[2], referee=b[3])
                                       for b in body.get("referees", []))),
        agreed=frozenset(_key(key) for key in body.get("agreed", [])),
    )


def _key(item: list[Any]) -> TableKey:
    """(stage, round, table) from the first three numbers of a list."""
    return (int(item[0]), int(item[1]), int(item[2]))


def _case(c: Case) -> dict[str, Any]:
    """A dispute or a correction."""
    return {"id": c.id, "kind": c.kind, "stage": c.stage, "round": c.round, "table": c.table, "by": c.by,
            "reason": c.reason, "status": c.status, "ruling": c.ruling, "replay": c.replay,
            "outcome": None if c.outcome is None else _outcome(c.outcome)}


def _case_of(value: Mapping[str, Any]) -> Case:
    """A case read back."""
    fields = {name: value[name] for name in ("id", "kind", "stage", "round", "table", "by", "reason", "status",
                                             "ruling", "replay")}
    outcome = value["outcome"]
    return Case(**fields, outcome=None if outcome is None else _outcome_of(outcome))


def _outcome(o: Outcome) -> list[Any]:
    """An outcome as [score, walkover, shootout]."""
    return [None if o.score is None else list(o.score), o.walkover, o.shootout]


def _outcome_of(value: list[Any]) -> Outcome:
    """An outcome read back."""
    score, walkover, shootout = value
    return Outcome(score=None if score is None else (int(score[0]), int(score[1])),
                   walkover=cast(Side | None, walkover), shootout=cast(Side | None, shootout))
