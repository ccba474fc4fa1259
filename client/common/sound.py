"""The client's sounds: the flick, stone–stone and stone–board knocks as loud as their impulse, the puck, the siren
(III.6: every part is signalled by a sound) and the goal horn (no arcade at import).

Why this shape: the files are synthesised by ``client.common.sound_synth`` (kept in the repository; no recordings, no
downloads) at first use, into ``client/assets`` or, when the package is not writable, the user's cache directory.
The knocks come from the move's keyframes (``client.common.knocks``), their loudness from the contact's impulse.
The rules' own sounds come first: the siren and the goal horn play at the master volume, the knocks at most
at ``EFFECTS_CAP`` of it and never while a siren or horn sounds, so the referee's signals are always heard.
On a machine without an audio device (or headless) every call degrades silently; ``muted`` turns sound off.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from client.common import sound_synth

ASSETS = Path(__file__).resolve().parents[1] / "assets"  # client/assets, beside the applications' folders
EFFECTS_CAP = 0.6  # the loudest knock, as a share of the master volume: below the siren and the horn
SIGNALS = {"siren": 1.6, "goal": 0.9}  # the rules' sounds and how long each lasts (s): knocks keep quiet then


def ensure_assets(folder: Path = ASSETS) -> dict[str, Path]:
    """The sound files by cue name, synthesised on first use (into the user's cache when ``folder`` is read-only)."""
    try:
        return sound_synth.write_all(folder)
    except OSError:
        import platformdirs

        return sound_synth.write_all(Path(platformdirs.user_cache_dir("sprtec")) / "sounds")


class Sounds:
    """Plays cues at the player's volumes; silent when muted or when no audio device is available."""

    def __init__(self, muted: bool = False, volume: float = 0.8, effects: float = 0.8,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """Load nothing yet; the files and the audio driver are touched on the first cue."""
        self.muted = muted
        self.volume = volume
        self.effects = effects
        self.clock = clock
        self.quiet_until = 0.0  # a siren or horn sounds until then
        self.played: list[tuple[str, float]] = []  # (cue, volume) of every sound asked for (tests listen here)
        self._loaded: dict[str, object] | None = None

    def configure(self, volume: float, effects: float, muted: bool) -> None:
        """The player's settings: master volume, the effects' share of it, mute."""
        self.volume, self.effects, self.muted = volume, effects, muted

    def play(self, cue: str) -> None:
        """Play ``siren`` or ``goal`` at the master volume (knocks wait until it has sounded)."""
        if cue in SIGNALS:
            self.quiet_until = max(self.quiet_until, self.clock() + SIGNALS[cue])
        self._play(cue, self.volume)

    def knock(self, kind: str, loudness: float) -> None:
        """A knock (``flick``, ``stone``, ``puck``, ``board``) at ``loudness`` 0..1 of the effects' volume; not
        while a siren or horn sounds."""
        if self.clock() < self.quiet_until:
            return
        self._play(kind, self.volume * self.effects * EFFECTS_CAP * max(0.0, min(1.0, loudness)))

    def _play(self, cue: str, volume: float) -> None:
        """Play one file at ``volume``; never raises because of audio."""
        if self.muted or volume <= 0:
            return
        self.played.append((cue, volume))
        try:
            import arcade

            if self._loaded is None:
                self._loaded = {name: arcade.load_sound(path) for name, path in ensure_assets().items()}
            sound = self._loaded.get(cue)
            if sound is not None:
                arcade.play_sound(sound, volume=volume)  # type: ignore[arg-type]
        except Exception:  # no audio device, no driver, headless: the game goes on silently
            self._loaded = {}
