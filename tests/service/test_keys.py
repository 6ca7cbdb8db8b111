"""Scoped, revocable keys (issue 13 part 3) over a real server on both backends: what each scope may do
(status and problem body), keys listed, named and revoked over the API, expiry, a revocation seen by
every process at once, and live streams that end when their key is revoked."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from service.usecases.access import new_key
from testkit.waiting import scaled
from tests.service.api_support import OPERATOR, Api
from tests.service.test_projector_support import append, roll
from tests.service.test_sse import Served, Spectator, served
from tests.support.rulesets import RULESETS

SCOPES = ("record", "read", "spectate")


class Club:
    """Club c1 with one key of each scope and a game of three steps whose spectators run one event behind."""

    def __init__(self, site: Served) -> None:
        self.site = site
        self.api = site.api
        self.record = self.api.club("c1")
        self.api.players("c1", self.record, "alain", "bea")
        self.game = self.api.tally_game("c1", self.record, options={"target": 30})
        append(self.api, self.record, self.game, [roll(0, 3), roll(1, 5)])
        delayed = self.api.client.put(
            f"/clubs/c1/games/{self.game}/spectator-delay", json={"events": 1}, headers=Api.auth(self.record)
        )
        assert delayed.status_code == 200, delayed.text
        self.tokens = {"record": self.record} | {scope: self.key(scope)["token"] for scope in ("read", "spectate")}

    def key(self, scope: str, as_token: str = OPERATOR, **extra: Any) -> dict[str, Any]:
        created = self.api.client.post(
            "/clubs/c1/keys", json={"name": f"{scope} key", "scope": scope} | extra, headers=Api.auth(as_token)
        )
        assert created.status_code == 201, created.text
        return dict(created.json())


@pytest.fixture
def club(database_url: str) -> Iterator[Club]:
    with served(database_url) as site:
        yield Club(site)


def problem(response: httpx.Response, status: int, *fragments: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["status"] == status
    for fragment in fragments:
        assert fragment in body["detail"], body


# scope -> operation -> (status, what the body shows or the problem's detail says); writes come last, as
# they move the game on.
FORBIDDEN_WRITE = (403, "may not change the record")
FORBIDDEN_HIDDEN = (403, "public view only")
FORBIDDEN_READ = (403, "public views only")
EXPECTED: dict[str, dict[str, tuple[int, str]]] = {
    "record": {
        "full view": (200, "turn"),
        "seat view": (200, ""),
        "public view": (200, "3"),
        "events": (200, ""),
        "replay": (200, "3"),
        "replay step": (200, ""),
        "live": (200, "2"),
        "write": (201, ""),
    },
    "read": {
        "full view": (200, "turn"),
        "seat view": (200, ""),
        "public view": (200, "3"),
        "events": (200, ""),
        "replay": (200, "3"),
        "replay step": (200, ""),
        "live": (200, "2"),
        "write": FORBIDDEN_WRITE,
    },
    "spectate": {
        "full view": FORBIDDEN_HIDDEN,
        "seat view": FORBIDDEN_HIDDEN,
        "public view": (200, "2"),
        "events": FORBIDDEN_READ,
        "replay": (200, "2"),
        "replay step": (404, "up to step 2"),
        "live": (200, "2"),
        "write": FORBIDDEN_WRITE,
    },
}


def operate(club: Club, scope: str, operation: str) -> httpx.Response | list[int]:
    client, token, game = club.api.client, club.tokens[scope], club.game
    headers = Api.auth(token)
    base = f"/clubs/c1/games/{game}"
    if operation == "write":
        return club.api.append("c1", token, game, 3, [roll(0, 1)])
    if operation == "live":
        spectator = Spectator(club.site, token, game)
        try:
            steps = [version for version, _ in spectator.take(2)]
            assert spectator.nothing_within(0.3)
            return steps
        finally:
            spectator.close()
    path = {
        "full view": "/state?view=full",
        "seat view": "/state?view=seat&seat=0",
        "public view": "/state",
        "events": "/events",
        "replay": "/replay",
        "replay step": "/replay/3?view=public",
    }[operation]
    return client.get(base + path, headers=headers)


@pytest.mark.parametrize("scope", SCOPES)
def test_each_scope_may_do_what_its_row_of_the_matrix_says_and_no_more(club: Club, scope: str) -> None:
    for operation, (status, shows) in EXPECTED[scope].items():
        outcome = operate(club, scope, operation)
        if isinstance(outcome, list):  # the live stream (the spectators' stream, delayed for every scope)
            assert outcome == list(range(1, int(shows) + 1)), (scope, operation)
            continue
        if status >= 400:
            problem(outcome, status, shows)
            continue
        assert outcome.status_code == status, (scope, operation, outcome.text)
        body = outcome.json()
        if operation == "public view":
            assert body["version"] == int(shows) and "turn" not in body["state"], (scope, body)
        elif operation == "full view":
            assert shows in body["state"]
        elif operation == "replay":
            assert len(body["steps"]) == int(shows), (scope, body)


def test_a_key_reaches_only_its_own_club_whatever_its_scope(club: Club) -> None:
    other = club.api.club("c2")
    for token in [*club.tokens.values(), other]:
        if token == other:
            continue
        problem(club.api.client.get("/clubs/c2/games", headers=Api.auth(token)), 403, "another club")


def test_keys_are_listed_named_and_revoked_over_the_api_by_the_operator_or_the_clubs_record_key(club: Club) -> None:
    client = club.api.client
    made = club.key("read", as_token=club.record)  # a record key may hand out read and spectate keys
    assert made["scope"] == "read" and made["token"].startswith("tl_")
    problem(
        client.post("/clubs/c1/keys", json={"name": "x", "scope": "record"}, headers=Api.auth(club.record)),
        403,
        "Only the operator key may create record keys",
    )
    listed = client.get("/clubs/c1/keys", headers=Api.auth(club.record))
    assert listed.status_code == 200
    keys = {k["key_id"]: k for k in listed.json()}
    assert {k["scope"] for k in keys.values()} == {"record", "read", "spectate"}
    assert made["key_id"] in keys and "token" not in keys[made["key_id"]] and "secret_hash" not in listed.text
    renamed = client.patch(f"/clubs/c1/keys/{made['key_id']}", json={"name": "door tablet"}, headers=Api.auth(OPERATOR))
    assert renamed.status_code == 200 and renamed.json()["name"] == "door tablet"
    problem(client.get("/clubs/c1/keys", headers=Api.auth(club.tokens["read"])), 403, "manage the club's keys")
    problem(client.post("/clubs/c1/keys/nope/revoke", headers=Api.auth(club.record)), 404)
    assert client.get("/clubs/c1/players", headers=Api.auth(made["token"])).status_code == 200
    revoked = client.post(f"/clubs/c1/keys/{made['key_id']}/revoke", headers=Api.auth(club.record))
    assert revoked.status_code == 200 and revoked.json()["revoked_at"] is not None
    problem(client.get("/clubs/c1/players", headers=Api.auth(made["token"])), 401)
    # Another club's record key cannot touch these keys.
    other = club.api.club("c2")
    problem(client.post(f"/clubs/c1/keys/{made['key_id']}/revoke", headers=Api.auth(other)), 403, "another club")


def test_an_expired_key_is_refused_and_an_expiry_in_the_past_is_refused_at_creation(club: Club) -> None:
    store = club.site.store
    key_id, token, secret_hash = new_key()
    store.create_api_key(key_id, "c1", "yesterday", secret_hash, "read", datetime.now(UTC) - timedelta(seconds=1))
    problem(club.api.client.get("/clubs/c1/players", headers=Api.auth(token)), 401)
    soon = club.key("read", expires_at=(datetime.now(UTC) + timedelta(seconds=1)).isoformat())
    assert club.api.client.get("/clubs/c1/players", headers=Api.auth(soon["token"])).status_code == 200
    time.sleep(1.1)
    problem(club.api.client.get("/clubs/c1/players", headers=Api.auth(soon["token"])), 401)
    late = club.api.client.post(
        "/clubs/c1/keys",
        json={"name": "x", "scope": "read", "expires_at": "2001-01-01T00:00:00Z"},
        headers=Api.auth(OPERATOR),
    )
    assert late.status_code == 422 and late.json()["code"] == "expiry_in_the_past"


def test_a_live_stream_ends_when_its_key_is_revoked_and_cannot_reconnect(club: Club) -> None:
    read = club.key("read")
    spectator = Spectator(club.site, read["token"], club.game)
    try:
        assert [v for v, _ in spectator.take(2)] == [1, 2]  # one event behind
        revoked = club.api.client.post(f"/clubs/c1/keys/{read['key_id']}/revoke", headers=Api.auth(OPERATOR))
        assert revoked.status_code == 200
        spectator.thread.join(5)
        assert not spectator.thread.is_alive(), "the stream stayed open after its key was revoked"
    finally:
        spectator.close()
    again = Spectator(club.site, read["token"], club.game)
    again.thread.join(5)
    assert again.status == 401
    again.close()


@contextmanager
def two_processes(database_url: str) -> Iterator[tuple[TestClient[Any], TestClient[Any], str, str]]:
    """Two app instances (as two workers) on one database, and a club key made through the first: its token
    and its id."""
    settings = Settings(database_url=database_url, operator_key=OPERATOR, log_format="json", run_projector=False)
    with (
        TestClient(create_app(settings, rulesets=RULESETS)) as first,
        TestClient(create_app(settings, rulesets=RULESETS)) as second,
    ):
        token = Api(first).club("c1")
        yield first, second, token, token.split("_")[1]


def test_a_revocation_on_one_process_is_refused_on_the_next_request_of_another(database_url: str) -> None:
    """Two app instances (as two workers) on one database, each remembering the key it has seen."""
    with two_processes(database_url) as (first, second, token, key_id):
        for worker in (first, second, first, second):  # both remember it now
            assert worker.get("/clubs/c1/players", headers=Api.auth(token)).status_code == 200
        revoked = first.post(f"/clubs/c1/keys/{key_id}/revoke", headers=Api.auth(OPERATOR))
        assert revoked.status_code == 200
        refused = second.get("/clubs/c1/players", headers=Api.auth(token))
        assert refused.status_code == 401 and refused.json()["type"] == "/problems/unauthorized"
        assert first.get("/clubs/c1/players", headers=Api.auth(token)).status_code == 401


@pytest.mark.postgres
def test_a_process_that_lost_its_listening_connection_reads_the_counter_and_refuses_a_revoked_key_at_once(
    postgres_schema_url: str,
) -> None:
    """Issue 15: revocations are heard (LISTEN/NOTIFY), not read per request. While a process's listening
    connection is down it reads the counter on each request again, so it never serves a revoked key."""
    import psycopg

    with two_processes(postgres_schema_url) as (first, second, token, key_id):
        for worker in (first, second):
            assert worker.get("/clubs/c1/players", headers=Api.auth(token)).status_code == 200
        hub = second.app.state.hub
        assert hub.listening
        hub.listener.retry_seconds = 60  # stays down for the test
        with psycopg.connect(postgres_schema_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (hub.listener.backend_pid,))
        deadline = time.monotonic() + scaled(5)
        while hub.listening:
            assert time.monotonic() < deadline, "the lost listening connection was not noticed"
            time.sleep(0.01)
        # The second process still remembers the key, and hears nothing now.
        assert second.get("/clubs/c1/players", headers=Api.auth(token)).status_code == 200
        assert first.post(f"/clubs/c1/keys/{key_id}/revoke", headers=Api.auth(OPERATOR)).status_code == 200
        refused = second.get("/clubs/c1/players", headers=Api.auth(token))
        assert refused.status_code == 401 and refused.json()["type"] == "/problems/unauthorized"


@pytest.mark.postgres
def test_a_process_listens_again_after_its_connection_is_killed_and_hears_the_next_revocation(
    postgres_schema_url: str,
) -> None:
    import psycopg

    with two_processes(postgres_schema_url) as (first, second, token, key_id):
        listener = second.app.state.hub.listener
        listener.retry_seconds = 0.05
        killed = listener.backend_pid
        with psycopg.connect(postgres_schema_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (killed,))
        deadline = time.monotonic() + scaled(5)
        while listener.connections < 2 or not second.app.state.hub.listening:
            assert time.monotonic() < deadline, "the listening connection was not made again"
            time.sleep(0.01)
        assert listener.backend_pid != killed
        assert second.get("/clubs/c1/players", headers=Api.auth(token)).status_code == 200
        assert first.post(f"/clubs/c1/keys/{key_id}/revoke", headers=Api.auth(OPERATOR)).status_code == 200
        assert second.get("/clubs/c1/players", headers=Api.auth(token)).status_code == 401
        assert second.app.state.hub.heard_generation >= 1  # heard, not read


@pytest.mark.postgres
def test_a_listening_process_reads_no_revocation_counter_per_request_yet_refuses_a_key_revoked_elsewhere(
    postgres_schema_url: str,
) -> None:
    with two_processes(postgres_schema_url) as (first, second, token, key_id):
        store = second.app.state.store
        reads = [0]
        original = store.access_generation

        def counted() -> int:
            reads[0] += 1
            return int(original())

        store.access_generation = counted
        for _ in range(5):
            assert second.get("/clubs/c1/players", headers=Api.auth(token)).status_code == 200
        assert reads[0] == 0, "a listening process read the counter on a request"
        assert first.post(f"/clubs/c1/keys/{key_id}/revoke", headers=Api.auth(OPERATOR)).status_code == 200
        assert second.get("/clubs/c1/players", headers=Api.auth(token)).status_code == 401
        assert reads[0] == 0


def club_routes(app: Any) -> list[tuple[str, str]]:
    """(method, path format) of every API route under a club that the API guard stands before."""
    from service.http.guards import authorize

    found = []
    for route in app.routes:
        for handler in getattr(route, "route_handlers", ()):
            if "{club_id" not in route.path_format or authorize not in handler.resolve_guards():
                continue
            for method in sorted(handler.http_methods - {"HEAD", "OPTIONS"}):
                found.append((method, route.path_format))
    return found


def test_no_route_under_a_club_answers_a_key_of_another_club(club: Club) -> None:
    """Club authorisation lives in the guard alone: every route under `/clubs/{club_id}` refuses another
    club's key with a 403 before its handler runs, whatever the rest of the request holds."""
    other = club.api.club("c2")
    routes = club_routes(club.site.app)
    assert len(routes) >= 40  # every controller's routes, not a few
    for method, path in routes:
        url = path.replace("{club_id}", "c1").replace("{game_id}", club.game)
        # Every other path parameter gets a made-up value: the guard answers before anything is looked up.
        url = re.sub(r"\{[a-z_]+(:[a-z]+)?\}", "1", url)
        answer = club.api.client.request(method, url, headers=Api.auth(other), json={})
        problem(answer, 403, "another club")
