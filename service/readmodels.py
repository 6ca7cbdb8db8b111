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

`ReadModelSql` holds the SQL, which is the same on both backends (JSON as text, times as ISO text);
each store mixes it in and supplies its connections and placeholder style.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any, Literal

import msgspec

from domain.ruleset import Player, Result
from projections.ratings import PlayerRating, RatingPoint, Skill
from projections.standings import Removal
from service.store.base import AlreadyExists, StreamId

CollectionKind = Literal["league", "campaign", "tournament"]
"""A tournament is listed here too (its record is its own event stream)."""


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """A game's outcome as standings and campaigns read it."""

    finished: bool
    finished_at: datetime | None
    result: Result


class GameSummary(msgspec.Struct, frozen=True, kw_only=True):
    """A game as the last event applied left it. `applied` counts the events applied to the row."""

    game_id: str
    club_id: str
    ruleset: str
    ruleset_version: str
    version: int
    applied: int
    started_at: datetime
    players: tuple[Player, ...]
    outcome: Outcome


class ResultChange(msgspec.Struct, frozen=True, kw_only=True):
    """The outcome of the game on `stream_id` before and after the correction at version `version`."""

    stream_id: StreamId
    version: int
    before: Outcome
    after: Outcome


class SnapshotRow(msgspec.Struct, frozen=True, kw_only=True):
    """A stored replay snapshot (`projections.replay.encode_snapshot` bytes) of the game on `stream_id`."""

    stream_id: StreamId
    version: int
    ruleset_version: str
    data: bytes


class RatingRows(msgspec.Struct, frozen=True, kw_only=True):
    """Ratings of one club and ruleset to write: each `truncate` player's history cut after their nth
    game (derived again from there), the `drop` players' ratings deleted (no rated game left), the
    `ratings` written and the `history` points added."""

    club_id: str
    ruleset: str
    truncate: tuple[tuple[str, int], ...] = ()
    drop: tuple[str, ...] = ()
    ratings: tuple[PlayerRating, ...] = ()
    history: tuple[tuple[str, int, RatingPoint], ...] = ()
    """(player id, the player's game number, point)."""


ReadModelWrite = GameSummary | ResultChange | SnapshotRow | RatingRows


class Collection(msgspec.Struct, frozen=True, kw_only=True):
    """A league or campaign: its JSON definition and its games in the order they were assigned."""

    club_id: str
    kind: CollectionKind
    collection_id: str
    definition: bytes
    created_at: datetime
    game_ids: tuple[str, ...] = ()


class SpectatorDelay(msgspec.Struct, frozen=True, kw_only=True):
    """How far behind the record a game's live stream runs: N events and / or N seconds."""

    events: int = 0
    seconds: int = 0


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


