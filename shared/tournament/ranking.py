"""The final ranking of a tournament across its stages: prize-giving, categories and Czech Cup points.

Why its own order: the standings rank one stage, but a tournament of a Swiss and a knockout has one ranking
of everybody (TOURNAMENT.md "The final ranking"): first the players of the last stage that has a finished
round, in that stage's standings; then the players of the stage before who did not go on, in its
standings; and so on back to stage 0. A block keeps its stage's order, and ``shared`` is worked out again
within it. In a knockout, players who went out in the same round (and players still in, while it runs) are
ordered by their place in the previous stage's final standings, by bracket seed when those places are equal
or the knockout is the first stage, and do not share. Ranked is every player with a played round (over the
board, a walkover, a Swiss or knockout bye; a round-robin bye is not one); withdrawn and disqualified
players keep their places, marked ``out``. Each ranked player carries his category (``categories``), his
place in it, and his Czech Cup points when the file has a ``cup`` (``cup``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shared.tournament.categories import UNKNOWN, Category, category_of
from shared.tournament.course import follow
from shared.tournament.cup import cup_points
from shared.tournament.model import RANKING_FORMAT, Tier, Tournament
from shared.tournament.progress import Course, StageCourse
from shared.tournament.standings import stage_standings
from shared.tournament.table import Row, Standings


@dataclass(frozen=True, kw_only=True, slots=True)
class Ranked:
    """One ranked player, fields in the contract's order."""

    rank: int
    shared: bool
    player: str
    name: str
    club: str
    category: Category
    category_rank: int
    category_winner: bool
    stage: int
    cup_points: int | None
    out: bool


@dataclass(frozen=True, kw_only=True, slots=True)
class CupField:
    """The tournament's Czech Cup tier and the size of its ranked field (``n`` of the points formula)."""

    tier: Tier
    field: int


@dataclass(frozen=True, kw_only=True, slots=True)
class Ranking:
    """The ranking of a tournament: provisional while ``complete`` is false."""

    complete: bool
    season: int | None
    cup: CupField | None
    rows: tuple[Ranked, ...]

    def places(self) -> tuple[str, ...]:
        """The ranked players from the top down."""
        return tuple(r.player for r in self.rows)


def rank(t: Tournament) -> Ranking:
    """The ranking of a tournament (checking the file first); raises ``TournamentError``."""
    return rank_course(follow(t))


def rank_course(course: Course) -> Ranking:
    """The ranking of an already followed tournament."""
    t = course.tournament
    tables = [stage_standings(t, sc, sc.finished) for sc in course.stages]
    last_played = _last_played_stage(course, tables)
    placed: list[tuple[int, bool, str]] = []
    for tier in _tiers(course, tables, last_played):
        first = len(placed) + 1
        placed += [(first, len(tier) > 1, player) for player in tier]
    people = {p.id: p for p in t.players}
    categories = {player: category_of(people[player], t.season) for _, _, player in placed}
    in_category = _category_ranks(placed, categories)
    out = _out_players(course)
    field = len(placed)
    rows = tuple(
        Ranked(
            rank=place,
            shared=shared,
            player=player,
            name=people[player].name,
            club=people[player].club,
            category=categories[player],
            category_rank=in_category[player],
            category_winner=in_category[player] == 1 and categories[player] != UNKNOWN,
            stage=last_played[player],
            cup_points=None if t.cup is None else cup_points(t.cup.tier, place, field),
            out=player in out,
        )
        for place, shared, player in placed
    )
    cup = None if t.cup is None else CupField(tier=t.cup.tier, field=field)
    return Ranking(complete=course.complete, season=t.season, cup=cup, rows=rows)


def _tiers(course: Course, tables: Sequence[Standings], ranked: Mapping[str, int]) -> list[list[str]]:
    """The ranked players in groups that share a place, best first: the last stage with a finished round, then
    each stage before it, back to stage 0, with the players who did not go on from it."""
    last = max((sc.index for sc in course.stages if sc.finished >= 1), default=None)
    tiers: list[list[str]] = []
    if last is None:
        return tiers
    for index in range(last, -1, -1):
        sc = course.stages[index]
        going_on = set(course.stages[index + 1].field) if index < last else set()
        rows = [r for r in tables[index].rows if r.player in ranked and r.player not in going_on]
        before = tables[index - 1] if index > 0 else None
        tiers += _knockout_tiers(sc, rows, before) if sc.stage.system == "knockout" else _shared_tiers(rows)
    return tiers


def to_json(ranking: Ranking) -> dict[str, Any]:
    """The ``sprtec-ranking/1`` object."""
    return {
        "format": RANKING_FORMAT,
        "complete": ranking.complete,
        "season": ranking.season,
        "cup": None if ranking.cup is None else {"tier": ranking.cup.tier, "field": ranking.cup.field},
        "ranking": [
            {
                "rank": r.rank,
                "shared": r.shared,
                "player": r.player,
                "name": r.name,
                "club": r.club,
                "category": r.category,
                "category_rank": r.category_rank,
                "category_winner": r.category_winner,
                "stage": r.stage,
                "cup_points": r.cup_points,
                "out": r.out,
            }
            for r in ranking.rows
        ],
    }


def _last_played_stage(course: Course, tables: Sequence[Standings]) -> dict[str, int]:
    """Each ranked player and the last stage in which he has a played round (a round-robin bye is none)."""
    last: dict[str, int] = {}
    for sc, table in zip(course.stages, tables, strict=True):
        for row in table.rows:
            if row.played > 0 or (sc.stage.system == "knockout" and row.byes > 0):
                last[row.player] = sc.index
    return last


def _shared_tiers(rows: Sequence[Row]) -> list[list[str]]:
    """A Swiss or round-robin block: the stage's order, players of one shared rank sharing it again."""
    tiers: list[list[str]] = []
    previous: int | None = None
    for row in rows:
        if tiers and row.rank == previous:
            tiers[-1].append(row.player)
        else:
            tiers.append([row.player])
        previous = row.rank
    return tiers


def _knockout_tiers(sc: StageCourse, rows: Sequence[Row], before: Standings | None) -> list[list[str]]:
    """A knockout block: the stage's order, players out in the same round (or still in) one below the other by
    their place in the previous stage's final standings, then by bracket seed."""
    seed = {player: index for index, player in enumerate(sc.field)}
    earlier: Mapping[str, int] = {} if before is None else {r.player: r.rank for r in before.rows}
    tiers: list[list[str]] = []
    for group in _shared_tiers(rows):
        ordered = sorted(group, key=lambda p: (earlier.get(p, 0), seed[p]))
        tiers += [[player] for player in ordered]
    return tiers


def _out_players(course: Course) -> set[str]:
    """Players who withdrew (any entry of ``withdrawn``) or were disqualified by the ranking's moment."""
    ledger = course.current.ledgers[-1]
    out = {w.player for w in course.tournament.withdrawn}
    out |= {player for player, record in ledger.records.items() if record.disqualified_at is not None}
    return out


def _category_ranks(placed: Sequence[tuple[int, bool, str]], categories: Mapping[str, Category]) -> dict[str, int]:
    """1 + the number of ranked players of the same category placed strictly above (a shared rank shares it)."""
    above: dict[Category, int] = {}
    out: dict[str, int] = {}
    group: list[str] = []
    for index, (place, _, player) in enumerate(placed):
        group.append(player)
        out[player] = 1 + above.get(categories[player], 0)
        if index + 1 == len(placed) or placed[index + 1][0] != place:  # the end of a rank: it is above the next
            for member in group:
                above[categories[member]] = above.get(categories[member], 0) + 1
            group = []
    return out
