"""Live spectating over a real server (uvicorn in a thread) on both backends: steps arrive in order
with the public state, a spectator resumes with Last-Event-ID without loss or duplicates, and a
spectator delay holds steps back."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
import uvicorn

from domain.record import decoder, fold
from domain.ruleset import Viewer
from service.app import create_app
from service.settings import Settings
from service.store.base import Store, game_stream
from testkit import tally
from testkit.waiting import wait_until
from tests.service.api_support import OPERATOR, Api
from tests.service.test_projector_support import append, as_json, correction, free_port, roll
from tests.support.rulesets import RULESETS


class Served:
    """A real server in a thread, with an API client for setting games up."""

    def __init__(self, base: str, app: Any) -> None:
        self.base = base
        self.app = app
        self.api = Api(httpx.Client(base_url=base, timeout=10), app)

    @property
    def store(self) -> Store:
        return self.app.state.store  # type: ignore[no-any-return]


@contextmanager
def served(database_url: str, **overrides: Any) -> Iterator[Served]:
    port = free_port()
    settings = (
        dict(
            operator_key=OPERATOR,
            log_format="json",
            live_poll_seconds=0.05,
            live_keepalive_seconds=0.1,
            run_projector=False,
        )
        | overrides
    )
    app = create_app(Settings(database_url=database_url, **settings), rulesets=RULESETS)
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, access_log=False, timeout_graceful_shutdown=1)
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_until(lambda: server.started, "the live server", 20, runner=thread, interval=0.02)
    site = Served(f"http://127.0.0.1:{port}", app)
    try:
        yield site
    finally:
        site.api.client.close()
        server.should_exit = True
        thread.join(10)


class EventStream:
    """A server-sent event stream read in a thread: each whole event's fields go to `told`, and what it
    returns (None: nothing) is queued for the test to take."""

    def __init__(self, site: Served, url: str, headers: dict[str, str]) -> None:
        self.client = httpx.Client(base_url=site.base, timeout=httpx.Timeout(10, read=None))
        self.url = url
        self.headers = headers
        self.received: queue.Queue[Any] = queue.Queue()
        self.status: int | None = None
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def told(self, fields: dict[str, str]) -> Any:
        """What an event gives the test (None: nothing)."""
        raise NotImplementedError

    def _read(self) -> None:
        fields: dict[str, str] = {}
        try:
            with self.client.stream("GET", self.url, headers=self.headers) as response:
                self.status = response.status_code
                for line in response.iter_lines():
                    if self.stopping.is_set():
                        return  # the server sends a comment every 0.1 s, so this comes soon
                    if line.startswith(":"):
                        continue
                    if line:
                        name, _, value = line.partition(":")
                        fields[name] = value.removeprefix(" ")
                        continue
                    item = self.told(fields)
                    if item is not None:
                        self.received.put(item)
                    fields = {}
        except (httpx.HTTPError, RuntimeError):  # closed by the test
            return

    def nothing_within(self, seconds: float) -> bool:
        """True when nothing arrives for `seconds`."""
        try:
            self.received.get(timeout=seconds)
        except queue.Empty:
            return True
        return False

    def close(self) -> None:
        """Hang up (as a browser tab closing would)."""
        self.stopping.set()
        self.thread.join(5)
        assert not self.thread.is_alive()
        self.client.close()


class Spectator(EventStream):
    """Reads a game's live stream in a thread; the test takes the steps as they come."""

    def __init__(self, site: Served, token: str, game_id: str, last_event_id: int | None = None) -> None:
        headers = Api.auth(token) | ({"Last-Event-ID": str(last_event_id)} if last_event_id is not None else {})
        super().__init__(site, f"/clubs/c1/games/{game_id}/live", headers)

    def told(self, fields: dict[str, str]) -> tuple[int, dict[str, Any]] | None:
        return (int(fields["id"]), json.loads(fields["data"])) if fields.get("event") == "step" else None

    def take(self, count: int, timeout: float = 10) -> list[tuple[int, dict[str, Any]]]:
        """The next `count` steps, waiting up to `timeout` seconds in all."""
        deadline = time.monotonic() + timeout
        return [self.received.get(timeout=max(0.01, deadline - time.monotonic())) for _ in range(count)]


@pytest.fixture
def site(database_url: str) -> Iterator[Served]:
    with served(database_url) as running:
        yield running


