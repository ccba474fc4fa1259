"""The client's sounds, synthesised with the standard library's ``wave`` module: no recordings, no downloads, no
binary files in the repository (no arcade).

Why synthesised: every cue is short and simple — a stick's flick, wood on wood, wood on the board, the puck's
click, the siren (III.6), the goal horn — and a few lines of arithmetic make them exactly the same on every
machine. The noise comes from a fixed linear congruential generator, so the files are identical bytes each time.
``python -m client.common.sound_synth DIR`` writes them; ``client.common.sound`` writes them at first use.
"""

from __future__ import annotations

import io
import math
import struct
import sys
import wave
from collections.abc import Callable, Iterator
from pathlib import Path

RATE = 22_050
CUES = ("flick", "stone", "board", "puck", "siren", "goal")


def _noise(seed: int = 12345) -> Iterator[float]:
    """White noise in [-1, 1] from a fixed LCG (the same bytes on every run)."""
    state = seed
    while True:
        state = (1103515245 * state + 12345) % 2**31
        yield state / 2**30 - 1.0


def _wav(samples: list[float]) -> bytes:
    """Mono 16-bit WAV bytes of ``samples`` in [-1, 1]."""
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(b"".join(struct.pack("<h", int(max(-1.0, min(1.0, v)) * 32767)) for v in samples))
    return out.getvalue()


def _knock(seconds: float, pitch: float, decay: float, noise: float, seed: int) -> list[float]:
    """A struck body: a decaying tone with a burst of noise at the attack."""
    hiss = _noise(seed)
    total = int(seconds * RATE)
    return [0.8 * math.exp(-t / decay) * ((1 - noise) * math.sin(2 * math.pi * pitch * t) + noise * next(hiss))
            for t in (i / RATE for i in range(total))]


def _tone(seconds: float, pitch: Callable[[float], float], volume: float = 0.5) -> list[float]:
    """A tone whose frequency at time t is ``pitch(t)`` Hz, with soft attack and release (siren, horn)."""
    phase, out = 0.0, []
    for i in range(int(seconds * RATE)):
        t = i / RATE
        phase += 2 * math.pi * pitch(t) / RATE
        envelope = min(1.0, t / 0.03, (seconds - t) / 0.08)
        sample = math.sin(phase) + 0.35 * math.sin(2 * phase) + 0.15 * math.sin(3 * phase)
        out.append(sample / 1.5 * volume * envelope)
    return out


def synthesise(cue: str) -> bytes:
    """The WAV bytes of one cue."""
    if cue == "flick":
        return _wav(_knock(0.06, 2400.0, 0.010, 0.7, 1))  # the stick's short snap
    if cue == "stone":
        return _wav(_knock(0.12, 1250.0, 0.025, 0.35, 2))  # wood on wood
    if cue == "board":
        return _wav(_knock(0.16, 320.0, 0.040, 0.45, 3))  # wood on the board: lower, duller
    if cue == "puck":
        return _wav(_knock(0.08, 1900.0, 0.015, 0.5, 4))  # the small puck's click
    if cue == "siren":
        return _wav(_tone(1.6, lambda t: 620 + 260 * math.sin(2 * math.pi * 0.9 * t)))
    if cue == "goal":
        return _wav(_tone(0.9, lambda t: 392 if t < 0.35 else 523))
    raise ValueError(f"unknown sound cue {cue!r}; expected one of {', '.join(CUES)}")


def write_all(folder: Path) -> dict[str, Path]:
    """Write every cue as ``<cue>.wav`` into ``folder`` (only the missing ones); their paths by cue."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for cue in CUES:
        path = folder / f"{cue}.wav"
        if not path.exists():
            path.write_bytes(synthesise(cue))
        paths[cue] = path
    return paths


if __name__ == "__main__":  # pragma: no cover
    for cue, where in write_all(Path(sys.argv[1] if len(sys.argv) > 1 else ".")).items():
        print(f"{cue}: {where}")
