"""The desk's form for a new tournament: its choices (system and a knockout after it, ruleset, points, rounds,
period, walkover score, cards, no-show time, automatic start) and the tournament file and request they make (pure:
no arcade, no sockets).

Why a file and not CreateTournament's few fields: points, a second stage and the card settings exist only in the
tournament file (docs/TOURNAMENT.md), so the form writes one without players - they are registered at the desk -
and the no-show time and the automatic start go beside it in the request.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from client.common.i18n import N_, _, ngettext
from client.common.ruleset_names import ruleset_name
from shared.protocol import CreateTournament

FILE_FORMAT = "sprtec-tournament/1"


@dataclass(frozen=True, slots=True)
class Choice:
    """A form's choice: its options (the values sent) and how each is shown."""

    options: tuple[object, ...]
    show: Callable[[object], str]


def minutes_text(value: object) -> str:
    """An option in minutes, or "off"."""
    return _("off") if value is None else _("{n} min").format(n=value)


def same_text(value: object) -> str:
    """An option shown as itself."""
    return str(value)


SYSTEMS = {"swiss": N_("Swiss"), "round_robin": N_("round robin"), "knockout": N_("knockout")}
CREATE_CHOICES: dict[str, Choice] = {
    "system": Choice(tuple(SYSTEMS), lambda v: _(SYSTEMS[str(v)])),
    "rounds": Choice((None, 3, 4, 5, 6, 7, 8, 9, 11), lambda v: _("by the field") if v is None else str(v)),
    "ruleset": Choice(("standard", "quick", "strict"), lambda value: ruleset_name(str(value))),
    "points": Choice(((3, 1, 0), (2, 1, 0)), lambda v: "/".join(str(p) for p in v)),  # type: ignore[attr-defined]
    "playoff": Choice((None, 4, 8), lambda v: _("none") if v is None else _("knockout of the best {n}").format(n=v)),
    "period": Choice((None, 2, 3, 5, 6), lambda v: _("the ruleset's") if v is None else _("{n} min").format(n=v)),
    "walkover": Choice(((5, 0), (3, 0), (10, 0)), lambda v: ":".join(str(g) for g in v)),  # type: ignore[attr-defined]
    "yellows": Choice((3, 2, 4, 5), same_text),
    "two_yellows": Choice((False, True), lambda v: _("red card") if v else _("two yellows")),
    "no_show": Choice((5, 2, 3, 10, 15), minutes_text),
    "auto": Choice((None, 1, 2, 5, 10), minutes_text),
}
CREATE_LABELS = {
    "system": N_("System: {value}"), "rounds": N_("Rounds: {value}"), "ruleset": N_("Ruleset: {value}"),
    "points": N_("Points win/draw/loss: {value}"), "playoff": N_("Then: {value}"),
    "period": N_("Period: {value}"), "walkover": N_("Walkover score: {value}"),
    "yellows": N_("Yellow cards for a suspension: {value}"),
    "two_yellows": N_("Two yellows in one match: {value}"),
    "no_show": N_("Walkover when a coach is not at his table after: {value}"),
    "auto": N_("Start the next round by itself after: {value}"),
}
CREATE_HINTS = {
    "system": N_("Swiss: paired by points; round robin: everyone meets everyone; knockout: the loser goes out"),
    "rounds": N_("Swiss rounds; by the field: as TOURNAMENT.md gives for the number of players"),
    "ruleset": N_("The rules every match is played by (a knockout plays ko, its final the final ruleset)"),
    "playoff": N_("A knockout stage for the best of the first stage's standings"),
    "walkover": N_("The score a walkover counts as for the winner"),
    "yellows": N_("Yellows accumulated in the tournament that suspend a coach for his next match"),
    "no_show": N_("A table opens when the round starts; a coach missing after this long loses by walkover"),
}


def summary(form: Mapping[str, Any]) -> str:
    """The form's choices in a few words."""
    words = [_(SYSTEMS[form["system"]])]
    if form["system"] == "swiss" and form["rounds"] is not None:
        words.append(ngettext("{n} round", "{n} rounds", form["rounds"]).format(n=form["rounds"]))
    if form["playoff"] is not None and form["system"] != "knockout":
        words.append(CREATE_CHOICES["playoff"].show(form["playoff"]))
    words.append(ruleset_name(form["ruleset"]) if form["system"] != "knockout" else
                 f"{ruleset_name('ko')}/{ruleset_name('final')}")
    words.append(_("points {p}").format(p=CREATE_CHOICES["points"].show(form["points"])))
    return ", ".join(words)


def tournament_file(form: Mapping[str, Any], seed: int) -> dict[str, Any]:
    """The form as a tournament file without players; a knockout plays ko and its final the final ruleset (they
    have a shoot-out: a drawn knockout match needs a winner)."""
    settings = {"period_ms": form["period"] * 60_000} if form["period"] is not None else {}
    win, draw, loss = form["points"]
    knockout: dict[str, Any] = {"system": "knockout", "ruleset": "ko", "final_ruleset": "final", "settings": settings}
    if form["system"] == "knockout":
        stages: list[dict[str, Any]] = [knockout]
    else:
        first: dict[str, Any] = {"system": form["system"], "points": {"win": win, "draw": draw, "loss": loss},
                                 "ruleset": form["ruleset"], "settings": settings}
        if form["system"] == "swiss":
            first["rounds"] = form["rounds"]
        stages = [first]
        if form["playoff"] is not None:
            first["advance"] = form["playoff"]
            stages.append(knockout)
    return {"format": FILE_FORMAT, "name": form["name"].strip(), "seed": seed, "players": [], "stages": stages,
            "settings": {"walkover_score": list(form["walkover"]), "yellows_for_suspension": form["yellows"],
                         "two_yellows_in_a_match_is_red": form["two_yellows"]}}


def create_request(form: Mapping[str, Any], seed: int) -> CreateTournament:
    """The CreateTournament of the form: its file, the no-show time and the automatic start."""
    auto = form["auto"]
    return CreateTournament(file=json.dumps(tournament_file(form, seed), ensure_ascii=False),
                            no_show_ms=form["no_show"] * 60_000,
                            next_round_after_ms=None if auto is None else auto * 60_000)
