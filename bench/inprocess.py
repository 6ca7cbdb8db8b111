"""`python -m bench.inprocess [DATABASE_URL] [APPENDS] [--keyed] [--metrics] [--tracing] [--prof [cumulative|tottime]]`
or `python -m bench.inprocess "" [ROUNDS] --side-by-side=metrics` (or `=tracing`):
the CPU time
of one single-event API append in this process (issue 32), with no HTTP client and no server: the app is
called as ASGI on one event loop, so the figure is the app's own work (and a worker thread's, when it hops),
never the machine's load. Four Tally games of one club, appended in turn; prints `cpu/append N us`.

`--keyed` sends an Idempotency-Key with each append (as the recorder does); `--metrics` and `--tracing` turn
those settings on (issue 30: what each costs an append; spans are made but not exported,
`OTEL_TRACES_EXPORTER=none`, and metrics are kept in a temporary multi-process folder); `--side-by-side=S`
serves two apps in this one process, setting S off and on, and measures them in alternate batches of 300
appends and 300 state reads (ROUNDS rounds, default 10, the order swapped each round): the ratio of what
one setting costs, measured side by side, which the HTTP section's runs in turn cannot resolve under 10 %
(the same code measured against itself there reads -10 % to +17 %); `--prof` prints a
cProfile listing of the measured appends. DATABASE_URL empty: a new SQLite file. For a PostgreSQL schema of your own,
`postgresql://postgres@127.0.0.1:5432/test?options=-csearch_path%3D<schema>` (the schema made beforehand).
For a before / after figure, run it alternately in this checkout and in a detached worktree of the other
commit (`PYTHONPATH=<checkout> .venv/bin/python <checkout>/bench/inprocess.py ...`), several times each."""

from __future__ import annotations

import asyncio
import cProfile
import io
import json
import logging
import os
import pstats
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, MutableMapping
from statistics import median
from typing import Any

OPERATOR = "op-secret"
WARM_UP = 50

Message = MutableMapping[str, Any]


class _Caller:
    """One ASGI app called in place: a request's body sent at once, its answer gathered."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(
        self, method: str, path: str, body: Any = None, headers: tuple[tuple[str, str], ...] = ()
    ) -> tuple[int, bytes]:
        raw = json.dumps(body).encode() if body is not None else b""
        sent_headers = [
            (b"host", b"t"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(raw)).encode()),
            *((k.lower().encode(), v.encode()) for k, v in headers),
        ]
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": sent_headers,
            "client": ("127.0.0.1", 1),
            "server": ("t", 80),
            "state": {},
        }
        delivered = False

        async def receive() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": raw, "more_body": False}
            await asyncio.sleep(3600)
            return {"type": "http.disconnect"}

        status, answer = 0, bytearray()

        async def send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                answer.extend(message.get("body", b""))

        await self.app(scope, receive, send)
        return status, bytes(answer)


class _Club:
    """An app served in this process (its lifespan started) with a club, a key and four Tally games."""

    def __init__(self, app: Any, call: _Caller, started: asyncio.Queue[Message], answers: asyncio.Queue[Message]):
        self.app, self.call, self._started, self._answers = app, call, started, answers
        self.auth: tuple[tuple[str, str], ...] = ()
        self.club = ""
        self.games: list[str] = []
        self.versions: dict[str, int] = {}
        self.sent = 0

    @classmethod
    async def open(cls, url: str, operations: dict[str, bool]) -> _Club:
        from domain import registry
        from service.app import create_app
        from service.settings import Settings

        app = create_app(
            Settings(
                database_url=url,
                operator_key=OPERATOR,
                log_format="json",
                rate_limit_writes_per_minute=10**6,  # a long run is not a flood
                rate_limit_reads_per_minute=10**6,
                **operations,
            ),
            rulesets=registry.load(["testkit.tally"]),
        )
        started: asyncio.Queue[Message] = asyncio.Queue()
        answers: asyncio.Queue[Message] = asyncio.Queue()

        async def lifespan_send(message: Message) -> None:
            await answers.put(message)

        club = cls(app, _Caller(app), started, answers)
        club._lifespan = asyncio.create_task(
            app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}, started.get, lifespan_send)
        )
        await started.put({"type": "lifespan.startup"})
        assert (await answers.get())["type"] == "lifespan.startup.complete"
        call = club.call
        club.club = f"c{os.getpid()}x{int(time.time())}"  # a club of its own in a schema used before
        operator = (("Authorization", f"Bearer {OPERATOR}"),)
        await call("POST", "/clubs", {"club_id": club.club, "name": "C"}, operator)
        token = json.loads((await call("POST", f"/clubs/{club.club}/keys", {"name": "s"}, operator))[1])["token"]
        club.auth = (("Authorization", f"Bearer {token}"),)
        for player in ("alain", "bea"):
            await call("POST", f"/clubs/{club.club}/players", {"player_id": player, "name": player}, club.auth)
        for _ in range(4):
            new = {
                "ruleset": "tally",
                "players": [{"player_id": "alain"}, {"player_id": "bea"}],
                "options": {"target": 10**6},
            }
            answer = await call("POST", f"/clubs/{club.club}/games", new, club.auth)
            club.games.append(json.loads(answer[1])["game_id"])
        club.versions = dict.fromkeys(club.games, 1)
        return club

    async def append(self, keyed: bool) -> None:
        game = self.games[self.sent % len(self.games)]
        headers = self.auth + ((("Idempotency-Key", f"k{self.sent}"),) if keyed else ())
        body = {
            "expected_version": self.versions[game],
            "events": [{"type": "tally.rolled", "seat": (self.versions[game] - 1) % 2, "face": 1}],
        }
        status, answer = await self.call("POST", f"/clubs/{self.club}/games/{game}/events", body, headers)
        assert status == 201, answer
        self.versions[game] += 1
        self.sent += 1

    async def read(self) -> None:
        game = self.games[self.sent % len(self.games)]
        status, answer = await self.call("GET", f"/clubs/{self.club}/games/{game}/state", None, self.auth)
        assert status == 200, answer
        self.sent += 1

    async def close(self) -> None:
        await self._started.put({"type": "lifespan.shutdown"})
        await self._answers.get()
        await self._lifespan


async def _measure(
    url: str, appends: int, keyed: bool, profile: cProfile.Profile | None, operations: dict[str, bool]
) -> float:
    club = await _Club.open(url, operations)
    for _ in range(WARM_UP):
        await club.append(keyed)
    cpu = time.process_time()
    if profile is not None:
        profile.enable()
    for _ in range(appends):
        await club.append(keyed)
    if profile is not None:
        profile.disable()
    per_append = (time.process_time() - cpu) / appends * 1e6
    await club.close()
    return per_append


async def _side_by_side(setting: str, rounds: int, batch: int) -> dict[str, dict[str, list[float]]]:
    """CPU µs per request of two apps in this process, `setting` off and on, each on its own SQLite file:
    batches of appends, then of state reads, alternately, the order swapped each round so neither is
    always first; what the machine's load does to one falls on both."""
    clubs = {on: await _Club.open(f"sqlite:///{tempfile.mkdtemp()}/db.sqlite", {setting: on}) for on in (False, True)}
    for club in clubs.values():
        for _ in range(WARM_UP):
            await club.append(False)
    figures: dict[str, dict[str, list[float]]] = {"append": {"off": [], "on": []}, "state": {"off": [], "on": []}}
    for round_ in range(rounds):
        for on in (False, True) if round_ % 2 == 0 else (True, False):
            club = clubs[on]
            for kind, request in (("append", club.append), ("state", club.read)):
                cpu = time.process_time()
                for _ in range(batch):
                    await (request(False) if kind == "append" else club.read())
                figures[kind]["on" if on else "off"].append((time.process_time() - cpu) / batch * 1e6)
    for club in clubs.values():
        await club.close()
    return figures


