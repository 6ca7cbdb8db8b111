"""The PostgreSQL store (production), through psycopg 3 and a connection pool.

Global order. A `bigserial` position is taken at INSERT but becomes visible at COMMIT, so a reader
tailing `position > last_seen` would skip an event whose transaction commits late (a pilot of that
design lost 3-8 % of events that way). Locking every append into one queue fixes it but
serialises all clubs' writers (about 0.4x the throughput). Instead we use the transaction-id read gate
(as Emmett and Watermill do) folded into one number:

    position = (id of the appending transaction << 20) + index of the event in the append

and a reader only returns rows whose transaction is older than the oldest one still running
(`position < pg_snapshot_xmin(pg_current_snapshot()) << 20`). Every transaction below that horizon has
finished, and every future commit has a larger transaction id, so nothing can ever appear below a
position a reader has passed: no skips, no duplicates, and writers stay fully concurrent. Positions are
sparse (not dense) and a reader lags behind the oldest open transaction on the server (an idle open
transaction delays tailing; it never loses events).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Coroutine, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any, NoReturn, Protocol, TypeVar

import msgspec
import psycopg
from psycopg import errors as pg_errors
from psycopg.rows import dict_row, tuple_row
from psycopg_pool import AsyncConnectionPool, ConnectionPool

from service.store.async_events import blocking
from service.store.base import (
    MAX_BATCH,
    RESULT_ONLY_SQL,
    AlreadyExists,
    AppendRequest,
    AppendResult,
    Club,
    ClubPlayer,
    Duplicate,
    GameFilter,
    GameRecord,
    IdempotencyMismatch,
    ImmutableRecord,
    MissingReference,
    NewEvent,
    Recorder,
    Resource,
    StoredEvent,
    StoreUnavailable,
    StreamId,
    UnstorableValue,
    VersionConflict,
    content_hash,
    game_filter_sql,
    request_fingerprint,
)
from service.store.composed import ComposedStore
from service.store.migrations import load_migrations
from service.store.sql import POSTGRES

T = TypeVar("T")

POSITION_SHIFT = 20
assert MAX_BATCH < 2**POSITION_SHIFT

_APPEND_WITH_LISTING = """
WITH prior AS (
    SELECT fingerprint, result FROM idempotency_keys WHERE stream_id = %(stream)s AND key = %(idem)s
), inserted AS (
    {insert_events}
    SELECT {first_position} + e.ord, %(stream)s, %(expected)s + e.ord,
           {event_columns}, %(club)s, %(key)s, e.event->>3, {event_time}
    FROM {batch}
    WHERE {expected_check} AND NOT EXISTS (SELECT 1 FROM prior)
    RETURNING version, position
), created AS (
    INSERT INTO games (game_id, club_id, stream_id, ruleset, ruleset_version, player_ids, title, created_at,
                       finished, finished_at)
    SELECT %(game)s, %(game_club)s, %(stream)s, %(ruleset)s, %(ruleset_version)s, %(player_ids)s, %(title)s,
           %(created_at)s, %(finished)s, CASE WHEN %(finished)s THEN coalesce(%(ended_at)s::timestamptz, now()) END
    WHERE %(create)s AND EXISTS (SELECT 1 FROM inserted)
    RETURNING 1
), listed AS (
    UPDATE games SET finished = %(finished)s,
                     finished_at = CASE WHEN %(finished)s
                                   THEN coalesce(finished_at, %(ended_at)s::timestamptz, now()) END
    WHERE stream_id = %(stream)s AND %(progress)s AND NOT %(create)s AND EXISTS (SELECT 1 FROM inserted)
    RETURNING 1
), remembered AS (
    INSERT INTO idempotency_keys (stream_id, key, fingerprint, result)
    SELECT %(stream)s, %(idem)s, %(fingerprint)s, %(versions)s::jsonb
    WHERE %(idem)s::text IS NOT NULL AND EXISTS (SELECT 1 FROM inserted)
    RETURNING 1
)
SELECT (SELECT array_agg(position ORDER BY version) FROM inserted),
       (SELECT fingerprint FROM prior), (SELECT result::text FROM prior)
