"""The player's settings — name, volumes, mute, fullscreen, the aiming guide, the language, whether the first-start
hint was seen — kept in ``settings.json`` in the client's config directory (no arcade).

Why a file of its own beside the identity: settings are the player's for every server, the identity is per
server; both live in ``client.common.config_dir`` (``SPRTEC_CONFIG_DIR`` in tests). Unknown or ill-typed values in the
file fall back to the defaults, so an old or hand-edited file never stops the client.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from client.common.config_dir import config_dir, read_json, write_private

FILE = "settings.json"


@dataclass(frozen=True, slots=True, kw_only=True)
class UserSettings:
    """Everything the settings screen changes."""

    name: str = ""  # the display name asked for on every server ("" lets the server choose)
    volume: float = 0.8  # master volume 0..1
    effects: float = 0.8  # knocks and flicks, 0..1 of the master volume (the siren and goal horn stay at master)
    muted: bool = False
    fullscreen: bool = False
    aim_guide: bool = True  # the aiming guide (never in the strict ruleset)
    language: str = ""  # "" follows the system locale; else en, cs or pl
    intro_seen: bool = False  # the first-start hint was shown

    def changed(self, **changes: Any) -> UserSettings:
        """A copy with ``changes``."""
        return replace(self, **changes)


def _valid(name: str, value: Any, default: Any) -> Any:
    """``value`` when it has the setting's type (volumes clamped to 0..1), else ``default``."""
    if isinstance(default, bool):
        return value if isinstance(value, bool) else default
    if isinstance(default, float):
        if isinstance(value, int | float) and not isinstance(value, bool):
            return min(1.0, max(0.0, float(value)))
        return default
    if isinstance(default, str):
        return value[:32] if isinstance(value, str) else default
    return default


def load(folder: Path | None = None) -> UserSettings:
    """The settings kept on disk (defaults for anything missing or wrong)."""
    data = read_json((folder or config_dir()) / FILE)
    defaults = UserSettings()
    values = {f.name: _valid(f.name, data.get(f.name), getattr(defaults, f.name)) for f in fields(UserSettings)}
    return UserSettings(**values)


def save(settings: UserSettings, folder: Path | None = None) -> None:
    """Keep ``settings`` on disk (atomically, like the identity)."""
    write_private((folder or config_dir()) / FILE, asdict(settings))
