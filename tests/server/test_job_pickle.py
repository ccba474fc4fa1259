"""A physics worker's job and result cross pickled by ``server.rooms.job_pickle``: equal on arrival, slots dataclasses
rebuilt without their Python ``__setstate__``, classes with pickling of their own left to it."""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest

from server.rooms import job_pickle
from server.rooms.resolve import Stamp, resolve
from shared import match as rules
from shared import match_log
from shared.match_log import LogEntry
from shared.model import Flick, Position, Stone
from shared.outcome import RuleError
from shared.rulesets import make_settings


@dataclass(frozen=True, slots=True)
class Pinned:
    """A slots dataclass that pickles itself: its own state, not its fields."""

    value: int

    def __getstate__(self) -> tuple[str, int]:
        return ("pinned", self.value)

    def __setstate__(self, state: tuple[str, int]) -> None:
        object.__setattr__(self, "value", state[1] + 1000)


@dataclass(frozen=True, slots=True)
class Derived:
    """A field left out of ``__init__`` (so the class cannot be rebuilt by calling it)."""

    base: int
    twice: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "twice", 2 * self.base)


@dataclass(frozen=True, slots=True)
class Failure(Exception):
    """A slots dataclass that is an exception, as a refused job sends one back."""

    reason: str


def _job() -> tuple[Any, tuple[Position, LogEntry, Stamp]]:
    """A real worker job: the first flick of a new match, with the room's stamp."""
    position = match_log.new_match("standard", {}, 7)
    team = position.to_move
    stone = position.stone(rules.legal_stones(position, team)[0])
    assert stone is not None
    entry = LogEntry(index=0, elapsed_ms=1500, input=Flick(team, stone.id, 1400.0, 35.0))
    stamp = Stamp(code="ROOM", match_id="m", version=2, team=team, turn_used=0, absent=False,
                  settings=make_settings("standard", {}))
    return resolve, (position, entry, stamp)


def test_a_job_and_its_result_arrive_equal_to_what_was_sent() -> None:
    job = _job()
    result = (True, resolve(*job[1]))
    assert job_pickle.loads(job_pickle.dumps(job)) == job
    assert job_pickle.loads(job_pickle.dumps(result)) == result
    assert job_pickle.loads(job_pickle.dumps(result)) == pickle.loads(pickle.dumps(result))


def test_slots_dataclasses_are_rebuilt_without_their_python_setstate(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: object, state: object) -> None:
        raise AssertionError(f"{type(self).__name__}.__setstate__ was called")

    for cls in (Stone, Position, Stamp, LogEntry):  # by __init__ (Stone) and by ``rebuild`` (keyword-only fields)
        monkeypatch.setattr(cls, "__setstate__", refuse)
    job = _job()
    assert job_pickle.loads(job_pickle.dumps(job)) == job
    with pytest.raises(AssertionError, match="__setstate__ was called"):
        pickle.loads(pickle.dumps(job))  # the usual way calls it: the check above can fail


def test_a_class_with_pickling_of_its_own_is_pickled_as_it_says() -> None:
    assert job_pickle.loads(job_pickle.dumps(Pinned(1))) == Pinned(1001)


def test_a_field_left_out_of_init_keeps_its_value_and_post_init_is_not_run_again() -> None:
    derived = Derived(4)
    object.__setattr__(derived, "twice", 9)  # state __post_init__ would not give: the pickle must keep it
    copy = job_pickle.loads(job_pickle.dumps(derived))
    assert (copy.base, copy.twice) == (4, 9)


def test_exceptions_sent_back_by_a_refused_job_arrive() -> None:
    ok, error = job_pickle.loads(job_pickle.dumps((False, Failure("no"))))
    assert not ok and isinstance(error, Failure) and error.reason == "no"
    assert job_pickle.loads(job_pickle.dumps(RuleError("NOT_YOUR_TURN", "wait"))) == RuleError("NOT_YOUR_TURN", "wait")
