"""Campaigns of Milles Nautiques over HTTP: the series rules (MN-17, MN-19) checked when a round is
added, a 422 naming the rule for one that breaks them, and no request that leaves a campaign answering
500 (a round with the seats swapped did, for ever, before these checks)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.service.api_support import Api
from tests.service.test_projector_support import append, projection_api, wait_for_projector

ROUND = Path(__file__).parents[1] / "domain" / "milles_nautiques" / "fixtures" / "two_players_to_forty.jsonl"


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    with projection_api(database_url) as client:
        yield client


def recorded_round() -> list[dict[str, Any]]:
    """A whole recorded two-player round (dealt by seat 1), without its set-up event."""
    lines = [json.loads(line) for line in ROUND.read_text().splitlines() if line.strip()]
    return lines[1:]


def club(api: Api) -> str:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    created = api.client.post(
        "/clubs/c1/campaigns",
        headers=api.auth(token),
        json={"campaign_id": "autumn", "ruleset": "milles-nautiques", "players": ["alain", "bea"]},
    )
    assert created.status_code == 201, created.text
    return token


def play_round(
    api: Api, token: str, seats: tuple[str, str], options: dict[str, Any], events: list[dict[str, Any]] | None = None
) -> tuple[str, int]:
    game_id = api.game(
        "c1", token, {"ruleset": "milles-nautiques", "options": options, "players": [{"player_id": p} for p in seats]}
    )
    return game_id, append(api, token, game_id, events if events is not None else recorded_round())


def unplayed_round(api: Api, token: str, number: int, dealer: int) -> str:
    """A round of Alain (seat 0) and Bea (seat 1), set up but not played."""
    return api.game(
        "c1",
        token,
        {
            "ruleset": "milles-nautiques",
            "options": {"round": number, "dealer": dealer},
            "players": [{"player_id": "alain"}, {"player_id": "bea"}],
        },
    )


def add(api: Api, token: str, game_id: str) -> Any:
    return api.client.post("/clubs/c1/campaigns/autumn/games", json={"game_id": game_id}, headers=api.auth(token))


def status(api: Api, token: str) -> dict[str, Any]:
    response = api.client.get("/clubs/c1/campaigns/autumn/status", headers=api.auth(token))
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_a_round_with_the_seats_swapped_is_refused_naming_mn_17_and_the_campaign_still_answers(api: Api) -> None:
    token = club(api)
    first, _ = play_round(api, token, ("alain", "bea"), {"round": 1, "dealer": 1})
    assert add(api, token, first).status_code == 201
    swapped, position = play_round(api, token, ("bea", "alain"), {"round": 2, "dealer": 1})
    wait_for_projector(api, position)
    refused = add(api, token, swapped)
    assert refused.status_code == 422, refused.text
    body = refused.json()
    assert body["code"] == "different_players"
    assert body["details"]["rule_id"] == "MN-17"
    assert "MN-17" in body["detail"] and "same seats" in body["detail"]
    after = status(api, token)
    assert [step["game_id"] for step in after["steps"]] == [first]
    assert after["steps"][0]["counted"] is True


def test_the_next_round_must_be_dealt_by_the_player_to_the_left_mn_19(api: Api) -> None:
    token = club(api)
    first, _ = play_round(api, token, ("alain", "bea"), {"round": 1, "dealer": 1})
    assert add(api, token, first).status_code == 201
    same_dealer = unplayed_round(api, token, 2, 1)
    refused = add(api, token, same_dealer)
    assert refused.status_code == 422, refused.text
    assert refused.json()["code"] == "wrong_dealer" and refused.json()["details"]["rule_id"] == "MN-19"
    assert "Alain deals round 2" in refused.json()["detail"]
    wrong_number = unplayed_round(api, token, 3, 0)
    refused = add(api, token, wrong_number)
    assert refused.status_code == 422 and refused.json()["code"] == "wrong_round"
    good = unplayed_round(api, token, 2, 0)
    assert add(api, token, good).status_code == 201


def test_a_campaign_of_more_players_than_the_game_takes_is_refused(api: Api) -> None:
    token = api.club("c1")
    players = [f"p{n}" for n in range(7)]
    api.players("c1", token, *players)
    refused = api.client.post(
        "/clubs/c1/campaigns",
        headers=api.auth(token),
        json={"campaign_id": "crowd", "ruleset": "milles-nautiques", "players": players},
    )
    assert refused.status_code == 422, refused.text
    assert refused.json()["code"] == "player_count"
    assert refused.json()["details"] == {"players": 7, "allowed": [2, 3, 4, 5, 6]}
    assert refused.json()["detail"] == "Milles Nautiques is played by 2 to 6 players, not 7."


def test_totals_are_shown_in_points_beside_the_exact_half_points(api: Api) -> None:
    token = club(api)
    first, position = play_round(api, token, ("alain", "bea"), {"round": 1, "dealer": 1})
    assert add(api, token, first).status_code == 201
    wait_for_projector(api, position)
    body = status(api, token)
    totals = body["status"]["totals"]
    assert body["points"] == {player: (half // 2 if half % 2 == 0 else half / 2) for player, half in totals.items()}
    assert body["score_unit"] == "half_point" and body["points_unit"] == "point"
    assert "half-point" not in json.dumps(body)
