"""The part clock: periods, breaks, overtime parts, the siren and the end of the match (III, D14, XIV.4, X.4).

Why a module of its own: time is the one input of the referee that is not an action. The engine and the
server feed it in milliseconds (never read from a wall clock): ``elapse`` for time passing while no move
is in progress (aiming, setups, breaks; A34 running time - the clock stops for nothing but the breaks,
product decision 5), ``after_move`` for the simulated duration of a judged move. Both run the same part
sequence, which is derived from the settings alone:

    period 1 .. period ``periods``  (``period_ms`` each, III.1)
    overtime 1 .. overtime k         (``overtime_ms``, only while the score is level, III.2, III.4, XVI.1)
    shootout                         (``shootout``, only while still level, III.3; run by the shoot-out module)

Every play part after the first is preceded by a part of kind ``break`` (III.5, A18) whose clock runs
``break_ms``; its ``number`` is the number in the sequence of the play part it follows (break 1 follows
period 1). At the end of a break the ends swap, every penalty is cancelled (X.4), the teams are complete
(``field_stones``, or ``overtime_field_stones`` in overtime, XVI.2) and the next part starts from the basic
setup with the starting team alternating (V.2). A ``break_ms`` of 0 means no break part at all.

The siren (D14) is the instant a play part's clock reaches 0, and IX.8 is applied at once (a privilege not
yet played, or interrupted, is cleared and announced ``PRIVILEGE_CANCELLED``; X.4 clears it again at the next
part start). A move begun before the siren is still judged (XIV.4): the engine judges it first and then calls
``after_move``, which ends the part. The time a move runs past the siren is not carried into the break: the
break begins when the judged move has come to rest.

The end of the part (``end_part``) is announced by ``PART_ENDED`` (III.6), followed in time by what comes next:
a break, the next part's ``RESTART`` (V.2) or ``MATCH_ENDED``. It cancels what the part's penalties left
pending (X.4: an exclusion choice). Usually it comes with the siren. Penalty shots at the siren (XV.8, XV.10,
A43): a pending advantage becomes a penalty shot (``advantage.at_siren``), and while a penalty shot is owed
(``shot_owed``: ``penalty_shot`` set) the part is held - the clock stays at 0, ``Position.siren`` is true and
``can_move`` lets the shot's moves begin. The part ends with the clock update that follows the shot's end (the
shot's last move, a move-clock timeout on it), and that result carries the one ``PART_ENDED``. The shot's own
restart (XV.14) does not happen then: the next part's restart (V.2) does, and likewise a goal by the move that
ends the part restarts nothing before it ends (``ends_part``, for the engine). A match that ends at once (a
sudden-death goal, also of a shot after the siren) tells ``MATCH_ENDED`` alone.

Sudden death (XVI.1: a goal in overtime ends the match) is the engine's check after a goal; the move
still takes its time off the clock. The shoot-out (XV.16) is a part of kind ``shootout`` (number 1, clock 0):
when it starts its first shot is set up at once (``shots.begin_shootout``); the part clock no longer runs, but
time passing during a shot runs the shot's own 15 s timer (XV.18, ``shots.time_passes``). The siren ends a
running activity count (XI, reason ``PART_ENDED``) and marks a shot in progress as completed after the siren
(XV.10).

III.7 (being back from a break) is a server concern (a ready check, A60): the core has nothing to check.
The move clock (A35) is kept by the server's room, not here (SCENARIOS.md: it never runs out in a scenario).
"""

from __future__ import annotations

from dataclasses import replace

from shared.model import Part, Position, Result, Team
from shared.outcome import Decision, RuleError
from shared.referee import activity, advantage, overtime, penalty_shot, shots
from shared.referee.decision_order import in_contract_order
from shared.referee.setup import begin_part, part_starter
from shared.rulesets import Settings

PLAY_KINDS = ("period", "overtime")


