"""What the store keeps about players: their names, their devices' tokens, ratings and the changes matches made to
them, claim codes - as statements to write and reads.

Why beside the store and not in it: the store (``server.store.store_port.Store``) is the database of rooms and
matches and its one writer; players are a service of their own (``server.players``) with their own questions - who
holds this token, is this name free, what is this player's rating, his last matches, the leaderboard. The SQL of those
lives here, once.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from server.constants import IN_LIST_CHUNK
from server.store.store_port import ReadPort, Statement
from shared.names import name_key, name_shape
from shared.ratings import Rating


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredRating:
    """A player's stored rating in one family and how many rated matches made it."""

    rating: Rating
    games: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayedMatch:
    """A finished match of a player, from his side."""

    match_id: str
    opponent: str
    team: str
    score: tuple[int, int]
    winner: str | None
    reason: str
    ruleset: str
    rated: bool
    ended_at: float
    rating_change: float | None  # the shown (whole-number) change, as Rated told it


class PlayerRecords:
    """Statements and reads about players, on one store."""

    def __init__(self, store: ReadPort) -> None:
        self.store = store

    # ------------------------------------------------------------------ statements
    @staticmethod
    def add_player(player_id: int, name: str, name_key: str | None, token_hash: str,
                   name_shape: str | None = None) -> list[Statement]:
        """Insert a player under the id the store gave him (``Store.new_player_id``) and his first device's token
        (``name_key`` and ``name_shape`` None: a guest)."""
        now = time.time()
        return [
            ("INSERT INTO players (id, name, name_key, name_shape, token_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)",
             (player_id, name, name_key, name_shape, token_hash, now)),
            ("INSERT INTO player_tokens (token_hash, player_id, created_at) VALUES (?, ?, ?)",
             (token_hash, player_id, now)),
        ]

    @staticmethod
    def rename(player_id: int, name: str, name_key: str, name_shape: str) -> Statement:
        """Give a player another name (the unique indexes refuse one that looks like a taken one)."""
        return ("UPDATE players SET name = ?, name_key = ?, name_shape = ? WHERE id = ?",
                (name, name_key, name_shape, player_id))

    @staticmethod
    def touch(player_id: int) -> Statement:
        """Remember when a player was last connected (his connection ended, or began)."""
        return ("UPDATE players SET last_seen = ? WHERE id = ?", (time.time(), player_id))

    @staticmethod
    def add_claim(code_hash: str, player_id: int, expires_at: float) -> Statement:
        """A one-use claim code for a player's identity."""
        return ("INSERT INTO claim_codes (code_hash, player_id, expires_at) VALUES (?, ?, ?)",
                (code_hash, player_id, expires_at))

    @staticmethod
    def redeem_claim(code_hash: str, token_hash: str, now: float) -> list[Statement]:
        """Use a claim code once: a new device's token for its player, only while the code is unused and valid."""
        return [
            ("INSERT INTO player_tokens (token_hash, player_id, created_at) SELECT ?, player_id, ? FROM claim_codes"
             " WHERE code_hash = ? AND used = 0 AND expires_at > ?", (token_hash, now, code_hash, now)),
            ("UPDATE claim_codes SET used = 1 WHERE code_hash = ?", (code_hash,)),
        ]

    @staticmethod
    def save_rating(player_id: int, family: str, stored: StoredRating) -> Statement:
        """Keep a player's rating in a family after a rated match."""
        r = stored.rating
        return ("INSERT INTO ratings (player_id, family, rating, rd, volatility, last_played_ms, games) VALUES"
                " (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(player_id, family) DO UPDATE SET rating=excluded.rating,"
                " rd=excluded.rd, volatility=excluded.volatility, last_played_ms=excluded.last_played_ms,"
                " games=excluded.games",
                (player_id, family, r.rating, r.rd, r.volatility, r.last_played_ms or 0, stored.games))

    @staticmethod
    def add_rating_change(match_id: str, player_id: int, family: str, before: float, after: Rating) -> Statement:
        """What a rated match did to a player's rating."""
        return ("INSERT INTO rating_changes (match_id, player_id, family, rating_before, rating_after, rd_after)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(match_id, player_id) DO UPDATE SET family=excluded.family,"
                " rating_before=excluded.rating_before, rating_after=excluded.rating_after,"
                " rd_after=excluded.rd_after",
                (match_id, player_id, family, before, after.rating, after.rd))

    # ------------------------------------------------------------------ reads
    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Rows of a read on the store's read connection."""
        return self.store.read(sql, params)

    def token_hashes(self, player_id: int) -> tuple[str, list[str]] | None:
        """(name, the hashes of every token the player holds), if the player exists."""
        found = self._rows("SELECT name, token_hash FROM players WHERE id = ?", (player_id,))
        if not found:
            return None
        name, first = found[0]
        hashes = [str(first), *(str(r[0]) for r in self._rows(
            "SELECT token_hash FROM player_tokens WHERE player_id = ?", (player_id,)))]
        return str(name), hashes

    def by_token_hash(self, token_hash: str) -> tuple[int, str] | None:
        """(id, name) of the player holding this token hash (tokens of older servers: a bare secret)."""
        found = self._rows("SELECT p.id, p.name FROM players p WHERE p.token_hash = ? UNION SELECT p.id, p.name FROM"
                           " player_tokens t JOIN players p ON p.id = t.player_id WHERE t.token_hash = ?",
                           (token_hash, token_hash))
        return None if not found else (int(found[0][0]), str(found[0][1]))

    def claim_holder(self, code_hash: str, now: float) -> int | None:
        """The player whose unused, unexpired claim code has this hash (a wrong code is answered without a write)."""
        found = self._rows("SELECT player_id FROM claim_codes WHERE code_hash = ? AND used = 0 AND expires_at > ?",
                           (code_hash, now))
        return None if not found else int(found[0][0])

    def by_name_key(self, name_key: str) -> tuple[int, str] | None:
        """(id, name) of the player with this ``shared.names.name_key``."""
        found = self._rows("SELECT id, name FROM players WHERE name_key = ?", (name_key,))
        return None if not found else (int(found[0][0]), str(found[0][1]))

    def by_look(self, name: str) -> tuple[int, str] | None:
        """(id, name) of the player whose name looks like ``name`` (``shared.names``: its key or its shape)."""
        found = self._rows("SELECT id, name FROM players WHERE name_key = ? OR name_shape = ? ORDER BY id LIMIT 1",
                           (name_key(name), name_shape(name)))
        return None if not found else (int(found[0][0]), str(found[0][1]))

    def named(self, name: str) -> tuple[int, str] | None:
        """(id, name) of the player a person means by ``name``: exactly that name first (a guest's ``guest-<n>``,
        or a later player whose name an earlier one's looks like), else the one whose name looks like it."""
        return self.by_name(name) or self.by_look(name)

    def by_name(self, name: str) -> tuple[int, str] | None:
        """(id, name) of the player with exactly this name (a guest's ``guest-<n>``, which has no name key)."""
        found = self._rows("SELECT id, name FROM players WHERE name = ? ORDER BY id LIMIT 1", (name,))
        return None if not found else (int(found[0][0]), str(found[0][1]))

    def name(self, player_id: int) -> str:
        """A player's name ('' when unknown)."""
        found = self._rows("SELECT name FROM players WHERE id = ?", (player_id,))
        return "" if not found else str(found[0][0])

    def names(self, player_ids: Sequence[int]) -> dict[int, str]:
        """The names of ``player_ids`` ('' for an unknown one), a read per IN_LIST_CHUNK of them (recovery)."""
        found = {player_id: "" for player_id in player_ids}
        unique = sorted(found)
        for start in range(0, len(unique), IN_LIST_CHUNK):
            chunk = tuple(unique[start:start + IN_LIST_CHUNK])
            marks = ", ".join("?" * len(chunk))
            rows = self._rows(f"SELECT id, name FROM players WHERE id IN ({marks})", chunk)
            found.update({int(r[0]): str(r[1]) for r in rows})
        return found

    def last_seen(self, player_id: int) -> float | None:
        """When the player's last connection ended (or began), in seconds since the epoch."""
        found = self._rows("SELECT last_seen FROM players WHERE id = ?", (player_id,))
        return None if not found or found[0][0] is None else float(found[0][0])

    def rating(self, player_id: int, family: str) -> StoredRating | None:
        """A player's stored rating in a family (None: never rated in it)."""
        found = self._rows("SELECT rating, rd, volatility, last_played_ms, games FROM ratings WHERE player_id = ? AND"
                           " family = ?", (player_id, family))
        if not found:
            return None
        rating, rd, volatility, last, games = found[0]
        return StoredRating(rating=Rating(rating=rating, rd=rd, volatility=volatility, last_played_ms=int(last)),
                            games=int(games))

    def ratings(self, player_id: int) -> dict[str, StoredRating]:
        """Every family a player has a rating in."""
        return {str(family): stored for (family,) in self._rows(
            "SELECT family FROM ratings WHERE player_id = ? ORDER BY family", (player_id,))
            if (stored := self.rating(player_id, str(family))) is not None}

    def rated_players(self, family: str) -> list[tuple[int, str, StoredRating]]:
        """Every player with a rating in ``family``, best first (id, name, rating)."""
        rows = self._rows("SELECT p.id, p.name, r.rating, r.rd, r.volatility, r.last_played_ms, r.games FROM ratings r"
                          " JOIN players p ON p.id = r.player_id WHERE r.family = ? ORDER BY r.rating DESC, p.id",
                          (family,))
        return [(int(pid), str(name), StoredRating(rating=Rating(rating=rating, rd=rd, volatility=vol,
                                                                 last_played_ms=int(last)), games=int(games)))
                for pid, name, rating, rd, vol, last, games in rows]

    def matches(self, player_id: int, limit: int | None = None) -> list[PlayedMatch]:
        """A player's finished matches, the latest first (at most ``limit``)."""
        rows = self._rows(
            "SELECT m.id, m.home_player, m.away_player, m.score_home, m.score_away, m.result, m.ruleset, m.rated,"
            " m.finished_at, c.rating_before, c.rating_after,"
            " (SELECT name FROM players WHERE id = CASE WHEN m.home_player = ? THEN m.away_player"
            " ELSE m.home_player END)"
            " FROM matches m LEFT JOIN rating_changes c ON c.match_id = m.id AND c.player_id = ?"
            " WHERE (m.home_player = ? OR m.away_player = ?) AND m.finished = 1 ORDER BY m.finished_at DESC, m.id"
            + ("" if limit is None else f" LIMIT {int(limit)}"),
            (player_id, player_id, player_id, player_id))
        out = []
        for mid, home, _away, sh, sa, result, ruleset, rated, ended, before, after, opponent in rows:
            ending = json.loads(result) if result else {}
            out.append(PlayedMatch(match_id=str(mid), opponent=str(opponent or "?"),
                                   team="home" if home == player_id else "away", score=(sh or 0, sa or 0),
                                   winner=ending.get("winner"), reason=str(ending.get("reason", "")),
                                   ruleset=str(ruleset), rated=bool(rated), ended_at=float(ended or 0.0),
                                   rating_change=None if before is None else float(int(after) - int(before))))
        return out
