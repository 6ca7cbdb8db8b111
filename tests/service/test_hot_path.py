"""The hot path on PostgreSQL awaits psycopg's async pool: an append waiting on the database holds
neither the event loop nor the requests behind it (issue 15 part 4)."""

from __future__ import annotations

import re
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from litestar.routes import HTTPRoute
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from service.store.async_events import InThreads
from tests.service.api_support import OPERATOR, Api
from tests.service.test_sse import served
from tests.support.rulesets import RULESETS


def rolled(seat: int, face: int) -> dict[str, object]:
    return {"type": "tally.rolled", "seat": seat, "face": face}


@pytest.mark.postgres
def test_an_append_waiting_on_postgresql_leaves_the_loop_to_other_requests(postgres_schema_url: str) -> None:
    with served(postgres_schema_url) as site:
        token = site.api.club("c1")
        site.api.players("c1", token, "alain", "bea")
        game_id = site.api.tally_game("c1", token)
        assert site.api.append("c1", token, game_id, 1, [rolled(0, 3)]).status_code == 201
        with psycopg.connect(postgres_schema_url) as locker, ThreadPoolExecutor(1) as pool:
            # Until this transaction ends, every INSERT into the events table waits (reads do not).
            locker.execute("LOCK TABLE events IN SHARE MODE")

            def append() -> int:
                with httpx.Client(base_url=site.base, timeout=30) as client:
                    return Api(client).append("c1", token, game_id, 2, [rolled(1, 4)]).status_code

            waiting = pool.submit(append)
            time.sleep(0.3)
            assert not waiting.done(), "the append did not wait on the lock"
            with httpx.Client(base_url=site.base, timeout=2) as client:
                started = time.monotonic()
                assert client.get("/health").status_code == 200
                state = client.get(f"/clubs/c1/games/{game_id}/state", headers=Api.auth(token))
                assert state.status_code == 200 and state.json()["version"] == 2
                assert time.monotonic() - started < 1.5
            assert not waiting.done()
            locker.commit()
            assert waiting.result(timeout=10) == 201


def test_no_handler_resolves_its_dependencies_in_a_task_group(tmp_path: Path) -> None:
    """Litestar resolves the dependencies of one level concurrently in a task group, a third of an
    append's CPU in process (bench/README.md): every handler's dependencies come one per level."""
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'db.sqlite'}", log_format="json"))
    checked = []
    for route in app.routes:
        if not isinstance(route, HTTPRoute):
            continue
        for method, (_handler, kwargs_model) in route.route_handler_map.items():
            levels = [sorted(d.key for d in batch) for batch in kwargs_model.dependency_batches]
            assert all(len(level) == 1 for level in levels), f"{method} {route.path}: {levels}"
            checked.append(levels)
    # Every handler that reads or writes records takes them in the one `context` (no chain of
    # dependencies, one level each), and enough routes take it that the check means something.
    assert not [levels for levels in checked if ["records"] in levels or ["recorder"] in levels]
    assert sum(1 for levels in checked if ["context"] in levels) > 20


# The five calls a tap or an append may make of the event store (`service.store.async_events.AsyncEvents`);
# each is one statement, or one transaction, at the database.
_STORE_CALLS = ("append", "replayed_append", "read_stream", "stream_version", "get_game")


def _counting(target: object, label: str, calls: list[tuple[str, str]], monkeypatch: pytest.MonkeyPatch) -> None:
    for name in _STORE_CALLS:
        method = getattr(target, name)

        def counted(*args: Any, _name: str = name, _method: Any = method, **kwargs: Any) -> Any:
            calls.append((label, _name))
            return _method(*args, **kwargs)

        monkeypatch.setattr(target, name, counted)


