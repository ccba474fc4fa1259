"""Every timeout, size and budget of the server, in one place (the websockets style).

Why one module: limits that police clients, clocks that drive rooms and sizes that bound memory are
tuned together, read in reviews together and overridden in tests together. Nothing else in
``server/`` writes a literal duration or size; ``ServerConfig`` copies these defaults and a
``--config`` file may override them.
"""

from __future__ import annotations

from shared.protocol import DEFAULT_PORT as DEFAULT_PORT  # the wire's default port, re-exported for `sprtec serve`
from shared.protocol import KEEPALIVE_INTERVAL_S, KEEPALIVE_TIMEOUT_S, MAX_INVALID_MESSAGES, RATE_LIMIT

DEFAULT_HOST = "127.0.0.1"
DEFAULT_DATA_DIR = "./data"

# ---------------------------------------------------------------------- websockets transport
PING_INTERVAL_S = float(KEEPALIVE_INTERVAL_S)  # keepalive pings find dead TCP connections (the wire's rule)
PING_TIMEOUT_S = float(KEEPALIVE_TIMEOUT_S)
CLOSE_TIMEOUT_S = 5.0  # how long a closing handshake may take
ABORT_LINGER_S = 1.0  # an aborted connection: at most this long to deliver its close frame before TCP is dropped
OPEN_TIMEOUT_S = 10.0  # how long an opening handshake may take
MAX_QUEUE = 16  # websockets incoming frames buffered per connection before TCP backpressure
# Connections the kernel may hold complete before the loop accepts them (capped by net.core.somaxconn). After a
# restart every coach of every live match comes back at once: with asyncio's default of 100, the connections past
# it lost their SYN and retried a second later (TCP's first retransmission), a second added to most coaches' return.
LISTEN_BACKLOG = 4096

# ---------------------------------------------------------------------- abuse (Lichess round/play)
RATE_BURST = RATE_LIMIT[0]  # messages a connection may send in a burst ...
RATE_WINDOW_S = RATE_LIMIT[1] / 1000  # ... refilled over this many seconds (100 messages per 20 s)
CHAT_BURST = 5  # chat lines a connection may send in a burst ...
CHAT_WINDOW_S = 10.0  # ... refilled over this many seconds
MAX_VIOLATIONS = MAX_INVALID_MESSAGES  # protocol violations (undecodable, wrong types) before the connection closes

# ---------------------------------------------------------------------- abuse from many connections (per address)
# A connection's address is its peer's IP - behind a proxy of --trusted-proxy the client's, from X-Forwarded-For -
# and a burst/window pair is a token bucket per address. Connections from an --exempt network (loopback by default:
# the server's own machine, where `sprtec organise`, `sprtec tournament run --bots`, the benchmarks and the tests
# connect dozens of clients at once) count against none of the per-address budgets. Sized for a club event of 40
# players behind one NAT address: each of them may need a new player and mistype codes, and none is refused.
EXEMPT_NETWORKS = ("127.0.0.0/8", "::1/128")  # --exempt's default
CODE_GUESS_DELAY_S = 1.0  # a wrong entry or claim code is answered this much later: a connection guesses once a second
ENTRY_GUESS_BURST = 20  # wrong entry codes an address may send in a burst ...
ENTRY_GUESS_WINDOW_S = 600.0  # ... refilled over this many seconds (2 a minute)
TOURNAMENT_GUESS_BURST = 60  # wrong entry codes one tournament takes from all addresses together in a burst ...
TOURNAMENT_GUESS_WINDOW_S = 600.0  # ... refilled over this many seconds (6 a minute: exempt addresses count too)
CLAIM_GUESS_BURST = 20  # wrong claim codes an address may send in a burst ...
CLAIM_GUESS_WINDOW_S = 600.0  # ... refilled over this many seconds
NEW_PLAYER_BURST = 100  # players an address may add to the database (a named Hello, a guest's first seat) ...
NEW_PLAYER_WINDOW_S = 3600.0  # ... refilled over this many seconds
TOURNAMENT_BURST = 10  # tournaments an address may create in a burst ...
TOURNAMENT_WINDOW_S = 86400.0  # ... refilled over this many seconds (10 a day)
WEB_REQUEST_BURST = 120  # the web's requests (pages, the read API) an address may make at once (a page loads ~10)
WEB_REQUEST_WINDOW_S = 20.0  # ... refilled over this long: 6 a second; a page polling every 2 s needs well under one
BUDGETS_KEPT = 10_000  # addresses a budget remembers at most (those whose bucket is full again are forgotten first)
UNSTORED_GUESTS = 10_000  # guests welcomed but not stored whose tokens the server recognises (the oldest forgotten)
TOURNAMENTS_LISTED = 200  # TournamentList's lines at most: the running ones first, each part newest first

# ---------------------------------------------------------------------- rooms
HISTORY_SIZE = 50  # broadcast messages a room keeps for resync (Lichess keeps 20)
ROOM_CODE_LENGTH = 6  # characters of a private room code
SHUTDOWN_GRACE_S = 10.0  # how long a graceful shutdown waits for moves in flight
CLOSE_REASON_SHUTDOWN = "server shutting down"

# ---------------------------------------------------------------------- persistence
STORE_CLOSE_TIMEOUT_S = 3.0  # shutdown waits this long for queued writes while the store fails, then gives up
WRITER_BATCH = 256  # writes the SQLite writer commits together at most (group commit)

# ---------------------------------------------------------------------- LAN discovery (mDNS/DNS-SD)
LAN_HOST = "0.0.0.0"  # `sprtec serve --lan` listens on every interface unless a host is given
LAN_UPDATE_INTERVAL_S = 3.0  # at most one TXT update (players online, tournaments) this often
# Seconds browsers keep the records (all of them, not RFC 6762's 75 minutes for PTR/TXT): a server that died without
# its goodbye leaves the lists within 2 minutes; a live one answers the browsers' refresh queries.
LAN_RECORD_TTL_S = 120
# Interfaces never announced: container and VM bridges of this host, which players on the LAN cannot reach.
LAN_SKIPPED_INTERFACES = ("docker", "br-", "veth", "virbr", "vboxnet", "vmnet", "lxcbr", "lxdbr", "cni", "podman")
AGONES_PORT_VARIABLE = "AGONES_SDK_HTTP_PORT"  # set by Agones in a game server container: the SDK sidecar's port
IN_LIST_CHUNK = 500  # values bound in one read's ``IN (...)`` (SQLite allows 32,766 parameters, PostgreSQL 65,535)
