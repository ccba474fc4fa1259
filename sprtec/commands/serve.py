"""``sprtec serve``: run the authoritative server until SIGTERM or SIGINT.

Why the first line of stdout is the URL: with ``--port 0`` the system picks a free port, and tests, the
benchmark and the client's practice mode start the server as a subprocess and read where it listens.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import gc
import ipaddress
import logging
import os
import resource
import signal
import sys
import tomllib
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from server.constants import DEFAULT_DATA_DIR, DEFAULT_HOST, DEFAULT_PORT, EXEMPT_NETWORKS, LAN_HOST
from shared.matchmaking import PoolRules

if TYPE_CHECKING:
    from server.app import ServerConfig
    from server.cluster.node import ClusterConfig

HELP = "run the server (default ws://127.0.0.1:8765/, data in ./data)"
# The keys of the --config file: every option of the command line, named like its dest (--log-level: log_level).
CONFIG_KEYS = ("host", "port", "data", "workers", "lan", "name", "quick_match_max_wait", "log_level", "log_format",
               "redis", "postgres", "node_id", "public_url", "held_seat_wait", "tournaments", "organisers", "exempt",
               "trusted_proxies", "metrics", "loop", "inline_physics")
LIST_KEYS = ("organisers", "exempt", "trusted_proxies")  # repeated options on the command line, lists in the file
TOURNAMENT_CREATORS = ("open", "named", "organisers")  # server.tournaments.creation.WHO
DEFAULT_TOURNAMENTS = "named"
PRIVATE_UMASK = 0o077  # every file the server makes is its user's alone (the data directory: server.store)
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
DEFAULT_HELD_SEAT_WAIT_S = 20  # server.cluster.node.DEFAULT_HELD_SEAT_WAIT_MS, in the command line's unit
DEFAULT_LOG_LEVEL = "INFO"
DEFAULT_LOG_FORMAT = "text"
# The event loop: asyncio's own by default. uvloop (libuv) was measured with ``sprtec bench server`` and gave no
# gain in the loop process's CPU per flick (README: Performance), so it is no dependency; ``--loop uvloop`` where it
# is installed.
LOOPS = ("asyncio", "uvloop")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--host, --port, --data, --config, --workers, --lan, --name, who may do what, the cluster's, the logs'."""
    parser.add_argument(
        "--host", default=None, help=f"address to listen on (default {DEFAULT_HOST}; with --lan {LAN_HOST})"
    )
    parser.add_argument("--port", type=int, default=None, help=f"port, 0 picks a free one (default {DEFAULT_PORT})")
    parser.add_argument("--data", default=None, help=f"data directory (default {DEFAULT_DATA_DIR})")
    parser.add_argument("--config", default=None,
                        help=f"a TOML file with any of {', '.join(CONFIG_KEYS)} (the command line wins)")
    parser.add_argument("--workers", type=int, default=None, help="physics worker processes (default: one per core)")
    parser.add_argument("--inline-physics", type=float, default=None, metavar="SHARE",
                        help="the share of the event loop's time that may resolve moves itself instead of handing "
                             "them to a worker, e.g. 0.3 (default 0: every move goes to a worker)")
    parser.add_argument("--loop", default=None, choices=LOOPS,
                        help="the event loop (default asyncio; uvloop where it is installed)")
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
    trust = parser.add_argument_group("who may do what (README: Operating a server)")
    trust.add_argument("--tournaments", default=None, choices=TOURNAMENT_CREATORS,
                       help="who may create tournaments: anyone (open), players who chose a name (named, the "
                            "default) or the organisers named with --organiser; the server's own machine always may")
    trust.add_argument("--organiser", dest="organisers", action="append", default=None, metavar="NAME",
                       help="a player who may create tournaments with --tournaments organisers (repeat it)")
    trust.add_argument("--exempt", action="append", default=None, metavar="NET",
                       help="addresses no per-address limit applies to (repeat it; default "
                            f"{' '.join(EXEMPT_NETWORKS)}, this machine; 'none': no address)")
    trust.add_argument("--trusted-proxy", dest="trusted_proxies", action="append", default=None, metavar="NET",
                       help="a proxy in front of the server whose X-Forwarded-For names the client (repeat it)")
    trust.add_argument("--metrics", default=None, metavar="HOST:PORT",
                       help="serve /metrics (and /healthz, /readyz) on a listener of its own, e.g. 0.0.0.0:9765 for "
                            "a Prometheus elsewhere (default: /metrics on the game port, for this machine only)")
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


def run_on(loop: str, main: Coroutine[Any, Any, int]) -> int:
    """Run ``main`` to its end on a new event loop of the kind ``loop`` names (``LOOPS``). uvloop is not a dependency:
    ``--loop uvloop`` needs it installed (``pip install uvloop``), and the command says so when it is not."""
    if loop == "uvloop":
        try:
            import uvloop
        except ImportError:
            main.close()
            raise SystemExit("sprtec serve: --loop uvloop needs uvloop installed (pip install uvloop)") from None
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            return runner.run(main)
    return asyncio.run(main)


def logs_formats() -> tuple[str, ...]:
    """The log formats ``server.logs`` writes (imported late: ``sprtec --help`` stays quick)."""
    from server.logs import FORMATS

    return FORMATS


