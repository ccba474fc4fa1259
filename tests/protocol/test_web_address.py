"""The web pages' addresses made from a server's websocket URL: the desk's QR code, the hall and
``sprtec tournament run`` name the page a phone can open."""

from __future__ import annotations

import pytest

from shared.protocol.web_address import tournament_page, web_base


@pytest.mark.parametrize(("url", "base"), [
    ("ws://10.0.0.5:8765/", "http://10.0.0.5:8765"),
    ("wss://hokej.example.cz/", "https://hokej.example.cz"),
    ("ws://[fe80::1]:8765/", "http://[fe80::1]:8765"),
    ("localhost:8765", "http://localhost:8765"),
    ("ws://host:8765/sprtec?x=1", "http://host:8765"),
])
def test_the_site_is_on_the_game_port_over_http(url, base):
    assert web_base(url) == base


def test_a_tournament_page_quotes_its_id():
    assert tournament_page("ws://10.0.0.5:8765/", "T3") == "http://10.0.0.5:8765/tournaments/T3"
    assert tournament_page("ws://h:1/", "a/b c") == "http://h:1/tournaments/a%2Fb%20c"
