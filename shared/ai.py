"""A bot coach: it chooses a flick by simulating candidate flicks through the real engine and scoring them.

Why this shape: the engine is a pure function (``shared.match.apply_action``), so the best judge of a
flick is the referee itself — the bot plays a few candidates on copies of the position and keeps the
one whose outcome scores best (a goal for us, no foul, no goal against, the puck nearer the
opponent's goal, a privilege won). Candidates are aimed like a billiards player aims: at the "ghost"
point behind the puck that sends it towards the goal, plus variations in angle and speed. Every
draw comes from ``shared.draws.Stream`` keyed by the position's seed and move number, so the same
position always gives the same choice (no ``random``, no clock). ``random_flick`` is the baseline
the bot is measured against, and ``play_match`` runs a whole match between two policies in-process
(the bench and the tests use it).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from shared import geometry
from shared.draws import Stream
from shared.match import apply_action, legal_stones, prompts, settings_of, timeout
from shared.model import Action, Flick, Position, Team, other
from shared.outcome import ActionResult
from shared.referee import clock

DEFAULT_BUDGET = 12  # simulations per move: about 0.2 s on this machine (a flick costs 10-25 ms)
STONES_TRIED = 3  # the stones best placed to hit the puck towards the goal get the candidates
GOAL_SCORE = 1000.0
WEIGHTS = {  # decision code -> value when it favours the bot's team (negated when it favours the other)
    "GOAL": GOAL_SCORE,
    "PENALTY_SHOT": 300.0,
    "EXCLUSION": -80.0,  # an exclusion of our stone is bad for us
    "FOUL": -150.0,  # a foul by our team
    "GOALIE_OUTSIDE_THIRD": -50.0,
    "ACTIVITY_FAILED": -50.0,
}
PRIVILEGE_PER_MOVE = 60.0
PROGRESS_PER_MM = 0.3  # the puck came one millimetre nearer the middle of the opponent's goal
DANGER_MM = 250.0  # the puck ending this close to our own goal line is a risk ...
DANGER = 120.0  # ... worth this much
STALL_TURNS = 6  # play_match gives up after this many turns in a row in which nothing could be played


Policy = Callable[[Position, Team], Action | None]


@dataclass(frozen=True, slots=True)
class Level:
    """How strong the bot plays: how many flicks it simulates, and how far its hand strays from the flick it chose
    (up to ``aim_error_deg`` off the line, up to ``speed_error`` of the speed lost) — a newcomer's opponent must
    miss now and then. The stray is drawn from the position's seed, so a level is as deterministic as the bot."""

    name: str
    budget: int
    aim_error_deg: float
    speed_error: float


LEVELS: dict[str, Level] = {
    "easy": Level("easy", 3, 14.0, 0.4),
    "medium": Level("medium", 6, 5.0, 0.15),
    "hard": Level("hard", DEFAULT_BUDGET, 0.0, 0.0),
}


@dataclass(frozen=True, slots=True)
class Candidate:
    """A flick the bot considered and the score of its simulated outcome."""

    flick: Flick
    score: float


def choose_action(position: Position, team: Team, budget: int = DEFAULT_BUDGET) -> Action | None:
    """The bot's next action for ``team``: a prompt's answer first, else a flick when it is to move, else None."""
    answer = answer_prompt(position, team)
    if answer is not None:
        return answer
    if position.result is not None or position.to_move != team:
        return None
    return choose_flick(position, team, budget)


def choose_action_at(position: Position, team: Team, level: Level) -> Action | None:
    """The bot's next action at ``level``: a prompt's answer, else its chosen flick as its hand plays it."""
    answer = answer_prompt(position, team)
    if answer is not None:
        return answer
    if position.result is not None or position.to_move != team:
        return None
    chosen = choose_flick(position, team, level.budget)
    return None if chosen is None else stray(chosen, position, level)


def stray(flick: Flick, position: Position, level: Level) -> Flick:
    """``flick`` as a hand of ``level`` plays it: turned by up to ``aim_error_deg`` and slowed by up to
    ``speed_error`` (drawn from the position's seed), within the ruleset's speed range (D3)."""
    if level.aim_error_deg <= 0 and level.speed_error <= 0:
        return flick
    stream = Stream(position.seed, "stray", level.name, position.move_number, flick.team)
    settings = settings_of(position)
    angle = math.atan2(flick.vy, flick.vx) + math.radians(stream.uniform(-level.aim_error_deg, level.aim_error_deg))
    speed = math.hypot(flick.vx, flick.vy) * (1.0 - stream.uniform(0.0, level.speed_error))
    speed = min(max(speed, settings.flick_speed_min + 1.0), settings.flick_speed_max - 1.0)
    return Flick(flick.team, flick.stone, round(speed * math.cos(angle), 1), round(speed * math.sin(angle), 1))


