"""The read models the projector keeps, and the club's leagues, campaigns and spectator delays.

Read models (rebuildable from the event log, see `service.projector`):

- `game_summaries`: one row per game of a club: version, finished, when, players and result. Standings and
  campaigns read it, never the event log.
- `game_result_changes`: what each correction (G-3) changed in a game's outcome, so the API can
  show what it changed in standings and campaigns.
- `replay_snapshots`: the fold of a game every K events, so seeking a replay folds at most K events.

Each projection has a checkpoint (the last global position it applied). `commit_projection` writes a
batch's rows and moves the checkpoint in ONE transaction, and only if the checkpoint is still where
the runner read it: a second runner, or a runner that lost its lease, cannot apply an event twice.

The SQL is the same on both backends (JSON as text, times as ISO text): `ProjectionTables`,
`ReadModelTables` and `CollectionTables` hold it, each composed with a backend's `Database` (its
connections and its dialect, `service.store.sql`).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec

from domain.ruleset import Player, Result
from projections.ratings import PlayerRating, RatingPoint
from projections.standings import Removal
from service.store.base import (
    AlreadyExists,
    Collection,
    CollectionKind,
    Duplicate,
    GameSummary,
    Outcome,
    RatingRows,
    ReadModelWrite,
    ResultChange,
    SnapshotRow,
    SpectatorDelay,
    StreamId,
)
from service.store.sql import Connection, Cursor, Database, Dialect


class CheckpointMoved(Exception):
    """Raised inside a projection transaction to roll it back: another runner moved the checkpoint."""


# Tables a projection may clear on rebuild (names are never taken from input).
PROJECTION_TABLES = frozenset(
    {"game_summaries", "game_result_changes", "replay_snapshots", "player_ratings", "rating_history"}
)

_SUMMARY_COLUMNS = (
    "game_id, club_id, ruleset, ruleset_version, version, applied, started_at, finished, finished_at, players, result"
)


def _time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


@dataclasses.dataclass(frozen=True)
class _ProjectionSql:
    checkpoints: str = "SELECT name, position FROM projection_checkpoints"
    checkpoint: str = "SELECT position FROM projection_checkpoints WHERE name = ?"
    # Compare-and-set in one statement: a missing row is a checkpoint at 0 (rows are never deleted), an
    # existing one moves only from `expected`.
    move_checkpoint: str = (
        "INSERT INTO projection_checkpoints (name, position) VALUES (?, ?) "
        "ON CONFLICT (name) DO UPDATE SET position = excluded.position "
        "WHERE projection_checkpoints.position = ? RETURNING position"
    )
    reset_checkpoint: str = (
        "INSERT INTO projection_checkpoints (name, position) VALUES (?, 0) "
        "ON CONFLICT (name) DO UPDATE SET position = 0"
    )
    acquire_lease: str = (
        "INSERT INTO projection_leases (name, owner, expires_at) VALUES (?, ?, ?) "
        "ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at "
        "WHERE projection_leases.owner = excluded.owner OR projection_leases.expires_at < ? "
        "RETURNING owner"
    )
    release_lease: str = "DELETE FROM projection_leases WHERE name = ? AND owner = ?"
    lease_owner: str = "SELECT owner FROM projection_leases WHERE name = ? AND expires_at >= ?"


@dataclasses.dataclass(frozen=True)
class _WriteSql:
    # `applied` adds up: a row applied twice would show more applications than versions.
    write_summary: str = (
        f"INSERT INTO game_summaries ({_SUMMARY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (club_id, game_id) DO UPDATE SET ruleset_version = excluded.ruleset_version, "
        "version = excluded.version, applied = game_summaries.applied + excluded.applied, "
        "finished = excluded.finished, finished_at = excluded.finished_at, "
        "players = excluded.players, result = excluded.result"
    )
    write_change: str = "INSERT INTO game_result_changes (stream_id, version, before, after) VALUES (?, ?, ?, ?)"
    write_snapshot: str = (
        "INSERT INTO replay_snapshots (stream_id, version, ruleset_version, data) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (stream_id, version) DO UPDATE SET ruleset_version = excluded.ruleset_version, "
        "data = excluded.data"
    )
    truncate_history: str = (
        "DELETE FROM rating_history WHERE club_id = ? AND ruleset = ? AND player_id = ? AND number > ?"
    )
    drop_rating: str = "DELETE FROM player_ratings WHERE club_id = ? AND ruleset = ? AND player_id = ?"
    write_rating: str = (
        "INSERT INTO player_ratings (club_id, ruleset, player_id, mu, sigma, rating, games, "
        "last_game, last_finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (club_id, ruleset, player_id) DO UPDATE SET mu = excluded.mu, "
        "sigma = excluded.sigma, rating = excluded.rating, "
        "games = excluded.games, last_game = excluded.last_game, "
        "last_finished_at = excluded.last_finished_at"
    )
    write_history: str = (
        "INSERT INTO rating_history (club_id, ruleset, player_id, number, game_id, finished_at, "
        "placement, mu, sigma, rating, change) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    )


class _RowWriter:
    """Writes read-model rows in a transaction: one statement per kind of row, sent with executemany
    (pipelined on PostgreSQL)."""

    def __init__(self, dialect: Dialect) -> None:
        self._sql = dialect.prepare(_WriteSql())

    def write(self, conn: Connection, writes: Sequence[ReadModelWrite]) -> None:
        summaries = [w for w in writes if isinstance(w, GameSummary)]
        changes = [w for w in writes if isinstance(w, ResultChange)]
        snapshots = [w for w in writes if isinstance(w, SnapshotRow)]
        ratings = [w for w in writes if isinstance(w, RatingRows)]
        cursor = conn.cursor()
        if summaries:
            cursor.executemany(
                self._sql.write_summary,
                [
                    (
                        w.game_id,
                        w.club_id,
                        w.ruleset,
                        w.ruleset_version,
                        w.version,
                        w.applied,
                        w.started_at.isoformat(),
                        w.outcome.finished,
                        _iso(w.outcome.finished_at),
                        msgspec.json.encode(w.players).decode(),
                        msgspec.json.encode(w.outcome.result).decode(),
                    )
                    for w in summaries
                ],
            )
        if changes:
            cursor.executemany(
                self._sql.write_change,
                [
                    (
                        w.stream_id,
                        w.version,
                        msgspec.json.encode(w.before).decode(),
                        msgspec.json.encode(w.after).decode(),
                    )
                    for w in changes
                ],
            )
        if snapshots:
            cursor.executemany(
                self._sql.write_snapshot, [(w.stream_id, w.version, w.ruleset_version, w.data) for w in snapshots]
            )
        for rows in ratings:
            self._write_ratings(cursor, rows)

    def _write_ratings(self, cursor: Cursor, rows: RatingRows) -> None:
        key = (rows.club_id, rows.ruleset)
        if rows.truncate:
            cursor.executemany(self._sql.truncate_history, [(*key, player, number) for player, number in rows.truncate])
        if rows.drop:
            cursor.executemany(self._sql.drop_rating, [(*key, player) for player in rows.drop])
        if rows.ratings:
            cursor.executemany(
                self._sql.write_rating,
                [
                    (
                        *key,
                        r.player_id,
                        r.skill.mu,
                        r.skill.sigma,
                        r.skill.rating,
                        r.games,
                        r.last_game,
                        r.last_finished_at.isoformat(),
                    )
                    for r in rows.ratings
                ],
            )
        if rows.history:
            cursor.executemany(
                self._sql.write_history,
                [
                    (
                        *key,
                        player,
                        number,
                        p.game_id,
                        _utc(p.finished_at),
                        p.placement,
                        p.skill.mu,
                        p.skill.sigma,
                        p.skill.rating,
                        p.change,
                    )
                    for player, number, p in rows.history
                ],
            )


class ProjectionTables:
    """`Projections` in SQL both backends run: checkpoints, leases, and a batch's rows committed with
    its checkpoint."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._sql = db.dialect.prepare(_ProjectionSql())
        self._rows = _RowWriter(db.dialect)

    def checkpoints(self) -> dict[str, int]:
        """Every projection's checkpoint (the last global position applied)."""
        return {r["name"]: int(r["position"]) for r in self._db.records(self._sql.checkpoints)}

    def checkpoint(self, name: str) -> int:
        """A projection's checkpoint (0 before its first event)."""
        found = self._db.records(self._sql.checkpoint, (name,))
        return int(found[0]["position"]) if found else 0

    def commit_projection(self, name: str, expected: int, position: int, writes: Sequence[ReadModelWrite]) -> bool:
        """Write a batch's rows and move the checkpoint from `expected` to `position`, all in one
        transaction; write nothing and return False when the checkpoint is no longer `expected`."""
        try:
            with self._db.writing() as conn:
                for statement in self._db.dialect.projection_tx:
                    conn.execute(statement)
                if conn.execute(self._sql.move_checkpoint, (name, position, expected)).fetchone() is None:
                    raise CheckpointMoved()
                self._rows.write(conn, writes)
        except CheckpointMoved:
            return False
        return True

    def reset_projection(self, name: str, tables: Sequence[str]) -> None:
        """Empty a projection's tables and set its checkpoint back to 0, in one transaction."""
        unknown = set(tables) - PROJECTION_TABLES
        if unknown:
            raise ValueError(f"not read-model tables: {sorted(unknown)}")
        with self._db.writing() as conn:
            for table in tables:
                conn.execute(f"DELETE FROM {table}")
            conn.execute(self._sql.reset_checkpoint, (name,))

    def acquire_lease(self, name: str, owner: str, seconds: float) -> bool:
        """Take or renew the lease to run projection `name` for `seconds`; False while another
        owner's lease runs."""
        now = time.time()
        with self._db.writing() as conn:
            row = conn.execute(self._sql.acquire_lease, (name, owner, now + seconds, now)).fetchone()
        return row is not None

    def release_lease(self, name: str, owner: str) -> None:
        """Give the lease up (at shutdown), so another runner takes over at once."""
        with self._db.writing() as conn:
            conn.execute(self._sql.release_lease, (name, owner))

    def lease_owner(self, name: str) -> str | None:
        """Who holds the lease now (None when free or run out)."""
        found = self._db.records(self._sql.lease_owner, (name, time.time()))
        return str(found[0]["owner"]) if found else None