"""


class _AppendedVersions(msgspec.Struct, frozen=True):
    """What the idempotency table keeps of an append (its positions are read back from the events)."""

    first_version: int
    last_version: int


# The stream is at `expected` when its event `expected` exists (or it is new) and event `expected + 1`
# does not: the first is this index probe, the second the unique key, which turns a lost race into a
# unique violation (a conflict), never a silent success.
_EXPECTED_CHECK = (
    "(%(expected)s = 0 OR EXISTS (SELECT 1 FROM events WHERE stream_id = %(stream)s AND version = %(expected)s))"
)
# A batch travels as one JSON text, `[[type, schema_version, data, chain], ...]`, each event's body embedded
# as it was encoded: psycopg dumps one string instead of three arrays (its list dumpers were a fifth of
# an HTTP append's CPU, bench/), and PostgreSQL's `json ->` hands back each body's text unchanged.
_BATCH = "json_array_elements(%(batch)s::json) WITH ORDINALITY AS e(event, ord)"
_BATCH_COLUMNS = "e.event->>0, (e.event->>1)::int, e.event->2"
_INSERT_EVENTS = (
    "INSERT INTO events (position, stream_id, version, type, schema_version, data, club_id, key_id, chain, recorded_at)"
)
# Each event's time as the use case chose it before linking it (`e.event->>4`), else the transaction's.
_EVENT_TIME = "coalesce((e.event->>4)::timestamptz, now())"
# Position 0 of an append (see the module docstring); its events take 1, 2, ... after it.
_FIRST_POSITION = f"(pg_current_xact_id()::text::bigint << {POSITION_SHIFT})"
_APPEND_WITH_LISTING = _APPEND_WITH_LISTING.format(
    insert_events=_INSERT_EVENTS,
    first_position=_FIRST_POSITION,
    event_columns=_BATCH_COLUMNS,
    event_time=_EVENT_TIME,
    batch=_BATCH,
    expected_check=_EXPECTED_CHECK,
)

# The plain appends (no listing, no idempotency key): one statement; a single event (most appends at a
# table) as plain parameters, which spares PostgreSQL the JSON batch (about 10% of its CPU per append).
_APPEND_PLAIN = f"""
{_INSERT_EVENTS}
SELECT {_FIRST_POSITION} + e.ord, %(stream)s, %(expected)s + e.ord, {_BATCH_COLUMNS},
       %(club)s, %(key)s, e.event->>3, {_EVENT_TIME}
FROM {_BATCH}
WHERE {_EXPECTED_CHECK}
RETURNING position
"""
_APPEND_ONE = f"""
{_INSERT_EVENTS}
SELECT {_FIRST_POSITION} + 1, %(stream)s, %(expected)s + 1, %(type)s, %(schema_version)s,
       %(data)s::json, %(club)s, %(key)s, %(chain)s, coalesce(%(recorded_at)s::timestamptz, now())
WHERE {_EXPECTED_CHECK}
RETURNING position
"""

# An imported game's events, each with the time it was first recorded (`e.event->>4`) and the key that
# recorded it (`e.event->>5`, the exporting server's), from version 1.
_RESTORE_EVENTS = f"""
INSERT INTO events (position, stream_id, version, type, schema_version, data, recorded_at, club_id, key_id, chain)
SELECT {_FIRST_POSITION} + e.ord, %(stream)s, e.ord, {_BATCH_COLUMNS}, (e.event->>4)::timestamptz,
       %(club)s, e.event->>5, e.event->>3
