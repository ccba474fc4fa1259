"""Every referee decision code of SCENARIOS.md as a sentence a coach reads, citing the rule it applies.

Why: players learn the rules from the referee's calls, and a club player recognises "VIII.1a" from the
printed rules, so every message names its rule id. The table ``RULE_OF`` covers every decision code, and
``TIMEOUT`` beside them (a coach's time ran out, docs/SCENARIOS-EXTENSIONS.md); ``text`` writes one decision;
``headline`` condenses one move's decisions into the banner shown after it (a foul with its exclusion and
privilege reads as one sentence, as a referee would say it). Every sentence goes through the client's translation
layer (``client.common.i18n``), its rule id kept in every language: the tables below are marked with ``N_`` and
translated where they are written out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from client.common.i18n import N_, _
from client.common.ruleset_names import shown_name
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
    "FIRST_MOVE_AFTER_RESTART": ("V.9", N_("scored with the first move from the start")),
    "GOALIE_MOVE": ("XII.9", N_("scored by a goalie's move")),
    "ILLEGAL_MOVE": ("XIV.1", N_("scored after an illegal move")),
    "PENALTY_SHOT_FIRST_MOVE": ("XV.12", N_("scored with the first move of a penalty shot")),
    "OWN_GOAL_IN_PENALTY_SHOT": ("XV.12", N_("an own goal in a penalty shot")),
    "REBOUND_FROM_PENALTY_POSITION": ("XIV.6", N_("rebounded off a stone in a penalty position")),
}

PENALTY_SHOT_ENDINGS: dict[str, tuple[str, str]] = {
    "a": ("XV.13a", N_("the puck did not leave the centre circle with the first move")),
    "b": ("XV.13b", N_("a goal with the first move does not count")),
    "c": ("XV.13c", N_("the puck touched the goalie without a goal")),
    "d": ("XV.13d", N_("the puck crossed the goal line beside the goal")),
    "e": ("XV.13e", N_("the shooter overtook the puck")),
    "f": ("XV.13f", N_("an illegal move")),
    "g": ("XV.13g", N_("the shooter fouled the goalie")),
    "h": ("XV.13h", N_("a backward move")),
    "i": ("XV.13i", N_("the puck went into the shooting team's own goal")),
    "SCORED": ("XV.12", N_("scored")),
    "NO_GOAL_IN_3": ("XV.12", N_("no goal in three moves")),
    "TIME": ("XV.18", N_("the shot's time ran out")),  # XV.18's limit, or A35's move clock inside a shot
}

RESPOT_REASONS: dict[str, tuple[str, str]] = {
    "LEFT_BOARD": ("VI.5", N_("flew over the board; the referee puts it back at the board where it left")),
    "ON_GOAL": ("VI.3", N_("landed on top of the goal; the referee puts it behind the goal")),
}

# What the documented default of each prompt kind that can time out does (shared.referee.choices.CHOICE_DOCS).
CHOICE_DEFAULTS: dict[str, str] = {
    "choose_exclusion": N_("the stone the referee named stays excluded"),
    "setup": N_("the stone stays where the referee set it up"),
    "count": N_("the last move is counted"),
}

# The reasons a match ends (III, XVI; a forfeit, docs/SCENARIOS-EXTENSIONS.md) and counting stops (XI), in words;
# a reason of a newer server reads as its code in lower case.
END_REASONS: dict[str, str] = {
    "REGULAR_TIME": N_("regular time"),
    "OVERTIME": N_("overtime"),
    "DRAW": N_("draw"),
    "SUDDEN_DEATH": N_("sudden death"),
    "SHOOTOUT": N_("shootout"),
    "FORFEIT_DISCONNECTED": N_("forfeit disconnected"),
    "RESIGNED": N_("resigned"),
    "CLEARED": N_("cleared"),
    "EARLY_ENTRY": N_("early entry"),
    "FOUL": N_("foul"),
    "NOT_COUNTED": N_("not counted"),
    "NOT_RETURNED": N_("not returned"),
    "PUCK_TOUCHED": N_("puck touched"),
    "STOPPED": N_("stopped"),
}

PARTS: dict[str, str] = {"period": N_("period {n}"), "break": N_("break {n}"), "overtime": N_("overtime {n}"),
                         "shootout": N_("shootout")}

Names = Mapping[str, str]


def team_name(team: Any, names: Names) -> str:
    """The display name of a team (the seated coach's name when known, else Home/Away)."""
    if team is None:
        return _("nobody")
    found = names.get(str(team))
    if found is not None:
        return shown_name(found)
    return _("Home") if team == "home" else _("Away") if team == "away" else str(team).capitalize()


def _reason(code: Any) -> str:
    """A reason code in words (``END_REASONS``), else the code in lower case."""
    words = END_REASONS.get(str(code))
    return _(words) if words is not None else str(code or "").lower().replace("_", " ")


def _said(table_entry: tuple[str, str]) -> tuple[str, str]:
    """A (rule, words) table entry with its words in the language in use."""
    rule, words = table_entry
    return rule, _(words)


def _part_name(part: Any) -> str:
    """A part (III) in words, whether the decision carries a dict, a number or a name."""
    if isinstance(part, Mapping):
        kind = str(part.get("kind", "period"))
        number = part.get("number")
        if kind in PARTS and (number is not None or kind == "shootout"):
            return _(PARTS[kind]).format(n=number)
        return f"{kind} {number}" if number is not None and kind != "shootout" else kind
    if isinstance(part, int):
        return _(PARTS["period"]).format(n=part)
    return str(part).replace("_", " ")


def _team(d: Decision, n: Names, field: str = "team") -> str:
    """The name of the team a decision's ``field`` names."""
    return team_name(d.get(field), n)


def _foul(d: Decision, n: Names) -> str:
    """VIII.1a (directly) or VIII.1b (through a team-mate)."""
    if d.get("kind") == "through_teammate":
        return _("Foul (VIII.1b): {stone} of {team} hit {victim} through a team-mate").format(
            stone=d.get("stone"), team=_team(d, n), victim=d.get("victim"))
    return _("Foul (VIII.1a): {stone} of {team} hit {victim} directly").format(
        stone=d.get("stone"), team=_team(d, n), victim=d.get("victim"))


def _goal(d: Decision, n: Names) -> str:
    """XIV.1, or an own goal (XIV.6)."""
    if d.get("own_goal"):
        return _("Own goal (XIV.6): counts for {team}").format(team=_team(d, n))
    return _("Goal (XIV.1): {team} scores").format(team=_team(d, n))


def _disallowed(d: Decision, n: Names) -> str:
    """XIV: a goal that does not count, and the rule that says why."""
    found = DISALLOWED.get(str(d.get("reason")))
    rule, why = _said(found) if found else ("XIV", str(d.get("reason", "")).lower().replace("_", " "))
    return _("No goal ({rule}): {team}'s goal — {why}").format(rule=rule, team=_team(d, n), why=why)


def _exclusion(d: Decision, n: Names) -> str:
    """X.1, or deferred (X.3)."""
    if d.get("deferred"):
        return _("Exclusion deferred (X.3): {stone} of {team} goes off when a stone returns").format(
            stone=d.get("stone"), team=_team(d, n))
    return _("Exclusion (X.1): {stone} of {team} leaves the board").format(stone=d.get("stone"), team=_team(d, n))


def _penalty_ended(d: Decision, n: Names) -> str:
    """XV.12-XV.13: how a penalty shot ended."""
    found = PENALTY_SHOT_ENDINGS.get(str(d.get("reason")))
    rule, why = _said(found) if found else ("XV.13", str(d.get("reason")))
    if d.get("scored"):
        return _("Penalty shot scored ({rule}): {team} — {why}").format(rule=rule, team=_team(d, n), why=why)
    return _("Penalty shot failed ({rule}): {team} — {why}").format(rule=rule, team=_team(d, n), why=why)


def _respot(d: Decision, n: Names) -> str:
    """VI.5 or VI.3: the referee puts a body back."""
    found = RESPOT_REASONS.get(str(d.get("reason")))
    rule, why = _said(found) if found else ("VI.5", _("put back by the referee"))
    body = _("the puck") if d.get("body") == "puck" else str(d.get("body"))
    return _("Referee ({rule}): {body} {why}").format(rule=rule, body=body, why=why)


def _timeout(d: Decision, n: Names, move_clock_ms: int) -> str:
    """A35 (the move clock) or A33/A47/XI.3 (a choice whose deadline passed, its default applied)."""
    team = d.get("team")
    kind = d.get("kind")
    if kind is None:
        opponent = "away" if team == "home" else "home"
        return _("Time (A35): {team} did not move in {seconds} — {opponent} to move").format(
            team=team_name(team, n), seconds=f"{move_clock_ms / 1000:g} s", opponent=team_name(opponent, n))
    found = CHOICE_DEFAULTS.get(str(kind))
    what = _(found) if found else _("the default {kind} applies").format(kind=str(kind).replace("_", " "))
    return _("Time: the default was chosen for {team} — {what}").format(team=team_name(team, n), what=what)


def _match_ended(d: Decision, n: Names) -> str:
    """III.1: the match is over, with its winner and why."""
    winner = d.get("winner")
    reason = _reason(d.get("reason", ""))
    if winner is None:
        head = _("Match over — a draw (III.1)")
    else:
        head = _("Match over — {team} wins (III.1)").format(team=team_name(winner, n))
    return f"{head}{': ' + reason if reason else ''}"


def _power_play(d: Decision, n: Names) -> str:
    """XIII.2 (the goalie off) and XIII.4 (back)."""
    if d.get("on"):
        return _("Power play (XIII.2): {team} plays without its goalie").format(team=_team(d, n))
    return _("Power play over (XIII.4): {team}'s goalie is back").format(team=_team(d, n))


def _privilege(d: Decision, n: Names) -> str:
    """IX.1 (two moves) or VIII.7 (three)."""
    moves = d.get("moves")
    rule = "VIII.7" if moves == 3 else "IX.1"
    return _("Privilege ({rule}): {team} plays {moves} moves").format(rule=rule, team=_team(d, n), moves=moves)


WRITERS: dict[str, Callable[[Decision, Names], str]] = {
    "GOAL": _goal,
    "GOAL_DISALLOWED": _disallowed,
    "FOUL": _foul,
    "GOALIE_OUTSIDE_THIRD": lambda d, n: _("Foul (XII.8): {team}'s goalie left its defensive third").format(
        team=_team(d, n)),
    "ACTIVITY_FAILED": lambda d, n: _("Activity rule broken (XI.9): {stone} of {team} is excluded").format(
        stone=d.get("stone"), team=_team(d, n)),
    "EXCLUSION": _exclusion,
    "RETURN": lambda d, n: _("Return (X.2): {stone} of {team} comes back at the half-circle").format(
        stone=d.get("stone"), team=_team(d, n)),
    "PRIVILEGE": _privilege,
    "PRIVILEGE_CANCELLED": lambda d, n: _("Privilege ended (IX.8): {team} loses its remaining moves").format(
        team=_team(d, n)),
    "PENALTY_SHOT": lambda d, n: _("Penalty shot (XV.1) for {team}").format(team=_team(d, n)),
    "ADVANTAGE": lambda d, n: _("Advantage (IX.3): {team} may play on or take the penalty shot").format(
        team=_team(d, n)),
    "PENALTY_SHOT_ENDED": _penalty_ended,
    "ACTIVITY_COUNT": lambda d, n: _("Counting (XI.3): {team} counts {count} of {limit}").format(
        team=_team(d, n), count=d.get("count"), limit=d.get("limit")),
    "ACTIVITY_ENDED": lambda d, n: _("Counting stops (XI.4): {reason}").format(reason=_reason(d.get("reason", ""))),
    "POWER_PLAY": _power_play,
    "RESPOT": _respot,
    "FLIP": lambda d, n: _("Referee (VI.4): {stone} lay upside down and is turned over").format(stone=d.get("stone")),
    "RESTART": lambda d, n: _("Face-off (V.1): {team} starts from the basic setup").format(team=_team(d, n)),
    "PART_ENDED": lambda d, n: _("Siren (III.6): end of {part}").format(part=_part_name(d.get("part"))),
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
            verb = _("{stone} is excluded (deferred)") if exclusion.get("deferred") else _("{stone} is excluded")
            parts.append(verb.format(stone=exclusion.get("stone")))
        privilege = _find(decisions, "PRIVILEGE")
        if privilege is not None:
            parts.append(_("{team} plays {moves} moves").format(team=team_name(privilege.get("team"), names),
                                                                 moves=privilege.get("moves")))
        said = " — ".join(parts) if parts else text(foul, names, move_clock_ms=move_clock_ms)
        if foul.code == "ACTIVITY_FAILED":
            return _("Activity rule ({rule}): {what}").format(rule=rule, what=said)
        return _("Foul ({rule}): {what}").format(rule=rule, what=said)
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
