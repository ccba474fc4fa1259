"""Choices that explain themselves: every prompt button has a tooltip with its rule, leaving a running match asks
first, a choice closed by its timeout says what was chosen, and the banner does not state an open choice's
outcome."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common import tooltips  # noqa: E402
from client.match import prompts, samples  # noqa: E402
from client.match.match_view import MatchView  # noqa: E402
from client.match.state import MatchState  # noqa: E402
from shared.outcome import Decision  # noqa: E402
from shared.protocol import Clocks, MovePlayed  # noqa: E402
from tests.client.test_net import _joined, _prompted  # noqa: E402

RULE_ID = r"\(([IVX]+)(\.\d+[a-z]?)?"


@pytest.fixture(scope="module")
def window():
    """One hidden window for this module."""
    win = arcade.Window(1280, 760, "choices", visible=False)
    yield win
    win.close()


@pytest.mark.parametrize("kind", [*sorted(prompts.TITLES), prompts.ARRANGE])
def test_every_prompt_button_has_a_tooltip_that_names_its_rule(kind):
    """Each kind of choice (and the arrangement) explains itself with a rule id in brackets."""
    import re

    text = tooltips.tip(f"{kind}:h5")
    assert text and re.search(RULE_ID, text), kind


def test_the_power_play_tooltip_says_the_rule_in_words():
    """The swap-out button says what power play is, with its chapter."""
    assert tooltips.tip("pp_swap_out:h7").startswith("Power play (XIII): take your goalie off for a seventh")


def test_a_choice_closed_by_its_timeout_says_what_was_chosen():
    """The server applies the default (nil action): the log and the move list say which stone went, and why."""
    snapshot = _prompted(3000)
    default = {"action": "choose_exclusion", "team": "home", "stone": "h6"}
    snapshot = replace(snapshot, prompts=({**snapshot.prompts[0], "default": default},))
    client, state, link = _joined(snapshot, now=0.0)
    after = replace(snapshot.position, exclusion_choice=None, move_number=snapshot.position.move_number)
    client.inbox.put(MovePlayed("ABCD", 10, "home", None, None, (Decision("EXCLUSION", (("team", "home"),
                                ("stone", "h6"))),), after, Clocks(60_000, 0, "home", False), ()))
    link.poll(state, now=4.0)
    state.update(10.0)
    assert any("Time ran out" in line.text and "h6" in line.text for line in state.log)
    assert "by default" in state.moves[-1].what and "h6" in state.moves[-1].what


def test_the_banner_does_not_state_an_exclusion_the_coach_is_still_choosing():
    """While the exclusion choice is open, the banner says the coach chooses, not which stone is excluded."""
    snapshot = _prompted(3000)
    state = MatchState(names={"home": "Jana", "away": "Ola"})
    state.load(snapshot.position, 9)
    stone = snapshot.position.exclusion_choice.stone
    decisions = [Decision("FOUL", (("team", "home"), ("stone", "h1"), ("victim", "a7"), ("kind", "direct"))),
                 Decision("EXCLUSION", (("team", "home"), ("stone", stone)))]
    state.announce(decisions, 1, 0.0)
    banner = state.banner_at(0.0)
    assert "chooses" in banner and f"{stone} is excluded" not in banner and "Jana" in banner


def test_leaving_a_running_match_asks_first_and_escape_keeps_playing(window):
    """Leave (button or Escape) in a running match opens the question; Keep playing closes it; Resign leaves."""
    left = []
    state = samples.match_state(moves=2)
    state.free_seats = ()
    view = MatchView(state, clock=lambda: 0.0, on_leave=lambda: left.append(True))
    window.show_view(view)
    view.on_key_press(arcade.key.ESCAPE, 0)
    assert view.confirm is not None and "Sokol Kraków wins" in view.confirm.detail and not left
    view.on_key_press(arcade.key.ESCAPE, 0)
    assert view.confirm is None and not left
    view.answer("leave")
    view.answer("leave!")
    assert left == [True]


def test_a_host_waiting_for_an_opponent_leaves_without_a_question(window):
    """Nothing is resigned before the match began: Leave goes at once."""
    left = []
    state = samples.match_state(moves=0)
    state.free_seats = ("away",)
    view = MatchView(state, clock=lambda: 0.0, on_leave=lambda: left.append(True))
    window.show_view(view)
    view.answer("leave")
    assert left == [True] and view.confirm is None


def test_an_offer_before_a_move_is_shown_only_to_the_coach_to_move(monkeypatch):
    """"Before your move you may also…": the offers of the coach who is not to move stay off his screen until it
    is his turn (the face-off's arrangement of the defenders, IV.1, is both coaches')."""
    from client.match import prompts as client_prompts
    from client.match import samples as match_samples
    from shared.referee.choices import Prompt

    state = match_samples.match_state(moves=0)
    position = state.position
    assert position is not None
    waiting = "away" if position.to_move == "home" else "home"
    offer = Prompt(kind="count", team=waiting, options=("a2",), default=None)
    monkeypatch.setattr(client_prompts, "engine_prompts", lambda pos, offers=False: (offer,))
    assert [c.kind for c in client_prompts.choices(position, waiting, 0.0) if c.kind != "arrange"] == []
    mover_offer = Prompt(kind="count", team=position.to_move, options=("a2",), default=None)
    monkeypatch.setattr(client_prompts, "engine_prompts", lambda pos, offers=False: (mover_offer,))
    assert [c.options for c in client_prompts.choices(position, position.to_move, 0.0)]


def test_the_move_clocks_last_seconds_carry_their_unit():
    """"5.7 left to move" reads "5.7 s left to move"; minutes and seconds stay as they are."""
    from client.match.hud_view import move_clock_text

    assert move_clock_text("5.7") == "5.7 s" and move_clock_text("0:20") == "0:20"
