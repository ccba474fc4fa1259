"""The server's Prometheus metrics: every family an operator watches, defined once with its name and help text.

Why a registry of its own and not prometheus-client's global one: several servers run in one test process (and a
benchmark next to its server), and each must count only its own; ``new_metrics`` registers a fresh set on the
registry it is given, which ``server.ops.http_endpoints`` then serves at /metrics.

Names follow Prometheus' conventions: a ``sprtec_`` prefix, base units (seconds), ``_total`` on counters (added by
prometheus-client), so that "moves per second" is ``rate(sprtec_moves_total[1m])``. The server sets them; this
module only defines them.
"""

from __future__ import annotations

from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

# The queues whose length is reported (label ``queue`` of sprtec_queue_size), each present from the start at 0.
QUICK_MATCH_QUEUE = "quick_match"  # players waiting in the quick-match pool
STORE_QUEUE = "store_writes"  # write jobs waiting for the store's writer
PHYSICS_QUEUE = "physics"  # flicks waiting for a physics worker
QUEUES = (QUICK_MATCH_QUEUE, STORE_QUEUE, PHYSICS_QUEUE)

# A flick resolves in a few ms of physics plus queueing; the target is p99 under 100 ms (deploy/README.md).
MOVE_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0)
# A group commit takes well under a millisecond on a local SSD and a few ms to a database across the network.
STORE_COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)
# Resolving an entry is ~1-2 ms of CPU for a flick (the physics, the referee, the broadcast's encoding), far less
# for a clock event or a prompt's answer.
RESOLVE_CPU_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.003, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5)
# Where an entry was resolved (label ``where`` of sprtec_resolve_cpu_seconds): a physics worker, or the event loop.
RESOLVED_WHERE = ("worker", "loop")
# A young collection takes well under a millisecond, a full one tens to hundreds (server.ops.collector).
GC_PASS_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


@dataclass(frozen=True, kw_only=True, slots=True)
class Metrics:
    """The metric families of one server, registered on one registry."""

    connections: Gauge
    rooms: Gauge
    live_matches: Gauge
    moves: Counter
    move_latency: Histogram
    store_commit_latency: Histogram
    queue_size: Gauge
    worker_restarts: Counter
    leases_held: Gauge
    lease_takeovers: Counter
    gc_pass: Histogram
    resolve_cpu: Histogram


def new_metrics(registry: CollectorRegistry) -> Metrics:
    """Define every family on ``registry`` (a second call on the same registry raises: names are unique there)."""
    metrics = Metrics(
        connections=Gauge(
            "sprtec_connections", "Open websocket connections (coaches and spectators).", registry=registry
        ),
        rooms=Gauge("sprtec_rooms", "Rooms this node holds, with or without a match.", registry=registry),
        live_matches=Gauge("sprtec_live_matches", "Matches started and not finished in the rooms this node plays.",
                           registry=registry),
        moves=Counter(
            "sprtec_moves",
            "Flicks resolved and broadcast (MovePlayed); moves per second is the rate of sprtec_moves_total.",
            registry=registry,
        ),
        move_latency=Histogram(
            "sprtec_move_latency_seconds",
            "From a coach's flick arriving to its MovePlayed broadcast: queueing, physics, referee and the commit.",
            buckets=MOVE_LATENCY_BUCKETS,
            registry=registry,
        ),
        store_commit_latency=Histogram(
            "sprtec_store_commit_seconds",
            "Duration of one store transaction (a group commit), from its start to its commit returning.",
            buckets=STORE_COMMIT_BUCKETS,
            registry=registry,
        ),
        queue_size=Gauge(
            "sprtec_queue_size",
            "Items waiting in a queue of this node: quick_match (players), store_writes (jobs), physics (flicks).",
            ["queue"],
            registry=registry,
        ),
        worker_restarts=Counter(
            "sprtec_worker_restarts",
            "Physics worker processes that died and were replaced.",
            registry=registry,
        ),
        leases_held=Gauge(
            "sprtec_leases_held",
            "Match leases this node holds in the registry (the matches it is the one node to run).",
            registry=registry,
        ),
        lease_takeovers=Counter(
            "sprtec_lease_takeovers",
            "Leases this node took over from a node whose lease had expired (matches it resumed from the store).",
            registry=registry,
        ),
        gc_pass=Histogram(
            "sprtec_gc_pass_seconds",
            "One pass of the server process's garbage collector (generation 0, 1 or 2), which holds the event loop.",
            ["generation"],
            buckets=GC_PASS_BUCKETS,
            registry=registry,
        ),
        resolve_cpu=Histogram(
            "sprtec_resolve_cpu_seconds",
            "CPU seconds of resolving one entry (the physics, the referee's decisions, the broadcast's encoding), "
            "timed in the thread that resolved it: a physics worker's or the event loop's (label where).",
            ["where"],
            buckets=RESOLVE_CPU_BUCKETS,
            registry=registry,
        ),
    )
    for queue in QUEUES:
        metrics.queue_size.labels(queue=queue)
    for generation in ("0", "1", "2"):
        metrics.gc_pass.labels(generation=generation)
    for where in RESOLVED_WHERE:
        metrics.resolve_cpu.labels(where=where)
    return metrics
