"""The choices a coach can make besides flicking, turned into buttons and actions (pure, no arcade).

Why: the kinds of choice come from ``shared.match.prompts(position)`` — the same function the server
uses — so the client offers exactly the choices the engine will accept, each with the countdown of
``choice_timeout_ms`` after which the server applies the documented default (A47). A command string
(``choose_exclusion:h5``) names the action a button sends; ``action_for`` builds it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from client.common.i18n import N_, _
from client.match.state import Clock
from shared.match import prompts as engine_prompts
from shared.match import settings_of
from shared.model import (
    Action,
    ChooseExclusion,
    Count,
    GoalieReset,
    Position,
    PowerPlaySwapIn,
    PowerPlaySwapOut,
    TakePenalty,
    Team,
)

TITLES = {
    "choose_exclusion": N_("Your goalie fouled: choose the field stone to exclude (VIII.1a, XII.7)"),
    "take_penalty": N_("Advantage: take the penalty shot now or play on (IX.3)"),
    "count": N_("Count the opponent's move (XI.3)"),
    "pp_swap_out": N_("Power play: replace the goalie by the reserve (XIII.2)"),
    "pp_swap_in": N_("Power play: bring the goalie back (XIII.4)"),
    "goalie_reset": N_("Put the goalie back on its spot by hand — costs a move (XII.2)"),
    "setup": N_("Place your stones for the penalty shot (XV.11)"),
}
OFFER_LABELS = {  # short button labels for the optional actions, which share one panel
    "take_penalty": N_("Take the penalty"),
    "count": N_("Count"),
    "pp_swap_out": N_("Power play with {stone}"),
    "pp_swap_in": N_("Goalie back for {stone}"),
    "goalie_reset": N_("Goalie reset"),
}
OFFERS_TITLE = N_("Before your move you may also (or just flick):")
ARRANGE = "arrange"  # the command that opens the placement mode (client.match.placement)
ARRANGE_TITLE = N_("Before the face-off you may move your defenders (IV.1)")


@dataclass(frozen=True, slots=True)
class Choice:
    """One prompt for this client: its title, the (label, command) options, the deadline and the time allowed
    in seconds (no deadline for the optional arrangement before a face-off: the move clock times that)."""

    kind: str
    team: Team
    title: str
    options: tuple[tuple[str, str], ...]
    deadline: float | None
    seconds: float = 0.0
    clock: Clock | None = None  # the server's countdown (its ms_left), frozen while the match clocks are paused

    def left(self, now: float) -> float | None:
        """Seconds left at ``now`` before the server applies the default; None for an offer."""
        if self.clock is not None:
            return self.clock.at(now) / 1000.0
        return None if self.deadline is None else max(0.0, self.deadline - now)


def choices(position: Position, seat: Team | None, since: float,
            clocks: Mapping[tuple[str, str], Clock] | None = None) -> tuple[Choice, ...]:
    """The prompts of ``position`` for the coach in ``seat`` (none for spectators), each timed by the server's
    countdown in ``clocks`` (by (kind, team), from its ``ms_left``) or, from older servers, from ``since``; at a
    restart before its first move, the offer to arrange the defenders (IV.1, D13). Choices the match waits
    for come first; optional actions (the arrangement, take the penalty, count, power-play swaps, goalie
    reset) follow with no countdown: the move clock times them."""
    if seat is None or position.result is not None:
        return ()
    timeout = settings_of(position).choice_timeout_ms / 1000.0
    found = []
    for prompt in engine_prompts(position, offers=True):
        if prompt.team != seat:
            continue
        if prompt.kind == "setup":
            options: tuple[tuple[str, str], ...] = ((_("Place the stones"), ARRANGE),)
        elif prompt.options and prompt.default is None:  # an offer: say what the button does
            if position.to_move != seat:
                continue  # "before your move": never on the screen of the coach who is not to move
            label = _(OFFER_LABELS[prompt.kind]) if prompt.kind in OFFER_LABELS else prompt.kind + " {stone}"
            options = tuple((label.format(stone=stone), f"{prompt.kind}:{stone}") for stone in prompt.options)
        elif prompt.options:
            default = getattr(prompt.default, "stone", None)
            options = tuple(
                (_("{stone} (default)").format(stone=stone) if stone == default else stone, f"{prompt.kind}:{stone}")
                for stone in prompt.options
            )
        else:
            label = _(OFFER_LABELS[prompt.kind]) if prompt.kind in OFFER_LABELS else \
                prompt.kind.replace("_", " ").capitalize()
            options = ((label, prompt.kind),)
        title = _(TITLES[prompt.kind]) if prompt.kind in TITLES else prompt.kind.replace("_", " ")
        if prompt.default is None:  # an optional action (advantage, counting, swaps, goalie reset): no countdown
            found.append(Choice(prompt.kind, prompt.team, title, options, None))
        else:
            clock = (clocks or {}).get((prompt.kind, prompt.team))
            if clock is None:
                found.append(Choice(prompt.kind, prompt.team, title, options, since + timeout, timeout))
            else:
                deadline = clock.synced_at + clock.remaining_ms / 1000.0
                found.append(Choice(prompt.kind, prompt.team, title, options, deadline, timeout, clock))
    awaited = [c for c in found if c.deadline is not None]
    offers = [c for c in found if c.deadline is None]
    if position.restart and not any(c.kind == "setup" for c in found):
        offers.insert(0, Choice(ARRANGE, seat, _(ARRANGE_TITLE), ((_("Move defenders"), ARRANGE),), None))
    return tuple(awaited + offers)


def action_for(command: str, team: Team) -> Action | None:
    """The action a prompt button's command stands for; None for an unknown command."""
    kind, _sep, stone = command.partition(":")
    if kind == "choose_exclusion" and stone:
        return ChooseExclusion(team=team, stone=stone)
    if kind == "pp_swap_out" and stone:
        return PowerPlaySwapOut(team=team, stone=stone)
    if kind == "pp_swap_in" and stone:
        return PowerPlaySwapIn(team=team, stone=stone)
    if kind == "count":
        return Count(team=team)
    if kind == "take_penalty":
        return TakePenalty(team=team)
    if kind == "goalie_reset":
        return GoalieReset(team=team)
    return None
