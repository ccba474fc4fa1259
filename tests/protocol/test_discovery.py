"""The LAN announcement's TXT record: it round-trips, stays within DNS-SD's bounds, and any bytes read safely."""

from __future__ import annotations

import unicodedata

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.protocol import PROTOCOL_VERSION
from shared.protocol.lan_record import (
    MAX_LISTED_TOURNAMENTS,
    MAX_NAME_BYTES,
    MAX_TOURNAMENT_NAME_BYTES,
    MAX_TXT_RECORD,
    MAX_TXT_STRING,
    RunningTournament,
    ServerAnnouncement,
    decode_txt,
    encode_txt,
    found_server,
    txt_strings,
)

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ids = st.from_regex(r"[A-Za-z0-9_-]{1,32}", fullmatch=True)
tournaments = st.builds(RunningTournament, ids, st.text(max_size=200))
announcements = st.builds(
    ServerAnnouncement,
    name=st.text(max_size=120),
    protocol_version=st.integers(0, 65_535),
    scheme=st.sampled_from(("ws", "wss")),
    path=st.from_regex(r"/[\x21-\x7e]{0,63}", fullmatch=True),
    players_online=st.integers(0, 999_999),
    tournaments=st.lists(tournaments, max_size=20).map(tuple),
    tournaments_total=st.none() | st.integers(0, 999_999),
)


def _strings(*items: bytes) -> bytes:
    """A TXT record from its strings, each with its length byte."""
    return b"".join(bytes((len(item),)) + item for item in items)


def _visible(text: str) -> bool:
    """No control, format or other invisible code point (what a terminal could act on)."""
    return not any(unicodedata.category(ch)[0] == "C" for ch in text)


def test_announcement_round_trips_through_the_txt_record() -> None:
    """A server's name, protocol, URL parts, players and tournaments come back as they were announced."""
    sent = ServerAnnouncement(
        name="Klub Šprtec Brno",
        scheme="wss",
        path="/play",
        players_online=12,
        tournaments=(RunningTournament("open-2026", "Velká cena Brna"), RunningTournament("kids", "Žáci")),
    )
    assert decode_txt(encode_txt(sent)) == ServerAnnouncement(
        name="Klub Šprtec Brno",
        protocol_version=PROTOCOL_VERSION,
        scheme="wss",
        path="/play",
        players_online=12,
        tournaments=sent.tournaments,
        tournaments_total=2,
    )


@FAST
@given(announcements, st.none() | st.integers(0, 2**63))
def test_every_txt_string_and_the_record_stay_within_dns_sd_bounds(
    announcement: ServerAnnouncement, revision: int | None
) -> None:
    """Each string is at most 255 bytes and the whole record at most 1300 (RFC 6763 §6.1, §6.2)."""
    text = encode_txt(announcement, revision)
    assert len(text) <= MAX_TXT_RECORD
    position = 0
    while position < len(text):
        assert 0 < text[position] <= MAX_TXT_STRING
        position += 1 + text[position]
    assert position == len(text)


@FAST
@given(announcements)
def test_a_long_tournament_list_is_cut_to_the_first_eight_and_still_counted(announcement: ServerAnnouncement) -> None:
    """The first 8 tournaments are listed in order, names cut at a character boundary; ``tours`` counts them all."""
    decoded = decode_txt(encode_txt(announcement))
    assert decoded is not None
    listed = announcement.tournaments[:MAX_LISTED_TOURNAMENTS]
    assert [t.id for t in decoded.tournaments] == [t.id for t in listed]
    for got, sent in zip(decoded.tournaments, listed, strict=True):
        assert len(got.name.encode()) <= MAX_TOURNAMENT_NAME_BYTES
        assert _visible(got.name)
        assert " ".join(sent.name.split()).startswith(got.name) or not _visible(sent.name)
    expected_total = max(len(announcement.tournaments), announcement.tournaments_total or 0)
    assert decoded.tournaments_running == expected_total


def test_each_revision_is_a_distinct_record_that_reads_the_same() -> None:
    """``rev`` makes a republished record new to caches keyed by content, and clients ignore it."""
    announcement = ServerAnnouncement(name="Klub", players_online=0)
    first, second = encode_txt(announcement, 41), encode_txt(announcement, 42)
    assert first != second
    assert decode_txt(first) == decode_txt(second) == decode_txt(encode_txt(announcement))


def test_a_long_name_is_cut_inside_the_label_length_without_splitting_a_character() -> None:
    """A 100-character Czech name is announced as its longest prefix of at most 63 bytes of UTF-8."""
    name = "Šprtec " * 15
    decoded = decode_txt(encode_txt(ServerAnnouncement(name=name)))
    assert decoded is not None
    assert len(decoded.name.encode()) <= MAX_NAME_BYTES
    assert len(decoded.name.encode()) > MAX_NAME_BYTES - 8
    assert name.startswith(decoded.name)


def test_control_characters_never_reach_a_terminal() -> None:
    """Escape sequences and bidirectional overrides in a name from the network are dropped, newlines become spaces."""
    text = _strings(b"txtvers=1", b"proto=1", "name=Evil\x1b[2J\u202eClub\nnext line".encode())
    decoded = decode_txt(text)
    assert decoded is not None
    assert decoded.name == "Evil[2JClub next line"


