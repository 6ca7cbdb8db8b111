"""Who a failed game creation is blamed on: options that do not fit the ruleset are the client's (a
422 naming the ruleset); an exception of the ruleset's own `initial` that is not a RuleError is a
programming error, a 500 logged as such, never a 422 that tells the client to change its request."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
import structlog
from litestar.testing import TestClient

from domain.registry import Rulesets
from domain.ruleset import Setup
from service.app import create_app
from service.settings import Settings
from tests.service.api_support import OPERATOR, Api
from tests.support.rulesets import RULESETS

TALLY = RULESETS.get("tally")


def _mistaken_initial(setup: Setup) -> Any:
    return {}["a ruleset's own mistake"]


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    mistaken = dataclasses.replace(TALLY, name="mistaken", initial=_mistaken_initial)
    rulesets = Rulesets([*RULESETS, mistaken])
    app = create_app(Settings(database_url=database_url, operator_key=OPERATOR, log_format="json"), rulesets=rulesets)
    with TestClient(app) as client:
        yield Api(client)


def _create(api: Api, ruleset: str, options: dict[str, Any]) -> Any:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    body = {"ruleset": ruleset, "players": [{"player_id": "alain"}, {"player_id": "bea"}], "options": options}
    return api.client.post("/clubs/c1/games", headers=api.auth(token), json=body)


def test_options_that_do_not_fit_the_ruleset_are_refused_with_a_422(api: Api) -> None:
    response = _create(api, "tally", {"target": "high"})
    assert response.status_code == 422, response.text
    assert "does not fit tally" in response.json()["detail"]


def test_a_mistake_in_a_rulesets_initial_is_a_500_logged_as_the_server_s(api: Api) -> None:
    with structlog.testing.capture_logs() as logs:
        response = _create(api, "mistaken", {})
    assert response.status_code == 500, response.text
    assert response.json()["type"] == "/problems/internal-error"
    assert "mistake" not in response.text  # the exception's text stays in the log
    failed = [entry for entry in logs if entry["event"] == "request.failed"]
    assert [entry["error_type"] for entry in failed] == ["KeyError"]
    games = api.client.get("/clubs/c1/games", headers={"Authorization": f"Bearer {OPERATOR}"})
    assert games.json()["games"] == []
