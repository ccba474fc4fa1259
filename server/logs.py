"""How the server writes its log: one honest line per event, whatever text clients sent.

Why a formatter of its own: log lines carry text that came from the network - display names, room codes, refused
messages - and a name with a newline once forged a whole log line. The formatter escapes controls, separators and
bidi characters in every formatted message (``shared.names.printable``); only a traceback, which the server writes
itself, keeps its line breaks.
"""

from __future__ import annotations

import logging

from shared.names import printable

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class EscapingFormatter(logging.Formatter):
    """A formatter whose message part is always one printable line."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        """The record's line, its message escaped (``record.message`` is what ``%(message)s`` shows)."""
        record.message = printable(record.message)
        return super().formatMessage(record)


def configure(level: str) -> None:
    """Log to stderr at ``level`` through the escaping formatter; websockets' own chatter only from WARNING."""
    handler = logging.StreamHandler()
    handler.setFormatter(EscapingFormatter(TEXT_FORMAT))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("websockets").setLevel(max(logging.WARNING, logging.getLevelName(level)))
