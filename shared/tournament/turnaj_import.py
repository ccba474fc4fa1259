"""A tournament saved by the organisers' own program (turnaj-sprtec) as a ``sprtec-tournament/1`` file.

Why an importer: Czech Cup organisers run their tournaments in that desktop program (github
dominikfiala/turnaj-sprtec, ``src/app.js``), and one who moves to sprtec - after the event, or mid-way - must
not type the tournament in again. The program saves ``JSON.stringify(this.$data)``: ``config`` (name, venue,
host, the Czech Cup tier as an index into ``config.categories``, rounds, date, season, points for a win and
a draw, the goals cap ``goalsForSortMax`` (0: none), the goals of a bye ``byeGoalsFor``, the club list),
``players`` (surname, name, club index, sex ``male``/``female``/``veteran``, year of birth, the rounds each
takes part in) and ``rounds`` (matches of player indices with ``home_score``/``away_score`` - ``''`` while
not entered - and a ``referee``; the round's ``bye`` and its two recorders of referees, ``refereeCheck``;
-1 where nobody). Every Swiss rule sprtec and the program share is then the same file: 3/1/0 or the
program's points, its rounds, its bye goals and goals cap, the Czech Cup tier and season, each player's year
of birth, sex and veteran mark; a player left out of a round (not paired, or not taking part in a round not
yet paired) is ``absent`` from it, so his round counts as a draw for his opponents' Buchholz as the program's
"compensation" does. The referees go beside the file (``board_referees``): the contract's file has no place
for them. Where the two programs still differ is written in docs/TOURNAMENT-NOTES.md ("Importing").

Pure: bytes in, values out, no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from shared.tournament.board_referees import BoardReferee, Recorder, Referees
from shared.tournament.categories import UNKNOWN, Category, category_of
from shared.tournament.course import follow
from shared.tournament.cup import TABLES
from shared.tournament.errors import TournamentError
from shared.tournament.model import Tier, Tournament
from shared.tournament.reading import loads, read_tournament

# The program's tiers by the title it shows (config.categories[i].title), in its order.
TIER_TITLES: Mapping[str, Tier] = {"Expres": "expres", "ČP12": "cp12", "ČP24": "cp24", "ČP36": "cp36",
                                   "Czech Open": "czech_open"}
PROGRAM_TIERS: tuple[str, ...] = tuple(TIER_TITLES)  # dataInitial's config.categories, for a save without them
NOT_IN_THE_CUP = -1
NO_CAP = 99  # the program's goalsForSortMax 0 (no cap): no board's score reaches this
DEFAULTS = {"numberOfRounds": 5, "pointsWin": 3, "pointsDraw": 1, "goalsForSortMax": 5, "byeGoalsFor": 5}
SEXES = {"male": "m", "female": "f"}
ID_LIMIT = 32
_FOLDED = str.maketrans({"ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ø": "o", "Ø": "O", "ß": "ss", "æ": "ae",
                         "Æ": "AE", "œ": "oe", "Œ": "OE", "ı": "i"})  # letters NFKD leaves whole


@dataclass(frozen=True, kw_only=True, slots=True)
class Imported:
    """The imported tournament, its referees, and what of the save the tournament file has no field for."""

    tournament: Tournament
    referees: Referees
    ids: tuple[str, ...]  # the id given to the program's player i
    venue: str = ""
    host: str = ""
    contests: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True, slots=True)
class _Person:
    """One of the program's players, read."""

    surname: str
    name: str
    club: str
    sex: str
    year_of_birth: int | None
    rounds: frozenset[int] | None  # None: every round


