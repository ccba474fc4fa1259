"""``sprtec bench physics``: what a move costs against a bare pymunk loop of the same steps, in the same run.

Why: the project's budget is that simulating a move (handlers, region sensors, keyframes, the D4 rest check,
the referee's settling) costs at most 1.25x a bare loop that steps the same space (same bodies, walls, goals,
friction joints and step) the same number of times with nothing else. Every figure is measured in the same run,
interleaved per sample, on a fixed, deterministic set of realistic moves (flicks from the basic setup, then
mid-game positions reached by chaining them), and medians are compared, because this shared machine is noisy.

Like with like: both sides step with Chipmunk's ``cpSpaceStep`` (the call ``simulate`` makes; pymunk's
``Space.step`` adds ~1.3 us of Python per step) and fill their space the same way. ``simulate`` reuses one
space per thread, emptied and reset between moves (``shared.physics._World``), so the ratio that counts compares
it with the bare loop in a reused space too; the same pair with a space built for each sample shows what reuse
saves on both sides. The cyclic garbage collector is paused while a sample is timed and run between samples; what
freeing a space built for one sample costs (pymunk's finalisers) is reported on a line of its own.

The heap as a physics worker has it: a worker freezes everything made by its start and warm-up out of the collector
(``server.rooms.workers._serve``), so its collections walk only what its jobs made since. This bench does the same
once its moves are built, so the collection before a sample frees the last sample's space without walking the whole
process. Walking all of it before every sample (as this bench did before) evicts the move's Python from the caches
more than the bare loop's C; a second pass measures the pair so, printed on a line of its own for comparison (a
pass of its own: a walk before one sample leaves the caches cold for the samples after it too).
"""

from __future__ import annotations

import argparse
import gc
import math
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from shared.draws import Stream
from shared.formation import basic_setup
from shared.model import Flick, Position, Puck
from shared.physics import bare_loop, rested_position, simulate
from shared.rulesets import Settings, make_settings
from sprtec.commands import add_setting_argument, parse_settings

HELP = "Median CPU time of simulate() per move against a bare pymunk loop of the same steps."
TARGET = 1.25  # the move may cost this many times the bare loop
SIDES = ("move", "bare", "move fresh", "bare fresh")  # the four timings of every sample, in the order taken


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


def timed(work: Callable[[], object], walk_heap: bool = False) -> tuple[float, float]:
    """CPU seconds of ``work()`` with the cyclic collector paused, and of the collection that frees what it left.

    Before it, a collection of what is not frozen; ``walk_heap``: of the whole heap, frozen again after it."""
    if walk_heap:
        gc.unfreeze()
        gc.collect()
        gc.freeze()
    else:
        gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        work()
        seconds = time.process_time() - start
        start = time.process_time()
        gc.collect()  # a space built for the sample is freed by the collector (pymunk keeps cycles)
        teardown = time.process_time() - start
    finally:
        gc.enable()
    return seconds, teardown


def idle_collect() -> float:
    """CPU seconds of a collection with nothing of ours to free (subtracted from the teardown figures)."""
    gc.collect()
    start = time.process_time()
    gc.collect()
    return time.process_time() - start


@dataclass
class Samples:
    """Per side (``SIDES``) the CPU seconds of each sample of one move, and the teardown of each."""

    seconds: dict[str, list[float]]
    teardown: dict[str, list[float]]

    def median(self, side: str) -> float:
        """The median CPU seconds of ``side``."""
        return statistics.median(self.seconds[side])


def sample_move(position: Position, flick: Flick, settings: Settings, repeat: int, idle: list[float],
                walk_heap: bool = False) -> Samples:
    """``repeat`` rounds of the four sides of one move, interleaved so drifts in machine load hit all alike
    (``walk_heap``: the whole heap collected before each sample, ``timed``)."""
    steps = simulate(position, flick, settings).steps
    work: dict[str, Callable[[], object]] = {
        "move": lambda: simulate(position, flick, settings),
        "bare": lambda: bare_loop(position, flick, settings, steps),
        "move fresh": lambda: simulate(position, flick, settings, reuse=False),
        "bare fresh": lambda: bare_loop(position, flick, settings, steps, reuse=False),
    }
    samples = Samples({side: [] for side in SIDES}, {side: [] for side in SIDES})
    for _ in range(repeat):
        for side in SIDES:
            seconds, teardown = timed(work[side], walk_heap)
            samples.seconds[side].append(seconds)
            samples.teardown[side].append(teardown)
        idle.append(idle_collect())
    return samples


