"""Read replicas: PostgreSQL streaming replicas that serve the reads which tolerate a little lag.

Which reads. A request's reads go to one replica when they may lag: replays, pictures, state, standings,
campaigns, tournaments, exports, live streams (`REPLICA_READS` below, the store methods they call).
Everything else of the request, and every write, idempotency check and version check, stays on the
primary: a `RoutedStore` sends only the methods it names to the replica. Keys, sessions and revocations
are read from the primary by the authenticator, so a revoked key is refused at once on every node.

Read-your-writes. An append answers with the last global position it wrote, sealed in an opaque token
(`Tablelog-Position`, `service.http.positions`); the node opens it again when a client sends it back. A
position is `(transaction id << 20) + index` (`service.store.postgres`), so a replica has the append
once that transaction is visible in the replica's own snapshot: a client that sends the token back
(header `Tablelog-Position` or query `position`) is served by a replica only once it has replayed it;
the node waits up to `read_replica_wait_seconds`, then asks the primary. No round trip is added to the
append: the token seals the position it returns already.

Rotation. Each node measures its replicas every `read_replica_check_seconds`: the primary's WAL
position (`pg_current_wal_lsn`) against each replica's replayed one (`pg_last_wal_replay_lsn`). A
replica's lag in seconds is how long ago the primary had written no more than the replica has replayed
(the node keeps its recent samples of the primary's position), so an idle primary reads as no lag. A
replica past `read_replica_max_lag_seconds`, or that does not answer, leaves the rotation until a later
check finds it well; `/ready` reports each one to the operator. A read that fails on a replica (it
disappeared between checks, or cancelled a query for a conflict with recovery) is served by the
primary, and the replica leaves the rotation.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, Literal, cast

import anyio
import anyio.to_thread
import msgspec
import psycopg
from psycopg import conninfo
from psycopg import errors as pg_errors

from service.logs import get_logger
from service.store.base import Store, StoreUnavailable
from service.store.postgres import POSITION_SHIFT, PostgresStore

REPLICA_READS = frozenset(
    {
        "read_stream",
        "stream_version",
        "get_game",
        "list_games",
        "game_summaries",
        "result_changes",
        "finished_summaries",
        "player_ratings",
        "rating_history",
        "rating_points_since",
        "rating_point",
        "snapshots",
        "get_collection",
        "list_collections",
        "collections_of_game",
        "removals",
        "spectator_delay",
        "spectator_delays",
        "get_club",
        "list_clubs",
        "list_players",
        "get_players",
        "get_resource",
        "list_resources",
    }
)
"""The store's reads that a replica may serve: the record and the read models, never keys or leases."""

_MISSES = frozenset({"get_game", "get_collection", "get_club", "get_resource", "rating_point"})
"""Reads whose None may only mean the replica has not replayed the write yet: asked of the primary then."""

# Recovery conflicts cancel a standby's query with a serialisation failure. A replica that went away is
# StoreUnavailable through its store (which translates the driver's connection errors and the pool's
# timeout), a driver's operational error on the checks' own connections.
_REPLICA_FAILURES = (StoreUnavailable, psycopg.OperationalError, pg_errors.SerializationFailure)

Status = Literal["starting", "in rotation", "behind", "unreachable"]


def parse_lsn(text: str) -> int:
    """A WAL position (`16/B374D848`) as one number of bytes."""
    high, _, low = text.partition("/")
    return (int(high, 16) << 32) + int(low, 16)


def replica_name(url: str) -> str:
    """A replica as the operator reads it: host, port and database, never a password."""
    info = conninfo.conninfo_to_dict(url)
    return f"{info.get('host', 'localhost')}:{info.get('port', 5432)}/{info.get('dbname', '')}"


class ReplicaStore(PostgresStore):
    """A replica's own pool, waiting only briefly for a connection (a replica that went away must not hold
    a request: the primary serves it instead)."""

    def __init__(self, url: str, *, max_size: int, timeout: float = 2.0) -> None:
        super().__init__(url, max_size=max_size)
        self.db.pool.timeout = timeout

    def has_transaction(self, xid: int) -> tuple[bool, int]:
        """Whether transaction `xid` has ended in this replica's snapshot, and the snapshot's oldest running one."""
        with self.db.connection(timeout=self.db.pool.timeout) as conn:
            row = conn.execute(
                "SELECT pg_visible_in_snapshot(%s::text::xid8, s), pg_snapshot_xmin(s)::text::bigint "
                "FROM pg_current_snapshot() AS s",
                (str(xid),),
            ).fetchone()
        assert row is not None
        return bool(row[0]), int(row[1])


class ReplicaReport(msgspec.Struct, frozen=True, kw_only=True):
    """A replica as `/ready` shows it to the operator."""

    status: Status
    lag_seconds: float | None
    lag_bytes: int | None
    replay_paused: bool
    standby: bool
    error: str | None = None