def import_save(data: bytes | str) -> Imported:
    """The tournament of a save of the organisers' program; raises ``TournamentError`` naming what is wrong."""
    save = _object(loads(data), "the save")
    config = _object(save.get("config", {}), "config")
    clubs = [c if isinstance(c, str) else "" for c in _array(config.get("clubs", []), "config.clubs")]
    people = [_person(raw, i, clubs) for i, raw in enumerate(_array(save.get("players", []), "players"))]
    ids = _ids(people)
    rounds_total = _count(config, "numberOfRounds", 1)
    raw_rounds = _array(save.get("rounds", []), "rounds")
    if len(raw_rounds) > rounds_total:
        raise TournamentError("ROUND_ORDER", f"rounds: {len(raw_rounds)} rounds are paired but numberOfRounds is "
                                             f"{rounds_total}")
    date = _date(config.get("date"))
    tier = _tier(config)
    season = _season(config.get("season"), date)
    results, boards, recorders = [], [], []
    for index, raw in enumerate(raw_rounds):
        matches, round_boards, round_recorders = _round(raw, index, ids)
        results.append({"stage": 0, "round": index + 1, "matches": matches})
        boards += round_boards
        recorders += round_recorders
    cap = _count(config, "goalsForSortMax", 0)
    value = {
        "format": "sprtec-tournament/1",
        "name": _text(config.get("name", ""), "config.name"),
        "seed": 0 if date is None else int(date.replace("-", "")),
        "players": [_player(p, ids[i], i, season) for i, p in enumerate(people)],
        "stages": [{"system": "swiss", "rounds": rounds_total,
                    "points": {"win": _count(config, "pointsWin", 0), "draw": _count(config, "pointsDraw", 0),
                               "loss": 0}}],
        "results": results,
        "absent": _absences(people, ids, raw_rounds, rounds_total),
        "settings": {"bye_score": [_count(config, "byeGoalsFor", 0), 0], "goals_cap": cap or NO_CAP},
        "date": date,
        "cup": None if tier is None else {"tier": tier, "season": season},
    }
    t = read_tournament(value)
    follow(t)
    return Imported(
        tournament=_with_categories(t, people, season),
        referees=Referees(boards=tuple(boards), recorders=tuple(recorders)),
        ids=ids,
        venue=_text(config.get("venue", ""), "config.venue"),
        host=_text(config.get("host", ""), "config.host"),
        contests=tuple(c for c in _array(config.get("contests", []), "config.contests") if isinstance(c, str)),
    )


def program_category(sex: str, year_of_birth: int | None, season: int | None) -> Category:
    """The category the program shows (its ``playerCategories``): veteran; under 12; woman; under 15; under 18;
    a known year of birth; else unknown."""
    if sex == "veteran":
        return "V"
    age = None if year_of_birth is None or season is None else season - year_of_birth
    if age is not None and age < 12:
        return "P"
    if sex == "female":
        return "L"
    if age is None:
        return UNKNOWN
    return "Z" if age < 15 else "J" if age < 18 else "M"


def display_name(surname: str, name: str) -> str:
    """How the program shows a player: ``NOVÁK Jan``."""
    return f"{surname.upper()} {name}".strip()


# ------------------------------------------------------------------------------------------------ players


def _person(raw: Any, index: int, clubs: Sequence[str]) -> _Person:
    """One player of the save."""
    where = f"players[{index}]"
    obj = _object(raw, where)
    surname = _text(obj.get("surname", ""), f"{where}.surname").strip()
    name = _text(obj.get("name", ""), f"{where}.name").strip()
    if not surname and not name:
        raise TournamentError("BAD_FORMAT", f"{where}: the player has neither a surname nor a name")
    club = obj.get("club", -1)
    if isinstance(club, str):
        club_name = club
    elif isinstance(club, int) and not isinstance(club, bool) and -1 <= club < len(clubs):
        club_name = "" if club == -1 else clubs[club]
    else:
        raise TournamentError("BAD_FORMAT", f"{where} ({display_name(surname, name)}): club {club!r} is not one of "
                                            f"config.clubs")
    rounds = obj.get("rounds", True)
    taking_part = None if rounds is True else frozenset(_whole(r, f"{where}.rounds") for r in _array(rounds, where))
    return _Person(surname=surname, name=name, club=club_name, sex=obj.get("sex") or "male",
                   year_of_birth=_year(obj.get("yearOfBirth", ""), f"{where}.yearOfBirth"), rounds=taking_part)


def _ids(people: Sequence[_Person]) -> tuple[str, ...]:
    """An id for every player from his surname and name (``novak-jan``), the same in every save of a season;
    two alike get the year of birth, then a number."""
    bases = [_slug(f"{p.surname} {p.name}") or f"p{i + 1}" for i, p in enumerate(people)]
    ids: list[str] = []
    for index, (person, base) in enumerate(zip(people, bases, strict=True)):
        candidate = base[:ID_LIMIT]
        if bases.count(base) > 1 and person.year_of_birth is not None:
            candidate = f"{base[:ID_LIMIT - 5]}-{person.year_of_birth}"
        number = 2
        while candidate in ids or (candidate != base[:ID_LIMIT] and candidate in bases[index + 1:]):
            candidate = f"{base[:ID_LIMIT - 1 - len(str(number))]}-{number}"
            number += 1
        ids.append(candidate)
    return tuple(ids)


