"""docs/PROTOCOL.md stays true: its generated tables and hex examples equal what the code produces."""

from __future__ import annotations

import re
from pathlib import Path

from shared.protocol import MESSAGE_TYPES, decode
from tools.docgen import SECTIONS, examples, generated_sections

DOC = Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md"


def test_generated_sections_match_the_code() -> None:
    """Every generated section of the document is exactly what docgen renders now (else regenerate it)."""
    found = generated_sections(DOC.read_text(encoding="utf-8"))
    assert set(found) == set(SECTIONS)
    for name, render in SECTIONS.items():
        stale = f"docs/PROTOCOL.md section {name!r} is stale: python -m tools.docgen docs/PROTOCOL.md"
        assert found[name] == render(), stale


def test_hex_examples_decode_to_their_messages() -> None:
    """The hex in the document decodes, with the real codec, back to the example messages."""
    text = DOC.read_text(encoding="utf-8")
    frames = [bytes.fromhex(block.replace("\n", "")) for block in re.findall(r"```\n([0-9a-f][0-9a-f\n]*)```", text)]
    assert [decode(f) for f in frames] == [msg for _, msg in examples()]


def test_every_message_type_is_documented() -> None:
    """Each message type has its own heading in the document."""
    text = DOC.read_text(encoding="utf-8")
    assert all(f"#### {name}\n" in text for name in MESSAGE_TYPES)