def test_a_recorders_tap_makes_two_statements_on_the_loops_store_and_an_append_one(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32: a tap of the recording page is the append and one read of the events its narration has not
    told (the game's identity, fold, link, narration and choices are remembered), awaited as the API's
    append is: no call of the blocking store from a worker thread, where the loop's store exists."""
    settings = Settings(database_url=database_url, operator_key=OPERATOR, log_format="json")
    with TestClient(create_app(settings, rulesets=RULESETS)) as client:
        api = Api(client)
        token = api.club("c1")
        api.players("c1", token, "alain", "bea")
        game_id = api.tally_game("c1", token)
        form = client.get("/sign-in").text
        csrf = re.search(r'name="_csrf_token" value="([^"]+)"', form)
        assert csrf is not None
        assert client.post("/sign-in", data={"key": token, "_csrf_token": csrf[1]}).status_code in (200, 303)
        page = client.get(f"/club/c1/games/{game_id}/record")
        meta = re.search(r'name="csrf-token" content="([^"]+)"', page.text)
        assert page.status_code == 200 and meta is not None
        records = client.app.state.records
        calls: list[tuple[str, str]] = []
        _counting(records.loop_store, "loop", calls, monkeypatch)
        if records.store is not records.loop_store:
            _counting(records.store, "store", calls, monkeypatch)
        in_threads = isinstance(records.loop_store, InThreads)  # SQLite: the loop's store hops to a thread

        def tapped(version: int, face: int) -> dict[str, Any]:
            calls.clear()
            answer = client.post(
                f"/club/c1/games/{game_id}/record/events",
                json={"expected_version": version, "events": [rolled((version - 1) % 2, face)]},
                headers={"x-csrftoken": meta[1], "Idempotency-Key": f"tap-{version}"},
            )
            assert answer.status_code == 201, answer.text
            body: dict[str, Any] = answer.json()
            return body

        for version, face in enumerate((1, 2, 1, 2), start=1):
            body = tapped(version, face)
            assert body["appended"]["last_version"] == body["choices"]["version"] == version + 1
            assert body["choices"]["told"][-1]["text"] == f"Seat {(version - 1) % 2} rolls a {face}"
            loop = [name for label, name in calls if label == "loop"]
            assert loop == ["append", "read_stream"], calls
            assert [name for label, name in calls if label == "store"] == (loop if in_threads else []), calls
        # The choices after a tap are the page's: the same answer a fresh page reads (no statement kept out).
        fresh = client.get(f"/club/c1/games/{game_id}/record/choices").json()
        assert fresh == body["choices"]
        calls.clear()
        assert api.append("c1", token, game_id, 5, [rolled(0, 1)]).status_code == 201
        assert [name for label, name in calls if label == "loop"] == ["append"], calls


def test_a_latest_state_read_reads_nothing_while_nothing_was_committed_on_sqlite(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32 part 3: a read of the latest state whose remembered fold is known current makes no read of
    the record. SQLite tells it with a pragma (`data_version`, moved by any other connection's commit, in
    any process) and a count of this database's own writes; PostgreSQL cannot without a statement, so
    there every read reads what the fold lacks."""
    settings = Settings(database_url=database_url, operator_key=OPERATOR, log_format="json", run_projector=False)
    with TestClient(create_app(settings, rulesets=RULESETS)) as client:
        api = Api(client)
        token, game_id = api.played_game("c1", [rolled(0, 3)])
        records = client.app.state.records
        calls: list[tuple[str, str]] = []
        _counting(records.loop_store, "loop", calls, monkeypatch)
        knows = isinstance(records.loop_store, InThreads)  # SQLite's loop store

        def read() -> tuple[int, list[str]]:
            calls.clear()
            answer = client.get(f"/clubs/c1/games/{game_id}/state", headers=api.auth(token))
            assert answer.status_code == 200, answer.text
            return int(answer.json()["version"]), [name for _, name in calls]

        # The append left the fold remembered, not known current: one read finds nothing new, then none.
        assert read() == (2, ["read_stream"])
        assert read() == (2, [] if knows else ["read_stream"])
        assert read() == (2, [] if knows else ["read_stream"])
        # Another server on the same database (another connection: another process would do the same).
        with TestClient(create_app(settings, rulesets=RULESETS)) as other:
            assert Api(other).append("c1", token, game_id, 2, [rolled(1, 4)]).status_code == 201
        assert read() == (3, ["read_stream"])
        assert read() == (3, [] if knows else ["read_stream"])
        # Any write of this process, to any table, moves the token too: one read, nothing new in the game.
        api.players("c1", token, "carla")
        assert read() == (3, ["read_stream"])
        # This process's own append: seen at once.
        assert api.append("c1", token, game_id, 3, [rolled(0, 5)]).status_code == 201
        assert read() == (4, ["read_stream"])
        assert read() == (4, [] if knows else ["read_stream"])
        # A raw write by hand through another connection (no tablelog code at all) moves it as well.
        if knows:
            path = database_url.removeprefix("sqlite:///")
            with closing(sqlite3.connect(path)) as raw, raw:
                raw.execute("UPDATE clubs SET name = 'Renamed' WHERE club_id = 'c1'")
            assert read() == (4, ["read_stream"])