def run(args: argparse.Namespace) -> int:
    """Print one row per move, the totals, the teardown line and the ratio lines (exit 2 for a bad --setting)."""
    try:
        settings = make_settings("standard", parse_settings(args.setting))
    except ValueError as problem:
        print(f"sprtec bench physics: {problem}", file=sys.stderr)
        return 2
    moves = bench_moves(args.moves, settings, args.seed)
    gc.collect()
    gc.freeze()  # the heap as a warmed-up physics worker has it (the module docstring)
    try:
        _measure(args, settings, moves)
    finally:
        gc.unfreeze()
    return 0


def _measure(args: argparse.Namespace, settings: Settings, moves: list[tuple[Position, Flick]]) -> None:
    """The rows and the summary, then the pass that walks the whole heap before each sample."""
    print(f"sprtec bench physics: {len(moves)} moves x {args.repeat} repeats, step 1/{settings.step_hz} s")
    print("both sides step with Chipmunk's cpSpaceStep (the call simulate makes) and fill their space the same way;\n"
          "the bare side has the same bodies, walls, goals and friction joints and takes the same steps, with no\n"
          "sensors, handlers, keyframes, rest checks or effects. move/bare: simulate's reused space (emptied and\n"
          "reset between moves) against the bare loop in a reused space; fresh: both in a space built per sample.\n"
          "CPU medians in ms; GC paused while timed, the heap made before the samples frozen out of it")
    print(f"{'move':>4} {'bodies':>6} {'steps':>6} {'sim ms':>7} {'move':>7} {'bare':>7} {'ratio':>6} "
          f"{'move fresh':>10} {'bare fresh':>10} {'ratio':>6} {'speed-up':>9}")
    totals = dict.fromkeys(SIDES, 0.0)
    total_sim = 0.0
    teardown: dict[str, list[float]] = {side: [] for side in SIDES}
    idle: list[float] = []
    for k, (position, flick) in enumerate(moves):
        samples = sample_move(position, flick, settings, args.repeat, idle)
        medians = {side: samples.median(side) for side in SIDES}
        for side in SIDES:
            totals[side] += medians[side]
            teardown[side] += samples.teardown[side]
        sim = simulate(position, flick, settings).steps / settings.step_hz
        total_sim += sim
        m, b, mf, bf = (medians[side] * 1000 for side in SIDES)
        print(f"{k:>4} {len(position.stones) + 1:>6} {round(sim * settings.step_hz):>6} {sim * 1000:>7.0f} "
              f"{m:>7.2f} {b:>7.2f} {m / b:>6.2f} {mf:>10.2f} {bf:>10.2f} {mf / bf:>6.2f} {sim * 1000 / m:>8.0f}x")
    _summary(totals, len(moves), total_sim, teardown, statistics.median(idle))
    walked = {side: 0.0 for side in ("move", "bare")}
    for position, flick in moves:
        samples = sample_move(position, flick, settings, args.repeat, [], walk_heap=True)
        for side in walked:
            walked[side] += samples.median(side)
    print(f"for comparison, a second pass collecting the whole heap before every sample (no worker does that): "
          f"move/bare = {walked['move'] / walked['bare']:.3f} (bare {walked['bare'] * 1000:.1f} ms)")


def _summary(
    totals: dict[str, float], moves: int, simulated: float, teardown: dict[str, list[float]], idle: float
) -> None:
    """The totals, what reuse saves, the teardown of a fresh space and the two ratios against the target."""
    ms = {side: totals[side] * 1000 for side in SIDES}
    print(f"total for {simulated:.2f} s simulated: move {ms['move']:.1f} ms, bare {ms['bare']:.1f} ms; "
          f"fresh spaces: move {ms['move fresh']:.1f} ms, bare {ms['bare fresh']:.1f} ms; "
          f"speed-up {simulated / totals['move']:.0f}x")
    saved = 1 - totals["move"] / totals["move fresh"]
    print(f"space reuse: a move costs {ms['move'] / moves:.2f} ms on average against {ms['move fresh'] / moves:.2f} ms "
          f"in a space built for it ({100 * saved:.0f} % less), before that space's teardown below")
    fresh_teardown = statistics.median(teardown["move fresh"]) - idle
    print(f"teardown of a space built per move (not in the ratios): "
          f"{fresh_teardown * 1000:.2f} ms (over an idle collection of {idle * 1000:.2f} ms); a reused space: none")
    for label, move, bare in (("move/bare", "move", "bare"), ("fresh move/bare", "move fresh", "bare fresh")):
        ratio = totals[move] / totals[bare]
        verdict = "within" if ratio <= TARGET else "ABOVE"
        print(f"ratio {label} = {ratio:.3f} ({verdict} the {TARGET}x target), both with cpSpaceStep")
