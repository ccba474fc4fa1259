"""Reading a tournament file (a JSON value) into a ``Tournament``, with the contract's defaults and error codes.

Why here and strict: a tournament file comes from organisers' scripts, other programs and the network, so it
is hostile until checked. This module checks everything that can be checked from the file alone: JSON,
types, fields (an unknown field is refused, so a misspelt ``walkover_scor`` cannot silently fall back to a
default), player ids (``DUPLICATE_PLAYER``), references to players that do not exist (``UNKNOWN_PLAYER``),
the shape of each result (``BAD_RESULT``) and the Czech Cup's fields (a real ``date``, a known ``cup.tier``,
nobody born after the season, ``ended`` naming a stage of the file). What needs the course of the
tournament (stage fields, round order, suspensions, brackets, where it ended) is checked by ``course``.
Every message names the offending item.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any, TypeVar, cast

from shared.rulesets import SettingsError, make_settings
from shared.tournament.errors import ErrorCode, TournamentError
from shared.tournament.model import (
    CARD_KINDS,
    FORMAT,
    SEEDINGS,
    SEXES,
    SIDES,
    SYSTEMS,
    TIERS,
    Absence,
    Bye,
    Card,
    CardKind,
    Cup,
    Ended,
    Entry,
    Match,
    Player,
    Points,
    Round,
    Seeding,
    SettingValue,
    Sex,
    Side,
    Stage,
    System,
    Tier,
    Tournament,
    TournamentSettings,
    Withdrawal,
)

T = TypeVar("T")
PLAYER_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
_TOP = ("format", "name", "seed", "players", "stages", "results", "absent", "withdrawn", "discipline", "settings",
        "date", "cup", "ended")
_PLAYER = ("id", "name", "club", "rating", "category", "year_of_birth", "sex", "veteran")
DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def loads(data: bytes | str) -> Any:
    """The JSON value of ``data``; not JSON, a repeated key, NaN or Infinity is ``BAD_FORMAT``."""
    try:
        return json.loads(data, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except TournamentError:
        raise
    except (ValueError, RecursionError) as exc:
        raise TournamentError("BAD_FORMAT", f"not a JSON document: {exc}") from None


def parse(data: bytes | str) -> Tournament:
    """A tournament read from the bytes or text of a file."""
    return read_tournament(loads(data))


def read_tournament(value: Any) -> Tournament:
    """A tournament from a JSON value, with every default of TOURNAMENT.md; raises ``TournamentError``."""
    top = _object(value, "the file")
    _only(top, _TOP, "the file")
    if top.get("format", FORMAT) != FORMAT:
        raise TournamentError("BAD_FORMAT", f"format: expected {FORMAT!r}, not {_shown(top['format'])}")
    players = _players(top.get("players", []))
    known = {p.id for p in players}
    stages = _stages(top.get("stages", [{"system": "swiss"}]))
    count = len(stages)
    results = _results(top.get("results", []), known, count)
    absent = _entries(top.get("absent", []), "absent", lambda raw, at: _absence(raw, at, known, count))
    withdrawn = _entries(top.get("withdrawn", []), "withdrawn", lambda raw, at: _withdrawal(raw, at, known, count))
    discipline = _entries(top.get("discipline", []), "discipline", lambda raw, at: _card(raw, at, known, count))
    seen: set[str] = set()
    for w in withdrawn:
        if w.player in seen:
            raise TournamentError("BAD_FORMAT", f"withdrawn: {w.player} is withdrawn twice")
        seen.add(w.player)
    t = Tournament(
        format=FORMAT,
        name=_string(top.get("name", ""), "name"),
        seed=_integer(top.get("seed", 0), "seed"),
        players=players,
        stages=stages,
        results=results,
        absent=tuple(sorted(set(absent), key=lambda a: (a.stage, a.round, a.player))),
        withdrawn=tuple(sorted(withdrawn, key=lambda w: w.player)),
        discipline=tuple(sorted(discipline, key=lambda c: (c.stage, c.round))),
        settings=_settings(top.get("settings", {})),
        date=None if top.get("date") is None else _date(top["date"], "date"),
        cup=None if top.get("cup") is None else _cup(top["cup"]),
        ended=None if top.get("ended") is None else _ended(top["ended"], count),
    )
    _check_years_of_birth(t)
    return t


# ------------------------------------------------------------------------------------------------ one item


def read_added(t: Tournament, section: str, raw: Any) -> Any:
    """One item appended to ``section`` of a valid tournament's file (``players``, ``results``, ``absent``,
    ``withdrawn`` or ``discipline``), read as ``read_tournament`` reads it there - with the same checks, the same
    messages (its index is the next one of the section) and the same value.

    Why: an event adds one item to a file already read, so only that item needs reading (``shared.tournament.events``);
    what needs the whole file (the order of the section, a player withdrawn twice, the course) is the caller's.
    """
    known = set(t.player_ids())
    count = len(t.stages)
    if section == "players":
        index = len(t.players)
        player = _player(raw, f"players[{index}]")
        if player.id in known:
            raise TournamentError("DUPLICATE_PLAYER", f"players[{index}]: the id {player.id} is used by two players")
        season = t.season
        if season is not None and player.year_of_birth is not None and player.year_of_birth > season:
            raise TournamentError("BAD_FORMAT", f"players[{index}].year_of_birth ({player.id}): "
                                                f"{player.year_of_birth} is after the season {season}")
        return player
    readers: dict[str, tuple[int, Callable[[Any, str, set[str], int], Any]]] = {
        "results": (len(t.results), _round),
        "absent": (len(t.absent), _absence),
        "withdrawn": (len(t.withdrawn), _withdrawal),
        "discipline": (len(t.discipline), _card),
    }
    index, read = readers[section]
    return read(raw, f"{section}[{index}]", known, count)


def read_added_entry(t: Tournament, r: Round, position: int, raw: Any) -> Entry:
    """The entry at ``position`` (from 0) of listed round ``r``, read as ``read_tournament`` reads it there."""
    return _entry(raw, f"stage {r.stage} round {r.round}, match {position + 1}", set(t.player_ids()))


def read_ended(t: Tournament, raw: Any) -> Ended:
    """The file's ``ended``, read as ``read_tournament`` reads it."""
    return _ended(raw, len(t.stages))


