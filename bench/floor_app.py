"""The least an append can cost on this stack, served by `bench.floor` on the server tablelog uses
(uvicorn with httptools and uvloop, one worker): a litestar POST at the append's path that decodes a
batch into a struct and answers 201 with a small JSON, nothing else; with `FLOOR_DATABASE_URL` set, it
also inserts the batch's row through psycopg's async pool (autocommit, connections opened at start), as
tablelog's append does with its one statement. No key, no rules, no log line, no chain, no token."""

from __future__ import annotations

import os
from typing import Any

import msgspec
from litestar import Litestar, post
from psycopg_pool import AsyncConnectionPool

DATABASE_URL = os.environ.get("FLOOR_DATABASE_URL")
POOL_SIZE = 16  # at least the clients: no request waits for a connection

pool = (
    AsyncConnectionPool(DATABASE_URL, min_size=POOL_SIZE, max_size=POOL_SIZE, open=False, kwargs={"autocommit": True})
    if DATABASE_URL
    else None
)


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
    if pool is not None:
        async with pool.connection() as conn:
            await conn.execute(
                "INSERT INTO floor_events (club_id, game_id, version, data) VALUES (%s, %s, %s, %s)",
                (club_id, game_id, version, msgspec.json.encode(data.events[0]).decode()),
            )
    return Appended(game_id=game_id, first_version=version, last_version=version + len(data.events) - 1)


async def open_pool() -> None:
    if pool is not None:
        await pool.open()
        async with pool.connection() as conn:
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS floor_events "
                "(club_id text, game_id text, version int, data jsonb, PRIMARY KEY (game_id, version))"
            )


async def close_pool() -> None:
    if pool is not None:
        await pool.close()


app = Litestar([append], on_startup=[open_pool], on_shutdown=[close_pool])