def schedule(settings: Settings) -> tuple[Part, ...]:
    """III.1, III.2, III.4: the play parts with a clock, in order, each with its full time.

    Overtime parts are listed even though they are only played while the score is level.
    """
    periods = tuple(Part("period", n, settings.period_ms) for n in range(1, settings.periods + 1))
    return periods + overtime.overtime_parts(settings)


def part_index(part: Part, settings: Settings) -> int:
    """The 0-based place of a part in ``schedule`` (V.2 alternation counts it).

    A break numbered n follows the play part at index n - 1 and gets that index; the shoot-out comes after
    every scheduled part.
    """
    if part.kind == "period":
        return part.number - 1
    if part.kind == "overtime":
        return settings.periods + part.number - 1
    if part.kind == "break":
        return part.number - 1
    return len(schedule(settings))


def part_json(part: Part) -> dict[str, object]:
    """The ``part`` field of a ``PART_ENDED`` decision: which part ended (kind and number)."""
    return {"kind": part.kind, "number": part.number}


def _play_part_after(index: int, settings: Settings) -> Part:
    """The play part that follows the play part at ``index``: the next scheduled one, else the shoot-out."""
    parts = schedule(settings)
    if index + 1 < len(parts):
        return parts[index + 1]
    return overtime.SHOOTOUT_PART


def _match_over(position: Position, winner: Team | None, reason: str) -> tuple[Position, tuple[Decision, ...]]:
    """III.1, XVI: record the result; the clock stays at 0 and no further move is allowed."""
    result = Result(winner, reason)
    return replace(position, result=result), (Decision.of("MATCH_ENDED", winner=winner, reason=reason),)


def leader(position: Position) -> Team | None:
    """The team ahead on goals, or None when the score is level (III.1, XVI; also the bot's report)."""
    home, away = position.score
    if home == away:
        return None
    return "home" if home > away else "away"


def shot_owed(position: Position) -> bool:
    """XV.8, XV.10: a penalty shot awarded in this part is still to be completed (``penalty_shot`` stays set
    until the shot ends)."""
    return position.penalty_shot is not None


def siren(position: Position, settings: Settings) -> tuple[Position, tuple[Decision, ...]]:
    """D14: a play part's clock has reached 0 - the part ends (``end_part``), unless a penalty shot holds it.

    IX.8: a privilege not yet played, or interrupted, is cleared at the siren and announced cut short
    (``PRIVILEGE_CANCELLED`` for the privileged team). A43: a pending advantage becomes a penalty shot. XV.8,
    XV.10: while a penalty shot is owed the part is held at 0 (``siren`` true, moves allowed for the shot) and
    nothing more is announced; the clock update after the shot's end ends the part.
    """
    part = position.part
    ended = replace(position, part=replace(part, clock_ms=0), privilege=None, restart=False,  # IX.8
                    activity_offer=None)  # XI.3: no count starts once time is up
    decisions: list[Decision] = []
    if position.privilege is not None:  # IX.8: the privilege is not played (or not played out)
        decisions.append(Decision.of("PRIVILEGE_CANCELLED", team=position.privilege.team))
    converted = advantage.at_siren(ended.advantage)  # A43 (a shot ends a running count, XI)
    if converted.penalty_to is not None:
        decisions.extend(converted.decisions)
        ended, more = shots.award(replace(ended, advantage=None, siren=True), converted.penalty_to, settings)
        decisions.extend(more)
    if ended.activity is not None:  # XI: the end of the part ends the count
        decisions.extend(activity.end(ended.activity, "PART_ENDED"))
        ended = replace(ended, activity=None)
    if ended.penalty is not None:  # XV.10: a shot in progress at the siren is completed
        ended = replace(ended, penalty=penalty_shot.at_siren(ended.penalty))
    if shot_owed(ended):  # XV.10: the shot is completed before the part ends
        return replace(ended, siren=True), in_contract_order(decisions)
    ended, more = end_part(ended, settings)
    return ended, (*in_contract_order(decisions), *more)


