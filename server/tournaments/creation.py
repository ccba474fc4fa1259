"""A new tournament from a CreateTournament request: who may ask, and the contract's file or a one-stage file made
from fields.

Why checked here, before anything is stored: a tournament file comes from the network, so it is read by the
engine (``shared.tournament.reading``: hostile until checked, the contract's codes) and followed (``course``);
then every stage's matches must be playable on this server - its ruleset and settings are what a room accepts
(``Lobby.validate``: ``BAD_SETTINGS`` naming the setting), and a knockout match must end with a winner, so its
ruleset needs a shoot-out (``ko`` and ``final`` have one) or the result could not be recorded. Its names are shown
to everyone, so they follow the display names' rule (``server.tournaments.entry_names``).

Who may create (``Creators``, the server's ``--tournaments``): anyone (``open``), players who chose a name
(``named``, the default: a guest made by reconnecting cannot), or only the players the owner lists by name
(``organisers``). A connection from the server's own machine (an exempt address,
``server.connections.address_budgets``) may always: the owner runs ``sprtec organise`` and ``sprtec tournament run``
there.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal, cast, get_args

from server.rooms.lobby import Lobby
from server.rooms.room import RoomError
from server.tournaments import entry_names
from shared.names import name_key
from shared.protocol import MAX_ENTRIES, CreateTournament
from shared.rulesets import coerce_setting, make_settings
from shared.tournament.course import follow
from shared.tournament.errors import TournamentError
from shared.tournament.model import Stage, Tournament
from shared.tournament.reading import loads, read_tournament
from shared.tournament.writing import to_json

Who = Literal["open", "named", "organisers"]
WHO: tuple[str, ...] = get_args(Who)
GUEST_PREFIX = "guest-"  # the server's own names (server.players): a player who chose none


@dataclass(frozen=True, slots=True, kw_only=True)
class Creators:
    """Who may create tournaments on this server: ``who`` and, for ``organisers``, the name keys of those listed."""

    who: Who = "named"
    organisers: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def of(cls, who: str, organisers: tuple[str, ...] = ()) -> Creators:
        """From the server's options (``organisers`` as names, compared whatever their case)."""
        if who not in WHO:
            raise ValueError(f"tournaments: one of {', '.join(WHO)}, not {who!r}")
        return cls(who=cast(Who, who), organisers=frozenset(name_key(name) for name in organisers))

    def refusal(self, name: str, *, exempt: bool) -> str | None:
        """Why the player called ``name`` may not create a tournament here, or None when he may."""
        key = name_key(name)
        if exempt or self.who == "open":
            return None
        if self.who == "named":
            return None if not key.startswith(GUEST_PREFIX) else \
                "on this server only a player with a name creates tournaments: choose one (Rename) first"
        return None if key in self.organisers else \
            "on this server only the organisers its owner named create tournaments"


def tournament_of(request: CreateTournament, *, seed: int) -> Tournament:
    """The tournament the request describes (``seed`` when it names none); raises ``TournamentError`` or
    ``RoomError`` (``BAD_SETTINGS``, ``BAD_NAME``, ``NAME_TAKEN``)."""
    if request.file is not None:
        if any(v is not None for v in (request.name, request.system, request.rounds, request.ruleset)) or \
                request.settings:
            raise TournamentError("BAD_FORMAT", "give either a tournament file or its fields, not both")
        value = loads(request.file)
    else:
        stage: dict[str, Any] = {"system": request.system or "swiss", "rounds": request.rounds,
                                 "settings": request.settings}
        if request.ruleset is not None:
            stage["ruleset"] = request.ruleset
        value = {"name": request.name or "", "seed": seed, "stages": [stage]}
    check_stage_settings(value)
    t = read_tournament(value)
    if request.file is not None and request.seed is not None:
        t = replace(t, seed=request.seed)
    t = entry_names.checked(t)
    check_playable(t)
    return t


def check_stage_settings(value: Any) -> None:
    """``BAD_SETTINGS`` for a stage whose ruleset or settings a room would refuse, before the engine reads the file:
    the engine calls them ``BAD_FORMAT`` (TOURNAMENT.md's code for a file), the server ``BAD_SETTINGS`` as for a room.
    A stage whose shape is wrong (not an object, settings not an object, a ruleset not a string) is left to the
    engine, which says what is wrong with it."""
    stages = value.get("stages") if isinstance(value, dict) else None
    for index, stage in enumerate(stages if isinstance(stages, list) else ()):
        if not isinstance(stage, dict) or not isinstance(stage.get("settings", {}), dict):
            continue
        knockout = stage.get("system", "swiss") == "knockout"
        rulesets = (stage.get("ruleset", "ko" if knockout else "standard"), stage.get("final_ruleset", "final"))
        for ruleset in rulesets:  # the engine checks the settings with the final's ruleset in every system
            if isinstance(ruleset, str):
                try:
                    Lobby.validate(ruleset, stage.get("settings", {}))
                except RoomError as exc:
                    raise RoomError("BAD_SETTINGS", f"stage {index} ({ruleset}): {exc.message}") from None


def check_playable(t: Tournament) -> None:
    """Every stage's matches can be played in this server's rooms, and the field is within the protocol's bound."""
    if len(t.players) > MAX_ENTRIES:
        raise TournamentError("BAD_FORMAT", f"players: {len(t.players)}, at most {MAX_ENTRIES} on this server")
    for index, stage in enumerate(t.stages):
        for ruleset in _rulesets(stage):
            try:
                overrides = Lobby.validate(ruleset, stage_overrides(stage))
            except RoomError as exc:
                raise RoomError("BAD_SETTINGS", f"stage {index} ({ruleset}): {exc.message}") from None
            settings = make_settings(ruleset, {name: coerce_setting(name, v) for name, v in overrides.items()})
            if stage.system == "knockout" and not settings.shootout:
                raise RoomError("BAD_SETTINGS", f"stage {index}: a knockout match needs a winner, but {ruleset} with "
                                                "these settings has no shoot-out")
    follow(read_tournament(to_json(t)))


def stage_overrides(stage: Stage) -> dict[str, Any]:
    """A stage's settings as a room's overrides (lists for tuples, as CreateRoom carries them)."""
    return {name: list(value) if isinstance(value, tuple) else value for name, value in stage.settings}


def _rulesets(stage: Stage) -> tuple[str, ...]:
    """The rulesets a stage's matches are played under (a knockout's final too)."""
    return (stage.ruleset, stage.final_ruleset) if stage.system == "knockout" else (stage.ruleset,)
