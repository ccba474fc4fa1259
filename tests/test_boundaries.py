"""The architecture's boundaries (DESIGN.md "Layout"), checked by walking every import with ``ast``."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _imports(package: str) -> list[tuple[Path, str]]:
    found: list[tuple[Path, str]] = []
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.extend((path, alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.append((path, node.module))
    return found


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
    """The server stays headless: no client code, no arcade."""
    assert _offenders("server", ("client", "arcade", "pyglet")) == []


def test_only_physics_imports_pymunk():
    """shared/physics.py is the only module of the project that imports pymunk (the bare bench loop aside)."""
    allowed = {"shared/physics.py", "sprtec/commands/bench_physics.py"}
    offenders = [
        f"{path.relative_to(ROOT)}"
        for package in ("shared", "server", "client", "sprtec")
        for path, name in _imports(package)
        if name.split(".")[0] == "pymunk" and str(path.relative_to(ROOT)) not in allowed
    ]
    assert offenders == []


def test_only_protocol_imports_msgpack():
    """The msgpack codec lives in shared/protocol only."""
    offenders = [
        f"{path.relative_to(ROOT)}"
        for package in ("shared", "server", "client", "sprtec")
        for path, name in _imports(package)
        if name.split(".")[0] == "msgpack" and "shared/protocol" not in str(path.relative_to(ROOT))
    ]
    assert offenders == []


def test_runtime_packages_never_import_the_document_tools():
    """tools/ reads docs/ and tests/ of a checkout and is not installed: no runtime package may import it."""
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for package in ("shared", "server", "client", "sprtec")
        for path, name in _imports(package)
        if name.split(".")[0] == "tools"
    ]
    assert offenders == []


def test_core_uses_no_global_random_or_wall_clock():
    """Determinism: the core never imports random or time, nor reads the wall clock via datetime."""
    assert _offenders("shared", ("random", "time", "datetime", "secrets", "uuid")) == []
