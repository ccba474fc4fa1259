"""The one error of the tournament engine, carrying a TOURNAMENT.md error code.

Why one type: the command line prints ``{"error": {"code", "message"}}`` for any invalid file, and the
server will answer a refused tournament event the same way, so every check raises the same exception with
a contract code and a message that names the offending item (player id, stage, round, match).
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
]

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


class TournamentError(ValueError):
    """A tournament file or event the contract refuses: ``code`` from TOURNAMENT.md and a readable message."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        """Keep the code and the message (the message names the player, stage, round or match at fault)."""
        super().__init__(f"{code}: {message}")
        self.code: ErrorCode = code
        self.message = message

    def to_json(self) -> dict[str, dict[str, str]]:
        """The contract's error object: ``{"error": {"code": ..., "message": ...}}``."""
        return {"error": {"code": self.code, "message": self.message}}
