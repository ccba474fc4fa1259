"""An event applied once: ``events.advance`` checks only what the event changes, and its result is always what
following the changed file whole gives - the same course, or the same refusal (code and message)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.tournament.course import follow
from shared.tournament.errors import TournamentError
from shared.tournament.events import (
    AddPlayer,
    ApplyPairing,
    End,
    Event,
    GiveCard,
    MarkAbsent,
    RecordBye,
    RecordResult,
    TakeBack,
    Withdraw,
    advance,
)
from shared.tournament.model import Match, Player, Tournament
from shared.tournament.pairing import PairedMatch, Pairing, pair
from shared.tournament.progress import Course
from shared.tournament.reading import read_tournament
from shared.tournament.writing import to_json

STAGES: tuple[list[dict[str, Any]], ...] = (
    [{"system": "swiss", "rounds": 3}],
    [{"system": "round_robin"}],
    [{"system": "knockout", "third_place": True}],
    [{"system": "swiss", "rounds": 2, "advance": 4}, {"system": "knockout", "seeding": "rating"}],
    [{"system": "round_robin", "advance": 2}, {"system": "swiss", "rounds": 1}],
)


def _whole(t: Tournament, event: Event) -> Course:
    """The reference: the event made to the tournament's JSON, the file read back and followed whole."""
    d = to_json(t)
    if isinstance(event, MarkAbsent):
        d["absent"].append({"stage": event.stage, "round": event.round, "player": event.player})
    elif isinstance(event, Withdraw):
        d["withdrawn"].append({"stage": event.stage, "player": event.player, "after_round": event.after_round})
    elif isinstance(event, GiveCard):
        d["discipline"].append({"stage": event.stage, "round": event.round, "player": event.player,
                                "card": event.card, "reason": event.reason})
    elif isinstance(event, AddPlayer):
        p = event.player
        d["players"].append({"id": p.id, "name": p.name, "club": p.club, "rating": p.rating, "category": p.category,
                             "year_of_birth": p.year_of_birth, "sex": p.sex, "veteran": p.veteran})
    elif isinstance(event, End):
        d["ended"] = {"after_stage": event.after_stage, "after_round": event.after_round, "reason": event.reason}
    elif isinstance(event, ApplyPairing):
        _pairing_into(d, event.pairing)
    elif isinstance(event, TakeBack):
        _take_back_from(d, event)
    else:
        _entry_into(d, event)
    return follow(read_tournament(d))


def _take_back_from(d: dict[str, Any], event: TakeBack) -> None:
    """The last listed round, its cards and the absences named taken off the file."""
    key = (event.stage, event.round)
    listed = [(r["stage"], r["round"]) for r in d["results"]]
    if key not in listed:
        raise TournamentError("BAD_RESULT", f"stage {event.stage} round {event.round} has not been paired")
    if listed[-1] != key:
        raise TournamentError("ROUND_ORDER", f"stage {event.stage} round {event.round} is not the last round paired")
    d["results"].pop()
    d["absent"] = [a for a in d["absent"] if (a["stage"], a["round"]) != key or a["player"] not in event.absent]
    d["discipline"] = [c for c in d["discipline"] if (c["stage"], c["round"]) != key]


def _pairing_into(d: dict[str, Any], p: Pairing) -> None:
    """The pairing's round appended to the file (a round already listed is the event's ROUND_ORDER)."""
    if any((r["stage"], r["round"]) == (p.stage, p.round) for r in d["results"]):
        raise TournamentError("ROUND_ORDER", f"stage {p.stage} round {p.round} is already paired")
    matches: list[dict[str, Any]] = []
    for m in p.matches:
        matches.append({"home": m.home, "away": m.away} | ({} if m.walkover is None else {"walkover": m.walkover}))
    d["results"].append({"stage": p.stage, "round": p.round, "matches": matches + [{"bye": b} for b in p.byes]})


def _entry_into(d: dict[str, Any], event: RecordResult | RecordBye) -> None:
    """A result or a bye written into its listed round (an unlisted round or match is the event's BAD_RESULT)."""
    listed = [r for r in d["results"] if (r["stage"], r["round"]) == (event.stage, event.round)]
    if not listed:
        raise TournamentError("BAD_RESULT", f"stage {event.stage} round {event.round} has not been paired")
    entries = listed[0]["matches"]
    if isinstance(event, RecordBye):
        entries.append({"bye": event.player})
        return
    for index, entry in enumerate(entries):
        if (entry.get("home"), entry.get("away")) == (event.home, event.away):
            result: dict[str, Any] = {"home": event.home, "away": event.away}
            if event.score is not None:
                result["score"] = list(event.score)
            if event.shootout is not None:
                result["shootout"] = event.shootout
            if event.walkover is not None:
                result["walkover"] = event.walkover
            entries[index] = result
            return
    raise TournamentError("BAD_RESULT", f"stage {event.stage} round {event.round} has no match {event.home} v "
                                        f"{event.away}")


def _outcome(run: Any, *args: Any) -> Course | tuple[str, str]:
    """``run(*args)``: the course, or the refusal's code and message."""
    try:
        return run(*args)
    except TournamentError as exc:
        return exc.code, exc.message


