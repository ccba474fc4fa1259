"""The tournament log's events round-trip through their stored JSON, and the fold refuses what the engine refuses."""

from __future__ import annotations

import json

import pytest

from server.tournaments.log import (
    AutoStartSet,
    BoardsSet,
    CardGiven,
    CheckedIn,
    Claimed,
    CorrectionAgreed,
    CorrectionProposed,
    Created,
    DisputeFiled,
    DisputeRuled,
    Ended,
    EntryAdded,
    Event,
    Outcome,
    RefereesAssigned,
    RefereeSet,
    ResultEntered,
    ResultSet,
    RoundStarted,
    Row,
    TableOpened,
    Withdrawn,
    from_json,
    to_json,
)
from server.tournaments.results import no_show_winner, outcome_of
from server.tournaments.state import apply, start
from shared.tournament.errors import TournamentError
from shared.tournament.model import Player
from shared.tournament.pairing import PairedMatch, Pairing, Unpaired

EVENTS: list[Event] = [
    Created(file={"name": "x", "players": [{"id": "a", "name": "A"}]}, no_show_ms=1000, next_round_after_ms=5,
            code_hashes={"a": "ff"}),
    EntryAdded(player=Player(id="b", name="Bé", club="SK", rating=1500, category="men"), code_hash="ab"),
    Claimed(entry="b", player_id=7, name="bob", rating=1612),
    CheckedIn(entry="b"),
    Withdrawn(entry="b", stage=0, after_round=2, reason="ill"),
    RoundStarted(stage=1, round=2, absent=("c",), pairing=Pairing(
        stage=1, round=2, matches=(PairedMatch(table=1, home="a", away="b", walkover=None, kind="final",
                                               ruleset="final"),),
        byes=("d",), not_paired=(Unpaired(player="c", why="absent"),))),
    TableOpened(stage=0, round=1, table=2, room="K7QZAM", match_id="0123456789ab"),
    ResultSet(stage=0, round=1, table=2, outcome=Outcome(score=(2, 2), shootout="away"), source="match",
              match_id="0123456789ab"),
    ResultSet(stage=0, round=1, table=1, outcome=Outcome(walkover="home"), source="no_show", reason="late"),
    CardGiven(stage=0, round=1, entry="a", card="yellow", reason="stalling"),
    AutoStartSet(after_ms=None),
    DisputeFiled(case=1, stage=0, round=1, table=1, by="a", reason="why"),
    DisputeRuled(case=1, ruling="changed", reason="video", outcome=Outcome(score=(1, 0))),
    DisputeRuled(case=2, ruling="replay", reason="again"),
    CorrectionProposed(case=3, stage=0, round=1, table=1, by="b", replay=False, outcome=Outcome(score=(0, 3))),
    CorrectionAgreed(case=3, by="a"),
    Created(file={"name": "x"}, no_show_ms=1000, on_boards=True),
    BoardsSet(on_board=True),
    BoardsSet(on_board=False, stage=1, reason="the final online"),
    BoardsSet(on_board=True, stage=0, round=2, table=4),
    ResultEntered(stage=0, round=2, table=4, by="a", outcome=Outcome(score=(3, 1))),
    ResultSet(stage=0, round=2, table=4, outcome=Outcome(score=(3, 1)), source="board"),
    RefereesAssigned(stage=0, round=2, boards=((1, "c"), (4, "d"))),
    RefereeSet(stage=0, round=2, table=4, referee="e", agreed=True, reason="both agree"),
    RefereeSet(stage=0, round=2, table=4, referee=None),
    Ended(reason="closing"),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: type(e).__name__)
def test_every_event_round_trips_through_its_stored_json(event: Event) -> None:
    """to_json, then the JSON text the store keeps, then from_json gives the same event."""
    kind, body = to_json(event)
    assert from_json(kind, json.loads(json.dumps(body))) == event


def test_an_unknown_event_kind_is_refused() -> None:
    """A kind this program does not know is a ValueError, not a silent skip."""
    with pytest.raises(ValueError, match="unknown tournament event"):
        from_json("renamed", {})


def _created() -> Row:
    """The first row of a two-player tournament."""
    file = {"name": "t", "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]}
    return Row(index=0, at_ms=1, actor="organiser", event=Created(file=file, no_show_ms=1000))


def test_the_fold_refuses_what_the_engine_refuses_and_keeps_the_old_state() -> None:
    """A result for a round that was never paired raises the contract's BAD_RESULT; the state given is unchanged."""
    state = start("T", _created())
    bad = Row(index=1, at_ms=2, actor="organiser",
              event=ResultSet(stage=0, round=1, table=1, outcome=Outcome(score=(1, 0)), source="override"))
    with pytest.raises(TournamentError) as refused:
        apply(state, bad)
    assert refused.value.code == "BAD_RESULT"
    assert state.version == 1 and not state.tournament.results


def test_a_log_must_begin_with_its_creation() -> None:
    """A log whose first event is not Created is BAD_FORMAT."""
    with pytest.raises(TournamentError):
        start("T", Row(index=0, at_ms=1, actor="server", event=CheckedIn(entry="a")))


def test_a_forfeit_is_a_walkover_and_a_shootout_decides_only_a_knockout_draw() -> None:
    """FORFEIT_DISCONNECTED and RESIGNED are walkovers for the winner; a drawn knockout match names the shoot-out's
    winner and keeps its score; outside a knockout the draw stands; the score of a decided match is its result."""
    assert outcome_of(score=(3, 1), winner="away", reason="FORFEIT_DISCONNECTED", knockout=False) == \
        Outcome(walkover="away")
    assert outcome_of(score=(0, 2), winner="home", reason="RESIGNED", knockout=True) == Outcome(walkover="home")
    assert outcome_of(score=(2, 2), winner="away", reason="SHOOTOUT", knockout=True) == \
        Outcome(score=(2, 2), shootout="away")
    assert outcome_of(score=(2, 2), winner="away", reason="SHOOTOUT", knockout=False) == Outcome(score=(2, 2))
    assert outcome_of(score=(4, 1), winner="home", reason="TIME", knockout=False) == Outcome(score=(4, 1))


def test_a_no_show_goes_to_the_coach_who_came_else_to_home() -> None:
    """The coach present wins the walkover; with nobody (or both, a match that never started) home wins."""
    assert no_show_winner(("away",)) == "away"
    assert no_show_winner(("home",)) == "home"
    assert no_show_winner(()) == "home"


def test_the_protocol_passes_every_code_of_the_engine_through() -> None:
    """Each TOURNAMENT.md error code is an Error code of the protocol, with its meaning in docs/PROTOCOL.md."""
    from shared.protocol.errors import PROTOCOL_ERROR_CODES, TOURNAMENT_ERRORS
    from shared.tournament.errors import ERROR_CODES

    assert tuple(TOURNAMENT_ERRORS) == ERROR_CODES
    assert all(code in PROTOCOL_ERROR_CODES for code in ERROR_CODES)
