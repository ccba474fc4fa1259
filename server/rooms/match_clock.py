"""Clock time a room has measured but not yet handed to the engine, and when the next clock event is due.

Why: the engine is pure and takes elapsed milliseconds, so the room counts "used" time since the last log
entry - the running period clock - and hands it over with the next entry. The count pauses while a seated
coach is away (product decision 5) or the store cannot save, and does not run while clients play a move back
(the engine already charged the move's simulated duration to the part clock). Deadlines are kept in this "used
time" domain, so a pause moves them without any bookkeeping. Pure: every method takes the wall time ``now``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class MatchClock:
    """Used time since the last entry: ``pending`` banked while paused plus the running stretch since ``anchor``."""

    pending: int = 0
    anchor: int | None = None  # wall ms the running stretch started; None while paused

    @property
    def running(self) -> bool:
        """True unless paused (or not started)."""
        return self.anchor is not None

    def used(self, now: int) -> int:
        """Milliseconds of clock time since the last entry (never negative during a playback)."""
        if self.anchor is None:
            return self.pending
        return self.pending + max(0, now - self.anchor)

    def pause(self, now: int) -> None:
        """Stop counting (an absent coach, a failed store, the end of the match)."""
        if self.anchor is not None:
            self.pending = self.used(now)
            self.anchor = None

    def resume(self, now: int) -> None:
        """Count again from now."""
        if self.anchor is None:
            self.anchor = now

    def committed(self, used_at_entry: int, elapsed_ms: int, playback_ms: int, now: int) -> None:
        """An entry took ``elapsed_ms`` of the ``used_at_entry`` measured; the rest, after a playback, counts on."""
        leftover = max(0, used_at_entry - elapsed_ms)
        if self.anchor is None:
            self.pending = leftover
            return
        self.pending = 0
        self.anchor = now - leftover + playback_ms

    def wall_deadline(self, used_deadline: int) -> int | None:
        """The wall time at which ``used()`` reaches ``used_deadline``; None while paused."""
        if self.anchor is None:
            return None
        return self.anchor + max(0, used_deadline - self.pending)
