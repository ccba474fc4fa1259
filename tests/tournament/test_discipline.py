"""The discipline ledger: red cards, accumulated yellows, two yellows as a red, disqualification, suspensions
served by the next match and carried into the next stage."""

from __future__ import annotations

from typing import Any

from shared.tournament.course import follow
from shared.tournament.events import GiveCard, MarkAbsent, apply
from shared.tournament.model import Player, Stage, Tournament, TournamentSettings
from shared.tournament.pairing import pair
from shared.tournament.standings import standings
from tests.tournament.builders import doc, m, pairing_of, players, refusal, row, standings_of
from tests.tournament.cases import play


def _ten(**settings: Any) -> Tournament:
    """Ten players, a five-round Swiss."""
    return Tournament(seed=3, players=tuple(Player(id=p, name=p.upper()) for p in "abcdefghij"),
                      stages=(Stage(rounds=5),), settings=TournamentSettings(**settings))


def _line(t: Tournament, player: str) -> tuple[int, int, bool]:
    """(yellow, red, suspended_next) in the standings."""
    r = row(standings(follow(t)), player)
    return r.yellow, r.red, r.suspended_next


def _why(t: Tournament, player: str) -> str | None:
    """Why the next pairing leaves the player out (None: he is paired or has the bye)."""
    return next((u.why for u in pair(t).not_paired if u.player == player), None)


def test_three_yellows_suspend_for_the_next_match_and_the_count_starts_again() -> None:
    """Yellows 2 + 1 suspend for round 3; after it, two more yellows do not suspend, a third does."""
    t, _ = play(_ten(), cards=(("a", "yellow", "x"), ("a", "yellow", "y")))
    assert _line(t, "a") == (2, 0, False)
    t, _ = play(t, cards=(("a", "yellow", "z"),))
    assert _line(t, "a") == (3, 0, True)
    assert _why(t, "a") == "suspended"
    t, paired = play(t)
    assert "a" not in {p for x in paired.matches for p in (x.home, x.away)} | set(paired.byes)
    assert _line(t, "a") == (3, 0, False)
    t, _ = play(t, cards=(("a", "yellow", "x"), ("a", "yellow", "y")))
    assert _line(t, "a") == (5, 0, False)
    t, _ = play(t, cards=(("a", "yellow", "z"),))
    assert _line(t, "a") == (6, 0, True)


def test_two_yellows_in_a_match_are_a_red_only_when_the_setting_says_so() -> None:
    """With two_yellows_in_a_match_is_red the second yellow is a red (and suspends); without, two yellows."""
    strict, _ = play(_ten(two_yellows_in_a_match_is_red=True), cards=(("b", "yellow", "x"), ("b", "yellow", "y")))
    assert _line(strict, "b") == (1, 1, True)
    lenient, _ = play(_ten(), cards=(("b", "yellow", "x"), ("b", "yellow", "y")))
    assert _line(lenient, "b") == (2, 0, False)


def test_a_red_card_suspends_for_the_next_match_only() -> None:
    """A red in round 1: not paired in round 2 (suspended), paired again in round 3."""
    t, _ = play(_ten(), cards=(("c", "red", "abuse"),))
    assert _line(t, "c") == (0, 1, True) and _why(t, "c") == "suspended"
    t, _ = play(t)
    assert _line(t, "c") == (0, 1, False) and _why(t, "c") is None


def test_suspensions_add_up() -> None:
    """A red and a third yellow in one match: two matches out."""
    t, _ = play(_ten(yellows_for_suspension=1), cards=(("d", "red", "x"), ("d", "yellow", "y")))
    assert _why(t, "d") == "suspended"
    t, _ = play(t)
    assert _why(t, "d") == "suspended"
    t, _ = play(t)
    assert _why(t, "d") is None


def test_a_swiss_suspension_waits_while_the_player_is_absent() -> None:
    """Red in round 1, absent in round 2: round 2 says absent, round 3 serves the suspension."""
    t, _ = play(_ten(), cards=(("e", "red", "x"),))
    t = apply(t, MarkAbsent(round=2, player="e"))
    assert _why(t, "e") == "absent"
    t, _ = play(t)
    assert _why(t, "e") == "suspended"


def test_a_disqualified_player_is_not_paired_again_and_keeps_his_results() -> None:
    """Disqualified in round 1: left out of every later round as disqualified; his round-1 result stays."""
    t, _ = play(_ten(), cards=(("f", "disqualified", "fight"),))
    assert _why(t, "f") == "disqualified"
    assert row(standings(follow(t)), "f").played == 1
    t, _ = play(t)
    assert _why(t, "f") == "disqualified"


def test_in_a_round_robin_the_next_scheduled_match_serves_the_suspension_past_a_bye() -> None:
    """Five players: d's red in round 1, his bye in round 2, so round 3's d v e is a walkover for e."""
    d = doc(players("a", "b", "c", "d", "e"), stages=[{"system": "round_robin"}],
            results=[{"round": 1, "matches": [m("b", "e", (1, 0)), m("c", "d", (1, 1))]},
                     {"round": 2, "matches": [m("e", "c", (2, 0)), m("a", "b", (0, 0))]}],
            discipline=[{"round": 1, "player": "d", "card": "red"}])
    assert row(standings_of(d), "d").suspended_next
    p = pairing_of(d)
    assert ("d", "e", "away") in {(x.home, x.away, x.walkover) for x in p.matches}


def test_a_suspension_carries_over_into_the_next_stage() -> None:
    """A red in the Swiss stage's last round: the knockout's first match of that player is a walkover."""
    t = Tournament(seed=8, players=tuple(Player(id=p, name=p) for p in "abcd"),
                   stages=(Stage(rounds=1), Stage(system="knockout", ruleset="ko")))
    t, paired = play(t)
    first = paired.matches[0].home
    t = apply(t, GiveCard(round=1, player=first, card="red"))
    p = pair(t)
    assert p.stage == 1
    match = next(x for x in p.matches if first in (x.home, x.away))
    assert match.walkover == ("away" if match.home == first else "home")


def test_a_suspended_player_cannot_be_listed_in_a_match() -> None:
    """The file lists a player in the round he is suspended for: BAD_RESULT naming him."""
    d = doc(players("a", "b", "c", "d"),
            results=[{"round": 1, "matches": [m("a", "b", (1, 0)), m("c", "d", (1, 0))]},
                     {"round": 2, "matches": [m("a", "c", (1, 0)), m("b", "d", (1, 0))]}],
            discipline=[{"round": 1, "player": "a", "card": "red"}])
    code, message = refusal(d, "follow")
    assert code == "BAD_RESULT" and "a is suspended" in message
    d["results"][1]["matches"][0] = m("a", "c", walkover="away")
    assert standings_of(d).after_round == 2


def test_a_card_needs_a_match_in_its_round() -> None:
    """A card for a player with a bye in that round, or for a round not yet paired, is BAD_RESULT."""
    d = doc(players("a", "b", "c"),
            results=[{"round": 1, "matches": [m("a", "b", (1, 0)), {"bye": "c"}]}],
            discipline=[{"round": 1, "player": "c", "card": "yellow"}])
    assert refusal(d, "follow")[0] == "BAD_RESULT"
    d["discipline"] = [{"round": 2, "player": "a", "card": "yellow"}]
    code, message = refusal(d, "follow")
    assert code == "BAD_RESULT" and "round 2" in message
