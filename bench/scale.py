"""Scale (issue 15): two API nodes on one primary and a streaming replica of it.

A primary of the bench's own and a replica of it made by `pg_basebackup` are started (as the tests start
theirs: `testkit/cluster.py`; root and the machine's PostgreSQL binaries needed; the primary with
fsync on, as a real server), then two `tablelog serve`
processes on loopback share the primary: node A reads its lag-tolerant requests from the replica
(`TABLELOG_READ_DATABASE_URLS`), node B from the primary; `tablelog project` runs once beside them.
Measured, level by level on the same club:

- single-event appends at 16 clients through node A alone, then 8 + 8 through both nodes at once;
- public state reads at 16 clients through node A (the replica) and node B (the primary) in turn;
- the replica's lag while the appends run, sampled every 50 ms: bytes of WAL not yet replayed
  (`pg_current_wal_lsn` on the primary against `pg_last_wal_replay_lsn`) and the age of the last
  transaction it replayed (`now() - pg_last_xact_replay_timestamp()`, meaningful while commits flow);
- the CPU time per request of node A, node B, the projector, the primary (all its processes), the
  replica (all its processes) and the load generator, from /proc, as the HTTP section reports it.

- live streams: 1,000 then 5,000 spectators on one game, half on each node, while node A
  records a step every half second: how long after each append was acknowledged each stream received
  it (p50, p99, max), whether every stream received every step, and the CPU each part used per second
  meanwhile. Each stream polls the store on its own (`TABLELOG_LIVE_POLL_SECONDS`, 0.5 s) until a
  per-process fan-out lands (issue 13): this measures what that costs.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from contextlib import ExitStack
from typing import Any

import msgspec
import psycopg

from bench.common import Sizes, cpu_seconds, percentile, process_tree, processes_named, scratch_schema
from bench.web import CLUB, Connection, Server, _load, prepare, running_server
from testkit.cluster import Primary, Standby, with_address

COMPONENTS = ("node_a", "node_b", "projector", "primary", "replica", "load_generator")


class Meter:
    """CPU seconds of each part of the machine between two readings, per request."""

    def __init__(self, a: Server, b: Server, replica_pid: int) -> None:
        self.a, self.b, self.replica_pid = a, b, replica_pid
        self.before = self._read()

    def _read(self) -> dict[str, float]:
        replica = set(process_tree(self.replica_pid))
        times = os.times()
        return {
            "node_a": cpu_seconds(process_tree(self.a.process.pid)),
            "node_b": cpu_seconds(process_tree(self.b.process.pid)),
            "projector": cpu_seconds(process_tree(self.a.projector.pid)) if self.a.projector else 0.0,
            "primary": cpu_seconds([p for p in processes_named("postgres") if p not in replica]),
            "replica": cpu_seconds(sorted(replica)),
            "load_generator": times.user + times.system,
        }

    def per_request_us(self, requests: int) -> dict[str, float | None]:
        after = self._read()
        return {part: round((after[part] - self.before[part]) / requests * 1e6) if requests else None for part in after}


class LagSampler:
    """The replica's lag every 50 ms while a load runs (bytes behind, and seconds since its last replayed
    commit)."""

    def __init__(self, primary_url: str, replica_url: str) -> None:
        self.primary = psycopg.connect(primary_url, autocommit=True)
        self.replica = psycopg.connect(replica_url, autocommit=True)
        self.bytes: list[int] = []
        self.seconds: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            written = self.primary.execute("SELECT pg_current_wal_lsn()").fetchone()[0]  # type: ignore[index]
            row = self.replica.execute(
                "SELECT pg_wal_lsn_diff(%s::pg_lsn, pg_last_wal_replay_lsn()), "
                "extract(epoch FROM now() - pg_last_xact_replay_timestamp())",
                (str(written),),
            ).fetchone()
            assert row is not None
            self.bytes.append(max(0, int(row[0])))
            self.seconds.append(float(row[1] or 0.0))

    def __enter__(self) -> LagSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.primary.close()
        self.replica.close()

    def report(self) -> dict[str, Any]:
        if not self.bytes:
            return {}
        return {
            "samples": len(self.bytes),
            "bytes_p50": round(percentile([float(b) for b in self.bytes], 0.5)),
            "bytes_p99": round(percentile([float(b) for b in self.bytes], 0.99)),
            "bytes_max": max(self.bytes),
            "ms_p50": round(percentile(self.seconds, 0.5) * 1000, 1),
            "ms_p99": round(percentile(self.seconds, 0.99) * 1000, 1),
            "ms_max": round(max(self.seconds) * 1000, 1),
        }


def _level(
    targets: list[tuple[Server, list[str]]], token: str, versions: dict[str, int], kind: str, sizes: Sizes
) -> dict[str, Any]:
    """One level: each (node, its games) loaded at once, one client per game; the rows merged."""

    async def both() -> list[dict[str, Any]]:
        return list(
            await asyncio.gather(
                *(_load(node.port, token, games, versions, kind, len(games), sizes) for node, games in targets)
            )
        )

    rows = asyncio.run(both())
    requests = sum(r["requests"] for r in rows)
    return {
        "kind": kind,
        "clients": sum(r["clients"] for r in rows),
        "requests": requests,
        "requests_per_s": round(sum(r["requests_per_s"] for r in rows), 1),
        # Per node, as each load generator saw it (latencies of two nodes are not merged).
        "p50_ms": [r["p50_ms"] for r in rows],
        "p99_ms": [r["p99_ms"] for r in rows],
    }


class Spectator:
    """One live stream read with asyncio: when each step's id arrived."""

    def __init__(self) -> None:
        self.received: dict[int, float] = {}

    async def follow(self, port: int, path: str, token: str, opened: asyncio.Event, stop: asyncio.Event) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"a live stream was refused: {status!r}")
        opened.set()
        try:
            while not stop.is_set():
                line = await reader.readline()
                if not line:
                    return
                if line.startswith(b"id: "):
                    self.received[int(line[4:])] = time.perf_counter()
        finally:
            writer.close()


