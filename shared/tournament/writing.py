"""Writing a ``Tournament`` back as its canonical file: the same value always gives the same bytes.

Why canonical: the server keeps a tournament in this form and other programs diff, hash and store these
files, so a value has exactly one text. Every field is written with its value, defaults included, in the
order TOURNAMENT.md lists them (the Czech Cup's optional fields ``date``, ``cup`` and ``ended`` after
``settings``, a player's ``year_of_birth``, ``sex`` and ``veteran`` after his ``category``, in the order the
contract names them); a match writes only the result fields it has (a match with neither
``score`` nor ``walkover`` is still being played). ``reading.parse(dumps(t)) == t`` for every valid ``t``.
"""

from __future__ import annotations

import json
from typing import Any

from shared.tournament.model import Absence, Bye, Card, Ended, Entry, Player, Round, Stage, Tournament, Withdrawal


def to_json(t: Tournament) -> dict[str, Any]:
    """The JSON value of the file, keys in the contract's order."""
    return {
        "format": t.format,
        "name": t.name,
        "seed": t.seed,
        "players": [player_to_json(p) for p in t.players],
        "stages": [_stage(s) for s in t.stages],
        "results": [round_to_json(r) for r in t.results],
        "absent": [absence_to_json(a) for a in t.absent],
        "withdrawn": [withdrawal_to_json(w) for w in t.withdrawn],
        "discipline": [card_to_json(c) for c in t.discipline],
        "settings": {
            "walkover_score": list(t.settings.walkover_score),
            "bye_score": list(t.settings.bye_score),
            "goals_cap": t.settings.goals_cap,
            "yellows_for_suspension": t.settings.yellows_for_suspension,
            "two_yellows_in_a_match_is_red": t.settings.two_yellows_in_a_match_is_red,
        },
        "date": t.date,
        "cup": None if t.cup is None else {"tier": t.cup.tier, "season": t.cup.season},
        "ended": None if t.ended is None else ended_to_json(t.ended),
    }


def dumps(t: Tournament) -> str:
    """The canonical text: indented by two spaces, UTF-8 characters as they are, a final newline."""
    return json.dumps(to_json(t), ensure_ascii=False, allow_nan=False, indent=2) + "\n"


def dump_bytes(t: Tournament) -> bytes:
    """The canonical file's bytes (UTF-8)."""
    return dumps(t).encode("utf-8")


def entry_to_json(entry: Entry) -> dict[str, Any]:
    """A match (``home``, ``away`` and the result fields it has) or ``{"bye": id}``."""
    if isinstance(entry, Bye):
        return {"bye": entry.player}
    out: dict[str, Any] = {"home": entry.home, "away": entry.away}
    if entry.score is not None:
        out["score"] = list(entry.score)
    if entry.shootout is not None:
        out["shootout"] = entry.shootout
    if entry.walkover is not None:
        out["walkover"] = entry.walkover
    return out


def player_to_json(p: Player) -> dict[str, Any]:
    """One entrant."""
    return {"id": p.id, "name": p.name, "club": p.club, "rating": p.rating, "category": p.category,
            "year_of_birth": p.year_of_birth, "sex": p.sex, "veteran": p.veteran}


def _stage(s: Stage) -> dict[str, Any]:
    """One stage with every field."""
    return {
        "system": s.system,
        "rounds": s.rounds,
        "points": {"win": s.points.win, "draw": s.points.draw, "loss": s.points.loss},
        "ruleset": s.ruleset,
        "final_ruleset": s.final_ruleset,
        "settings": {name: list(value) if isinstance(value, tuple) else value for name, value in s.settings},
        "advance": s.advance,
        "third_place": s.third_place,
        "double": s.double,
        "seeding": s.seeding,
    }


def round_to_json(r: Round) -> dict[str, Any]:
    """One round of results."""
    return {"stage": r.stage, "round": r.round, "matches": [entry_to_json(e) for e in r.matches]}


def card_to_json(c: Card) -> dict[str, Any]:
    """One card."""
    return {"stage": c.stage, "round": c.round, "player": c.player, "card": c.card, "reason": c.reason}


def absence_to_json(a: Absence) -> dict[str, Any]:
    """One absence."""
    return {"stage": a.stage, "round": a.round, "player": a.player}


def withdrawal_to_json(w: Withdrawal) -> dict[str, Any]:
    """One withdrawal."""
    return {"stage": w.stage, "player": w.player, "after_round": w.after_round}


def ended_to_json(e: Ended) -> dict[str, Any]:
    """Where the organiser ended the tournament."""
    return {"after_stage": e.after_stage, "after_round": e.after_round, "reason": e.reason}