FROM {_BATCH}
RETURNING version, position
"""


def _batch(events: Sequence[NewEvent]) -> str:
    """The events of an append as the one JSON text the append statements read (see _BATCH)."""
    return msgspec.json.encode(
        [(e.type, e.schema_version, msgspec.Raw(e.data), e.chain, e.recorded_at) for e in events]
    ).decode()


_EVENT_COLUMNS = "stream_id, version, position, type, schema_version, data::text, recorded_at, club_id, key_id, chain"


def _event(row: tuple[Any, ...]) -> StoredEvent:
    return StoredEvent(
        stream_id=row[0],
        version=row[1],
        position=row[2],
        type=row[3],
        schema_version=row[4],
        data=row[5].encode(),
        recorded_at=row[6],
        club_id=row[7],
        key_id=row[8],
        chain=row[9],
    )


_GAME_COLUMNS = (
    "game_id, club_id, ruleset, ruleset_version, player_ids, created_at, "
    "(SELECT coalesce(max(e.version), 0) FROM events e WHERE e.stream_id = games.stream_id), "
    "finished, finished_at, title, stream_id, " + RESULT_ONLY_SQL.format(stream="games.stream_id")
)


def _game(row: tuple[Any, ...]) -> GameRecord:
    return GameRecord(
        game_id=row[0],
        club_id=row[1],
        ruleset=row[2],
        ruleset_version=row[3],
        player_ids=tuple(row[4]),
        created_at=row[5],
        version=row[6],
        finished=row[7],
        finished_at=row[8],
        title=row[9],
        stream_id=row[10],
        result_only=row[11],
    )


# -- the hot path's statements, written once as coroutines on `Rows`: run on a pooled connection, blocking
# by `PostgresStore` (`service.store.async_events.blocking`) and awaited by `AsyncPostgresEvents`.
class Rows(Protocol):
    """A pooled connection as the hot path's statements use it: one row of a statement, or all of them,
    with the driver's errors translated into the store's own (`_raise_translated`)."""

    async def one(self, sql: str, params: Any) -> Any: ...

    async def all(self, sql: str, params: Any) -> list[Any]: ...


class _BlockingRows:
    """`Rows` on a blocking connection (its coroutines never suspend)."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self._conn = conn

    async def one(self, sql: str, params: Any) -> Any:
        try:
            return self._conn.execute(sql, params).fetchone()
        except psycopg.Error as error:
            _raise_translated(error)

    async def all(self, sql: str, params: Any) -> list[Any]:
        try:
            return self._conn.execute(sql, params).fetchall()
        except psycopg.Error as error:
            _raise_translated(error)


class _AwaitedRows:
    """`Rows` on an async connection."""

    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self._conn = conn

    async def one(self, sql: str, params: Any) -> Any:
        try:
            return await (await self._conn.execute(sql, params)).fetchone()
        except psycopg.Error as error:
            _raise_translated(error)

    async def all(self, sql: str, params: Any) -> list[Any]:
        try:
            return await (await self._conn.execute(sql, params)).fetchall()
        except psycopg.Error as error:
            _raise_translated(error)


async def append_rows(db: Rows, request: AppendRequest) -> AppendResult:
    """`Store.append` on PostgreSQL."""
    stream_id, events, expected_version = request.stream_id, request.events, request.expected_version
    if not events or len(events) > MAX_BATCH:
        raise ValueError(f"an append holds 1 to {MAX_BATCH} events")
    idempotency_key, game, progress = request.idempotency_key, request.game, request.progress
    if idempotency_key is None and game is None and progress is None:
        return await _append_plain(db, request)
    fingerprint = request_fingerprint(events, expected_version) if idempotency_key else ""
    last = expected_version + len(events)
    finished = progress.finished if progress is not None else False
    # One statement in autocommit: the version check, the events, the game's listing and the
    # idempotency key are written together or not at all, in one round trip (no BEGIN / COMMIT).
    params = {
        "stream": stream_id,
        "expected": expected_version,
        "club": request.recorded_by.club_id,
        "key": request.recorded_by.key_id,
        "batch": _batch(events),
        "idem": idempotency_key,
        "fingerprint": fingerprint,
        "versions": msgspec.json.encode({"first_version": expected_version + 1, "last_version": last}).decode(),
        "progress": progress is not None,
        "finished": finished,
        "create": game is not None,
        "game": game.game_id if game else None,
        "game_club": game.club_id if game else None,
        "ruleset": game.ruleset if game else None,
        "ruleset_version": game.ruleset_version if game else None,
        "player_ids": list(game.player_ids) if game else None,
        "title": game.title if game else None,
        "created_at": game.created_at if game else None,
        # A game's end is when the event that ended it was recorded (its last, as the use case timed it).
        "ended_at": events[-1].recorded_at,
    }
    try:
        row = await db.one(_APPEND_WITH_LISTING, params)
    except Duplicate:
        if game is not None:  # its stream or its listing exists already
            raise AlreadyExists("game", game.game_id) from None
        # A concurrent writer won the race: a retry with the same key gets the first result.
        if idempotency_key:
            replay = await replayed_append_rows(db, stream_id, idempotency_key, fingerprint)
            if replay is not None:
                return replay
        raise await _conflict(db, stream_id, expected_version) from None
    assert row is not None
    positions, prior_fingerprint, prior_result = row
    if prior_fingerprint is not None:
        return await _replay(db, stream_id, idempotency_key or "", fingerprint, prior_fingerprint, prior_result)
    if positions is None:
        if game is not None:
            raise AlreadyExists("game", game.game_id)
        raise await _conflict(db, stream_id, expected_version)
    return AppendResult(
        stream_id=stream_id, first_version=expected_version + 1, last_version=last, positions=tuple(positions)
    )


