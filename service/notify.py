"""One subscription per server process to what changed in the database: a game's stream grew (live
spectating follows it) or a credential was revoked (remembered credentials are forgotten).

On PostgreSQL the process keeps one dedicated connection that LISTENs on two channels; triggers of
migration 008 NOTIFY them at commit (`tablelog_events:<schema>` with the club, stream and version,
`tablelog_access:<schema>` with the revocation counter). On SQLite, single-host, the appends of this
process are announced in process (`Hub.appended`); other workers find them by the slow poll of live
streams, and credentials are checked against the counter on each request as before.

`Hub.listening` says whether the database connection is up and listening. While it is not (SQLite,
or the connection was lost and is being re-made), nothing may rely on hearing a revocation, so the
authenticator reads the counter per request again (`service.auth`). Every change of that state, and
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


class _Appended(msgspec.Struct, frozen=True):
    stream: str
    version: int | None = None
    club: str | None = None


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

    # -- the database subscription ---------------------------------------------------------------
    def listen(self, url: str, *, retry_seconds: float = 1.0) -> None:
        """Start listening on PostgreSQL at `url` (a thread with its own connection)."""
        self.listener = PostgresListener(url, self, retry_seconds=retry_seconds)
        self.listener.start()

    def close(self) -> None:
        if self.listener is not None:
            self.listener.stop()


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
                note = msgspec.json.decode(payload, type=_Appended)
                self.hub.appended(note.stream, note.version)
            else:
                self.hub.access_changed(int(payload))
        except (msgspec.DecodeError, ValueError) as error:
            get_logger().warning("notify.unreadable", payload=payload[:200], error=str(error))
