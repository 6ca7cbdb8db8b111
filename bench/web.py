"""HTTP: a real `tablelog serve` process (several workers) on loopback under a bounded load
generator: single-event appends and state reads per second, p50/p99 latency, at each number of
concurrent clients; and the server's peak resident memory meanwhile.

The load generator is a minimal HTTP/1.1 keep-alive client on asyncio (one connection per client),
so that on a small machine it takes as little CPU from the server as it can. It is bounded by time
and by a request count, and talks only to 127.0.0.1. The games are Tally games (the test ruleset,
loaded with TABLELOG_EXTRA_RULESETS) whose target is never reached, one per client.

The server runs as deploy/compose.yaml runs it: `tablelog serve --workers N` for the API and
`tablelog project` beside it for the read models, on the same cores, so the projector's work is part
of the load (`--http-projector thread` runs it inside the server instead, the one-process default).
Each level also reports the CPU time per request of the server, the projector, PostgreSQL and the
load generator, read from /proc.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import msgspec

from bench.common import (
    ROOT,
    PeakMemory,
    Sizes,
    cpu_seconds,
    percentile,
    process_tree,
    processes_named,
    sampled,
    scratch_schema,
)
from testkit.waiting import answers, wait_until

OPERATOR = "bench-operator-key"
REQUEST_TIMEOUT = 30.0
CLUB = "bench"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


PROJECTOR_LAYOUTS = ("process", "thread")


class Code(msgspec.Struct, frozen=True, kw_only=True):
    """Which tablelog a server runs: a checkout and the Python (with its packages) that runs it."""

    label: str
    tree: Path
    python: str

    @classmethod
    def of(cls, label: str, tree: Path) -> Code:
        """The checkout at `tree`, run by its own `.venv` when it has one (its own packages)."""
        own = tree / ".venv" / "bin" / "python"
        return cls(label=label, tree=tree, python=str(own) if own.exists() else sys.executable)


THIS_CHECKOUT = Code(label="this checkout", tree=ROOT, python=sys.executable)


def server_environment(
    database_url: str, workers: int, projector: str = "process", tree: Path = ROOT
) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLELOG_")}
    env |= {
        "PYTHONPATH": str(tree),
        "TABLELOG_DATABASE_URL": database_url,
        "TABLELOG_OPERATOR_KEY": OPERATOR,
        "TABLELOG_EXTRA_RULESETS": "testkit.tally",
        "TABLELOG_LOG_FORMAT": "json",
        "TABLELOG_WORKERS": str(workers),
        "TABLELOG_RUN_PROJECTOR": str(projector == "thread").lower(),
        # The load generator is one key at thousands of requests a second: far past any club, so the
        # rate limits (service/http/ratelimit.py) are off for it.
        "TABLELOG_RATE_LIMIT_WRITES_PER_MINUTE": "0",
        "TABLELOG_RATE_LIMIT_READS_PER_MINUTE": "0",
        "TABLELOG_RATE_LIMIT_STREAMS_PER_MINUTE": "0",  # the live section opens a thousand streams with one key
        "TABLELOG_MAX_STREAMS_PER_KEY": "0",
    }
    return env


class Server(msgspec.Struct, kw_only=True):
    """A running `tablelog serve` and, in the deployed layout, its `tablelog project` process."""

    base: str
    process: subprocess.Popen[bytes]
    projector: subprocess.Popen[bytes] | None

    @property
    def port(self) -> int:
        return int(self.base.rsplit(":", 1)[1])


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def running_server(
    database_url: str,
    workers: int,
    projector: str = "process",
    code: Code = THIS_CHECKOUT,
    settings: dict[str, str] | None = None,
) -> Iterator[Server]:
    """`tablelog serve` of `code` on a free loopback port, ready (with `tablelog project` beside it
    unless the projector runs as a thread of the server); stopped afterwards. `settings` are more
    TABLELOG_* variables for the server."""
    if projector not in PROJECTOR_LAYOUTS:
        raise ValueError(f"projector layout {projector!r}: one of {', '.join(PROJECTOR_LAYOUTS)}")
    port = free_port()
    env = server_environment(database_url, workers, projector, code.tree) | (settings or {})
    # Logs go to a file, never to a pipe nobody reads while the load runs: a full pipe blocks the
    # workers that write to it, and the run would measure that instead of the server.
    log = tempfile.TemporaryFile()  # noqa: SIM115 (closed in the finally below)
    process = subprocess.Popen(
        [code.python, "-m", "service.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        cwd=code.tree,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    projecting: subprocess.Popen[bytes] | None = None
    base = f"http://127.0.0.1:{port}"

    def tail() -> str:
        log.seek(0)
        return log.read()[-3000:].decode(errors="replace")

    try:
        wait_until(answers(f"{base}/ready"), "tablelog serve", runner=process, log=tail)
        if projector == "process":  # started once the server has migrated the schema
            projecting = subprocess.Popen(
                [code.python, "-m", "service.cli", "project"],
                env=env,
                cwd=code.tree,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        try:
            yield Server(base=base, process=process, projector=projecting)
        except Exception as error:
            raise RuntimeError(f"{error}; the server's log ends with:\n{tail()}") from error
    finally:
        if projecting is not None:
            stop(projecting)
        stop(process)
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


class Connection(asyncio.Protocol):
    """One keep-alive HTTP/1.1 connection: enough of the protocol for this server's answers. A protocol
    that parses each answer from its buffer in one go, rather than a stream read line by line: the load
    generator shares the server's cores (about a tenth less CPU per request than a line-by-line stream)."""

    def __init__(self, token: str) -> None:
        self.head = f"Host: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
        self.buffer = bytearray()
        self.answer: asyncio.Future[tuple[int, bytes]] | None = None
        self.transport: Any = None  # asyncio's or uvloop's TCP transport

    @classmethod
    async def open(cls, port: int, token: str) -> Connection:
        _, connection = await asyncio.get_running_loop().create_connection(lambda: cls(token), "127.0.0.1", port)
        return connection

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0 or self.answer is None:
            return
        head = bytes(self.buffer[:end]).lower()
        if b"transfer-encoding:" in head:
            self.answer.set_exception(RuntimeError("chunked answers are not expected from this server"))
            return
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name == b"content-length":
                length = int(value)
        if len(self.buffer) < end + 4 + length:
            return
        body = bytes(self.buffer[end + 4 : end + 4 + length])
        del self.buffer[: end + 4 + length]
        self.answer.set_result((int(head[9:12]), body))

    def connection_lost(self, exc: Exception | None) -> None:
        if self.answer is not None and not self.answer.done():
            self.answer.set_exception(exc or ConnectionError("the server closed the connection"))

    async def request(self, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
        """One request and its answer; TimeoutError after REQUEST_TIMEOUT seconds."""
        assert self.transport is not None
        head = f"{method} {path} HTTP/1.1\r\n{self.head}"
        if body:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        self.answer = asyncio.get_running_loop().create_future()
        self.transport.write(head.encode() + b"\r\n" + body)
        async with asyncio.timeout(REQUEST_TIMEOUT):
            return await self.answer

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


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


def load(
    port: int, token: str, games: list[str], versions: dict[str, int], kind: str, clients: int, sizes: Sizes
) -> dict[str, Any]:
    """One level of load: `clients` connections for `sizes.http_seconds`; requests/s and latencies.
    On uvloop where it is installed, the server's own loop: the generator then takes a third less of
    the CPU the server shares with it."""
    work = _load(port, token, games, versions, kind, clients, sizes)
    try:
        import uvloop
    except ImportError:
        return asyncio.run(work)
    return uvloop.run(work)


class CpuMeter:
    """CPU time used between two readings by the server, the projector, PostgreSQL and this process
    (the load generator), per request."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.before = self._read()

    def _read(self) -> dict[str, float]:
        times = os.times()
        return {
            "server": cpu_seconds(process_tree(self.server.process.pid)),
            "projector": cpu_seconds(process_tree(self.server.projector.pid)) if self.server.projector else 0.0,
            # All local PostgreSQL processes: the benchmark's backends, and the WAL writer and checkpointer
            # that its commits wake. None when the database is on another machine.
            "postgres": cpu_seconds(processes_named("postgres")),
            "load_generator": times.user + times.system,
        }

    def per_request_us(self, requests: int) -> dict[str, float | None]:
        after = self._read()
        out: dict[str, float | None] = {}
        for part, seconds in after.items():
            used = seconds - self.before[part]
            out[part] = round(used / requests * 1e6) if requests and used > 0 else None
        return out


def wait_for_projector(base: str, timeout: float = 120.0) -> float | None:
    """Seconds until every projection has caught up with the log (None if it had not after `timeout`)."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        operator = {"Authorization": f"Bearer {OPERATOR}"}  # /ready tells only the operator its checks
        checks = httpx.get(f"{base}/ready", headers=operator, timeout=10).json()["checks"]
        if all(p["lag"] == 0 for p in checks["projections"].values()):
            return round(time.monotonic() - started, 1)
        time.sleep(0.2)
    return None


def run(
    database_url: str,
    sizes: Sizes,
    workers: int,
    projector: str = "process",
    baseline: Code | None = None,
    settings: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The HTTP section: appends then reads at each number of clients (with the CPU each part of the
    machine spent per request), the projector's catch-up afterwards, and the server's memory. With a
    `baseline` (another checkout), its server runs beside this one's and every level is measured on
    both in turn, so a before / after comparison shares the machine's moment. `settings` (TABLELOG_*
    variables) are this checkout's server's only: `--http-baseline .` then measures a setting's cost."""
    codes = [THIS_CHECKOUT, *([baseline] if baseline else [])]
    rows = []
    with ExitStack() as stack:
        servers = []
        for code in codes:
            _, url = stack.enter_context(scratch_schema(database_url, "http"))
            own = settings if code is THIS_CHECKOUT else None
            servers.append(stack.enter_context(running_server(url, workers, projector, code, own)))
        server = servers[0]
        memory = PeakMemory(server.process.pid)
        projector_memory = PeakMemory(server.projector.pid) if server.projector else None
        with sampled([memory, *([projector_memory] if projector_memory else [])], every=0.1):
            prepared = [prepare(s.base, max(sizes.http_clients)) for s in servers]
            versions = [dict.fromkeys(games, 1) for _, games in prepared]
            for clients in sizes.http_clients:
                for kind in ("append", "state"):
                    for code, each, (token, games), at in zip(codes, servers, prepared, versions, strict=True):
                        meter = CpuMeter(each)
                        row = load(each.port, token, games, at, kind, clients, sizes)
                        row["cpu_us_per_request"] = meter.per_request_us(row["requests"])
                        row["code"] = code.label
                        rows.append(row)
            caught_up = wait_for_projector(server.base)
    return {
        "rows": rows,
        "workers": workers,
        "projector": projector,
        "baseline": str(baseline.tree) if baseline else None,
        "projector_caught_up_seconds": caught_up,
        "seconds_per_level": sizes.http_seconds,
        "max_requests_per_level": sizes.http_max_requests,
        "server_memory": memory.report(),
        "projector_memory": projector_memory.report() if projector_memory else None,
    }
