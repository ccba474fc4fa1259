"""The one error of the league engine, carrying a TOURNAMENT.md error code.

Why its own type: ``sprtec league`` prints and fails the way ``sprtec tournament`` does, with one more code
(``UNKNOWN_FIXTURE``) that the tournament engine's codes do not have. The league reader reuses the tournament
reader's checks of JSON values, which raise ``TournamentError``; ``from_tournament`` turns one into this
error with the same code and message, so callers (the command line, the server) catch one type.
"""

from __future__ import annotations

from typing import Literal

from shared.tournament.errors import ErrorCode, TournamentError

LeagueErrorCode = Literal[
    "BAD_FORMAT",
    "UNKNOWN_PLAYER",
    "DUPLICATE_PLAYER",
    "PLAYED_TWICE",
    "BAD_RESULT",
    "ROUND_ORDER",
    "UNKNOWN_FIXTURE",
]

LEAGUE_ERROR_CODES: tuple[LeagueErrorCode, ...] = (
    "BAD_FORMAT",
    "UNKNOWN_PLAYER",
    "DUPLICATE_PLAYER",
    "PLAYED_TWICE",
    "BAD_RESULT",
    "ROUND_ORDER",
    "UNKNOWN_FIXTURE",
)

# The tournament codes a league error can carry (the reused value checks raise only the first and the fifth).
_FROM_TOURNAMENT: dict[ErrorCode, LeagueErrorCode] = {
    "BAD_FORMAT": "BAD_FORMAT",
    "UNKNOWN_PLAYER": "UNKNOWN_PLAYER",
    "DUPLICATE_PLAYER": "DUPLICATE_PLAYER",
    "PLAYED_TWICE": "PLAYED_TWICE",
    "BAD_RESULT": "BAD_RESULT",
    "ROUND_ORDER": "ROUND_ORDER",
}


class LeagueError(ValueError):
    """A league file the contract refuses: ``code`` from TOURNAMENT.md and a message naming the item at fault."""

    def __init__(self, code: LeagueErrorCode, message: str) -> None:
        """Keep the code and the message (the message names the team, player, fixture, round or game)."""
        super().__init__(f"{code}: {message}")
        self.code: LeagueErrorCode = code
        self.message = message

    def to_json(self) -> dict[str, dict[str, str]]:
        """The contract's error object: ``{"error": {"code": ..., "message": ...}}``."""
        return {"error": {"code": self.code, "message": self.message}}


def from_tournament(exc: TournamentError) -> LeagueError:
    """The league error of a reused tournament value check (same code, same message)."""
    return LeagueError(_FROM_TOURNAMENT.get(exc.code, "BAD_FORMAT"), exc.message)
