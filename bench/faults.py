"""Faults: the record under concurrent writers while the server is killed (SIGKILL, the whole process
tree) and its database connections are cut, then started again; and the server's memory under a
barrage of bad input. Issue 13's evidence, in one command:

    .venv/bin/python -m bench.faults --out bench/results/faults.json      # about 2 minutes
    .venv/bin/python -m bench.faults --smoke                               # seconds

**Writers.** Each writer owns one Tally game and appends batches of 1 to 5 events at the version it
expects, each batch under an idempotency key. A batch whose answer did not arrive (the server died, the
connection broke, a 5xx) is sent again, same key and body, until an answer comes: a 201 (first or
replayed) acknowledges it. Every event's face is a function of its game and version, so a stored event
can be checked against what was sent. At the end every game's stream is read back from the database:
`lost` counts acknowledged events missing, `duplicated` events stored beyond the acknowledged ones (a
batch stored twice), `wrong` events whose content is not what was sent at that version.

**Faults.** While the writers run, a killer alternates: SIGKILL the server's process tree and start a
new one on the same database, or terminate every PostgreSQL connection of the server
(`pg_terminate_backend`), which its pool must survive.

**Bad input.** A server at rest is measured (resident memory of its process tree), then sent the
hostile inputs of issue 13 from several clients at once (10 MB bodies, JSON nested 100,000 deep,
invalid UTF-8, integers past 2^63, NUL bytes, 3,000-character ids, a catalogue of 9,999 bad rows);
every answer must be a 4xx, and the peak memory is reported as a multiple of the memory at rest.

**Worst imports.** Issue 25's worst case of each resource kind (about 4.9 MB each: a catalogue of 9,998
bad rows, a line of 4.9 million commas, a scenario of 440,000 bad hexagons (the issue's 490,000 pass the
body's bound), each JSON table of hundreds of thousands of empty rows), eight at once, each kind on a
fresh server: its peak memory over its memory at rest, and its memory once they are done.
Only 127.0.0.1 is ever addressed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sys
import threading
import time
from collections import Counter
from contextlib import ExitStack, suppress
from pathlib import Path
from typing import Any

import httpx
import psycopg

from bench.common import PeakMemory, database_url, process_tree, sampled, scratch_schema
from bench.web import CLUB, Server, prepare, running_server

RETRY_PAUSE = 0.05


def face(game: str, version: int) -> int:
    """The face sent at `version` of `game`: any stored event can be checked against it."""
    return 1 + (version * 7 + sum(map(ord, game))) % 6


class Record:
    """What the writers were told: per game, the versions acknowledged; and every answer's status."""

    def __init__(self) -> None:
        self.acknowledged: dict[str, set[int]] = {}
        self.statuses: Counter[str] = Counter()
        self.retries = 0
        self.faults_done = threading.Event()

    def writing(self, until: float, least: int) -> bool:
        """Whether the writers go on: until the time is up, every fault has happened and at least
        `least` events are acknowledged (a slow machine runs longer rather than proving less), at most
        two minutes past the time."""
        now = time.monotonic()
        if now >= until + 120:
            return False
        done = self.faults_done.is_set() and sum(len(v) for v in self.acknowledged.values()) >= least
        return now < until or not done


class Target:
    """Where the server is now: the killer replaces it, the writers follow."""

    def __init__(self, server: Server) -> None:
        self.server = server

    @property
    def base(self) -> str:
        return self.server.base


async def writer(target: Target, token: str, game: str, record: Record, until: float, least: int, seed: int) -> None:
    rng = random.Random(seed)
    version = 1  # Tally games start at version 1 (their game_started)
    acknowledged = record.acknowledged.setdefault(game, set())
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(timeout=10) as http:
        while record.writing(until, least):
            size = rng.randint(1, 5)
            events = [
                {"type": "tally.rolled", "seat": v % 2, "face": face(game, v)}
                for v in range(version + 1, version + 1 + size)
            ]
            body = {"expected_version": version, "events": events}
            key = {"Idempotency-Key": f"{game}-{version}"}
            while True:  # the same batch, same key, until it is answered
                try:
                    answer = await http.post(
                        f"{target.base}/clubs/{CLUB}/games/{game}/events", json=body, headers=headers | key
                    )
                except httpx.TransportError:
                    record.statuses["no answer"] += 1
                    record.retries += 1
                    await asyncio.sleep(RETRY_PAUSE)
                    continue
                record.statuses[str(answer.status_code)] += 1
                if answer.status_code in (429, 503) or answer.status_code >= 500:
                    record.retries += 1
                    await asyncio.sleep(RETRY_PAUSE)
                    continue
                break
            if answer.status_code != 201:
                raise RuntimeError(f"{game} at {version}: {answer.status_code} {answer.text[:300]}")
            written = answer.json()
            acknowledged.update(range(written["first_version"], written["last_version"] + 1))
            version = written["last_version"]


