"""``sprtec bench client``: the arcade client's costs — the frame time while a move plays back, and the CPU the menu
takes while nobody touches it — measured headless (as CI and a laptop without a GPU render: in software).

Why these two: a move's playback is the busiest picture (every body moving, the HUD, the move list), and it must
stay smooth on software rendering (the target is 8 ms a frame); a menu left open must cost next to nothing (it
took 35-100 % of a core before the window learnt to redraw only on change, ``client.common.window``). Prints medians.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

HELP = "client benchmarks: frame time during a playback, and the idle CPU of the menu (headless, medians)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--frames, --idle-seconds, --runs, --size."""
    parser.add_argument("--frames", type=int, default=240, help="frames of playback to time (default 240)")
    parser.add_argument("--idle-seconds", type=float, default=3.0, help="seconds of each idle-menu run")
    parser.add_argument("--runs", type=int, default=3, help="idle-menu runs (their median is printed)")
    parser.add_argument("--size", default="1280x760", help="window size, WIDTHxHEIGHT")


def _playback_state(now: float):  # type: ignore[no-untyped-def]
    """A real match after a few moves with one more, a hard flick, queued to play back from ``now``."""
    from client.match import samples
    from shared.match import apply_action
    from shared.protocol.trajectory import Trajectory

    state = samples.match_state(moves=10)
    position = state.position
    assert position is not None
    flick = samples.toward_puck(position, position.to_move, speed=2900.0)
    assert flick is not None
    result = apply_action(position, flick)
    record = Trajectory.from_record(result.record) if result.record is not None else None
    state.add_move(record, result.decisions, result.position, state.version + 1, now, team=position.to_move,
                   action=flick)
    return state


def frame_times(window, frames: int) -> list[float]:  # type: ignore[no-untyped-def]
    """Milliseconds per frame (update, draw, and the GPU's finish) while moves play back, ``frames`` of them."""
    from client.match.match_view import MatchView

    now = [1000.0]
    state = _playback_state(now[0])
    view = MatchView(state, clock=lambda: now[0])
    window.show_view(view)
    times = []
    for _ in range(frames):
        if not state.busy:  # the move ended: play another one
            state = _playback_state(now[0])
            view.state = state
        now[0] += 1 / 60
        started = time.perf_counter()
        view.on_update(1 / 60)
        window.clear()
        view.on_draw()
        window.ctx.finish()
        times.append((time.perf_counter() - started) * 1000)
    return times


def idle_cpu(window, seconds: float) -> tuple[float, int, int]:  # type: ignore[no-untyped-def]
    """The share of one core the lobby menu takes over ``seconds`` of the real event loop, untouched; and the
    frames drawn and skipped. (pyglet's own loop, as ``arcade.run`` runs it with a screen: headless, arcade.run
    spins a loop of its own that never sleeps.)"""
    import pyglet

    from client.common.menu_view import LobbyView
    from client.player.lobby_model import LobbyModel

    model = LobbyModel(practice=True)
    model.status = "Benchmark — idle menu"
    window.show_view(LobbyView(model, lambda request: None))
    drawn, skipped = window.drawn, window.skipped
    pyglet.clock.schedule_once(lambda dt: pyglet.app.exit(), seconds)
    wall, cpu = time.perf_counter(), time.process_time()
    pyglet.app.run(None)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return 100.0 * cpu / wall, window.drawn - drawn, window.skipped - skipped


def run(args: argparse.Namespace) -> int:
    """Time the playback frames, then the idle menu; print the medians."""
    os.environ.setdefault("ARCADE_HEADLESS", "1")
    width, height = (int(v) for v in args.size.lower().split("x"))
    from client.common import window as app

    window = app.open_window("sprtec bench client", screenshot=None, size=(width, height))
    try:
        renderer = window.ctx.info.RENDERER
        times = frame_times(window, args.frames)
        samples = window.ctx.info.SAMPLES if hasattr(window.ctx.info, "SAMPLES") else "?"
        print(f"renderer: {renderer}, window {width}x{height}, samples {samples}")
        print(f"playback frame: median {statistics.median(times):.2f} ms, p90 "
              f"{statistics.quantiles(times, n=10)[-1]:.2f} ms over {len(times)} frames (target 8 ms)")
        runs = [idle_cpu(window, args.idle_seconds) for _ in range(args.runs)]
        cpu = statistics.median(r[0] for r in runs)
        print(f"idle menu: median {cpu:.1f} % of one core over {args.runs} runs of {args.idle_seconds:g} s "
              f"(frames drawn {runs[-1][1]}, skipped {runs[-1][2]} in the last)")
    finally:
        window.close()
    return 0