class Replica:
    """One replica: its store and what the last check found."""

    def __init__(self, url: str, *, pool_size: int) -> None:
        self.name = replica_name(url)
        self.url = url
        self.store = ReplicaStore(url, max_size=pool_size)
        self._check: psycopg.Connection[Any] | None = None
        self.status: Status = "starting"
        self.lag_seconds: float | None = None
        self.lag_bytes: int | None = None
        self.replay_paused = False
        self.standby = True
        self.error: str | None = None
        self.horizon = 0
        """Every transaction id below this has ended on the replica (its snapshot's xmin when last seen)."""

    def progress(self) -> tuple[bool, int | None, bool, int]:
        """Whether it is a standby, the WAL position it has replayed (None on a primary), whether replay
        is paused, and its snapshot's oldest running transaction (every one below has ended here). On a
        connection of its own, so a replica that went away is told at once (not after the pool's wait)."""
        try:
            if self._check is None or self._check.closed:
                self._check = psycopg.connect(self.url, autocommit=True, connect_timeout=3)
            row = self._check.execute(
                "SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn()::text, "
                "CASE WHEN pg_is_in_recovery() THEN pg_is_wal_replay_paused() ELSE false END, "
                "pg_snapshot_xmin(pg_current_snapshot())::text::bigint"
            ).fetchone()
        except psycopg.Error:
            self.close_check()
            raise
        assert row is not None
        return bool(row[0]), parse_lsn(row[1]) if row[1] else None, bool(row[2]), int(row[3])

    def close_check(self) -> None:
        if self._check is not None:
            self._check.close()
        self._check = None

    @property
    def in_rotation(self) -> bool:
        return self.status == "in rotation"

    def has_position(self, position: int) -> bool:
        """Whether the replica has replayed the transaction that wrote `position` (one query unless the
        last look already showed it)."""
        xid = position >> POSITION_SHIFT
        if xid < self.horizon:
            return True
        visible, horizon = self.store.has_transaction(xid)
        self.horizon = max(self.horizon, horizon)
        return visible

    def report(self) -> ReplicaReport:
        return ReplicaReport(
            status=self.status,
            lag_seconds=None if self.lag_seconds is None else round(self.lag_seconds, 3),
            lag_bytes=self.lag_bytes,
            replay_paused=self.replay_paused,
            standby=self.standby,
            error=self.error,
        )


class RoutedStore:
    """The store a lag-tolerant request reads through: `REPLICA_READS` from its replica, everything else
    from the primary. Once a read had to go to the primary (a miss, a failure, the replica out of the
    rotation: a live stream outlives many checks), the rest of the request reads there too, so one answer
    never mixes an older replica's rows with the primary's newer ones."""

    def __init__(self, primary: Store, replica: Replica, on_failure: Callable[[Replica, BaseException], None]) -> None:
        self._primary = primary
        self._replica: Replica | None = replica
        self._on_failure = on_failure

    @property
    def replica(self) -> Replica | None:
        """The replica still serving this request's reads (None once they moved to the primary)."""
        return self._replica

    def __getattr__(self, name: str) -> Any:
        on_primary = getattr(self._primary, name)
        if name not in REPLICA_READS:
            return on_primary

        def read(*args: Any, **kwargs: Any) -> Any:
            replica = self._replica
            if replica is not None and not replica.in_rotation:
                self._replica = replica = None
            if replica is None:
                return on_primary(*args, **kwargs)
            try:
                found = getattr(replica.store, name)(*args, **kwargs)
            except _REPLICA_FAILURES as error:
                self._replica = None
                self._on_failure(replica, error)
                return on_primary(*args, **kwargs)
            if found is None and name in _MISSES:
                self._replica = None
                return on_primary(*args, **kwargs)
            return found

        return read


