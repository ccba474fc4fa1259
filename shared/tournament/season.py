"""A Czech Cup season: the tournaments of one season, each player's best results summed and ranked.

Why here, pure: the association publishes the season's ranking from the tournaments' files, and the server
will show it beside a tournament, so it is a function of the files alone (TOURNAMENT.md "Seasons"). A
player is the same person in every file by his ``id``; his ``name``, ``club`` and ``category`` come from his
latest tournament (by ``date``, a file without one before every dated one, the later file between equal
dates). His ``points`` are his best ``best`` Czech Cup results (all without ``best``; between equal
results the earlier file counts); the order is points, then the counted results from the highest down (a
missing one counts 0), then the total of all his results, then a shared rank. Every file is checked on its
own first (its error names it, ``"file": i``); then each must be complete, have a ``cup`` and belong to the
season of file 0, or the first that does not is ``SEASON_FILE``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shared.tournament.categories import CODES, UNKNOWN, Category
from shared.tournament.errors import TournamentError
from shared.tournament.model import SEASON_FORMAT, Tier, Tournament
from shared.tournament.ranking import Ranked, Ranking, rank
from shared.tournament.reading import parse


@dataclass(frozen=True, kw_only=True, slots=True)
class RankedFile:
    """One file of the season, read and ranked."""

    tournament: Tournament
    ranking: Ranking


@dataclass(frozen=True, kw_only=True, slots=True)
class SeasonTournament:
    """A tournament of the season as the output lists it (``index``: its place among the files given)."""

    index: int
    name: str
    date: str | None
    tier: Tier
    field: int


@dataclass(frozen=True, kw_only=True, slots=True)
class SeasonResult:
    """A player's result in one tournament, and whether it is one of the results summed."""

    tournament: int
    rank: int
    cup_points: int
    counted: bool


