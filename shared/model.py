"""Teams, stones, the position between two moves, and the actions a coach can send.

Why: everything else - physics, referee, notation, protocol, client - passes these values around,
so they are small immutable dataclasses with no behaviour beyond a few lookups (the python-chess
``Board``/``Move`` split: state and actions as plain values, rules elsewhere). A position is the
whole state of a match between two moves (SCENARIOS.md "Position"); the JSON form lives in
``shared.notation``.

Teams are ``"home"`` and ``"away"``. Stone ids are ``h1``..``h7`` and ``a1``..``a7``; by convention
``h1``/``a1`` are the goalies and ``h7``/``a7`` the reserves (II.1), but a stone's ``role`` field is
what counts. Coordinates are millimetres (see ``shared.geometry``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypeGuard, TypeVar

Team = Literal["home", "away"]
Role = Literal["goalie", "field"]
TEAMS: tuple[Team, Team] = ("home", "away")
STONE_IDS: dict[Team, tuple[str, ...]] = {
    "home": tuple(f"h{i}" for i in range(1, 8)),
    "away": tuple(f"a{i}" for i in range(1, 8)),
}
ALL_STONE_IDS: tuple[str, ...] = STONE_IDS["home"] + STONE_IDS["away"]
PUCK_ID = "puck"


def other(team: Team) -> Team:
    """The opponent of ``team``."""
    return "away" if team == "home" else "home"


def is_team(value: object) -> TypeGuard[Team]:
    """True when ``value`` is a team name: narrows a string read from a decision, a log or the wire to ``Team``."""
    return value in TEAMS


def team_of_id(stone_id: str) -> Team:
    """The team a stone id belongs to (``h…`` home, ``a…`` away)."""
    return "home" if stone_id.startswith("h") else "away"


@dataclass(frozen=True, slots=True)
class Stone:
    """A stone on the board. ``flipped`` marks a stone lying upside down (VI.4, 2.5-D)."""

    id: str
    team: Team
    role: Role
    x: float
    y: float
    flipped: bool = False

    def at(self, x: float, y: float) -> Stone:
        """The same stone moved to (x, y) (built directly: ``dataclasses.replace`` costs ~3 us, and every move moves
        every stone)."""
        return Stone(self.id, self.team, self.role, x, y, self.flipped)


@dataclass(frozen=True, slots=True)
class Puck:
    """The puck's centre."""

    x: float = 0.0
    y: float = 0.0


@dataclass(frozen=True, slots=True)
class Part:
    """A part of the match (III): ``kind`` is period, break, overtime or shootout; ``clock_ms`` the time left."""

    kind: Literal["period", "break", "overtime", "shootout"] = "period"
    number: int = 1
    clock_ms: int = 360_000


