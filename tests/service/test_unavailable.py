"""A lost database connection is a 503 problem with `Retry-After`, never a 500: the request can be sent
again (an append with the same idempotency key is stored once), and the pool recovers by itself."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import psycopg
import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.service.api_support import OPERATOR, Api
from tests.support.rulesets import RULESETS

pytestmark = pytest.mark.postgres


@pytest.fixture
def named_url(postgres_schema_url: str) -> Iterator[tuple[str, str]]:
    name = f"unavailable_{uuid.uuid4().hex[:8]}"
    yield f"{postgres_schema_url}&application_name={name}", name


def cut(url: str, application: str) -> int:
    """Terminate the app's PostgreSQL connections, as a restart or a fail-over of the server would."""
    with psycopg.connect(url, autocommit=True) as conn:
        return len(
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s", (application,)
            ).fetchall()
        )


def test_a_request_on_a_cut_connection_gets_a_503_problem_and_the_retry_is_stored_once(
    named_url: tuple[str, str], postgres_schema_url: str
) -> None:
    url, application = named_url
    app = create_app(
        Settings(database_url=url, operator_key=OPERATOR, pool_size=1, run_projector=False), rulesets=RULESETS
    )
    with TestClient(app, raise_server_exceptions=False) as client:
        api = Api(client)
        token = api.club("c1")
        api.players("c1", token, "alain", "bea")
        game = api.tally_game("c1", token)
        batch = {"expected_version": 1, "events": [{"type": "tally.rolled", "seat": 0, "face": 3}]}
        headers = api.auth(token) | {"Idempotency-Key": "roll-1"}

        assert cut(postgres_schema_url, application) >= 1
        answer = client.post(f"/clubs/c1/games/{game}/events", json=batch, headers=headers)
        assert answer.status_code == 503, answer.text
        assert answer.headers["content-type"].startswith("application/problem+json")
        assert answer.headers["retry-after"] == "1"
        assert answer.json()["type"] == "/problems/unavailable"
        assert "send the request again" in answer.json()["detail"]

        # The process holds two pools (the blocking one and its event loop's, `service.store.postgres`): each
        # finds its cut connection on its next use, so a client retrying as told may meet a second 503.
        answers = [client.post(f"/clubs/c1/games/{game}/events", json=batch, headers=headers) for _ in range(3)]
        assert [a.status_code for a in answers if a.status_code != 503][:1] == [201], [a.text for a in answers]
        assert all(a.headers.get("retry-after") == "1" for a in answers if a.status_code == 503)
        assert answers[-1].status_code == 201 and answers[-1].json()["replayed"] is True
        events = client.get(f"/clubs/c1/games/{game}/events", headers=api.auth(token)).json()
        rolls = [e for e in events["events"] if e["type"] == "tally.rolled"]
        assert len(rolls) == 1
