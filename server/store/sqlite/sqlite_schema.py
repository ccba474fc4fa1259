"""The SQLite schema and its migrations, numbered by ``PRAGMA user_version``.

Why migrations and not ``CREATE TABLE IF NOT EXISTS`` alone: a data directory outlives the program that made it,
and a column added for a new feature (a match's final score, a player's last visit) must appear in databases
written by earlier versions without losing a row. Each step runs once, in order, in one transaction with the
version bump, so a database is always at exactly one version.
"""

from __future__ import annotations

import sqlite3

# Version 1: the tables of the first server.
_V1 = """
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    overrides TEXT NOT NULL,
    private INTEGER NOT NULL,
    home_player INTEGER,
    away_player INTEGER,
    match_id TEXT,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    room_code TEXT NOT NULL,
    seed INTEGER NOT NULL,
    ruleset TEXT NOT NULL,
    overrides TEXT NOT NULL,
    initial_position TEXT NOT NULL,
    home_player INTEGER NOT NULL,
    away_player INTEGER NOT NULL,
    version_base INTEGER NOT NULL,
    started_at REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    result TEXT
);
CREATE TABLE IF NOT EXISTS checkpoints (
    match_id TEXT PRIMARY KEY,
    idx INTEGER NOT NULL,
    position TEXT NOT NULL,
    turn_used INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS match_log (
    match_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    kind TEXT NOT NULL,
    team TEXT,
    action TEXT,
    elapsed_ms INTEGER NOT NULL,
    PRIMARY KEY (match_id, idx)
);
"""

# Version 2: the database's identity (checked against the data directory's marker), a match's final score and
# end time (a returning coach is told how his match ended), a player's last visit.
_V2 = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
ALTER TABLE matches ADD COLUMN score_home INTEGER;
ALTER TABLE matches ADD COLUMN score_away INTEGER;
ALTER TABLE matches ADD COLUMN finished_at REAL;
ALTER TABLE players ADD COLUMN last_seen REAL;
CREATE INDEX IF NOT EXISTS matches_by_home ON matches (home_player, started_at);
CREATE INDEX IF NOT EXISTS matches_by_away ON matches (away_player, started_at);
"""

# Version 3: players as people - a unique name (compared by shared.names.name_key), several devices' tokens,
# ratings per ruleset family with the change each rated match made, one-use claim codes to move an identity to
# another machine - and whether a room's matches are rated.
_V3 = """
ALTER TABLE players ADD COLUMN name_key TEXT;
CREATE UNIQUE INDEX IF NOT EXISTS players_by_name_key ON players (name_key);
CREATE TABLE IF NOT EXISTS player_tokens (
    token_hash TEXT PRIMARY KEY,
    player_id INTEGER NOT NULL,
    created_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS player_tokens_by_player ON player_tokens (player_id);
CREATE TABLE IF NOT EXISTS ratings (
    player_id INTEGER NOT NULL,
    family TEXT NOT NULL,
    rating REAL NOT NULL,
    rd REAL NOT NULL,
    volatility REAL NOT NULL,
    last_played_ms INTEGER NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (player_id, family)
);
CREATE TABLE IF NOT EXISTS rating_changes (
    match_id TEXT NOT NULL,
    player_id INTEGER NOT NULL,
    family TEXT NOT NULL,
    rating_before REAL NOT NULL,
    rating_after REAL NOT NULL,
    rd_after REAL NOT NULL,
    PRIMARY KEY (match_id, player_id)
);
CREATE TABLE IF NOT EXISTS claim_codes (
    code_hash TEXT PRIMARY KEY,
    player_id INTEGER NOT NULL,
    expires_at REAL NOT NULL,
    used INTEGER NOT NULL DEFAULT 0
);
ALTER TABLE rooms ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rooms ADD COLUMN reserved INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
"""

# Version 4: every log entry keeps the position it produced and the move clock used then, so a restart reads the
# last row of each match instead of replaying its log through the physics (checkpoints stay readable for older logs).
_V4 = """
ALTER TABLE match_log ADD COLUMN position BLOB;
ALTER TABLE match_log ADD COLUMN turn_used INTEGER;
"""

# Version 5: tournaments run by the server - each one's event log (folded by shared.tournament: the log is the
# tournament) and its row: name, the hash of the organiser secret, a snapshot of the log (the tournament file in
# the first version; the whole state every 50 events since, server.tournaments.state_snapshot, which recovery folds
# on from), how many events that snapshot holds, and the status then.
_V5 = """
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    secret_hash TEXT NOT NULL,
    snapshot TEXT NOT NULL,
    events INTEGER NOT NULL,
    status TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament_log (
    tournament_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    actor TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (tournament_id, idx)
);
"""

# Version 6: a name is taken when another one looks the same (shared.names: the UTS #39 confusable skeleton, as
# written beside whatever the case), so a player's name has a second key, unique too. The keys themselves are
# computed by the program (server.store.name_keys) whenever the name rule changes, not by SQL.
_V6 = """
ALTER TABLE players ADD COLUMN name_shape TEXT;
CREATE UNIQUE INDEX IF NOT EXISTS players_by_name_shape ON players (name_shape);
"""

# Version 7: the team leagues run by the server (server.leagues) - each one's row (name, the hash of its organiser
# secret) and its event log, which recovery folds (the log is the league).
_V7 = """
CREATE TABLE IF NOT EXISTS leagues (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    secret_hash TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS league_log (
    league_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    actor TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (league_id, idx)
);
"""

MIGRATIONS: tuple[str, ...] = (_V1, _V2, _V3, _V4, _V5, _V6, _V7)
VERSION = len(MIGRATIONS)


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the database to ``VERSION``; returns the version it was at. Refuses a database from a newer program."""
    found = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if found > VERSION:
        raise sqlite3.DatabaseError(
            f"the database is at schema version {found}, newer than this program's {VERSION}: upgrade sprtec"
        )
    for number in range(found, VERSION):
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in MIGRATIONS[number].split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {number + 1}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return found
