"""The words of the help screens — how to play (aiming, turns, the main rules with their ids) and the keys — as
plain data (pure: no arcade).

Why data: the help screen only lays these out; keeping them here lets the translation layer carry them like every
other string and lets tests check that every section names its rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from client.common.i18n import _


@dataclass(frozen=True, slots=True)
class Section:
    """One part of a help page: a heading and its lines."""

    heading: str
    lines: tuple[str, ...]


def how_to_play() -> tuple[Section, ...]:
    """The "How to play" page."""
    return (
        Section(_("Aiming"), (
            _("Press one of your stones, pull back like a slingshot and let go: the stone flies the other way."),
            _("The further you pull, the harder the flick; a full pull is the fastest flick the rules allow (D3)."),
            _("The guide shows the stone's path and the first body it meets; an opponent's stone there is a foul."),
            _("Let go close to the stone, or press Esc, to cancel."),
            _("The mark on a stone's rim shows how it turns; its number always stays upright."),
        )),
        Section(_("Turns"), (
            _("The coaches move in turn, one flick each (VI.1); after a face-off the centre forward starts (V.7)."),
            _("The board must come to rest before the next move (D3); the move clock limits each move (A35)."),
            _("Choices — which stone to exclude, counting, power play — appear at the bottom right with a countdown."),
        )),
        Section(_("The main rules"), (
            _("Goal (XIV.1): the puck touches the auxiliary line inside the goal."),
            _("Foul (VIII.1a): your stone hits an opponent's stone before touching the puck, a board or a goal."),
            _("Exclusion (X.1): the fouling stone leaves the board and the opponent plays two moves (IX)."),
            _("Penalty shot (XV.1): the puck hits an opponent's stone standing in its crease."),
            _("Activity rule (XI): a team that keeps the puck without shooting is counted and loses a stone."),
            _("Goalie (XII): it may not leave its defensive third (XII.8); power play (XIII) swaps it for a seventh "
              "field player."),
            _("The referee turns flipped stones over (VI.4) and puts a puck that flew off back at the board (VI.5)."),
        )),
    )


def keys() -> tuple[Section, ...]:
    """The keys page (F1 or ? from any screen)."""
    return (
        Section(_("Everywhere"), (
            _("F1 or ?  this help          F11  full screen          M  sound on or off"),
        )),
        Section(_("Menus"), (
            _("↑ ↓  choose     ← →  change a choice     Enter  select     Esc  back"),
        )),
        Section(_("Match"), (
            _("Mouse: press a stone, pull back, let go     Esc  cancel the aim, or leave (asks first)"),
            _("L  move list     PgUp PgDn  scroll it     Enter  confirm a placement"),
            _("C  chat     Enter  type a line (every key is the chat's until Enter sends it or Esc)"),
        )),
        Section(_("Results and replays"), (
            _("R  rematch     S  save the replay     Esc  back to the menu"),
            _("Space  play or pause     ↑ ↓  speed     ← →  step     Home End  the ends"),
        )),
    )
