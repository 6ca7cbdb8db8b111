"""Club ratings over HTTP on both backends: kept by the projector from finished games, derived again
when a correction changes a rated result, with each player's history."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.service.api_support import Api
from tests.service.test_projector_support import append, correction, projection_api, roll, wait_for_projector


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    with projection_api(database_url) as client:
        yield client


def played(api: Api, token: str, players: tuple[str, str], rolls: list[tuple[int, int]]) -> tuple[str, int]:
    game_id = api.tally_game("c1", token, players)
    return game_id, append(api, token, game_id, [roll(seat, face) for seat, face in rolls])


def ratings(api: Api, token: str) -> list[dict[str, Any]]:
    response = api.client.get("/clubs/c1/ratings/tally", headers=api.auth(token))
    assert response.status_code == 200, response.text
    return list(response.json()["players"])


def test_ratings_follow_finished_games_and_a_correction_re_derives_them(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea", "cleo")
    first, _ = played(api, token, ("alain", "bea"), [(0, 6), (1, 1), (0, 6)])  # Alain wins
    played(api, token, ("bea", "cleo"), [(0, 6), (1, 1), (0, 6)])  # Bea wins
    _, position = played(api, token, ("cleo", "alain"), [(0, 1)])  # not finished: not rated
    wait_for_projector(api, position)
    rows = ratings(api, token)
    assert [(r["rank"], r["player_id"], r["name"], r["games"]) for r in rows] == [
        (1, "alain", "Alain", 1),
        (2, "bea", "Bea", 2),
        (3, "cleo", "Cleo", 1),
    ]
    assert all(r["rating"] == pytest.approx(r["mu"] - 3 * r["sigma"]) for r in rows)
    history = api.client.get("/clubs/c1/ratings/tally/bea", headers=api.auth(token)).json()
    assert [(h["game_id"] == first, h["placement"]) for h in history["history"]] == [(True, 2), (False, 1)]
    assert history["history"][0]["change"] < 0 < history["history"][1]["change"]
    assert history["current"]["rating"] == history["history"][-1]["skill"]["rating"]

    # Alain's win is taken back and the game is replayed: Bea wins it, and it now finishes after Bea beat
    # Cleo, so Alain lost to a stronger Bea than Cleo did, and falls less.
    position = append(api, token, first, [correction(1, "misread"), roll(0, 1), roll(1, 6), roll(0, 1), roll(1, 6)])
    wait_for_projector(api, position)
    rows = ratings(api, token)
    assert [(r["player_id"], r["games"]) for r in rows] == [("bea", 2), ("alain", 1), ("cleo", 1)]
    bea = api.client.get("/clubs/c1/ratings/tally/bea", headers=api.auth(token)).json()["history"]
    assert [(h["placement"], h["change"] > 0) for h in bea] == [(1, True), (1, True)]
    assert api.client.get("/clubs/c1/ratings/nope", headers=api.auth(token)).status_code == 404
    assert api.client.get("/clubs/c1/ratings/tally/zed", headers=api.auth(token)).status_code == 404