@st.composite
def _events(draw: Any, t: Tournament) -> Event:
    """One event for ``t``: mostly what a running tournament does next, often something the contract refuses."""
    ids = [*t.player_ids(), "ghost"]
    player = draw(st.sampled_from(ids))
    stage = draw(st.integers(0, len(t.stages)))
    number = draw(st.integers(0, 1 + max((r.round for r in t.results), default=0)))
    kind = draw(st.sampled_from(("pair", "pair", "result", "result", "result", "absent", "absent", "withdraw",
                                 "card", "bye", "end", "add", "bad pairing", "take back")))
    if kind in ("pair", "bad pairing"):
        try:
            pairing = pair(t)
        except TournamentError:
            pairing = Pairing(stage=stage, round=max(1, number), matches=(PairedMatch(table=1, home=ids[0],
                                                                                       away=ids[-2]),))
        if kind == "bad pairing" and pairing.matches:
            swapped = PairedMatch(table=1, home=pairing.matches[0].home, away=player)
            pairing = Pairing(stage=pairing.stage, round=pairing.round, matches=(swapped, *pairing.matches[1:]),
                              byes=pairing.byes)
        return ApplyPairing(pairing=pairing)
    if kind == "result":
        listed = [(r, e) for r in t.results for e in r.matches if isinstance(e, Match)]
        if not listed:
            return RecordResult(stage=stage, round=max(1, number), home=player, away=ids[0], score=(1, 0))
        r, m = draw(st.sampled_from(listed[-6:] if draw(st.booleans()) else listed))
        how = draw(st.sampled_from(("score", "score", "draw", "walkover", "shootout", "bad")))
        goals = (draw(st.integers(0, 4)), draw(st.integers(0, 4)))
        return RecordResult(stage=r.stage, round=r.round, home=m.home, away=m.away,
                            score=goals if how in ("score", "bad") else (2, 2) if how in ("draw", "shootout") else None,
                            walkover=draw(st.sampled_from(("home", "away"))) if how == "walkover" else None,
                            shootout=draw(st.sampled_from(("home", "away"))) if how in ("shootout", "bad") else None)
    if kind == "absent":
        return MarkAbsent(stage=stage, round=number, player=player)
    if kind == "withdraw":
        return Withdraw(stage=stage, player=player, after_round=number)
    if kind == "card":
        return GiveCard(stage=stage, round=number, player=player, card=draw(st.sampled_from(("yellow", "red",
                                                                                          "disqualified"))))
    if kind == "bye":
        return RecordBye(stage=stage, round=number, player=player)
    if kind == "take back":
        last = t.results[-1] if t.results and draw(st.booleans()) else None
        absent = tuple(a.player for a in t.absent if draw(st.booleans()))
        if last is None:
            return TakeBack(stage=stage, round=max(1, number), absent=absent)
        return TakeBack(stage=last.stage, round=last.round, absent=absent)
    if kind == "end":
        return End(after_stage=stage, after_round=number, reason="the hall closes")
    new_id = draw(st.sampled_from(("late", "p1", "bad id", "late2")))
    return AddPlayer(player=Player(id=new_id, name=draw(st.sampled_from(("Late", ""))), rating=1500))


@st.composite
def _histories(draw: Any) -> tuple[Tournament, list[Event]]:
    """A tournament file and a run of events applied to it one by one (each drawn for the value before it)."""
    count = draw(st.integers(2, 8))
    players = [{"id": f"p{i}", "name": f"P{i}", "rating": draw(st.sampled_from((None, 1400, 1500, 1600)))}
               for i in range(1, count + 1)]
    stages = copy.deepcopy(draw(st.sampled_from(STAGES)))
    yellows = draw(st.integers(1, 3))
    t = read_tournament({"seed": draw(st.integers(0, 50)), "players": players, "stages": stages,
                         "settings": {"yellows_for_suspension": yellows,
                                      "two_yellows_in_a_match_is_red": draw(st.booleans())}})
    events = []
    course = follow(t)
    for _ in range(draw(st.integers(1, 24))):
        event = draw(_events(course.tournament))
        events.append(event)
        found = _outcome(advance, course, event)
        if isinstance(found, Course):
            course = found
    return t, events


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_histories())
def test_an_event_applied_once_equals_the_changed_file_followed_whole(history: tuple[Tournament, list[Event]]) -> None:
    """For every event of a random run - pairings, results, corrections, absences, withdrawals, cards, byes, late
    entries, an early end, a round taken back, and wrong ones of each - the incremental course equals the whole
    file's, or both refuse it with the same code and message; the value applied to is left as it was."""
    t, events = history
    course = follow(t)
    for event in events:
        before = course.tournament
        incremental = _outcome(advance, course, event)
        whole = _outcome(_whole, before, event)
        assert incremental == whole, event
        assert course.tournament == before
        if isinstance(incremental, Course):
            course = incremental


def test_a_refused_absence_names_its_place_in_the_file_as_the_reader_does() -> None:
    """MarkAbsent for a player who is not entered: UNKNOWN_PLAYER naming absent[N], as reading the file says."""
    t = read_tournament({"players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
                         "absent": [{"round": 2, "player": "a"}]})
    outcome = _outcome(advance, follow(t), MarkAbsent(round=1, player="ghost"))
    assert outcome == ("UNKNOWN_PLAYER", 'absent[1].player: "ghost" is not one of the players')
