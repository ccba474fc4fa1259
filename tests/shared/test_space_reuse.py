"""The reused space (shared.physics ``_World``): a move simulated after any other moves gives, bit for bit, the
MoveRecord of the same move in a space built for it alone, in this process and in others with other hash seeds.

Why these moves: the order of Chipmunk's contact pairs and solver only shows where a body has several contacts
at once (docs/ARCHITECTURE.md "Physics facts": a racked cluster diverged from move 1 when insertion order changed), so
the set has two racks pressed against a board, a puck shot off the board (a body taken out mid-move), a move with the
2.5-D effects off, one capped by ``move_cap_ms``, and one whose settings need the exact-material pair handlers (a
world of its own); the bare loop of ``sprtec bench physics`` runs between them too.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import threading
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared import physics
from shared.events import LeftBoard, MoveRecord
from shared.formation import basic_setup
from shared.model import Flick, Position, Puck, Stone
from shared.rulesets import Settings

ROOT = Path(__file__).resolve().parents[2]
S = Settings()
R = S.stone_radius


def _rack_on_the_end_board() -> Position:
    """Six stones in two touching rows against the end board at x = +608, the puck in front of them."""
    x0 = 608.0 - R
    rack = [Stone(f"a{k + 1}", "away", "field", x0 - 2 * R * (k // 3), -2 * R + 2 * R * (k % 3)) for k in range(6)]
    stones = (*rack, Stone("h2", "home", "field", 200.0, 5.0))
    return Position(seed=7, stones=stones, puck=Puck(x0 - 4 * R - 20.0, 3.0))


def _rack_in_the_corner() -> Position:
    """A triangle of touching stones in the corner arc with the puck wedged between them and the board."""
    stones = (
        Stone("a1", "away", "field", -560.0, 250.0),
        Stone("a2", "away", "field", -560.0 + 2 * R, 250.0),
        Stone("a3", "away", "field", -560.0 + R, 250.0 - 1.7320508075688772 * R),
        Stone("h2", "home", "field", -300.0, 100.0),
        Stone("h3", "home", "field", -330.0, 130.0),
    )
    return Position(seed=8, stones=stones, puck=Puck(-585.0, 275.0))


@cache
def moves() -> tuple[tuple[Position, Flick, Settings], ...]:
    """The moves every order is drawn from (see the module docstring)."""
    opening = Position(seed=3, stones=basic_setup(), puck=Puck(0.0, 0.0))
    exact = replace(S, restitution_puck_stone=0.4)  # unlike stone-stone: pre_solve sets the puck's wall pairs
    assert physics._materials(exact)[1], "these settings must need the exact-material handlers"
    over_the_board = Position(seed=2, stones=(Stone("h2", "home", "field", -40.0, 160.0),), puck=Puck(0.0, 200.0))
    diagonal = S.flick_speed_max / 2**0.5
    return (
        (_rack_on_the_end_board(), Flick("home", "h2", 2900.0, -40.0), S),
        (_rack_in_the_corner(), Flick("home", "h2", -2600.0, 1500.0), S),
        (_rack_in_the_corner(), Flick("home", "h3", -2400.0, 1100.0), replace(S, effects_2_5d=False)),
        (opening, Flick("home", "h5", 0.0, 3000.0), S),
        (opening, Flick("home", "h2", 2500.0, 300.0), replace(S, move_cap_ms=250)),
        (opening, Flick("home", "h2", 2900.0, -200.0), exact),
        (over_the_board, Flick("home", "h2", diagonal, diagonal), S),  # VI.5: the puck flies over the side board
    )


def _fresh(k: int) -> MoveRecord:
    """Move ``k`` in a space made for it alone."""
    position, flick, move_settings = moves()[k]
    return physics.simulate(position, flick, move_settings, reuse=False)


@cache
def fresh_records() -> tuple[MoveRecord, ...]:
    """Every move, each in a space made for it alone."""
    return tuple(_fresh(k) for k in range(len(moves())))


def _digest(record: MoveRecord) -> str:
    """The SHA-256 of a record's repr (what the move corpus compares)."""
    return hashlib.sha256(repr(record).encode()).hexdigest()


def test_the_moves_exercise_what_reuse_must_reproduce():
    """The set really has a body taken off mid-move, a capped move and a racked contact cluster at t0."""
    records = fresh_records()
    assert any(isinstance(e, LeftBoard) for e in records[6].events)
    assert any(r.events[-1].capped for r in records)
    assert sum(1 for e in records[0].events if getattr(e, "pre_existing", False)) >= 2


