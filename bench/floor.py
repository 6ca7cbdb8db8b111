"""The floor under an HTTP append and a state read (`--sections floor`, issue 15 part 4, issue 32 parts 1
and 3): what the server's CPU per request can come down to on this stack, measured beside tablelog's own in
one run, on PostgreSQL and on the SQLite default.

In turn, level by level, each on one uvicorn worker (httptools, uvloop) on 127.0.0.1, loaded by the HTTP
section's client at 16 clients (4 in the smoke run): `bench/floor_app.py` alone (litestar decoding the
batch and answering); the same with the batch's INSERT through psycopg's async pool; the same with the
INSERT in a worker thread on SQLite; `tablelog serve` on each database (and, with `--http-baseline`, the
other checkout on PostgreSQL), its projector as its own process. Every server that stores then answers
public state reads of the games it appended to: the floors the bytes tablelog answered for the same
state, from one row. Reported: requests/s, p50, p99, and the server's CPU per request (its process tree,
/proc), as the HTTP section does; each as a ratio to its database's floor for the same kind of request
in the same round."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, closing, contextmanager
from pathlib import Path
from typing import Any

import httpx
import msgspec
import psycopg

from bench.common import ROOT, Sizes, scratch_schema
from bench.web import CLUB, THIS_CHECKOUT, Code, CpuMeter, Server, free_port, load, prepare, running_server, stop
from testkit.waiting import wait_until

ROUNDS = 2  # each server measured twice, in turn: the machine's load drifts between levels
KINDS = ("append", "read")  # the reads after the appends: the games have grown
FLOOR = "litestar + async INSERT"
SQLITE_FLOOR = "litestar + INSERT in a thread (SQLite)"
"""The floors' labels: each database's, which its other servers' rows are put over (`floor: true`)."""


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


class Served(msgspec.Struct, frozen=True, kw_only=True):
    """One server of the section: what it is, on which database, and the games it is loaded with."""

    label: str
    database: str  # "postgresql", "sqlite" or "-" (no database)
    floor: bool  # the floor its database's other servers are put over
    server: Server
    token: str
    games: list[str]


FLOOR_GAME = "floor-{}"


def _seed_states(served: list[Served], floors: dict[str, str]) -> None:
    """The floors' state rows: for each of their games, the bytes tablelog's server on the same database
    answered for its game of the same number (what the floor's read answers, as it is)."""
    for database, url in floors.items():
        mine = next(s for s in served if s.database == database and not s.floor)
        auth = {"Authorization": f"Bearer {mine.token}"}
        rows = []
        for number, game in enumerate(mine.games):
            answer = httpx.get(f"{mine.server.base}/clubs/{CLUB}/games/{game}/state?view=public", headers=auth)
            answer.raise_for_status()
            rows.append((FLOOR_GAME.format(number), answer.content))
        if database == "sqlite":
            with closing(sqlite3.connect(url.removeprefix("sqlite:///"))) as lite:
                lite.executemany("INSERT OR REPLACE INTO floor_states VALUES (?, ?)", rows)
                lite.commit()
        else:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.cursor().executemany(
                    "INSERT INTO floor_states VALUES (%s, %s) ON CONFLICT (game_id) DO UPDATE SET body = EXCLUDED.body",
                    rows,
                )


def run(database_url: str, sizes: Sizes, baseline: Code | None = None) -> dict[str, Any]:
    clients = 4 if sizes.name == "smoke" else 16
    sizes = msgspec.structs.replace(sizes, http_clients=(clients,))
    floor_games = [FLOOR_GAME.format(n) for n in range(clients)]  # the floor app takes any game and key
    served: list[Served] = []
    with ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory())
        _, pg_floor = stack.enter_context(scratch_schema(database_url, "floor"))
        floors = {"postgresql": pg_floor, "sqlite": f"sqlite:///{Path(folder) / 'floor.db'}"}
        for label, database, url in (
            ("litestar alone", "-", None),
            (FLOOR, "postgresql", floors["postgresql"]),
            (SQLITE_FLOOR, "sqlite", floors["sqlite"]),
        ):
            server = stack.enter_context(floor_server(url))
            served.append(
                Served(
                    label=label, database=database, floor=url is not None, server=server, token="-", games=floor_games
                )
            )
        codes = [
            ("postgresql", THIS_CHECKOUT),
            ("sqlite", THIS_CHECKOUT),
            *([("postgresql", baseline)] if baseline else []),
        ]
        for database, code in codes:
            if database == "sqlite":
                url = f"sqlite:///{Path(folder) / f'tablelog-{len(served)}.db'}"
            else:
                _, url = stack.enter_context(scratch_schema(database_url, "floor"))
            server = stack.enter_context(running_server(url, 1, "process", code))
            token, games = prepare(server.base, clients)
            label = f"tablelog, {code.label}" if database == "postgresql" else f"tablelog on SQLite, {code.label}"
            served.append(Served(label=label, database=database, floor=False, server=server, token=token, games=games))
        _seed_states(served, floors)
        versions: dict[str, dict[str, int]] = {}
        rows = []
        for round_ in range(1, ROUNDS + 1):
            for kind in KINDS:
                for one in served:
                    if kind == "read" and one.database == "-":
                        continue  # nothing to read without a database
                    at = versions.setdefault(one.label, dict.fromkeys(one.games, 1))
                    meter = CpuMeter(one.server)
                    row = load(one.server.port, one.token, one.games, at, kind, clients, sizes)
                    cpu = meter.per_request_us(row["requests"])
                    rows.append(
                        {
                            "server": one.label,
                            "database": one.database,
                            "floor": one.floor,
                            "round": round_,
                            **row,
                            "server_cpu_us": cpu["server"],
                        }
                    )
    return {"rows": rows, "clients": clients}
