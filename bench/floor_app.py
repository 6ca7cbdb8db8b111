"""The least an append or a state read can cost on this stack, served by `bench.floor` on the server
tablelog uses (uvicorn with httptools and uvloop, one worker): a litestar POST at the append's path that
decodes a batch into a struct and answers 201 with a small JSON, nothing else. With `FLOOR_DATABASE_URL`
set it also stores the batch's row as tablelog's append does with its one statement: on PostgreSQL through
psycopg's async pool (autocommit, connections opened at start); on SQLite (`sqlite:///PATH`) in one of
anyio's worker threads, on that thread's connection with tablelog's pragmas (WAL, synchronous NORMAL), as
tablelog's SQLite store runs its statements (a commit may wait for the file: never on the event loop).
A GET at the state's path answers the bytes of the game's row in `floor_states` (`bench.floor` stores
there what tablelog answered for the same state): a read's floor, one statement and the bytes as they are.
No key, no rules, no log line, no chain, no token."""

from __future__ import annotations

import os
import sqlite3
import threading
from typing import Any

import anyio.to_thread
import msgspec
from litestar import Litestar, Response, get, post
from litestar.exceptions import NotFoundException
from psycopg_pool import AsyncConnectionPool

DATABASE_URL = os.environ.get("FLOOR_DATABASE_URL")
POOL_SIZE = 16  # at least the clients: no request waits for a connection
SQLITE = DATABASE_URL.removeprefix("sqlite:///") if DATABASE_URL and DATABASE_URL.startswith("sqlite:") else None
INSERT = "INSERT INTO floor_events (club_id, game_id, version, data) VALUES ({0}, {0}, {0}, {0})"
SELECT = "SELECT body FROM floor_states WHERE game_id = {0}"
TABLES = (
    "CREATE TABLE IF NOT EXISTS floor_events "
    "(club_id text, game_id text, version int, data {0}, PRIMARY KEY (game_id, version))",
    "CREATE TABLE IF NOT EXISTS floor_states (game_id text PRIMARY KEY, body {1})",
)

pool = (
    AsyncConnectionPool(DATABASE_URL, min_size=POOL_SIZE, max_size=POOL_SIZE, open=False, kwargs={"autocommit": True})
    if DATABASE_URL and SQLITE is None
    else None
)
_local = threading.local()


def _sqlite() -> sqlite3.Connection:
    """This thread's connection, set up as tablelog's SQLite store sets up its own."""
    conn: sqlite3.Connection | None = getattr(_local, "conn", None)
    if conn is None:
        assert SQLITE is not None
        conn = _local.conn = sqlite3.connect(SQLITE, isolation_level=None, check_same_thread=False, timeout=30)
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "busy_timeout=30000"):
            conn.execute(f"PRAGMA {pragma}")
    return conn


def _sqlite_insert(row: tuple[str, str, int, str]) -> None:
    _sqlite().execute(INSERT.format("?"), row)


def _sqlite_state(game_id: str) -> bytes | None:
    found = _sqlite().execute(SELECT.format("?"), (game_id,)).fetchone()
    return None if found is None else bytes(found[0])


class Batch(msgspec.Struct, frozen=True):
    expected_version: int
    events: list[dict[str, Any]]


class Appended(msgspec.Struct, frozen=True):
    game_id: str
    first_version: int
    last_version: int


@post("/clubs/{club_id:str}/games/{game_id:str}/events", status_code=201)
async def append(club_id: str, game_id: str, data: Batch) -> Appended:
    version = data.expected_version + 1
    row = (club_id, game_id, version, msgspec.json.encode(data.events[0]).decode())
    if pool is not None:
        async with pool.connection() as conn:
            await conn.execute(INSERT.format("%s"), row)
    elif SQLITE is not None:
        await anyio.to_thread.run_sync(_sqlite_insert, row)
    return Appended(game_id=game_id, first_version=version, last_version=version + len(data.events) - 1)


@get("/clubs/{club_id:str}/games/{game_id:str}/state")
async def state(club_id: str, game_id: str) -> Response[bytes]:
    body: bytes | None = None
    if pool is not None:
        async with pool.connection() as conn:
            found = await (await conn.execute(SELECT.format("%s"), (game_id,))).fetchone()
            body = None if found is None else bytes(found[0])
    elif SQLITE is not None:
        body = await anyio.to_thread.run_sync(_sqlite_state, game_id)
    if body is None:
        raise NotFoundException(f"no state for {game_id}")
    return Response(body, media_type="application/json")


async def open_pool() -> None:
    if pool is not None:
        await pool.open()
        async with pool.connection() as conn:
            for table in TABLES:
                await conn.execute(table.format("jsonb", "bytea"))
    elif SQLITE is not None:
        for table in TABLES:
            _sqlite().execute(table.format("text", "blob"))


async def close_pool() -> None:
    if pool is not None:
        await pool.close()


app = Litestar([append, state], on_startup=[open_pool], on_shutdown=[close_pool])
