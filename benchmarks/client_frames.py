"""``sprtec bench client``: the arcade client's costs — the frame time while a move plays back, and the CPU the menu
takes while nobody touches it — measured headless (as CI and a laptop without a GPU render: in software).

Why these two: a move's playback is the busiest picture (every body moving, the HUD, the move list), and it must
stay smooth on software rendering (the target is 8 ms a frame); a menu left open must cost next to nothing (it
took 35-100 % of a core before the window learnt to redraw only on change and, once still, to tick only a few times
a second, ``client.common.window``). Prints medians, each beside its floor measured in the same run.
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


def frame_times(window, frames: int, floor: list[float] | None = None) -> list[float]:  # type: ignore
    """Milliseconds per frame (update, draw, and the GPU's finish) while moves play back, ``frames`` of them; with
    ``floor``, after each one the floor's frame too, into it: the window cleared and filled once with an opaque
    rectangle, the least a frame of the whole window costs on this GL under this load (measured between the real
    frames, so both see the same machine)."""
    import arcade

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
        view.on_draw()  # as the window's loop draws it (the view clears the screen itself)
        window.ctx.finish()
        times.append((time.perf_counter() - started) * 1000)
        if floor is not None:
            started = time.perf_counter()
            window.clear()
            arcade.draw_lrbt_rectangle_filled(0, window.width, 0, window.height, (20, 24, 30, 255))
            window.ctx.finish()
            floor.append((time.perf_counter() - started) * 1000)
    return times


IDLE_SETTLE_S = 1.5  # the menu shown and left alone this long before its idle cost is measured


def idle_cpu(window, seconds: float) -> tuple[float, int, int]:  # type: ignore[no-untyped-def]
    """The share of one core the lobby menu takes over ``seconds`` of the real event loop, untouched once it has
    settled (``IDLE_SETTLE_S``: drawn, then still - the window ticks slowly then); and the frames drawn and
    skipped. (pyglet's own loop, as ``arcade.run`` runs it with a screen: headless, arcade.run spins a loop of its
    own that never sleeps.)"""
    import pyglet

    from client.common.menu_view import LobbyView
    from client.player.lobby_model import LobbyModel

    model = LobbyModel(practice=True)
    model.status = "Benchmark — idle menu"
    window.show_view(LobbyView(model, lambda request: None))
    marks: list[tuple[float, float, int, int]] = []

    def mark(_dt: float) -> None:
        """The menu has settled (drawn, then still for IDLE_SETTLE_S): measure from here."""
        marks.append((time.perf_counter(), time.process_time(), window.drawn, window.skipped))

    pyglet.clock.schedule_once(mark, IDLE_SETTLE_S)
    pyglet.clock.schedule_once(lambda dt: pyglet.app.exit(), IDLE_SETTLE_S + seconds)
    pyglet.app.run(None)
    wall, cpu, drawn, skipped = marks[0]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return 100.0 * cpu / wall, window.drawn - drawn, window.skipped - skipped


def loop_floor(window, seconds: float) -> float:  # type: ignore[no-untyped-def]
    """The share of one core pyglet's event loop takes with nothing of the window's scheduled (its frames
    unscheduled for the while): the floor of an idle window on this machine, in the same run."""
    import pyglet

    pyglet.clock.unschedule(window._dispatch_frame)  # arcade's frame tick (set_update_rate schedules it again)
    pyglet.clock.schedule_once(lambda dt: pyglet.app.exit(), seconds)
    wall, cpu = time.perf_counter(), time.process_time()
    pyglet.app.run(None)
    share = 100.0 * (time.process_time() - cpu) / (time.perf_counter() - wall)
    window.set_update_rate(1 / 60)
    return share


def run(args: argparse.Namespace) -> int:
    """Time the playback frames, then the idle menu; print the medians."""
    os.environ.setdefault("ARCADE_HEADLESS", "1")
    width, height = (int(v) for v in args.size.lower().split("x"))
    from client.common import window as app

    window = app.open_window("sprtec bench client", screenshot=None, size=(width, height))
    try:
        renderer = window.ctx.info.RENDERER
        frame_times(window, 20)  # warm: textures, glyphs, shaders
        floor: list[float] = []
        times = frame_times(window, args.frames, floor)
        samples = window.ctx.info.SAMPLES if hasattr(window.ctx.info, "SAMPLES") else "?"
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"renderer: {renderer}, window {width}x{height}, samples {samples}, load {load:.1f} on "
              f"{os.cpu_count()} cores")
        median, bare = statistics.median(times), statistics.median(floor)
        print(f"playback frame: median {median:.2f} ms, p90 {statistics.quantiles(times, n=10)[-1]:.2f} ms over "
              f"{len(times)} frames (target 8 ms); floor (the window cleared and filled once) {bare:.2f} ms, "
              f"same run: {median / bare:.2f}x")
        runs = [idle_cpu(window, args.idle_seconds) for _ in range(args.runs)]
        cpu = statistics.median(r[0] for r in runs)
        floor_cpu = loop_floor(window, args.idle_seconds)
        print(f"idle menu: median {cpu:.2f} % of one core over {args.runs} runs of {args.idle_seconds:g} s "
              f"(frames drawn {runs[-1][1]}, ticks skipped {runs[-1][2]} in the last); floor (the event loop with "
              f"nothing scheduled) {floor_cpu:.2f} %, same run: {cpu - floor_cpu:+.2f} points above it")
    finally:
        window.close()
    return 0
