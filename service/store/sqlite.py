"""The embedded SQLite store: one file, WAL mode, the zero-set-up default for a single club.

Global order: SQLite has one writer at a time. Every append takes the write lock first
(`BEGIN IMMEDIATE`), so positions are assigned and committed in the same order and a reader paging
`position > last_seen` can never miss an event that commits late. AUTOINCREMENT keeps positions from
ever being reused.

The store is composed (`service.store.composed`) of `SqliteDatabase` (connections, schema), the event log
and the club records below, and the SQL both backends share, given the same `SqliteDatabase`.
"""

from __future__ import annotations

import itertools
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import msgspec

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
    StreamId,
    UnstorableValue,
    VersionConflict,
    content_hash,
    game_filter_sql,
    request_fingerprint,
)
from service.store.composed import ComposedStore
from service.store.migrations import load_migrations
from service.store.sql import SQLITE


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _moment(event: NewEvent, now: str) -> str:
    """When an event is recorded: the time the use case linked it with, else now."""
    return event.recorded_at.isoformat() if event.recorded_at is not None else now


def _stored(value: Any) -> Any:
    """A value as this store keeps it: booleans as integers, times as UTC ISO text."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    return value


_EVENT_COLUMNS = "stream_id, version, position, type, schema_version, data, recorded_at, club_id, key_id, chain"


def _event(row: tuple[Any, ...]) -> StoredEvent:
    # By position, not by name: the event log's reads are the hot path, and these are plain tuples.
    return StoredEvent(
        stream_id=row[0],
        version=row[1],
        position=row[2],
        type=row[3],
        schema_version=row[4],
        data=row[5].encode(),
        recorded_at=datetime.fromisoformat(row[6]),
        club_id=row[7],
        key_id=row[8],
        chain=row[9],
    )


@contextmanager
def _translated() -> Iterator[None]:
    """sqlite3's errors as the store's own: the one translation of this backend."""
    try:
        yield
    except OverflowError:
        raise UnstorableValue("a number out of range") from None
    except sqlite3.IntegrityError as error:
        message = str(error)
        if message.startswith("FOREIGN KEY"):
            raise MissingReference("club, game or collection") from None
        if message.startswith("UNIQUE"):
            raise Duplicate(message) from None
        if "append-only" in message:  # the events table's triggers
            raise ImmutableRecord(message) from None
        raise


_READS = ("SELECT", "PRAGMA")
"""How the statements that never write begin (anything else may: it counts as a write)."""


class _Writes:
    """The mark of a database's latest statement that may have written: a fresh number each time, from a
    count shared by its threads. Never a number seen before, so a mark once passed never comes back,
    whatever order two threads store theirs in (an increment in place could lose one and step back)."""

    def __init__(self) -> None:
        self._numbers = itertools.count(1)
        self.mark = 0

    def bump(self) -> None:
        self.mark = next(self._numbers)


class _Connection(sqlite3.Connection):
    """A connection whose statements' errors come out as the store's own (a unique violation inside a
    transaction is told where it happens: an append that lists a game reports the game as taken), and
    whose statements that may write mark its database's `writes`."""

    writes: _Writes
    serial: int

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        if not sql.startswith(_READS):
            self.writes.bump()
        with _translated():
            return super().execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> sqlite3.Cursor:
        self.writes.bump()
        with _translated():
            return super().executemany(sql, parameters)


def _by_name(cursor: sqlite3.Cursor, row: tuple[Any, ...]) -> dict[str, Any]:
    """A row by column name (sqlite3's row factory, as psycopg's `dict_row`)."""
    return {column[0]: value for column, value in zip(cursor.description, row, strict=True)}