def answer_prompt(position: Position, team: Team) -> Action | None:
    """The answer to a choice awaited from ``team`` (its documented default is a sound choice), or None."""
    for prompt in prompts(position):
        if prompt.team == team:
            return prompt.default
    return None


def choose_flick(position: Position, team: Team, budget: int = DEFAULT_BUDGET) -> Flick | None:
    """The best of ``budget`` simulated candidate flicks (None when ``team`` has no stone to flick)."""
    ranked = rank_candidates(position, team, budget)
    return ranked[0].flick if ranked else None


def rank_candidates(position: Position, team: Team, budget: int = DEFAULT_BUDGET) -> list[Candidate]:
    """Every candidate flick with its simulated score, best first (ties keep generation order)."""
    flicks = candidate_flicks(position, team, max(1, budget))
    scored = [Candidate(f, evaluate(position, apply_action(position, f), team)) for f in flicks]
    return sorted(scored, key=lambda c: -c.score)


def candidate_flicks(position: Position, team: Team, budget: int) -> list[Flick]:
    """``budget`` flicks: ghost-point aims of the best-placed stones, then variations of angle and speed."""
    stones = legal_stones(position, team)
    if not stones:
        return []
    settings = settings_of(position)
    stream = Stream(position.seed, "bot", position.move_number, team)
    end = position.attack_end(team)
    puck = (position.puck.x, position.puck.y)
    reach = settings.stone_radius + settings.puck_radius
    behind = end * puck[0] > geometry.GOAL_LINE_X - reach  # at or behind the goal line: bring it out in front
    goal = (end * (geometry.GOAL_LINE_X - 120.0 if behind else geometry.GOAL_LINE_X + 20.0), 0.0)
    aims = sorted((_aim(position, s, puck, goal, reach) for s in stones), key=lambda a: a[0])[:STONES_TRIED]
    top = min(settings.flick_speed_max, 3000.0)
    low = max(settings.flick_speed_min, 600.0)
    flicks: list[Flick] = []
    for index in range(budget):
        _, stone, angle = aims[index % len(aims)]
        if index >= len(aims):  # variations: a few degrees off the aim, a different speed
            angle += math.radians(stream.uniform(-10.0, 10.0))
        speed = top if index < len(aims) else stream.uniform(low, top)
        flicks.append(Flick(team, stone, round(speed * math.cos(angle), 1), round(speed * math.sin(angle), 1)))
    return flicks


def _aim(
    position: Position, stone_id: str, puck: tuple[float, float], goal: tuple[float, float], reach: float
) -> tuple[float, str, float]:
    """(cost, stone, angle): the angle that sends the stone to the ghost point; cost grows with the cut."""
    stone = position.stone(stone_id)
    assert stone is not None
    to_goal = math.atan2(goal[1] - puck[1], goal[0] - puck[0])
    ghost = (puck[0] - reach * math.cos(to_goal), puck[1] - reach * math.sin(to_goal))
    angle = math.atan2(ghost[1] - stone.y, ghost[0] - stone.x)
    cut = abs(math.remainder(angle - to_goal, math.tau))
    distance = math.hypot(ghost[0] - stone.x, ghost[1] - stone.y)
    return distance + 400.0 * cut, stone_id, angle


def evaluate(before: Position, result: ActionResult, team: Team) -> float:
    """How good ``result`` is for ``team``: rulings first, then where the puck ended up."""
    if not result.accepted:
        return -math.inf
    score = 0.0
    restarted = False
    for decision in result.decisions:
        code = decision.code
        if code == "MATCH_ENDED":
            winner = decision.get("winner")
            score += 0.0 if winner is None else (5 * GOAL_SCORE if winner == team else -5 * GOAL_SCORE)
        elif code == "PRIVILEGE":
            sign = 1.0 if decision.get("team") == team else -1.0
            score += sign * PRIVILEGE_PER_MOVE * float(decision.get("moves", 2))
        elif code in WEIGHTS:
            sign = 1.0 if decision.get("team") == team else -1.0
            score += sign * WEIGHTS[code]
        restarted = restarted or code in ("GOAL", "RESTART")
    if not restarted:
        after = result.position
        end = before.attack_end(team)
        score += PROGRESS_PER_MM * (_goal_distance(before, end) - _goal_distance(after, end))
        if abs(after.puck.x + end * geometry.GOAL_LINE_X) < DANGER_MM:  # near our own goal line
            score -= DANGER
    return score


