"""The protocol's Act carries coach actions only: a client can never send a clock event (elapse, timeout, forfeit).

Why a test: the server logs and applies those events itself from its clocks and connections; if an Act could
carry one, a coach could end periods, pass the opponent's turn or make him forfeit.
"""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from shared.model import Elapse, Forfeit, Timeout
from shared.protocol import CLIENT_MESSAGES, MAX_CLIENT_FRAME, Act, ProtocolError, decode, encode

CLOCK_EVENTS = [
    {"action": "elapse", "ms": 60_000},
    {"team": "away", "action": "timeout"},
    {"team": "away", "action": "timeout", "kind": "setup"},
    {"team": "away", "action": "forfeit", "reason": "FORFEIT_DISCONNECTED"},
    {"team": "home", "action": "forfeit", "reason": "RESIGNED"},
]


@pytest.mark.parametrize("event", CLOCK_EVENTS, ids=[str(e) for e in CLOCK_EVENTS])
def test_an_act_carrying_a_clock_event_is_refused_as_a_bad_message(event: dict[str, object]) -> None:
    """The server's decode of Act refuses every clock event with BAD_MESSAGE naming Act.action."""
    frame = msgpack.packb({"t": "Act", "version": 3, "action": event}, use_bin_type=True)
    with pytest.raises(ProtocolError) as info:
        decode(frame, CLIENT_MESSAGES, MAX_CLIENT_FRAME)
    assert info.value.code == "BAD_MESSAGE" and "action" in info.value.message


@pytest.mark.parametrize("event", [Elapse(1000), Timeout("home"), Forfeit("away")], ids=repr)
def test_an_act_holding_a_clock_event_cannot_be_encoded(event: Any) -> None:  # deliberately not an Action
    """Nor can any peer write one: encoding an Act around a clock event fails instead of sending it."""
    with pytest.raises((ProtocolError, TypeError)):
        encode(Act(event, 0))
