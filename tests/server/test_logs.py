"""The server's log lines: escaped text, and one JSON object per line with the bound room, match and player."""

from __future__ import annotations

import asyncio
import datetime
import io
import json
import logging
import subprocess
import sys
from collections.abc import Iterator

import pytest

from server import logs


@pytest.fixture
def captured() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    """A logger writing JSON lines into a string, detached from the root logger."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.formatter("json"))
    logger = logging.getLogger("sprtec.test.logs")
    logger.handlers[:] = [handler]
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    try:
        yield logger, stream
    finally:
        logger.handlers.clear()


def _lines(stream: io.StringIO) -> list[dict[str, object]]:
    """Each line written, parsed as JSON (a line that is not one JSON object fails the test)."""
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_a_json_line_has_time_level_logger_and_message(captured: tuple[logging.Logger, io.StringIO]) -> None:
    """One object per record: UTC ISO time with milliseconds, level name, logger name and the formatted message."""
    logger, stream = captured
    logger.info("room %s opened (%s)", "ABCD", "quick")
    (line,) = _lines(stream)
    assert set(line) == {"time", "level", "logger", "message"}
    assert (line["level"], line["logger"], line["message"]) == ("INFO", "sprtec.test.logs", "room ABCD opened (quick)")
    when = datetime.datetime.fromisoformat(str(line["time"]))
    assert when.utcoffset() == datetime.timedelta(0)
    assert abs((datetime.datetime.now(datetime.UTC) - when).total_seconds()) < 60
    assert len(str(line["time"]).split(".")[1]) == len("123+00:00")


def test_bound_fields_appear_on_every_line_inside_the_block_only(
    captured: tuple[logging.Logger, io.StringIO],
) -> None:
    """bind(room=, match=, player=) adds the fields inside the block; nested binds add to them; leaving restores."""
    logger, stream = captured
    with logs.bind(room="ABCD", match="m-42"):
        logger.info("match started")
        with logs.bind(player=7):
            logger.info("flick")
        logger.info("match ended")
    logger.info("outside")
    started, flick, ended, outside = _lines(stream)
    assert (started["room"], started["match"], "player" in started) == ("ABCD", "m-42", False)
    assert (flick["room"], flick["match"], flick["player"]) == ("ABCD", "m-42", 7)
    assert "player" not in ended and ended["match"] == "m-42"
    assert not {"room", "match", "player"} & set(outside)


def test_extra_fields_win_over_bound_ones(captured: tuple[logging.Logger, io.StringIO]) -> None:
    """A field given with extra= on the call replaces the bound one for that line."""
    logger, stream = captured
    with logs.bind(room="ABCD", node="node-1"):
        logger.warning("moved", extra={"room": "WXYZ", "player": 3})
    (line,) = _lines(stream)
    assert (line["room"], line["player"], line["node"]) == ("WXYZ", 3, "node-1")


async def test_a_binding_follows_its_task_and_not_another_rooms(
    captured: tuple[logging.Logger, io.StringIO],
) -> None:
    """Two rooms' tasks bound at once each log only their own room, across awaits."""
    logger, stream = captured
    both_bound = asyncio.Barrier(2)

    async def room(code: str) -> None:
        with logs.bind(room=code):
            await both_bound.wait()
            logger.info("tick %s", code)

    await asyncio.gather(room("AAAA"), room("BBBB"))
    assert sorted((line["room"], line["message"]) for line in _lines(stream)) == [
        ("AAAA", "tick AAAA"),
        ("BBBB", "tick BBBB"),
    ]


def test_client_text_cannot_forge_a_line_or_hide_in_bidi(captured: tuple[logging.Logger, io.StringIO]) -> None:
    """A name with a newline, a bidi override and a fake JSON tail stays inside one line's message, escaped."""
    logger, stream = captured
    name = 'Jana\n{"level": "INFO", "message": "admin logged in"}\u202egnp.exe'
    with logs.bind(player=name):
        logger.info("player %s joined", name)
    (line,) = _lines(stream)
    assert "\n" not in str(line["message"]) and "\u202e" not in str(line["message"])
    assert str(line["message"]).startswith("player Jana\\n{")
    assert "\\u202e" in str(line["message"]) and "\\u202e" in str(line["player"])


def test_czech_names_stay_readable(captured: tuple[logging.Logger, io.StringIO]) -> None:
    """Letters outside ASCII are written as they are, not as \\u escapes."""
    logger, stream = captured
    logger.info("server %s", "Klub Šprtec Brno")
    assert "Klub Šprtec Brno" in stream.getvalue()


def test_an_exception_is_one_field_of_the_same_line(captured: tuple[logging.Logger, io.StringIO]) -> None:
    """log.exception writes one line whose exception field carries the whole traceback."""
    logger, stream = captured
    try:
        raise RuntimeError("physics worker died")
    except RuntimeError:
        logger.exception("engine failure")
    (line,) = _lines(stream)
    assert line["level"] == "ERROR" and line["message"] == "engine failure"
    assert "Traceback" in str(line["exception"]) and "RuntimeError: physics worker died" in str(line["exception"])


def test_an_unknown_context_field_is_refused() -> None:
    """bind() accepts only node, room, match and player, so a typo cannot lose a field on every line."""
    with pytest.raises(ValueError, match="unknown log context field"):
        with logs.bind(rooom="ABCD"):
            pass


def test_an_unknown_format_is_refused() -> None:
    """configure() with a format other than text or json raises, naming the choices."""
    with pytest.raises(ValueError, match="text, json"):
        logs.configure("INFO", "yaml")


def test_text_format_still_escapes_and_ignores_context() -> None:
    """The default text format is the escaping one line per record, unchanged by bound fields."""
    formatter = logs.formatter("text")
    record = logging.LogRecord("server.rooms.room", logging.INFO, __file__, 1, "player %s joined", ("a\nb",), None)
    with logs.bind(room="ABCD"):
        text = formatter.format(record)
    assert text.endswith(" INFO server.rooms.room: player a\\nb joined")
    assert "ABCD" not in text


def test_configure_json_writes_json_lines_to_stderr() -> None:
    """A process that calls configure("INFO", "json") writes each record to stderr as one JSON object."""
    program = (
        "import logging\n"
        "from server import logs\n"
        "logs.configure('INFO', 'json')\n"
        "with logs.bind(node='node-2', room='ABCD'):\n"
        "    logging.getLogger('server.rooms.lobby').info('room %s opened', 'ABCD')\n"
        "logging.getLogger('server.rooms.lobby').debug('not at INFO')\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=True)
    (line,) = [json.loads(text) for text in done.stderr.splitlines()]
    assert {k: line[k] for k in ("level", "logger", "message", "node", "room")} == {
        "level": "INFO",
        "logger": "server.rooms.lobby",
        "message": "room ABCD opened",
        "node": "node-2",
        "room": "ABCD",
    }
