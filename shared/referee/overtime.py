"""III.2-III.4, XVI: what follows a drawn regular time - overtime parts, sudden death, the shoot-out.

Why a module of its own: the part clock (``shared.referee.clock``) runs the parts; the rules of the
deciding parts are here as pure functions of the settings and the position: which parts follow a draw
(``deciding_parts``), with how many field stones (XVI.2), and the sudden-death end of the match at the
first goal that counts in overtime (XVI.1).

Engine calls: ``sudden_death`` right after any goal that counts (a valid goal, an own goal, a technical
goal or a penalty-shot goal, XVI.1) - it ends the match in an overtime part; ``field_stones`` when the
setup of a part is built (XVI.2). A19: power play stays allowed in overtime.
"""

from __future__ import annotations

from dataclasses import replace

from shared.model import Part, Position, Result, Team
from shared.outcome import Decision
from shared.rulesets import Settings

SHOOTOUT_PART = Part("shootout", 1, 0)  # XV.16, III.3: the shoot-out is one part whose clock never runs


def overtime_parts(settings: Settings) -> tuple[Part, ...]:
    """III.2, III.4: the overtime parts of the ruleset, in order, each with its full time (the part clock's
    schedule and ``deciding_parts`` both read them here)."""
    return tuple(Part("overtime", n, ms) for n, ms in enumerate(settings.overtime_ms, start=1))


def deciding_parts(settings: Settings) -> tuple[Part, ...]:
    """III.2-III.4, XVI.1: the parts played after a drawn regular time, in order: the overtime parts
    (3 minutes; in the final 3 then 6) and the shoot-out when the ruleset has one."""
    return overtime_parts(settings) + ((SHOOTOUT_PART,) if settings.shootout else ())


def field_stones(part: Part, settings: Settings) -> int:
    """XVI.2: field stones at the start of a part - ``overtime_field_stones`` in overtime, else ``field_stones``
    (the setup of a part and the notation's default stones both ask here)."""
    return settings.overtime_field_stones if part.kind == "overtime" else settings.field_stones


def sudden_death(position: Position, scorer: Team) -> tuple[Position, tuple[Decision, ...]]:
    """XVI.1: in overtime the first goal that counts ends the match at once; ``scorer`` is the team credited."""
    if position.part.kind != "overtime" or position.result is not None:
        return position, ()
    result = Result(scorer, "SUDDEN_DEATH")
    return replace(position, result=result), (Decision.of("MATCH_ENDED", winner=scorer, reason="SUDDEN_DEATH"),)
