"""The move corpus: 366 moves whose MoveRecords must stay bit for bit what they are (the physics' golden file).

Why: the physics is kept deterministic and is optimised often (space reuse, direct Chipmunk calls, stepping);
an optimisation that changes one bit of one record changes replays, recovery and every stored match. Six chained
games of 61 moves, from six seeds, with full-speed, medium and slow flicks, the 2.5-D effects on and off, give
contacts, rebounds, flips and re-spots. ``python -m tests.shared.move_corpus`` rewrites the golden file - only on
purpose, when a change of the physics is meant (say why in the commit).
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from dataclasses import replace
from pathlib import Path

from shared.draws import Stream
from shared.formation import basic_setup
from shared.model import TEAMS, Flick, Position, Puck
from shared.physics import rested_position, simulate
from shared.rulesets import Settings

GOLDEN = Path(__file__).with_name("golden") / "move_corpus.json"
GAMES = 6
MOVES_PER_GAME = 61


def corpus_digests() -> list[str]:
    """The SHA-256 of every MoveRecord's repr, game by game, move by move."""
    digests = []
    for game in range(GAMES):
        settings = Settings() if game % 2 == 0 else replace(Settings(), effects_2_5d=False)
        stream = Stream(1000 + game, "corpus")
        position = Position(seed=1000 + game, stones=basic_setup(), puck=Puck(0.0, 0.0))
        for k in range(MOVES_PER_GAME):
            team = TEAMS[k % 2]
            stone = stream.choice([s for s in position.stones if s.team == team])
            angle = math.atan2(position.puck.y - stone.y, position.puck.x - stone.x) + stream.uniform(-0.35, 0.35)
            speed = settings.flick_speed_max * (1.0, 0.55, 0.2)[k % 3]
            record = simulate(position, Flick(team, stone.id, speed * math.cos(angle), speed * math.sin(angle)),
                              settings)
            digests.append(hashlib.sha256(repr(record).encode()).hexdigest())
            position = rested_position(position, record)
    return digests


def main() -> int:
    """Rewrite the golden file."""
    digests = corpus_digests()
    GOLDEN.write_text(json.dumps({"moves": len(digests), "digests": digests}, indent=1) + "\n")
    print(f"{len(digests)} move digests written to {GOLDEN}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
