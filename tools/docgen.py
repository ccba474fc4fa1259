"""The generated parts of docs/PROTOCOL.md: message tables, codes and hex examples, from the code itself.

Why: a protocol document that drifts from the codec misleads everyone who writes a client in another
language. The field tables are rendered from the messages' wire specs and the examples are real
``encode`` output, between ``<!-- BEGIN GENERATED: name -->`` / ``<!-- END GENERATED: name -->``
markers; a test fails when the document differs, and ``python -m tools.docgen docs/PROTOCOL.md``
rewrites those sections.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import re
import sys
from pathlib import Path

import msgpack

from shared.events import Intervention
from shared.formation import basic_setup
from shared.model import Flick, Position
from shared.outcome import Decision
from shared.protocol import messages as m
from shared.protocol.codec import encode
from shared.protocol.errors import CLOSE_MEANINGS, PROTOCOL_ERROR_CODES, RULE_ERROR_CODES, CloseCode
from shared.protocol.specs import Struct, wire_fields
from shared.protocol.trajectory import Trajectory
from tools.rulesets_doc import setting_rows

RECORDS: tuple[type, ...] = (m.Clocks, m.SeatInfo, m.Seats, m.RoomInfo, m.Score, m.RatingInfo, m.MatchLine,
                             m.BoardLine, m.RatingChange, m.EntryForm, m.EntryCode, m.EntryLine, m.StandingLine,
                             m.TableLine, m.BracketLine, m.CardLine, m.CaseLine, m.RankingLine, m.AuditLine,
                             m.TournamentInfo)


def _doc(obj: object) -> str:
    """A class docstring on one line."""
    return " ".join((inspect.getdoc(obj) or "").split())


def _default(cls: type, name: str) -> str:
    """The value an optional field takes when it is left out, as the docs show it (nil, an empty map, ...)."""
    f = next(f for f in dataclasses.fields(cls) if f.name == name)
    if f.default is not dataclasses.MISSING:
        value: object = f.default
    elif f.default_factory is not dataclasses.MISSING:
        value = f.default_factory()
    else:
        raise ValueError(f"{cls.__name__}.{name} is required: it has no default to show")
    return "nil" if value is None else "an empty map" if value == {} else json.dumps(value)


def _table(cls: type) -> list[str]:
    """The field table of one message or record."""
    fields = wire_fields(cls)
    if not fields:
        return ["(no fields)", ""]
    rows = ["| field | type | required |", "|---|---|---|"]
    for name, spec, required in fields:
        kind = spec.describe()
        if isinstance(spec, Struct):
            kind = f"[{spec.cls.__name__}](#{spec.cls.__name__.lower()})"
        rows.append(f"| `{name}` | {kind} | {'yes' if required else f'no (default {_default(cls, name)})'} |")
    return [*rows, ""]


def render_reference() -> str:
    """Every message and record with its fields, types and ranges."""
    out: list[str] = []
    for title, group in (("Client to server", m.CLIENT_MESSAGES), ("Server to client", m.SERVER_MESSAGES)):
        out += [f"### {title}", ""]
        for cls in group:
            out += [f"#### {cls.__name__}", "", _doc(cls), "", *_table(cls)]
    out += ["### Records inside messages", ""]
    for cls in RECORDS:
        out += [f"#### {cls.__name__}", "", _doc(cls), "", *_table(cls)]
    return "\n".join(out).rstrip() + "\n"


def render_codes() -> str:
    """Error codes and close codes."""
    out = ["| error code | meaning |", "|---|---|"]
    out += [f"| `{code}` | a rule refusal of SCENARIOS.md (`Act` only) |" for code in RULE_ERROR_CODES]
    out += [f"| `{code}` | {meaning} |" for code, meaning in PROTOCOL_ERROR_CODES.items()]
    out += ["", "| close code | name | meaning |", "|---|---|---|"]
    out += [f"| {code.value} | `{code.name}` | {CLOSE_MEANINGS[code]} |" for code in CloseCode]
    return "\n".join(out) + "\n"


def examples() -> list[tuple[str, m.Message]]:
    """Representative messages, built from real values (positions from the basic setup)."""
    position = Position(seed=7, stones=basic_setup())
    clocks = m.Clocks(part_ms=360_000, move_ms=30_000, to_move="home", paused=False)
    seats = m.Seats(m.SeatInfo("ada", True), m.SeatInfo("bob", True))
    frames = ((0, 0, 0, 0, -10_000, 0, 0, 0), (0, 0, 0, 0, -9_950, 0, 12, 0), (0, 0, 0, 0, -9_920, 0, 20, 0))
    respot = Intervention("RESPOT", "puck", 0.0, -120.5, "LEFT_BOARD")
    trajectory = Trajectory(("puck", "h2"), 60, 50, frames, (respot,))
    return [
        ("Hello (client's first frame)", m.Hello(protocol=m.PROTOCOL_VERSION, client="sprtec-bot/0.1")),
        ("Welcome", m.Welcome(protocol=m.PROTOCOL_VERSION, server="sprtec/0.1", player="ada", token="t0k3n")),
        ("CreateRoom", m.CreateRoom(ruleset="quick", settings={"period_ms": 60_000}, private=True)),
        ("JoinRoom", m.JoinRoom(code="K7QZ")),
        ("Act with a flick", m.Act(action=Flick("home", "h2", 1500.0, -20.5), version=4)),
        ("Resync", m.Resync(code="K7QZ", since_version=4)),
        ("Ping", m.Ping(nonce=1)),
        ("Error", m.Error(code="NOT_YOUR_TURN", message="away is to move", ref="Act")),
        ("Presence", m.Presence(code="K7QZ", seats=seats, spectators=2)),
        (
            "MovePlayed (a tiny two-frame move; real ones have ~60 frames per second)",
            m.MovePlayed(
                code="K7QZ",
                version=5,
                team="home",
                action=Flick("home", "h2", 300.0, 0.0),
                trajectory=trajectory,
                decisions=(Decision.of("RESPOT", body="puck", x=0.0, y=-120.5, reason="LEFT_BOARD"),),
                position=position,
                clocks=clocks,
                prompts=(),
            ),
        ),
    ]


def _hex(data: bytes) -> list[str]:
    """Hex in lines of 32 bytes."""
    text = data.hex()
    return [text[i : i + 64] for i in range(0, len(text), 64)]


def render_examples() -> str:
    """Each example as the msgpack map in JSON notation, then its exact bytes in hex."""
    out: list[str] = []
    for title, msg in examples():
        data = encode(msg)
        shown = json.dumps(msgpack.unpackb(data), ensure_ascii=False)
        out += [f"#### {title}: {len(data)} bytes", "", "```json", shown, "```", "", "```", *_hex(data), "```", ""]
    return "\n".join(out).rstrip() + "\n"


def render_settings() -> str:
    """The settings a client may override in CreateRoom and QuickMatch: type, unit, range, default, meaning."""
    out = ["| setting | type | unit | range | standard | meaning |", "|---|---|---|---|---|---|"]
    out += [f"| `{name}` | {kind} | {unit} | {allowed} | {default} | {meaning} |"
            for name, kind, unit, allowed, default, meaning in setting_rows()]
    return "\n".join(out) + "\n"


SECTIONS = {
    "reference": render_reference,
    "codes": render_codes,
    "examples": render_examples,
    "settings": render_settings,
}
_MARKED = re.compile(r"(<!-- BEGIN GENERATED: (\w+) -->\n)(.*?)(<!-- END GENERATED: \2 -->)", re.S)


def generated_sections(text: str) -> dict[str, str]:
    """The current content of each generated section of a document."""
    return {match.group(2): match.group(3) for match in _MARKED.finditer(text)}


def regenerate(text: str) -> str:
    """The document with every generated section rendered afresh."""
    return _MARKED.sub(lambda mt: mt.group(1) + SECTIONS[mt.group(2)]() + mt.group(4), text)


def main(argv: list[str]) -> int:
    """Rewrite the generated sections of the document named on the command line."""
    path = Path(argv[0] if argv else "docs/PROTOCOL.md")
    path.write_text(regenerate(path.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main(sys.argv[1:]))
