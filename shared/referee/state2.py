"""The referee state of part 2 (issue #4): penalty shots, the activity count, power play, the shoot-out.

Why a module of its own: the chapter modules of part 2 (``penalty_shot``, ``activity``, ``power_play``,
``shootout``) were written against these names before they became ``shared.model.Position`` fields. The
classes now live in ``shared.model`` (a position field's type must be importable with the position, without
an import cycle); this module keeps the referee's import path for them.
"""

from __future__ import annotations

from shared.model import ActivityCount, PenaltyShotState, PowerPlayState, ShootoutState

__all__ = ["ActivityCount", "PenaltyShotState", "PowerPlayState", "ShootoutState"]
