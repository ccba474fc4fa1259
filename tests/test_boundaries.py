"""The architecture's boundaries (docs/ARCHITECTURE.md "What may import what"), checked by walking every import
with ``ast``: the top-level packages, then every layer of the server and of the client."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@functools.cache  # the tree does not change during a run: each package is parsed once, not once per test
def _imports(package: str) -> tuple[tuple[Path, str], ...]:
    found: list[tuple[Path, str]] = []
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.extend((path, alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.append((path, node.module))
    return tuple(found)


def _module(path: Path) -> str:
    """``server/rooms/room.py`` -> ``server.rooms.room``."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _offenders(package: str, forbidden: tuple[str, ...]) -> list[str]:
    return [
        f"{path.relative_to(ROOT)} imports {name}"
        for path, name in _imports(package)
        if name.split(".")[0] in forbidden
    ]


def test_shared_imports_neither_server_nor_client_nor_io():
    """The pure core never imports the server, the client, sockets, asyncio or arcade."""
    assert (
        _offenders("shared", ("server", "client", "sprtec", "asyncio", "socket", "websockets", "arcade"))
        == []
    )


def test_server_never_imports_client_or_arcade():
    """The server stays headless: no client code, no arcade, nor the command line, benchmarks or tests."""
    assert _offenders("server", ("client", "arcade", "pyglet", "sprtec", "benchmarks", "tests")) == []


def test_client_imports_neither_the_command_line_nor_benchmarks_and_only_the_desk_reads_the_server():
    """The client never imports the command line, the benchmarks or the tests; of the server only the desk imports,
    and only the tournament export and the printed sheets it writes from the data directory of the server it runs
    beside."""
    assert _offenders("client", ("sprtec", "benchmarks", "tests", "tools")) == []
    desk_reads = ("server.tournaments.export", "server.tournaments.printed_sheets")
    server = [f"{path.relative_to(ROOT)} imports {name}" for path, name in _imports("client")
              if name.split(".")[0] == "server"
              and not (_module(path).startswith("client.desk.") and name in desk_reads)]
    assert server == []


def test_the_command_line_and_the_benchmarks_never_import_the_tests():
    """``sprtec`` and ``benchmarks`` are installed; ``tests`` is not: neither may import it (nor the tools)."""
    assert _offenders("sprtec", ("tests", "tools", "benchmarks")) == []
    assert _offenders("benchmarks", ("tests", "tools")) == []


# The server's layers, lowest first: each may import the ones its entry names (and the top-level modules of
# ``server``: constants, clock, lifecycle, logs, tokens, wire), never one above. ``server.app`` composes them all.
SERVER_LAYERS: dict[str, tuple[str, ...]] = {
    "server.store": (),
    "server.lan": (),
    "server.ops": (),
    "server.rooms": ("server.store",),
    "server.replays": ("server.store", "server.rooms"),
    "server.players": ("server.store", "server.rooms"),
    "server.cluster": ("server.store", "server.rooms"),
    "server.tournaments": ("server.store", "server.rooms", "server.replays"),
    "server.leagues": ("server.store", "server.rooms", "server.replays", "server.tournaments"),
    "server.connections": ("server.store", "server.rooms", "server.replays", "server.players", "server.cluster",
                           "server.ops"),
    "server.web": ("server.store", "server.rooms", "server.replays", "server.players", "server.tournaments",
                   "server.leagues",
                   "server.connections"),
}
SERVER_BASE = ("server.constants", "server.clock", "server.lifecycle", "server.logs", "server.tokens", "server.wire")

# The client's: ``common`` for everyone, ``match`` the match screen on it, then the three applications.
CLIENT_LAYERS: dict[str, tuple[str, ...]] = {
    "client.common": (),
    "client.match": ("client.common",),
    "client.hall": ("client.common", "client.match"),
    "client.desk": ("client.common", "client.match"),
    "client.player": ("client.common", "client.match", "client.hall"),  # the lobby's "Watch in the hall"
}


def _layer_of(module: str, layers: dict[str, tuple[str, ...]]) -> str | None:
    return next((layer for layer in layers if module == layer or module.startswith(layer + ".")), None)