def main(argv: list[str]) -> None:
    flags = [a for a in argv if a.startswith("--")]
    args = [a for a in argv if not a.startswith("--") and a not in ("cumulative", "tottime")]
    url = (args[0] if args else "") or f"sqlite:///{tempfile.mkdtemp()}/db.sqlite"
    appends = int(args[1]) if len(args) > 1 else 600
    keyed = "--keyed" in flags
    operations = {name: f"--{name}" in flags for name in ("metrics", "tracing")}
    if operations["tracing"]:
        os.environ.setdefault("OTEL_TRACES_EXPORTER", "none")  # the spans' cost, not a collector's
    if operations["metrics"]:
        os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp())
    profile = cProfile.Profile() if "--prof" in flags else None
    logging.disable(logging.CRITICAL)
    quiet, sys.stderr = sys.stderr, open(os.devnull, "w")  # noqa: SIM115 - the request log lines
    side = [a.split("=", 1)[1] for a in flags if a.startswith("--side-by-side=")]
    if side:
        os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp())
        os.environ.setdefault("OTEL_TRACES_EXPORTER", "none")
        try:
            figures = asyncio.run(_side_by_side(side[0], rounds=int(args[1]) if len(args) > 1 else 10, batch=300))
        finally:
            sys.stderr.close()
            sys.stderr = quiet
        for kind, by in figures.items():
            off, on = median(by["off"]), median(by["on"])
            rounds = len(by["on"])
            print(f"{kind}: {side[0]} off {off:.0f} us, on {on:.0f} us (medians of {rounds}), on/off {on / off:.3f}")
        return
    try:
        per_append = asyncio.run(_measure(url, appends, keyed, profile, operations))
    finally:
        sys.stderr.close()
        sys.stderr = quiet
    on = " ".join(f"{name}={value}" for name, value in operations.items())
    print(f"{url.split(':')[0]} keyed={keyed} {on} cpu/append {per_append:.0f} us")
    if profile is not None:
        out = io.StringIO()
        order = "tottime" if "tottime" in argv else "cumulative"
        pstats.Stats(profile, stream=out).sort_stats(order).print_stats(60)
        print(out.getvalue())


if __name__ == "__main__":
    main(sys.argv[1:])
