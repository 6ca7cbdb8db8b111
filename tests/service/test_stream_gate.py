"""One gate for every live stream (issue 25 part 1): the API's `/live`, the pages' `/live/events` and a
share link's `/live/events` each count against the credential they present (a key, a page session, a
share link) and against the client address. Past a cap, a 429 problem with `Retry-After`, and `/health`
still answers while the streams are held. Over a real server (uvicorn in a thread)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from service.usecases.keys import Keys
from tests.service.api_support import Api
from tests.service.test_sse import Served, served

HEALTH_BOUND_SECONDS = 2.0
"""Generous, so a busy shared machine passes; a /health blocked for the streams' hold still fails."""


class Routes:
    """The three kinds of live stream of one game, each with its own credential."""

    def __init__(self, site: Served) -> None:
        api = site.api
        self.key = api.club("c1")
        api.players("c1", self.key, "alain", "bea")
        game = api.tally_game("c1", self.key)
        keys = Keys.of(site.app.state.records)
        key_id = self.key.split("_")[1]
        session = keys.open_session(key_id, datetime.now(UTC) + timedelta(hours=1))
        _, share = keys.create_share("c1", "game", game, "for the board", key_id)
        self.by_kind: dict[str, tuple[str, dict[str, str]]] = {
            "key": (f"/clubs/c1/games/{game}/live", Api.auth(self.key)),
            "page session": (f"/club/c1/games/{game}/live/events", {"Cookie": f"tablelog_session={session}"}),
            "share link": (f"/share/{share}/live/events", {}),
        }


@pytest.fixture
def gated(database_url: str) -> Iterator[tuple[Served, Routes, httpx.Client]]:
    caps = {"max_streams_per_key": 3, "max_streams_per_share_link": 3, "max_streams_per_address": 6}
    with served(database_url, **caps) as site, httpx.Client(base_url=site.base, timeout=httpx.Timeout(10)) as client:
        yield site, Routes(site), client


def hold(held: ExitStack, client: httpx.Client, url: str, headers: dict[str, str]) -> None:
    """Open a stream and keep it open until `held` closes (its first line read: it was let through)."""
    response = held.enter_context(client.stream("GET", url, headers=headers))
    assert response.status_code == 200, response.read()
    lines = response.iter_lines()
    assert next(lines) == ": tablelog live"
    held.callback(lambda: lines)  # the iterator kept: one dropped closes the connection


def refused(client: httpx.Client, url: str, headers: dict[str, str]) -> tuple[int, dict[str, object]]:
    """A stream past a cap: its Retry-After and problem body (streamed, so one let through fails here
    instead of being read for ever)."""
    with client.stream("GET", url, headers=headers) as response:
        assert response.status_code == 429, f"{url} let through past its cap"
        assert response.headers["content-type"].startswith("application/problem+json")
        return int(response.headers["retry-after"]), json.loads(response.read())


def health_answers(client: httpx.Client) -> None:
    started = time.monotonic()
    answer = client.get("/health", timeout=HEALTH_BOUND_SECONDS)
    assert answer.status_code == 200 and answer.json()["status"] == "ok"
    assert time.monotonic() - started < HEALTH_BOUND_SECONDS


@pytest.mark.parametrize("kind", ["key", "page session", "share link"])
def test_every_kind_of_credential_holds_at_most_its_cap_of_live_streams(
    gated: tuple[Served, Routes, httpx.Client], kind: str
) -> None:
    _, routes, client = gated
    url, headers = routes.by_kind[kind]
    with ExitStack() as held:
        for _ in range(3):
            hold(held, client, url, headers)
        retry_after, body = refused(client, url, headers)
        assert retry_after > 0
        assert body["type"] == "/problems/rate-limited" and body["status"] == 429
        assert f"This {kind} has 3 live streams open already" in str(body["detail"])
        health_answers(client)
        # Another credential's streams are counted apart: the cap is the credential's, not the game's.
        other = next(k for k in routes.by_kind if k != kind)
        hold(held, client, *routes.by_kind[other])


def test_an_address_holds_at_most_its_cap_across_every_kind_of_stream(
    gated: tuple[Served, Routes, httpx.Client],
) -> None:
    _, routes, client = gated
    with ExitStack() as held:
        for kind in ("key", "page session", "share link"):
            hold(held, client, *routes.by_kind[kind])
            hold(held, client, *routes.by_kind[kind])
        for kind in ("key", "page session", "share link"):
            _, body = refused(client, *routes.by_kind[kind])
            assert "This address has 6 live streams open already" in str(body["detail"])
        health_answers(client)
    deadline = time.monotonic() + 10
    while True:  # closed streams give their places back (the server notices at its next poll)
        with client.stream("GET", routes.by_kind["share link"][0]) as again:
            if again.status_code == 200:
                break
        assert time.monotonic() < deadline, "the closed streams were never released"
        time.sleep(0.1)


def test_a_made_up_share_token_counts_against_its_address_and_opens_nothing(
    gated: tuple[Served, Routes, httpx.Client],
) -> None:
    _, routes, client = gated
    for _ in range(10):  # each refused at once by the share guard, so it never holds a place
        assert client.get("/share/sh_nosuch_secret/live/events").status_code == 403
    with ExitStack() as held:
        for _ in range(3):
            hold(held, client, *routes.by_kind["share link"])
