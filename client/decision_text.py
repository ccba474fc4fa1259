"""Every referee decision code of SCENARIOS.md as a sentence a coach reads, citing the rule it applies.

Why: players learn the rules from the referee's calls, and a club player recognises "VIII.1a" from the
printed rules, so every message names its rule id. The table ``RULE_OF`` covers every decision code, and
``TIMEOUT`` beside them (a coach's time ran out, docs/SCENARIOS-EXTENSIONS.md); ``text`` writes one decision;
``headline`` condenses one move's decisions into the banner shown after it (a foul with its exclusion and
privilege reads as one sentence, as a referee would say it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from shared.outcome import Decision
from shared.rulesets import Settings

MOVE_CLOCK_MS = Settings().move_clock_ms  # A35: the move clock a TIMEOUT tells of, unless the caller knows the room's

# The rule each decision code applies (SCENARIOS.md "Decision codes").
RULE_OF: dict[str, str] = {
    "GOAL": "XIV.1",
    "GOAL_DISALLOWED": "XIV",
    "FOUL": "VIII.1",
    "GOALIE_OUTSIDE_THIRD": "XII.8",
    "ACTIVITY_FAILED": "XI.9",
    "EXCLUSION": "X.1",
    "RETURN": "X.2",
    "PRIVILEGE": "IX",
    "PRIVILEGE_CANCELLED": "IX.8",
    "PENALTY_SHOT": "XV.1",
    "ADVANTAGE": "IX.3",
    "PENALTY_SHOT_ENDED": "XV.13",
    "ACTIVITY_COUNT": "XI.3",
    "ACTIVITY_ENDED": "XI.4",
    "POWER_PLAY": "XIII",
    "RESPOT": "VI.5",
    "FLIP": "VI.4",
    "RESTART": "V.1",
    "PART_ENDED": "III.6",
    "MATCH_ENDED": "III.1",
    "TIMEOUT": "A35",
}

DISALLOWED: dict[str, tuple[str, str]] = {
    "FIRST_MOVE_AFTER_RESTART": ("V.9", "scored with the first move from the start"),
    "GOALIE_MOVE": ("XII.9", "scored by a goalie's move"),
    "ILLEGAL_MOVE": ("XIV.1", "scored after an illegal move"),
    "PENALTY_SHOT_FIRST_MOVE": ("XV.12", "scored with the first move of a penalty shot"),
    "OWN_GOAL_IN_PENALTY_SHOT": ("XV.12", "an own goal in a penalty shot"),
    "REBOUND_FROM_PENALTY_POSITION": ("XIV.6", "rebounded off a stone in a penalty position"),
}

PENALTY_SHOT_ENDINGS: dict[str, tuple[str, str]] = {
    "a": ("XV.13a", "the puck did not leave the centre circle with the first move"),
    "b": ("XV.13b", "a goal with the first move does not count"),
    "c": ("XV.13c", "the puck touched the goalie without a goal"),
    "d": ("XV.13d", "the puck crossed the goal line beside the goal"),
    "e": ("XV.13e", "the shooter overtook the puck"),
    "f": ("XV.13f", "an illegal move"),
    "g": ("XV.13g", "the shooter fouled the goalie"),
    "h": ("XV.13h", "a backward move"),
    "i": ("XV.13i", "the puck went into the shooting team's own goal"),
    "SCORED": ("XV.12", "scored"),
    "NO_GOAL_IN_3": ("XV.12", "no goal in three moves"),
}

RESPOT_REASONS: dict[str, tuple[str, str]] = {
    "LEFT_BOARD": ("VI.5", "flew over the board; the referee puts it back at the board where it left"),
    "ON_GOAL": ("VI.3", "landed on top of the goal; the referee puts it behind the goal"),
}

# What the documented default of each prompt kind that can time out does (shared.referee.choices.CHOICE_DOCS).
CHOICE_DEFAULTS: dict[str, str] = {
    "choose_exclusion": "the stone the referee named stays excluded",
    "setup": "the stone stays where the referee set it up",
    "count": "the last move is counted",
}

Names = Mapping[str, str]


def team_name(team: Any, names: Names) -> str:
    """The display name of a team (the seated coach's name when known, else Home/Away)."""
    if team is None:
        return "nobody"
    return names.get(str(team), str(team).capitalize())


def _part_name(part: Any) -> str:
    """A part (III) in words, whether the decision carries a dict, a number or a name."""
    if isinstance(part, Mapping):
        kind = str(part.get("kind", "period"))
        number = part.get("number")
        return f"{kind} {number}" if number is not None and kind != "shootout" else kind
    if isinstance(part, int):
        return f"period {part}"
    return str(part).replace("_", " ")


def _foul(d: Decision, n: Names) -> str:
    rule = "VIII.1b" if d.get("kind") == "through_teammate" else "VIII.1a"
    how = "through a team-mate" if d.get("kind") == "through_teammate" else "directly"
    return f"Foul ({rule}): {d.get('stone')} of {team_name(d.get('team'), n)} hit {d.get('victim')} {how}"


def _goal(d: Decision, n: Names) -> str:
    if d.get("own_goal"):
        return f"Own goal (XIV.6): counts for {team_name(d.get('team'), n)}"
    return f"Goal (XIV.1): {team_name(d.get('team'), n)} scores"


def _disallowed(d: Decision, n: Names) -> str:
    rule, why = DISALLOWED.get(str(d.get("reason")), ("XIV", str(d.get("reason", "")).lower().replace("_", " ")))
    return f"No goal ({rule}): {team_name(d.get('team'), n)}'s goal — {why}"


def _exclusion(d: Decision, n: Names) -> str:
    if d.get("deferred"):
        who = team_name(d.get("team"), n)
        return f"Exclusion deferred (X.3): {d.get('stone')} of {who} goes off when a stone returns"
    return f"Exclusion (X.1): {d.get('stone')} of {team_name(d.get('team'), n)} leaves the board"


def _penalty_ended(d: Decision, n: Names) -> str:
    rule, why = PENALTY_SHOT_ENDINGS.get(str(d.get("reason")), ("XV.13", str(d.get("reason"))))
    verdict = "scored" if d.get("scored") else "failed"
    return f"Penalty shot {verdict} ({rule}): {team_name(d.get('team'), n)} — {why}"


def _respot(d: Decision, n: Names) -> str:
    rule, why = RESPOT_REASONS.get(str(d.get("reason")), ("VI.5", "put back by the referee"))
    body = "the puck" if d.get("body") == "puck" else str(d.get("body"))
    return f"Referee ({rule}): {body} {why}"


def _timeout(d: Decision, n: Names, move_clock_ms: int) -> str:
    """A35 (the move clock) or A33/A47/XI.3 (a choice whose deadline passed, its default applied)."""
    team = d.get("team")
    kind = d.get("kind")
    if kind is None:
        opponent = "away" if team == "home" else "home"
        seconds = f"{move_clock_ms / 1000:g} s"
        return f"Time (A35): {team_name(team, n)} did not move in {seconds} — {team_name(opponent, n)} to move"
    what = CHOICE_DEFAULTS.get(str(kind), f"the default {str(kind).replace('_', ' ')} applies")
    return f"Time: the default was chosen for {team_name(team, n)} — {what}"


def _match_ended(d: Decision, n: Names) -> str:
    winner = d.get("winner")
    reason = str(d.get("reason", "")).lower().replace("_", " ")
    head = "Match over — a draw" if winner is None else f"Match over — {team_name(winner, n)} wins"
    return f"{head} (III.1){': ' + reason if reason else ''}"


def _power_play(d: Decision, n: Names) -> str:
    if d.get("on"):
        return f"Power play (XIII.2): {team_name(d.get('team'), n)} plays without its goalie"
    return f"Power play over (XIII.4): {team_name(d.get('team'), n)}'s goalie is back"


def _privilege(d: Decision, n: Names) -> str:
    moves = d.get("moves")
    rule = "VIII.7" if moves == 3 else "IX.1"
    return f"Privilege ({rule}): {team_name(d.get('team'), n)} plays {moves} moves"


WRITERS: dict[str, Callable[[Decision, Names], str]] = {
    "GOAL": _goal,
    "GOAL_DISALLOWED": _disallowed,
    "FOUL": _foul,
    "GOALIE_OUTSIDE_THIRD": lambda d, n: (
        f"Foul (XII.8): {team_name(d.get('team'), n)}'s goalie left its defensive third"
    ),
    "ACTIVITY_FAILED": lambda d, n: (
        f"Activity rule broken (XI.9): {d.get('stone')} of {team_name(d.get('team'), n)} is excluded"
    ),
    "EXCLUSION": _exclusion,
    "RETURN": lambda d, n: (
        f"Return (X.2): {d.get('stone')} of {team_name(d.get('team'), n)} comes back at the half-circle"
    ),
    "PRIVILEGE": _privilege,
    "PRIVILEGE_CANCELLED": lambda d, n: (
        f"Privilege ended (IX.8): {team_name(d.get('team'), n)} loses its remaining moves"
    ),
    "PENALTY_SHOT": lambda d, n: f"Penalty shot (XV.1) for {team_name(d.get('team'), n)}",
    "ADVANTAGE": lambda d, n: (
        f"Advantage (IX.3): {team_name(d.get('team'), n)} may play on or take the penalty shot"
    ),
    "PENALTY_SHOT_ENDED": _penalty_ended,
    "ACTIVITY_COUNT": lambda d, n: (
        f"Counting (XI.3): {team_name(d.get('team'), n)} counts {d.get('count')} of {d.get('limit')}"
    ),
    "ACTIVITY_ENDED": lambda d, n: (
        f"Counting stops (XI.4): {str(d.get('reason', '')).lower().replace('_', ' ')}"
    ),
    "POWER_PLAY": _power_play,
    "RESPOT": _respot,
    "FLIP": lambda d, n: f"Referee (VI.4): {d.get('stone')} lay upside down and is turned over",
    "RESTART": lambda d, n: f"Face-off (V.1): {team_name(d.get('team'), n)} starts from the basic setup",
    "PART_ENDED": lambda d, n: f"Siren (III.6): end of {_part_name(d.get('part'))}",
    "MATCH_ENDED": _match_ended,
}


def text(decision: Decision, names: Names | None = None, *, move_clock_ms: int = MOVE_CLOCK_MS) -> str:
    """One decision as a sentence with its rule id; an unknown code still reads sensibly. ``move_clock_ms`` is
    the room's move clock, which a move-clock ``TIMEOUT`` names (the rulesets' default when not given)."""
    names = names or {}
    if decision.code == "TIMEOUT":
        return _timeout(decision, names, move_clock_ms)
    writer = WRITERS.get(decision.code)
    if writer is not None:
        return writer(decision, names)
    fields = ", ".join(f"{k}={v}" for k, v in decision.fields)
    return f"{decision.code.replace('_', ' ').capitalize()}{' (' + fields + ')' if fields else ''}"


def _find(decisions: Sequence[Decision], code: str) -> Decision | None:
    """The first decision with ``code``."""
    return next((d for d in decisions if d.code == code), None)


def headline(decisions: Sequence[Decision], names: Names | None = None, *,
             move_clock_ms: int = MOVE_CLOCK_MS) -> str | None:
    """The one sentence for the banner after a move: the most important call, a foul told with its sanction
    (``move_clock_ms`` as for ``text``)."""
    names = names or {}
    for code in ("MATCH_ENDED", "GOAL", "GOAL_DISALLOWED", "PENALTY_SHOT_ENDED", "PENALTY_SHOT", "ADVANTAGE"):
        found = _find(decisions, code)
        if found is not None:
            return text(found, names, move_clock_ms=move_clock_ms)
    foul = _find(decisions, "FOUL") or _find(decisions, "GOALIE_OUTSIDE_THIRD") or _find(decisions, "ACTIVITY_FAILED")
    if foul is not None:
        rule = RULE_OF[foul.code]
        if foul.code == "FOUL":
            rule = "VIII.1b" if foul.get("kind") == "through_teammate" else "VIII.1a"
        parts = []
        exclusion = _find(decisions, "EXCLUSION")
        if exclusion is not None:
            verb = "is excluded (deferred)" if exclusion.get("deferred") else "is excluded"
            parts.append(f"{exclusion.get('stone')} {verb}")
        privilege = _find(decisions, "PRIVILEGE")
        if privilege is not None:
            parts.append(f"{team_name(privilege.get('team'), names)} plays {privilege.get('moves')} moves")
        label = "Foul" if foul.code != "ACTIVITY_FAILED" else "Activity rule"
        return f"{label} ({rule}): {' — '.join(parts) if parts else text(foul, names, move_clock_ms=move_clock_ms)}"
    for code in ("PART_ENDED", "TIMEOUT", "POWER_PLAY", "RESPOT", "FLIP", "RETURN", "PRIVILEGE", "ACTIVITY_COUNT",
                 "RESTART"):
        found = _find(decisions, code)
        if found is not None:
            return text(found, names, move_clock_ms=move_clock_ms)
    return text(decisions[0], names, move_clock_ms=move_clock_ms) if decisions else None


def is_siren(decisions: Sequence[Decision]) -> bool:
    """True when a part ended with the move: the client sounds the siren (III.6)."""
    return any(d.code in ("PART_ENDED", "MATCH_ENDED") for d in decisions)


def is_goal(decisions: Sequence[Decision]) -> bool:
    """True when a goal counts: the client plays the goal sound."""
    return _find(decisions, "GOAL") is not None
