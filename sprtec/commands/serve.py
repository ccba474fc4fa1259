"""``sprtec serve``: run the authoritative server until SIGTERM or SIGINT.

Why the first line of stdout is the URL: with ``--port 0`` the system picks a free port, and tests, the
benchmark and the client's practice mode start the server as a subprocess and read where it listens.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import resource
import signal
import sys
import tomllib
from pathlib import Path

from server.constants import DEFAULT_DATA_DIR, DEFAULT_HOST, DEFAULT_PORT

HELP = "run the server (default ws://127.0.0.1:8765/, data in ./data)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--host, --port, --data, --config, --workers, --log-level."""
    parser.add_argument("--host", default=None, help=f"address to listen on (default {DEFAULT_HOST})")
    parser.add_argument("--port", type=int, default=None, help=f"port, 0 picks a free one (default {DEFAULT_PORT})")
    parser.add_argument("--data", default=None, help=f"data directory (default {DEFAULT_DATA_DIR})")
    parser.add_argument("--config", default=None, help="a TOML file with host, port, data, workers")
    parser.add_argument("--workers", type=int, default=None, help="physics worker processes (default: one per core)")
    parser.add_argument(
        "--log-level",
        default="INFO",
        choices=("DEBUG", "INFO", "WARNING", "ERROR"),
        help="INFO logs one line per connection, room and match event (default); WARNING only problems",
    )


def config_from(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """Defaults, then the config file, then the command line."""
    from server.app import ServerConfig

    values: dict[str, object] = {}
    if args.config:
        with open(args.config, "rb") as handle:
            values = tomllib.load(handle)
        unknown = set(values) - {"host", "port", "data", "workers"}
        if unknown:
            raise SystemExit(f"sprtec serve: unknown keys in {args.config}: {', '.join(sorted(unknown))}")
    for key in ("host", "port", "data", "workers"):
        if getattr(args, key) is not None:
            values[key] = getattr(args, key)
    return ServerConfig(
        host=str(values.get("host", DEFAULT_HOST)),
        port=int(values.get("port", DEFAULT_PORT)),  # type: ignore[arg-type]
        data_dir=Path(str(values.get("data", DEFAULT_DATA_DIR))),
        workers=None if values.get("workers") is None else int(values["workers"]),  # type: ignore[arg-type]
    )


async def serve(config) -> int:  # type: ignore[no-untyped-def]
    """Start, print the URL, wait for a signal, shut down gracefully."""
    from server.app import Server

    server = Server(config)
    port = await server.start()
    print(f"ws://{config.host}:{port}/", flush=True)
    print(f"sprtec server listening on {config.host}:{port}, data in {config.data_dir}", file=sys.stderr, flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    print("sprtec server shutting down", file=sys.stderr, flush=True)
    await server.shutdown()
    return 0


def run(args: argparse.Namespace) -> int:
    """Run the server until a signal; exit status 0 after a graceful shutdown."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # one descriptor per connection: take what we may
    logging.basicConfig(level=args.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("websockets").setLevel(max(logging.WARNING, logging.getLevelName(args.log_level)))
    return asyncio.run(serve(config_from(args)))
