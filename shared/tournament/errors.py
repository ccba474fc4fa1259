"""The one error of the tournament engine, carrying a TOURNAMENT.md error code.

Why one type: the command line prints ``{"error": {"code", "message"}}`` for any invalid file, and the
server will answer a refused tournament event the same way, so every check raises the same exception with
a contract code and a message that names the offending item (player id, stage, round, match). An error of
one of a season's files also names the file (``"file": i``, its index among the files given).
"""

from __future__ import annotations

from typing import Literal

ErrorCode = Literal[
    "BAD_FORMAT",
    "UNKNOWN_PLAYER",
    "DUPLICATE_PLAYER",
    "PLAYED_TWICE",
    "BAD_RESULT",
    "ROUND_ORDER",
    "NOTHING_TO_PAIR",
    "NO_PAIRING",
    "SEASON_FILE",
]

# The codes of one tournament file or event (the server passes these through: shared.protocol.errors).
ERROR_CODES: tuple[ErrorCode, ...] = (
    "BAD_FORMAT",
    "UNKNOWN_PLAYER",
    "DUPLICATE_PLAYER",
    "PLAYED_TWICE",
    "BAD_RESULT",
    "ROUND_ORDER",
    "NOTHING_TO_PAIR",
    "NO_PAIRING",
)
# The code of a season's files that do not make one season (``sprtec season standings``).
SEASON_ERROR_CODES: tuple[ErrorCode, ...] = ("SEASON_FILE",)


class TournamentError(ValueError):
    """A tournament file or event the contract refuses: ``code`` from TOURNAMENT.md and a readable message."""

    def __init__(self, code: ErrorCode, message: str, *, file: int | None = None) -> None:
        """Keep the code and the message (the message names the player, stage, round or match at fault) and,
        for a season, the index of the file at fault."""
        super().__init__(f"{code}: {message}" if file is None else f"{code}: file {file}: {message}")
        self.code: ErrorCode = code
        self.message = message
        self.file = file

    def in_file(self, file: int) -> TournamentError:
        """The same error, naming the season's file it was found in."""
        return TournamentError(self.code, self.message, file=file)

    def to_json(self) -> dict[str, dict[str, str | int]]:
        """The contract's error object: ``{"error": {"code": ..., "message": ...}}``, and ``"file"`` when set."""
        error: dict[str, str | int] = {"code": self.code, "message": self.message}
        if self.file is not None:
            error["file"] = self.file
        return {"error": error}