def end_part(position: Position, settings: Settings) -> tuple[Position, tuple[Decision, ...]]:
    """III.6, X.4: the part is over - its time ran out and any shot owed in it is complete (XV.10).

    ``PART_ENDED`` names it, then what follows in time (``finish_part``): a break, the next part's ``RESTART`` or
    ``MATCH_ENDED``. The end of the part cancels a pending exclusion choice (X.4: the exclusion is cancelled with
    every penalty). A match already over (a sudden-death goal of the shot owed after an overtime's siren, XVI.1)
    has told its end: nothing more is announced.
    """
    ended = replace(position, siren=False, exclusion_choice=None)
    if ended.result is not None:
        return ended, ()
    ended, more = finish_part(ended, settings)
    return ended, (Decision.of("PART_ENDED", part=part_json(position.part)), *more)


def ends_part(position: Position, duration_ms: int) -> bool:
    """D14, XIV.4, XV.10: whether the part ends when a move of ``duration_ms`` from ``position`` (as judged) comes
    to rest - its clock runs out in it, or the siren has sounded and no shot is owed any more; the match goes on.
    A shot owed, or an advantage that becomes one at the siren (A43), holds the part instead.

    The engine asks before a move's restart (V.3, V.4, V.9, XV.14): a restart the part's end overtakes never
    happens (the next part's restart does, V.2).
    """
    if position.result is not None or position.part.kind not in PLAY_KINDS or shot_owed(position):
        return False
    if position.advantage is not None:
        return False
    return position.siren or position.part.clock_ms <= duration_ms


def finish_part(position: Position, settings: Settings) -> tuple[Position, tuple[Decision, ...]]:
    """III, A18: after the siren (and any penalty shot owed, XV.10) - a break, the next part, or the match end.

    III.1: after the last period a leader wins (reason ``REGULAR_TIME``); a level score goes to overtime
    when the ruleset has overtime parts (III.2, III.4), to the shoot-out when it has one (III.3), and is
    otherwise a draw (``DRAW``). After an overtime part a leader wins (``OVERTIME``; sudden death normally
    ends the match earlier, XVI.1).
    """
    ended = replace(position, siren=False, restart=False, privilege=None)
    index = part_index(ended.part, settings)
    if index + 1 >= settings.periods:  # regular time is over (III.1)
        ahead = leader(ended)
        if ahead is not None:
            return _match_over(ended, ahead, "REGULAR_TIME" if ended.part.kind == "period" else "OVERTIME")
        if _play_part_after(index, settings).kind == "shootout" and not settings.shootout:
            return _match_over(ended, None, "DRAW")  # III.1: a draw stands
    if settings.break_ms > 0:  # III.5, A18: a break before every further part
        return replace(ended, part=Part("break", index + 1, settings.break_ms)), ()
    return _start_next(ended, index, settings)  # no break: the next part starts at once


def _start_next(position: Position, index: int, settings: Settings) -> tuple[Position, tuple[Decision, ...]]:
    """III.5, X.4, V.2: ends swap and the play part after ``index`` starts (the shoot-out only gets its part)."""
    following = _play_part_after(index, settings)
    swapped = replace(position, home_end=-position.home_end)  # III.5: the teams swap ends
    starter = part_starter(swapped, part_index(following, settings))  # V.2: alternating across every part
    started, decisions = begin_part(swapped, following, starter, settings)
    if following.kind == "shootout":  # XV.16: the lot and the first shot
        started, more = shots.begin_shootout(started, settings)
        decisions += more
    return started, decisions


def end_of_break(position: Position, settings: Settings) -> tuple[Position, tuple[Decision, ...]]:
    """III.5: the break's clock has run out - the next part starts (from the basic setup, RESTART)."""
    return _start_next(position, part_index(position.part, settings), settings)


def _clock_over(position: Position, settings: Settings) -> tuple[Position, tuple[Decision, ...]]:
    """What happens when the current part's clock is at 0: the siren of a play part or the end of a break."""
    if position.part.kind == "break":
        return end_of_break(position, settings)
    return siren(position, settings)


