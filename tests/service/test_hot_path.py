"""The hot path on PostgreSQL awaits psycopg's async pool: an append waiting on the database holds
neither the event loop nor the requests behind it (issue 15 part 4)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psycopg
import pytest
from litestar.routes import HTTPRoute

from service.app import create_app
from service.settings import Settings
from tests.service.api_support import Api
from tests.service.test_sse import served


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
