"""A player's profile — his name, ratings per family with RD ("?" while provisional), played / won / drawn / lost,
and his last matches with a way to watch each one (pure: no arcade).

Why from the server: the server rates and keeps the matches (``GetProfile`` → ``Profile``); a profile is reached
from the lobby (one's own), the results (both coaches), the room list and the leaderboard. A match's row plays
its replay (the navigator asks ``GetReplay``, keeps it in "My replays" with both names and opens it); its
opponent's button opens his profile.
"""

from __future__ import annotations

import time

from client.common.i18n import N_, _, ngettext
from client.common.menu import Close, Item, OpenProfile, Page, WatchReplay
from client.common.rating_text import rating_text, signed
from client.player.results_model import reason_text
from shared.model import other
from shared.names import name_key
from shared.protocol import Error, GetProfile, MatchLine, Profile, RatingInfo

PAGE = 8  # matches listed at once (the screen must hold them at 760 pixels)
FAMILIES = ("standard", "quick")  # the rating families, in the order shown
STOPS = (0.0, 0.34, 0.47, 0.6, 0.79)  # opponent, score, result, rating change ("casual" in words), date
RESULT_WORDS = {"win": N_("won"), "draw": N_("drawn"), "loss": N_("lost")}


def family_line(info: RatingInfo) -> str:
    """One family's rating: "standard 1512? · RD 143 · 12 rated matches"."""
    words = ngettext("{family} {rating} · RD {rd} · {games} rated match",
                     "{family} {rating} · RD {rd} · {games} rated matches", info.games)
    return words.format(family=info.family, rating=rating_text(info.rating, info.provisional), rd=info.rd,
                        games=info.games)


def match_cells(line: MatchLine) -> tuple[str, ...]:
    """A last match's cells from the profile's player's side: opponent, score (his first), result, rating, date."""
    mine, theirs = (line.score.home, line.score.away) if line.team == "home" else (line.score.away, line.score.home)
    change = _("casual") if line.rating_change is None else signed(line.rating_change)
    when = time.strftime("%Y-%m-%d", time.localtime(line.ended_ms / 1000))
    result = _(RESULT_WORDS[line.result]) if line.result in RESULT_WORDS else line.result
    return (line.opponent, f"{mine} : {theirs}", result, change, when)


class ProfilePage(Page):
    """One player's profile; ``player`` None is one's own."""

    def __init__(self, player: str | None = None, me: str | None = None) -> None:
        """Show ``player``'s profile once the server sends it; ``me`` is this client's own name there."""
        super().__init__()
        self.player = player
        self.mine = player is None or (me is not None and name_key(me) == name_key(player))
        self.profile: Profile | None = None
        self.offset = 0  # the first of the last matches shown
        self.asking = True

    def first_request(self) -> GetProfile:
        """Ask for the profile."""
        return GetProfile(self.player)

    # ----------------------------------------------------------------- what to show
    def heading(self) -> str:
        """The player's name (as the server spells it, once known)."""
        if self.profile is not None:
            return self.profile.player
        return self.player or _("My profile")

    def subtitle(self) -> str:
        """Whose profile this is."""
        if self.mine:
            return _("Your profile on this server")
        return _("A player of this server")

    def notes(self) -> tuple[str, ...]:
        """The ratings per family and the totals."""
        profile = self.profile
        if profile is None:
            return (_("Asking the server…"),) if self.asking else ()
        ratings = sorted(profile.ratings, key=lambda r: (FAMILIES.index(r.family) if r.family in FAMILIES else 9,
                                                         r.family))
        lines = [family_line(info) for info in ratings] or [_("No rated match yet")]
        lines.append(ngettext("{played} match: {won} won, {drawn} drawn, {lost} lost",
                              "{played} matches: {won} won, {drawn} drawn, {lost} lost", profile.played).format(
            played=profile.played, won=profile.won, drawn=profile.drawn, lost=profile.lost))
        return tuple(lines)

    def wide(self) -> bool:
        """A table."""
        return True

    def items(self) -> list[Item]:
        """The last matches (a page of them), the pager, back."""
        found: list[Item] = []
        profile = self.profile
        if profile is not None and profile.last:
            head = (_("Opponent"), _("Score"), _("Result"), _("Rating"), _("Date"))
            found.append(Item("  ".join(head), "none", "text", enabled=False, cells=head, stops=STOPS,
                              group="head", weight=5))
            found.append(Item("", "none", "text", enabled=False, group="head", weight=1))
            for index in range(self.offset, min(self.offset + PAGE, len(profile.last))):
                line = profile.last[index]
                cells = match_cells(line)
                found.append(Item("  ".join(cells), f"replay:{index}", "room",
                                  _("{reason} — click to watch this match").format(reason=reason_text(line.reason)),
                                  cells=cells, stops=STOPS, group=f"match{index}", weight=5))
                found.append(Item(_("Profile"), f"profile:{line.opponent}", "room",
                                  _("{name}'s profile").format(name=line.opponent), group=f"match{index}"))
            if len(profile.last) > PAGE:
                found.append(Item(_("◀ Newer"), "newer", group="pager", enabled=self.offset > 0))
                found.append(Item(_("Older ▶"), "older", group="pager",
                                  enabled=self.offset + PAGE < len(profile.last)))
        elif profile is not None:
            found.append(Item(_("No finished match yet"), "none", "room", enabled=False))
        found.append(Item(_("Back"), "back"))
        return found

    # ----------------------------------------------------------------- commands
    def activate(self, command: str) -> object | None:
        """Watch a match, open a profile, page through the matches, or go back."""
        self.error = ""
        verb, _sep, arg = command.partition(":")
        profile = self.profile
        if verb == "back":
            return Close()
        if verb == "profile" and arg:
            return OpenProfile(arg)
        if profile is None:
            return None
        if verb == "replay" and arg.isdigit() and int(arg) < len(profile.last):
            line = profile.last[int(arg)]
            names = {line.team: profile.player, other(line.team): line.opponent}  # type: ignore[arg-type]
            return WatchReplay(line.match_id, names["home"], names["away"])
        if verb in ("older", "newer"):
            step = PAGE if verb == "older" else -PAGE
            self.offset = max(0, min(self.offset + step, (len(profile.last) - 1) // PAGE * PAGE))
            self.settle_focus()
        return None

    # ----------------------------------------------------------------- server news
    def apply(self, message: object) -> bool:
        """The profile asked for, or the refusal (NO_PLAYER); True when the message was this page's."""
        if isinstance(message, Profile):
            if self.player is not None and name_key(message.player) != name_key(self.player):
                return False  # another page's
            self.profile, self.asking = message, False
            self.settle_focus()
            return True
        if isinstance(message, Error) and message.ref == "GetProfile":
            self.asking = False
            self.error = _("No player of this server is called {name}").format(name=self.player) \
                if message.code == "NO_PLAYER" else message.message
            return True
        return False
