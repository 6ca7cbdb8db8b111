"""What every section shares: the run's sizes, timing, PostgreSQL schemas and process memory."""

from __future__ import annotations

import os
import statistics
import threading
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import msgspec
import psycopg

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/test"


class Sizes(msgspec.Struct, frozen=True, kw_only=True):
    """How much each section does. `smoke` is a few seconds in all; `full` is the real run."""

    name: str
    append_seconds: float
    append_repeats: int
    append_writers: tuple[int, ...]
    append_batches: tuple[int, ...]
    fold_games: int
    fold_min_seconds: float
    seek_lengths: tuple[int, ...]
    seek_samples: int
    snapshot_every: int
    http_seconds: float
    http_max_requests: int
    http_clients: tuple[int, ...]
    rebuild_games: int


SMOKE = Sizes(
    name="smoke",
    append_seconds=0.1,
    append_repeats=1,
    append_writers=(1, 4),
    append_batches=(1, 50),
    fold_games=2,
    fold_min_seconds=0.02,
    seek_lengths=(100, 1000),
    seek_samples=5,
    snapshot_every=100,
    http_seconds=0.3,
    http_max_requests=200,
    http_clients=(1, 4),
    rebuild_games=20,
)

FULL = Sizes(
    name="full",
    append_seconds=1.5,
    append_repeats=6,
    append_writers=(1, 16),
    append_batches=(1, 50),
    fold_games=60,
    fold_min_seconds=2.0,
    seek_lengths=(100, 1000, 10000),
    seek_samples=200,
    snapshot_every=100,
    http_seconds=8.0,
    http_max_requests=200_000,
    http_clients=(1, 16, 64),
    rebuild_games=10_000,
)


def database_url() -> str:
    """The PostgreSQL the bench uses: TABLELOG_BENCH_DATABASE_URL, else the local server."""
    return os.environ.get("TABLELOG_BENCH_DATABASE_URL", DEFAULT_DATABASE_URL)


def with_search_path(url: str, schema: str) -> str:
    """A URL whose connections work in `schema`."""
    separator = "&" if "?" in url else "?"
    return f"{url}{separator}options={quote(f'-csearch_path={schema}')}"


@contextmanager
def scratch_schema(url: str, prefix: str) -> Iterator[tuple[str, str]]:
    """A fresh schema (its name and a URL that works in it), dropped afterwards whatever happens."""
    schema = f"bench_{prefix}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield schema, with_search_path(url, schema)
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (`share` in 0..1) of non-empty `values`."""
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))
    return ordered[index]


def median(values: list[float]) -> float:
    return float(statistics.median(values))


def rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else 0.0


# -- memory -----------------------------------------------------------------------------------------
def _status_kib(pid: int, field: str) -> int:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def process_tree(pid: int) -> list[int]:
    """`pid` and all its descendants (Linux /proc)."""
    out = [pid]
    index = 0
    while index < len(out):
        current = out[index]
        index += 1
        try:
            tasks = os.listdir(f"/proc/{current}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{current}/task/{task}/children") as children:
                    out.extend(int(child) for child in children.read().split())
            except OSError:
                continue
    return out


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time the processes `pids` have used so far (Linux /proc; gone ones count 0)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of proc(5))
    return total / tick


def processes_named(prefix: str) -> list[int]:
    """The processes whose command name starts with `prefix` (a local PostgreSQL's backends, say)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/comm") as comm:
                    if comm.read().startswith(prefix):
                        found.append(int(entry))
            except OSError:
                continue
    return found


class PeakMemory:
    """Peak resident memory of a process tree, sampled: each process's own high-water mark (VmHWM,
    kept by the kernel, so no peak is missed between samples) and the largest sum of current resident
    sizes seen at one sample."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.per_process_kib: dict[int, int] = {}
        self.total_kib = 0

    def sample(self) -> None:
        total = 0
        for pid in process_tree(self.pid):
            self.per_process_kib[pid] = max(self.per_process_kib.get(pid, 0), _status_kib(pid, "VmHWM"))
            total += _status_kib(pid, "VmRSS")
        self.total_kib = max(self.total_kib, total)

    def report(self) -> dict[str, Any]:
        peaks = sorted(self.per_process_kib.values(), reverse=True)
        return {
            "processes": len(peaks),
            "largest_process_peak_mib": round(peaks[0] / 1024, 1) if peaks else 0.0,
            "sum_of_process_peaks_mib": round(sum(peaks) / 1024, 1),
            "largest_sampled_total_mib": round(self.total_kib / 1024, 1),
        }


@contextmanager
def sampled(memories: Sequence[PeakMemory], every: float) -> Iterator[None]:
    """Sample each of `memories` every `every` seconds in a thread while the block runs, and once more at
    its end (a peak in the last interval is kept by the kernel's high-water mark)."""
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            for memory in memories:
                memory.sample()
            stop.wait(every)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        yield
    finally:
        stop.set()
        sampler.join()
        for memory in memories:
            memory.sample()