async def _append_plain(db: Rows, request: AppendRequest) -> AppendResult:
    """An append with nothing beside its events: the leanest statement, one round trip."""
    stream_id, events, expected_version = request.stream_id, request.events, request.expected_version
    params: dict[str, Any] = {
        "stream": stream_id,
        "expected": expected_version,
        "club": request.recorded_by.club_id,
        "key": request.recorded_by.key_id,
    }
    if len(events) == 1:
        one = events[0]
        params |= {
            "type": one.type,
            "schema_version": one.schema_version,
            "data": one.data.decode(),
            "chain": one.chain,
            "recorded_at": one.recorded_at,
        }
    else:
        params["batch"] = _batch(events)
    try:
        positions = await db.all(_APPEND_ONE if len(events) == 1 else _APPEND_PLAIN, params)
    except Duplicate:
        raise await _conflict(db, stream_id, expected_version) from None
    if not positions:
        raise await _conflict(db, stream_id, expected_version)
    return AppendResult(
        stream_id=stream_id,
        first_version=expected_version + 1,
        last_version=expected_version + len(events),
        # Positions grow with the index in the append, so their order is the events' order.
        positions=tuple(sorted(position for (position,) in positions)),
    )


async def _conflict(db: Rows, stream_id: StreamId, expected_version: int) -> VersionConflict:
    return VersionConflict(stream_id, expected_version, await stream_version_rows(db, stream_id))


async def _replay(
    db: Rows, stream_id: StreamId, key: str, fingerprint: str, prior_fingerprint: str, prior_result: str
) -> AppendResult:
    """The first result of an append made with this key (IdempotencyMismatch for another body)."""
    if prior_fingerprint != fingerprint:
        raise IdempotencyMismatch(stream_id, key)
    first = msgspec.json.decode(prior_result.encode(), type=_AppendedVersions)
    row = await db.one(
        "SELECT array_agg(position ORDER BY version) FROM events WHERE stream_id = %s AND version BETWEEN %s AND %s",
        (stream_id, first.first_version, first.last_version),
    )
    positions = tuple(row[0]) if row and row[0] else ()
    return AppendResult(
        stream_id=stream_id,
        first_version=first.first_version,
        last_version=first.last_version,
        positions=positions,
        replayed=True,
    )


async def replayed_append_rows(
    db: Rows, stream_id: StreamId, idempotency_key: str, fingerprint: str
) -> AppendResult | None:
    row = await db.one(
        "SELECT fingerprint, result::text FROM idempotency_keys WHERE stream_id = %s AND key = %s",
        (stream_id, idempotency_key),
    )
    if row is None:
        return None
    return await _replay(db, stream_id, idempotency_key, fingerprint, row[0], row[1])


async def read_stream_rows(db: Rows, stream_id: StreamId, after_version: int, limit: int | None) -> list[StoredEvent]:
    rows = await db.all(
        f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream_id = %s AND version > %s ORDER BY version LIMIT %s",
        (stream_id, after_version, limit),
    )
    return [_event(row) for row in rows]


async def stream_version_rows(db: Rows, stream_id: StreamId) -> int:
    row = await db.one("SELECT coalesce(max(version), 0) FROM events WHERE stream_id = %s", (stream_id,))
    return int(row[0]) if row else 0


async def get_game_rows(db: Rows, club_id: str, game_id: str) -> GameRecord | None:
    row = await db.one(f"SELECT {_GAME_COLUMNS} FROM games WHERE club_id = %s AND game_id = %s", (club_id, game_id))
    return _game(row) if row else None


def _raise_translated(error: psycopg.Error) -> NoReturn:
    """Raise the store's own error for a driver's error, or the driver's error itself when it has none
    (the one translation, for the blocking and the async pool alike)."""
    translated = _store_error(error)
    if translated is None:
        raise error
    raise translated from (error if isinstance(translated, StoreUnavailable) else None)


