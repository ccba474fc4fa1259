"""The player's identity on disk: kept per server URL, written atomically with owner-only permissions, and used on
the next start to come back to a running match — against the real server on port 0."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from client.common import config_dir as config
from client.common.identity import IdentityStore
from shared.protocol import CreateRoom, JoinRoom
from tests.client.test_live import SETTINGS, Coach, until, url  # noqa: F401  (url is the live server fixture)


def test_identity_is_kept_per_server_url(tmp_path: Path):
    """Two servers keep two identities; forgetting a field (None) removes only that field."""
    store = IdentityStore(tmp_path)
    store.update("ws://a/", token="ta", name="Jana", room="K7QZ")
    store.update("ws://b/", token="tb")
    store.update("ws://a/", room=None)
    assert store.get("ws://a/").token == "ta" and store.get("ws://a/").name == "Jana"
    assert store.get("ws://a/").room is None and store.get("ws://b/").token == "tb"
    assert store.get("ws://never/").token is None


def test_the_identity_file_is_readable_by_its_owner_only(tmp_path: Path):
    """The token is a secret: the file is written with permissions 0600 and no temporary file is left."""
    store = IdentityStore(tmp_path)
    store.update("ws://a/", token="secret")
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == [store.path.name]


def test_a_corrupt_identity_file_reads_as_a_fresh_start(tmp_path: Path):
    """Garbage on disk is not a crash: the client starts as a new player and rewrites the file."""
    store = IdentityStore(tmp_path)
    store.path.write_text("{not json", encoding="utf-8")
    assert store.get("ws://a/").token is None
    store.update("ws://a/", token="t")
    assert json.loads(store.path.read_text())["servers"]["ws://a/"]["token"] == "t"


def test_the_config_directory_follows_the_environment(monkeypatch, tmp_path: Path):
    """SPRTEC_CONFIG_DIR decides where the files go; the store uses it when given no folder."""
    monkeypatch.setenv(config.ENV, str(tmp_path / "elsewhere"))
    assert config.config_dir() == tmp_path / "elsewhere"
    assert IdentityStore().path == tmp_path / "elsewhere" / "identity.json"


def test_an_atomic_write_replaces_the_whole_file(tmp_path: Path):
    """A second write replaces the first completely (no merge of old and new text)."""
    path = tmp_path / "f.json"
    config.write_private(path, {"a": 1, "long": "x" * 500})
    config.write_private(path, {"b": 2})
    assert json.loads(path.read_text()) == {"b": 2}


def test_a_coach_whose_client_closed_comes_back_to_his_running_match(url, tmp_path: Path):  # noqa: F811
    """Jana's client closes mid-match; a new client with the same config says Hello with her token and is
    seated again in her room, as home, with the match where it was."""
    store = IdentityStore(tmp_path / "jana")
    jana, ola = Coach(url, "Jana", store), Coach(url, "Ola")
    try:
        until([jana, ola], lambda: jana.welcomed() and ola.welcomed(), "the welcomes")
        assert jana.link.request(CreateRoom("quick", SETTINGS, True))
        until([jana, ola], lambda: jana.state.room is not None, "the room")
        code = jana.state.room
        assert code is not None and ola.link.request(JoinRoom(code))
        until([jana, ola], lambda: not jana.state.free_seats and ola.state.seat == "away", "the opponent")
        token, version = jana.client.token, jana.state.version
        assert store.get(url).token == token and store.get(url).room == code
        jana.client.close()
        again = Coach(url, None, store)
        try:
            until([again, ola], lambda: again.state.room == code and again.state.position is not None,
                  "the return to the match")
            assert again.client.token == token and again.state.seat == "home"
            assert again.state.version >= version and again.state.names["home"].startswith("Jana")
        finally:
            again.client.close()
    finally:
        jana.client.close()
        ola.client.close()


def test_a_refused_token_is_forgotten_and_the_client_connects_afresh(url, tmp_path: Path):  # noqa: F811
    """A token the server does not know (close 4002) is dropped from disk and replaced by the new Welcome's."""
    store = IdentityStore(tmp_path / "stale")
    store.update(url, token="not-a-token-of-this-server", name="Jana", room="GONE")
    coach = Coach(url, None, store)
    try:
        until([coach], coach.welcomed, "a welcome as a new player")
        kept = store.get(url)
        assert kept.token == coach.client.token and kept.token != "not-a-token-of-this-server"
        assert kept.name == "Jana" and kept.room is None and coach.state.room is None
    finally:
        coach.client.close()


def test_rejoining_a_match_that_is_over_leaves_no_error_in_the_lobby(url, tmp_path: Path):  # noqa: F811
    """A kept room the server no longer has is forgotten quietly: no stale error for the coach."""
    first = Coach(url, "Jana", IdentityStore(tmp_path / "j"))
    try:
        until([first], first.welcomed, "the welcome")
        token = first.client.token
    finally:
        first.client.close()
    store = IdentityStore(tmp_path / "j")
    store.update(url, token=token, room="NOSUCH")
    coach = Coach(url, None, store)
    try:
        until([coach], lambda: coach.welcomed() and store.get(url).room is None, "the kept room to be forgotten")
        assert not [m for m in coach.link.other if type(m).__name__ == "Error"]
    finally:
        coach.client.close()
