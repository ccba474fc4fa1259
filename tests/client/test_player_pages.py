"""The players' pages as models: the claim code counted down to its expiry, a profile's ratings ("?" while
provisional), totals and last matches (a page at a time, each one watchable, each opponent a profile), the
leaderboard's families and pages as the server is asked for them, and the results' lines about the ratings."""

from __future__ import annotations

from client.common import rating_text
from client.common.menu import Close, OpenProfile, WatchReplay
from client.player import claim_code
from client.player.claim_code import ClaimPage
from client.player.leaderboard_model import PAGE as BOARD_PAGE
from client.player.leaderboard_model import LeaderboardPage
from client.player.profile_model import PAGE as PROFILE_PAGE
from client.player.profile_model import ProfilePage
from shared.protocol import (
    BoardLine,
    ClaimCode,
    Error,
    GetClaimCode,
    GetLeaderboard,
    GetProfile,
    Leaderboard,
    MatchLine,
    Profile,
    Rated,
    RatingChange,
    RatingInfo,
    Score,
)


def test_a_claim_code_reads_in_two_groups_and_counts_down_to_its_expiry() -> None:
    """K7QZ3XWA shows as "K7QZ 3XWA" with the time left rounded up; at ten minutes it says it has expired and a new
    one is one click (asked once until it comes)."""
    now = [100.0]
    page = ClaimPage(lambda: now[0])
    assert page.first_request() == GetClaimCode() and page.items()[0].label == "Asking the server…"
    assert page.apply(ClaimCode("K7QZ3XWA", 600_000))
    labels = [item.label for item in page.items()]
    assert labels[:2] == ["K7QZ 3XWA", "Expires in 10:00"]
    now[0] += 59.2
    assert page.items()[1].label == "Expires in 9:01"
    now[0] += 540.7
    assert page.items()[1].label == "Expires in 0:01"
    now[0] += 0.2
    assert page.items()[1].label == "This code has expired — ask for a new one"
    assert page.activate("new") == GetClaimCode() and page.activate("new") is None
    assert page.activate("back") == Close()
    assert claim_code.countdown(0.0) == "0:00" and claim_code.spaced("ABCDEFGH1") == "ABCD EFGH 1"


def _line(index: int, result: str, change: int | None) -> MatchLine:
    """One of Jana's last matches (index 0 the newest), alternately home and away."""
    team = "home" if index % 2 == 0 else "away"
    score = Score(3, 1) if (result == "win") == (team == "home") else Score(1, 3)
    if result == "draw":
        score = Score(2, 2)
    return MatchLine(f"m{index:02d}", f"Coach {index}", team, score, result, "REGULAR_TIME", "standard", change,
                     1_764_000_000_000 - index * 86_400_000)


def _profile(matches: int = 10) -> Profile:
    """Jana's profile: a provisional standard rating, an established quick one, ``matches`` last matches."""
    results = ("win", "loss", "draw")
    last = tuple(_line(i, results[i % 3], None if i == 2 else (15 if i % 3 == 0 else -12)) for i in range(matches))
    ratings = (RatingInfo("quick", 1488, 62, False, 31), RatingInfo("standard", 1512, 143, True, 4))
    return Profile("Jana Nováková", 4, ratings, matches, 4, 3, 3, last)


def test_a_profile_shows_ratings_per_family_with_rd_and_a_mark_while_provisional() -> None:
    """The heading is the name; standard comes first with "1512?", quick "1488"; then the totals."""
    page = ProfilePage("jana nováková")
    assert page.first_request() == GetProfile("jana nováková")
    assert page.apply(_profile())
    assert page.heading() == "Jana Nováková"
    assert page.notes() == ("standard 1512? · RD 143 · 4 rated matches", "quick 1488 · RD 62 · 31 rated matches",
                            "10 matches: 4 won, 3 drawn, 3 lost")


