"""``sprtec serve``: run the authoritative server until SIGTERM or SIGINT.

Why the first line of stdout is the URL: with ``--port 0`` the system picks a free port, and tests, the
benchmark and the client's practice mode start the server as a subprocess and read where it listens.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import resource
import signal
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from server.constants import DEFAULT_DATA_DIR, DEFAULT_HOST, DEFAULT_PORT, LAN_HOST
from shared.matchmaking import PoolRules

if TYPE_CHECKING:
    from server.app import ServerConfig
    from server.cluster.node import ClusterConfig

HELP = "run the server (default ws://127.0.0.1:8765/, data in ./data)"
# The keys of the --config file: every option of the command line, named like its dest (--log-level: log_level).
CONFIG_KEYS = ("host", "port", "data", "workers", "lan", "name", "quick_match_max_wait", "log_level", "log_format",
               "redis", "postgres", "node_id", "public_url", "held_seat_wait")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
DEFAULT_HELD_SEAT_WAIT_S = 20  # server.cluster.node.DEFAULT_HELD_SEAT_WAIT_MS, in the command line's unit
DEFAULT_LOG_LEVEL = "INFO"
DEFAULT_LOG_FORMAT = "text"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--host, --port, --data, --config, --workers, --lan, --name, --log-level, --log-format."""
    parser.add_argument(
        "--host", default=None, help=f"address to listen on (default {DEFAULT_HOST}; with --lan {LAN_HOST})"
    )
    parser.add_argument("--port", type=int, default=None, help=f"port, 0 picks a free one (default {DEFAULT_PORT})")
    parser.add_argument("--data", default=None, help=f"data directory (default {DEFAULT_DATA_DIR})")
    parser.add_argument("--config", default=None,
                        help=f"a TOML file with any of {', '.join(CONFIG_KEYS)} (the command line wins)")
    parser.add_argument("--workers", type=int, default=None, help="physics worker processes (default: one per core)")
    parser.add_argument(
        "--lan",
        action="store_true",
        default=None,
        help="announce the server on the LAN (mDNS/DNS-SD) so `sprtec servers` finds it",
    )
    parser.add_argument("--name", default=None, help="the name announced on the LAN (default: sprtec on <hostname>)")
    parser.add_argument("--quick-match-max-wait", type=int, default=None, metavar="S",
                        help=f"seconds after which two waiting players are paired whatever their ratings "
                             f"(default {PoolRules().max_wait_ms // 1000})")
    cluster = parser.add_argument_group("a node of a cluster (README: Cluster; --redis, --postgres, --node-id)")
    cluster.add_argument("--redis", default=None, metavar="URL", help="the cluster's Redis: leases, listing, queue")
    cluster.add_argument("--postgres", default=None, metavar="URL", help="the shared store (replaces --data)")
    cluster.add_argument("--node-id", default=None, metavar="ID", help="this node's name, unique in the cluster")
    cluster.add_argument("--public-url", default=None, metavar="URL",
                         help="where clients reach this node (default: under Agones its GameServer's address "
                              "and host port, else ws://HOST:PORT/)")
    cluster.add_argument("--held-seat-wait", type=int, default=None, metavar="S",
                         help="how long a seat held for a quick-match opponent sent from another node waits for him "
                              f"(default {DEFAULT_HELD_SEAT_WAIT_S}; then the player here is queued again)")
    parser.add_argument(
        "--log-level",
        default=None,
        choices=LOG_LEVELS,
        help="INFO logs one line per connection, room and match event (default); WARNING only problems",
    )
    parser.add_argument(
        "--log-format",
        default=None,
        choices=logs_formats(),
        help="text for people (default); json: one object a line with room, match and player ids, for a collector",
    )


def logs_formats() -> tuple[str, ...]:
    """The log formats ``server.logs`` writes (imported late: ``sprtec --help`` stays quick)."""
    from server.logs import FORMATS

    return FORMATS


def _whole_number(value: object, key: str) -> int:
    """A setting that must be a whole number (port, workers); a wrong one ends the command with a message."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise SystemExit(f"sprtec serve: {key} must be a whole number, not {value!r}")


def _one_of(value: object, key: str, choices: tuple[str, ...]) -> str:
    """A setting that must be one of ``choices`` (log_level, log_format); a wrong one ends the command."""
    if isinstance(value, str) and value in choices:
        return value
    raise SystemExit(f"sprtec serve: {key} must be one of {', '.join(choices)}, not {value!r}")


@dataclasses.dataclass(frozen=True, slots=True)
class LogOptions:
    """How the server logs: the level and the format (``server.logs.configure``)."""

    level: str = DEFAULT_LOG_LEVEL
    fmt: str = DEFAULT_LOG_FORMAT


def log_options(values: dict[str, object]) -> LogOptions:
    """The log level and format of the merged settings (``settings_from``)."""
    return LogOptions(level=_one_of(values.get("log_level", DEFAULT_LOG_LEVEL), "log_level", LOG_LEVELS),
                      fmt=_one_of(values.get("log_format", DEFAULT_LOG_FORMAT), "log_format", logs_formats()))


def config_from(args: argparse.Namespace) -> ServerConfig:
    """Defaults, then the config file, then the command line."""
    return server_config(settings_from(args))


def settings_from(args: argparse.Namespace) -> dict[str, object]:
    """The config file's keys, each overridden by its command-line option when given."""
    values: dict[str, object] = {}
    if args.config:
        with open(args.config, "rb") as handle:
            values = tomllib.load(handle)
        unknown = set(values) - set(CONFIG_KEYS)
        if unknown:
            raise SystemExit(f"sprtec serve: unknown keys in {args.config}: {', '.join(sorted(unknown))}")
        if not isinstance(values.get("lan", False), bool):
            raise SystemExit(f"sprtec serve: lan in {args.config} must be true or false")
    for key in CONFIG_KEYS:
        if getattr(args, key) is not None:
            values[key] = getattr(args, key)
    return values


