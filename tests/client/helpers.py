"""Small builders shared by the client tests: move records with hand-written keyframes, basic positions, and a
real ``sprtec serve`` process for the live tests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from client.player.practice import ServerProcess
from shared.events import Intervention, MoveRecord
from shared.formation import basic_setup
from shared.model import Position
from shared.protocol.trajectory import Trajectory


def record(bodies: tuple[str, ...], frames: list[list[tuple[int, int, int, int]]],
           interventions: tuple[Intervention, ...] = ()) -> Trajectory:
    """A 60 Hz trajectory whose frames are ``frames`` (per frame, one (x, y, angle, state) per body, wire units)."""
    keyframes = tuple(tuple(v for body in frame for v in body) for frame in frames)
    record = MoveRecord(bodies=bodies, events=(), steps=8 * (len(frames) - 1), step_hz=480, frame_steps=8,
                        keyframes=keyframes, final=(), interventions=interventions)
    return Trajectory.from_record(record)


def basic_position(**changes: Any) -> Position:
    """The basic setup of a fresh match, with field overrides."""
    return Position(stones=basic_setup(-1), **changes)


@contextmanager
def served(data: Path, workers: int | None) -> Iterator[str]:
    """``sprtec serve --port 0`` with its data in ``data``; yields its URL and stops it by pid afterwards."""
    server = ServerProcess(data, workers=workers)
    server.start()
    try:
        url = server.wait(60)
        assert url is not None, server.error
        yield url
    finally:
        server.stop()


@contextmanager
def server_in_process(data: Path) -> Iterator[str]:
    """A real server (physics in-line) on a free loopback port, on an event-loop thread of its own; yields its URL
    and shuts it down afterwards."""
    import asyncio
    import threading

    from server.app import Server, ServerConfig

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    server = Server(ServerConfig(port=0, data_dir=data, workers=0))
    try:
        port = asyncio.run_coroutine_threadsafe(server.start(), loop).result(10)
        yield f"ws://127.0.0.1:{port}/"
    finally:
        asyncio.run_coroutine_threadsafe(server.shutdown(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