def kill_tree(server: Server) -> None:
    for pid in reversed(process_tree(server.process.pid)):
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    server.process.wait()


def named(url: str, application: str) -> str:
    """`url` with an application name, by which this run finds its server's connections (and no one
    else's: other work shares the database server)."""
    return f"{url}{'&' if '?' in url else '?'}application_name={application}"


def cut_connections(url: str, application: str) -> int:
    """Terminate the server's PostgreSQL connections (those named `application`); how many."""
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s", (application,)
        ).fetchall()
    return len(rows)


def check_streams(url: str, record: Record) -> dict[str, int]:
    stored: dict[str, dict[int, int]] = {}
    with psycopg.connect(url) as conn:
        for stream, version, data in conn.execute("SELECT stream_id, version, data FROM events"):
            payload = data if isinstance(data, dict) else json.loads(data)
            if payload.get("type") == "tally.rolled":
                stored.setdefault(stream, {})[version] = payload["face"]
    acknowledged = lost = duplicated = wrong = 0
    for game, versions in record.acknowledged.items():
        have = next((v for k, v in stored.items() if k == game or k.endswith("/" + game)), {})
        acknowledged += len(versions)
        lost += len(versions - have.keys())
        duplicated += len(have.keys() - versions)
        wrong += sum(1 for v, f in have.items() if f != face(game, v))
    return {"acknowledged": acknowledged, "lost": lost, "duplicated": duplicated, "wrong": wrong}


def run_faults(url: str, writers: int, seconds: float, faults: int, workers: int, least: int) -> dict[str, Any]:
    record = Record()
    application = f"bench_faults_{os.getpid()}"
    with scratch_schema(url, "faults") as (_, schema_url), ExitStack() as servers:
        server_url = named(schema_url, application)
        target = Target(servers.enter_context(running_server(server_url, workers, projector="thread")))
        token, games = prepare(target.base, writers)
        until = time.monotonic() + seconds
        kills = cuts = 0

        def killer() -> None:
            nonlocal kills, cuts
            pause = seconds / (faults + 1)
            for number in range(faults):
                time.sleep(pause)
                if number % 2 == 0:
                    kill_tree(target.server)
                    kills += 1
                    # A new server on the same database, stopped with the others at the end.
                    target.server = servers.enter_context(running_server(server_url, workers, projector="thread"))
                else:
                    cut_connections(schema_url, application)
                    cuts += 1
            record.faults_done.set()

        thread = threading.Thread(target=killer, daemon=True)
        thread.start()

        async def all_writers() -> None:
            await asyncio.gather(
                *(writer(target, token, g, record, until, least, seed) for seed, g in enumerate(games, start=1))
            )

        asyncio.run(all_writers())
        thread.join()
        result = check_streams(schema_url, record)
    return result | {
        "writers": writers,
        "seconds": seconds,
        "server_kills": kills,
        "connection_cuts": cuts,
        "retries": record.retries,
        "answers": dict(record.statuses),
    }