def _goal_distance(position: Position, end: int) -> float:
    """How far the puck is from the middle of the goal at ``end`` (behind the goal counts as far)."""
    return math.hypot(position.puck.x - end * geometry.GOAL_LINE_X, position.puck.y)


# --------------------------------------------------------------------------- the baseline and a match runner


def random_flick(position: Position, team: Team, stream: Stream) -> Flick | None:
    """A flick of a random legal stone in a random direction at a random speed (the baseline bot)."""
    stones = legal_stones(position, team)
    if not stones:
        return None
    settings = settings_of(position)
    stone = stream.choice(stones)
    angle = stream.uniform(0.0, math.tau)
    speed = stream.uniform(max(settings.flick_speed_min, 300.0), min(settings.flick_speed_max, 3000.0))
    return Flick(team, stone, round(speed * math.cos(angle), 1), round(speed * math.sin(angle), 1))


def bot_policy(budget: int = DEFAULT_BUDGET) -> Policy:
    """The simulating bot as a policy for ``play_match``."""
    return lambda position, team: choose_action(position, team, budget)


def random_policy(position: Position, team: Team) -> Action | None:
    """The random-flick baseline as a policy: it answers prompts with their default too."""
    answer = answer_prompt(position, team)
    if answer is not None or position.result is not None or position.to_move != team:
        return answer
    return random_flick(position, team, Stream(position.seed, "random", position.move_number, team))


@dataclass(frozen=True, slots=True)
class MatchReport:
    """The end of an in-process match: the final position, the actions played, and whether it stalled.

    ``stalled`` is true when neither coach could do anything acceptable (e.g. a penalty shot the
    engine cannot execute yet) and the clock could not move either, so the match cannot finish.
    """

    position: Position
    actions: int
    stalled: bool = False

    @property
    def winner(self) -> Team | None:
        """The winning team, None for a draw or a match that did not finish."""
        return self.position.result.winner if self.position.result is not None else None

    @property
    def leader(self) -> Team | None:
        """The winner of a finished match, else the team ahead on goals when play stopped (None if level)."""
        if self.position.result is not None:
            return self.winner
        return clock.leader(self.position)


def play_match(start: Position, home: Policy, away: Policy, max_actions: int = 2000) -> MatchReport:
    """Play ``start`` to the end with two policies, as a server would but without wall time.

    Prompts are answered first; a team that has nothing acceptable to play is timed out and its move
    clock is charged (as the server's move clock would), and breaks pass at once. A position that no
    action and no time can change ends the run as ``stalled``.
    """
    position = start
    policies = {"home": home, "away": away}
    idle = 0  # consecutive turns in which nothing was accepted
    for count in range(max_actions):
        if position.result is not None:
            return MatchReport(position, count)
        if position.part.kind == "break":
            position, _ = clock.elapse(position, position.part.clock_ms, settings_of(position))
            continue
        position, accepted = _one_turn(position, policies)
        idle = 0 if accepted else idle + 1
        if idle >= STALL_TURNS:
            return MatchReport(position, count + 1, stalled=True)
    return MatchReport(position, max_actions, stalled=position.result is None)


def _one_turn(position: Position, policies: dict[str, Policy]) -> tuple[Position, bool]:
    """One action (an awaited choice, else the mover's flick) and whether it was accepted; else a timeout."""
    for team in (position.to_move, other(position.to_move)):
        default = answer_prompt(position, team)
        if default is not None:
            result = apply_action(position, policies[team](position, team) or default)
            if not result.accepted:
                result = apply_action(position, default)
            return result.position, result.accepted
    team = position.to_move
    action = policies[team](position, team)
    played = apply_action(position, action) if action is not None else None
    if played is not None and played.accepted:
        return played.position, True
    passed = timeout(position, team)
    after = passed.position if passed.accepted else position
    settings = settings_of(after)
    return clock.elapse(after, settings.move_clock_ms or 1000, settings)[0], False