def new_game(site: Served) -> tuple[str, str]:
    token = site.api.club("c1")
    site.api.players("c1", token, "alain", "bea")
    return token, site.api.tally_game("c1", token, options={"target": 30})


def check_steps(site: Served, game_id: str, received: list[tuple[int, dict[str, Any]]], first: int) -> None:
    """Ids follow on from `first` and each step carries its narration and the public state after it."""
    events = [decoder(tally.RULESET).decode(e.data) for e in site.store.read_stream(game_stream("c1", game_id))]
    assert [version for version, _ in received] == list(range(first, first + len(received)))
    for version, data in received:
        assert data["step"]["version"] == version
        assert data["state"] == as_json(
            tally.RULESET.view(fold(tally.RULESET, events[:version]).state, Viewer.public())
        )
        assert "turn" not in data["state"]  # the public view, not the full one


def test_a_spectator_receives_every_step_in_order_with_the_public_state(site: Served) -> None:
    token, game_id = new_game(site)
    append(site.api, token, game_id, [roll(0, 3), roll(1, 5)])
    spectator = Spectator(site, token, game_id)
    try:
        received = spectator.take(3)
        assert received[0][1]["step"]["text"].startswith("A game of Tally (test ruleset) starts")
        append(site.api, token, game_id, [roll(0, 6), correction(1, "wrong die")])
        append(site.api, token, game_id, [roll(0, 2)])
        received += spectator.take(3)
        assert [data["step"]["text"] for _, data in received[3:]] == [
            "Seat 0 rolls a 6",
            "Correction: voids the last event (wrong die).",
            "Seat 0 rolls a 2",
        ]
        check_steps(site, game_id, received, first=1)
        assert spectator.status == 200
    finally:
        spectator.close()


def test_a_spectator_resumes_with_last_event_id_without_loss_or_duplicates(site: Served) -> None:
    token, game_id = new_game(site)
    append(site.api, token, game_id, [roll(0, 3), roll(1, 4)])
    first = Spectator(site, token, game_id)
    try:
        seen = first.take(3)
    finally:
        first.close()
    # While the spectator is away the game goes on, with a correction.
    append(site.api, token, game_id, [roll(0, 6), roll(1, 6), correction(2), roll(0, 1)])
    again = Spectator(site, token, game_id, last_event_id=seen[-1][0])
    try:
        resumed = again.take(4)
        assert again.nothing_within(0.3), "a step was sent twice or out of turn"
        append(site.api, token, game_id, [roll(1, 2)])
        resumed += again.take(1)
    finally:
        again.close()
    check_steps(site, game_id, seen + resumed, first=1)


def test_a_delayed_stream_holds_steps_back_by_events_and_by_seconds(site: Served) -> None:
    token, game_id = new_game(site)
    delay = site.api.client.put(
        f"/clubs/c1/games/{game_id}/spectator-delay", json={"events": 2}, headers=Api.auth(token)
    )
    assert delay.status_code == 200 and delay.json() == {"events": 2, "seconds": 0}
    append(site.api, token, game_id, [roll(0, 1), roll(1, 1), roll(0, 1), roll(1, 1)])  # versions 2 to 5
    spectator = Spectator(site, token, game_id)
    try:
        received = spectator.take(3)
        assert [v for v, _ in received] == [1, 2, 3]
        assert spectator.nothing_within(0.5), "a step came out less than two events behind the record"
        append(site.api, token, game_id, [roll(0, 2)])  # version 6 releases version 4
        received += spectator.take(1)
        assert received[-1][0] == 4
        assert spectator.nothing_within(0.3)
        # Now by time: a step comes out once it is a second old, not before.
        by_time = site.api.client.put(
            f"/clubs/c1/games/{game_id}/spectator-delay", json={"seconds": 1}, headers=Api.auth(token)
        )
        assert by_time.json() == {"events": 0, "seconds": 1}
        received += spectator.take(2, timeout=5)
        recorded = time.monotonic()
        append(site.api, token, game_id, [roll(1, 2)])
        assert spectator.nothing_within(0.6), "a step came out less than a second after it was recorded"
        received += spectator.take(1, timeout=5)
        assert time.monotonic() - recorded >= 0.9
        check_steps(site, game_id, received, first=1)
    finally:
        spectator.close()
