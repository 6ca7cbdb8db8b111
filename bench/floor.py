"""The floor under an HTTP append (`--sections floor`, issue 15 part 4): what the server's CPU per
single-event append can come down to on this stack, measured beside tablelog's own in one run.

In turn, level by level, each on one uvicorn worker (httptools, uvloop) on 127.0.0.1, loaded by the HTTP
section's client at 16 clients (4 in the smoke run): `bench/floor_app.py` alone (litestar decoding the
batch and answering); the same with the batch's INSERT through psycopg's async pool; `tablelog serve`
(and, with `--http-baseline`, the other checkout), its projector as its own process. Reported: requests/s,
p50, p99, and the server's CPU per request (its process tree, /proc), as the HTTP section does."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import httpx
import msgspec

from bench.common import ROOT, Sizes, scratch_schema
from bench.web import THIS_CHECKOUT, Code, CpuMeter, Server, free_port, load, prepare, running_server, stop
from testkit.waiting import wait_until

ROUNDS = 2  # each server measured twice, in turn: the machine's load drifts between levels


@contextmanager
def floor_server(database_url: str | None) -> Iterator[Server]:
    """`bench/floor_app.py` on a free loopback port (inserting into `database_url` when given)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TABLELOG_", "FLOOR_"))}
    env |= {"PYTHONPATH": str(ROOT)} | ({"FLOOR_DATABASE_URL": database_url} if database_url else {})
    server = ["--port", str(port), "--workers", "1", "--loop", "uvloop", "--http", "httptools"]
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "bench.floor_app:app", *server, "--no-access-log", "--log-level", "warning"],
        env=env,
        cwd=ROOT,
    )
    base = f"http://127.0.0.1:{port}"
    try:

        def warmed_up() -> bool:
            try:
                warm = httpx.post(f"{base}/clubs/c/games/warm-up/events", json={"expected_version": 0, "events": [{}]})
            except httpx.TransportError:
                return False
            return warm.status_code == 201

        wait_until(warmed_up, "the floor app", runner=process)
        yield Server(base=base, process=process, projector=None)
    finally:
        stop(process)


def run(database_url: str, sizes: Sizes, baseline: Code | None = None) -> dict[str, Any]:
    clients = 4 if sizes.name == "smoke" else 16
    sizes = msgspec.structs.replace(sizes, http_clients=(clients,))
    servers: list[tuple[str, Server, str, list[str]]] = []
    floor_games = [f"floor-{n}" for n in range(clients)]  # the floor app takes any game and key
    with ExitStack() as stack:
        servers.append(("litestar alone", stack.enter_context(floor_server(None)), "-", floor_games))
        _, url = stack.enter_context(scratch_schema(database_url, "floor"))
        servers.append(("litestar + async INSERT", stack.enter_context(floor_server(url)), "-", floor_games))
        for code in [THIS_CHECKOUT, *([baseline] if baseline else [])]:
            _, url = stack.enter_context(scratch_schema(database_url, "floor"))
            server = stack.enter_context(running_server(url, 1, "process", code))
            token, games = prepare(server.base, clients)
            servers.append((f"tablelog, {code.label}", server, token, games))
        versions: dict[str, dict[str, int]] = {}
        rows = []
        for round_ in range(1, ROUNDS + 1):
            for label, server, token, games in servers:
                at = versions.setdefault(label, dict.fromkeys(games, 1))
                meter = CpuMeter(server)
                row = load(server.port, token, games, at, "append", clients, sizes)
                cpu = meter.per_request_us(row["requests"])
                rows.append({"server": label, "round": round_, **row, "server_cpu_us": cpu["server"]})
    return {"rows": rows, "clients": clients}
