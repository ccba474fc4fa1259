"""A real headless Chromium for the pages' tests: the distribution's package, driven by Playwright for Python.

Why the distribution's browser: Playwright's own download needs the network; the Makefile installs Debian's
``chromium`` as root (``make browser-tools``), and where it or Playwright is missing the tests skip with one line
saying what to install. The flags keep a browser with no network from waiting on look-ups and updates.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
BIG_SCREEN = {"width": 1920, "height": 1080}


def chromium_path() -> str | None:
    """The distribution's Chromium, if installed."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def skip_without_browser() -> None:
    """Skip the test, with one line saying why, when Chromium or Playwright is missing."""
    if chromium_path() is None:
        pytest.skip("no Chromium: install Debian's chromium (make browser-tools, as root)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("no Playwright for Python: pip install -e '.[test]'")


@contextmanager
def browser() -> Iterator[Any]:
    """A headless Chromium with a fresh profile."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p, tempfile.TemporaryDirectory(prefix="sprtec-chromium-") as profile:
        context = p.chromium.launch_persistent_context(profile, executable_path=chromium_path(), args=FLAGS,
                                                       headless=True)
        try:
            yield context
        finally:
            context.close()


def shots_dir(tmp: Path) -> Path:
    """Where screenshots go: $SPRTEC_SHOTS (to look at them), else the test's folder."""
    folder = Path(os.environ.get("SPRTEC_SHOTS") or tmp)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def free_port() -> int:
    """A free TCP port on the loopback address."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def sprtec(*argv: str, log: Path) -> subprocess.Popen[bytes]:
    """``sprtec ARGV`` as a child process, its output into ``log``."""
    with log.open("wb") as out:
        return subprocess.Popen([sys.executable, "-m", "sprtec.cli", *argv], stdout=out, stderr=subprocess.STDOUT)


def wait_ready(base: str, timeout: float = 60.0) -> None:
    """Until the server at ``base`` answers /readyz with 200."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{base}/readyz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"the server at {base} did not get ready")


def get_json(base: str, path: str) -> Any:
    """GET an API path as JSON."""
    import json

    with urllib.request.urlopen(f"{base}{path}", timeout=10) as answer:
        return json.loads(answer.read())