def _slug(text: str) -> str:
    """Lower-case ASCII letters and digits joined by ``-``: ``Łukasz Żółć`` -> ``lukasz-zolc``."""
    plain = unicodedata.normalize("NFKD", text.translate(_FOLDED))
    ascii_only = "".join(c for c in plain if not unicodedata.combining(c)).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_only.lower()).strip("-")


def _player(person: _Person, player_id: str, index: int, season: int | None) -> dict[str, Any]:
    """The file's entry of one player."""
    if person.year_of_birth is not None and season is not None and person.year_of_birth > season:
        raise TournamentError("BAD_FORMAT", f"players[{index}] ({display_name(person.surname, person.name)}): year "
                                            f"of birth {person.year_of_birth} is after the season {season}")
    return {
        "id": player_id,
        "name": f"{person.name} {person.surname}".strip(),
        "club": person.club,
        "year_of_birth": person.year_of_birth,
        "sex": SEXES.get(person.sex),
        "veteran": person.sex == "veteran",
    }


def _with_categories(t: Tournament, people: Sequence[_Person], season: int | None) -> Tournament:
    """Where the contract's derivation (season: the cup's, else the date's year) would give another category than
    the program showed (its season is ``config.season`` even outside the cup), the program's code is written in
    ``category``, so the imported tournament shows the categories the program showed."""
    players = []
    for player, person in zip(t.players, people, strict=True):
        shown = program_category(person.sex, person.year_of_birth, season)
        if shown != UNKNOWN and category_of(player, t.season) != shown:
            player = replace(player, category=shown)
        players.append(player)
    return replace(t, players=tuple(players))


# ------------------------------------------------------------------------------------------------ rounds


def _round(raw: Any, index: int, ids: Sequence[str]) -> tuple[list[dict[str, Any]], list[BoardReferee],
                                                              list[Recorder]]:
    """One paired round: its matches in board order then its bye, its boards' referees, its recorders."""
    where = f"rounds[{index}]"
    obj = _object(raw, where)
    matches: list[dict[str, Any]] = []
    boards: list[BoardReferee] = []
    for table, item in enumerate(_array(obj.get("matches", []), f"{where}.matches"), start=1):
        at = f"{where}.matches[{table - 1}]"
        match = _object(item, at)
        home, away = _index(match.get("home"), f"{at}.home", ids), _index(match.get("away"), f"{at}.away", ids)
        entry: dict[str, Any] = {"home": ids[home], "away": ids[away]}
        goals = (_goals(match.get("home_score", ""), f"{at}.home_score"),
                 _goals(match.get("away_score", ""), f"{at}.away_score"))
        if goals[0] is not None and goals[1] is not None:
            entry["score"] = [goals[0], goals[1]]
        matches.append(entry)
        referee = _optional_index(match.get("referee", -1), f"{at}.referee", ids)
        if referee is not None:
            boards.append(BoardReferee(stage=0, round=index + 1, table=table, referee=ids[referee]))
    bye = _optional_index(obj.get("bye", -1), f"{where}.bye", ids)
    if bye is not None:
        matches.append({"bye": ids[bye]})
    recorders = [Recorder(stage=0, round=index + 1, player=ids[i])
                 for i in (_optional_index(r, f"{where}.refereeCheck", ids)
                           for r in _array(obj.get("refereeCheck", []), f"{where}.refereeCheck"))
                 if i is not None]
    return matches, boards, recorders


def _absences(people: Sequence[_Person], ids: Sequence[str], raw_rounds: Sequence[Any],
              total: int) -> list[dict[str, Any]]:
    """Who is absent from which round: of a paired round, everyone neither in a match nor the bye; of a round not
    yet paired, everyone not taking part in it (the program's per-player rounds)."""
    absent: list[dict[str, Any]] = []
    for index in range(total):
        if index < len(raw_rounds):
            raw = raw_rounds[index]
            there = {m.get(side) for m in raw.get("matches", []) for side in ("home", "away")} | {raw.get("bye")}
            missing = [i for i in range(len(people)) if i not in there]
        else:
            missing = [i for i, p in enumerate(people) if p.rounds is not None and index not in p.rounds]
        absent += [{"stage": 0, "round": index + 1, "player": ids[i]} for i in missing]
    return absent