def test_a_profiles_matches_are_paged_and_each_plays_its_replay_with_both_names() -> None:
    """Eight matches a page; a row is the player's score first, his result and the rating change ("casual" when
    not rated); it asks for that match's replay with the names on their seats; the opponent opens his profile."""
    page = ProfilePage()
    page.apply(_profile())
    rows = [item for item in page.items() if item.command.startswith("replay:")]
    assert len(rows) == PROFILE_PAGE
    assert rows[0].cells[:4] == ("Coach 0", "3 : 1", "won", "+15")
    assert rows[1].cells[:4] == ("Coach 1", "1 : 3", "lost", "−12")
    assert rows[2].cells[:4] == ("Coach 2", "2 : 2", "drawn", "casual")
    assert page.activate(rows[1].command) == WatchReplay("m01", "Coach 1", "Jana Nováková")
    assert page.activate(rows[0].command) == WatchReplay("m00", "Jana Nováková", "Coach 0")
    opponent = next(item for item in page.items() if item.command == "profile:Coach 0")
    assert opponent.group == rows[0].group and page.activate(opponent.command) == OpenProfile("Coach 0")
    newer = next(item for item in page.items() if item.command == "newer")
    assert not newer.enabled
    page.activate("older")
    assert [item.command for item in page.items() if item.command.startswith("replay:")] == ["replay:8", "replay:9"]
    assert not next(item for item in page.items() if item.command == "older").enabled
    assert page.activate("back") == Close()


def test_an_unknown_player_and_a_player_without_matches_say_so() -> None:
    """NO_PLAYER names the player asked for; a fresh player has no rating and no match yet."""
    page = ProfilePage("Nobody")
    assert page.apply(Error("NO_PLAYER", "no player of this server is called 'Nobody'", "GetProfile"))
    assert page.error == "No player of this server is called Nobody"
    fresh = ProfilePage()
    fresh.apply(Profile("Ola", 9, (), 0, 0, 0, 0, ()))
    assert fresh.notes()[0] == "No rated match yet"
    assert [item.label for item in fresh.items()] == ["No finished match yet", "Back"]


def test_a_profile_page_takes_only_its_own_players_profile() -> None:
    """Another player's Profile (an answer for another page) is not this page's."""
    page = ProfilePage("Ola")
    assert not page.apply(_profile()) and page.profile is None


def _board(family: str, offset: int, total: int) -> Leaderboard:
    """A page of a leaderboard as the server sends it: ranks from ``offset + 1``, ratings going down."""
    count = max(0, min(BOARD_PAGE, total - offset))
    lines = tuple(BoardLine(offset + i + 1, f"Player {offset + i + 1}", 1900 - 10 * (offset + i), 50 + i, 30)
                  for i in range(count))
    return Leaderboard(family, offset, total, lines)


def test_the_leaderboard_pages_through_a_family_and_opens_profiles() -> None:
    """19 ranked players: pages at 0, 8 and 16 are asked for as they are shown; the first has no previous page and
    the last no next; a name opens its profile."""
    page = LeaderboardPage("ko")
    assert page.first_request() == GetLeaderboard("standard", 0, BOARD_PAGE)
    page.apply(_board("standard", 0, 19))
    commands = {item.command: item for item in page.items()}
    assert not commands["previous"].enabled and commands["next"].enabled
    assert page.subtitle() == "standard · ranks 1–8 of 19"
    row = commands["profile:Player 1"]
    assert row.cells == ("1.", "Player 1", "1900", "50", "30") and page.activate(row.command) == OpenProfile("Player 1")
    assert page.activate("next") == GetLeaderboard("standard", 8, BOARD_PAGE)
    assert page.items()[1].label == "Asking the server…"  # the old page is not shown as the new one
    page.apply(_board("standard", 8, 19))
    assert page.activate("next") == GetLeaderboard("standard", 16, BOARD_PAGE)
    page.apply(_board("standard", 16, 19))
    commands = {item.command: item for item in page.items()}
    assert not commands["next"].enabled and page.activate("next") is None
    assert [c for c in commands if c.startswith("profile:")] == ["profile:Player 17", "profile:Player 18",
                                                                 "profile:Player 19"]
    assert page.activate("previous") == GetLeaderboard("standard", 8, BOARD_PAGE)


