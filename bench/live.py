"""Live spectating (issue 13 part 6): N open streams on one game of a real `tablelog serve` (one worker, so
every stream is in one process), a step appended every `interval` seconds; for each delivered step, the
time from sending the append to the stream receiving it (p50, p99), and the server's CPU time per
delivered step and per appended step; and the server's CPU per second while the streams are open and
the game is quiet (what a stream costs doing nothing). At 10, 100 and 1,000 spectators side by side,
for this checkout and, with `--http-baseline`, another one, in one run.

The streams are minimal HTTP/1.1 clients on asyncio (chunked transfer decoded, `id:` lines timed) in
this process, which shares the cores with the server; each opens with `Last-Event-ID` at the game's
version, so it receives only the steps appended during the run.

The flood (issue 25 part 1): one client tries to open 10,000 streams on one share link (500 connections
in flight at a time, each let-through stream held to the end) while two probes ask `/health` every 50 ms,
one on the main port and one on the health port (`TABLELOG_HEALTH_PORT`, a thread of the worker's own);
reports the answers by status, each probe's latency and the server's CPU over the flood. The stream gate
lets through the share link's cap and refuses the rest with a 429 before any handler runs.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any

import httpx
import msgspec

from bench.common import Sizes, cpu_seconds, percentile, process_tree, scratch_schema
from bench.health import health_summary, probe_apart
from bench.web import CLUB, THIS_CHECKOUT, Code, Connection, free_port, prepare, running_server

FULL_SPECTATORS = (10, 100, 1000)
SMOKE_SPECTATORS = (3,)
SMOKE_STEPS = 3
SPREAD, SMOKE_SPREAD = 5000, 4
"""Spectators over two workers."""
FLOOD_ATTEMPTS = 10_000
FLOOD_IN_FLIGHT = 500
"""Connections open at once while flooding: the bench's own file descriptors stay well under its limit."""


class Stream(asyncio.Protocol):
    """One SSE stream: the HTTP head skipped, chunks decoded, the arrival time of each `id:` kept."""

    def __init__(self, arrived: dict[int, list[float]], opened: asyncio.Future[None]) -> None:
        self.arrived = arrived
        self.opened = opened
        self.raw = bytearray()
        self.text = bytearray()
        self.in_body = False
        self.transport: Any = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        self.raw += data
        if not self.in_body:
            end = self.raw.find(b"\r\n\r\n")
            if end < 0:
                return
            if not self.raw.startswith(b"HTTP/1.1 200"):
                if not self.opened.done():
                    self.opened.set_exception(RuntimeError(bytes(self.raw[:300]).decode(errors="replace")))
                return
            del self.raw[: end + 4]
            self.in_body = True
        while True:  # chunked: size line, data, CRLF
            line_end = self.raw.find(b"\r\n")
            if line_end < 0:
                break
            size = int(bytes(self.raw[:line_end]).split(b";")[0], 16)
            if len(self.raw) < line_end + 2 + size + 2:
                break
            self.text += self.raw[line_end + 2 : line_end + 2 + size]
            del self.raw[: line_end + 4 + size]
        while True:
            line_end = self.text.find(b"\n")
            if line_end < 0:
                break
            line = bytes(self.text[:line_end]).rstrip(b"\r")
            del self.text[: line_end + 1]
            self.line(line, now)

    def line(self, line: bytes, now: float) -> None:
        """One line of the stream, received at `now`."""
        if line.startswith(b": tablelog live") and not self.opened.done():
            self.opened.set_result(None)
        elif line.startswith(b"id:"):
            self.arrived.setdefault(int(line[3:]), []).append(now)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


async def _open(port: int, token: str, game_id: str, after: int, arrived: dict[int, list[float]]) -> Stream:
    loop = asyncio.get_running_loop()
    opened: asyncio.Future[None] = loop.create_future()
    _, stream = await loop.create_connection(lambda: Stream(arrived, opened), "127.0.0.1", port)
    stream.transport.write(
        (
            f"GET /clubs/{CLUB}/games/{game_id}/live HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Bearer {token}\r\nLast-Event-ID: {after}\r\nAccept: text/event-stream\r\n\r\n"
        ).encode()
    )
    async with asyncio.timeout(60):
        await opened
    return stream


