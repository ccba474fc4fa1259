"""The siren and the goal horn (III.6: every part is signalled by a sound), generated as WAV files at first use.

Why generated: no downloads and no binary blobs in the repository — a few lines of the standard library's
``wave`` module write two short tones into ``client/assets``. Playing goes through arcade; on a machine
without an audio device (or headless) every call degrades silently, and ``muted`` turns sound off.
"""

from __future__ import annotations

import math
import struct
import wave
from collections.abc import Callable
from pathlib import Path

ASSETS = Path(__file__).resolve().parent / "assets"
RATE = 22_050


def _tone(path: Path, seconds: float, pitch: Callable[[float], float], volume: float = 0.5) -> Path:
    """Write a mono 16-bit WAV whose frequency at time t is ``pitch(t)`` Hz, with soft attack and release."""
    frames = bytearray()
    phase = 0.0
    total = int(seconds * RATE)
    for i in range(total):
        t = i / RATE
        phase += 2 * math.pi * pitch(t) / RATE
        envelope = min(1.0, t / 0.03, (seconds - t) / 0.08)
        sample = math.sin(phase) + 0.35 * math.sin(2 * phase) + 0.15 * math.sin(3 * phase)
        frames += struct.pack("<h", int(max(-1.0, min(1.0, sample / 1.5 * volume * envelope)) * 32767))
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(bytes(frames))
    return path


def ensure_assets(folder: Path = ASSETS) -> dict[str, Path]:
    """The sound files by cue name, written on first use: a rising-falling siren and a two-note goal horn."""
    files = {"siren": folder / "siren.wav", "goal": folder / "goal.wav"}
    if not files["siren"].exists():
        _tone(files["siren"], 1.6, lambda t: 620 + 260 * math.sin(2 * math.pi * 0.9 * t))
    if not files["goal"].exists():
        _tone(files["goal"], 0.9, lambda t: 392 if t < 0.35 else 523)
    return files


class Sounds:
    """Plays cues; silent when muted or when no audio device is available."""

    def __init__(self, muted: bool = False) -> None:
        """Load nothing yet; the files and the audio driver are touched on the first cue."""
        self.muted = muted
        self._loaded: dict[str, object] | None = None

    def play(self, cue: str) -> None:
        """Play ``siren`` or ``goal``; never raises because of audio."""
        if self.muted:
            return
        try:
            import arcade

            if self._loaded is None:
                self._loaded = {name: arcade.load_sound(path) for name, path in ensure_assets().items()}
            sound = self._loaded.get(cue)
            if sound is not None:
                arcade.play_sound(sound)  # type: ignore[arg-type]
        except Exception:  # no audio device, no driver, headless: the game goes on silently
            self._loaded = {}