# ------------------------------------------------------------------------------------------------ players


def _players(raw: Any) -> tuple[Player, ...]:
    """The entrants, ids checked and unique (``DUPLICATE_PLAYER``)."""
    out: list[Player] = []
    seen: set[str] = set()
    for index, item in enumerate(_array(raw, "players")):
        player = _player(item, f"players[{index}]")
        if player.id in seen:
            raise TournamentError("DUPLICATE_PLAYER", f"players[{index}]: the id {player.id} is used by two players")
        seen.add(player.id)
        out.append(player)
    return tuple(out)


def _player(raw: Any, where: str) -> Player:
    """One entrant: an id, a non-empty name, and the optional fields with their defaults."""
    obj = _object(raw, where)
    _only(obj, _PLAYER, where)
    if "id" not in obj:
        raise TournamentError("BAD_FORMAT", f"{where}: a player needs an id")
    pid = obj["id"]
    if not isinstance(pid, str) or not PLAYER_ID.fullmatch(pid):
        raise TournamentError("BAD_FORMAT", f"{where}.id: {_shown(pid)} is not 1-32 characters of A-Za-z0-9_-")
    if "name" not in obj:
        raise TournamentError("BAD_FORMAT", f"{where} ({pid}): a player needs a name")
    name = _string(obj["name"], f"{where}.name ({pid})")
    if not name.strip():
        raise TournamentError("BAD_FORMAT", f"{where}.name ({pid}): the name is empty")
    rating, born, sex = obj.get("rating"), obj.get("year_of_birth"), obj.get("sex")
    return Player(
        id=pid,
        name=name,
        club=_string(obj.get("club", ""), f"{where}.club ({pid})"),
        rating=None if rating is None else _integer(rating, f"{where}.rating ({pid})"),
        category=_string(obj.get("category", ""), f"{where}.category ({pid})"),
        year_of_birth=None if born is None else _integer(born, f"{where}.year_of_birth ({pid})", minimum=1),
        sex=None if sex is None else cast(Sex, _choice(sex, SEXES, f"{where}.sex ({pid})")),
        veteran=_boolean(obj.get("veteran", False), f"{where}.veteran ({pid})"),
    )


