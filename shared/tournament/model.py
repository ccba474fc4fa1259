"""The tournament file of TOURNAMENT.md as immutable typed values, every default of the contract filled in.

Why typed and frozen: the engine folds a tournament like a match (a value plus events), so the value must
never change under a reader's feet, and two files that mean the same thing must be equal values (the
reader normalises the order of absences, withdrawals and cards; ``writing`` then gives the same bytes).
The field names are the contract's; the defaults are the contract's (``stages`` defaults to one Swiss
stage, a knockout's ``ruleset`` to ``ko``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

FORMAT = "sprtec-tournament/1"
STANDINGS_FORMAT = "sprtec-standings/1"
PAIRING_FORMAT = "sprtec-pairing/1"
RANKING_FORMAT = "sprtec-ranking/1"
SEASON_FORMAT = "sprtec-season/1"

System = Literal["swiss", "round_robin", "knockout"]
SYSTEMS: tuple[System, ...] = ("swiss", "round_robin", "knockout")
Side = Literal["home", "away"]
SIDES: tuple[Side, ...] = ("home", "away")
Seeding = Literal["random", "rating"]
SEEDINGS: tuple[Seeding, ...] = ("random", "rating")
CardKind = Literal["yellow", "red", "disqualified"]
CARD_KINDS: tuple[CardKind, ...] = ("yellow", "red", "disqualified")
SettingValue = bool | int | float | str | tuple[int, ...]
Sex = Literal["m", "f"]
SEXES: tuple[Sex, ...] = ("m", "f")
Tier = Literal["expres", "cp12", "cp24", "cp36", "czech_open"]
TIERS: tuple[Tier, ...] = ("expres", "cp12", "cp24", "cp36", "czech_open")


@dataclass(frozen=True, kw_only=True, slots=True)
class Player:
    """An entrant: ``id`` (1-32 of ``[A-Za-z0-9_-]``, unique) is what files refer to, ``name`` what people see.

    ``year_of_birth``, ``sex`` and ``veteran`` give his Czech Cup category (``categories``) unless ``category``
    is one of its codes.
    """

    id: str
    name: str
    club: str = ""
    rating: int | None = None
    category: str = ""
    year_of_birth: int | None = None
    sex: Sex | None = None
    veteran: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class Points:
    """Points for a win, a draw and a loss (Czech Cup 3/1/0; 2/1/0 is common elsewhere)."""

    win: int = 3
    draw: int = 1
    loss: int = 0


@dataclass(frozen=True, kw_only=True, slots=True)
class Stage:
    """One stage of the tournament: its system, how its matches are played and how many go on to the next.

    ``settings`` are overrides of the ruleset's named settings (``shared.rulesets``), sorted by name; they
    apply to every match of the stage, a knockout's final included.
    """

    system: System = "swiss"
    rounds: int | None = None
    points: Points = field(default_factory=Points)
    ruleset: str = "standard"
    final_ruleset: str = "final"
    settings: tuple[tuple[str, SettingValue], ...] = ()
    advance: int | None = None
    third_place: bool = False
    double: bool = False
    seeding: Seeding = "random"


@dataclass(frozen=True, kw_only=True, slots=True)
class Match:
    """A pairing and, once known, its result: ``score`` [home, away], or ``walkover`` (the side that wins).

    A knockout match drawn after overtime adds ``shootout`` (the side that won it). With neither ``score``
    nor ``walkover`` the match is still being played.
    """

    home: str
    away: str
    score: tuple[int, int] | None = None
    walkover: Side | None = None
    shootout: Side | None = None

    @property
    def finished(self) -> bool:
        """True once the match has a result (a score or a walkover)."""
        return self.score is not None or self.walkover is not None

    @property
    def winner(self) -> str | None:
        """The winner's id; None for a draw or a match still being played."""
        side = self.winning_side
        return None if side is None else (self.home if side == "home" else self.away)

    @property
    def loser(self) -> str | None:
        """The loser's id; None for a draw or a match still being played."""
        side = self.winning_side
        return None if side is None else (self.away if side == "home" else self.home)

    @property
    def winning_side(self) -> Side | None:
        """The side that won: by walkover, by the score, or by the shoot-out of a drawn knockout match."""
        if self.walkover is not None:
            return self.walkover
        if self.score is None:
            return None
        if self.score[0] != self.score[1]:
            return "home" if self.score[0] > self.score[1] else "away"
        return self.shootout

    def players(self) -> tuple[str, str]:
        """Home and away."""
        return (self.home, self.away)