async def _watch(
    server_pid: int, port: int, token: str, game_id: str, version: int, spectators: int, steps: int, interval: float
) -> dict[str, Any]:
    arrived: dict[int, list[float]] = {}
    streams = []
    for start in range(0, spectators, 50):  # opened in groups, as a crowd arrives
        streams += await asyncio.gather(
            *(_open(port, token, game_id, version, arrived) for _ in range(start, min(spectators, start + 50)))
        )
    quiet = 3.0 if steps > SMOKE_STEPS else 0.3  # the smoke run checks the harness, not the idle CPU
    await asyncio.sleep(quiet / 3)
    quiet_from, quiet_cpu = time.perf_counter(), cpu_seconds(process_tree(server_pid))
    await asyncio.sleep(quiet)
    idle_cpu_per_s = (cpu_seconds(process_tree(server_pid)) - quiet_cpu) / (time.perf_counter() - quiet_from)
    writer = await Connection.open(port, token)
    sent: dict[int, float] = {}
    cpu_before = cpu_seconds(process_tree(server_pid))
    for _ in range(steps):
        body = msgspec.json.encode(
            {"expected_version": version, "events": [{"type": "tally.rolled", "seat": (version - 1) % 2, "face": 3}]}
        )
        sent[version + 1] = time.perf_counter()
        status, answer = await writer.request("POST", f"/clubs/{CLUB}/games/{game_id}/events", body)
        if status != 201:
            raise RuntimeError(f"append answered {status}: {answer[:200]!r}")
        version += 1
        await asyncio.sleep(interval)
    deadline = time.perf_counter() + 30
    while any(len(arrived.get(v, ())) < spectators for v in sent) and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    cpu_used = cpu_seconds(process_tree(server_pid)) - cpu_before
    writer.close()
    for stream in streams:
        stream.close()
    latencies = [t - sent[v] for v in sent for t in arrived.get(v, ())]
    delivered = len(latencies)
    return {
        "spectators": spectators,
        "steps": steps,
        "delivered": delivered,
        "missing": steps * spectators - delivered,
        "p50_ms": round(percentile(latencies, 0.5) * 1000, 1) if latencies else None,
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 1) if latencies else None,
        "server_cpu_us_per_delivered": round(cpu_used / delivered * 1e6) if delivered else None,
        "server_cpu_ms_per_step": round(cpu_used / steps * 1000, 1),
        "server_idle_cpu_ms_per_s": round(idle_cpu_per_s * 1000, 1),
    }


def watched(
    database_url: str, code: Code, spectators: int, workers: int, length: int, steps: int, interval: float
) -> dict[str, Any]:
    """`spectators` streams on a fresh game of `length` events served by `workers` processes, `steps`
    appended one every `interval` seconds."""
    # One client address and key hold every spectator's stream here: the caps that stop a flood (the
    # flood below) are raised above the count, as an operator serving a big room would.
    room = str(spectators * 2 + 16)
    caps = {
        "TABLELOG_MAX_STREAMS_PER_KEY": room,
        "TABLELOG_MAX_STREAMS_PER_ADDRESS": room,
        "TABLELOG_RATE_LIMIT_STREAMS_PER_MINUTE": room,
    }
    with (
        scratch_schema(database_url, "live") as (_, url),
        running_server(url, workers, "process", code, settings=caps) as server,
    ):
        token, (game_id,) = prepare(server.base, 1)
        _lengthen(server.base, token, game_id, length)
        row = asyncio.run(_watch(server.process.pid, server.port, token, game_id, length, spectators, steps, interval))
    return row | {"code": code.label, "game_length": length, "workers": workers}


