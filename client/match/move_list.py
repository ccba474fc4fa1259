"""The match record beside the board: one entry per move — its number, the team, the stone or choice, and every
ruling of that move — as plain data (pure: no arcade).

Why a list of its own: the referee's calls are how players learn the rules, and four log lines scrolled them away
before they were read. Each move that has been shown (``client.match.state`` adds it after its playback) becomes one
entry, whichever way it came — a coach's flick or choice, the server deciding for a team whose clock ran out
(``MovePlayed.action`` nil), a clock event of a replay — and every decision of the move is written out with its
rule id (``client.common.decision_text``), so nothing the referee said is lost.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from client.common import decision_text
from client.common.i18n import _
from shared.outcome import Decision

# Rulings that change the match: shown in the warning colour so they stand out of the list.
IMPORTANT = frozenset({"GOAL", "GOAL_DISALLOWED", "FOUL", "GOALIE_OUTSIDE_THIRD", "ACTIVITY_FAILED", "EXCLUSION",
                       "PENALTY_SHOT", "PENALTY_SHOT_ENDED", "MATCH_ENDED", "PART_ENDED", "TIMEOUT"})


@dataclass(frozen=True, slots=True)
class Ruling:
    """One decision of a move: its code and its sentence."""

    code: str
    text: str


@dataclass(frozen=True, slots=True)
class MoveEntry:
    """One move of the record: its number in the match, who moved, what he did, and the referee's rulings."""

    number: int
    team: str | None
    what: str
    rulings: tuple[Ruling, ...]


@dataclass(frozen=True, slots=True)
class DefaultApplied:
    """A choice whose time ran out: the server applied its documented default ``action`` (A47)."""

    action: object
    team: str


def action_words(action: object | None) -> str:
    """What a move was, in a few words: the flicked stone and its speed, a choice, or a clock event."""
    if action is None:
        return _("decided by the server (time ran out)")
    if isinstance(action, DefaultApplied):
        return _("time ran out, so by default: {what}").format(what=action_words(action.action))
    kind = getattr(action, "action", "")
    stone = getattr(action, "stone", "")
    if kind == "flick":
        speed = math.hypot(getattr(action, "vx", 0.0), getattr(action, "vy", 0.0)) / 1000
        return _("{stone} at {speed:.1f} m/s").format(stone=stone, speed=speed)
    words = {
        "goalie_reset": _("goalie put back on its spot (XII.2)"),
        "pp_swap_out": _("power play: {stone} in for the goalie (XIII.2)"),
        "pp_swap_in": _("goalie back for {stone} (XIII.4)"),
        "count": _("counts the move (XI.3)"),
        "take_penalty": _("takes the penalty shot (IX.3)"),
        "choose_exclusion": _("excludes {stone} (VIII.1a)"),
        "setup": _("places the stones"),
        "elapse": _("time runs"),
        "timeout": _("time ran out (A35)"),
        "forfeit": _("forfeits"),
    }
    return words.get(kind, kind.replace("_", " ")).format(stone=stone)


def entry(number: int, team: str | None, action: object | None, decisions: Sequence[Decision],
          names: Mapping[str, str], move_clock_ms: int = decision_text.MOVE_CLOCK_MS) -> MoveEntry:
    """The record of one move, its rulings written out in full (a timeout with the room's ``move_clock_ms``)."""
    rulings = tuple(Ruling(d.code, decision_text.text(d, names, move_clock_ms=move_clock_ms)) for d in decisions)
    return MoveEntry(number, team, action_words(action), rulings)


def team_of(action: object | None, fallback: str | None) -> str | None:
    """The team an action or clock event names, else ``fallback`` (the team the server decided for)."""
    team = getattr(action, "team", None)
    return team if isinstance(team, str) else fallback


def timed_out(defaults: Mapping[str, object], team: str, action: object | None) -> DefaultApplied | None:
    """The default the server applied for ``team`` when a move came without an action while ``team`` had a choice
    open (its time ran out); None otherwise."""
    default = defaults.get(team)
    if action is not None or not isinstance(default, dict):
        return None
    from shared.notation import NotationError, action_from_json

    try:
        return DefaultApplied(action_from_json(default), team)
    except (NotationError, ValueError, TypeError):
        return None


@dataclass(frozen=True, slots=True)
class ListLine:
    """One printed line of the move list: a move's heading or (part of) one of its rulings."""

    text: str
    kind: str  # "head" or "ruling"
    team: str | None
    move: int
    important: bool = False  # a ruling that changes the match (IMPORTANT)


def lines(entries: Sequence[MoveEntry], names: Mapping[str, str], chars: int) -> list[ListLine]:
    """The move list as printed lines at most ``chars`` characters wide (rulings wrapped and indented)."""
    import textwrap

    chars = max(16, int(chars * 0.92))  # a margin: the width is measured on an average character
    out: list[ListLine] = []
    for e in entries:
        who = decision_text.team_name(e.team, names) if e.team else ""
        what = e.what.replace(" m/s", "\u00a0m/s")  # a number keeps its unit (textwrap breaks at ASCII spaces only)
        head = f"{e.number}. {who}: {what}" if who else f"{e.number}. {what}"
        for piece in textwrap.wrap(head, chars, subsequent_indent="    ") or [head]:
            out.append(ListLine(piece, "head", e.team, e.number))
        for ruling in e.rulings:
            for piece in textwrap.wrap(ruling.text, chars, initial_indent="  ", subsequent_indent="    "):
                out.append(ListLine(piece, "ruling", e.team, e.number, ruling.code in IMPORTANT))
    return out


def window(total: int, rows: int, scroll: int) -> tuple[int, int]:
    """The slice [first, last) of ``total`` lines shown in ``rows`` rows, ``scroll`` lines up from the newest
    (0 follows the newest), clamped."""
    scroll = max(0, min(scroll, max(0, total - rows)))
    last = total - scroll
    return max(0, last - rows), last