def _check_years_of_birth(t: Tournament) -> None:
    """A year of birth after the season is ``BAD_FORMAT`` (nobody plays before he is born)."""
    season = t.season
    if season is None:
        return
    for index, p in enumerate(t.players):
        if p.year_of_birth is not None and p.year_of_birth > season:
            raise TournamentError(
                "BAD_FORMAT", f"players[{index}].year_of_birth ({p.id}): {p.year_of_birth} is after the season {season}"
            )


# ------------------------------------------------------------------------------------------------ the Czech Cup


def _date(value: Any, where: str) -> str:
    """A day of the calendar as ``YYYY-MM-DD`` (year 0001-9999, a real month and day)."""
    text = _string(value, where)
    found = DATE.fullmatch(text)
    if found is None or not _real_day(int(found[1]), int(found[2]), int(found[3])):
        raise TournamentError("BAD_FORMAT", f"{where}: expected a day as YYYY-MM-DD, not {_shown(text)}")
    return text


def _real_day(year: int, month: int, day: int) -> bool:
    """True for a day of the Gregorian calendar (February 29 in leap years only)."""
    if year < 1 or not 1 <= month <= 12:
        return False
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    days = (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]
    return 1 <= day <= days


def _cup(raw: Any) -> Cup:
    """``{"tier", "season"}``: a tier of the Czech Cup (no default) and the season's year (default null)."""
    obj = _object(raw, "cup")
    _only(obj, ("tier", "season"), "cup")
    _require(obj, ("tier",), "cup")
    season = obj.get("season")
    return Cup(
        tier=cast(Tier, _choice(obj["tier"], TIERS, "cup.tier")),
        season=None if season is None else _integer(season, "cup.season", minimum=1),
    )


def _ended(raw: Any, stages: int) -> Ended:
    """``{"after_stage", "after_round", "reason"}``: where the organiser ended the tournament (stage default 0)."""
    obj = _object(raw, "ended")
    _only(obj, ("after_stage", "after_round", "reason"), "ended")
    _require(obj, ("after_round",), "ended")
    return Ended(
        after_stage=_stage_index(obj.get("after_stage", 0), "ended.after_stage", stages),
        after_round=_integer(obj["after_round"], "ended.after_round", minimum=0),
        reason=_string(obj.get("reason", ""), "ended.reason"),
    )


# ------------------------------------------------------------------------------------------------ stages


def _stages(raw: Any) -> tuple[Stage, ...]:
    """One or more stages, each with its system's defaults and a ruleset the engine knows."""
    items = _array(raw, "stages")
    if not items:
        raise TournamentError("BAD_FORMAT", "stages: a tournament needs one or more stages")
    return tuple(_stage(item, f"stages[{index}]") for index, item in enumerate(items))


