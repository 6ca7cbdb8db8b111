"""A game's title changed over the API (its listing's, not its record's), on both backends."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.service.api_support import Api
from tests.service.test_projector_support import projection_api


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    with projection_api(database_url) as client:
        yield client


def test_a_games_title_is_changed_over_the_api_and_a_long_one_is_refused(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token)
    changed = api.client.put(
        f"/clubs/c1/games/{game_id}/title", json={"title": "Friday final"}, headers=api.auth(token)
    )
    assert changed.status_code == 200, changed.text
    assert changed.json()["title"] == "Friday final"
    assert api.client.get(f"/clubs/c1/games/{game_id}", headers=api.auth(token)).json()["title"] == "Friday final"
    refused = api.client.put(f"/clubs/c1/games/{game_id}/title", json={"title": "x" * 201}, headers=api.auth(token))
    assert refused.status_code == 400 and "title" in refused.text
    assert api.client.get(f"/clubs/c1/games/{game_id}", headers=api.auth(token)).json()["title"] == "Friday final"
    missing = api.client.put("/clubs/c1/games/nope/title", json={"title": "x"}, headers=api.auth(token))
    assert missing.status_code == 404