@dataclass(frozen=True, slots=True)
class Privilege:
    """IX, D12: ``team`` plays ``remaining`` more of its ``total`` consecutive moves.

    ``snapshot`` holds the opponent's stones that were in a penalty position when the privilege
    began (XV.1, IX.3-IX.5); only they can earn a penalty shot during the privilege.
    """

    team: Team
    remaining: int
    total: int
    snapshot: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a match (III, XVI): the winner (None for a draw) and why it ended."""

    winner: Team | None
    reason: str


@dataclass(frozen=True, slots=True)
class ExclusionChoice:
    """VIII.1a, XII.7 (A47): the engine excluded ``stone`` of ``team`` by the documented default because the
    fouler was the goalie; until the next move the coach may name another of ``options`` instead.

    ``spot`` is where ``stone`` lay when it was taken off (None when a restart followed): a stone swapped
    back in is laid there, or on the chosen stone's place when ``spot`` is None.
    """

    team: Team
    stone: str
    options: tuple[str, ...]
    spot: tuple[float, float] | None = None


# --------------------------------------------------------------------------- referee state that lasts across moves
# Values that survive between moves while a penalty shot, the activity count, a power play or the shoot-out
# runs. They are Position fields (below), so they are frozen, JSON-friendly (``shared.notation`` writes them
# from their type hints) and carry no behaviour: the rules that change them live in ``shared.referee``.


@dataclass(frozen=True, slots=True, kw_only=True)
class PenaltyShotState:
    """XV.10-XV.14: a penalty shot of ``team`` (the shooting team) against ``against``.

    ``shooter`` is the shooting team's stone, ``goalie`` the defending goalie. ``moves`` counts the
    shooter's moves made so far (XV.12: at most ``penalty_moves``). ``after_siren`` is XV.10: the shot
    is completed even though the part's clock has run out, so the clock must let its moves begin.
    ``in_shootout`` marks a shot of the deciding shoot-out (XV.16), whose 15 s limit (XV.18) is kept in
    ``shot_ms``: the time since the first flick of this shot. ``goalie_set`` and ``shooter_set`` record
    that the coaches made (or timed out on) their A33 choices, so each is asked for once. ``lineups`` are
    the ids each team (home, away) had on the board when the shot was awarded: the restart after the shot
    rebuilds the teams from them (XV.14), the defending goalie replacing a power-play stone (A32).
    """

    team: Team
    against: Team
    shooter: str
    goalie: str
    moves: int = 0
    after_siren: bool = False
    in_shootout: bool = False
    shot_ms: int = 0
    goalie_set: bool = False
    shooter_set: bool = False
    lineups: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())


@dataclass(frozen=True, slots=True, kw_only=True)
class ActivityCount:
    """XI: team ``counting`` (C) counts the moves of ``obliged`` (O), who must clear the puck.

    ``limit`` is frozen when counting starts (XI.1-XI.2, A20). ``count`` is the number of O moves made
    since counting started, ``confirmed`` how many of them C has counted aloud (XI.3: C must count each
    one before its own next action; in the auto-count variant every move is counted for it).
    ``pushed`` holds C stones O pushed out of C's retreat zone (XI.8), which C's next move must bring
    back. ``last_stone`` is the stone of O's last counted move (XI.9), ``last_goalie`` whether that move
    was made with the goalie or was a goalie hand reset (A25).
    """

    counting: Team
    obliged: Team
    limit: int
    count: int = 0
    confirmed: int = 0
    pushed: tuple[str, ...] = ()
    last_stone: str | None = None
    last_goalie: bool = False


@dataclass(frozen=True, slots=True)
class PowerPlayState:
    """XIII: ``team`` plays without its goalie ``goalie``; ``substitute`` is the field stone that replaced it.

    ``candidates`` are the team's stones touching its crease at the rest of its last own move (XIII.4,
    A49); ``waited`` turns true once the opponent has moved since then, so one of them may be swapped
    back for the goalie at the start of the team's next turn.
    """

    team: Team
    goalie: str
    substitute: str
    candidates: tuple[str, ...] = ()
    waited: bool = False


@dataclass(frozen=True, slots=True)
class ShootoutState:
    """XV.16: the deciding shoot-out. ``starter`` won the lot; ``shots`` lists (team, scored) in order.

    ``series`` is the size of the first series (``shootout_series``: 3, or 5 in the final, III.4).
    """

    starter: Team
    series: int
    shots: tuple[tuple[Team, bool], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Position:
    """The whole state of a match between moves (SCENARIOS.md). Fields beyond the documented ones are
    referee state that the engine adds with defaults; ``shared.notation`` writes every field."""

    ruleset: str = "standard"
    settings: tuple[tuple[str, object], ...] = ()
    seed: int = 0
    move_number: int = 0
    home_end: int = -1
    to_move: Team = "home"
    score: tuple[int, int] = (0, 0)
    part: Part = field(default_factory=Part)
    restart: bool = False
    privilege: Privilege | None = None
    stones: tuple[Stone, ...] = ()
    puck: Puck = field(default_factory=Puck)
    excluded: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    deferred: tuple[int, int] = (0, 0)
    # ---------------------------------------------------------------- referee state beyond SCENARIOS.md
    first_starter: Team | None = None  # V.2: the team that started the first period (drawn by lot)
    result: Result | None = None  # set when the match is over
    exclusion_choice: ExclusionChoice | None = None  # VIII.1a, XII.7: a default exclusion the coach may change
    penalty_shot: Team | None = None  # XV.1: a penalty shot awarded to this team, to be taken (XV.11-XV.14)
    advantage: Team | None = None  # IX.3: this privileged team earned a penalty shot and plays the advantage
    siren: bool = False  # D14, XV.10: the part's siren sounded but a penalty shot owed in it is still to be completed
    penalty: PenaltyShotState | None = None  # XV.10-XV.14: the penalty shot being set up or taken (or a shoot-out shot)
    activity: ActivityCount | None = None  # XI: the activity count running (the count shown to both coaches)
    activity_offer: ActivityCount | None = None  # XI.3: the count begun by counting the last move now (XI.1 held)
    power_play: tuple[PowerPlayState, ...] = ()  # XIII: the teams playing without their goalie, home first
    shootout: ShootoutState | None = None  # XV.16-XV.18: the deciding shoot-out under way
    last_mover: Team | None = None  # A48: the team whose move came to rest last (None after a restart or timeout)

    # ---------------------------------------------------------------- lookups
    def stone(self, stone_id: str) -> Stone | None:
        """The stone with this id if it is on the board."""
        for s in self.stones:
            if s.id == stone_id:
                return s
        return None

    def team_stones(self, team: Team) -> tuple[Stone, ...]:
        """The stones of ``team`` on the board, in position order."""
        return tuple(s for s in self.stones if s.team == team)

    def own_end(self, team: Team) -> int:
        """The end ``team`` defends: -1 for the goal at x < 0, +1 for the goal at x > 0 (§1.1)."""
        return self.home_end if team == "home" else -self.home_end

    def attack_end(self, team: Team) -> int:
        """The end ``team`` attacks: the goal of the opponent (§1.1)."""
        return -self.own_end(team)

    def score_of(self, team: Team) -> int:
        """Goals scored by ``team``."""
        return self.score[0 if team == "home" else 1]

    def excluded_of(self, team: Team) -> tuple[str, ...]:
        """``team``'s excluded stones, oldest first (X.2)."""
        return self.excluded[0 if team == "home" else 1]

    def deferred_of(self, team: Team) -> int:
        """``team``'s deferred penalties (X.2-X.3)."""
        return self.deferred[0 if team == "home" else 1]

    def power_play_of(self, team: Team) -> PowerPlayState | None:
        """``team``'s power play (XIII), if it plays without its goalie."""
        for state in self.power_play:
            if state.team == team:
                return state
        return None

    def setting_overrides(self) -> dict[str, object]:
        """The position's setting overrides as a dict (stored as sorted pairs to stay hashable)."""
        return dict(self.settings)


