"""What every button and stone says when the pointer rests on it: the rule behind a choice in words, with its rule
id (pure: no arcade).

Why: a coach meets the rarer choices — a goalie's exclusion, counting under the activity rule, a power-play swap —
a few times a season; the button itself must say what it does and which rule allows it ("Power play (XIII): take
your goalie off for a seventh field player"), so nobody needs the rulebook open. Commands are those of
``client.match.prompts`` (``kind:stone``), the results screen and the replay controls.
"""

from __future__ import annotations

from client.common.i18n import N_, _
from shared.model import Role

TIPS: dict[str, str] = {
    "choose_exclusion": N_("Exclusion (VIII.1a, XII.7): your goalie fouled, so one of your field stones leaves the "
                           "board instead — pick which one; without a choice the default goes"),
    "take_penalty": N_("Advantage (IX.3): stop playing on and take the penalty shot you earned now"),
    "count": N_("Activity rule (XI.3): count your opponent's move; if he takes too many moves without a shot, "
                "he loses a stone (XI.9)"),
    "pp_swap_out": N_("Power play (XIII): take your goalie off for a seventh field player — your goal stays empty"),
    "pp_swap_in": N_("Power play over (XIII.4): bring your goalie back in place of this stone"),
    "goalie_reset": N_("Goalie reset (XII.2): put your goalie back on its spot by hand; it costs your move"),
    "arrange": N_("Face-off (IV.1): move your defenders onto the face-off spots or anywhere in your defensive "
                  "third, off the crease, before the first move"),
    "setup": N_("Penalty shot (XV.11): place the stones the referee asks for"),
    "confirm": N_("Place the stones as shown (the referee checks the setup first)"),
    "cancel": N_("Put the stones back where they were"),
    "rematch": N_("Play again in the same room with the same rules, ends swapped"),
    "save": N_("Keep this match as a file: watch it later from My replays"),
    "lobby": N_("Back to the main menu"),
    "leave": N_("Leave the room; in a running match this resigns it"),
    "help": N_("How to play: aiming, turns, the main rules and the keys (F1)"),
    "toggle": N_("Play or pause the replay (Space)"),
    "next": N_("The next move (→)"),
    "back": N_("The move before (←)"),
    "start": N_("The start of the match (Home)"),
    "end": N_("The end of the match (End)"),
    "speed": N_("Replay speed: 0.5×, 1×, 2×, 4× (↑↓)"),
}


def tip(command: str) -> str:
    """The tooltip of a button's command (``kind:stone`` commands share their kind's), or "" when it has none."""
    kind, _sep, _stone = command.partition(":")
    text = TIPS.get(kind, "")
    return _(text) if text else ""


def stone_tip(stone: str, role: Role, team_name: str, flipped: bool) -> str:
    """What a stone's tooltip says: who it is, and what the mark on its rim means."""
    if flipped:
        return _("{stone} of {team} lies upside down until the referee turns it over (VI.4)").format(
            stone=stone, team=team_name)
    if role == "goalie":
        return _("{stone}: the goalie of {team} (the ring is its mask). The mark on the rim shows how it "
                 "turns").format(stone=stone, team=team_name)
    return _("{stone}: a field player of {team}. The mark on the rim shows how it turns").format(
        stone=stone, team=team_name)