@dataclass(frozen=True, kw_only=True, slots=True)
class Bye:
    """A round without an opponent (Swiss: a win of ``bye_score``; round robin and knockout: nothing)."""

    player: str

    @property
    def finished(self) -> bool:
        """A bye is its own result."""
        return True

    def players(self) -> tuple[str]:
        """The player with the bye."""
        return (self.player,)


Entry = Match | Bye


@dataclass(frozen=True, kw_only=True, slots=True)
class Round:
    """The matches (and byes) of one round of one stage, in the order they were listed."""

    stage: int = 0
    round: int
    matches: tuple[Entry, ...] = ()

    @property
    def finished(self) -> bool:
        """A round is finished when all its matches have a result."""
        return all(entry.finished for entry in self.matches)


@dataclass(frozen=True, kw_only=True, slots=True)
class Absence:
    """A player who will not (or did not) come to one round of one stage."""

    stage: int = 0
    round: int
    player: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Withdrawal:
    """A player who left the tournament after ``after_round`` of ``stage`` (0: before its first round)."""

    stage: int = 0
    player: str
    after_round: int


@dataclass(frozen=True, kw_only=True, slots=True)
class Card:
    """A card given by the organiser for a coach's conduct in his match of one round (the futsal sheets)."""

    stage: int = 0
    round: int
    player: str
    card: CardKind
    reason: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class TournamentSettings:
    """The tournament-wide numbers: what walkovers and byes count, the goals cap, the discipline ledger."""

    walkover_score: tuple[int, int] = (5, 0)
    bye_score: tuple[int, int] = (5, 0)
    goals_cap: int = 5
    yellows_for_suspension: int = 3
    two_yellows_in_a_match_is_red: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class Cup:
    """The Czech Cup tournament this file is: its ``tier`` (which table of points) and ``season`` (a year)."""

    tier: Tier
    season: int | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Ended:
    """The organiser ended the tournament early, after round ``after_round`` of stage ``after_stage``."""

    after_stage: int = 0
    after_round: int
    reason: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class Tournament:
    """A whole tournament file: entrants, stages, results and the ledgers of absence and discipline.

    ``date`` is the tournament's day (``YYYY-MM-DD``), ``cup`` its place in the Czech Cup, ``ended`` where the
    organiser ended it early (then it is complete).

    ``results`` are sorted by (stage, round); ``absent`` by (stage, round, player); ``withdrawn`` by
    player; ``discipline`` by (stage, round), keeping the order of the cards within a round.
    """

    format: str = FORMAT
    name: str = ""
    seed: int = 0
    players: tuple[Player, ...] = ()
    stages: tuple[Stage, ...] = (Stage(),)
    results: tuple[Round, ...] = ()
    absent: tuple[Absence, ...] = ()
    withdrawn: tuple[Withdrawal, ...] = ()
    discipline: tuple[Card, ...] = ()
    settings: TournamentSettings = field(default_factory=TournamentSettings)
    date: str | None = None
    cup: Cup | None = None
    ended: Ended | None = None

    @property
    def season(self) -> int | None:
        """The Czech Cup season: ``cup.season``, else the year of ``date``, else None."""
        if self.cup is not None and self.cup.season is not None:
            return self.cup.season
        return None if self.date is None else int(self.date[:4])

    def player_ids(self) -> tuple[str, ...]:
        """Every entrant's id in the order of ``players``."""
        return tuple(p.id for p in self.players)

    def player(self, player_id: str) -> Player:
        """The entrant with this id (KeyError when there is none)."""
        for p in self.players:
            if p.id == player_id:
                return p
        raise KeyError(player_id)