def test_the_leaderboard_family_changes_with_the_arrows_from_the_first_rank() -> None:
    """→ on the family asks quick from rank 1; an empty family says nobody is ranked yet."""
    page = LeaderboardPage()
    page.apply(_board("standard", 0, 19))
    page.activate("next")
    page.focus = 0
    assert page.key("right") == GetLeaderboard("quick", 0, BOARD_PAGE)
    page.apply(_board("quick", 0, 0))
    assert page.items()[1].label == "Nobody is ranked yet — rated matches make the ranking"
    assert page.key("left") == GetLeaderboard("standard", 0, BOARD_PAGE)


def test_ratings_read_with_their_sign_and_their_mark() -> None:
    """"1512?" while provisional, a real minus sign on a loss, ±0 for no change."""
    assert rating_text.rating_text(1512, True) == "1512?" and rating_text.rating_text(None) == ""
    assert [rating_text.signed(d) for d in (15, -15, 0)] == ["+15", "−15", "±0"]


def _rated(match_id: str = "m1") -> Rated:
    """What a rated match did: the home coach won 15 points, the away coach lost 15 (both still provisional)."""
    return Rated("K7QZ", match_id, (RatingChange("Ola", "away", "quick", 1498, 1483, 131, True),
                                    RatingChange("Jana", "home", "quick", 1512, 1527, 131, True)))


def test_the_results_say_what_the_match_did_to_both_ratings_once_rated_comes() -> None:
    """A rated match: "rating…" for both coaches until Rated, then home's line and away's with before → after and
    the change; a Rated of another match is not this one's."""
    names = {"home": "Jana", "away": "Ola"}
    assert rating_text.results_lines(True, None, "m1", names, 0.5) == ("Jana rating…", "Ola rating…")
    assert rating_text.results_lines(True, _rated("m0"), "m1", names, 0.5) == ("Jana rating…", "Ola rating…")
    assert rating_text.results_lines(True, _rated(), "m1", names, 0.5) == ("Jana 1512 → 1527? (+15)",
                                                                           "Ola 1498 → 1483? (−15)")


def test_a_casual_match_says_casual_and_an_unrated_one_says_so_after_a_while() -> None:
    """A casual room says so at once; a room of unknown kind waits for Rated, then says it was not rated."""
    names = {"home": "Jana", "away": "Ola"}
    assert rating_text.results_lines(False, None, "m1", names, 0.0) == ("Casual match — no rating changes",)
    assert rating_text.results_lines(None, None, "m1", names, rating_text.RATED_WAIT_S - 0.1)[0] == "Jana rating…"
    assert rating_text.results_lines(None, None, "m1", names, rating_text.RATED_WAIT_S) == (
        "Not rated — no rating changes",)


def test_the_link_knows_a_room_it_asked_for_is_rated_and_keeps_the_coaches_names() -> None:
    """CreateRoom{rated} and QuickMatch make the room's matches rated, a casual CreateRoom and a room joined by code
    not (or not known); Rated is kept for the results, and a coach who left is still named there."""
    from client.match.net import NetLink
    from client.match.state import MatchState
    from shared.protocol import CreateRoom, JoinRoom, MatchEnded, Presence, QuickMatch, RoomJoined, Seats
    from tests.client.test_net import FakeClient, _snapshot

    for request, known in ((CreateRoom("quick", {}, False, rated=True), True), (QuickMatch(None), True),
                           (CreateRoom("quick", {}, False), False), (JoinRoom("K7QZ"), None)):
        client, state = FakeClient(), MatchState()
        link = NetLink(client)
        link.request(request)
        client.arrive(RoomJoined("ABCD", "home", "tok", _snapshot()), 0.0)
        link.poll(state, 0.0)
        assert link.room_rated is known, request
    client.arrive(Presence("ABCD", Seats(_snapshot().seats.home, None), 0), 1.0)
    client.arrive(MatchEnded("ABCD", "m1", Score(1, 0), "home", "RESIGNED"), 1.0)
    client.arrive(_rated(), 1.5)
    link.poll(state, 2.0)
    assert link.rated_news == _rated() and link.ended_at == 2.0  # taken in by the poll at 2.0
    assert state.names == {"home": "Jana"} and state.coaches_named() == {"home": "Jana", "away": "Piotr"}