def test_the_space_is_reused_from_move_to_move():
    """Two moves in a row run in the same world (so the other tests test reuse, not fresh spaces)."""
    position, flick, move_settings = moves()[3]
    physics.simulate(position, flick, move_settings)
    world = physics._reused_world(physics._world_key(move_settings))
    physics.simulate(position, flick, move_settings)
    assert physics._reused_world(physics._world_key(move_settings)) is world


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.booleans()), min_size=1, max_size=8))
def test_moves_in_any_order_in_the_reused_space_equal_fresh_spaces(order):
    """Any sequence of the moves (with the bare loop run in between when drawn) gives each move's fresh record."""
    expected = fresh_records()
    for k, bare_after in order:
        position, flick, move_settings = moves()[k]
        assert physics.simulate(position, flick, move_settings) == expected[k]
        if bare_after:
            physics.bare_loop(position, flick, move_settings, 200)


def test_a_move_built_but_never_run_leaves_the_next_move_unchanged():
    """A move whose space was filled but never stepped keeps its world busy; the next move gets another one."""
    position, flick, move_settings = moves()[0]
    abandoned = physics._Move(position, flick, move_settings)
    assert physics.simulate(position, flick, move_settings) == fresh_records()[0]
    assert abandoned.run() == fresh_records()[0]


def test_a_world_is_retired_when_its_tree_stamps_run_out(monkeypatch):
    """Past ``_STAMP_LIMIT`` a world is replaced by a new one, and the records stay the same."""
    monkeypatch.setattr(physics, "_STAMP_LIMIT", 0)
    position, flick, move_settings = moves()[1]
    key = physics._world_key(move_settings)
    assert physics.simulate(position, flick, move_settings) == fresh_records()[1]
    first = physics._reused_world(key)
    assert physics.simulate(position, flick, move_settings) == fresh_records()[1]
    assert physics._reused_world(key) is not first


def test_threads_simulating_at_once_use_worlds_of_their_own():
    """Moves run in two threads at the same time (the bot thinks in a thread) give the fresh records."""
    expected = fresh_records()
    results: dict[int, list[bool]] = {0: [], 1: []}

    def play(thread: int) -> None:
        """Every move, twice, in an order of this thread's own."""
        count = len(moves())
        for k in [*range(count), *reversed(range(count)), thread][thread:]:
            position, flick, move_settings = moves()[k]
            results[thread].append(physics.simulate(position, flick, move_settings) == expected[k])

    threads = [threading.Thread(target=play, args=(t,)) for t in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results[0] and results[1] and all(results[0]) and all(results[1])


# A fresh interpreter plays the moves in the order given, in its reused space or each in a space of its own, and
# prints one digest per move.
_SCRIPT = """
import hashlib, sys
sys.path.insert(0, {root!r})
from shared import physics
from tests.shared.test_space_reuse import moves
for k in {order!r}:
    position, flick, settings = moves()[k]
    record = physics.simulate(position, flick, settings, reuse={reuse!r})
    print(k, hashlib.sha256(repr(record).encode()).hexdigest())
"""


def _digests_in_subprocess(hash_seed: str, order: list[int], reuse: bool) -> list[tuple[int, str]]:
    """(move, digest) for each move of ``order`` computed by a fresh interpreter with PYTHONHASHSEED=hash_seed."""
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    script = _SCRIPT.format(root=str(ROOT), order=order, reuse=reuse)
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True, cwd=ROOT)
    return [(int(k), digest) for k, digest in (line.split() for line in out.stdout.splitlines())]


@pytest.mark.slow
def test_reused_space_in_other_processes_with_other_hash_seeds_gives_the_same_records():
    """A scrambled order in the reused space of interpreters with PYTHONHASHSEED 0 and 4242, and each move in a space
    of its own in a third, give the digests of this process's fresh spaces."""
    here = [_digest(r) for r in fresh_records()]
    order = [5, 2, 6, 0, 0, 4, 1, 3, 2, 5, 1, 6]
    for hash_seed in ("0", "4242"):
        assert _digests_in_subprocess(hash_seed, order, True) == [(k, here[k]) for k in order]
    assert _digests_in_subprocess("77", list(range(len(here))), False) == list(enumerate(here))