def _stage(raw: Any, where: str) -> Stage:
    """One stage; ``ruleset`` defaults to ``ko`` for a knockout and to ``standard`` otherwise."""
    obj = _object(raw, where)
    fields = ("system", "rounds", "points", "ruleset", "final_ruleset", "settings", "advance", "third_place",
              "double", "seeding")
    _only(obj, fields, where)
    system = cast(System, _choice(obj.get("system", "swiss"), SYSTEMS, f"{where}.system"))
    ruleset = _string(obj.get("ruleset", "ko" if system == "knockout" else "standard"), f"{where}.ruleset")
    final_ruleset = _string(obj.get("final_ruleset", "final"), f"{where}.final_ruleset")
    overrides = _object(obj.get("settings", {}), f"{where}.settings")
    try:
        make_settings(final_ruleset, overrides)  # the final is played with the same overrides
        settings = make_settings(ruleset, overrides)
    except SettingsError as exc:
        raise TournamentError("BAD_FORMAT", f"{where}: {exc}") from None
    checked = {key: getattr(settings, key) for key in sorted(overrides)}
    return Stage(
        system=system,
        rounds=_optional_count(obj.get("rounds"), f"{where}.rounds"),
        points=_points(obj.get("points", {}), f"{where}.points"),
        ruleset=ruleset,
        final_ruleset=final_ruleset,
        settings=tuple((key, cast(SettingValue, value)) for key, value in checked.items()),
        advance=_optional_count(obj.get("advance"), f"{where}.advance"),
        third_place=_boolean(obj.get("third_place", False), f"{where}.third_place"),
        double=_boolean(obj.get("double", False), f"{where}.double"),
        seeding=cast(Seeding, _choice(obj.get("seeding", "random"), SEEDINGS, f"{where}.seeding")),
    )


def _points(raw: Any, where: str) -> Points:
    """``{"win", "draw", "loss"}``, each defaulting to 3/1/0."""
    obj = _object(raw, where)
    _only(obj, ("win", "draw", "loss"), where)
    return Points(
        win=_integer(obj.get("win", 3), f"{where}.win"),
        draw=_integer(obj.get("draw", 1), f"{where}.draw"),
        loss=_integer(obj.get("loss", 0), f"{where}.loss"),
    )


def _settings(raw: Any) -> TournamentSettings:
    """The tournament-wide settings, each defaulting to the contract's value."""
    obj = _object(raw, "settings")
    names = ("walkover_score", "bye_score", "goals_cap", "yellows_for_suspension", "two_yellows_in_a_match_is_red")
    _only(obj, names, "settings")
    return TournamentSettings(
        walkover_score=_pair_of_goals(obj.get("walkover_score", [5, 0]), "settings.walkover_score", "BAD_FORMAT"),
        bye_score=_pair_of_goals(obj.get("bye_score", [5, 0]), "settings.bye_score", "BAD_FORMAT"),
        goals_cap=_integer(obj.get("goals_cap", 5), "settings.goals_cap", minimum=0),
        yellows_for_suspension=_integer(obj.get("yellows_for_suspension", 3), "settings.yellows_for_suspension",
                                        minimum=1),
        two_yellows_in_a_match_is_red=_boolean(obj.get("two_yellows_in_a_match_is_red", False),
                                               "settings.two_yellows_in_a_match_is_red"),
    )


# ------------------------------------------------------------------------------------------------ results


def _results(raw: Any, known: set[str], stages: int) -> tuple[Round, ...]:
    """The rounds, sorted by (stage, round); a round listed twice is ``BAD_FORMAT``."""
    rounds = [_round(item, f"results[{index}]", known, stages) for index, item in enumerate(_array(raw, "results"))]
    seen: set[tuple[int, int]] = set()
    for r in rounds:
        if (r.stage, r.round) in seen:
            raise TournamentError("BAD_FORMAT", f"results: stage {r.stage} round {r.round} is listed twice")
        seen.add((r.stage, r.round))
    return tuple(sorted(rounds, key=lambda r: (r.stage, r.round)))


def _round(raw: Any, where: str, known: set[str], stages: int) -> Round:
    """One round: its stage (default 0), its number and its matches."""
    obj = _object(raw, where)
    _only(obj, ("stage", "round", "matches"), where)
    stage = _stage_index(obj.get("stage", 0), f"{where}.stage", stages)
    if "round" not in obj:
        raise TournamentError("BAD_FORMAT", f"{where} (stage {stage}): a results entry needs its round")
    number = _integer(obj["round"], f"{where}.round", minimum=1)
    label = f"stage {stage} round {number}"
    matches = tuple(
        _entry(item, f"{label}, match {index + 1}", known) for index, item in enumerate(_array(obj.get("matches", []),
                                                                                              f"{label}: matches"))
    )
    return Round(stage=stage, round=number, matches=matches)


