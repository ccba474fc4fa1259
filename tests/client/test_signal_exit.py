"""SIGTERM ends ``sprtec play`` and ``sprtec organise`` even when it arrives inside a finalizer: Python runs a signal
handler between bytecodes, also in a ``__del__`` or a weakref's callback, which swallow what it raises ("Exception
ignored in ..."); the client then ran on with its bot and private server, the desk with its LAN server (the real
window tests met both). While the window's loop runs, each handler asks it to end and raises nothing; before it
runs, the handler raises."""

from __future__ import annotations

import signal
import sys
import types
from collections.abc import Callable

import pytest

from sprtec.commands import organise, play


class _Loop(types.ModuleType):
    """A stand-in for ``pyglet.app``: remembers that the loop was asked to end."""

    def __init__(self) -> None:
        """Running, not asked yet."""
        super().__init__("pyglet.app")
        self.asked = 0
        self.event_loop = types.SimpleNamespace(is_running=True)

    def exit(self) -> None:
        """The loop is asked to end."""
        self.asked += 1


class _Finalized:
    """An object whose finalizer runs the signal handler, as a signal arriving during it would."""

    def __init__(self, handler: Callable[[int, object], None]) -> None:
        """Run ``handler`` when collected."""
        self.handler = handler

    def __del__(self) -> None:
        """The signal lands here."""
        self.handler(signal.SIGTERM, None)


@pytest.mark.parametrize("handler", [play.leave_on_signal, organise.leave_on_signal])
def test_a_signal_in_a_finalizer_ends_the_window_loop_and_nothing_is_swallowed(
        handler: Callable[[int, object], None], monkeypatch: pytest.MonkeyPatch) -> None:
    """In a finalizer the loop is asked to end and nothing is raised (nothing for Python to print as ignored);
    before the loop runs, the handler raises to end the command."""
    loop = _Loop()
    monkeypatch.setitem(sys.modules, "pyglet.app", loop)
    ignored: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", ignored.append)
    finalized = _Finalized(handler)
    del finalized
    assert loop.asked == 1 and ignored == []
    loop.event_loop.is_running = False
    with pytest.raises((SystemExit, organise.Stopped)):
        handler(signal.SIGTERM, None)
    assert loop.asked == 1