class SqliteDatabase:
    """The SQLite file: a connection per thread (WAL lets readers run beside the writer), its schema, and
    the `service.store.sql.Database` the shared SQL runs on."""

    dialect = SQLITE

    def __init__(self, path: str) -> None:
        self.path = path
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._writes = _Writes()
        """Statements that may have written, through any connection of this database (see `change_token`)."""
        self._serials = itertools.count()

    def connection(self) -> _Connection:
        """This thread's connection."""
        conn: _Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            made = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=30, factory=_Connection
            )
            assert isinstance(made, _Connection)  # the factory's (the stubs say a plain connection)
            conn = made
            conn.writes, conn.serial = self._writes, next(self._serials)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")  # durable with WAL except on power loss mid-checkpoint
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA busy_timeout=30000")
            self._local.conn = conn
            with self._lock:
                self._connections.append(conn)
        return conn

    def close(self) -> None:
        with self._lock:
            for conn in self._connections:
                conn.close()
            self._connections.clear()
        self._local = threading.local()

    def change_token(self) -> tuple[int, int, int]:
        """What differs whenever anything has been committed to the file since the last look from this
        thread: SQLite's `data_version` as this thread's connection sees it (it moves with every commit made
        through another connection, in any process), and this database's count of statements that may
        write (a commit made through this very connection does not move `data_version`). One pragma, no
        table read: a read checks its remembered fold with it (`service.usecases.games`)."""
        conn = self.connection()
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        return conn.serial, int(version), self._writes.mark

    @contextmanager
    def writing(self) -> Iterator[_Connection]:
        """This thread's connection in a write transaction (the write lock taken at once)."""
        conn = self.connection()
        self._writes.bump()  # whatever the transaction's statements, through a cursor too
        conn.execute("BEGIN IMMEDIATE")
        try:
            with _translated():  # for the statements of the shared SQL sent through a cursor
                yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        else:
            conn.execute("COMMIT")

    def records(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        cursor = self.connection().cursor()
        cursor.row_factory = _by_name
        with _translated():
            return cursor.execute(sql, tuple(params)).fetchall()

    # -- schema ---------------------------------------------------------------------------------
    def migrate(self) -> list[str]:
        applied: list[str] = []
        with self.writing() as conn:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
            )
            done = {row[0] for row in conn.execute("SELECT name FROM schema_migrations")}
            for migration in load_migrations("sqlite"):
                if migration.name not in done:
                    for statement in _statements(migration.sql):
                        conn.execute(statement)
                    conn.execute("INSERT INTO schema_migrations VALUES (?, ?)", (migration.name, _now()))
                    applied.append(migration.name)
        return applied

    def pending_migrations(self) -> list[str]:
        conn = self.connection()
        exists = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'schema_migrations'").fetchone()
        done = {row[0] for row in conn.execute("SELECT name FROM schema_migrations")} if exists else set()
        return [m.name for m in load_migrations("sqlite") if m.name not in done]

    def ping(self) -> None:
        self.connection().execute("SELECT 1").fetchone()


_INSERT_EVENT = (
    "INSERT INTO events (stream_id, version, type, schema_version, data, recorded_at, club_id, key_id, chain) "
    "SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?"
)
# The first event of an append goes in only if the stream is at the version the writer expects.
_APPEND_CHECKED = _INSERT_EVENT + " WHERE (SELECT coalesce(max(version), 0) FROM events WHERE stream_id = ?) = ?"


def _event_row(request: AppendRequest, offset: int, event: NewEvent, now: str, checked: bool = True) -> tuple[Any, ...]:
    """The parameters of `_APPEND_CHECKED` (of `_INSERT_EVENT` unless `checked`) for the append's event
    `offset` (from 1)."""
    row = (
        request.stream_id,
        request.expected_version + offset,
        event.type,
        event.schema_version,
        event.data.decode(),
        _moment(event, now),
        request.recorded_by.club_id,
        request.recorded_by.key_id,
        event.chain,
    )
    return (*row, request.stream_id, request.expected_version) if checked else row


