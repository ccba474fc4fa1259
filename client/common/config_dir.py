"""Where the client keeps what must outlive a window — the player's identity per server and his settings — and how
it writes there (no arcade).

Why one place: both files belong in the user's config directory (platformdirs ``user_config_dir("sprtec")``:
``~/.config/sprtec`` on Linux), which tests and portable installs point elsewhere with the environment variable
``SPRTEC_CONFIG_DIR``. Files are written atomically (a temporary file in the same directory, then ``os.replace``)
so a crash never leaves half a file, and readable by their owner only (0600): the identity holds resume tokens,
which are secrets. A missing, unreadable or corrupt file reads as empty: the client then starts afresh.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import platformdirs

ENV = "SPRTEC_CONFIG_DIR"
APP = "sprtec"
PRIVATE = 0o600


def config_dir() -> Path:
    """The client's config directory: ``$SPRTEC_CONFIG_DIR`` when set, else the platform's user config dir."""
    chosen = os.environ.get(ENV)
    return Path(chosen) if chosen else Path(platformdirs.user_config_dir(APP))


def read_json(path: Path) -> dict[str, Any]:
    """The JSON object in ``path``; an empty one when the file is missing, unreadable or not an object."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_private(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as JSON to ``path`` atomically, readable and writable by the owner only (0600)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.fchmod(handle, PRIVATE)
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=2, sort_keys=True)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