def _clock_runs(position: Position) -> bool:
    """D14: a clock runs in periods, overtime parts and breaks until the match is over."""
    return position.result is None and position.part.kind in (*PLAY_KINDS, "break")


def elapse(position: Position, ms: int, settings: Settings) -> tuple[Position, tuple[Decision, ...]]:
    """A34, D14: ``ms`` milliseconds pass while no move is in progress (aiming, setups, breaks).

    The clock runs down; every time it reaches 0 the part ends (siren or end of break) and the rest of
    the time runs on in the next part, so one call may cross several parts. A play part whose clock
    already stands at 0 ends even when ``ms`` is 0. Time spent in a shoot-out or after the match changes
    nothing here.
    """
    if ms < 0:
        raise ValueError(f"time cannot run backwards ({ms} ms)")
    if position.part.kind == "shootout" and position.result is None:  # XV.18: the shot's own timer
        return shots.time_passes(position, ms, settings)
    decisions: list[Decision] = []
    while _clock_runs(position):
        if position.siren:  # XV.10: held for a penalty shot, time runs in the shot only
            if shot_owed(position):
                break
            position, more = end_part(position, settings)
            decisions.extend(more)
            continue
        clock = position.part.clock_ms
        if ms < clock:
            position = replace(position, part=replace(position.part, clock_ms=clock - ms))
            break
        ms -= clock
        position, more = _clock_over(replace(position, part=replace(position.part, clock_ms=0)), settings)
        decisions.extend(more)
    return position, tuple(decisions)


def after_move(position: Position, duration_ms: int, settings: Settings) -> tuple[Position, tuple[Decision, ...]]:
    """XIV.4, D14: a judged move took ``duration_ms`` of simulated time; run the clock and end the part at 0.

    The move was begun before the siren, so it has been judged in full (a goal in it counts) before this
    is called. If the clock reached 0 during the move the part ends now, exactly as at the siren; the time
    the move ran past the siren is not charged to the break. A move that ended the match (sudden death,
    XVI.1) still takes its time off the clock, and nothing more follows. After the siren (XV.10) the move that
    completes the owed shot ends the part (``end_part``).
    """
    if duration_ms < 0:
        raise ValueError(f"a move cannot last {duration_ms} ms")
    if position.part.kind not in PLAY_KINDS:
        return position, ()
    if position.siren:  # XV.10: a move of the penalty shot completed after the siren
        return (position, ()) if shot_owed(position) else end_part(position, settings)
    clock = max(0, position.part.clock_ms - duration_ms)
    position = replace(position, part=replace(position.part, clock_ms=clock))
    if clock > 0 or position.result is not None:
        return position, ()
    return siren(position, settings)


def can_move(position: Position) -> RuleError | None:
    """D14, III.5: whether a move (or any action but a setup) may begin now; the engine asks before each action.

    No move after the match (MATCH_OVER), during a break, or in a play part whose siren has sounded.
    The shoot-out's own rules (XV.16-XV.18) are checked by the shoot-out module.
    """
    if position.result is not None:
        winner = position.result.winner
        outcome = f"{winner} won" if winner is not None else "a draw"
        return RuleError("MATCH_OVER", f"the match is over ({outcome}, {position.result.reason})")
    part = position.part
    if part.kind == "break":
        return RuleError(
            "ACTION_NOT_ALLOWED",
            f"break {part.number}: no move until the next part starts in {part.clock_ms} ms (III.5)",
        )
    if part.kind in PLAY_KINDS and part.clock_ms <= 0 and not (position.siren and shot_owed(position)):  # XV.10
        return RuleError("ACTION_NOT_ALLOWED", f"the siren has ended {part.kind} {part.number} (D14)")
    return None


def wait_out_break(position: Position, settings: Settings) -> tuple[Position, tuple[Decision, ...]]:
    """III.5: let the rest of a break pass (a scenario, where only moves take time, or a server skipping it)."""
    if position.part.kind != "break" or position.result is not None:
        return position, ()
    return elapse(position, position.part.clock_ms, settings)
