"""What the results screen says at the end of a match: the headline from this client's seat, the score with both
coaches' names, the reason in words, what the match did to their ratings, the rematch state, the buttons (the
coaches' profiles among them) and what became of "Save replay" (pure: no arcade).

Why: the end of a match must read at a glance — who won, by how much, and why it ended (regular time,
sudden death, a shoot-out, a forfeit) — and both coaches must see whether the other wants a rematch. Anyone
on the screen, coach or spectator, may keep the match as a replay file (``client.match.replay_saver``). The ratings
lines come from ``client.common.rating_text.results_lines``.
"""

from __future__ import annotations

from dataclasses import dataclass

from client.common.decision_text import team_name
from client.common.i18n import N_, _
from shared.model import Team, other

REASONS = {
    "REGULAR_TIME": N_("Full time (III.1)"),
    "DRAW": N_("Full time — the draw stands (III.1)"),
    "OVERTIME": N_("Decided in overtime (III.2)"),
    "SUDDEN_DEATH": N_("Sudden-death goal in overtime (XVI)"),
    "SHOOTOUT": N_("Decided by the shoot-out (XV.16)"),
    "FORFEIT_DISCONNECTED": N_("Forfeit — a coach stayed disconnected"),
    "RESIGNED": N_("A coach left the match"),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Results:
    """The results screen's words and its buttons as (label, command); ``profiles`` are the coaches' profile buttons
    (``profile:<name>``)."""

    headline: str
    score: str
    reason: str
    rematch: str
    options: tuple[tuple[str, str], ...]
    saved: str = ""
    ratings: tuple[str, ...] = ()
    profiles: tuple[tuple[str, str], ...] = ()


def reason_text(reason: str) -> str:
    """The end reason in words (an unknown code still reads sensibly)."""
    return _(REASONS[reason]) if reason in REASONS else reason.replace("_", " ").capitalize()


def build(home: int, away: int, winner: Team | None, reason: str, seat: Team | None, names: dict[str, str],
          rematch: set[str] | frozenset[str] = frozenset(), saved: str = "", ratings: tuple[str, ...] = (), *,
          table: bool = False, back_to_tournament: bool = False) -> Results:
    """The results for a match that ended ``home``:``away`` with ``winner`` (None: a draw), seen from ``seat``;
    ``names`` are the coaches' (kept through the match, so one who left is still named); ``saved`` is what became
    of "Save replay" (empty before it is pressed); ``ratings`` the lines about the ratings. A tournament's ``table``
    offers no rematch (the next round is the organiser's); ``back_to_tournament``: leaving goes to the tournament
    that runs on, not to the lobby."""
    if winner is None:
        headline = _("A draw")
    elif seat is None:
        headline = _("{team} win").format(team=team_name(winner, names))
    else:
        headline = _("You win!") if winner == seat else _("You lose")
    score = f"{team_name('home', names)}  {home} : {away}  {team_name('away', names)}"
    options: list[tuple[str, str]] = []
    if table:
        state = ""
    elif seat is None:
        state = _("Waiting for the coaches…") if not rematch else _("A rematch has been asked for")
    elif seat in rematch and other(seat) in rematch:
        state = _("Both accepted — the rematch starts")
    elif seat in rematch:
        state = _("You asked for a rematch — waiting for your opponent")
    elif other(seat) in rematch:
        state = _("Your opponent wants a rematch")
        options.append((_("Accept the rematch"), "rematch"))
    else:
        state = ""
        options.append((_("Rematch"), "rematch"))
    options.append((_("Save replay"), "save"))
    options.append((_("Back to the tournament") if back_to_tournament else _("Back to the lobby"), "lobby"))
    profiles = tuple((_("{name}'s profile").format(name=names[team]), f"profile:{names[team]}")
                     for team in ("home", "away") if names.get(team) and not table)  # a table's seats are named
    # as the tournament's entries, not as the players' profiles
    return Results(headline=headline, score=score, reason=reason_text(reason), rematch=state, options=tuple(options),
                   saved=saved, ratings=ratings, profiles=profiles)