def live_delivery(
    a: Server, b: Server, replica_pid: int, token: str, game: str, version: int, streams: int, steps: int
) -> dict[str, Any]:
    """`streams` spectators of `game`, half on each node, while node A appends `steps` steps."""
    path = f"/clubs/{CLUB}/games/{game}/live?after={version}"
    spectators = [Spectator() for _ in range(streams)]
    acknowledged: dict[int, float] = {}

    async def watch() -> float:
        stop = asyncio.Event()
        opened = [asyncio.Event() for _ in spectators]
        tasks = [
            asyncio.create_task(s.follow((a if n % 2 == 0 else b).port, path, token, opened[n], stop))
            for n, s in enumerate(spectators)
        ]
        await asyncio.wait_for(asyncio.gather(*(o.wait() for o in opened)), timeout=120)
        await asyncio.sleep(2.0)  # every stream past its first poll
        started = time.perf_counter()
        connection = await Connection.open(a.port, token)
        for step in range(version, version + steps):
            body = msgspec.json.encode(
                {"expected_version": step, "events": [{"type": "tally.rolled", "seat": (step - 1) % 2, "face": 3}]}
            )
            status, answer = await connection.request("POST", f"/clubs/{CLUB}/games/{game}/events", body)
            if status != 201:
                raise RuntimeError(f"append refused: {status} {answer[:200]!r}")
            acknowledged[step + 1] = time.perf_counter()
            await asyncio.sleep(0.5)
        await asyncio.sleep(3.0)  # the last step reaches every stream
        connection.close()
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return time.perf_counter() - started

    meter = Meter(a, b, replica_pid)
    seconds = asyncio.run(watch())
    used = meter.per_request_us(1)
    delays = [s.received[v] - at for s in spectators for v, at in acknowledged.items() if v in s.received]
    missing = sum(1 for s in spectators for v in acknowledged if v not in s.received)
    return {
        "streams": streams,
        "steps": steps,
        "deliveries": len(delays),
        "missing": missing,
        "p50_ms": round(percentile(delays, 0.5) * 1000, 1) if delays else None,
        "p99_ms": round(percentile(delays, 0.99) * 1000, 1) if delays else None,
        "max_ms": round(max(delays) * 1000, 1) if delays else None,
        # CPU cores each part kept busy while the streams were open (CPU seconds per second).
        "cores": {part: round((us or 0) / 1e6 / seconds, 2) for part, us in used.items()},
    }


