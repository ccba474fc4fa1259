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

# ---------------------------------------------------------------------- abuse (Lichess round/play)
RATE_BURST = RATE_LIMIT[0]  # messages a connection may send in a burst ...
RATE_WINDOW_S = RATE_LIMIT[1] / 1000  # ... refilled over this many seconds (100 messages per 20 s)
CHAT_BURST = 5  # chat lines a connection may send in a burst ...
CHAT_WINDOW_S = 10.0  # ... refilled over this many seconds
MAX_VIOLATIONS = MAX_INVALID_MESSAGES  # protocol violations (undecodable, wrong types) before the connection closes

# ---------------------------------------------------------------------- rooms
HISTORY_SIZE = 50  # broadcast messages a room keeps for resync (Lichess keeps 20)
ROOM_CODE_LENGTH = 6  # characters of a private room code
SHUTDOWN_GRACE_S = 10.0  # how long a graceful shutdown waits for moves in flight
CLOSE_REASON_SHUTDOWN = "server shutting down"

# ---------------------------------------------------------------------- persistence
STORE_CLOSE_TIMEOUT_S = 3.0  # shutdown waits this long for queued writes while the store fails, then gives up
WRITER_BATCH = 256  # writes the SQLite writer commits together at most (group commit)
CHECKPOINT_EVERY = 20  # log entries between stored positions: recovery replays at most this many per match

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
