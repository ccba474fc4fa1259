"""Write ``examples/long-80-hard-flicks.json``: 80 hard flicks from the basic setup with the 2.5-D effects on.

Why: a long, violent scenario exercises what short rule tests do not - the referee's 2.5-D interventions (a puck
flying over the board is re-spotted, VI.5; a stone turned upside down is flipped back, VI.4), many goals and
restarts in a row, and the determinism of the whole pipeline (two runs must print the same bytes).

The flicks are pure draws from ``shared.draws.Stream`` keyed by ``SEED``, so the file is reproducible:
``.venv/bin/python examples/make_long_scenario.py`` rewrites it identically. Teams alternate; each flick moves a
stone that normally stays on the board - the goalie (never excluded, XII.7) or a forward - at 2500-3000 mm/s,
aimed within 75 degrees of the mover's attacking direction. Positions change as the match runs (restarts allow
only the centre forward, V.7; privileges give one team several moves, IX), so some flicks are refused; a
refused action changes nothing and the scenario goes on, which is part of what it tests.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from shared.draws import Stream

SEED = 2021  # each of the seeds 2020-2031 tried gave at least one FLIP or RESPOT; the test asks for one
FLICKS = 80
SPEED_RANGE = (2500.0, 3000.0)  # mm/s: hard, within the standard flick_speed_max of 3000
SPREAD_DEG = 75.0  # the largest angle between a flick and the mover's attacking direction
STONE_NUMBERS = ("1", "2", "3", "4")  # goalie, centre forward, wings
OUTPUT = Path(__file__).resolve().parent / "long-80-hard-flicks.json"


def long_scenario(seed: int = SEED, flicks: int = FLICKS) -> dict[str, Any]:
    """The scenario as a JSON object: the basic setup (home defends x < 0) and ``flicks`` alternating flicks."""
    stream = Stream("examples/long-80-hard-flicks", seed)
    actions = []
    for index in range(flicks):
        team = "home" if index % 2 == 0 else "away"
        attack = 0.0 if team == "home" else math.pi  # home_end -1: home attacks towards +x
        angle = attack + math.radians(stream.uniform(-SPREAD_DEG, SPREAD_DEG))
        speed = stream.uniform(*SPEED_RANGE)
        stone = team[0] + stream.choice(STONE_NUMBERS)
        actions.append({
            "team": team,
            "action": "flick",
            "stone": stone,
            "vx": round(speed * math.cos(angle), 2),
            "vy": round(speed * math.sin(angle), 2),
        })
    return {
        "format": "sprtec-scenario/1",
        "position": {"format": "sprtec-position/1", "seed": seed, "settings": {"effects_2_5d": True}},
        "actions": actions,
    }


def main() -> None:
    """Write the scenario file (two-space indent, one trailing newline)."""
    OUTPUT.write_text(json.dumps(long_scenario(), indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