def _layer_offenders(package: str, layers: dict[str, tuple[str, ...]], base: tuple[str, ...]) -> list[str]:
    offenders = []
    for path, name in _imports(package):
        here = _layer_of(_module(path), layers)
        if here is None or name.split(".")[0] != package:
            continue
        there = _layer_of(name, layers)
        allowed = there in (here, *layers[here]) or (there is None and (name == package or name in base))
        if not allowed:
            offenders.append(f"{path.relative_to(ROOT)} ({here}) imports {name}")
    return offenders


def test_every_server_layer_imports_only_the_layers_below_it():
    """store, lan, ops < rooms < replays, players, cluster < tournaments < connections < web < app."""
    assert _layer_offenders("server", SERVER_LAYERS, SERVER_BASE) == []


def test_every_client_layer_imports_only_the_layers_below_it():
    """common < match < hall, desk < player."""
    assert _layer_offenders("client", CLIENT_LAYERS, ()) == []


CORES = {  # the pure cores of the server and what each may not import besides I/O itself
    "server/rooms/room_core.py": ("server.rooms.room", "server.rooms.workers"),
    "server/rooms/lobby_core.py": ("server.rooms.room", "server.rooms.lobby", "server.rooms.workers"),
    "server/tournaments/tournament_core.py": ("server.rooms.room", "server.rooms.lobby",
                                              "server.tournaments.service", "server.tournaments.tournament_records"),
    "server/store/group_commit.py": ("server.store.commit_drivers", "queue", "asyncpg"),
    "server/leagues/league_core.py": ("server.rooms.room", "server.rooms.lobby", "server.leagues.service",
                                      "server.leagues.league_records", "server.tournaments.service"),
}


@pytest.mark.parametrize("core", sorted(CORES))
def test_the_cores_do_no_io(core: str) -> None:
    """The room's, the lobby's, the tournament's and the writer's rules without I/O: no asyncio, sockets, database or
    clock; of the store only the plain records a room asks to be written (``server.store.match_records``) and the
    store's port; never their shells."""
    path = ROOT / core
    forbidden = ("asyncio", "socket", "websockets", "sqlite3", "time", "threading", "server.store.sqlite",
                 "server.store.postgres", "server.clock", "server.connections", "server.cluster", *CORES[core])
    names = [name for p, name in _imports("server") if p == path]
    assert names and [n for n in names if any(n == f or n.startswith(f + ".") for f in forbidden)] == []


def test_only_physics_imports_pymunk():
    """shared/physics.py is the only module of the project that imports pymunk (the bare bench loop aside)."""
    allowed = {"shared/physics.py", "benchmarks/physics_cost.py"}
    offenders = [
        f"{path.relative_to(ROOT)}"
        for package in ("shared", "server", "client", "sprtec", "benchmarks")
        for path, name in _imports(package)
        if name.split(".")[0] == "pymunk" and str(path.relative_to(ROOT)) not in allowed
    ]
    assert offenders == []


def test_only_protocol_imports_msgpack():
    """The msgpack codec lives in shared/protocol only."""
    offenders = [
        f"{path.relative_to(ROOT)}"
        for package in ("shared", "server", "client", "sprtec", "benchmarks")
        for path, name in _imports(package)
        if name.split(".")[0] == "msgpack" and "shared/protocol" not in str(path.relative_to(ROOT))
    ]
    assert offenders == []


def test_runtime_packages_never_import_the_document_tools():
    """tools/ reads docs/ and tests/ of a checkout and is not installed: no runtime package may import it."""
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for package in ("shared", "server", "client", "sprtec", "benchmarks")
        for path, name in _imports(package)
        if name.split(".")[0] == "tools"
    ]
    assert offenders == []


def test_core_uses_no_global_random_or_wall_clock():
    """Determinism: the core never imports random or time, nor reads the wall clock via datetime."""
    assert _offenders("shared", ("random", "time", "datetime", "secrets", "uuid")) == []


def test_only_the_clients_views_and_window_controllers_import_arcade():
    """Every model of the client is tested without a screen: arcade and pyglet are imported only by the views
    (``*_view``, ``widgets``, ``tournament_widgets``, ``window``), the controllers that drive a window, and
    ``sound``, which plays through pyglet's media player."""
    controllers = {"client.player.navigator", "client.hall.hall_director", "client.common.sound"}
    offenders = sorted({
        _module(path) for path, name in _imports("client")
        if name.split(".")[0] in ("arcade", "pyglet")
        and not (_module(path).endswith(("_view", ".widgets", ".tournament_widgets", ".window"))
                 or _module(path) in controllers)
    })
    assert offenders == []