# ------------------------------------------------------------------------------------------------ config


def _tier(config: Mapping[str, Any]) -> Tier | None:
    """The Czech Cup tier of ``config.category`` (-1: not in the cup), its points checked against the contract's."""
    chosen = config.get("category", NOT_IN_THE_CUP)
    if chosen in (NOT_IN_THE_CUP, "", None):
        return None
    tiers = config.get("categories")
    titles = [c.get("title") if isinstance(c, Mapping) else None for c in tiers] if isinstance(tiers, list) \
        else list(PROGRAM_TIERS)
    if isinstance(chosen, bool) or not isinstance(chosen, int) or not 0 <= chosen < len(titles):
        raise TournamentError("BAD_FORMAT", f"config.category: {chosen!r} is not one of the program's tiers")
    title = titles[chosen]
    tier = TIER_TITLES.get(title) if isinstance(title, str) else None
    if tier is None:
        raise TournamentError("BAD_FORMAT", f"config.category: the tier {title!r} is not one of the Czech Cup's "
                                            f"({', '.join(TIER_TITLES)})")
    if isinstance(tiers, list):
        points = tiers[chosen].get("points")
        if points is not None and tuple(points) != TABLES[tier]:
            raise TournamentError("BAD_FORMAT", f"config.categories[{chosen}]: the points of {title} differ from the "
                                                f"Czech Cup's table of {tier} (docs/TOURNAMENT.md)")
    return tier


def _season(raw: Any, date: str | None) -> int | None:
    """``config.season``, else the year of the date (a save from before the program kept a season)."""
    if raw in (None, ""):
        return None if date is None else int(date[:4])
    return _whole(raw, "config.season", minimum=1)


def _date(raw: Any) -> str | None:
    """``config.date`` as the contract writes a day (checked again by the reader)."""
    if raw in (None, ""):
        return None
    if not isinstance(raw, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", raw):
        raise TournamentError("BAD_FORMAT", f"config.date: {raw!r} is not a day written YYYY-MM-DD")
    return raw


def _count(config: Mapping[str, Any], name: str, minimum: int) -> int:
    """A number of the program's settings (its default when the save has none)."""
    raw = config.get(name, DEFAULTS[name])
    return _whole(DEFAULTS[name] if raw == "" else raw, f"config.{name}", minimum=minimum)


# ------------------------------------------------------------------------------------------------ values


def _object(value: Any, where: str) -> Mapping[str, Any]:
    """A JSON object."""
    if not isinstance(value, Mapping):
        raise TournamentError("BAD_FORMAT", f"{where}: expected an object, as the program saves it")
    return value


def _array(value: Any, where: str) -> list[Any]:
    """A JSON array."""
    if not isinstance(value, list):
        raise TournamentError("BAD_FORMAT", f"{where}: expected a list, as the program saves it")
    return value


def _text(value: Any, where: str) -> str:
    """A string."""
    if not isinstance(value, str):
        raise TournamentError("BAD_FORMAT", f"{where}: expected text")
    return value


def _whole(value: Any, where: str, *, minimum: int = 0) -> int:
    """A whole number (the program's number inputs may keep one as text)."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise TournamentError("BAD_FORMAT", f"{where}: {value!r} is not a whole number of at least {minimum}")
    return value


def _year(value: Any, where: str) -> int | None:
    """A year of birth, or None where the program has ``''``."""
    return None if value in ("", None) else _whole(value, where, minimum=1)


def _goals(value: Any, where: str) -> int | None:
    """A board's goals, or None while not entered."""
    if value in ("", None):
        return None
    try:
        return _whole(value, where)
    except TournamentError:
        raise TournamentError("BAD_RESULT", f"{where}: {value!r} is not a number of goals") from None


def _index(value: Any, where: str, ids: Sequence[str]) -> int:
    """A player's index in the save."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(ids):
        raise TournamentError("UNKNOWN_PLAYER", f"{where}: {value!r} is not one of the save's {len(ids)} players")
    return value


def _optional_index(value: Any, where: str, ids: Sequence[str]) -> int | None:
    """A player's index, or None for the program's -1 (nobody)."""
    return None if value in (-1, None, "") else _index(value, where, ids)