class SqliteEvents:
    """`EventRecorder` on SQLite."""

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    def change_token(self) -> tuple[int, int, int]:
        return self._db.change_token()

    def append(self, request: AppendRequest) -> AppendResult:
        stream_id, events, expected_version = request.stream_id, request.events, request.expected_version
        idempotency_key, game, progress = request.idempotency_key, request.game, request.progress
        if not events or len(events) > MAX_BATCH:
            raise ValueError(f"an append holds 1 to {MAX_BATCH} events")
        conn = self._db.connection()
        now = _now()
        if idempotency_key is None and game is None and progress is None and len(events) == 1:
            # Most appends at a table: one statement in autocommit, the version checked by the INSERT itself
            # (it takes the write lock before it numbers the event, as BEGIN IMMEDIATE would).
            cursor = conn.execute(_APPEND_CHECKED, _event_row(request, 1, events[0], now))
            if cursor.rowcount != 1:
                raise VersionConflict(stream_id, expected_version, self.stream_version(stream_id))
            version = expected_version + 1
            return AppendResult(
                stream_id=stream_id,
                first_version=version,
                last_version=version,
                positions=(int(cursor.lastrowid or 0),),
            )
        fingerprint = request_fingerprint(events, expected_version) if idempotency_key else ""
        try:
            with self._db.writing() as conn:
                return self._append_in(conn, request, fingerprint, now)
        except (VersionConflict, Duplicate):
            # The key is looked up only when the append could not go ahead (its key is unique): a retry of an
            # append stored already gets its first result, another body under the key IdempotencyMismatch.
            replay = self._replayed(conn, stream_id, idempotency_key, fingerprint) if idempotency_key else None
            if replay is not None:
                return replay
            raise

    def _append_in(self, conn: sqlite3.Connection, request: AppendRequest, fingerprint: str, now: str) -> AppendResult:
        """An append's statements in the write transaction: the first event's INSERT checks the version."""
        stream_id, events, expected_version = request.stream_id, request.events, request.expected_version
        if request.game is not None:
            _insert_game(conn, request.game, stream_id)
        positions = []
        for offset, event in enumerate(events, start=1):
            cursor = conn.execute(
                _APPEND_CHECKED if offset == 1 else _INSERT_EVENT, _event_row(request, offset, event, now, offset == 1)
            )
            if cursor.rowcount != 1:
                raise VersionConflict(stream_id, expected_version, self.stream_version(stream_id))
            positions.append(int(cursor.lastrowid or 0))
        last = expected_version + len(events)
        result = AppendResult(
            stream_id=stream_id, first_version=expected_version + 1, last_version=last, positions=tuple(positions)
        )
        progress = request.progress
        if progress is not None:
            conn.execute(
                "UPDATE games SET finished = ?, finished_at = CASE WHEN ? "
                "THEN coalesce(finished_at, ?) END WHERE stream_id = ?",
                (progress.finished, progress.finished, _moment(events[-1], now), stream_id),
            )
        if request.idempotency_key:
            conn.execute(
                "INSERT INTO idempotency_keys VALUES (?, ?, ?, ?, ?)",
                (stream_id, request.idempotency_key, fingerprint, msgspec.json.encode(result).decode(), now),
            )
        return result

    def _replayed(
        self, conn: sqlite3.Connection, stream_id: StreamId, key: str, fingerprint: str
    ) -> AppendResult | None:
        row = conn.execute(
            "SELECT fingerprint, result FROM idempotency_keys WHERE stream_id = ? AND key = ?", (stream_id, key)
        ).fetchone()
        if row is None:
            return None
        if row[0] != fingerprint:
            raise IdempotencyMismatch(stream_id, key)
        return msgspec.structs.replace(msgspec.json.decode(row[1].encode(), type=AppendResult), replayed=True)

    def replayed_append(self, stream_id: StreamId, idempotency_key: str, fingerprint: str) -> AppendResult | None:
        return self._replayed(self._db.connection(), stream_id, idempotency_key, fingerprint)

    def restore_stream(
        self,
        stream_id: StreamId,
        events: Sequence[NewEvent],
        recorded_at: Sequence[datetime],
        *,
        recorded_by: Recorder,
        game: GameRecord | None = None,
    ) -> AppendResult:
        if not events:
            raise ValueError("a restored stream holds at least one event")
        with self._db.writing() as conn:
            if game is not None:
                _insert_game(conn, game, stream_id)
            if conn.execute("SELECT 1 FROM events WHERE stream_id = ? LIMIT 1", (stream_id,)).fetchone():
                raise AlreadyExists("stream", stream_id)
            positions = []
            for version, (event, moment) in enumerate(zip(events, recorded_at, strict=True), start=1):
                cursor = conn.execute(
                    "INSERT INTO events (stream_id, version, type, schema_version, data, recorded_at, club_id, "
                    "key_id, chain) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        stream_id,
                        version,
                        event.type,
                        event.schema_version,
                        event.data.decode(),
                        moment.isoformat(),
                        recorded_by.club_id,
                        event.key_id,
                        event.chain,
                    ),
                )
                positions.append(int(cursor.lastrowid or 0))
        return AppendResult(stream_id=stream_id, first_version=1, last_version=len(events), positions=tuple(positions))

    def read_stream(
        self, stream_id: StreamId, *, after_version: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        rows = (
            self._db.connection()
            .execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream_id = ? AND version > ? ORDER BY version LIMIT ?",
                (stream_id, after_version, -1 if limit is None else limit),
            )
            .fetchall()
        )
        return [_event(row) for row in rows]

    def stream_version(self, stream_id: StreamId) -> int:
        row = (
            self._db.connection()
            .execute("SELECT coalesce(max(version), 0) FROM events WHERE stream_id = ?", (stream_id,))
            .fetchone()
        )
        return int(row[0])

    def read_all(self, *, after: int = 0, limit: int = 1000) -> list[StoredEvent]:
        rows = (
            self._db.connection()
            .execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?", (after, limit)
            )
            .fetchall()
        )
        return [_event(row) for row in rows]

    def read_club(self, club_id: str, *, after: int = 0, limit: int = 1000) -> list[StoredEvent]:
        rows = (
            self._db.connection()
            .execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE club_id = ? AND position > ? ORDER BY position LIMIT ?",
                (club_id, after, limit),
            )
            .fetchall()
        )
        return [_event(row) for row in rows]

    def head_position(self) -> int:
        """The last position a reader can see now (0 when the log is empty)."""
        return int(self._db.connection().execute("SELECT coalesce(max(position), 0) FROM events").fetchone()[0])

    def count_events(self, *, after: int = 0) -> int:
        row = self._db.connection().execute("SELECT count(*) FROM events WHERE position > ?", (after,)).fetchone()
        return int(row[0])

    def unprojected(self, *, after: int) -> tuple[int, datetime | None]:
        count, oldest = (
            self._db.connection()
            .execute("SELECT count(*), min(recorded_at) FROM events WHERE position > ?", (after,))
            .fetchone()
        )
        return int(count), datetime.fromisoformat(oldest) if oldest else None


