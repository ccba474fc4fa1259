"""Penalty shots inside a match: awarding one, finishing one, and the shoot-out built from them.

Why a module of its own: ``penalty_shot`` judges a shot move by move and ``shootout`` orders the shots of
a shoot-out, both as pure functions of a ``PenaltyShotState``. Turning their verdicts into the match's next
position touches several other chapters at once - the score and the X.3 returns of a counted goal, sudden
death (XVI.1), the activity count (XI), power play (A32), the restart after the shot (XV.14, V.5) and the
shoot-out's series (XV.16) - and both the engine (``shared.match``) and the clock (``shared.referee.clock``:
a shot awarded at the siren, A43; the shoot-out's timer, XV.18) need it. So the glue lives here, once.

Position fields: ``penalty_shot`` names the shooting team while a shot is owed or under way (the clock holds
the part for it, XV.10); ``penalty`` is the shot's state; ``shootout`` the shoot-out's series.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from shared.model import TEAMS, Position, Team, other
from shared.outcome import Decision
from shared.referee import activity, exclusions, overtime, penalty_shot, setup, shootout
from shared.referee.decision_order import in_moments
from shared.referee.goals import add_goal
from shared.referee.penalty_shot import PenaltyVerdict
from shared.rulesets import Settings


def _lineups(position: Position, against: Team) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """XV.14, A32: the ids each team will set up with after the shot - those on the board now, except that the
    defending team in power play gets its goalie back in place of its sixth stone."""
    lineups: list[tuple[str, ...]] = []
    for team in TEAMS:
        ids = tuple(s.id for s in position.team_stones(team))
        state = position.power_play_of(team)
        if team == against and state is not None:
            ids = (state.goalie, *(i for i in ids if i != state.substitute))
        lineups.append(ids)
    return lineups[0], lineups[1]


def award(position: Position, team: Team, settings: Settings) -> tuple[Position, tuple[Decision, ...]]:
    """XV.1, XV.11, A32, A33: a penalty shot for ``team`` is set up at once with the documented defaults.

    The ``PENALTY_SHOT`` decision itself is announced by whoever awarded the shot. A running activity
    count ends (XI, reason ``PENALTY_SHOT``); the defending team's power play ends (A32); an advantage and
    a privilege lapse (the shot replaces them). Coaches may still place the goalie and the shooter with a
    ``setup`` before the first flick (``penalty_shot.check_setup``).
    """
    decisions: list[Decision] = []
    if position.activity is not None:
        decisions.extend(activity.end(position.activity, "PENALTY_SHOT"))
    against = other(team)
    lineups = _lineups(position, against)
    defending_pp = position.power_play_of(against)
    shot, state, more = penalty_shot.setup_shot(position, team, power_play=defending_pp)
    decisions.extend(more)
    state = replace(state, lineups=lineups, after_siren=position.siren)
    power_play = tuple(pp for pp in position.power_play if pp.team != against)
    shot = replace(
        shot, penalty=state, penalty_shot=team, advantage=None, activity=None, activity_offer=None,
        power_play=power_play, exclusion_choice=None, last_mover=None,
    )
    return shot, tuple(decisions)


def _count_goal(position: Position, team: Team) -> tuple[Position, list[Decision], tuple[str, ...]]:
    """A counted penalty-shot goal (XV.12): the score, then the X.3 returns (A15)."""
    scored, returned = exclusions.returns_after_goal(replace(position, score=add_goal(position.score, team)))
    return scored, list(returned), tuple(d.get("stone") for d in returned)


@dataclass(frozen=True, slots=True)
class Finished:
    """A shot's end: the position after it, the decisions of its end (the verdict's own are the caller's) and
    those of what follows it - the next shoot-out shot, a moment of its own that comes after (XV.16)."""

    position: Position
    decisions: tuple[Decision, ...]
    following: tuple[Decision, ...] = ()


def finish(position: Position, verdict: PenaltyVerdict, settings: Settings) -> Finished:
    """XV.12-XV.14, XV.16, XVI.1: the shot in ``position`` ended with ``verdict`` (its decisions are the caller's).

    In-game shot: a goal counts (score, X.3 returns, sudden death in overtime); then the team against which
    the shot was awarded restarts from the basic setup with the teams as they were (XV.14, V.5), the
    excluded stones staying off - unless the shot was completed after the siren (XV.10): the part ends with
    it, and the next part's restart (V.2) is the one that happens. Shoot-out shot: the series goes on (the next
    shot is set up: ``following``) or the match ends (``shootout``).
    """
    state = verdict.state
    cleared = replace(position, penalty=None, penalty_shot=None)
    if state.in_shootout and position.shootout is not None:
        after, series, next_shot, decisions = shootout.after_shot(
            cleared, position.shootout, state, verdict.scored, settings
        )
        if next_shot is None:
            return Finished(replace(after, shootout=series), decisions)
        after = replace(after, penalty=next_shot, penalty_shot=next_shot.team, shootout=series)
        return Finished(after, (), decisions)
    found: list[Decision] = []
    returning: tuple[str, ...] = ()
    if verdict.scored:
        cleared, returned, returning = _count_goal(cleared, state.team)
        found.extend(returned)
        cleared, ended = overtime.sudden_death(cleared, state.team)  # XVI.1
        found.extend(ended)
        if cleared.result is not None:
            return Finished(cleared, tuple(found))
    if state.after_siren:  # XV.10: the part ends with the shot (the clock's end_part follows)
        return Finished(cleared, tuple(found))
    starter = verdict.restart_by or penalty_shot.restart_team(state)  # XV.14, V.5
    lineups = {team: state.lineups[TEAMS.index(team)] for team in TEAMS}
    after = setup.restart(cleared, starter, returning=returning, lineups=lineups)
    found.append(Decision.of("RESTART", team=starter))
    return Finished(after, tuple(found))


def begin_shootout(position: Position, settings: Settings) -> tuple[Position, tuple[Decision, ...]]:
    """XV.16, III.3: the shoot-out part has started - the lot names the first shooter, whose shot is set up."""
    shot, series, state, decisions = shootout.begin(position, settings)
    return replace(shot, shootout=series, penalty=state, penalty_shot=state.team, activity=None, power_play=()), (
        decisions
    )


def time_passes(position: Position, ms: int, settings: Settings) -> tuple[Position, tuple[Decision, ...]]:
    """XV.18, A42: ``ms`` pass during a shoot-out shot; after ``shootout_shot_ms`` from its first flick it fails
    (reason ``TIME``) and the shoot-out goes on (or ends)."""
    state = position.penalty
    if state is None or not state.in_shootout:
        return position, ()
    state = penalty_shot.elapse_shot(state, ms)
    position = replace(position, penalty=state)
    verdict = penalty_shot.expire(state, settings)
    if verdict is None:
        return position, ()
    done = finish(position, verdict, settings)
    return done.position, in_moments((*verdict.decisions, *done.decisions), done.following)


def fail_on_timeout(position: Position, settings: Settings) -> tuple[Position, tuple[Decision, ...]]:
    """A35 in a penalty shot: the shooter's move clock ran out. The turn cannot pass inside a shot, so the shot
    fails (reason ``TIME``, as XV.18) and play goes on as after any failed shot (the next shoot-out shot after
    this one's end)."""
    state = position.penalty
    assert state is not None
    ended = Decision.of("PENALTY_SHOT_ENDED", team=state.team, scored=False, reason="TIME")
    restart_by = None if state.in_shootout else penalty_shot.restart_team(state)
    verdict = PenaltyVerdict(state, (ended,), True, False, restart_by)
    done = finish(position, verdict, settings)
    return done.position, in_moments((ended, *done.decisions), done.following)
