"""The store's hot path as the event loop awaits it: an append, the replay of an idempotent one, a
stream's events and a game's listing (`service.usecases.games` writes its use cases once, against
`AsyncEvents`).

On PostgreSQL it is `AsyncPostgresEvents` (psycopg's async pool: no thread, nothing blocking the loop).
Any other `Store` (SQLite, a request's replica routing) is awaited through `InThreads`, which runs each
call in a worker thread: SQLite blocks on its file lock and on fsync, which the loop must not wait for.
Callers without a loop (the CLI, the pages' worker threads) run the same coroutines on `Blocking`, a
`Store` called in place, through `blocking()`.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Callable, Coroutine, Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypeVar

from service.store.base import (
    AppendRequest,
    AppendResult,
    ClubRecords,
    EventRecorder,
    GameRecord,
    StoredEvent,
    StreamId,
)

T = TypeVar("T")


class Lane:
    """Worker threads the event loop hands blocking calls to, lean: `loop.run_in_executor` with the
    caller's context variables (its log context), where `anyio.to_thread.run_sync` also sets up a cancel
    scope, a capacity limiter and a library check per call (a sixth of a SQLite state read's CPU, bench/).
    A call is never abandoned half-way: a request cancelled while it waits leaves its thread to finish,
    as anyio's did, and an append either commits or does not, whatever its caller does."""

    def __init__(self, threads: int, name: str) -> None:
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix=name)

    async def run(self, call: Callable[..., T], *args: Any) -> T:
        context = contextvars.copy_context()
        return await asyncio.get_running_loop().run_in_executor(self._pool, context.run, call, *args)


STORE_THREADS = Lane(32, "tablelog-store")
"""The blocking store's calls (SQLite's statements, which may wait for the file's write lock)."""


class AsyncEvents(Protocol):
    """The `Store` methods of the hot path, awaited (same arguments, results and errors)."""

    async def append(self, request: AppendRequest) -> AppendResult: ...

    async def replayed_append(
        self, stream_id: StreamId, idempotency_key: str, fingerprint: str
    ) -> AppendResult | None: ...

    async def read_stream(
        self, stream_id: StreamId, *, after_version: int = 0, limit: int | None = None
    ) -> list[StoredEvent]: ...

    async def stream_version(self, stream_id: StreamId) -> int: ...

    async def get_game(self, club_id: str, game_id: str) -> GameRecord | None: ...

    def change_token(self) -> Hashable | None:
        """`EventRecorder.change_token` as this caller's thread sees it, without a hop (None: unknown)."""
        ...


class HotStore(EventRecorder, ClubRecords, Protocol):
    """The blocking store parts behind `AsyncEvents`: the event log and the games' listings."""


class InThreads:
    """A blocking store behind `AsyncEvents`: each call in one of the store's worker threads."""

    def __init__(self, store: HotStore) -> None:
        self.store = store

    async def append(self, request: AppendRequest) -> AppendResult:
        return await STORE_THREADS.run(self.store.append, request)

    async def replayed_append(self, stream_id: StreamId, idempotency_key: str, fingerprint: str) -> AppendResult | None:
        return await STORE_THREADS.run(self.store.replayed_append, stream_id, idempotency_key, fingerprint)

    async def read_stream(
        self, stream_id: StreamId, *, after_version: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        call = functools.partial(self.store.read_stream, stream_id, after_version=after_version, limit=limit)
        return await STORE_THREADS.run(call)

    async def stream_version(self, stream_id: StreamId) -> int:
        return await STORE_THREADS.run(self.store.stream_version, stream_id)

    async def get_game(self, club_id: str, game_id: str) -> GameRecord | None:
        return await STORE_THREADS.run(self.store.get_game, club_id, game_id)

    def change_token(self) -> Hashable | None:
        # A pragma on the event loop's own connection, no table read: SQLite's WAL readers never wait for
        # its writer (the revocation counter is read on the loop the same way).
        return self.store.change_token()


class Blocking:
    """A blocking store behind `AsyncEvents`, called in the caller's own thread: its coroutines never
    suspend, so `blocking()` runs them without an event loop."""

    def __init__(self, store: HotStore) -> None:
        self.store = store

    async def append(self, request: AppendRequest) -> AppendResult:
        return self.store.append(request)

    async def replayed_append(self, stream_id: StreamId, idempotency_key: str, fingerprint: str) -> AppendResult | None:
        return self.store.replayed_append(stream_id, idempotency_key, fingerprint)

    async def read_stream(
        self, stream_id: StreamId, *, after_version: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        return self.store.read_stream(stream_id, after_version=after_version, limit=limit)

    async def stream_version(self, stream_id: StreamId) -> int:
        return self.store.stream_version(stream_id)

    async def get_game(self, club_id: str, game_id: str) -> GameRecord | None:
        return self.store.get_game(club_id, game_id)

    def change_token(self) -> None:
        return None  # the blocking callers run in many threads: each would see its own token


def blocking(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run to its end, in this thread, a coroutine that never suspends (one awaiting only blocking calls
    dressed as coroutines, as `Blocking`'s): the one piece of logic serves the loop and the threads alike,
    with no event loop started per call."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise RuntimeError("a coroutine run blocking waited on the event loop")
