"""Append throughput: tablelog's stores against raw psycopg INSERTs and the eventsourcing library's
PostgreSQL recorder, on the same server, with the same rows, batch sizes and writers.

Every writer is a thread appending to its own stream (distinct streams, so no conflicts), each
append at the version the writer expects. The configurations run interleaved, `repeats` times each,
and the median is kept, so slow minutes of a shared machine fall on every backend alike.
"""

from __future__ import annotations

import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import Any, Protocol

import msgspec
import psycopg

from bench.common import Sizes, median, rate, scratch_schema
from service.store.base import AppendRequest, NewEvent, Recorder

WARM_UP_APPENDS = 3
CLUB = "bench"

_RAW_TABLE = """
CREATE TABLE raw_events (
    position        bigserial PRIMARY KEY,
    stream_id       text NOT NULL,
    version         integer NOT NULL,
    type            text NOT NULL,
    schema_version  integer NOT NULL,
    data            json NOT NULL,
    recorded_at     timestamptz NOT NULL DEFAULT now(),
    club_id         text NOT NULL,
    key_id          text,
    CONSTRAINT raw_events_stream_version UNIQUE (stream_id, version)
)
"""
_RAW_INSERT = (
    "INSERT INTO raw_events (stream_id, version, type, schema_version, data, club_id, key_id) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s)"
)


class Backend(Protocol):
    """One way of appending. `writer()` gives what one writer thread appends through."""

    name: str

    def writer(self) -> Any: ...

    def append(self, handle: Any, stream: str, expected: int, events: list[NewEvent]) -> None: ...

    def close(self) -> None: ...


class TablelogPostgres:
    name = "tablelog-postgres"

    def __init__(self, url: str, writers: int) -> None:
        from service.store.postgres import PostgresStore

        self.store = PostgresStore(url, min_size=writers, max_size=writers)
        self.store.migrate()
        self.recorder = Recorder(club_id=CLUB)

    def writer(self) -> Any:
        return self.store

    def append(self, handle: Any, stream: str, expected: int, events: list[NewEvent]) -> None:
        handle.append(AppendRequest(stream, events, expected, recorded_by=self.recorder))

    def close(self) -> None:
        self.store.close()


class TablelogSqlite(TablelogPostgres):
    name = "tablelog-sqlite"

    def __init__(self, path: str, writers: int) -> None:
        from service.store.sqlite import SqliteStore

        self.store = SqliteStore(path)  # type: ignore[assignment]
        self.store.migrate()
        self.recorder = Recorder(club_id=CLUB)


class RawPsycopg:
    """The baseline: plain INSERTs of the same rows into a table with the same columns and unique
    constraint, one connection per writer, a batch in one transaction (executemany pipelines it)."""

    name = "raw-psycopg"

    def __init__(self, url: str, writers: int) -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(_RAW_TABLE.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS", 1))
        self.connections = [psycopg.connect(url, autocommit=True) for _ in range(writers)]
        self.handed = 0

    def writer(self) -> Any:
        conn = self.connections[self.handed]
        self.handed += 1
        return conn

    def append(self, handle: Any, stream: str, expected: int, events: list[NewEvent]) -> None:
        rows = [
            (stream, expected + index, e.type, e.schema_version, e.data.decode(), CLUB, None)
            for index, e in enumerate(events, start=1)
        ]
        if len(rows) == 1:
            handle.execute(_RAW_INSERT, rows[0])
            return
        with handle.transaction(), handle.cursor() as cursor:
            cursor.executemany(_RAW_INSERT, rows)

    def close(self) -> None:
        for conn in self.connections:
            conn.close()


class EventsourcingRecorder:
    """The eventsourcing library's PostgreSQL application recorder (its notification log needs the
    table lock it takes on every insert), with text stream ids."""

    name = "eventsourcing"

    def __init__(self, url: str, writers: int, schema: str) -> None:
        from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
        from psycopg.conninfo import conninfo_to_dict

        info = conninfo_to_dict(url.split("?")[0])
        self.datastore = PostgresDatastore(
            dbname=str(info.get("dbname", "postgres")),
            host=str(info.get("host", "127.0.0.1")),
            port=str(info.get("port", 5432)),
            user=str(info.get("user", "postgres")),
            password=str(info.get("password", "")),
            schema=schema,
            pool_size=writers,
            originator_id_type="text",
        )
        self.recorder = PostgresApplicationRecorder(self.datastore, events_table_name="stored_events")
        self.recorder.create_table()

    def writer(self) -> Any:
        return self.recorder

    def append(self, handle: Any, stream: str, expected: int, events: list[NewEvent]) -> None:
        from eventsourcing.persistence import StoredEvent

        handle.insert_events(
            [
                StoredEvent(originator_id=stream, originator_version=expected + index, topic=e.type, state=e.data)
                for index, e in enumerate(events, start=1)
            ]
        )

    def close(self) -> None:
        self.datastore.close()


def eventsourcing_available() -> str | None:
    """None when the eventsourcing library (the `bench` extra) is installed, else why not."""
    try:
        import eventsourcing.postgres  # noqa: F401
    except ImportError as error:
        return f"not installed ({error}); install the bench extra: pip install -e '.[bench]'"
    return None


def _run(backend: Backend, payloads: list[NewEvent], batch: int, writers: int, seconds: float) -> float:
    """Events per second of `writers` threads appending batches of `batch` for `seconds`."""
    handles = [backend.writer() for _ in range(writers)]
    counts = [0] * writers
    errors: list[BaseException] = []
    barrier = threading.Barrier(writers + 1)
    deadline = [0.0]
    prefix = uuid.uuid4().hex[:8]

    def work(number: int) -> None:
        try:
            stream = f"{backend.name}-{prefix}-{number}"
            version = 0
            offset = number * 7

            def one() -> None:
                nonlocal version, offset
                events = [payloads[(offset + i) % len(payloads)] for i in range(batch)]
                backend.append(handles[number], stream, version, events)
                version += batch
                offset += batch

            for _ in range(WARM_UP_APPENDS):
                one()
            barrier.wait()
            done = 0
            while time.perf_counter() < deadline[0]:
                one()
                done += batch
            counts[number] = done
        except BaseException as error:  # reported after the threads end, never swallowed
            errors.append(error)
            barrier.abort()

    threads = [threading.Thread(target=work, args=(n,), daemon=True) for n in range(writers)]
    for thread in threads:
        thread.start()
    deadline[0] = time.perf_counter() + 3600  # until every writer has warmed up
    with suppress(threading.BrokenBarrierError):  # a writer failed: its error is raised below
        barrier.wait()
    started = time.perf_counter()
    deadline[0] = started + seconds
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    if errors:
        raise errors[0]
    return rate(sum(counts), elapsed)


Opener = Callable[[int], Backend]
"""Opens a backend for that many writers. A backend is opened for each sample and closed after it,
so the bench never holds more connections than one configuration's writers (the server is shared)."""


@contextmanager
def _openers(url: str, skip_eventsourcing: str | None) -> Iterator[list[Opener]]:
    with ExitStack() as stack:
        _, tablelog_url = stack.enter_context(scratch_schema(url, "tablelog"))
        _, raw_url = stack.enter_context(scratch_schema(url, "raw"))
        openers: list[Opener] = [
            lambda writers: TablelogPostgres(tablelog_url, writers),
            lambda writers: RawPsycopg(raw_url, writers),
        ]
        if skip_eventsourcing is None:
            es_schema, _ = stack.enter_context(scratch_schema(url, "es"))
            openers.append(lambda writers: EventsourcingRecorder(url, writers, es_schema))
        folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="tablelog-bench-"))
        openers.append(lambda writers: TablelogSqlite(str(Path(folder) / "bench.db"), writers))
        yield openers