@dataclasses.dataclass(frozen=True)
class _ReadModelSql:
    finished_summaries: str = (
        f"SELECT {_SUMMARY_COLUMNS} FROM game_summaries WHERE club_id = ? AND ruleset = ? AND finished = ?"
    )
    player_ratings: str = (
        "SELECT player_id, mu, sigma, rating, games, last_game, last_finished_at FROM player_ratings "
        "WHERE club_id = ? AND ruleset = ?"
    )
    rating_points_since: str = (
        "SELECT player_id, number, game_id, finished_at, placement, mu, sigma, rating, change FROM rating_history "
        "WHERE club_id = ? AND ruleset = ? AND finished_at >= ?"
    )
    rating_point: str = (
        "SELECT game_id, finished_at, placement, mu, sigma, rating, change FROM rating_history "
        "WHERE club_id = ? AND ruleset = ? AND player_id = ? AND number = ?"
    )
    rating_history: str = (
        "SELECT game_id, finished_at, placement, mu, sigma, rating, change FROM rating_history "
        "WHERE club_id = ? AND ruleset = ? AND player_id = ? ORDER BY number"
    )
    result_changes: str = (
        "SELECT stream_id, version, before, after FROM game_result_changes WHERE stream_id = ? ORDER BY version"
    )
    snapshots: str = (
        "SELECT stream_id, version, ruleset_version, data FROM replay_snapshots "
        "WHERE stream_id = ? AND version <= ? ORDER BY version"
    )
    delete_snapshots: str = "DELETE FROM replay_snapshots WHERE stream_id = ?"
    spectator_delay: str = "SELECT events, seconds FROM spectator_delays WHERE stream_id = ?"
    spectator_delays: str = (
        "SELECT g.game_id, d.stream_id, d.events, d.seconds, "
        "(SELECT coalesce(max(e.version), 0) FROM events e WHERE e.stream_id = d.stream_id) AS version "
        "FROM spectator_delays d "
        "JOIN games g ON g.stream_id = d.stream_id WHERE g.club_id = ? AND (d.events > 0 OR d.seconds > 0)"
    )
    set_spectator_delay: str = (
        "INSERT INTO spectator_delays (stream_id, events, seconds) VALUES (?, ?, ?) "
        "ON CONFLICT (stream_id) DO UPDATE SET events = excluded.events, seconds = excluded.seconds"
    )