def _whole_number(value: object, key: str) -> int:
    """A setting that must be a whole number (port, workers); a wrong one ends the command with a message."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise SystemExit(f"sprtec serve: {key} must be a whole number, not {value!r}")


def _share(value: object) -> float:
    """The in-line physics share: a number from 0 to 1; a wrong one ends the command with a message."""
    if isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1:
        return float(value)
    raise SystemExit(f"sprtec serve: inline_physics must be a number from 0 to 1, not {value!r}")


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
        for key in LIST_KEYS:
            found = values.get(key, [])
            if not (isinstance(found, list) and all(isinstance(v, str) for v in found)):
                raise SystemExit(f"sprtec serve: {key} in {args.config} must be a list of strings")
    for key in CONFIG_KEYS:
        if getattr(args, key) is not None:
            values[key] = getattr(args, key)
    return values


def server_config(values: dict[str, object]) -> ServerConfig:
    """The server's configuration from the merged settings, with the defaults for what none of them set."""
    from server.app import ServerConfig
    from server.rooms.workers import INLINE_SHARE

    lan = bool(values.get("lan", False))
    return ServerConfig(
        postgres=None if values.get("postgres") is None else str(values["postgres"]),
        cluster=_cluster_config(values),
        host=str(values.get("host", LAN_HOST if lan else DEFAULT_HOST)),
        port=_whole_number(values.get("port", DEFAULT_PORT), "port"),
        data_dir=Path(str(values.get("data", DEFAULT_DATA_DIR))),
        workers=None if values.get("workers") is None else _whole_number(values["workers"], "workers"),
        inline_share=INLINE_SHARE if values.get("inline_physics") is None else _share(values["inline_physics"]),
        lan=lan,
        name=str(values.get("name", "")),
        pool=_pool_rules(values),
        tournaments=_one_of(values.get("tournaments", DEFAULT_TOURNAMENTS), "tournaments", TOURNAMENT_CREATORS),
        organisers=tuple(_strings(values, "organisers", ())),
        exempt=_networks(values, "exempt", EXEMPT_NETWORKS),
        trusted_proxies=_networks(values, "trusted_proxies", ()),
        metrics=None if values.get("metrics") is None else _address(values["metrics"], "metrics"),
    )


def _strings(values: dict[str, object], key: str, default: tuple[str, ...]) -> list[str]:
    """A list setting (a repeated option, or a list in the config file)."""
    found = values.get(key)
    if found is None:
        return list(default)
    assert isinstance(found, list)  # settings_from checked the file's lists; the options append
    return [str(v) for v in found]


def _networks(values: dict[str, object], key: str, default: tuple[str, ...]) -> tuple[str, ...]:
    """A list of networks (``10.0.0.0/8``, an address alone, ``none`` for no network); a wrong one ends the
    command naming it."""
    chosen = [v for v in _strings(values, key, default) if v.strip().lower() != "none"]
    for value in chosen:
        try:
            ipaddress.ip_network(value.strip(), strict=False)
        except ValueError:
            raise SystemExit(f"sprtec serve: {key}: {value!r} is not an address or a network") from None
    return tuple(chosen)


def _address(value: object, key: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:9765`` for IPv6) as a host and a port."""
    host, colon, port = str(value).rpartition(":")
    if not colon or not host or not port.isdigit() or int(port) > 65535:
        raise SystemExit(f"sprtec serve: {key} must be HOST:PORT, not {value!r}")
    return host.strip("[]"), int(port)


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
    from server.ops.collector import PacedCollector

    server = Server(config)
    port = await server.start()
    passes = [server.metrics.gc_pass.labels(generation=str(generation)) for generation in range(3)]
    collector = asyncio.get_running_loop().create_task(
        PacedCollector(lambda generation, seconds: passes[generation].observe(seconds)).run())
    print(f"ws://{config.host}:{port}/", flush=True)
    data = config.data_dir if config.postgres is None else "PostgreSQL"
    notice(f"sprtec server listening on {config.host}:{port}, data in {data}")
    if config.metrics is not None:
        notice(f"/metrics, /healthz and /readyz also on http://{config.metrics[0]}:{server.metrics_port}/")
    if server.announcer is not None:
        urls = ", ".join(f"ws://{address}:{port}/" for address in server.announcer.addresses) or "no address"
        notice(f"announcing {server.announcer.instance!r} on the LAN at {urls}")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    notice("sprtec server shutting down")
    collector.cancel()
    await server.shutdown()
    return 0


def run(args: argparse.Namespace) -> int:
    """Run the server until a signal; exit status 0 after a graceful shutdown."""
    # No cyclic collection while the server's modules are imported and its rooms rebuilt: passes over the ~50,000
    # objects the imports make find nothing to free (27 ms of a start's ~250 ms of imports); the recovery freezes
    # them and turns the collector back on (``Server._recover_then_ready``), the paced collector runs it after.
    gc.disable()
    os.umask(PRIVATE_UMASK)
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # one descriptor per connection: take what we may
    from server import logs
    from server.store.sqlite.sqlite_store import StoreOpenError

    values = settings_from(args)
    chosen = log_options(values)
    logs.configure(chosen.level, chosen.fmt)
    config = server_config(values)
    text = chosen.fmt == "text"
    loop = _one_of(values.get("loop", LOOPS[0]), "loop", LOOPS)
    try:
        return run_on(loop, serve(config, _print_notice if text else _log_notice))
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
