"""HTTP: a real `tablelog serve` process (several workers) on loopback under a bounded load
generator: single-event appends and state reads per second, p50/p99 latency, at each number of
concurrent clients; and the server's peak resident memory meanwhile.

The load generator is a minimal HTTP/1.1 keep-alive client on asyncio (one connection per client),
so that on a small machine it takes as little CPU from the server as it can. It is bounded by time
and by a request count, and talks only to 127.0.0.1. The games are Tally games (the test ruleset,
loaded with TABLELOG_EXTRA_RULESETS) whose target is never reached, one per client.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import msgspec

from bench.common import ROOT, PeakMemory, Sizes, percentile, scratch_schema

OPERATOR = "bench-operator-key"
REQUEST_TIMEOUT = 30.0
CLUB = "bench"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_environment(database_url: str, workers: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLELOG_")}
    env |= {
        "PYTHONPATH": str(ROOT),
        "TABLELOG_DATABASE_URL": database_url,
        "TABLELOG_OPERATOR_KEY": OPERATOR,
        "TABLELOG_EXTRA_RULESETS": "tests.support.tally",
        "TABLELOG_LOG_FORMAT": "json",
        "TABLELOG_WORKERS": str(workers),
    }
    return env


@contextmanager
def running_server(database_url: str, workers: int) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`tablelog serve` on a free loopback port, ready; stopped afterwards."""
    port = free_port()
    # Logs go to a file, never to a pipe nobody reads while the load runs: a full pipe blocks the
    # workers that write to it, and the run would measure that instead of the server.
    log = tempfile.TemporaryFile()  # noqa: SIM115 (closed in the finally below)
    process = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=server_environment(database_url, workers),
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"

    def tail() -> str:
        log.seek(0)
        return log.read()[-3000:].decode(errors="replace")

    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/ready", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None:
                raise RuntimeError("the server died: " + tail())
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not become ready in 60 s")
            time.sleep(0.2)
        try:
            yield base, process
        except Exception as error:
            raise RuntimeError(f"{error}; the server's log ends with:\n{tail()}") from error
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def prepare(base: str, games: int) -> tuple[str, list[str]]:
    """A club, its key, two players and `games` Tally games; the token and the game ids."""
    op = {"Authorization": f"Bearer {OPERATOR}"}
    with httpx.Client(base_url=base, timeout=30) as http:
        http.post("/clubs", json={"club_id": CLUB, "name": "Bench club"}, headers=op).raise_for_status()
        token = http.post(f"/clubs/{CLUB}/keys", json={"name": "bench"}, headers=op).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        for player in ("alain", "bea"):
            http.post(
                f"/clubs/{CLUB}/players", json={"player_id": player, "name": player.title()}, headers=auth
            ).raise_for_status()
        ids = []
        for _ in range(games):
            response = http.post(
                f"/clubs/{CLUB}/games",
                headers=auth,
                json={
                    "ruleset": "tally",
                    "players": [{"player_id": "alain"}, {"player_id": "bea"}],
                    "options": {"target": 10**9},
                },
            )
            response.raise_for_status()
            ids.append(response.json()["game_id"])
    return token, ids


class Connection:
    """One keep-alive HTTP/1.1 connection: enough of the protocol for this server's answers."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, token: str) -> None:
        self.reader = reader
        self.writer = writer
        self.head = f"Host: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"

    @classmethod
    async def open(cls, port: int, token: str) -> Connection:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer, token)

    async def request(self, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
        """One request and its answer; TimeoutError after REQUEST_TIMEOUT seconds."""
        return await asyncio.wait_for(self._request(method, path, body), REQUEST_TIMEOUT)

    async def _request(self, method: str, path: str, body: bytes) -> tuple[int, bytes]:
        head = f"{method} {path} HTTP/1.1\r\n{self.head}"
        if body:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + body)
        status_line = await self.reader.readline()
        status = int(status_line.split(b" ", 2)[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
            elif name.strip().lower() == b"transfer-encoding":
                raise RuntimeError("chunked answers are not expected from this server")
        return status, await self.reader.readexactly(length)

    def close(self) -> None:
        self.writer.close()


async def _load(
    port: int, token: str, games: list[str], versions: dict[str, int], kind: str, clients: int, sizes: Sizes
) -> dict[str, Any]:
    latencies: list[float] = []
    failures: list[str] = []
    budget = [sizes.http_max_requests]
    connections = [await Connection.open(port, token) for _ in range(clients)]
    deadline = time.perf_counter() + sizes.http_seconds

    async def client(number: int) -> None:
        conn = connections[number]
        game = games[number]
        path = f"/clubs/{CLUB}/games/{game}"
        while time.perf_counter() < deadline and budget[0] > 0:
            budget[0] -= 1
            if kind == "append":
                version = versions[game]
                # After version v the table has had v - 1 rolls, so seat (v - 1) % 2 rolls next.
                body = msgspec.json.encode(
                    {
                        "expected_version": version,
                        "events": [{"type": "tally.rolled", "seat": (version - 1) % 2, "face": 1 + version % 6}],
                    }
                )
                started = time.perf_counter()
                status, answer = await conn.request("POST", path + "/events", body)
                latencies.append(time.perf_counter() - started)
                if status != 201:
                    failures.append(f"{status} {answer[:200]!r}")
                    return
                versions[game] = version + 1
            else:
                started = time.perf_counter()
                status, answer = await conn.request("GET", path + "/state?view=public")
                latencies.append(time.perf_counter() - started)
                if status != 200:
                    failures.append(f"{status} {answer[:200]!r}")
                    return

    started = time.perf_counter()
    await asyncio.gather(*(client(n) for n in range(clients)))
    elapsed = time.perf_counter() - started
    for conn in connections:
        conn.close()
    if failures:
        raise RuntimeError(f"{len(failures)} {kind} requests failed, first: {failures[0]}")
    return {
        "kind": kind,
        "clients": clients,
        "requests": len(latencies),
        "requests_per_s": round(len(latencies) / elapsed, 1),
        "p50_ms": round(percentile(latencies, 0.50) * 1000, 2),
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 2),
    }


def run(database_url: str, sizes: Sizes, workers: int) -> dict[str, Any]:
    """The HTTP section: appends then reads at each number of clients, and the server's memory."""
    rows = []
    with scratch_schema(database_url, "http") as (_, url), running_server(url, workers) as (base, process):
        memory = PeakMemory(process.pid)
        stop = threading.Event()

        def sample() -> None:
            while not stop.is_set():
                memory.sample()
                stop.wait(0.1)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        try:
            token, games = prepare(base, max(sizes.http_clients))
            versions = dict.fromkeys(games, 1)
            port = int(base.rsplit(":", 1)[1])
            for clients in sizes.http_clients:
                for kind in ("append", "state"):
                    rows.append(asyncio.run(_load(port, token, games, versions, kind, clients, sizes)))
        finally:
            stop.set()
            sampler.join()
            memory.sample()
    return {
        "rows": rows,
        "workers": workers,
        "seconds_per_level": sizes.http_seconds,
        "max_requests_per_level": sizes.http_max_requests,
        "server_memory": memory.report(),
    }