T = TypeVar("T")


def by_team(values: tuple[T, T], team: Team) -> T:
    """Pick the home or away element of a (home, away) pair."""
    return values[0 if team == "home" else 1]


def with_team(values: tuple[T, T], team: Team, value: T) -> tuple[T, T]:
    """A copy of a (home, away) pair with ``team``'s element replaced."""
    return (value, values[1]) if team == "home" else (values[0], value)


# --------------------------------------------------------------------------- actions
# One dataclass per action of SCENARIOS.md; every action names the team that sends it.


@dataclass(frozen=True, slots=True)
class Flick:
    """D3: set ``stone`` moving at (vx, vy) mm/s through its centre."""

    team: Team
    stone: str
    vx: float
    vy: float
    action: Literal["flick"] = "flick"


@dataclass(frozen=True, slots=True)
class GoalieReset:
    """XII.2: put the own goalie back on its basic spot by hand; counts as a move."""

    team: Team
    action: Literal["goalie_reset"] = "goalie_reset"


@dataclass(frozen=True, slots=True)
class PowerPlaySwapOut:
    """XIII.2: replace the goalie, out of its crease, by the reserve at the same place."""

    team: Team
    stone: str
    action: Literal["pp_swap_out"] = "pp_swap_out"


@dataclass(frozen=True, slots=True)
class PowerPlaySwapIn:
    """XIII.4: replace a stone that waited touching the crease by the goalie."""

    team: Team
    stone: str
    action: Literal["pp_swap_in"] = "pp_swap_in"


