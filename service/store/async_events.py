"""The store's hot path as the event loop awaits it: an append, the replay of an idempotent one, a
stream's events and a game's listing (`service.usecases.games` runs its use cases on it for the HTTP API).

On PostgreSQL it is `AsyncPostgresEvents` (psycopg's async pool: no thread, nothing blocking the loop).
Any other `Store` (SQLite, a request's replica routing) is awaited through `InThreads`, which runs each
call in a worker thread: SQLite blocks on its file lock and on fsync, which the loop must not wait for.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Protocol

import anyio.to_thread

from service.store.base import (
    AppendResult,
    GameProgress,
    GameRecord,
    NewEvent,
    Recorder,
    Store,
    StoredEvent,
    StreamId,
)


class AsyncEvents(Protocol):
    """The `Store` methods of the hot path, awaited (same arguments, results and errors)."""

    async def append(
        self,
        stream_id: StreamId,
        events: Sequence[NewEvent],
        expected_version: int,
        *,
        recorded_by: Recorder,
        idempotency_key: str | None = None,
        game: GameRecord | None = None,
        progress: GameProgress | None = None,
    ) -> AppendResult: ...

    async def replayed_append(
        self, stream_id: StreamId, idempotency_key: str, fingerprint: str
    ) -> AppendResult | None: ...

    async def read_stream(
        self, stream_id: StreamId, *, after_version: int = 0, limit: int | None = None
    ) -> list[StoredEvent]: ...

    async def stream_version(self, stream_id: StreamId) -> int: ...

    async def get_game(self, club_id: str, game_id: str) -> GameRecord | None: ...


class InThreads:
    """A blocking `Store` behind `AsyncEvents`: each call in one of anyio's worker threads."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def append(
        self,
        stream_id: StreamId,
        events: Sequence[NewEvent],
        expected_version: int,
        *,
        recorded_by: Recorder,
        idempotency_key: str | None = None,
        game: GameRecord | None = None,
        progress: GameProgress | None = None,
    ) -> AppendResult:
        call = functools.partial(
            self.store.append,
            stream_id,
            events,
            expected_version,
            recorded_by=recorded_by,
            idempotency_key=idempotency_key,
            game=game,
            progress=progress,
        )
        return await anyio.to_thread.run_sync(call)

    async def replayed_append(self, stream_id: StreamId, idempotency_key: str, fingerprint: str) -> AppendResult | None:
        return await anyio.to_thread.run_sync(self.store.replayed_append, stream_id, idempotency_key, fingerprint)

    async def read_stream(
        self, stream_id: StreamId, *, after_version: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        call = functools.partial(self.store.read_stream, stream_id, after_version=after_version, limit=limit)
        return await anyio.to_thread.run_sync(call)

    async def stream_version(self, stream_id: StreamId) -> int:
        return await anyio.to_thread.run_sync(self.store.stream_version, stream_id)

    async def get_game(self, club_id: str, game_id: str) -> GameRecord | None:
        return await anyio.to_thread.run_sync(self.store.get_game, club_id, game_id)
