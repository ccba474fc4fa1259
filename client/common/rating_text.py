"""Ratings in words — "1512?" beside a name, "1512 → 1527 (+15)" after a rated match — and the line the results
screen shows about them (pure: no arcade).

Why one module: the HUD, the room list, a profile, the leaderboard and the results all show ratings, and must show
them alike. A rating is a whole number; "?" marks a provisional one (RD 110 or more: the server is not sure yet,
docs/PROTOCOL.md "Players"). A rated match's changes come in ``Rated`` a moment after ``MatchEnded``; until they
do the results say "rating…", and a match that was never going to be rated says "casual".
"""

from __future__ import annotations

from collections.abc import Mapping

from client.common.i18n import _
from shared.protocol import Rated, RatingChange

RATED_WAIT_S = 10.0  # after this long without Rated, a match is taken as not rated (abandoned before any move)
MINUS = "\u2212"  # a real minus sign: "−15" reads as a loss at a glance


def rating_text(rating: int | None, provisional: bool = False) -> str:
    """A rating as shown beside a name ("1512", "1512?"); "" for a player without one."""
    if rating is None:
        return ""
    return f"{rating}?" if provisional else str(rating)


def signed(delta: int) -> str:
    """A rating change with its sign ("+15", "−15", "±0")."""
    if delta > 0:
        return f"+{delta}"
    return f"{MINUS}{-delta}" if delta < 0 else "±0"


def change_text(change: RatingChange) -> str:
    """What a rated match did to one coach: "1512 → 1527 (+15)" ("?" after a provisional new rating)."""
    after = rating_text(change.after, change.provisional)
    return f"{change.before} → {after} ({signed(change.after - change.before)})"


def results_lines(rated: bool | None, news: Rated | None, match_id: str, names: Mapping[str, str],
                  waited: float, coach_moves: int | None = None) -> tuple[str, ...]:
    """The results screen's lines about ratings: one per coach ("Jana 1512 → 1527 (+15)", "Jana rating…"), or one
    line for a match that did not change them.

    ``rated`` is what this client knows of the match (True: a rated room or a quick match, False: casual, None: not
    known - a room joined by its code, or watched); ``news`` the ``Rated`` received (for ``match_id``, or another
    match's); ``waited`` the seconds since ``MatchEnded``; ``coach_moves`` the moves a coach played himself (0: every
    move was a timeout's, and such a match is never rated - the line says so)."""
    if news is not None and news.match_id == match_id and news.changes:
        by_team = {change.team: change for change in news.changes}
        return tuple(_("{name} {change}").format(name=names.get(team, change.player), change=change_text(change))
                     for team in ("home", "away") for change in (by_team.get(team),) if change is not None)
    if rated is False:
        return (_("Casual match — no rating changes"),)
    if coach_moves == 0:
        return (_("Not rated — no coach played a move himself (every move timed out)"),)
    if waited < RATED_WAIT_S:
        who = [names[team] for team in ("home", "away") if team in names]
        return tuple(_("{name} rating…").format(name=name) for name in who) or (_("rating…"),)
    return (_("Not rated — no rating changes"),)