class ReadModelTables:
    """`ReadModels` in SQL both backends run (the projections write their rows through
    `ProjectionTables.commit_projection`)."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._sql = db.dialect.prepare(_ReadModelSql())
        self._rows = _RowWriter(db.dialect)

    # -- game summaries -------------------------------------------------------------------------
    def game_summaries(self, club_id: str, game_ids: Sequence[str]) -> dict[str, GameSummary]:
        """The summaries of these games of the club that the projector has written, by game id."""
        if not game_ids:
            return {}
        rows = self._db.records(
            f"SELECT {_SUMMARY_COLUMNS} FROM game_summaries "
            f"WHERE club_id = {self._db.dialect.mark} AND game_id IN ({self._db.dialect.marks(len(game_ids))})",
            [club_id, *game_ids],
        )
        return {row["game_id"]: _summary(row) for row in rows}

    def finished_summaries(self, club_id: str, ruleset: str) -> list[GameSummary]:
        """A club's finished games of one ruleset (what the ratings are derived from)."""
        return [_summary(row) for row in self._db.records(self._sql.finished_summaries, (club_id, ruleset, True))]

    def result_changes(self, stream_id: StreamId) -> list[ResultChange]:
        """The corrections that changed the outcome of the game on `stream_id`, oldest first."""
        return [
            ResultChange(
                stream_id=r["stream_id"],
                version=r["version"],
                before=msgspec.json.decode(r["before"], type=Outcome),
                after=msgspec.json.decode(r["after"], type=Outcome),
            )
            for r in self._db.records(self._sql.result_changes, (stream_id,))
        ]

    # -- ratings ----------------------------------------------------------------------------------
    def player_ratings(self, club_id: str, ruleset: str) -> dict[str, PlayerRating]:
        """A club's current ratings for one ruleset, by player id."""
        rows = self._db.records(self._sql.player_ratings, (club_id, ruleset))
        return {r["player_id"]: msgspec.convert(_with_skill(r), PlayerRating) for r in rows}

    def rating_points_since(self, club_id: str, ruleset: str, since: datetime) -> list[tuple[str, int, RatingPoint]]:
        """The history points of games finished at or after `since`: (player id, game number, point)."""
        rows = self._db.records(self._sql.rating_points_since, (club_id, ruleset, _utc(since)))
        return [(r["player_id"], r["number"], _point(r)) for r in rows]

    def rating_point(self, club_id: str, ruleset: str, player_id: str, number: int) -> RatingPoint | None:
        """A player's rating after their nth rated game."""
        rows = self._db.records(self._sql.rating_point, (club_id, ruleset, player_id, number))
        return _point(rows[0]) if rows else None

    def rating_history(self, club_id: str, ruleset: str, player_id: str) -> list[RatingPoint]:
        """A player's rating after every rated game of one ruleset, oldest first."""
        return [_point(r) for r in self._db.records(self._sql.rating_history, (club_id, ruleset, player_id))]

    # -- replay snapshots -----------------------------------------------------------------------
    def snapshots(self, stream_id: StreamId, *, up_to: int | None = None) -> list[SnapshotRow]:
        """The stored snapshots of the game on `stream_id` (at or before version `up_to`), oldest first."""
        rows = self._db.records(self._sql.snapshots, (stream_id, up_to if up_to is not None else 2**31 - 1))
        return [msgspec.convert(r, SnapshotRow) for r in rows]

    def replace_snapshots(self, stream_id: StreamId, rows: Sequence[SnapshotRow]) -> None:
        """Replace a game's snapshots (rebuilt under a new ruleset version)."""
        with self._db.writing() as conn:
            conn.execute(self._sql.delete_snapshots, (stream_id,))
            self._rows.write(conn, rows)

    # -- spectator delays -----------------------------------------------------------------------
    def spectator_delay(self, stream_id: StreamId) -> SpectatorDelay:
        """The live delay of the game on `stream_id` (none when never set)."""
        rows = self._db.records(self._sql.spectator_delay, (stream_id,))
        return msgspec.convert(rows[0], SpectatorDelay) if rows else SpectatorDelay()

    def spectator_delays(self, club_id: str) -> dict[str, tuple[StreamId, SpectatorDelay, int]]:
        """The club's games that have a live delay: game id -> (stream, delay, its stream's version)."""
        rows = self._db.records(self._sql.spectator_delays, (club_id,))
        return {
            r["game_id"]: (
                StreamId(r["stream_id"]),
                SpectatorDelay(events=r["events"], seconds=r["seconds"]),
                int(r["version"]),
            )
            for r in rows
        }

    def set_spectator_delay(self, stream_id: StreamId, delay: SpectatorDelay) -> None:
        """Set a game's live delay."""
        with self._db.writing() as conn:
            conn.execute(self._sql.set_spectator_delay, (stream_id, delay.events, delay.seconds))