def run(database_url: str, sizes: Sizes, baseline: Code | None = None, game_length: int = 1000) -> dict[str, Any]:
    """Each count of spectators on a fresh game of `game_length` events, this checkout then the baseline."""
    smoke = sizes.name == "smoke"
    counts = SMOKE_SPECTATORS if smoke else FULL_SPECTATORS
    steps, interval = (SMOKE_STEPS, 0.1) if smoke else (20, 0.25)
    length = 20 if smoke else game_length
    codes = [THIS_CHECKOUT, *([baseline] if baseline else [])]
    rows = []
    for spectators in counts:
        for code in codes:
            row = watched(database_url, code, spectators, 1, length, steps, interval)
            rows.append(row)
    # Issue 32 part 5's second figure: the largest crowd over two workers (an append reaching the other
    # worker through PostgreSQL's notifications).
    rows.append(watched(database_url, THIS_CHECKOUT, SMOKE_SPREAD if smoke else SPREAD, 2, length, steps, interval))
    health_port = free_port()
    with (
        scratch_schema(database_url, "flood") as (_, url),
        running_server(url, 1, "process", settings={"TABLELOG_HEALTH_PORT": str(health_port)}) as server,
    ):
        token, (game_id,) = prepare(server.base, 1)
        share = httpx.post(
            f"{server.base}/clubs/{CLUB}/shares",
            json={"kind": "game", "target_id": game_id, "name": "flood"},
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        )
        share.raise_for_status()
        attempts = 200 if smoke else FLOOD_ATTEMPTS
        flood = asyncio.run(
            _flood(server.process.pid, server.port, health_port, token, share.json()["token"], attempts)
        )
    return {"rows": rows, "interval_s": interval, "flood": flood}


async def _flood(server_pid: int, port: int, health_port: int, token: str, share: str, attempts: int) -> dict[str, Any]:
    """`attempts` streams tried on one share link, `FLOOD_IN_FLIGHT` at a time, `/health` probed meanwhile
    on the main port and on the health port."""
    answers: Counter[int] = Counter()
    held: list[asyncio.StreamWriter] = []
    health: list[float] = []
    health_apart: list[float] = []
    done = asyncio.Event()
    in_flight = asyncio.Semaphore(FLOOD_IN_FLIGHT)
    request = f"GET /share/{share}/live/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"

    async def attempt() -> None:
        async with in_flight:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(request.encode())
            status = int((await reader.readline()).split()[1])
            answers[status] += 1
            if status == 200:
                held.append(writer)  # held open until the flood ends
            else:
                writer.close()

    cpu_before, started = cpu_seconds(process_tree(server_pid)), time.perf_counter()
    asking = [
        asyncio.create_task(probe_apart(probed, token, lambda: not done.is_set(), latencies))
        for probed, latencies in ((port, health), (health_port, health_apart))
    ]
    await asyncio.gather(*(attempt() for _ in range(attempts)))
    done.set()
    await asyncio.gather(*asking)
    elapsed = time.perf_counter() - started
    cpu_used = cpu_seconds(process_tree(server_pid)) - cpu_before
    for writer in held:
        writer.close()
    return {
        "attempts": attempts,
        "answers": {str(status): count for status, count in sorted(answers.items())},
        "seconds": round(elapsed, 1),
        "server_cpu_s": round(cpu_used, 1),
        **health_summary(health),
        "health_port": {key.removeprefix("health_"): value for key, value in health_summary(health_apart).items()},
    }


def _lengthen(base: str, token: str, game_id: str, length: int) -> None:
    """Bring the game to `length` events (a long game: the old stream narrated all of it at each step)."""
    with httpx.Client(base_url=base, timeout=60, headers={"Authorization": f"Bearer {token}"}) as http:
        version = 1
        while version < length:
            count = min(500, length - version)
            events = [{"type": "tally.rolled", "seat": (version + i - 1) % 2, "face": 1} for i in range(count)]
            http.post(
                f"/clubs/{CLUB}/games/{game_id}/events", json={"expected_version": version, "events": events}
            ).raise_for_status()
            version += count


def main(argv: list[str]) -> None:
    """`python -m bench.live --spread [SPECTATORS]`: issue 32's second live figure, 5,000 spectators (or
    SPECTATORS) over two workers, the append reaching the other worker through PostgreSQL's notifications;
    this process is the load generator, apart from the servers (target: p99 under 500 ms)."""
    from bench.common import database_url

    args = [a for a in argv if not a.startswith("--")]
    if "--spread" not in argv:
        raise SystemExit("usage: python -m bench.live --spread [SPECTATORS]")
    spectators = int(args[0]) if args else SPREAD
    row = watched(database_url(), THIS_CHECKOUT, spectators, 2, 1000, 20, 0.25)
    print(msgspec.json.encode(row).decode())


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