class SqliteClubRecords:
    """`ClubRecords` on SQLite (times as ISO text, a game's players as JSON text and in `game_players`)."""

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    # -- clubs, keys, players ---------------------------------------------------------------------
    def create_club(self, club_id: str, name: str) -> Club:
        now = _now()
        try:
            with self._db.writing() as conn:
                conn.execute("INSERT INTO clubs (club_id, name, created_at) VALUES (?, ?, ?)", (club_id, name, now))
        except Duplicate:
            raise AlreadyExists("club", club_id) from None
        return Club(club_id=club_id, name=name, created_at=datetime.fromisoformat(now))

    def get_club(self, club_id: str) -> Club | None:
        rows = self._db.records("SELECT club_id, name, created_at, language FROM clubs WHERE club_id = ?", (club_id,))
        return msgspec.convert(rows[0], Club) if rows else None

    def list_clubs(self) -> list[Club]:
        rows = self._db.records("SELECT club_id, name, created_at, language FROM clubs ORDER BY club_id")
        return [msgspec.convert(row, Club) for row in rows]

    def set_club_language(self, club_id: str, language: str | None) -> Club | None:
        with self._db.writing() as conn:
            conn.execute("UPDATE clubs SET language = ? WHERE club_id = ?", (language, club_id))
        return self.get_club(club_id)

    def create_player(self, club_id: str, player_id: str, name: str) -> ClubPlayer:
        now = _now()
        try:
            with self._db.writing() as conn:
                conn.execute(
                    "INSERT INTO players (club_id, player_id, name, created_at) VALUES (?, ?, ?, ?)",
                    (club_id, player_id, name, now),
                )
        except Duplicate:
            raise AlreadyExists("player", player_id) from None
        return ClubPlayer(club_id=club_id, player_id=player_id, name=name, created_at=datetime.fromisoformat(now))

    def list_players(self, club_id: str) -> list[ClubPlayer]:
        rows = self._db.records(
            "SELECT club_id, player_id, name, created_at, note, retired_at FROM players WHERE club_id = ? "
            "ORDER BY player_id",
            (club_id,),
        )
        return [msgspec.convert(row, ClubPlayer) for row in rows]

    def get_players(self, club_id: str, player_ids: Sequence[str]) -> list[ClubPlayer]:
        wanted = set(player_ids)
        return [p for p in self.list_players(club_id) if p.player_id in wanted]

    # -- games --------------------------------------------------------------------------------------
    _GAME_COLUMNS = (
        "g.game_id, g.club_id, g.ruleset, g.ruleset_version, g.player_ids, g.created_at, "
        "(SELECT coalesce(max(e.version), 0) FROM events e WHERE e.stream_id = g.stream_id) AS version, "
        "g.finished, g.finished_at, g.title, g.stream_id, "
        + RESULT_ONLY_SQL.format(stream="g.stream_id")
        + " AS result_only"
    )

    @staticmethod
    def _game(row: dict[str, Any]) -> GameRecord:
        player_ids = msgspec.json.decode(row["player_ids"], type=tuple[str, ...])
        flags = {"finished": bool(row["finished"]), "result_only": bool(row["result_only"])}
        return msgspec.convert(row | {"player_ids": player_ids} | flags, GameRecord)

    def get_game(self, club_id: str, game_id: str) -> GameRecord | None:
        rows = self._db.records(
            f"SELECT {self._GAME_COLUMNS} FROM games g WHERE g.club_id = ? AND g.game_id = ?", (club_id, game_id)
        )
        return self._game(rows[0]) if rows else None

    def set_game_title(self, club_id: str, game_id: str, title: str) -> GameRecord | None:
        with self._db.writing() as conn:
            conn.execute("UPDATE games SET title = ? WHERE club_id = ? AND game_id = ?", (title, club_id, game_id))
        return self.get_game(club_id, game_id)

    def list_games(self, club_id: str, where: GameFilter) -> list[GameRecord]:
        condition, params = game_filter_sql(
            club_id,
            where,
            SQLITE,
            player_clause="game_id IN (SELECT p.game_id FROM game_players p "
            f"WHERE p.club_id = g.club_id AND p.player_id = {SQLITE.mark})",
            value=_stored,
        )
        rows = self._db.records(
            f"SELECT {self._GAME_COLUMNS} FROM games g WHERE {condition} "
            "ORDER BY g.created_at DESC, g.game_id LIMIT ? OFFSET ?",
            [*params, where.limit, where.offset],
        )
        return [self._game(row) for row in rows]

    # -- resources ----------------------------------------------------------------------------------
    def add_resource(self, club_id: str, ruleset: str, kind: str, resource_id: str, content: Any) -> Resource:
        digest = content_hash(content)
        now = _now()
        with self._db.writing() as conn:
            version = conn.execute(
                "SELECT coalesce(max(version), 0) + 1 FROM resources "
                "WHERE club_id = ? AND ruleset = ? AND kind = ? AND resource_id = ?",
                (club_id, ruleset, kind, resource_id),
            ).fetchone()[0]
            conn.execute(
                "INSERT INTO resources VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (club_id, ruleset, kind, resource_id, version, digest, msgspec.json.encode(content).decode(), now),
            )
        return Resource(
            club_id=club_id,
            ruleset=ruleset,
            kind=kind,
            resource_id=resource_id,
            version=version,
            content_hash=digest,
            content=content,
            created_at=datetime.fromisoformat(now),
        )

    _RESOURCE_COLUMNS = "club_id, ruleset, kind, resource_id, version, content_hash, content, created_at"

    @staticmethod
    def _resource(row: dict[str, Any]) -> Resource:
        return msgspec.convert(row | {"content": msgspec.json.decode(row["content"])}, Resource)

    def get_resource(
        self, club_id: str, ruleset: str, kind: str, resource_id: str, version: int | None = None
    ) -> Resource | None:
        rows = self._db.records(
            f"SELECT {self._RESOURCE_COLUMNS} FROM resources WHERE club_id = ? AND ruleset = ? AND kind = ? "
            "AND resource_id = ? AND (? IS NULL OR version = ?) ORDER BY version DESC LIMIT 1",
            (club_id, ruleset, kind, resource_id, version, version),
        )
        return self._resource(rows[0]) if rows else None

    def list_resources(self, club_id: str, ruleset: str | None = None) -> list[Resource]:
        rows = self._db.records(
            f"SELECT {self._RESOURCE_COLUMNS} FROM resources WHERE club_id = ? AND (? IS NULL OR ruleset = ?) "
            "ORDER BY ruleset, kind, resource_id, version",
            (club_id, ruleset, ruleset),
        )
        return [self._resource(row) for row in rows]