@dataclasses.dataclass(frozen=True)
class _CollectionSql:
    create: str = (
        "INSERT INTO collections (club_id, kind, collection_id, definition, created_at) VALUES (?, ?, ?, ?, ?)"
    )
    collections: str = (
        "SELECT collection_id, definition, created_at FROM collections WHERE club_id = ? AND kind = ? "
        "AND (CAST(? AS TEXT) IS NULL OR collection_id = ?) ORDER BY collection_id"
    )
    games: str = (
        "SELECT collection_id, game_id FROM collection_games WHERE club_id = ? AND kind = ? "
        "AND (CAST(? AS TEXT) IS NULL OR collection_id = ?) ORDER BY ordinal"
    )
    add_game: str = (
        "INSERT INTO collection_games (club_id, kind, collection_id, game_id, ordinal, assigned_at) "
        "SELECT ?, ?, ?, ?, coalesce(max(ordinal), 0) + 1, ? FROM collection_games "
        "WHERE club_id = ? AND kind = ? AND collection_id = ?"
    )
    of_game: str = (
        "SELECT kind, collection_id FROM collection_games WHERE club_id = ? AND game_id = ? "
        "ORDER BY kind, collection_id"
    )
    record_removal: str = (
        "INSERT INTO collection_game_changes (club_id, kind, collection_id, number, game_id, action, "
        "reason, key_id, recorded_at) SELECT ?, ?, ?, coalesce(max(number), 0) + 1, ?, ?, ?, ?, ? "
        "FROM collection_game_changes WHERE club_id = ? AND kind = ? AND collection_id = ?"
    )
    removals: str = (
        "SELECT game_id, action, reason, key_id, recorded_at FROM collection_game_changes "
        "WHERE club_id = ? AND kind = ? AND collection_id = ? ORDER BY number"
    )