def hostile_requests(game: str) -> list[tuple[str, str, bytes]]:
    """Issue 13's bad inputs: (method, path, body); a body that starts with a letter is sent as CSV."""
    events = f"/clubs/{CLUB}/games/{game}/events"
    columns = "number,name,side,nationality,type,unit,air,surface,submarine,years,ocean,vp,special,fate_victim"
    header = columns + ",victim,cargo,source\n"
    bad_rows = header + "".join(f"Z{n},bad{n},nobody,,?,,x,x,x,,,-1,,,,,\n" for n in range(9_999))
    return [
        ("POST", events, b"x" * 10_000_000),
        ("POST", events, b"[" * 100_000 + b"]" * 100_000),
        ("POST", events, b'{"expected_version": 1, "events": [{"type": "tally.rolled", "\xff\xfe": 1}]}'),
        ("POST", events, b'{"expected_version": 99999999999999999999, "events": []}'),
        (
            "POST",
            events,
            b'{"expected_version": 1, "events": [{"type": "tally.noted", "seat": 0, "text": "a\\u0000b"}]}',
        ),
        ("GET", f"/clubs/{CLUB}/games/{game}/state?version=9223372036854775808", b""),
        ("GET", f"/clubs/{CLUB}/games/{game}/events?after=99999999999999999999", b""),
        ("GET", f"/clubs/{CLUB}/games/{game}/replay/9223372036854775808", b""),
        ("GET", f"/clubs/{CLUB}/games/{'g' * 3000}", b""),
        ("GET", f"/clubs/{CLUB}/games?from=99999-01-01", b""),
        ("GET", f"/clubs/{CLUB}/games/{game}/state?view=seat&seat=99", b""),
        ("POST", f"/clubs/{CLUB}/resources/atlantic-storm/catalogue/bad", bad_rows.encode()),
        ("POST", f"/clubs/{CLUB}/resources/atlantic-storm/catalogue/big", bad_rows.encode() * 30),
    ]


def run_bad_input(url: str, rounds: int, clients: int, workers: int) -> dict[str, Any]:
    statuses: Counter[str] = Counter()
    with scratch_schema(url, "badinput") as (_, schema_url), running_server(schema_url, workers, "thread") as server:
        token, games = prepare(server.base, 1)
        headers = {"Authorization": f"Bearer {token}"}
        time.sleep(1.0)
        rest = PeakMemory(server.process.pid)
        rest.sample()
        at_rest = rest.report()["largest_sampled_total_mib"]
        memory = PeakMemory(server.process.pid)
        with sampled([memory], every=0.05):
            requests = hostile_requests(games[0])
            started = time.monotonic()
            health_ms: list[float] = []

            async def hammer() -> None:
                async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:

                    async def client() -> None:
                        for _ in range(rounds):
                            for method, path, body in requests:
                                kind = "text/csv" if body[:1].isalpha() else "application/json"
                                answer = await http.request(
                                    method, path, content=body, headers=headers | {"Content-Type": kind}
                                )
                                statuses[str(answer.status_code)] += 1

                    async def health() -> None:
                        while not all_done.is_set():
                            t = time.perf_counter()
                            await http.get("/health")
                            health_ms.append((time.perf_counter() - t) * 1000)
                            await asyncio.sleep(0.1)

                    all_done = asyncio.Event()
                    watcher = asyncio.create_task(health())
                    await asyncio.gather(*(client() for _ in range(clients)))
                    all_done.set()
                    await watcher

            asyncio.run(hammer())
            elapsed = time.monotonic() - started
            time.sleep(1.0)
        after = PeakMemory(server.process.pid)
        after.sample()
    peak = memory.report()["largest_sampled_total_mib"]
    return {
        "requests": sum(statuses.values()),
        "answers": dict(statuses),
        "server_errors": sum(n for s, n in statuses.items() if s.startswith("5")),
        "seconds": round(elapsed, 1),
        "memory_at_rest_mib": at_rest,
        "peak_memory_mib": peak,
        "peak_over_rest": round(peak / at_rest, 2) if at_rest else None,
        "memory_after_mib": after.report()["largest_sampled_total_mib"],
        "health_max_ms": round(max(health_ms), 1) if health_ms else None,
    }


def worst_imports() -> dict[str, tuple[str, bytes]]:
    """Issue 25's worst case of each resource kind, each about 4.9 MB: (path, body)."""
    columns = "number,name,side,nationality,type,unit,air,surface,submarine,years,ocean,vp,special,fate_victim"
    # 9,998 rows of 17 fields: each row a full set of bad values, the most a catalogue may carry.
    row = "Z{n}," + "x" * 440 + ",nobody,,?,,x,x,x,,,-1,,,,,\n"
    catalogue = (columns + ",victim,cargo,source\n" + "".join(row.format(n=n) for n in range(9_998))).encode()

    def many(item: bytes, count: int) -> bytes:
        return (item + b",") * (count - 1) + item

    tables = {
        "combat_deck": b'{"source": "x", "cards": {' + many(b'"c": {}', 490_000) + b"}}",
        "initiative_table": b'{"source": "x", "rows": [' + many(b"{}", 1_600_000) + b"]}",
        "air_pack": b'{"source": "x", "cards": [' + many(b"[]", 1_600_000) + b"]}",
        "reinforcement_table": b'{"source": "x", "sides": [' + many(b"0", 2_400_000) + b"]}",
    }
    return {
        "catalogue": ("atlantic-storm/catalogue/worst", catalogue),
        "catalogue_commas": ("atlantic-storm/catalogue/commas", b"number,name\n" + b"," * 4_900_000),
        "scenario": ("memoire-44/scenario/worst", b'{"board": {"hexagons": [' + many(b'{"row":-1}', 440_000) + b"]}}"),
        **{kind: (f"memoire-44/{kind}/worst", body) for kind, body in tables.items()},
    }


