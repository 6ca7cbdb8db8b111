"""Rate limits per key and per address on writes, reads and live streams, and open live streams per
key: past one, a 429 problem with `Retry-After`; the defaults are far above what a club sends."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.http.ratelimit import Limiter, RateLimited
from service.settings import Settings
from testkit.waiting import scaled
from tests.service.api_support import OPERATOR, Api
from tests.service.test_sse import served
from tests.support.rulesets import RULESETS


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def limiter(**limits: Any) -> tuple[Limiter, Clock]:
    clock = Clock()
    return Limiter(Settings(**limits), clock=clock), clock


def test_a_key_past_its_writes_a_minute_waits_as_long_as_retry_after_says() -> None:
    limits, clock = limiter(rate_limit_writes_per_minute=3)
    for _ in range(3):
        limits.take("write", "key-a", "10.0.0.1")
    with pytest.raises(RateLimited) as refused:
        limits.take("write", "key-a", "10.0.0.1")
    assert refused.value.retry_after == 20 and "this key" in refused.value.message
    limits.take("write", "key-b", "10.0.0.1")  # another key has its own allowance
    limits.take("read", "key-a", "10.0.0.1")  # reads are counted apart
    clock.now += 19
    with pytest.raises(RateLimited):
        limits.take("write", "key-a", "10.0.0.1")
    clock.now += 1
    limits.take("write", "key-a", "10.0.0.1")


def test_an_address_is_limited_across_the_keys_it_uses() -> None:
    limits, _ = limiter(rate_limit_reads_per_minute=2, rate_limit_per_address_factor=2)
    for key in ("k1", "k2", "k3", "k4"):
        limits.take("read", key, "10.0.0.9")
    with pytest.raises(RateLimited) as refused:
        limits.take("read", "k5", "10.0.0.9")
    assert "this address" in refused.value.message
    limits.take("read", "k5", "10.0.0.10")
    limits.take("read", None, "10.0.0.11")  # no key: the address alone counts


def test_a_key_holds_at_most_max_streams_open_at_once() -> None:
    limits, _ = limiter(max_streams_per_key=2)
    first = limits.open_stream("k1", "10.0.0.1")
    limits.open_stream("k1", "10.0.0.1")
    with pytest.raises(RateLimited) as refused:
        limits.open_stream("k1", "10.0.0.1")
    assert "2 live streams open" in refused.value.message and refused.value.retry_after > 0
    limits.open_stream("k2", "10.0.0.1")
    limits.close_stream(first)
    limits.open_stream("k1", "10.0.0.1")


def test_a_zero_limit_is_no_limit() -> None:
    off = ("rate_limit_writes_per_minute", "rate_limit_streams_per_minute")
    off += ("max_streams_per_key", "max_streams_per_address")
    limits, _ = limiter(**dict.fromkeys(off, 0))
    for _ in range(10_000):
        limits.take("write", "k1", "10.0.0.1")
    for _ in range(100):
        limits.open_stream("k1", "10.0.0.1")


def test_the_default_limits_are_far_above_a_clubs_tables() -> None:
    settings = Settings()
    assert settings.rate_limit_writes_per_minute >= 600  # ten appends a second, per key
    assert settings.rate_limit_reads_per_minute >= 3000
    assert settings.max_streams_per_key >= 8


@pytest.fixture
def low(database_url: str) -> Iterator[tuple[Api, str]]:
    settings = Settings(
        database_url=database_url,
        operator_key=OPERATOR,
        log_format="json",
        run_projector=False,
        rate_limit_writes_per_minute=6,
        rate_limit_reads_per_minute=4,
    )
    with TestClient(create_app(settings, rulesets=RULESETS)) as client:
        api = Api(client)
        yield api, api.club("c1")


def test_a_write_past_the_limit_is_a_429_problem_with_retry_after_and_nothing_is_stored(low: tuple[Api, str]) -> None:
    api, token = low
    for player in ("alain", "bea", "cleo", "dora", "enzo", "fanny"):
        assert (
            api.client.post(
                "/clubs/c1/players", headers=api.auth(token), json={"player_id": player, "name": player}
            ).status_code
            == 201
        )
    refused = api.client.post("/clubs/c1/players", headers=api.auth(token), json={"player_id": "gus", "name": "G"})
    assert refused.status_code == 429
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert 1 <= int(refused.headers["retry-after"]) <= 10
    body = refused.json()
    assert body["type"] == "/problems/rate-limited" and body["status"] == 429
    assert "at most 6 a minute" in body["detail"] and "this key" in body["detail"]
    listed = api.client.get("/clubs/c1/players", headers=api.auth(token)).json()
    assert "gus" not in [p["player_id"] for p in listed]


def test_a_refused_request_is_logged_with_the_429_it_was_answered(
    low: tuple[Api, str], capfd: pytest.CaptureFixture[str]
) -> None:
    api, token = low
    capfd.readouterr()
    answers = [api.client.get("/clubs/c1", headers={**api.auth(token), "X-Request-ID": f"r{i}"}) for i in range(6)]
    lines = [json.loads(line) for line in capfd.readouterr().err.splitlines() if line.startswith("{")]
    logged = {line["request_id"]: line["status"] for line in lines if line["event"] == "request.finished"}
    assert [a.status_code for a in answers] == [200, 200, 200, 200, 429, 429]
    # The limit is checked by a middleware, outside the handlers' own error mapping: its log line once said 500.
    assert [logged[f"r{i}"] for i in range(6)] == [200, 200, 200, 200, 429, 429]


def test_a_read_past_the_limit_is_a_429_and_health_is_never_limited(low: tuple[Api, str]) -> None:
    api, token = low
    for _ in range(4):
        assert api.client.get("/clubs/c1", headers=api.auth(token)).status_code == 200
    refused = api.client.get("/clubs/c1", headers=api.auth(token))
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    assert refused.json()["type"] == "/problems/rate-limited"
    assert all(api.client.get("/health").status_code == 200 for _ in range(20))


def test_a_key_past_its_open_live_streams_gets_a_429_until_it_closes_one(database_url: str) -> None:
    with served(database_url, max_streams_per_key=1) as site:
        client = httpx.Client(base_url=site.base, timeout=httpx.Timeout(10, read=10))
        with client:
            api = Api(client)
            token = api.club("c1")
            api.players("c1", token, "alain", "bea")
            live = f"/clubs/c1/games/{api.tally_game('c1', token)}/live"
            with client.stream("GET", live, headers=api.auth(token)) as first:
                assert first.status_code == 200
                # The iterator is kept: a line iterator dropped at once closes the stream's connection
                # (httpcore closes a response abandoned mid-body), and the server rightly frees its place.
                lines = first.iter_lines()
                assert next(lines) == ": tablelog live"
                # Streamed, so a stream wrongly let through fails here instead of being read for ever.
                with client.stream("GET", live, headers=api.auth(token)) as second:
                    assert second.status_code == 429 and int(second.headers["retry-after"]) > 0
                    body = json.loads(second.read())
                assert body["type"] == "/problems/rate-limited" and "1 live streams open" in body["detail"]
                # The refusal left the first stream alone: it still streams (its step, then keep-alives).
                assert any(line.startswith((": keep-alive", "event: step")) for line in lines)
            deadline = time.monotonic() + scaled(10)
            while True:  # the server notices the closed stream at its next poll
                with client.stream("GET", live, headers=api.auth(token)) as again:
                    if again.status_code == 200:
                        break
                assert time.monotonic() < deadline, "the closed stream was never released"
                time.sleep(0.1)
