"""The projector's lag is visible: `/ready` tells the operator (and no one else) how many events each
projection has not applied and how old the oldest of them is; past a threshold the logs warn."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
import structlog
from litestar.testing import TestClient

from service import __version__
from service.app import create_app
from service.projector import PROJECTION_NAMES, LagWatch, lags
from service.settings import Settings
from service.store import open_store
from service.store.base import AppendRequest, NewEvent, Recorder, Store
from testkit.waiting import scaled
from tests.service.api_support import OPERATOR, Api
from tests.support.rulesets import RULESETS

BY = Recorder(club_id="c1")


def rolled(seat: int) -> dict[str, Any]:
    return {"type": "tally.rolled", "seat": seat, "face": 1}


@pytest.fixture
def stalled(database_url: str) -> Iterator[tuple[Api, str, str]]:
    """A site whose projector does not run, with a game of 3 events."""
    settings = Settings(database_url=database_url, operator_key=OPERATOR, run_projector=False, log_format="json")
    with TestClient(create_app(settings, rulesets=RULESETS)) as client:
        api = Api(client)
        token = api.club("c1")
        api.players("c1", token, "alain", "bea")
        game_id = api.tally_game("c1", token)
        assert api.append("c1", token, game_id, 1, [rolled(0), rolled(1)]).status_code == 201
        yield api, token, game_id


def test_ready_tells_the_operator_each_projections_lag_in_events_and_seconds(stalled: tuple[Api, str, str]) -> None:
    api, _, _ = stalled
    time.sleep(0.3)
    checks = api.client.get("/ready", headers=api.auth(OPERATOR)).json()["checks"]
    games = checks["projections"]["games"]
    assert games["checkpoint"] == 0 and games["lag"] == 3
    assert 0.3 <= games["lag_seconds"] < 60


def test_ready_tells_anyone_else_only_the_status(stalled: tuple[Api, str, str]) -> None:
    api, token, _ = stalled
    bare = {"status": "ready", "version": __version__, "checks": {}}
    assert api.client.get("/ready").json() == bare
    assert api.client.get("/ready", headers=api.auth(token)).json() == bare


def test_a_caught_up_projection_has_no_lag(database_url: str) -> None:
    store = open_store(database_url)
    try:
        store.migrate()
        assert {n: (lag.lag, lag.lag_seconds) for n, lag in lags(store, PROJECTION_NAMES).items()} == {
            "games": (0, 0.0)
        }
    finally:
        store.close()


def test_the_logs_warn_while_a_projection_is_past_the_threshold(database_url: str) -> None:
    store = open_store(database_url)
    try:
        store.migrate()
        watch = LagWatch(store, PROJECTION_NAMES, warn_seconds=0.2, every=0.0)
        with structlog.testing.capture_logs() as logs:
            assert watch.look() == {}  # nothing recorded: nothing late
            store.append(AppendRequest("g1", [NewEvent(type="x.y", schema_version=1, data=b"{}")], 0, recorded_by=BY))
            assert watch.look() == {}  # recorded just now: not yet past 0.2 s
            time.sleep(0.3)
            late = watch.look()
        assert set(late) == {"games"} and late["games"].lag == 1
        warned = [line for line in logs if line["event"] == "projector.lagging"]
        assert len(warned) == 1 and warned[0]["projection"] == "games" and warned[0]["lag_seconds"] >= 0.3
        assert warned[0]["log_level"] == "warning"
    finally:
        store.close()


@pytest.mark.postgres
def test_a_transaction_left_open_elsewhere_holds_the_projector_back_and_the_lag_shows_it(
    postgres_schema_url: str,
) -> None:
    store: Store = open_store(postgres_schema_url)
    holder = psycopg.connect(postgres_schema_url)
    try:
        store.migrate()
        holder.execute("SELECT pg_current_xact_id()")  # a transaction that has written nothing, left open
        store.append(AppendRequest("g1", [NewEvent(type="x.y", schema_version=1, data=b"{}")], 0, recorded_by=BY))
        assert store.read_all() == []  # the read gate: nothing past the oldest open transaction
        assert lags(store, PROJECTION_NAMES)["games"].lag == 1
        holder.rollback()
        # Other tests' transactions on the same server hold the gate too, briefly: wait for them.
        deadline = time.monotonic() + scaled(10)
        while not store.read_all() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert [e.stream_id for e in store.read_all()] == ["g1"]
    finally:
        holder.close()
        store.close()