def _entry(raw: Any, where: str, known: set[str]) -> Entry:
    """A match (with or without its result) or a bye."""
    obj = _object(raw, where)
    if "bye" in obj:
        _only(obj, ("bye",), where)
        return Bye(player=_known(obj["bye"], f"{where} (bye)", known))
    _only(obj, ("home", "away", "score", "walkover", "shootout"), where)
    for side in SIDES:
        if side not in obj:
            raise TournamentError("BAD_FORMAT", f"{where}: a match needs home and away (or is a bye)")
    home = _known(obj["home"], f"{where}.home", known)
    away = _known(obj["away"], f"{where}.away", known)
    where = f"{where} ({home} v {away})"
    score = None if obj.get("score") is None else _pair_of_goals(obj["score"], f"{where}: score", "BAD_RESULT")
    walkover = None if obj.get("walkover") is None else _side(obj["walkover"], f"{where}: walkover")
    shootout = None if obj.get("shootout") is None else _side(obj["shootout"], f"{where}: shootout")
    if score is not None and walkover is not None:
        raise TournamentError("BAD_RESULT", f"{where}: a match has a score or a walkover, not both")
    if shootout is not None and (score is None or score[0] != score[1]):
        raise TournamentError("BAD_RESULT", f"{where}: a shoot-out decides only a drawn score")
    return Match(home=home, away=away, score=score, walkover=walkover, shootout=shootout)


def _absence(raw: Any, where: str, known: set[str], stages: int) -> Absence:
    """``{"stage", "round", "player"}``."""
    obj = _object(raw, where)
    _only(obj, ("stage", "round", "player"), where)
    _require(obj, ("round", "player"), where)
    return Absence(
        stage=_stage_index(obj.get("stage", 0), f"{where}.stage", stages),
        round=_integer(obj["round"], f"{where}.round", minimum=1),
        player=_known(obj["player"], f"{where}.player", known),
    )


def _withdrawal(raw: Any, where: str, known: set[str], stages: int) -> Withdrawal:
    """``{"player", "after_round"}`` and, for a withdrawal during a later stage, its ``stage`` (default 0)."""
    obj = _object(raw, where)
    _only(obj, ("stage", "player", "after_round"), where)
    _require(obj, ("player", "after_round"), where)
    return Withdrawal(
        stage=_stage_index(obj.get("stage", 0), f"{where}.stage", stages),
        player=_known(obj["player"], f"{where}.player", known),
        after_round=_integer(obj["after_round"], f"{where}.after_round", minimum=0),
    )


def _card(raw: Any, where: str, known: set[str], stages: int) -> Card:
    """``{"stage", "round", "player", "card", "reason"}``."""
    obj = _object(raw, where)
    _only(obj, ("stage", "round", "player", "card", "reason"), where)
    _require(obj, ("round", "player", "card"), where)
    player = _known(obj["player"], f"{where}.player", known)
    return Card(
        stage=_stage_index(obj.get("stage", 0), f"{where}.stage", stages),
        round=_integer(obj["round"], f"{where}.round", minimum=1),
        player=player,
        card=cast(CardKind, _choice(obj["card"], CARD_KINDS, f"{where}.card ({player})")),
        reason=_string(obj.get("reason", ""), f"{where}.reason"),
    )


# ------------------------------------------------------------------------------------------------ values


def _entries(raw: Any, name: str, read: Callable[[Any, str], T]) -> list[T]:
    """Each item of the array ``name`` read by ``read``."""
    return [read(item, f"{name}[{index}]") for index, item in enumerate(_array(raw, name))]


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different (a repeated key would hide one of the values)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise TournamentError("BAD_FORMAT", f"not a valid file: the key {key!r} appears twice in one object")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    """NaN and Infinity are not JSON."""
    raise TournamentError("BAD_FORMAT", f"not a valid file: {name} is not a JSON number")


def _shown(value: Any) -> str:
    """A short text for a bad value in a message."""
    text = json.dumps(value, ensure_ascii=False) if _plain(value) else type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def _plain(value: Any) -> bool:
    """A JSON scalar (shown as it is in messages)."""
    return value is None or isinstance(value, bool | int | str) or (isinstance(value, float) and math.isfinite(value))


