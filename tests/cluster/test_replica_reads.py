"""Read replicas with read-your-writes (issue 15 part 2), one node in this process against a real
streaming replica of the test server (`conftest.standby`)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

import anyio
import psycopg
import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from service.store import open_store
from service.store.base import AppendRequest, NewEvent, Recorder
from service.store.replicas import ReplicaSet, RoutedStore
from testkit.cluster import Standby, free_port, with_address
from testkit.waiting import scaled
from tests.cluster.conftest import on_replica, replay_paused
from tests.conftest import fresh_schema
from tests.service.api_support import OPERATOR, Api
from tests.service.test_projector_support import roll
from tests.support.rulesets import RULESETS

pytestmark = [pytest.mark.postgres, pytest.mark.xdist_group("cluster")]


@contextmanager
def node(schema_url: str, replicas: str, **settings: Any) -> Iterator[Api]:
    options: dict[str, Any] = {
        "database_url": schema_url,
        "read_database_urls": replicas,
        "operator_key": OPERATOR,
        "run_projector": False,
        "read_replica_check_seconds": 0.1,
        "read_replica_max_lag_seconds": 1.0,
        "read_replica_wait_seconds": 0.3,
        "snapshot_every": 5,
    }
    with TestClient(create_app(Settings(**(options | settings)), configure_logs=False, rulesets=RULESETS)) as client:
        yield Api(client)


@pytest.fixture
def schema_url(postgres_url: str) -> Iterator[str]:
    with fresh_schema(postgres_url) as url:
        yield url


def replicas_report(api: Api) -> dict[str, Any]:
    response = api.client.get("/ready", headers=api.auth(OPERATOR))
    assert response.status_code == 200, response.text
    return dict(response.json()["checks"]["replicas"])


def wait_for_status(api: Api, status: str, timeout: float = 10.0) -> dict[str, Any]:
    deadline = time.monotonic() + scaled(timeout)
    while True:
        (report,) = replicas_report(api).values()
        if report["status"] == status or time.monotonic() > deadline:
            return dict(report)
        time.sleep(0.05)


def events_seen(api: Api, token: str, game_id: str, **params: Any) -> list[int]:
    headers = api.auth(token) | params.pop("headers", {})
    response = api.client.get(f"/clubs/c1/games/{game_id}/events", headers=headers, params=params)
    assert response.status_code == 200, response.text
    return [event["version"] for event in response.json()["events"]]


def test_a_read_is_served_by_the_replica_until_the_client_names_a_position_it_has_not_replayed(
    standby: Standby, schema_url: str
) -> None:
    with node(schema_url, on_replica(standby, schema_url)) as api:
        token = api.club("c1")
        api.players("c1", token, "alain", "bea")
        game = api.tally_game("c1", token, options={"target": 1000})
        appended = api.append("c1", token, game, 1, [roll(0, 3), roll(1, 4)])
        assert appended.status_code == 201, appended.text
        position = appended.headers["Tablelog-Position"]
        assert position == appended.json()["position"]
        assert events_seen(api, token, game, headers={"Tablelog-Position": position}) == [1, 2, 3]
        assert wait_for_status(api, "in rotation")["status"] == "in rotation"

        with replay_paused(standby):
            later = api.append("c1", token, game, 3, [roll(0, 6)])
            assert later.status_code == 201, later.text
            fresh = later.headers["Tablelog-Position"]
            # Without a position the read is the replica's, which has not replayed the last append ...
            assert events_seen(api, token, game) == [1, 2, 3]
            # ... with it (header or query), the node waits for the replica, then asks the primary.
            started = time.monotonic()
            assert events_seen(api, token, game, headers={"Tablelog-Position": fresh}) == [1, 2, 3, 4]
            assert time.monotonic() - started >= 0.3
            assert events_seen(api, token, game, position=fresh) == [1, 2, 3, 4]
            # Past the lag allowed the replica leaves the rotation: every read goes to the primary.
            behind = wait_for_status(api, "behind")
            assert behind["status"] == "behind", behind
            assert behind["replay_paused"] is True
            assert behind["lag_seconds"] > 1.0 and behind["lag_bytes"] > 0
            assert events_seen(api, token, game) == [1, 2, 3, 4]
        back = wait_for_status(api, "in rotation")
        assert back["status"] == "in rotation" and back["replay_paused"] is False, back
        assert events_seen(api, token, game, headers={"Tablelog-Position": fresh}) == [1, 2, 3, 4]


def test_a_replica_that_does_not_answer_leaves_the_rotation_and_the_primary_serves_every_read(
    standby: Standby, schema_url: str
) -> None:
    nowhere = with_address(schema_url, "127.0.0.1", free_port())
    # Lag is not what this test is about: a loaded machine must not take the live replica out as well.
    with node(schema_url, f"{on_replica(standby, schema_url)},{nowhere}", read_replica_max_lag_seconds=60) as api:
        token = api.club("c1")
        api.players("c1", token, "alain", "bea")
        game = api.tally_game("c1", token, options={"target": 1000})
        for version in range(1, 9):
            appended = api.append("c1", token, game, version, [roll((version - 1) % 2, 2)])
            assert appended.status_code == 201
        # The reads name the last append's position (read-your-writes): the live replica may be a step behind.
        mine = {"Tablelog-Position": appended.headers["Tablelog-Position"]}
        reports = replicas_report(api)
        dead_port = urlsplit(nowhere).port
        assert reports[f"127.0.0.1:{standby.port}/test"]["status"] == "in rotation"
        assert reports[f"127.0.0.1:{dead_port}/test"]["status"] == "unreachable"
        assert reports[f"127.0.0.1:{dead_port}/test"]["error"] == "OperationalError"
        assert "options" not in str(reports) and "postgres@" not in str(reports)
        # Reads keep working: every one, whatever replica its turn falls on. A replay step past the
        # snapshot interval writes snapshots (a write on a GET): the primary takes it, never the replica.
        for _ in range(4):
            assert len(events_seen(api, token, game, headers=mine)) == 9
            step = api.client.get(f"/clubs/c1/games/{game}/replay/8", headers=api.auth(token) | mine)
            assert step.status_code == 200, step.text
            assert step.json()["version"] == 8


def test_without_replicas_set_an_append_still_answers_its_position_and_reads_stay_on_the_primary(
    schema_url: str,
) -> None:
    with node(schema_url, "") as api:
        assert api.client.app.state.replicas is None
        token = api.club("c1")
        api.players("c1", token, "alain", "bea")
        game = api.tally_game("c1", token)
        appended = api.append("c1", token, game, 1, [roll(0, 3)])
        sealed = appended.headers["Tablelog-Position"]
        assert sealed == appended.json()["position"]
        # The position of the event it wrote (not the head: another session's open transaction on the
        # same server may hold the readable head back, as the read gate must).
        store = api.client.app.state.store
        written = store.read_stream(store.get_game("c1", game).stream_id)[-1].position
        assert api.opened("c1", sealed) == written
        assert "replicas" not in api.client.get("/ready", headers=api.auth(OPERATOR)).json()["checks"]


def test_a_long_request_reading_a_replica_moves_to_the_primary_once_the_replica_leaves_the_rotation(
    standby: Standby, schema_url: str
) -> None:
    """What a live stream relies on: it reads through one routed store for as long as it is open."""
    primary = open_store(schema_url)
    replicas = ReplicaSet(schema_url, [on_replica(standby, schema_url)], check_seconds=0.1, max_lag_seconds=60)
    try:
        primary.migrate()
        primary.create_club("c1", "Club")
        first = primary.append(
            AppendRequest(
                "s-1", [NewEvent(type="t", schema_version=1, data=b"{}")], 0, recorded_by=Recorder(club_id="c1")
            )
        )
        replicas.check()
        routed = anyio.run(replicas.read_store, primary, first.positions[-1])
        assert isinstance(routed, RoutedStore) and routed.replica is not None
        assert routed.stream_version("s-1") == 1
        with replay_paused(standby):
            primary.append(
                AppendRequest(
                    "s-1", [NewEvent(type="t", schema_version=1, data=b"{}")], 1, recorded_by=Recorder(club_id="c1")
                )
            )
            assert routed.stream_version("s-1") == 1  # the replica's answer, one append behind
            replicas.failed(replicas.replicas[0], psycopg.OperationalError("gone"))
            assert replicas.reports()[replicas.replicas[0].name].status == "unreachable"
            assert routed.stream_version("s-1") == 2  # the primary's, from now on
            assert routed.replica is None
            # A new request with nothing in rotation reads the primary itself.
            assert anyio.run(replicas.read_store, primary, None) is primary
    finally:
        replicas.close()
        primary.close()