class CollectionTables:
    """`Collections` in SQL both backends run."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._sql = db.dialect.prepare(_CollectionSql())

    def create_collection(
        self, kind: CollectionKind, club_id: str, collection_id: str, definition: bytes
    ) -> Collection:
        """Store a new league or campaign (AlreadyExists for a taken id)."""
        created = datetime.now(UTC)
        try:
            with self._db.writing() as conn:
                conn.execute(self._sql.create, (club_id, kind, collection_id, definition.decode(), created.isoformat()))
        except Duplicate:
            raise AlreadyExists(kind, collection_id) from None
        return Collection(
            club_id=club_id, kind=kind, collection_id=collection_id, definition=definition, created_at=created
        )

    def get_collection(self, kind: CollectionKind, club_id: str, collection_id: str) -> Collection | None:
        """A league or campaign with its games, or None."""
        found = self.list_collections(kind, club_id, collection_id)
        return found[0] if found else None

    def list_collections(
        self, kind: CollectionKind, club_id: str, collection_id: str | None = None
    ) -> list[Collection]:
        """A club's leagues or campaigns (one of them when `collection_id` is given), by id."""
        which = (club_id, kind, collection_id, collection_id)
        games: dict[str, list[str]] = {}
        for row in self._db.records(self._sql.games, which):
            games.setdefault(row["collection_id"], []).append(row["game_id"])
        return [
            msgspec.convert(
                r
                | {
                    "club_id": club_id,
                    "kind": kind,
                    "definition": r["definition"].encode(),
                    "game_ids": games.get(r["collection_id"], ()),
                },
                Collection,
            )
            for r in self._db.records(self._sql.collections, which)
        ]

    def add_collection_game(self, kind: CollectionKind, club_id: str, collection_id: str, game_id: str) -> None:
        """Assign a game to a league or campaign, after its other games (AlreadyExists when it is)."""
        collection = (club_id, kind, collection_id)
        try:
            with self._db.writing() as conn:
                conn.execute(self._sql.add_game, (*collection, game_id, datetime.now(UTC).isoformat(), *collection))
        except Duplicate:
            raise AlreadyExists(f"{kind} game", game_id) from None

    def collections_of_game(self, club_id: str, game_id: str) -> list[tuple[CollectionKind, str]]:
        """The leagues and campaigns a game is assigned to."""
        return [(r["kind"], r["collection_id"]) for r in self._db.records(self._sql.of_game, (club_id, game_id))]

    def record_removal(self, kind: CollectionKind, club_id: str, collection_id: str, removal: Removal) -> None:
        """Record that a game was taken out of a league or campaign, or put back."""
        collection = (club_id, kind, collection_id)
        with self._db.writing() as conn:
            conn.execute(
                self._sql.record_removal,
                (
                    *collection,
                    removal.game_id,
                    removal.action,
                    removal.reason,
                    removal.key_id,
                    removal.recorded_at.isoformat(),
                    *collection,
                ),
            )

    def removals(self, kind: CollectionKind, club_id: str, collection_id: str) -> list[Removal]:
        """The games taken out of a league or campaign and put back, oldest first."""
        rows = self._db.records(self._sql.removals, (club_id, kind, collection_id))
        return [msgspec.convert(r, Removal) for r in rows]


def _utc(moment: datetime) -> str:
    """A time as fixed-width UTC text, so that text order is time order (rating history is filtered so)."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def _with_skill(row: dict[str, Any]) -> dict[str, Any]:
    """A rating row with its `mu`, `sigma` and `rating` columns as the `skill` they make."""
    return row | {"skill": {"mu": row["mu"], "sigma": row["sigma"], "rating": row["rating"]}}


def _point(row: dict[str, Any]) -> RatingPoint:
    return msgspec.convert(_with_skill(row), RatingPoint)


def _summary(row: dict[str, Any]) -> GameSummary:
    outcome = Outcome(
        finished=bool(row["finished"]),
        finished_at=_time(row["finished_at"]),
        result=msgspec.json.decode(row["result"], type=Result),
    )
    players = msgspec.json.decode(row["players"], type=tuple[Player, ...])
    return msgspec.convert(row | {"players": players, "outcome": outcome}, GameSummary)
