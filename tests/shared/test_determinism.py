"""A move is a pure function (docs/ARCHITECTURE.md): same position, flick, settings and seed give the same MoveRecord,
in one process and across interpreters with different hash seeds; a long chained game shows the referee."""

from __future__ import annotations

import collections
import hashlib
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shared.draws import Stream
from shared.formation import basic_setup
from shared.model import TEAMS, Flick, Position, Puck
from shared.physics import rested_position, simulate
from shared.rulesets import Settings

ROOT = Path(__file__).resolve().parents[2]

# Runs a few chained moves and prints one digest of every MoveRecord's repr.
_SCRIPT = """
import hashlib, sys
sys.path.insert(0, {root!r})
from tests.shared.test_determinism import chained_game
from shared.rulesets import Settings
print(hashlib.sha256(repr(chained_game(12, Settings(), seed=5)).encode()).hexdigest())
"""


def chained_game(moves: int, settings: Settings, seed: int) -> list:
    """``moves`` full-speed flicks roughly at the puck, alternating teams, each from the last position at rest."""
    stream = Stream(seed, "determinism")
    position = Position(seed=seed, stones=basic_setup(), puck=Puck(0.0, 0.0))
    records = []
    for k in range(moves):
        team = TEAMS[k % 2]
        stone = stream.choice([s for s in position.stones if s.team == team])
        angle = math.atan2(position.puck.y - stone.y, position.puck.x - stone.x) + stream.uniform(-0.2, 0.2)
        v = settings.flick_speed_max
        record = simulate(position, Flick(team, stone.id, v * math.cos(angle), v * math.sin(angle)), settings)
        records.append(record)
        position = rested_position(position, record)
    return records


def _digest_in_subprocess(hash_seed: str) -> str:
    """The digest of the chained game computed by a fresh interpreter with PYTHONHASHSEED=hash_seed."""
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    out = subprocess.run(
        [sys.executable, "-c", _SCRIPT.format(root=str(ROOT))], env=env, capture_output=True, text=True, check=True,
        cwd=ROOT,
    )
    return out.stdout.strip()


def test_same_move_twice_in_one_process_is_identical():
    """Two simulations of the same input give equal MoveRecords (fresh space each time)."""
    position = Position(seed=3, stones=basic_setup(), puck=Puck(0.0, 0.0))
    flick = Flick("home", "h2", 2900.0, 300.0)
    assert simulate(position, flick, Settings()) == simulate(position, flick, Settings())


@pytest.mark.slow
def test_identical_across_interpreters_with_different_hash_seeds():
    """Byte-identical records from two interpreters (PYTHONHASHSEED 0 and 4242) and this one."""
    here = hashlib.sha256(repr(chained_game(12, Settings(), seed=5)).encode()).hexdigest()
    assert _digest_in_subprocess("0") == _digest_in_subprocess("4242") == here


@pytest.mark.slow
def test_eighty_hard_flicks_show_interventions_and_repeat_exactly():
    """80 chained hard flicks with effects on give at least one RESPOT and one FLIP, never constantly,
    and the same records when played again."""
    first = chained_game(80, Settings(), seed=11)
    codes = collections.Counter(i.code for r in first for i in r.interventions)
    assert codes["RESPOT"] >= 1 and codes["FLIP"] >= 1
    assert codes["RESPOT"] + codes["FLIP"] <= 20  # occasional, not constant
    assert not any(r.events[-1].capped for r in first)
    assert chained_game(80, Settings(), seed=11) == first


def test_the_366_move_corpus_is_bit_for_bit_unchanged():
    """Every MoveRecord of the corpus (tests/shared/move_corpus.py) digests as in its golden file."""
    from tests.shared.move_corpus import GOLDEN, corpus_digests

    expected = json.loads(GOLDEN.read_text())
    digests = corpus_digests()
    assert expected["moves"] == len(digests) == 366
    changed = [i for i, (a, b) in enumerate(zip(digests, expected["digests"], strict=True)) if a != b]
    assert not changed, f"moves {changed[:10]} changed (python -m tests.shared.move_corpus only on purpose)"