def server_config(values: dict[str, object]) -> ServerConfig:
    """The server's configuration from the merged settings, with the defaults for what none of them set."""
    from server.app import ServerConfig

    lan = bool(values.get("lan", False))
    return ServerConfig(
        postgres=None if values.get("postgres") is None else str(values["postgres"]),
        cluster=_cluster_config(values),
        host=str(values.get("host", LAN_HOST if lan else DEFAULT_HOST)),
        port=_whole_number(values.get("port", DEFAULT_PORT), "port"),
        data_dir=Path(str(values.get("data", DEFAULT_DATA_DIR))),
        workers=None if values.get("workers") is None else _whole_number(values["workers"], "workers"),
        lan=lan,
        name=str(values.get("name", "")),
        pool=_pool_rules(values),
    )


def _pool_rules(values: dict[str, object]) -> PoolRules:
    """The quick-match pool's rules: the default widening, with the longest wait chosen."""
    if values.get("quick_match_max_wait") is None:
        return PoolRules()
    seconds = _whole_number(values["quick_match_max_wait"], "quick_match_max_wait")
    if seconds < 1:
        raise SystemExit("sprtec serve: quick_match_max_wait must be at least 1 second")
    return dataclasses.replace(PoolRules(), max_wait_ms=seconds * 1000)


def _cluster_config(values: dict[str, object]) -> ClusterConfig | None:
    """The node's cluster settings: None without --redis; --redis needs --postgres and --node-id."""
    if values.get("redis") is None:
        return None
    if values.get("postgres") is None or not values.get("node_id"):
        raise SystemExit("sprtec serve: --redis needs --postgres and --node-id (a cluster node shares both)")
    from server.cluster.node import ClusterConfig

    wait = _whole_number(values.get("held_seat_wait", DEFAULT_HELD_SEAT_WAIT_S), "held_seat_wait")
    if wait < 1:
        raise SystemExit("sprtec serve: held_seat_wait must be at least 1 second")
    return ClusterConfig(redis=str(values["redis"]), node_id=str(values["node_id"]),
                         public_url=str(values.get("public_url") or ""), held_seat_wait_ms=wait * 1000)


def _print_notice(text: str) -> None:
    """A line for the person who started the server, on stderr whatever the log level (the text format)."""
    print(text, file=sys.stderr, flush=True)


def _log_notice(text: str) -> None:
    """The same line as a log record (the JSON format: every stderr line is then one JSON object)."""
    logging.getLogger("sprtec.serve").info("%s", text)


async def serve(config: ServerConfig, notice: Callable[[str], None] = _print_notice) -> int:
    """Start, print the URL, wait for a signal, shut down gracefully; ``notice`` tells the operator what happens."""
    from server.app import Server

    server = Server(config)
    port = await server.start()
    print(f"ws://{config.host}:{port}/", flush=True)
    data = config.data_dir if config.postgres is None else "PostgreSQL"
    notice(f"sprtec server listening on {config.host}:{port}, data in {data}")
    if server.announcer is not None:
        urls = ", ".join(f"ws://{address}:{port}/" for address in server.announcer.addresses) or "no address"
        notice(f"announcing {server.announcer.instance!r} on the LAN at {urls}")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    notice("sprtec server shutting down")
    await server.shutdown()
    return 0


def run(args: argparse.Namespace) -> int:
    """Run the server until a signal; exit status 0 after a graceful shutdown."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # one descriptor per connection: take what we may
    from server import logs
    from server.store.sqlite.sqlite_store import StoreOpenError

    values = settings_from(args)
    chosen = log_options(values)
    logs.configure(chosen.level, chosen.fmt)
    config = server_config(values)
    text = chosen.fmt == "text"
    try:
        return asyncio.run(serve(config, _print_notice if text else _log_notice))
    except StoreOpenError as problem:
        _failure(f"sprtec serve: {problem}", text)
        return 1
    except OSError as problem:  # the port is taken, the address is not ours
        _failure(f"sprtec serve: cannot listen on {config.host}:{config.port}: {problem.strerror or problem}", text)
        return 1


def _failure(text: str, plain: bool) -> None:
    """Why the server could not start: one line on stderr, or one JSON log record at ERROR."""
    if plain:
        print(text, file=sys.stderr)
    else:
        logging.getLogger("sprtec.serve").error("%s", text)