@dataclass(frozen=True, slots=True)
class Count:
    """XI.3: the counting team counts the opponent's last move aloud."""

    team: Team
    action: Literal["count"] = "count"


@dataclass(frozen=True, slots=True)
class TakePenalty:
    """IX.3: the privileged team stops playing the advantage and takes the penalty shot now."""

    team: Team
    action: Literal["take_penalty"] = "take_penalty"


@dataclass(frozen=True, slots=True)
class ChooseExclusion:
    """VIII.1a, XII.7, XI.9: the coach names the field stone excluded instead of the goalie."""

    team: Team
    stone: str
    action: Literal["choose_exclusion"] = "choose_exclusion"


@dataclass(frozen=True, slots=True)
class Placement:
    """One stone's spot in a setup."""

    id: str
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Setup:
    """IV, XV.11: the coach places his stones (defenders, or the penalty-shot goalie/shooter)."""

    team: Team
    stones: tuple[Placement, ...]
    action: Literal["setup"] = "setup"


Action = Flick | GoalieReset | PowerPlaySwapOut | PowerPlaySwapIn | Count | TakePenalty | ChooseExclusion | Setup
ACTION_TYPES: dict[str, type] = {
    "flick": Flick,
    "goalie_reset": GoalieReset,
    "pp_swap_out": PowerPlaySwapOut,
    "pp_swap_in": PowerPlaySwapIn,
    "count": Count,
    "take_penalty": TakePenalty,
    "choose_exclusion": ChooseExclusion,
    "setup": Setup,
}


# --------------------------------------------------------------------------- clock and house-rule events
# What happens to a match without a coach acting: running time passes, a move clock or a choice runs out, a
# coach forfeits. They are NOT actions (not in ``Action``/``ACTION_TYPES``): the protocol's ``Act`` decodes
# through ``ACTION_TYPES`` only, so no client can send one. The server makes them from its clocks and its
# connections and logs them; a scenario may list them beside the actions (docs/SCENARIOS-EXTENSIONS.md), so
# a logged match exports to a scenario that replays exactly (``shared.match.apply_event``).


@dataclass(frozen=True, slots=True)
class Elapse:
    """A34 (product decision 5): ``ms`` milliseconds of running clock pass with no move (aiming, setups, breaks)."""

    ms: int
    action: Literal["elapse"] = "elapse"


@dataclass(frozen=True, slots=True)
class Timeout:
    """A35 house rule: ``team``'s move clock ran out (the turn passes), or with ``kind`` its choice of that prompt
    kind ran out (the prompt's documented default applies)."""

    team: Team
    kind: str | None = None
    action: Literal["timeout"] = "timeout"


ForfeitReason = Literal["FORFEIT_DISCONNECTED", "RESIGNED"]


@dataclass(frozen=True, slots=True)
class Forfeit:
    """Product decision 5 (house rule): ``team`` loses the match - it stayed away past the disconnect grace
    (``FORFEIT_DISCONNECTED``) or its coach left the running match (``RESIGNED``)."""

    team: Team
    reason: ForfeitReason = "FORFEIT_DISCONNECTED"
    action: Literal["forfeit"] = "forfeit"


ClockEvent = Elapse | Timeout | Forfeit
SCENARIO_EVENT_TYPES: dict[str, type] = {
    "elapse": Elapse,
    "timeout": Timeout,
    "forfeit": Forfeit,
}