@FAST
@given(st.binary(max_size=2000))
def test_any_bytes_give_an_announcement_or_none_and_never_raise(text: bytes) -> None:
    """A TXT record from the network is hostile: arbitrary bytes decode to a bounded value or to None."""
    decoded = decode_txt(text)
    if decoded is not None:
        assert len(decoded.name.encode()) <= MAX_NAME_BYTES and _visible(decoded.name)
        assert 0 <= decoded.players_online <= 999_999
        assert decoded.scheme in ("ws", "wss") and decoded.path.startswith("/")
        assert len(decoded.tournaments) <= MAX_LISTED_TOURNAMENTS


@FAST
@given(st.lists(st.binary(max_size=255), max_size=30))
def test_any_txt_strings_give_an_announcement_or_none_and_never_raise(items: list[bytes]) -> None:
    """Well-framed strings with arbitrary contents (keys, '=', bad UTF-8) never make the decoder raise."""
    decode_txt(_strings(b"proto=1", *items))


def test_a_record_without_a_readable_protocol_version_is_not_a_server() -> None:
    """No ``proto``, a non-decimal one or a negative one: the record is ignored (None)."""
    assert decode_txt(_strings(b"txtvers=1", b"name=x")) is None
    assert decode_txt(_strings(b"proto=one")) is None
    assert decode_txt(_strings(b"proto=-1")) is None
    assert decode_txt(_strings(b"proto")) is None


def test_an_unknown_txt_version_is_ignored() -> None:
    """``txtvers`` other than 1 means a layout this client cannot read: the record is ignored."""
    assert decode_txt(_strings(b"txtvers=2", b"proto=1")) is None
    assert decode_txt(_strings(b"proto=1")) is not None


def test_unreadable_values_are_defaulted() -> None:
    """Bad UTF-8, non-numeric players, an unknown scheme, a path without '/' and a bad tournament id: defaults."""
    decoded = decode_txt(
        _strings(
            b"proto=1",
            b"name=\xff\xfe",
            b"players=many",
            b"scheme=gopher",
            b"path=no-slash",
            b"t1=bad!id x",
            b"t2=ok Real one",
            b"t3=\xc3",
        )
    )
    assert decoded == ServerAnnouncement(
        name="", players_online=0, scheme="ws", path="/", tournaments=(RunningTournament("ok", "Real one"),)
    )


def test_keys_are_case_insensitive_and_the_first_occurrence_wins() -> None:
    """RFC 6763 §6.4: ``PROTO`` is ``proto`` and a repeated key keeps its first value."""
    decoded = decode_txt(_strings(b"PROTO=1", b"Players=3", b"players=9"))
    assert decoded is not None and decoded.players_online == 3


def test_a_string_cut_short_by_the_end_of_the_record_is_skipped() -> None:
    """A length byte promising more than the record holds: that string is skipped, the rest is read."""
    text = _strings(b"proto=1", b"players=4") + bytes((200,)) + b"name=truncated"
    assert txt_strings(text) == {"proto": b"1", "players": b"4"}


def test_found_server_prefers_an_address_on_a_local_network() -> None:
    """Of several announced addresses, the URL uses the one inside a network of this machine."""
    server = found_server(
        instance="Klub",
        addresses=["198.19.0.1", "198.18.0.1", "fe80::1"],
        port=8765,
        text=encode_txt(ServerAnnouncement(name="Klub")),
        local_networks=["198.18.0.2/24"],
    )
    assert server is not None
    assert server.url == "ws://198.18.0.1:8765/"
    assert server.addresses == ("198.19.0.1", "198.18.0.1")


def test_found_server_ignores_records_no_client_can_use() -> None:
    """No IPv4 address, only unusable addresses, port 0 or an unreadable TXT record: not a server."""
    text = encode_txt(ServerAnnouncement(name="Klub"))
    assert found_server(instance="a", addresses=[], port=8765, text=text) is None
    assert found_server(instance="a", addresses=["0.0.0.0", "224.0.0.251"], port=8765, text=text) is None
    assert found_server(instance="a", addresses=["198.18.0.1"], port=0, text=text) is None
    assert found_server(instance="a", addresses=["198.18.0.1"], port=8765, text=b"\x05junk!") is None


def test_found_server_falls_back_to_the_instance_name() -> None:
    """A record without a readable name is listed under its (printable) DNS-SD instance name."""
    server = found_server(instance="Hall\x07 B", addresses=["198.18.0.1"], port=1, text=_strings(b"proto=1"))
    assert server is not None and server.name == "Hall B"


def test_compatibility_is_judged_against_this_clients_protocol() -> None:
    """A server of another protocol version is listed but marked incompatible."""
    text = encode_txt(ServerAnnouncement(name="Old", protocol_version=PROTOCOL_VERSION + 1))
    server = found_server(instance="Old", addresses=["198.18.0.1"], port=1, text=text)
    assert server is not None and not server.compatible
    assert server.to_json()["compatible"] is False
