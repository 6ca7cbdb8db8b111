"""One subscription per server process to what changed in the database: a game's stream grew (live
spectating follows it) or a credential was revoked (remembered credentials are forgotten).

On PostgreSQL the process keeps one dedicated connection that LISTENs on two channels, named after the
schema so deployments (or test schemas) sharing a database never hear each other:
`tablelog_events:<schema>` carries [stream, version] pairs, sent by each process after its appends commit
(`Announcer`, batched) and by a trigger when a spectator delay changes (migration 008);
`tablelog_access:<schema>` carries the revocation counter, sent by a trigger with every revocation. On
SQLite, single-host, a process's appends are told in process only; other workers' are found by the live
streams' slow poll, and credentials are checked against the counter on each request as before.

`Hub.listening` says whether the database connection is up and listening. While it is not (SQLite,
or the connection was lost and is being re-made), nothing may rely on hearing a revocation, so the
authenticator reads the counter per request again (`service.usecases.access`). Every change of that state, and
every revocation heard, moves `access_epoch`: a reader that saw another epoch forgets what it knew.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import msgspec
import psycopg

from service.logs import get_logger

StreamListener = Callable[[int | None], None]
"""Told a stream's new version (None: something else about it changed, such as its spectator delay)."""


Appended = list[tuple[str, int | None]]
"""A message on the events channel: [stream, version] pairs (version None: something else changed)."""
_appended = msgspec.json.Decoder(Appended)
SPACING = 0.02
"""Seconds between two announcements of a process (appends in between share one): what a step may wait
before a spectator on another process hears of it. Every announcement wakes this process's announcer
thread and the listener thread of every process, each taking the GIL from its event loop; at 3 ms apart
that cost about a sixth of a worker's CPU per append at 16 clients (`bench --sections floor`)."""
PAYLOAD_BYTES = 7000
"""Under PostgreSQL's 8,000-byte limit on a NOTIFY payload."""


class Hub:
    """The process's listeners, by stream, and the state of its database subscription."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._streams: dict[str, list[StreamListener]] = {}
        self._everyone: list[Callable[[], None]] = []
        self.access_epoch = 0
        self.listening = False
        self.heard_generation = 0
        self._heard = threading.Condition(self._lock)
        self.listener: PostgresListener | None = None
        self.announcer: Announcer | None = None

    # -- subscribers ----------------------------------------------------------------------------
    def subscribe(self, stream_id: str, listener: StreamListener) -> Callable[[], None]:
        """Call `listener` on each change of the stream, from any thread, until the returned function is called."""
        with self._lock:
            self._streams.setdefault(stream_id, []).append(listener)

        def unsubscribe() -> None:
            with self._lock:
                listeners = self._streams.get(stream_id, [])
                if listener in listeners:
                    listeners.remove(listener)
                if not listeners:
                    self._streams.pop(stream_id, None)

        return unsubscribe

    def following(self) -> bool:
        """Whether any stream is followed in this process."""
        return bool(self._streams)

    def on_access(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call `listener` on each revocation heard and each change of `listening`."""
        with self._lock:
            self._everyone.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._everyone:
                    self._everyone.remove(listener)

        return unsubscribe

    # -- what happened ----------------------------------------------------------------------------
    def appended(self, stream_id: str, version: int | None) -> None:
        """A stream changed (heard from the database, or appended in this process on SQLite)."""
        with self._lock:
            listeners = list(self._streams.get(stream_id, ()))
        for listener in listeners:
            listener(version)

    def access_changed(self, generation: int | None = None, *, listening: bool | None = None) -> None:
        """A revocation was heard (`generation`), or the subscription came up or went down."""
        with self._lock:
            if listening is False:
                self.listening = False
            self.access_epoch += 1
            if listening:
                self.listening = True
            if generation is not None:
                self.heard_generation = max(self.heard_generation, generation)
            self._heard.notify_all()
            listeners = list(self._everyone)
        for listener in listeners:
            listener()

    def wait_heard(self, generation: int, timeout: float, grace: float = 0.05) -> bool:
        """Wait until this process has heard revocation `generation` (its own NOTIFY back), then `grace`
        seconds more: every other listening process is told at the same commit and hears it within a
        millisecond or so, so a revoking request that waits answers only once the others know too.
        False if not listening or not heard within `timeout`."""
        with self._lock:
            self._heard.wait_for(lambda: not self.listening or self.heard_generation >= generation, timeout)
            heard = self.listening and self.heard_generation >= generation
        if heard:
            time.sleep(grace)
        return heard

    def announce(self, stream_id: str, version: int) -> None:
        """This process appended to a stream (after the commit): its own streams are told now, other
        processes through the database when it is PostgreSQL."""
        self.appended(stream_id, version)
        if self.announcer is not None:
            self.announcer.announce(stream_id, version)

    # -- the database subscription ---------------------------------------------------------------
    def listen(self, url: str, *, retry_seconds: float = 1.0) -> None:
        """Start listening on PostgreSQL at `url` (a thread with its own connection), and announcing this
        process's appends there (another)."""
        self.listener = PostgresListener(url, self, retry_seconds=retry_seconds)
        self.listener.start()
        self.announcer = Announcer(url, retry_seconds=retry_seconds)
        self.announcer.start()

    def close(self) -> None:
        if self.listener is not None:
            self.listener.stop()
        if self.announcer is not None:
            self.announcer.stop()