def run(database_url: str, sizes: Sizes, clients: int = 16, streams: tuple[int, ...] = (1000, 5000)) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    with ExitStack() as stack:
        # The bench's own primary: the machine's PostgreSQL (database_url) is never set up to replicate.
        primary = Primary(settings={"fsync": "on"})
        stack.callback(primary.stop)
        primary.start()
        standby = Standby(primary_url=primary.url)
        stack.callback(standby.stop)
        standby.start()
        _, url = stack.enter_context(scratch_schema(primary.url, "scale"))
        replica_url = with_address(url, "127.0.0.1", standby.port)
        read_settings = {
            "TABLELOG_READ_DATABASE_URLS": replica_url,
            "TABLELOG_READ_REPLICA_MAX_LAG_SECONDS": "5",
        }
        spectators = {"TABLELOG_MAX_STREAMS_PER_KEY": "0", "TABLELOG_RATE_LIMIT_STREAMS_PER_MINUTE": "0"}
        a = stack.enter_context(running_server(url, 1, "process", settings=read_settings | spectators))
        b = stack.enter_context(
            running_server(url, 1, "thread", settings={"TABLELOG_RUN_PROJECTOR": "false"} | spectators)
        )
        token, games = prepare(a.base, clients)
        versions = dict.fromkeys(games, 1)
        half = clients // 2
        replica_pid = standby.pid()
        layouts: list[tuple[str, str, list[tuple[Server, list[str]]]]] = [
            ("append", "node A", [(a, games)]),
            ("append", "nodes A + B", [(a, games[:half]), (b, games[half:])]),
            ("state", "node A, replica", [(a, games)]),
            ("state", "node B, primary", [(b, games)]),
        ]
        for kind, where, targets in layouts:
            meter = Meter(a, b, replica_pid)
            with LagSampler(url, replica_url) as lag:
                row = _level(targets, token, versions, kind, sizes)
            row["where"] = where
            row["cpu_us_per_request"] = meter.per_request_us(row["requests"])
            row["replica_lag"] = lag.report()
            rows.append(row)
        steps = 5 if sizes.name == "smoke" else 20
        live = []
        for count in streams:
            game = games[0]
            live.append(live_delivery(a, b, replica_pid, token, game, versions[game], count, steps))
            versions[game] += steps
        standby.wait_until_replayed()
    return {"rows": rows, "live": live, "seconds_per_level": sizes.http_seconds, "clients": clients}


def print_scale(result: dict[str, Any]) -> None:
    print("\nScale: two nodes, one primary, one streaming replica")
    print(
        f"{'kind':<7}{'where':<18}{'clients':>8}{'req/s':>9}  {'p50 ms':<14}{'p99 ms':<16}"
        f"{'CPU us/request (A, B, projector, primary, replica, load)':<58}{'replica lag p99 ms / KiB'}"
    )
    for row in result["rows"]:
        cpu = row["cpu_us_per_request"]
        parts = ", ".join(str(cpu[k]) for k in COMPONENTS)
        lag = row["replica_lag"]
        # The age of the last replayed commit is a lag only while commits flow (the append levels).
        lag_ms = lag.get("ms_p99") if row["kind"] == "append" else "-"
        lag_text = f"{lag_ms} / {round(lag.get('bytes_p99', 0) / 1024, 1)}" if lag else "-"
        print(
            f"{row['kind']:<7}{row['where']:<18}{row['clients']:>8}{row['requests_per_s']:>9}  "
            f"{'/'.join(map(str, row['p50_ms'])):<14}{'/'.join(map(str, row['p99_ms'])):<16}{parts:<58}{lag_text}"
        )
    for live in result.get("live", []):
        print(
            f"\nLive: {live['streams']} streams over two nodes, {live['steps']} steps: "
            f"delivery p50 {live['p50_ms']} ms, p99 {live['p99_ms']} ms, max {live['max_ms']} ms; "
            f"{live['missing']} deliveries missing; cores busy: {live['cores']}"
        )