def _store_error(error: Exception) -> Exception | None:
    """The store's own error for a driver's error, None for one that is not translated."""
    if isinstance(error, pg_errors.UniqueViolation):
        return Duplicate(error.diag.constraint_name or "")
    if isinstance(error, pg_errors.InsufficientPrivilege) and "append-only" in str(error):  # the events' trigger
        return ImmutableRecord(str(error))
    if isinstance(error, pg_errors.ProgramLimitExceeded):
        return UnstorableValue("a value too long to be indexed")
    if isinstance(error, psycopg.DataError):
        # Never the driver's text: it may quote the client's value.
        return UnstorableValue("a number out of range, or a character the database refuses (NUL)")
    if isinstance(error, pg_errors.ForeignKeyViolation):
        constraint = error.diag.constraint_name or ""
        # A game's keys name its club too (club_id, game_id): the game is the more telling of the two.
        named = (("game_id", "game"), ("stream_id", "game"), ("club_id", "club"))
        return MissingReference(next((what for column, what in named if column in constraint), "record"))
    # After the data errors: some of those are operational too.
    if isinstance(error, psycopg.OperationalError) and (
        error.sqlstate is None or error.sqlstate.startswith(("08", "57"))  # connection, operator intervention
    ):
        return StoreUnavailable()
    return None