@dataclass(frozen=True, kw_only=True, slots=True)
class SeasonRow:
    """One player's line of the season's ranking."""

    rank: int
    shared: bool
    player: str
    name: str
    club: str
    category: Category
    points: int
    played: int
    results: tuple[SeasonResult, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class CategoryRow:
    """One player's line of a category's ranking."""

    rank: int
    shared: bool
    player: str
    points: int


@dataclass(frozen=True, kw_only=True, slots=True)
class Season:
    """The season's ranking, and one ranking per category that has players (in ``categories.CODES`` order)."""

    season: int
    best: int | None
    tournaments: tuple[SeasonTournament, ...]
    rows: tuple[SeasonRow, ...]
    categories: tuple[tuple[Category, tuple[CategoryRow, ...]], ...]


def read_file(data: bytes, index: int) -> RankedFile:
    """File ``index`` of a season read from its bytes and ranked; its error names it (``"file": index``)."""
    try:
        t = parse(data)
        return RankedFile(tournament=t, ranking=rank(t))
    except TournamentError as exc:
        raise exc.in_file(index) from None


def standings(files: Sequence[Tournament], best: int | None = None) -> Season:
    """The season of these tournaments (each ranked in order first, its error naming it)."""
    ranked: list[RankedFile] = []
    for index, t in enumerate(files):
        try:
            ranked.append(RankedFile(tournament=t, ranking=rank(t)))
        except TournamentError as exc:
            raise exc.in_file(index) from None
    return season_of(ranked, best)


def season_of(files: Sequence[RankedFile], best: int | None = None) -> Season:
    """The season of files already read and ranked: checked to be one season, then summed and ranked."""
    if best is not None and best < 1:
        raise ValueError(f"best must be 1 or more, not {best}")
    season = _check_one_season(files)
    results: dict[str, list[SeasonResult]] = {}
    latest: dict[str, tuple[tuple[bool, str, int], Ranked]] = {}
    for index, f in enumerate(files):
        when = (f.tournament.date is not None, f.tournament.date or "", index)
        for row in f.ranking.rows:
            assert row.cup_points is not None  # every file has a cup (checked above)
            results.setdefault(row.player, []).append(
                SeasonResult(tournament=index, rank=row.rank, cup_points=row.cup_points, counted=False))
            if row.player not in latest or when > latest[row.player][0]:
                latest[row.player] = (when, row)
    counted = {player: _counted(listed, best) for player, listed in results.items()}
    width = max((sum(1 for r in listed if r.counted) for listed in counted.values()), default=0)
    keys = {player: _key(listed, width) for player, listed in counted.items()}
    order = sorted(keys, key=lambda p: (_descending(keys[p]), p))
    rows = tuple(
        SeasonRow(rank=place, shared=shared, player=player, name=latest[player][1].name,
                  club=latest[player][1].club, category=latest[player][1].category, points=keys[player][0],
                  played=len(counted[player]), results=tuple(counted[player]))
        for place, shared, player in _places(order, keys)
    )
    categories = tuple(
        (code, tuple(CategoryRow(rank=place, shared=shared, player=player, points=keys[player][0])
                     for place, shared, player in _places([r.player for r in rows if r.category == code], keys)))
        for code in CODES
        if code != UNKNOWN and any(r.category == code for r in rows)
    )
    listed = tuple(_listed(index, f) for index, f in enumerate(files))
    return Season(season=season, best=best, tournaments=listed, rows=rows, categories=categories)


def to_json(season: Season) -> dict[str, Any]:
    """The ``sprtec-season/1`` object."""
    return {
        "format": SEASON_FORMAT,
        "season": season.season,
        "best": season.best,
        "tournaments": [{"index": t.index, "name": t.name, "date": t.date, "tier": t.tier, "field": t.field}
                        for t in season.tournaments],
        "standings": [
            {"rank": r.rank, "shared": r.shared, "player": r.player, "name": r.name, "club": r.club,
             "category": r.category, "points": r.points, "played": r.played,
             "results": [{"tournament": x.tournament, "rank": x.rank, "cup_points": x.cup_points,
                          "counted": x.counted} for x in r.results]}
            for r in season.rows
        ],
        "categories": {
            code: [{"rank": r.rank, "shared": r.shared, "player": r.player, "points": r.points} for r in rows]
            for code, rows in season.categories
        },
    }


def _check_one_season(files: Sequence[RankedFile]) -> int:
    """The season of file 0, once every file is complete, has a cup and is of that season (``SEASON_FILE``)."""
    if not files:
        raise ValueError("a season needs one or more files")
    season: int | None = None
    for index, f in enumerate(files):
        t = f.tournament
        label = f"file {index} ({t.name})" if t.name else f"file {index}"
        if not f.ranking.complete:
            raise TournamentError("SEASON_FILE", f"{label} is not complete: a season counts finished tournaments",
                                  file=index)
        if t.cup is None:
            raise TournamentError("SEASON_FILE", f"{label} has no cup: it is not a Czech Cup tournament", file=index)
        if t.season is None:
            raise TournamentError("SEASON_FILE", f"{label} has neither cup.season nor a date: its season is unknown",
                                  file=index)
        if season is None:
            season = t.season
        elif t.season != season:
            raise TournamentError("SEASON_FILE", f"{label} is of the season {t.season}, not {season} (the season of "
                                                 f"file 0)", file=index)
    assert season is not None
    return season


def _counted(listed: Sequence[SeasonResult], best: int | None) -> list[SeasonResult]:
    """The results in file order, the ``best`` highest marked counted (the earlier file between equal ones)."""
    chosen = sorted(range(len(listed)), key=lambda i: (-listed[i].cup_points, listed[i].tournament))
    summed = set(chosen if best is None else chosen[:best])
    return [SeasonResult(tournament=r.tournament, rank=r.rank, cup_points=r.cup_points, counted=i in summed)
            for i, r in enumerate(listed)]


def _key(listed: Sequence[SeasonResult], width: int) -> tuple[int, tuple[int, ...], int]:
    """What the order compares: the points, the counted results from the highest down (padded with 0 to
    ``width``), the total of all results."""
    summed = sorted((r.cup_points for r in listed if r.counted), reverse=True)
    return (sum(summed), tuple(summed) + (0,) * (width - len(summed)), sum(r.cup_points for r in listed))


def _descending(key: tuple[int, tuple[int, ...], int]) -> tuple[int, tuple[int, ...], int]:
    """A sort key that puts the larger key first."""
    points, highest, total = key
    return (-points, tuple(-x for x in highest), -total)


def _places(order: Sequence[str], keys: Mapping[str, tuple[int, tuple[int, ...], int]]) -> list[tuple[int, bool, str]]:
    """(rank, shared, player) for players in order: equal keys share the first place of their group."""
    groups: list[list[str]] = []
    for player in order:
        if groups and keys[groups[-1][-1]] == keys[player]:
            groups[-1].append(player)
        else:
            groups.append([player])
    out: list[tuple[int, bool, str]] = []
    for group in groups:
        first = len(out) + 1
        out += [(first, len(group) > 1, player) for player in group]
    return out


def _listed(index: int, f: RankedFile) -> SeasonTournament:
    """A file as ``tournaments`` lists it."""
    assert f.tournament.cup is not None and f.ranking.cup is not None
    return SeasonTournament(index=index, name=f.tournament.name, date=f.tournament.date, tier=f.tournament.cup.tier,
                            field=f.ranking.cup.field)