async def _post_all(url: str, body: bytes, headers: dict[str, str], concurrent: int) -> list[str]:
    async with httpx.AsyncClient(timeout=120) as http:
        answers = await asyncio.gather(*(http.post(url, content=body, headers=headers) for _ in range(concurrent)))
    return [str(answer.status_code) for answer in answers]


def run_worst_imports(url: str, concurrent: int, workers: int, *, smoke: bool = False) -> dict[str, Any]:
    """Each resource kind's worst case, `concurrent` at once, each kind on a fresh server: its peak memory
    over its memory at rest, and its memory after (issue 25: under 1.5 times, and back to rest). `smoke`:
    one server for every kind and no settling waits, only the answers (no 5xx) are worth reading."""
    kinds: dict[str, Any] = {}
    settle = 0.0 if smoke else 1.0
    with ExitStack() as shared:
        server: Server | None = None
        for kind, (path, body) in worst_imports().items():
            with ExitStack() as own:
                if server is None or not smoke:
                    _, schema_url = (shared if smoke else own).enter_context(scratch_schema(url, "imports"))
                    server = (shared if smoke else own).enter_context(running_server(schema_url, workers, "thread"))
                    token, _ = prepare(server.base, 1)
                headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/octet-stream"}
                time.sleep(settle)
                rest = PeakMemory(server.process.pid)
                rest.sample()
                at_rest = rest.report()["largest_sampled_total_mib"]
                memory = PeakMemory(server.process.pid)
                started = time.monotonic()
                with sampled([memory], every=0.02):
                    statuses = Counter(
                        asyncio.run(
                            _post_all(f"{server.base}/clubs/{CLUB}/resources/{path}", body, headers, concurrent)
                        )
                    )
                seconds = time.monotonic() - started
                time.sleep(settle)
                after = PeakMemory(server.process.pid)
                after.sample()
            peak = memory.report()["largest_sampled_total_mib"]
            kinds[kind] = {
                "bytes": len(body),
                "answers": dict(statuses),
                "seconds": round(seconds, 1),
                "memory_at_rest_mib": at_rest,
                "peak_mib": peak,
                "peak_over_rest": round(peak / at_rest, 2) if at_rest else None,
                "after_over_rest": round(after.report()["largest_sampled_total_mib"] / at_rest, 2) if at_rest else None,
            }
    return {
        "concurrent": concurrent,
        "workers": workers,
        "server_errors": sum(n for k in kinds.values() for s, n in k["answers"].items() if s.startswith("5")),
        "kinds": kinds,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.faults", description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=database_url())
    parser.add_argument("--smoke", action="store_true", help="a few seconds: checks the harness")
    parser.add_argument("--writers", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--faults", type=int, default=9, help="alternating server kills and connection cuts")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--least", type=int, default=0, help="go on past --seconds until this many are acknowledged")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--imports-only", action="store_true", help="only the worst imports (issue 25)")
    args = parser.parse_args(argv)
    if args.smoke:
        args.writers, args.seconds, args.faults, args.least = 4, 6.0, 2, max(args.least, 150)
    if args.imports_only:
        imports = run_worst_imports(args.database_url, 8, args.workers)
        print(json.dumps(imports, indent=2))
        return 0 if imports["server_errors"] == 0 else 1
    report = {
        "faults": run_faults(args.database_url, args.writers, args.seconds, args.faults, args.workers, args.least),
        "bad_input": run_bad_input(args.database_url, 1 if args.smoke else 5, 2 if args.smoke else 8, args.workers),
        "worst_imports": run_worst_imports(args.database_url, 2 if args.smoke else 8, args.workers, smoke=args.smoke),
    }
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text)
    f, b, i = report["faults"], report["bad_input"], report["worst_imports"]
    ok = f["lost"] == 0 and f["duplicated"] == 0 and f["wrong"] == 0 and b["server_errors"] == i["server_errors"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
