"""The player's match on a physical board: the score he enters, his opponent's entry to confirm, and the board he
referees (pure: no arcade, no sockets).

Why a model of its own: at a board there is no room - the two players play on the real board, and afterwards one of
them enters the score on his client ("Board 4 — on the board: enter the score") and the other confirms it (the same
score) or enters his own, which makes it a dispute for the organiser (docs/PROTOCOL.md "Physical boards"). Every
round he may also referee another board ("you referee board 7"). All of that is read from the tournament's update
and his ``TableAssigned``, so it is tested without a screen; the navigator sends the request it gives.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from client.common.i18n import _, team_word
from client.common.tournament_model import entered_score
from shared.protocol import EnterResult, Score, TableAssigned, TableLine, TournamentUpdate

MAX_GOALS = 30  # the most goals the +/- buttons reach (a board's scores are small)


@dataclass(slots=True)
class BoardDraft:
    """The score the player is about to enter: home and away goals, and a shoot-out's winner (knockout only)."""

    home: int = 0
    away: int = 0
    shootout: str | None = None
    table: tuple[int, int, int] | None = field(default=None)  # the board it is for (a new board starts at 0:0)
    copied: tuple[str, str] | None = None  # the opponent's entry copied in (copied once: he may then change it)

    def step(self, side: str, by: int) -> None:
        """One goal more or less for ``side`` (never below 0)."""
        if side == "home":
            self.home = max(0, min(MAX_GOALS, self.home + by))
        else:
            self.away = max(0, min(MAX_GOALS, self.away + by))

    def cycle_shootout(self) -> None:
        """No shoot-out, home won it, away won it, in turn."""
        order = (None, "home", "away")
        self.shootout = order[(order.index(self.shootout) + 1) % len(order)]

    def text(self) -> str:
        """The score as entered: "3:1", with the shoot-out's winner of a drawn knockout match."""
        text = f"{self.home}:{self.away}"
        if self.shootout is not None and self.home == self.away:
            text += " " + _("(shoot-out {side})").format(side=team_word(self.shootout))
        return text


def board_line(update: TournamentUpdate | None, assignment: TableAssigned | None) -> TableLine | None:
    """His board in the update, while it is the round being played and is on a board."""
    if update is None or assignment is None or not assignment.on_board:
        return None
    if (update.stage, update.round) != (assignment.stage, assignment.round):
        return None
    return next((t for t in update.tables if t.table == assignment.table and t.on_board), None)


def follow(draft: BoardDraft, line: TableLine | None, entry: str | None) -> None:
    """The draft follows the board: 0:0 for a new board, and the opponent's entry once there is one (so that
    entering it confirms it)."""
    if line is None:
        return
    key = (0, 0, line.table)
    if draft.table != key:
        draft.home, draft.away, draft.shootout, draft.table, draft.copied = 0, 0, None, key, None
    if line.entered_by is not None and line.entered_by != entry and line.entered_score is not None:
        seen = (line.entered_by, entered_score(line))
        if draft.copied != seen:
            draft.home, draft.away = line.entered_score.home, line.entered_score.away
            draft.shootout, draft.copied = line.entered_shootout, seen


def heading(assignment: TableAssigned) -> str:
    """"Round 3 — board 4, on the board"."""
    return _("Round {round} — board {table}, on the board").format(round=assignment.round, table=assignment.table)


def referee_line(assignment: TableAssigned) -> str:
    """Who referees his board (XVII.1)."""
    if assignment.referee:
        return _("Referee: {name}").format(name=assignment.referee)
    return _("No referee named yet: the organiser names one")


def status(line: TableLine | None, entry: str | None) -> str:
    """What the board waits for, in words: his score, his opponent's confirmation, or the organiser."""
    if line is None:
        return _("Play the match on the board, then enter the score here")
    if line.status == "replay":
        return _("The organiser ordered the match played again: enter the new score when it is over")
    if line.entered_by is None:
        return _("Board {n} — on the board: enter the score when the match is over").format(n=line.table)
    score = entered_score(line)
    if line.entered_by == entry:
        other = line.away_name if entry == line.home else line.home_name
        return _("You entered {score}: waiting for {name} to confirm it").format(score=score, name=other)
    name = line.home_name if line.entered_by == line.home else line.away_name
    return _("{name} entered {score}: confirm it, or enter the score as you saw it").format(name=name, score=score)


def confirms(line: TableLine | None, entry: str | None, draft: BoardDraft) -> bool:
    """True when entering the draft confirms the opponent's entry."""
    if line is None or line.entered_by is None or line.entered_by == entry or line.entered_score is None:
        return False
    return (line.entered_score.home, line.entered_score.away, line.entered_shootout) == (
        draft.home, draft.away, draft.shootout if draft.home == draft.away else None)


def request(tournament: str, assignment: TableAssigned, draft: BoardDraft) -> EnterResult:
    """The EnterResult of the draft for his board."""
    shootout = draft.shootout if draft.home == draft.away else None
    return EnterResult(tournament=tournament, stage=assignment.stage, round=assignment.round, table=assignment.table,
                       score=Score(draft.home, draft.away), shootout=shootout)


def referee_duty(update: TournamentUpdate | None, entry: str | None) -> str:
    """"you referee board 7 (Novák – Svoboda)" while a board of the round he referees has no result."""
    if update is None or entry is None or update.status != "playing":
        return ""
    boards = [t for t in update.tables if t.on_board and t.referee == entry and t.status in ("board", "replay")]
    if not boards:
        return ""
    t = boards[0]
    return _("you referee board {n} ({home} – {away})").format(n=t.table, home=t.home_name, away=t.away_name)