class ReadModelSql:
    """Read-model and collection storage, mixed into both stores. Subclasses provide `_rm_write`
    (a connection in a write transaction), `_rm_read` (a connection), `_rm_param` (the placeholder)
    and `_rm_integrity` (the driver's integrity error)."""

    _rm_param = "?"
    _rm_integrity: tuple[type[Exception], ...] = ()
    _rm_projection_tx: tuple[str, ...] = ()
    """Statements that open a projection's transaction (PostgreSQL: commit without waiting for the disk)."""

    def _rm_write(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _rm_read(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _q(self, sql: str) -> str:
        return sql.replace("?", self._rm_param)

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._rm_read() as conn:
            return list(conn.execute(self._q(sql), tuple(params)).fetchall())

    # -- checkpoints and leases -----------------------------------------------------------------
    def checkpoints(self) -> dict[str, int]:
        """Every projection's checkpoint (the last global position applied)."""
        rows = self._rows("SELECT name, position FROM projection_checkpoints")
        return {name: int(position) for name, position in rows}

    def checkpoint(self, name: str) -> int:
        """A projection's checkpoint (0 before its first event)."""
        rows = self._rows("SELECT position FROM projection_checkpoints WHERE name = ?", (name,))
        return int(rows[0][0]) if rows else 0

    def commit_projection(self, name: str, expected: int, position: int, writes: Sequence[ReadModelWrite]) -> bool:
        """Write a batch's rows and move the checkpoint from `expected` to `position`, all in one
        transaction; write nothing and return False when the checkpoint is no longer `expected`."""
        try:
            with self._rm_write() as conn:
                for statement in self._rm_projection_tx:
                    conn.execute(statement)
                # Compare-and-set in one statement: a missing row is a checkpoint at 0 (rows are never
                # deleted), an existing one moves only from `expected`.
                moved = conn.execute(
                    self._q(
                        "INSERT INTO projection_checkpoints (name, position) VALUES (?, ?) "
                        "ON CONFLICT (name) DO UPDATE SET position = excluded.position "
                        "WHERE projection_checkpoints.position = ? RETURNING position"
                    ),
                    (name, position, expected),
                ).fetchone()
                if moved is None:
                    raise CheckpointMoved()
                self._write_rows(conn, writes)
        except CheckpointMoved:
            return False
        return True

    def _write_rows(self, conn: Any, writes: Sequence[ReadModelWrite]) -> None:
        # One statement per kind of row, sent with executemany (pipelined on PostgreSQL).
        summaries = [w for w in writes if isinstance(w, GameSummary)]
        changes = [w for w in writes if isinstance(w, ResultChange)]
        snapshots = [w for w in writes if isinstance(w, SnapshotRow)]
        ratings = [w for w in writes if isinstance(w, RatingRows)]
        cursor = conn.cursor()
        if summaries:
            # `applied` adds up: a row applied twice would show more applications than versions.
            cursor.executemany(
                self._q(
                    f"INSERT INTO game_summaries ({_SUMMARY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (club_id, game_id) DO UPDATE SET ruleset_version = excluded.ruleset_version, "
                    "version = excluded.version, applied = game_summaries.applied + excluded.applied, "
                    "finished = excluded.finished, finished_at = excluded.finished_at, "
                    "players = excluded.players, result = excluded.result"
                ),
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
                self._q("INSERT INTO game_result_changes (stream_id, version, before, after) VALUES (?, ?, ?, ?)"),
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
                self._q(
                    "INSERT INTO replay_snapshots (stream_id, version, ruleset_version, data) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (stream_id, version) DO UPDATE SET ruleset_version = excluded.ruleset_version, "
                    "data = excluded.data"
                ),
                [(w.stream_id, w.version, w.ruleset_version, w.data) for w in snapshots],
            )
        for rows in ratings:
            self._write_ratings(cursor, rows)

    def _write_ratings(self, cursor: Any, rows: RatingRows) -> None:
        key = (rows.club_id, rows.ruleset)
        if rows.truncate:
            cursor.executemany(
                self._q(
                    "DELETE FROM rating_history WHERE club_id = ? AND ruleset = ? AND player_id = ? AND number > ?"
                ),
                [(*key, player, number) for player, number in rows.truncate],
            )
        if rows.drop:
            cursor.executemany(
                self._q("DELETE FROM player_ratings WHERE club_id = ? AND ruleset = ? AND player_id = ?"),
                [(*key, player) for player in rows.drop],
            )
        if rows.ratings:
            cursor.executemany(
                self._q(
                    "INSERT INTO player_ratings (club_id, ruleset, player_id, mu, sigma, rating, games, "
                    "last_game, last_finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (club_id, ruleset, player_id) DO UPDATE SET mu = excluded.mu, "
                    "sigma = excluded.sigma, rating = excluded.rating, "
                    "games = excluded.games, last_game = excluded.last_game, "
                    "last_finished_at = excluded.last_finished_at"
                ),
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
                self._q(
                    "INSERT INTO rating_history (club_id, ruleset, player_id, number, game_id, finished_at, "
                    "placement, mu, sigma, rating, change) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                ),
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

    def reset_projection(self, name: str, tables: Sequence[str]) -> None:
        """Empty a projection's tables and set its checkpoint back to 0, in one transaction."""
        unknown = set(tables) - PROJECTION_TABLES
        if unknown:
            raise ValueError(f"not read-model tables: {sorted(unknown)}")
        with self._rm_write() as conn:
            for table in tables:
                conn.execute(f"DELETE FROM {table}")
            conn.execute(
                self._q(
                    "INSERT INTO projection_checkpoints (name, position) VALUES (?, 0) "
                    "ON CONFLICT (name) DO UPDATE SET position = 0"
                ),
                (name,),
            )

    def acquire_lease(self, name: str, owner: str, seconds: float) -> bool:
        """Take or renew the lease to run projection `name` for `seconds`; False while another
        owner's lease runs."""
        now = time.time()
        with self._rm_write() as conn:
            row = conn.execute(
                self._q(
                    "INSERT INTO projection_leases (name, owner, expires_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at "
                    "WHERE projection_leases.owner = excluded.owner OR projection_leases.expires_at < ? "
                    "RETURNING owner"
                ),
                (name, owner, now + seconds, now),
            ).fetchone()
        return row is not None

    def release_lease(self, name: str, owner: str) -> None:
        """Give the lease up (at shutdown), so another runner takes over at once."""
        with self._rm_write() as conn:
            conn.execute(self._q("DELETE FROM projection_leases WHERE name = ? AND owner = ?"), (name, owner))

    def lease_owner(self, name: str) -> str | None:
        """Who holds the lease now (None when free or run out)."""
        rows = self._rows("SELECT owner FROM projection_leases WHERE name = ? AND expires_at >= ?", (name, time.time()))
        return str(rows[0][0]) if rows else None

    def count_events(self, *, after: int = 0) -> int:
        """How many events lie after global position `after` (for progress reports)."""
        return int(self._rows("SELECT count(*) FROM events WHERE position > ?", (after,))[0][0])

    def unprojected(self, *, after: int) -> tuple[int, datetime | None]:
        """The events recorded after global position `after` and when the oldest of them was recorded,
        whether or not a reader of the global order may see them yet (a projection's lag)."""
        count, oldest = self._rows("SELECT count(*), min(recorded_at) FROM events WHERE position > ?", (after,))[0]
        return int(count), oldest if isinstance(oldest, datetime) or oldest is None else _time(oldest)

    # -- game summaries -------------------------------------------------------------------------
    def game_summaries(self, club_id: str, game_ids: Sequence[str]) -> dict[str, GameSummary]:
        """The summaries of these games of the club that the projector has written, by game id."""
        if not game_ids:
            return {}
        marks = ", ".join("?" for _ in game_ids)
        rows = self._rows(
            f"SELECT {_SUMMARY_COLUMNS} FROM game_summaries WHERE club_id = ? AND game_id IN ({marks})",
            [club_id, *game_ids],
        )
        return {row[0]: _summary(row) for row in rows}

    def finished_summaries(self, club_id: str, ruleset: str) -> list[GameSummary]:
        """A club's finished games of one ruleset (what the ratings are derived from)."""
        rows = self._rows(
            f"SELECT {_SUMMARY_COLUMNS} FROM game_summaries WHERE club_id = ? AND ruleset = ? AND finished = ?",
            (club_id, ruleset, True),
        )
        return [_summary(row) for row in rows]

    # -- ratings ----------------------------------------------------------------------------------
    def player_ratings(self, club_id: str, ruleset: str) -> dict[str, PlayerRating]:
        """A club's current ratings for one ruleset, by player id."""
        rows = self._rows(
            "SELECT player_id, mu, sigma, rating, games, last_game, last_finished_at FROM player_ratings "
            "WHERE club_id = ? AND ruleset = ?",
            (club_id, ruleset),
        )
        return {
            r[0]: PlayerRating(
                player_id=r[0],
                skill=Skill(mu=r[1], sigma=r[2], rating=r[3]),
                games=r[4],
                last_game=r[5],
                last_finished_at=datetime.fromisoformat(r[6]),
            )
            for r in rows
        }

    def rating_points_since(self, club_id: str, ruleset: str, since: datetime) -> list[tuple[str, int, RatingPoint]]:
        """The history points of games finished at or after `since`: (player id, game number, point)."""
        rows = self._rows(
            "SELECT player_id, number, game_id, finished_at, placement, mu, sigma, rating, change FROM rating_history "
            "WHERE club_id = ? AND ruleset = ? AND finished_at >= ?",
            (club_id, ruleset, _utc(since)),
        )
        return [(r[0], r[1], _point(r[2:])) for r in rows]

    def rating_point(self, club_id: str, ruleset: str, player_id: str, number: int) -> RatingPoint | None:
        """A player's rating after their nth rated game."""
        rows = self._rows(
            "SELECT game_id, finished_at, placement, mu, sigma, rating, change FROM rating_history "
            "WHERE club_id = ? AND ruleset = ? AND player_id = ? AND number = ?",
            (club_id, ruleset, player_id, number),
        )
        return _point(rows[0]) if rows else None

    def rating_history(self, club_id: str, ruleset: str, player_id: str) -> list[RatingPoint]:
        """A player's rating after every rated game of one ruleset, oldest first."""
        rows = self._rows(
            "SELECT game_id, finished_at, placement, mu, sigma, rating, change FROM rating_history "
            "WHERE club_id = ? AND ruleset = ? AND player_id = ? ORDER BY number",
            (club_id, ruleset, player_id),
        )
        return [_point(r) for r in rows]

    def result_changes(self, stream_id: StreamId) -> list[ResultChange]:
        """The corrections that changed the outcome of the game on `stream_id`, oldest first."""
        rows = self._rows(
            "SELECT stream_id, version, before, after FROM game_result_changes WHERE stream_id = ? ORDER BY version",
            (stream_id,),
        )
        return [
            ResultChange(
                stream_id=r[0],
                version=r[1],
                before=msgspec.json.decode(r[2].encode(), type=Outcome),
                after=msgspec.json.decode(r[3].encode(), type=Outcome),
            )
            for r in rows
        ]

    # -- replay snapshots -----------------------------------------------------------------------
    def snapshots(self, stream_id: StreamId, *, up_to: int | None = None) -> list[SnapshotRow]:
        """The stored snapshots of the game on `stream_id` (at or before version `up_to`), oldest first."""
        rows = self._rows(
            "SELECT stream_id, version, ruleset_version, data FROM replay_snapshots "
            "WHERE stream_id = ? AND version <= ? ORDER BY version",
            (stream_id, up_to if up_to is not None else 2**31 - 1),
        )
        return [SnapshotRow(stream_id=r[0], version=r[1], ruleset_version=r[2], data=bytes(r[3])) for r in rows]

    def replace_snapshots(self, stream_id: StreamId, rows: Sequence[SnapshotRow]) -> None:
        """Replace a game's snapshots (rebuilt under a new ruleset version)."""
        with self._rm_write() as conn:
            conn.execute(self._q("DELETE FROM replay_snapshots WHERE stream_id = ?"), (stream_id,))
            self._write_rows(conn, rows)

    # -- leagues and campaigns ------------------------------------------------------------------
    def create_collection(
        self, kind: CollectionKind, club_id: str, collection_id: str, definition: bytes
    ) -> Collection:
        """Store a new league or campaign (AlreadyExists for a taken id)."""
        created = datetime.now(UTC)
        try:
            with self._rm_write() as conn:
                conn.execute(
                    self._q(
                        "INSERT INTO collections (club_id, kind, collection_id, definition, created_at) "
                        "VALUES (?, ?, ?, ?, ?)"
                    ),
                    (club_id, kind, collection_id, definition.decode(), created.isoformat()),
                )
        except self._rm_integrity:
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
        rows = self._rows(
            "SELECT collection_id, definition, created_at FROM collections WHERE club_id = ? AND kind = ? "
            "AND (CAST(? AS TEXT) IS NULL OR collection_id = ?) ORDER BY collection_id",
            (club_id, kind, collection_id, collection_id),
        )
        games: dict[str, list[str]] = {}
        for cid, game_id in self._rows(
            "SELECT collection_id, game_id FROM collection_games WHERE club_id = ? AND kind = ? "
            "AND (CAST(? AS TEXT) IS NULL OR collection_id = ?) ORDER BY ordinal",
            (club_id, kind, collection_id, collection_id),
        ):
            games.setdefault(cid, []).append(game_id)
        return [
            Collection(
                club_id=club_id,
                kind=kind,
                collection_id=r[0],
                definition=r[1].encode(),
                created_at=datetime.fromisoformat(r[2]),
                game_ids=tuple(games.get(r[0], ())),
            )
            for r in rows
        ]

    def add_collection_game(self, kind: CollectionKind, club_id: str, collection_id: str, game_id: str) -> None:
        """Assign a game to a league or campaign, after its other games (AlreadyExists when it is)."""
        try:
            with self._rm_write() as conn:
                conn.execute(
                    self._q(
                        "INSERT INTO collection_games (club_id, kind, collection_id, game_id, ordinal, "
                        "assigned_at) SELECT ?, ?, ?, ?, coalesce(max(ordinal), 0) + 1, ? FROM collection_games "
                        "WHERE club_id = ? AND kind = ? AND collection_id = ?"
                    ),
                    (
                        club_id,
                        kind,
                        collection_id,
                        game_id,
                        datetime.now(UTC).isoformat(),
                        club_id,
                        kind,
                        collection_id,
                    ),
                )
        except self._rm_integrity:
            raise AlreadyExists(f"{kind} game", game_id) from None

    def collections_of_game(self, club_id: str, game_id: str) -> list[tuple[CollectionKind, str]]:
        """The leagues and campaigns a game is assigned to."""
        rows = self._rows(
            "SELECT kind, collection_id FROM collection_games WHERE club_id = ? AND game_id = ? "
            "ORDER BY kind, collection_id",
            (club_id, game_id),
        )
        return [(r[0], r[1]) for r in rows]

    def record_removal(self, kind: CollectionKind, club_id: str, collection_id: str, removal: Removal) -> None:
        """Record that a game was taken out of a league or campaign, or put back."""
        with self._rm_write() as conn:
            conn.execute(
                self._q(
                    "INSERT INTO collection_game_changes (club_id, kind, collection_id, number, game_id, action, "
                    "reason, key_id, recorded_at) SELECT ?, ?, ?, coalesce(max(number), 0) + 1, ?, ?, ?, ?, ? "
                    "FROM collection_game_changes WHERE club_id = ? AND kind = ? AND collection_id = ?"
                ),
                (
                    club_id,
                    kind,
                    collection_id,
                    removal.game_id,
                    removal.action,
                    removal.reason,
                    removal.key_id,
                    removal.recorded_at.isoformat(),
                    club_id,
                    kind,
                    collection_id,
                ),
            )

    def removals(self, kind: CollectionKind, club_id: str, collection_id: str) -> list[Removal]:
        """The games taken out of a league or campaign and put back, oldest first."""
        rows = self._rows(
            "SELECT game_id, action, reason, key_id, recorded_at FROM collection_game_changes "
            "WHERE club_id = ? AND kind = ? AND collection_id = ? ORDER BY number",
            (club_id, kind, collection_id),
        )
        return [
            Removal(game_id=r[0], action=r[1], reason=r[2], key_id=r[3], recorded_at=datetime.fromisoformat(r[4]))
            for r in rows
        ]

    # -- spectator delays -----------------------------------------------------------------------
    def spectator_delay(self, stream_id: StreamId) -> SpectatorDelay:
        """The live delay of the game on `stream_id` (none when never set)."""
        rows = self._rows("SELECT events, seconds FROM spectator_delays WHERE stream_id = ?", (stream_id,))
        return SpectatorDelay(events=rows[0][0], seconds=rows[0][1]) if rows else SpectatorDelay()

    def set_spectator_delay(self, stream_id: StreamId, delay: SpectatorDelay) -> None:
        """Set a game's live delay."""
        with self._rm_write() as conn:
            conn.execute(
                self._q(
                    "INSERT INTO spectator_delays (stream_id, events, seconds) VALUES (?, ?, ?) "
                    "ON CONFLICT (stream_id) DO UPDATE SET events = excluded.events, seconds = excluded.seconds"
                ),
                (stream_id, delay.events, delay.seconds),
            )


def _utc(moment: datetime) -> str:
    """A time as fixed-width UTC text, so that text order is time order (rating history is filtered so)."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def _point(row: Sequence[Any]) -> RatingPoint:
    return RatingPoint(
        game_id=row[0],
        finished_at=datetime.fromisoformat(row[1]),
        placement=row[2],
        skill=Skill(mu=row[3], sigma=row[4], rating=row[5]),
        change=row[6],
    )


def _summary(row: tuple[Any, ...]) -> GameSummary:
    return GameSummary(
        game_id=row[0],
        club_id=row[1],
        ruleset=row[2],
        ruleset_version=row[3],
        version=row[4],
        applied=row[5],
        started_at=datetime.fromisoformat(row[6]),
        players=msgspec.json.decode(row[9].encode(), type=tuple[Player, ...]),
        outcome=Outcome(
            finished=bool(row[7]), finished_at=_time(row[8]), result=msgspec.json.decode(row[10].encode(), type=Result)
        ),
    )
