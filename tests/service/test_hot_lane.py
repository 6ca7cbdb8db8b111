"""The hot lane (`service.http.hot`, issue 32): a plain append and a read of the latest state are answered
by the lane, every other shape of them by the route's handler, and the two answer alike: the same status,
headers and body, the same refusals. On both databases."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.http import games
from service.settings import Settings
from tests.service.api_support import OPERATOR, Api
from tests.service.test_api import assert_problem, rolled
from tests.support.rulesets import RULESETS

VARYING = ("x-request-id", "ratelimit", "ratelimit-policy", "tablelog-position", "content-length")
"""Headers that differ between any two answers (ids, counters, tokens), checked apart."""


class Lane:
    """Which requests the lane answered: its two module-level steps, watched."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.appends = 0
        self.reads = 0
        body, encode = games.append_body, games.encode_json

        def appended(*args: Any) -> Any:
            self.appends += 1
            return body(*args)

        def encoded(value: Any) -> bytes:
            if isinstance(value, games.StateOut):
                self.reads += 1
            return encode(value)

        # The handlers reach neither name (litestar decodes the body through the DTO and encodes the
        # answer itself): a count here is the lane's.
        monkeypatch.setattr(games, "append_body", appended)
        monkeypatch.setattr(games, "encode_json", encoded)


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    app = create_app(Settings(database_url=database_url, operator_key=OPERATOR, log_format="json"), rulesets=RULESETS)
    with TestClient(app) as client:
        yield Api(client)


def alike(one: Any, other: Any) -> None:
    """Two answers told apart only by what differs between any two."""
    assert one.status_code == other.status_code, (one.text, other.text)
    mine = {k: v for k, v in one.headers.items() if k not in VARYING}
    theirs = {k: v for k, v in other.headers.items() if k not in VARYING}
    assert mine == theirs
    assert set(one.headers) == set(other.headers)  # the varying ones too: the request id, the rate limits


def test_a_plain_append_and_a_latest_read_go_through_the_lane_and_answer_as_the_handler(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token)
    lane = Lane(monkeypatch)
    path = f"/clubs/c1/games/{game_id}"
    fast = api.append("c1", token, game_id, 1, [rolled(0, 3)], key="k-1")
    assert (lane.appends, fast.status_code) == (1, 201), fast.text
    # A query the handler ignores sends the same append to the handler: the same answer, a version on.
    slow = api.client.post(
        f"{path}/events?unused=1", headers=api.auth(token), json={"expected_version": 2, "events": [rolled(1, 4)]}
    )
    assert lane.appends == 1
    alike(fast, slow)
    for answer, version in ((fast, 2), (slow, 3)):
        body = answer.json()
        assert (body["first_version"], body["last_version"], body["replayed"]) == (version, version, False)
        assert body["position"] == answer.headers["tablelog-position"] and api.opened("c1", body["position"]) > 0
    # The same key again is the same append, replayed, through the lane.
    again = api.append("c1", token, game_id, 1, [rolled(0, 3)], key="k-1")
    assert (lane.appends, again.json()["replayed"], again.json()["last_version"]) == (2, True, 2)
    for query, view in (("", "public"), ("?view=public", "public"), ("?view=full", "full")):
        read = api.client.get(f"{path}/state{query}", headers=api.auth(token))
        handled = api.client.get(f"{path}/state{query or '?'}&unused=1", headers=api.auth(token))
        assert read.status_code == 200 and read.json()["view"] == view, read.text
        alike(read, handled)
        assert read.content == handled.content and read.json()["version"] == 3
    assert lane.reads == 3


@pytest.mark.parametrize(
    ("shape", "headers", "query"),
    [
        ("an earlier version", {}, "?version=2"),
        ("a seat's view", {}, "?view=seat&seat=0"),
        ("a read-your-writes token", {"Tablelog-Position": "not-a-token"}, ""),
    ],
)
def test_other_reads_go_to_the_handler(
    api: Api, monkeypatch: pytest.MonkeyPatch, shape: str, headers: dict[str, str], query: str
) -> None:
    token, game_id = api.played_game("c1", [rolled(0, 3), rolled(1, 4)])
    lane = Lane(monkeypatch)
    answer = api.client.get(f"/clubs/c1/games/{game_id}/state{query}", headers=api.auth(token) | headers)
    assert lane.reads == 0, shape
    if "Tablelog-Position" in headers:
        assert_problem(answer, 400, "malformed-request")  # the handler's dependency opens the token, as before
    else:
        assert answer.status_code == 200 and answer.json()["version"] in (2, 3), answer.text