class PostgresListener:
    """The dedicated LISTEN connection, in a thread; re-made after a loss (every `retry_seconds`)."""

    def __init__(self, url: str, hub: Hub, *, retry_seconds: float = 1.0) -> None:
        self.url = url
        self.hub = hub
        self.retry_seconds = retry_seconds
        self.backend_pid: int | None = None
        """The server process of the listening connection (tests terminate it to show the fallback)."""
        self.connections = 0
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tablelog-listener", daemon=True)

    def start(self, wait_seconds: float = 10.0) -> None:
        self._thread.start()
        self._ready.wait(wait_seconds)  # a server starts listening before it serves (or falls back to reading)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._listen()
            except psycopg.Error as error:
                get_logger().warning("notify.connection_lost", error=type(error).__name__)
            finally:
                self.backend_pid = None
                if self.hub.listening:
                    self.hub.access_changed(listening=False)
                self._ready.set()
            self._stop.wait(self.retry_seconds)

    def _listen(self) -> None:
        with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
            row = conn.execute("SELECT current_schema(), pg_backend_pid()").fetchone()
            assert row is not None
            schema, self.backend_pid = row
            events, access = f"tablelog_events:{schema}", f"tablelog_access:{schema}"
            conn.execute(f'LISTEN "{events}"')
            conn.execute(f'LISTEN "{access}"')
            self.connections += 1
            # Whatever was revoked while nobody listened is forgotten now: the epoch moves.
            self.hub.access_changed(listening=True)
            get_logger().info("notify.listening", schema=schema)
            self._ready.set()
            while not self._stop.is_set():
                for note in conn.notifies(timeout=0.2):  # short, so a stop is quick
                    self._dispatch(note.channel == events, note.payload)

    def _dispatch(self, appended: bool, payload: str) -> None:
        try:
            if appended:
                if self.hub.following():  # else nothing to tell: skip the decoding (every append of the cluster)
                    for stream, version in _appended.decode(payload):
                        self.hub.appended(stream, version)
            else:
                self.hub.access_changed(int(payload))
        except (msgspec.DecodeError, ValueError) as error:
            get_logger().warning("notify.unreadable", payload=payload[:200], error=str(error))


class Announcer:
    """NOTIFYs other processes of this process's appends, after their commits, from a thread with its own
    connection: whatever piled up while one NOTIFY went out goes in the next, one statement for all (the
    latest version per stream). Not in the append's own transaction: a NOTIFY there holds PostgreSQL's
    notification lock until the commit is flushed, so concurrent appends would commit one at a time. An
    announcement lost with the process or the connection is made up for by the live streams' slow poll."""

    def __init__(self, url: str, *, retry_seconds: float = 1.0) -> None:
        self.url = url
        self.retry_seconds = retry_seconds
        self._pending: dict[str, int] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tablelog-announcer", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(5)

    def announce(self, stream_id: str, version: int) -> None:
        with self._lock:
            self._pending[stream_id] = max(version, self._pending.get(stream_id, 0))
        self._wake.set()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._send()
            except psycopg.Error as error:
                get_logger().warning("notify.announcer_lost", error=type(error).__name__)
            self._stop.wait(self.retry_seconds)

    def _send(self) -> None:
        with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
            row = conn.execute("SELECT current_schema()").fetchone()
            assert row is not None
            channel = f"tablelog_events:{row[0]}"
            while not self._stop.is_set():
                self._wake.wait(1.0)
                with self._lock:
                    self._wake.clear()
                    pending, self._pending = self._pending, {}
                if pending:
                    conn.execute("SELECT pg_notify(%s, p) FROM unnest(%s::text[]) AS p", (channel, _payloads(pending)))
                    # Appends arriving meanwhile go out together in the next message: at most `SPACING`
                    # later, and the cluster's listeners wake at most 50 times a second per process, not per append.
                    self._stop.wait(SPACING)


def _payloads(pending: dict[str, int]) -> list[str]:
    """The pending appends as few messages as fit PostgreSQL's payload limit."""
    out: list[str] = []
    chunk: Appended = []
    size = 2
    for stream, version in pending.items():
        item = len(stream) + 24  # the pair's JSON, generously (ids are short, checked by the API)
        if chunk and size + item > PAYLOAD_BYTES:
            out.append(msgspec.json.encode(chunk).decode())
            chunk, size = [], 2
        chunk.append((stream, version))
        size += item
    out.append(msgspec.json.encode(chunk).decode())
    return out
