"""``sprtec bench server --spectators N --browsers``: the fan-out measured again with N real browsers watching.

Why: a phone or a laptop watching ``/watch/ROOM`` is a spectator of the game's websocket like a desktop client
(Hello, Watch, then every MovePlayed: the same frames), plus the page itself (its HTML, scripts, the board's
geometry and the moves so far from the read API). The web's promise is that such a spectator costs the server no
more than a desktop one. Both kinds are measured in the same run, on the same watched match, by the server
process's own CPU: the join (from the first connection until the last spectator holds the match) and each
delivery (a move of the watched match against one of a match nobody watches, per spectator).

The browsers are the distribution's headless Chromium driven by Playwright (as the pages' tests do), one browser
context per tab so that each keeps its own token, as separate phones would; a tab holds a move once its page's
``window.sprtec.version()`` (``server/web/static/watch.js``) has reached it.
"""

from __future__ import annotations

import asyncio
import shutil
from typing import Any

from shared.protocol.web_address import web_base

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
VERSION = "() => (window.sprtec && window.sprtec.version) ? window.sprtec.version() : -1"


def chromium_path() -> str | None:
    """The distribution's Chromium, if installed (``make browser-tools``)."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def missing() -> str | None:
    """Why browsers cannot be measured here, or None."""
    if chromium_path() is None:
        return "no Chromium: install Debian's chromium (make browser-tools, as root)"
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "no Playwright for Python: pip install -e '.[test]'"
    return None


class Tabs:
    """Headless Chromium tabs watching one room's page, each in a context of its own."""

    def __init__(self) -> None:
        self.playwright: Any = None
        self.browser: Any = None
        self.pages: list[Any] = []

    async def open(self, url: str, code: str, count: int) -> None:
        """Start Chromium and open ``count`` tabs on ``/watch/CODE`` of the server at websocket ``url``."""
        from playwright.async_api import async_playwright

        self.playwright = await async_playwright().start()
        self.browser = await self.playwright.chromium.launch(executable_path=chromium_path(), args=FLAGS,
                                                             headless=True)
        page_url = f"{web_base(url)}/watch/{code}"
        contexts = [await self.browser.new_context(viewport={"width": 800, "height": 600}) for _ in range(count)]
        self.pages = [await context.new_page() for context in contexts]
        await asyncio.gather(*(page.goto(page_url, wait_until="load") for page in self.pages))

    async def versions(self) -> list[int]:
        """The version of the match each tab has reached."""
        return [int(v) for v in await asyncio.gather(*(page.evaluate(VERSION) for page in self.pages))]

    async def hold(self, version: int) -> bool:
        """True when every tab has reached ``version``."""
        return min(await self.versions(), default=version) >= version

    async def close(self) -> None:
        """Close the browser."""
        if self.browser is not None:
            await self.browser.close()
        if self.playwright is not None:
            await self.playwright.stop()