class ReplicaSet:
    """A node's replicas: their rotation, their lag and where a read goes."""

    def __init__(
        self,
        primary_url: str,
        urls: Sequence[str],
        *,
        pool_size: int = 10,
        max_lag_seconds: float = 5.0,
        wait_seconds: float = 0.25,
        check_seconds: float = 1.0,
    ) -> None:
        if not primary_url.startswith(("postgresql://", "postgres://")):
            raise ValueError("Read replicas need a PostgreSQL primary (TABLELOG_DATABASE_URL postgresql://...).")
        self.primary_url = primary_url
        self.replicas = [Replica(url, pool_size=pool_size) for url in urls]
        self.max_lag_seconds = max_lag_seconds
        self.wait_seconds = wait_seconds
        self.check_seconds = check_seconds
        self._turn = itertools.count()
        # (monotonic time, primary WAL position) of recent checks, to turn a replica's replayed position
        # into seconds behind; enough of them to see past the largest lag allowed.
        self._samples: deque[tuple[float, int]] = deque(maxlen=max(8, int(4 * max_lag_seconds / check_seconds) + 8))
        self._primary_conn: psycopg.Connection[Any] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: Any) -> ReplicaSet | None:
        urls = [u.strip() for u in settings.read_database_urls.split(",") if u.strip()]
        if not urls:
            return None
        return cls(
            settings.database_url,
            urls,
            pool_size=settings.pool_size,
            max_lag_seconds=settings.read_replica_max_lag_seconds,
            wait_seconds=settings.read_replica_wait_seconds,
            check_seconds=settings.read_replica_check_seconds,
        )

    # -- routing ----------------------------------------------------------------------------------------
    def _rotation(self) -> list[Replica]:
        """The replicas in rotation, starting with the next one's turn."""
        serving = [r for r in self.replicas if r.in_rotation]
        if not serving:
            return []
        start = next(self._turn) % len(serving)
        return serving[start:] + serving[:start]

    async def read_store(self, primary: Store, position: int | None = None) -> Store:
        """The store a lag-tolerant request reads through: a replica in rotation that has replayed
        `position` (waiting up to `wait_seconds` for one), else the primary."""
        deadline = time.monotonic() + self.wait_seconds
        while True:
            rotation = self._rotation()
            for replica in rotation:
                if position is None or position >> POSITION_SHIFT < replica.horizon:
                    return self._routed(primary, replica)
                try:
                    reached = await anyio.to_thread.run_sync(replica.has_position, position)
                except _REPLICA_FAILURES as error:
                    self.failed(replica, error)
                    continue
                if reached:
                    return self._routed(primary, replica)
            if not rotation or time.monotonic() >= deadline:
                return primary
            await anyio.sleep(min(0.02, self.wait_seconds))

    def _routed(self, primary: Store, replica: Replica) -> Store:
        return cast(Store, RoutedStore(primary, replica, self.failed))

    def failed(self, replica: Replica, error: BaseException) -> None:
        """A read failed on a replica: out of the rotation until a check finds it well again."""
        if isinstance(error, pg_errors.SerializationFailure):
            return  # a query cancelled by replay; the replica itself is well
        self._set(replica, "unreachable", error=type(error).__name__)

    def _set(self, replica: Replica, status: Status, error: str | None = None) -> None:
        with self._lock:
            before, replica.status, replica.error = replica.status, status, error
        if before != status:
            log = get_logger(replica=replica.name)
            if status == "in rotation":
                log.info("replica.joined_rotation", was=before)
            else:
                log.warning("replica.left_rotation", reason=status, lag_seconds=replica.lag_seconds, error=error)

    # -- checks -----------------------------------------------------------------------------------------
    def _primary_lsn(self) -> int | None:
        try:
            if self._primary_conn is None or self._primary_conn.closed:
                self._primary_conn = psycopg.connect(self.primary_url, autocommit=True, connect_timeout=3)
            row = self._primary_conn.execute("SELECT pg_current_wal_lsn()::text").fetchone()
        except psycopg.Error as error:
            get_logger().warning("replica.primary_unreachable", error_type=type(error).__name__)
            if self._primary_conn is not None:
                self._primary_conn.close()
            self._primary_conn = None
            return None
        assert row is not None
        return parse_lsn(row[0])

    def check(self) -> None:
        """Measure every replica once and put each in or out of the rotation."""
        primary = self._primary_lsn()
        now = time.monotonic()
        if primary is not None:
            self._samples.append((now, primary))
        for replica in self.replicas:
            try:
                standby, replayed, paused, horizon = replica.progress()
            except psycopg.Error as error:
                replica.lag_seconds = replica.lag_bytes = None
                self._set(replica, "unreachable", error=type(error).__name__)
                continue
            replica.standby, replica.replay_paused = standby, paused
            replica.horizon = max(replica.horizon, horizon)
            if primary is None:
                continue  # nothing to measure against: keep its status
            if replayed is None:  # not a standby (the primary itself, or a promoted replica): never behind
                replica.lag_bytes, replica.lag_seconds = 0, 0.0
            else:
                replica.lag_bytes = max(0, primary - replayed)
                replica.lag_seconds = self._seconds_behind(replayed, now)
            behind = replica.lag_seconds > self.max_lag_seconds
            self._set(replica, "behind" if behind else "in rotation")

    def _seconds_behind(self, replayed: int, now: float) -> float:
        """How long ago the primary had written no more than `replayed` (0 when it has written no more since)."""
        caught_up_at = None
        for moment, written in self._samples:
            if written <= replayed:
                caught_up_at = moment
        if caught_up_at is None:  # behind every sample kept: at least as old as the oldest
            return now - self._samples[0][0] if self._samples else 0.0
        latest = self._samples[-1]
        return 0.0 if latest[1] <= replayed else now - caught_up_at

    def start(self) -> None:
        """Check once now (so a node starts with its replicas in rotation), then in a thread."""
        self.check()
        self._thread = threading.Thread(target=self._run, name="tablelog-replicas", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.check_seconds):
            try:
                self.check()
            except Exception:  # a check must never end the thread: the next one tries again
                get_logger().exception("replica.check_failed")

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._primary_conn is not None:
            self._primary_conn.close()
        for replica in self.replicas:
            replica.close_check()
            replica.store.close()

    def reports(self) -> dict[str, ReplicaReport]:
        return {replica.name: replica.report() for replica in self.replicas}