def test_a_spectate_keys_read_goes_through_the_lane_behind_the_games_delay(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, game_id = api.played_game("c1", [rolled(0, 3), rolled(1, 4)])
    spectate = api.client.post(
        "/clubs/c1/keys", json={"name": "screen", "scope": "spectate"}, headers=api.auth(OPERATOR)
    ).json()["token"]
    lane = Lane(monkeypatch)
    path = f"/clubs/c1/games/{game_id}/state"
    read = api.client.get(path, headers=api.auth(spectate))
    assert (lane.reads, read.status_code, read.json()["version"]) == (1, 200, 3), read.text
    # A spectate key sees the public view only: refused by the route's own guard, through the lane too.
    refused = api.client.get(f"{path}?view=full", headers=api.auth(spectate))
    assert_problem(refused, 403, "forbidden")
    assert lane.reads == 1


@pytest.mark.parametrize(
    ("refusal", "status", "problem"),
    [
        ("no key", 401, "unauthorized"),
        ("another club's key", 403, "forbidden"),
        ("a read key", 403, "forbidden"),
        ("a body that is not JSON", 400, "malformed-request"),
        ("an event the rules refuse", 422, "rule-violation"),
        ("a stale version", 409, "version-conflict"),
    ],
)
def test_the_lane_refuses_what_the_handler_refuses_with_the_same_problem(
    api: Api, monkeypatch: pytest.MonkeyPatch, refusal: str, status: int, problem: str
) -> None:
    token, game_id = api.played_game("c1", [rolled(0, 3)])
    other = api.club("c2")
    reader = api.client.post(
        "/clubs/c1/keys", json={"name": "reader", "scope": "read"}, headers=api.auth(OPERATOR)
    ).json()["token"]
    sent: dict[str, Callable[[str], Any]] = {
        "no key": lambda path: api.client.post(path, json={"expected_version": 2, "events": [rolled(1, 1)]}),
        "another club's key": lambda path: api.client.post(
            path, headers=api.auth(other), json={"expected_version": 2, "events": [rolled(1, 1)]}
        ),
        "a read key": lambda path: api.client.post(
            path, headers=api.auth(reader), json={"expected_version": 2, "events": [rolled(1, 1)]}
        ),
        "a body that is not JSON": lambda path: api.client.post(
            path, headers=api.auth(token) | {"Content-Type": "application/json"}, content=b"{1: 2}"
        ),
        "an event the rules refuse": lambda path: api.client.post(
            path, headers=api.auth(token), json={"expected_version": 2, "events": [rolled(0, 1)]}
        ),
        "a stale version": lambda path: api.client.post(
            path, headers=api.auth(token), json={"expected_version": 1, "events": [rolled(1, 1)]}
        ),
    }
    lane = Lane(monkeypatch)
    path = f"/clubs/c1/games/{game_id}/events"
    fast, slow = sent[refusal](path), sent[refusal](f"{path}?unused=1")
    by_lane = lane.appends
    fast_body, slow_body = assert_problem(fast, status, problem), assert_problem(slow, status, problem)
    assert {k: v for k, v in fast_body.items() if k != "instance"} == {
        k: v for k, v in slow_body.items() if k != "instance"
    }
    alike(fast, slow)
    # The guard refuses before the body is read; a refused body or event was read by the lane.
    assert by_lane == (0 if status in (401, 403) else 1)
    assert api.version("c1", token, game_id) == 2  # nothing stored


def test_an_idempotency_key_the_handler_refuses_goes_to_the_handler(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    token, game_id = api.played_game("c1", [rolled(0, 3)])
    lane = Lane(monkeypatch)
    too_long = api.append("c1", token, game_id, 2, [rolled(1, 1)], key="k" * (games.KEY_MAX + 1))
    assert lane.appends == 0
    body = assert_problem(too_long, 400, "malformed-request")
    assert body["errors"] == [
        {"message": "Expected `str` of length <= 200", "key": "idempotency_key", "source": "header"}
    ]
    longest = api.append("c1", token, game_id, 2, [rolled(1, 1)], key="k" * games.KEY_MAX)
    assert (lane.appends, longest.status_code) == (1, 201), longest.text
