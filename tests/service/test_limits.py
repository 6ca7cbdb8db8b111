"""Bounded memory and work per request: every bound is a setting, and a request past one gets a clear
413 (or 400 naming the field) and stores nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.http.clubs import ClubIn, PlayerIn
from service.limits import Limits
from service.settings import Settings
from service.usecases.games import NewGame
from tests.service.api_support import OPERATOR, Api
from tests.support.rulesets import RULESETS

CATALOGUE = RULESETS.get("atlantic-storm").resource_kinds["catalogue"].builtin()["documented"]
HEADER = next(line for line in CATALOGUE.splitlines() if line.startswith(b"number,"))


@pytest.fixture
def site(database_url: str) -> Callable[..., Any]:
    @contextmanager
    def open_site(**bounds: Any) -> Iterator[tuple[Api, str, str]]:
        settings = Settings(database_url=database_url, operator_key=OPERATOR, log_format="json", **bounds)
        with TestClient(create_app(settings, rulesets=RULESETS)) as client:
            api = Api(client)
            token = api.club("c1")
            api.players("c1", token, "alain", "bea")
            yield api, token, api.tally_game("c1", token)

    return open_site


def problem(response: Any, status: int, type_name: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = response.json()
    assert body["type"] == f"/problems/{type_name}" and body["status"] == status and body["detail"]
    return body


def rolled(seat: int) -> dict[str, Any]:
    return {"type": "tally.rolled", "seat": seat, "face": 1}


def test_a_body_past_max_body_bytes_is_refused_with_413(site: Callable[..., Any]) -> None:
    with site(max_body_bytes=2_000) as (api, token, game_id):
        events = [{"type": "tally.noted", "seat": 0, "text": "x" * 3_000}]
        body = problem(api.append("c1", token, game_id, 1, events), 413, "too-large")
        assert body["limit"] == 2_000 and "2000 bytes" in body["detail"]
        assert api.version("c1", token, game_id) == 1


def test_a_batch_past_max_events_per_batch_is_refused_and_nothing_is_stored(site: Callable[..., Any]) -> None:
    with site(max_events_per_batch=3) as (api, token, game_id):
        body = problem(
            api.append("c1", token, game_id, 1, [rolled(0), rolled(1), rolled(0), rolled(1)]), 413, "too-large"
        )
        assert body["field"] == "events" and body["limit"] == 3 and "holds 4" in body["detail"]
        assert api.version("c1", token, game_id) == 1
        assert api.append("c1", token, game_id, 1, [rolled(0), rolled(1), rolled(0)]).status_code == 201


def test_an_event_past_max_event_bytes_is_refused_naming_it(site: Callable[..., Any]) -> None:
    with site(max_event_bytes=200) as (api, token, game_id):
        events = [rolled(0), {"type": "tally.noted", "seat": 1, "text": "a long note " * 30}]
        body = problem(api.append("c1", token, game_id, 1, events), 413, "too-large")
        assert body["event_index"] == 1 and body["field"] == "events[1]" and body["limit"] == 200
        assert api.version("c1", token, game_id) == 1


def test_ids_and_names_past_their_settings_are_refused_naming_the_field(site: Callable[..., Any]) -> None:
    with site(max_id_length=8, max_name_length=10) as (api, token, _):
        long_id = api.client.post(
            "/clubs/c1/players", headers=api.auth(token), json={"player_id": "bernadette", "name": "B"}
        )
        assert problem(long_id, 400, "malformed-request")["field"] == "player_id"
        long_name = api.client.post(
            "/clubs/c1/players", headers=api.auth(token), json={"player_id": "cleo", "name": "Cleo de Merode"}
        )
        body = problem(long_name, 400, "malformed-request")
        assert body["field"] == "name" and "at most 10 characters" in body["detail"]
        long_title = api.client.post(
            "/clubs/c1/games",
            headers=api.auth(token),
            json={
                "ruleset": "tally",
                "title": "Friday night",
                "players": [{"player_id": "alain"}, {"player_id": "bea"}],
            },
        )
        assert problem(long_title, 400, "malformed-request")["field"] == "title"
        long_member = api.client.post(
            "/clubs/c1/campaigns",
            headers=api.auth(token),
            json={"campaign_id": "w", "ruleset": "tally", "players": ["alain", "abcdefghijk"]},
        )
        assert problem(long_member, 400, "malformed-request")["field"] == "players[1]"


def test_an_import_whose_rows_are_all_bad_lists_the_first_errors_and_counts_the_rest(
    site: Callable[..., Any],
) -> None:
    with site(max_import_errors=5) as (api, token, _):
        rows = b"\n".join([HEADER, *(b"C?,SC %d,,,,,,,,1941,pacific,7,,,yes,full,x" % n for n in range(50))])
        response = api.client.post(
            "/clubs/c1/resources/atlantic-storm/catalogue/deck", content=rows, headers=api.auth(token)
        )
        body = problem(response, 422, "invalid-resource")
        assert len(body["errors"]) == 5 and body["errors_omitted"] >= 45
        assert f"{body['errors_omitted']} more errors not listed" in body["detail"]
        assert api.client.get("/clubs/c1/resources", headers=api.auth(token)).json() == []


def test_a_resource_past_max_resource_rows_is_refused_before_it_is_parsed(site: Callable[..., Any]) -> None:
    with site(max_resource_rows=10) as (api, token, _):
        rows = b"\n".join([HEADER, *(b"C?,SC %d,,,,,,,,1941,pacific,7,,,yes,full,x" % n for n in range(20))])
        response = api.client.post(
            "/clubs/c1/resources/atlantic-storm/catalogue/deck", content=rows, headers=api.auth(token)
        )
        body = problem(response, 413, "too-large")
        assert body["limit"] == 10 and "21 lines" in body["detail"]


def test_a_ten_megabyte_import_is_refused_at_once_by_the_default_body_bound(site: Callable[..., Any]) -> None:
    with site() as (api, token, _):
        rows = b"\n".join([HEADER, *([b"C?,SC 1,,,,,,,,1941,pacific,7,,,yes,full,x"] * 250_000)])
        assert len(rows) > 10_000_000
        response = api.client.post(
            "/clubs/c1/resources/atlantic-storm/catalogue/deck", content=rows, headers=api.auth(token)
        )
        body = problem(response, 413, "too-large")
        assert body["limit"] == Limits.of().max_body_bytes
        assert len(response.content) < 1_000


def test_id_patterns_are_anchored_at_the_very_end_of_the_text() -> None:
    """`$` matches before a trailing newline, so the patterns must not end with it: `alain\\n` is not
    `alain` (the HTTP layer refuses control characters too; these are the structs' own patterns)."""
    for struct, body in (
        (PlayerIn, {"player_id": "alain\n", "name": "Alain"}),
        (ClubIn, {"club_id": "brest\n", "name": "Brest"}),
        (NewGame, {"ruleset": "tally", "players": [], "game_id": "friday-1\n"}),
    ):
        with pytest.raises(msgspec.ValidationError, match="Expected `str` matching regex"):
            msgspec.convert(body, struct)
    assert msgspec.convert({"player_id": "alain", "name": "Alain"}, PlayerIn).player_id == "alain"