class PostgresDatabase:
    """The PostgreSQL pool (autocommit connections, rows as tuples for the hot path), its schema, and the
    `service.store.sql.Database` the shared SQL runs on."""

    dialect = POSTGRES

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 10) -> None:
        self.url = url
        self.pool = ConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            kwargs={"autocommit": True, "row_factory": tuple_row},
            open=True,
            name="tablelog",
        )
        self._closed = threading.Event()

    def close(self) -> None:
        if not self._closed.is_set():
            self._closed.set()
            self.pool.close()

    @contextmanager
    def connection(self, timeout: float | None = None) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection whose errors come out as the store's own (`_raise_translated`)."""
        try:
            with self.pool.connection(timeout=timeout) as conn:
                yield conn
        except psycopg.Error as error:
            _raise_translated(error)

    @contextmanager
    def writing(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection in a transaction."""
        with self.connection() as conn, conn.transaction():
            yield conn

    def records(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        with self.connection() as conn, conn.cursor(row_factory=dict_row) as cursor:
            return cursor.execute(sql, params).fetchall()

    def run(self, statements: Callable[[Rows], Coroutine[Any, Any, T]]) -> T:
        """Run a piece of the hot path on one pooled connection, blocking (see `append_rows`)."""
        with self.connection() as conn:
            return blocking(statements(_BlockingRows(conn)))

    # -- schema ---------------------------------------------------------------------------------
    def migrate(self) -> list[str]:
        applied: list[str] = []
        with self.writing() as conn:
            # Several workers may start at once: one migrates, the others wait and find it done.
            conn.execute("SELECT pg_advisory_xact_lock(hashtext('tablelog.migrate'))")
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            done = {row[0] for row in conn.execute("SELECT name FROM schema_migrations").fetchall()}
            for migration in load_migrations("postgres"):
                if migration.name not in done:
                    conn.execute(migration.sql)
                    conn.execute("INSERT INTO schema_migrations (name) VALUES (%s)", (migration.name,))
                    applied.append(migration.name)
        return applied

    def pending_migrations(self) -> list[str]:
        with self.connection() as conn:
            exists = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()
            done: set[str] = set()
            if exists and exists[0]:
                done = {row[0] for row in conn.execute("SELECT name FROM schema_migrations").fetchall()}
        return [m.name for m in load_migrations("postgres") if m.name not in done]

    def ping(self) -> None:
        with self.connection(timeout=5) as conn:
            conn.execute("SELECT 1")


class PostgresEvents:
    """`EventRecorder` on PostgreSQL: the hot path's statements (`append_rows`, ...), and the reads of the
    global order."""

    def __init__(self, db: PostgresDatabase) -> None:
        self._db = db

    def change_token(self) -> None:
        """PostgreSQL cannot tell whether anything was committed without a statement."""
        return None

    def append(self, request: AppendRequest) -> AppendResult:
        return self._db.run(lambda db: append_rows(db, request))

    def restore_stream(
        self,
        stream_id: StreamId,
        events: Sequence[NewEvent],
        recorded_at: Sequence[datetime],
        *,
        recorded_by: Recorder,
        game: GameRecord | None = None,
    ) -> AppendResult:
        if not 1 <= len(events) < 2**POSITION_SHIFT:
            raise ValueError(f"a restored stream holds 1 to {2**POSITION_SHIFT - 1} events")
        batch = msgspec.json.encode(
            [
                (e.type, e.schema_version, msgspec.Raw(e.data), e.chain, moment, e.key_id)
                for e, moment in zip(events, recorded_at, strict=True)
            ]
        ).decode()
        try:
            with self._db.writing() as conn:
                if game is not None:
                    conn.execute(
                        "INSERT INTO games (game_id, club_id, stream_id, ruleset, ruleset_version, player_ids, "
                        "title, created_at, finished, finished_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                        (
                            game.game_id,
                            game.club_id,
                            stream_id,
                            game.ruleset,
                            game.ruleset_version,
                            list(game.player_ids),
                            game.title,
                            game.created_at,
                            game.finished,
                            game.finished_at,
                        ),
                    )
                rows = conn.execute(
                    _RESTORE_EVENTS,
                    {"stream": stream_id, "club": recorded_by.club_id, "batch": batch},
                ).fetchall()
        except Duplicate:
            raise (
                AlreadyExists("game", game.game_id) if game is not None else AlreadyExists("stream", stream_id)
            ) from None
        return AppendResult(
            stream_id=stream_id,
            first_version=1,
            last_version=len(events),
            positions=tuple(position for _, position in sorted(rows)),
        )

    def replayed_append(self, stream_id: StreamId, idempotency_key: str, fingerprint: str) -> AppendResult | None:
        return self._db.run(lambda db: replayed_append_rows(db, stream_id, idempotency_key, fingerprint))

    def read_stream(
        self, stream_id: StreamId, *, after_version: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        return self._db.run(lambda db: read_stream_rows(db, stream_id, after_version, limit))

    def stream_version(self, stream_id: StreamId) -> int:
        return self._db.run(lambda db: stream_version_rows(db, stream_id))

    def read_all(self, *, after: int = 0, limit: int = 1000) -> list[StoredEvent]:
        with self._db.connection() as conn:
            rows = conn.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE position > %s "
                f"AND position < (pg_snapshot_xmin(pg_current_snapshot())::text::bigint << {POSITION_SHIFT}) "
                "ORDER BY position LIMIT %s",
                (after, limit),
            ).fetchall()
        return [_event(row) for row in rows]

    def read_club(self, club_id: str, *, after: int = 0, limit: int = 1000) -> list[StoredEvent]:
        with self._db.connection() as conn:
            rows = conn.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE club_id = %s AND position > %s "
                f"AND position < (pg_snapshot_xmin(pg_current_snapshot())::text::bigint << {POSITION_SHIFT}) "
                "ORDER BY position LIMIT %s",
                (club_id, after, limit),
            ).fetchall()
        return [_event(row) for row in rows]

    def head_position(self) -> int:
        """The last position a reader can see now (0 when the log is empty)."""
        with self._db.connection() as conn:
            row = conn.execute(
                "SELECT coalesce(max(position), 0) FROM events "
                f"WHERE position < (pg_snapshot_xmin(pg_current_snapshot())::text::bigint << {POSITION_SHIFT})"
            ).fetchone()
        return int(row[0]) if row else 0

    def count_events(self, *, after: int = 0) -> int:
        with self._db.connection() as conn:
            row = conn.execute("SELECT count(*) FROM events WHERE position > %s", (after,)).fetchone()
        return int(row[0]) if row else 0

    def unprojected(self, *, after: int) -> tuple[int, datetime | None]:
        with self._db.connection() as conn:
            row = conn.execute("SELECT count(*), min(recorded_at) FROM events WHERE position > %s", (after,)).fetchone()
        assert row is not None
        return int(row[0]), row[1]


class PostgresClubRecords:
    """`ClubRecords` on PostgreSQL (times as timestamptz, a game's players as an array, contents as jsonb)."""

    def __init__(self, db: PostgresDatabase) -> None:
        self._db = db

    def create_club(self, club_id: str, name: str) -> Club:
        try:
            with self._db.writing() as conn:
                row = conn.execute(
                    "INSERT INTO clubs (club_id, name) VALUES (%s, %s) RETURNING created_at", (club_id, name)
                ).fetchone()
        except Duplicate:
            raise AlreadyExists("club", club_id) from None
        assert row is not None
        return Club(club_id=club_id, name=name, created_at=row[0])

    def get_club(self, club_id: str) -> Club | None:
        rows = self._db.records("SELECT club_id, name, created_at, language FROM clubs WHERE club_id = %s", (club_id,))
        return msgspec.convert(rows[0], Club) if rows else None

    def list_clubs(self) -> list[Club]:
        rows = self._db.records("SELECT club_id, name, created_at, language FROM clubs ORDER BY club_id")
        return [msgspec.convert(row, Club) for row in rows]

    def set_club_language(self, club_id: str, language: str | None) -> Club | None:
        with self._db.writing() as conn:
            conn.execute("UPDATE clubs SET language = %s WHERE club_id = %s", (language, club_id))
        return self.get_club(club_id)

    def create_player(self, club_id: str, player_id: str, name: str) -> ClubPlayer:
        try:
            with self._db.writing() as conn:
                row = conn.execute(
                    "INSERT INTO players (club_id, player_id, name) VALUES (%s, %s, %s) RETURNING created_at",
                    (club_id, player_id, name),
                ).fetchone()
        except Duplicate:
            raise AlreadyExists("player", player_id) from None
        assert row is not None
        return ClubPlayer(club_id=club_id, player_id=player_id, name=name, created_at=row[0])

    def list_players(self, club_id: str) -> list[ClubPlayer]:
        rows = self._db.records(
            "SELECT club_id, player_id, name, created_at, note, retired_at FROM players WHERE club_id = %s "
            "ORDER BY player_id",
            (club_id,),
        )
        return [msgspec.convert(row, ClubPlayer) for row in rows]

    def get_players(self, club_id: str, player_ids: Sequence[str]) -> list[ClubPlayer]:
        rows = self._db.records(
            "SELECT club_id, player_id, name, created_at, note, retired_at FROM players WHERE club_id = %s "
            "AND player_id = ANY(%s)",
            (club_id, list(player_ids)),
        )
        return [msgspec.convert(row, ClubPlayer) for row in rows]

    # -- games --------------------------------------------------------------------------------------
    def get_game(self, club_id: str, game_id: str) -> GameRecord | None:
        return self._db.run(lambda db: get_game_rows(db, club_id, game_id))

    def set_game_title(self, club_id: str, game_id: str, title: str) -> GameRecord | None:
        with self._db.writing() as conn:
            conn.execute("UPDATE games SET title = %s WHERE club_id = %s AND game_id = %s", (title, club_id, game_id))
        return self.get_game(club_id, game_id)

    def list_games(self, club_id: str, where: GameFilter) -> list[GameRecord]:
        condition, params = game_filter_sql(club_id, where, POSTGRES, player_clause="player_ids @> ARRAY[%s]")
        sql = (
            f"SELECT {_GAME_COLUMNS} FROM games WHERE {condition} ORDER BY created_at DESC, game_id LIMIT %s OFFSET %s"
        )
        params += [where.limit, where.offset]
        with self._db.connection() as conn:
            rows = conn.execute(sql, params).fetchall()
        return [_game(row) for row in rows]

    # -- resources ----------------------------------------------------------------------------------
    def add_resource(self, club_id: str, ruleset: str, kind: str, resource_id: str, content: Any) -> Resource:
        digest = content_hash(content)
        with self._db.writing() as conn:
            # Serialise versions of one resource id.
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"{club_id}/{ruleset}/{kind}/{resource_id}",))
            row = conn.execute(
                "SELECT coalesce(max(version), 0) + 1 FROM resources "
                "WHERE club_id = %s AND ruleset = %s AND kind = %s AND resource_id = %s",
                (club_id, ruleset, kind, resource_id),
            ).fetchone()
            assert row is not None
            version = int(row[0])
            created = conn.execute(
                "INSERT INTO resources (club_id, ruleset, kind, resource_id, version, content_hash, content) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s::jsonb) RETURNING created_at",
                (club_id, ruleset, kind, resource_id, version, digest, msgspec.json.encode(content).decode()),
            ).fetchone()
        assert created is not None
        return Resource(
            club_id=club_id,
            ruleset=ruleset,
            kind=kind,
            resource_id=resource_id,
            version=version,
            content_hash=digest,
            content=content,
            created_at=created[0],
        )

    _RESOURCE_COLUMNS = "club_id, ruleset, kind, resource_id, version, content_hash, content::text, created_at"

    @staticmethod
    def _resource(row: dict[str, Any]) -> Resource:
        return msgspec.convert(row | {"content": msgspec.json.decode(row["content"])}, Resource)

    def get_resource(
        self, club_id: str, ruleset: str, kind: str, resource_id: str, version: int | None = None
    ) -> Resource | None:
        rows = self._db.records(
            f"SELECT {self._RESOURCE_COLUMNS} FROM resources WHERE club_id = %s AND ruleset = %s "
            "AND kind = %s AND resource_id = %s AND (%s::int IS NULL OR version = %s) "
            "ORDER BY version DESC LIMIT 1",
            (club_id, ruleset, kind, resource_id, version, version),
        )
        return self._resource(rows[0]) if rows else None

    def list_resources(self, club_id: str, ruleset: str | None = None) -> list[Resource]:
        rows = self._db.records(
            f"SELECT {self._RESOURCE_COLUMNS} FROM resources WHERE club_id = %s "
            "AND (%s::text IS NULL OR ruleset = %s) ORDER BY ruleset, kind, resource_id, version",
            (club_id, ruleset, ruleset),
        )
        return [self._resource(row) for row in rows]


