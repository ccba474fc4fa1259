"""VIII (fouls) and the goalie's foul exceptions XII.6-XII.7: foul records from a move's contact events.

Why a module of its own: the foul chain of D7 is the subtlest ruling of the game and must be testable
from hand-made event lists alone. ``foul_records`` walks the contacts of one move in step order and
returns every (origin, via, victim, step) record; ``counted_foul`` applies the goalie exceptions and
VIII.7's "one foul per move" and returns the foul that is sanctioned, if any.

Model (RULES.md D5-D7):

* every ``Contact`` is a collision, including a resting contact that transmitted an impulse
  (``pre_existing``, VIII.5, D5) - the physics only reports those when the impulse passed ε_J;
* a stone is *clean* from the first step it collides with a neutral object (D2: board, puck, frame,
  net; a ``LeftBoard`` counts as a board contact, VI.5); contacts within ``simultaneous_steps`` steps
  are simultaneous (D6, A8), so a neutral contact that many steps later still counts as simultaneous;
* the flicked stone is tainted with itself as origin; a tainted, not clean stone that collides with a
  clean-less teammate taints it (VIII.1b); taint never passes through the puck or opponent stones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from shared import geometry
from shared.events import Contact, Event, LeftBoard, body_kind, is_neutral
from shared.model import Position, Team, team_of_id


@dataclass(frozen=True, slots=True)
class FoulRecord:
    """D7: tainted ``via`` (chain origin ``origin``) collided with opponent ``victim`` at ``step``."""

    origin: str
    via: str
    victim: str
    step: int

    @property
    def kind(self) -> Literal["direct", "through_teammate"]:
        """VIII.1a when the flicked stone itself hit the opponent, VIII.1b through a chain of teammates."""
        return "direct" if self.via == self.origin else "through_teammate"


def first_neutral_steps(events: tuple[Event, ...]) -> dict[str, int]:
    """D7: for each stone, the first step at which it collided with a neutral object (VIII.2)."""
    first: dict[str, int] = {}
    for event in events:
        if isinstance(event, Contact):
            for body in (event.a, event.b):
                if body_kind(body) == "stone" and is_neutral(event.other(body)):
                    first.setdefault(body, event.step)
                    first[body] = min(first[body], event.step)
        elif isinstance(event, LeftBoard) and body_kind(event.body) == "stone":
            first.setdefault(event.body, event.step)  # VI.5: flying over the board is a board contact
            first[event.body] = min(first[event.body], event.step)
    return first


def _stone_contacts_by_step(events: tuple[Event, ...]) -> list[tuple[int, list[Contact]]]:
    """The stone-stone contacts of the move grouped by step, in step order (D6: a step is one instant)."""
    groups: dict[int, list[Contact]] = {}
    for event in events:
        if isinstance(event, Contact) and body_kind(event.a) == "stone" and body_kind(event.b) == "stone":
            groups.setdefault(event.step, []).append(event)
    return sorted(groups.items())


def foul_records(mover: Team, flicked: str, events: tuple[Event, ...], simultaneous_steps: int = 1) -> list[FoulRecord]:
    """VIII.1a-b, D7: every foul record of the move, in step order (ties in event order).

    ``simultaneous_steps`` is the D6 window: a neutral contact less than that many steps after a
    collision still counts as simultaneous with it (1 = the same step only).
    """
    window = max(simultaneous_steps, 1) - 1
    first_neutral = first_neutral_steps(events)

    def clean_at(stone: str, step: int) -> bool:
        """D7: the stone collided with a neutral object before or simultaneously with ``step``."""
        first = first_neutral.get(stone)
        return first is not None and first <= step + window

    tainted: dict[str, str] = {flicked: flicked}  # stone -> chain origin (D7: at t0 the flicked stone)
    records: list[FoulRecord] = []
    seen: set[tuple[str, str]] = set()
    for step, contacts in _stone_contacts_by_step(events):
        changed = True
        while changed:  # VIII.1b: propagate taint through teammates hit in the same instant (order-free)
            changed = False
            for contact in contacts:
                for x in (contact.a, contact.b):
                    y = contact.other(x)
                    if (
                        x in tainted
                        and y not in tainted
                        and team_of_id(y) == mover
                        and not clean_at(x, step)
                        and not clean_at(y, step)  # D7: a teammate already clean is not tainted
                    ):
                        tainted[y] = tainted[x]
                        changed = True
        for contact in contacts:
            for x in (contact.a, contact.b):
                z = contact.other(x)
                if x in tainted and team_of_id(x) == mover and team_of_id(z) != mover and not clean_at(x, step):
                    if (x, z) not in seen:  # VIII.5: a resting contact reported step after step is one record
                        seen.add((x, z))
                        records.append(FoulRecord(tainted[x], x, z, step))
    return records


def goalie_exempt(record: FoulRecord, start: Position, mover: Team, stone_radius: float) -> bool:
    """XII.6 (A10): a foul by the goalie's move on an opponent stone that touched the goalie's crease at
    move start is no foul; XII.7: outside it, the foul stands (the coach then names the excluded stone)."""
    origin = start.stone(record.origin)
    victim = start.stone(record.victim)
    if origin is None or victim is None or origin.role != "goalie":
        return False
    return geometry.in_crease(victim.x, victim.y, stone_radius, start.own_end(mover))


def counted_foul(
    start: Position, mover: Team, flicked: str, events: tuple[Event, ...], simultaneous_steps: int, stone_radius: float
) -> FoulRecord | None:
    """VIII.7: the one foul of the move that is sanctioned (the earliest record not exempt by XII.6)."""
    for record in foul_records(mover, flicked, events, simultaneous_steps):
        if not goalie_exempt(record, start, mover, stone_radius):
            return record
    return None