class SqliteStore(ComposedStore):
    """The `Store` on one SQLite file."""

    def __init__(self, path: str) -> None:
        self.path = path
        db = SqliteDatabase(path)
        events = SqliteEvents(db)
        super().__init__(schema=db, db=db, events=events, clubs=SqliteClubRecords(db))


def _statements(script: str) -> list[str]:
    """Split a migration into statements (sqlite3 runs one per execute; executescript would commit)."""
    statements, current = [], ""
    for line in script.splitlines(keepends=True):
        if line.lstrip().startswith("--") and not current.strip():
            continue
        current += line
        if sqlite3.complete_statement(current):
            statements.append(current.strip())
            current = ""
    if current.strip():
        statements.append(current.strip())
    return statements


def _insert_game(conn: sqlite3.Connection, game: GameRecord, stream_id: StreamId) -> None:
    """A game's listing, under the stream holding its events, and its players (AlreadyExists when the
    club has a game of that id)."""
    try:
        conn.execute(
            "INSERT INTO games (game_id, club_id, stream_id, ruleset, ruleset_version, player_ids, title, "
            "created_at, finished, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game.game_id,
                game.club_id,
                stream_id,
                game.ruleset,
                game.ruleset_version,
                msgspec.json.encode(game.player_ids).decode(),
                game.title,
                game.created_at.isoformat(),
                game.finished,
                game.finished_at.isoformat() if game.finished_at else None,
            ),
        )
    except Duplicate:
        raise AlreadyExists("game", game.game_id) from None
    conn.executemany(
        "INSERT INTO game_players (club_id, game_id, player_id) VALUES (?, ?, ?)",
        [(game.club_id, game.game_id, p) for p in dict.fromkeys(game.player_ids)],
    )
