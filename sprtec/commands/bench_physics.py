"""``sprtec bench physics``: what a move costs against a bare pymunk loop (issue #2 item 8).

Why: the project's budget is that simulating a move (handlers, region sensors, keyframes, the D4
rest check, the referee's settling) costs at most 1.25x a bare loop that steps the same space
(same bodies, walls, friction joints and step) for the same number of steps with nothing else.
Both are measured in the same run, interleaved, on a fixed, deterministic set of realistic moves
(flicks from the basic setup, then mid-game positions reached by chaining them), and medians are
compared, because this shared machine is noisy.

Like with like: each side builds a fresh space with the same bodies, walls, goals and friction joints
(``build_space``; the bare side without sensors) and steps it the same number of times; the bare side
has no sensors, handlers, keyframes, rest checks or effects. The cyclic garbage collector is paused
while a side is timed and run between samples, so neither side pays for the other's garbage; tearing
a space down (pymunk's finalisers) is left out of both timings and reported on a line of its own.
"""

from __future__ import annotations

import argparse
import gc
import math
import statistics
import sys
import time

from shared.draws import Stream
from shared.formation import basic_setup
from shared.model import Flick, Position, Puck
from shared.physics import build_space, rested_position, simulate
from shared.rulesets import Settings, make_settings
from sprtec.commands import add_setting_argument, parse_settings

HELP = "Median CPU time of simulate() per move against a bare pymunk loop of the same steps."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--moves, --repeat, --seed and --setting overrides."""
    parser.add_argument("--moves", type=int, default=12, help="how many moves of the fixed set (default 12)")
    parser.add_argument("--repeat", type=int, default=7, help="repeats per move; medians are reported (default 7)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the deterministic move set")
    add_setting_argument(parser, "a settings override")


def bench_moves(count: int, settings: Settings, seed: int = 2024) -> list[tuple[Position, Flick]]:
    """``count`` realistic moves: hard flicks at the puck by alternating teams, from the basic setup and
    then from each previous move's position at rest (so later ones are mid-game positions)."""
    stream = Stream(seed, "bench-physics")
    position = Position(seed=seed, stones=basic_setup(), puck=Puck(0.0, 0.0))
    moves: list[tuple[Position, Flick]] = []
    for k in range(count):
        team = "home" if k % 2 == 0 else "away"
        flick = aimed_flick(position, team, stream, settings)
        moves.append((position, flick))
        position = rested_position(position, simulate(position, flick, settings))
    return moves


def aimed_flick(position: Position, team: str, stream: Stream, settings: Settings) -> Flick:
    """A flick by one of ``team``'s stones roughly at the puck (±0.25 rad), at 40-100 % of the top speed."""
    stones = [s for s in position.stones if s.team == team]
    stone = stream.choice(stones)
    angle = math.atan2(position.puck.y - stone.y, position.puck.x - stone.x) + stream.uniform(-0.25, 0.25)
    speed = settings.flick_speed_max * stream.uniform(0.4, 1.0)
    return Flick(team, stone.id, speed * math.cos(angle), speed * math.sin(angle))  # type: ignore[arg-type]


def _time_project(position: Position, flick: Flick, settings: Settings) -> tuple[float, float, int]:
    """CPU seconds of one simulate() and of tearing down what it left, and the steps it took."""
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        record = simulate(position, flick, settings)
        seconds = time.process_time() - start
        start = time.process_time()
        gc.collect()  # the move's space is freed by the collector (pymunk keeps cycles), so this is its teardown
        teardown = time.process_time() - start
    finally:
        gc.enable()
    return seconds, teardown, record.steps


def _time_bare(position: Position, flick: Flick, settings: Settings, steps: int) -> tuple[float, float]:
    """CPU seconds of building the same space without sensors or handlers and stepping it ``steps`` times,
    and of tearing it down."""
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        space = build_space(position, flick, settings, sensors=False).space
        dt = 1.0 / settings.step_hz
        step = space.step
        for _ in range(steps):
            step(dt)
        seconds = time.process_time() - start
        start = time.process_time()
        del step, space
        gc.collect()
        teardown = time.process_time() - start
    finally:
        gc.enable()
    return seconds, teardown


def _time_idle_collect() -> float:
    """CPU seconds of a collection with nothing of ours to free (subtracted from the teardown figures)."""
    gc.collect()
    start = time.process_time()
    gc.collect()
    return time.process_time() - start


def run(args: argparse.Namespace) -> int:
    """Print one row per move, the teardown line and the overall ratio line (exit 2 for a bad --setting)."""
    try:
        settings = make_settings("standard", parse_settings(args.setting))
    except ValueError as problem:
        print(f"sprtec bench physics: {problem}", file=sys.stderr)
        return 2
    moves = bench_moves(args.moves, settings, args.seed)
    print(f"sprtec bench physics: {len(moves)} moves x {args.repeat} repeats, step 1/{settings.step_hz} s")
    print("both sides build a fresh space (same bodies, walls, goals, friction joints) and take the same steps; "
          "the bare side has no sensors, handlers, keyframes, rest checks or effects; GC paused while timed;\n"
          "the bare side steps with pymunk's Space.step, the project calls Chipmunk's cpSpaceStep directly "
          "(the same C call without pymunk's per-step bookkeeping)")
    print(f"{'move':>4} {'bodies':>6} {'steps':>6} {'sim ms':>7} {'move ms':>8} {'bare ms':>8} {'ratio':>6} "
          f"{'speed-up':>9} {'bare speed-up':>13}")
    total_project = total_bare = total_sim = 0.0
    teardown_project, teardown_bare, idle = [], [], []
    for k, (position, flick) in enumerate(moves):
        project, bare = [], []
        steps = 0
        for _ in range(args.repeat):  # interleaved, so drifts in machine load hit both alike
            seconds, teardown, steps = _time_project(position, flick, settings)
            project.append(seconds)
            teardown_project.append(teardown)
            seconds, teardown = _time_bare(position, flick, settings, steps)
            bare.append(seconds)
            teardown_bare.append(teardown)
            idle.append(_time_idle_collect())
        p, b = statistics.median(project), statistics.median(bare)
        sim = steps / settings.step_hz
        total_project, total_bare, total_sim = total_project + p, total_bare + b, total_sim + sim
        bodies = len(position.stones) + 1  # and the puck
        print(f"{k:>4} {bodies:>6} {steps:>6} {sim * 1000:>7.0f} {p * 1000:>8.2f} {b * 1000:>8.2f} "
              f"{p / b:>6.2f} {sim / p:>8.0f}x {sim / b:>12.0f}x")
    print(f"total: move {total_project * 1000:.1f} ms, bare {total_bare * 1000:.1f} ms "
          f"for {total_sim:.2f} s simulated; "
          f"speed-up {total_sim / total_project:.0f}x vs {total_sim / total_bare:.0f}x")
    base = statistics.median(idle)
    print(f"teardown per move (not in the ratio): move {(statistics.median(teardown_project) - base) * 1000:.2f} ms, "
          f"bare {(statistics.median(teardown_bare) - base) * 1000:.2f} ms (over an idle collection of "
          f"{base * 1000:.2f} ms)")
    ratio = total_project / total_bare
    verdict = "within" if ratio <= 1.25 else "ABOVE"
    print(f"ratio move/bare = {ratio:.3f} ({verdict} the 1.25x target)")
    return 0
