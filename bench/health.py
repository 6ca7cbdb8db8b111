"""`/health` under the heaviest load (issue 13 part 7): 32 writers, each appending 500-event batches to its
own game as fast as the server takes them, on a real `tablelog serve` (workers = cores, the projector as
its own process, as deployed), while a probe asks `/health` every 50 ms on its own connection. Reports the
probe's latency (p50, p99, max, and how many answers took over 100 ms) and the appends' throughput; on
PostgreSQL and on the SQLite default (one file shared by every worker: heavy writers queue on its one write
lock, issue 25 part 7), for this checkout and, with `--http-baseline`, another one, one after the other in
one run."""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec

from bench.common import Sizes, percentile, scratch_schema
from bench.web import CLUB, THIS_CHECKOUT, Code, Connection, prepare, running_server

WRITERS = 32
BATCH = 500


async def probe_health(probe: Connection, going_on: Callable[[], bool], health: list[float]) -> None:
    """Ask `/health` every 50 ms on `probe` while `going_on()`, keeping each answer's latency in `health`."""
    while going_on():
        started = time.perf_counter()
        status, _ = await probe.request("GET", "/health")
        health.append(time.perf_counter() - started)
        if status != 200:
            raise RuntimeError(f"/health answered {status}")
        await asyncio.sleep(0.05)


async def probe_apart(port: int, token: str, going_on: Callable[[], bool], health: list[float]) -> None:
    """`probe_health` on a connection, a thread and an event loop of its own: on the load generator's
    loop, busy with hundreds of connections, the probe's answer waited there to be read and that wait was
    measured as the server's (a flood's /health p99 read 160 ms)."""

    def probing() -> None:
        async def ask() -> None:
            probe = await Connection.open(port, token)
            try:
                await probe_health(probe, going_on, health)
            finally:
                probe.close()

        asyncio.run(ask())

    await asyncio.to_thread(probing)


def health_summary(health: list[float]) -> dict[str, Any]:
    return {
        "health_probes": len(health),
        "health_p50_ms": round(percentile(health, 0.5) * 1000, 1),
        "health_p99_ms": round(percentile(health, 0.99) * 1000, 1),
        "health_max_ms": round(max(health) * 1000, 1),
        "health_over_100_ms": sum(1 for h in health if h > 0.1),
    }


async def _load(port: int, token: str, games: list[str], seconds: float, batch: int) -> dict[str, Any]:
    writers = [await Connection.open(port, token) for _ in games]
    deadline = time.perf_counter() + seconds
    appended = [0]
    health: list[float] = []

    async def write(conn: Connection, game: str) -> None:
        version = 1
        while time.perf_counter() < deadline:
            events = [{"type": "tally.rolled", "seat": (version + i - 1) % 2, "face": 2} for i in range(batch)]
            body = msgspec.json.encode({"expected_version": version, "events": events})
            status, answer = await conn.request("POST", f"/clubs/{CLUB}/games/{game}/events", body)
            if status != 201:
                raise RuntimeError(f"append answered {status}: {answer[:200]!r}")
            version += batch
            appended[0] += batch

    async def ask() -> None:
        await asyncio.sleep(0.5)  # the writers are under way
        await probe_apart(port, token, lambda: time.perf_counter() < deadline, health)

    started = time.perf_counter()
    await asyncio.gather(ask(), *(write(conn, game) for conn, game in zip(writers, games, strict=True)))
    elapsed = time.perf_counter() - started
    for conn in writers:
        conn.close()
    return {
        **health_summary(health),
        "events_per_s": round(appended[0] / elapsed),
    }


@contextmanager
def _database(kind: str, database_url: str) -> Iterator[str]:
    """A fresh database of `kind`: a scratch schema of `database_url`, or a new SQLite file."""
    if kind == "postgresql":
        with scratch_schema(database_url, "health") as (_, url):
            yield url
    else:
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{Path(folder) / 'health.db'}"


def run(database_url: str, sizes: Sizes, workers: int, baseline: Code | None = None) -> dict[str, Any]:
    smoke = sizes.name == "smoke"
    writers, batch, seconds = (4, 50, 1.5) if smoke else (WRITERS, BATCH, 10.0)
    rows = []
    for database in ("postgresql", "sqlite"):
        for code in [THIS_CHECKOUT, *([baseline] if baseline else [])]:
            with _database(database, database_url) as url, running_server(url, workers, "process", code) as server:
                token, games = prepare(server.base, writers)
                row = asyncio.run(_load(server.port, token, games, seconds, batch))
                rows.append(
                    {
                        "database": database,
                        "code": code.label,
                        "writers": writers,
                        "batch": batch,
                        "seconds": seconds,
                        **row,
                    }
                )
    return {"rows": rows, "workers": workers}
