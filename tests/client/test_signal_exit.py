"""SIGTERM ends ``sprtec play`` and ``sprtec organise`` even when it arrives inside a finalizer: Python runs a signal
handler between bytecodes, also in a ``__del__`` or a weakref's callback, which swallow what it raises ("Exception
ignored in ..."); the client then ran on with its bot and private server, the desk with its LAN server (the real
window tests met both). Each handler asks the window's loop to end before it raises."""

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
        """Not asked yet."""
        super().__init__("pyglet.app")
        self.asked = 0

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
def test_a_signal_swallowed_by_a_finalizer_still_ends_the_window_loop(
        handler: Callable[[int, object], None], monkeypatch: pytest.MonkeyPatch) -> None:
    """The raise is lost in the finalizer, the loop's end is not; outside one, the raise ends the command too."""
    loop = _Loop()
    monkeypatch.setitem(sys.modules, "pyglet.app", loop)
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: None)  # "Exception ignored in ...", on purpose
    finalized = _Finalized(handler)
    del finalized
    assert loop.asked == 1
    with pytest.raises((SystemExit, organise.Stopped)):
        handler(signal.SIGTERM, None)
    assert loop.asked == 2