class PostgresStore(ComposedStore):
    """The `Store` on PostgreSQL."""

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 10) -> None:
        self.url = url
        self.db = db = PostgresDatabase(url, min_size=min_size, max_size=max_size)
        events = PostgresEvents(db)
        super().__init__(schema=db, db=db, events=events, clubs=PostgresClubRecords(db))


class AsyncPostgresEvents:
    """The HTTP hot path on the event loop (`service.store.base.AsyncEvents`): the same statements as
    `PostgresStore`, on psycopg's async pool, so a worker waits on PostgreSQL without holding its loop
    and without a thread hop. Opened and closed on the loop that uses it (one per server worker).

    The pool's `size` connections are all opened at start: a pool that grows on demand queued requests
    behind a connection being opened (a waiter, a timer and a task each), a third of the append's store
    work at 16 clients (in-process profile, `bench/README.md`)."""

    def __init__(self, url: str, *, size: int = 10) -> None:
        self._pool = AsyncConnectionPool(
            url,
            min_size=size,
            max_size=size,
            kwargs={"autocommit": True, "row_factory": tuple_row},
            open=False,
            name="tablelog-async",
        )

    async def open(self) -> None:
        await self._pool.open()

    async def close(self) -> None:
        await self._pool.close()

    async def _run(self, statements: Callable[[Rows], Coroutine[Any, Any, T]]) -> T:
        # getconn / putconn, not `connection()`: its context also commits on the way out, a wait on the
        # connection's lock for nothing in autocommit (a twentieth of the floor's append; bench/README.md).
        # A connection returned broken is discarded and replaced by the pool all the same.
        try:
            conn = await self._pool.getconn()
            try:
                return await statements(_AwaitedRows(conn))
            finally:
                await self._pool.putconn(conn)
        except psycopg.Error as error:
            _raise_translated(error)

    async def append(self, request: AppendRequest) -> AppendResult:
        return await self._run(lambda db: append_rows(db, request))

    async def replayed_append(self, stream_id: StreamId, idempotency_key: str, fingerprint: str) -> AppendResult | None:
        return await self._run(lambda db: replayed_append_rows(db, stream_id, idempotency_key, fingerprint))

    async def read_stream(
        self, stream_id: StreamId, *, after_version: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        return await self._run(lambda db: read_stream_rows(db, stream_id, after_version, limit))

    async def stream_version(self, stream_id: StreamId) -> int:
        return await self._run(lambda db: stream_version_rows(db, stream_id))

    async def get_game(self, club_id: str, game_id: str) -> GameRecord | None:
        return await self._run(lambda db: get_game_rows(db, club_id, game_id))

    def change_token(self) -> None:
        return None  # PostgreSQL cannot tell whether anything was committed without a statement
