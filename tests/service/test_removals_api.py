"""Taking a game out of a league or a campaign and putting it back, over HTTP: each change recorded
with the key that made it and why, the standings and the campaign following, and the history shown."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.service.api_support import Api
from tests.service.test_leagues_api import club, standings, three_games
from tests.service.test_projector_support import append, projection_api, roll, wait_for_projector


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    with projection_api(database_url) as client:
        yield client


def change(api: Api, token: str, path: str, reason: str, status: int = 201) -> Any:
    response = api.client.post(f"/clubs/c1/{path}", json={"reason": reason}, headers=api.auth(token))
    assert response.status_code == status, response.text
    return response.json()


def test_a_game_taken_out_of_a_league_stops_counting_until_it_is_put_back_and_the_history_shows_it(
    api: Api,
) -> None:
    token = club(api)
    first, position = three_games(api, token)  # Alain beat Bea in the first game
    wait_for_projector(api, position)
    taken = change(api, token, f"leagues/autumn/games/{first}/removal", "played outside the league's rules")
    assert first not in taken["counted_game_ids"] and len(taken["counted_game_ids"]) == 2
    (removal,) = taken["removals"]
    assert (removal["game_id"], removal["action"], removal["reason"]) == (
        first,
        "removed",
        "played outside the league's rules",
    )
    assert removal["key_id"] is not None
    body = standings(api, token)
    # Bea and Cleo are level on points; Bea beat Cleo, so head-to-head puts her first.
    assert [(r["player_id"], r["played"], r["points"]) for r in body["rows"]] == [
        ("bea", 1, 3),
        ("cleo", 2, 3),
        ("alain", 1, 0),
    ]
    assert [r["action"] for r in body["removals"]] == ["removed"]
    assert change(api, token, f"leagues/autumn/games/{first}/removal", "again", status=422)["code"] == (
        "already_removed"
    )

    back = change(api, token, f"leagues/autumn/games/{first}/restoration", "the rules allowed it after all")
    assert [r["action"] for r in back["removals"]] == ["removed", "restored"]
    assert [(r["player_id"], r["points"]) for r in standings(api, token)["rows"]] == [
        ("alain", 3),
        ("cleo", 3),
        ("bea", 3),
    ]
    assert change(api, token, "leagues/autumn/games/nope/removal", "x", status=404)["type"] == "/problems/not-found"
    assert (
        change(api, token, f"leagues/autumn/games/{first}/deletion", "x", status=404)["type"] == "/problems/not-found"
    )
    assert change(api, token, f"leagues/autumn/games/{first}/removal", "", status=400)["field"] is not None


def test_a_game_taken_out_of_a_campaign_is_no_longer_counted_in_its_totals(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    created = api.client.post(
        "/clubs/c1/campaigns",
        headers=api.auth(token),
        json={"campaign_id": "winter", "ruleset": "tally", "players": ["alain", "bea"]},
    )
    assert created.status_code == 201
    games = []
    position = 0
    for _ in range(2):
        game_id = api.tally_game("c1", token, ("alain", "bea"))
        position = append(api, token, game_id, [roll(0, 6), roll(1, 2), roll(0, 6)])
        added = api.client.post("/clubs/c1/campaigns/winter/games", json={"game_id": game_id}, headers=api.auth(token))
        assert added.status_code == 201
        games.append(game_id)
    wait_for_projector(api, position)
    change(api, token, f"campaigns/winter/games/{games[0]}/removal", "a practice game")
    status = api.client.get("/clubs/c1/campaigns/winter/status", headers=api.auth(token)).json()
    assert [s["game_id"] for s in status["steps"]] == [games[1]]
    assert status["status"]["totals"] == {"alain": 12, "bea": 2}
    assert [(r["game_id"], r["reason"]) for r in status["removals"]] == [(games[0], "a practice game")]