def payloads_from(games: list[list[Any]]) -> list[NewEvent]:
    """The rows every backend appends: real events of recorded games, encoded as the service stores them."""
    from domain.record import event_tag, schema_version

    out = [
        NewEvent(type=event_tag(e), schema_version=schema_version(e), data=msgspec.json.encode(e))
        for game in games
        for e in game[1:]
    ]
    return out[:2000]


def run(url: str, sizes: Sizes, payloads: list[NewEvent], require_eventsourcing: bool) -> dict[str, Any]:
    """The append section: events per second per backend, batch and writer count, and the ratios."""
    skip = eventsourcing_available()
    if skip is not None and require_eventsourcing:
        raise SystemExit(f"The full run compares with the eventsourcing library, which is {skip}")
    rows: list[dict[str, Any]] = []
    with _openers(url, skip) as openers:
        for writers in sizes.append_writers:
            samples: dict[tuple[str, int], list[float]] = {}
            for _ in range(sizes.append_repeats):
                for batch in sizes.append_batches:
                    for opener in openers:
                        backend = opener(writers)
                        try:
                            value = _run(backend, payloads, batch, writers, sizes.append_seconds)
                        finally:
                            backend.close()
                        samples.setdefault((backend.name, batch), []).append(value)
            for (name, batch), values in samples.items():
                rows.append(
                    {
                        "backend": name,
                        "batch": batch,
                        "writers": writers,
                        "events_per_s": round(median(values), 1),
                        "samples": [round(v, 1) for v in values],
                    }
                )
    ratios = []
    by_key = {(r["backend"], r["batch"], r["writers"]): r["events_per_s"] for r in rows}
    for writers in sizes.append_writers:
        for batch in sizes.append_batches:
            ours = by_key[("tablelog-postgres", batch, writers)]
            entry: dict[str, Any] = {
                "batch": batch,
                "writers": writers,
                "vs_raw_psycopg": round(ours / by_key[("raw-psycopg", batch, writers)], 3),
                "vs_eventsourcing": None,
                "raw_vs_eventsourcing": None,
            }
            if ("eventsourcing", batch, writers) in by_key:
                entry["vs_eventsourcing"] = round(ours / by_key[("eventsourcing", batch, writers)], 3)
                # What the plain INSERTs themselves reach against the library: the ceiling of the 1.5x target.
                entry["raw_vs_eventsourcing"] = round(
                    by_key[("raw-psycopg", batch, writers)] / by_key[("eventsourcing", batch, writers)], 3
                )
            ratios.append(entry)
    return {
        "rows": rows,
        "ratios": ratios,
        "eventsourcing": "measured" if skip is None else f"skipped: {skip}",
        "seconds_per_sample": sizes.append_seconds,
        "repeats": sizes.append_repeats,
    }