def _kind(value: Any) -> str:
    """The JSON kind of a value, for messages."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return "null"


def _object(value: Any, where: str) -> dict[str, Any]:
    """A JSON object."""
    if not isinstance(value, dict):
        raise TournamentError("BAD_FORMAT", f"{where}: expected an object, not {_kind(value)}")
    return value


def _array(value: Any, where: str) -> list[Any]:
    """A JSON array."""
    if not isinstance(value, list):
        raise TournamentError("BAD_FORMAT", f"{where}: expected an array, not {_kind(value)}")
    return value


def _only(obj: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    """Refuse a field the contract does not define (a typo would otherwise fall back to a default)."""
    for key in obj:
        if key not in allowed:
            raise TournamentError("BAD_FORMAT", f"{where}: unknown field {key!r}; expected {', '.join(allowed)}")


def _require(obj: dict[str, Any], names: tuple[str, ...], where: str) -> None:
    """Fields without a default."""
    for name in names:
        if name not in obj:
            raise TournamentError("BAD_FORMAT", f"{where}: the field {name!r} is missing")


def _string(value: Any, where: str) -> str:
    """A JSON string."""
    if not isinstance(value, str):
        raise TournamentError("BAD_FORMAT", f"{where}: expected a string, not {_kind(value)}")
    return value


def _boolean(value: Any, where: str) -> bool:
    """true or false."""
    if not isinstance(value, bool):
        raise TournamentError("BAD_FORMAT", f"{where}: expected true or false, not {_shown(value)}")
    return value


def _integer(value: Any, where: str, *, minimum: int | None = None, code: ErrorCode = "BAD_FORMAT") -> int:
    """A JSON integer (not a boolean, not a fraction), at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TournamentError(code, f"{where}: expected an integer, not {_shown(value)}")
    if minimum is not None and value < minimum:
        raise TournamentError(code, f"{where}: expected an integer of at least {minimum}, not {value}")
    return value


def _optional_count(value: Any, where: str) -> int | None:
    """null or a positive integer."""
    return None if value is None else _integer(value, where, minimum=1)


def _choice(value: Any, options: tuple[str, ...], where: str) -> str:
    """One of the contract's words."""
    if value not in options or not isinstance(value, str):
        raise TournamentError("BAD_FORMAT", f"{where}: expected one of {', '.join(options)}, not {_shown(value)}")
    return value


def _side(value: Any, where: str) -> Side:
    """"home" or "away" (a walkover's or a shoot-out's winner)."""
    if value not in SIDES or not isinstance(value, str):
        raise TournamentError("BAD_RESULT", f"{where}: expected \"home\" or \"away\", not {_shown(value)}")
    return cast(Side, value)


def _pair_of_goals(value: Any, where: str, code: ErrorCode) -> tuple[int, int]:
    """Two non-negative integers [home goals, away goals]."""
    if not isinstance(value, list) or len(value) != 2:
        raise TournamentError(code, f"{where}: expected two numbers of goals, not {_shown(value)}")
    first = _integer(value[0], where, minimum=0, code=code)
    second = _integer(value[1], where, minimum=0, code=code)
    return (first, second)


def _stage_index(value: Any, where: str, stages: int) -> int:
    """The index of one of the file's stages."""
    index = _integer(value, where, minimum=0)
    if index >= stages:
        raise TournamentError("BAD_FORMAT", f"{where}: there is no stage {index} (the file has {stages})")
    return index


def _known(value: Any, where: str, known: set[str]) -> str:
    """The id of one of the file's players (``UNKNOWN_PLAYER`` otherwise)."""
    if not isinstance(value, str):
        raise TournamentError("BAD_FORMAT", f"{where}: expected a player id, not {_kind(value)}")
    if value not in known:
        raise TournamentError("UNKNOWN_PLAYER", f"{where}: {_shown(value)} is not one of the players")
    return value
