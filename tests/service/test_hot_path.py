"""The hot path on PostgreSQL awaits psycopg's async pool: an append waiting on the database holds
neither the event loop nor the requests behind it (issue 15 part 4)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import psycopg
import pytest

from tests.service.api_support import Api
from tests.service.test_sse import served

pytestmark = pytest.mark.postgres


def rolled(seat: int, face: int) -> dict[str, object]:
    return {"type": "tally.rolled", "seat": seat, "face": face}


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
