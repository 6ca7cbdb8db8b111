"""Campaigns over HTTP on both backends, through the ruleset's series rules (tally: first to 30 pips
over the series): cumulative totals after every game, the winner, games refused or not counted, and a
correction re-deriving the campaign."""

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


def setup(api: Api) -> str:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea", "cleo")
    created = api.client.post(
        "/clubs/c1/campaigns",
        headers=api.auth(token),
        json={"campaign_id": "winter", "ruleset": "tally", "players": ["alain", "bea"]},
    )
    assert created.status_code == 201, created.text
    return token


def game(api: Api, token: str, players: tuple[str, ...], rolls: list[tuple[int, int]]) -> tuple[str, int]:
    game_id = api.tally_game("c1", token, players)
    position = append(api, token, game_id, [roll(seat, face) for seat, face in rolls])
    added = api.client.post("/clubs/c1/campaigns/winter/games", json={"game_id": game_id}, headers=api.auth(token))
    assert added.status_code == 201, added.text
    return game_id, position


def status(api: Api, token: str) -> dict[str, Any]:
    response = api.client.get("/clubs/c1/campaigns/winter/status", headers=api.auth(token))
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_the_campaign_gives_cumulative_totals_after_every_game_and_waits_at_an_unfinished_one(api: Api) -> None:
    token = setup(api)
    game(api, token, ("alain", "bea"), [(0, 6), (1, 2), (0, 6)])  # Alain 12, Bea 2
    game(api, token, ("bea", "alain"), [(0, 6), (1, 6), (0, 6)])  # Bea 12, Alain 6 (seats swapped)
    unfinished, _ = game(api, token, ("alain", "bea"), [(0, 3)])
    game(api, token, ("alain", "bea"), [(0, 6), (1, 6), (0, 6)])  # Alain 12, Bea 6
    _, position = game(api, token, ("bea", "alain"), [(0, 6), (1, 1), (0, 6)])
    wait_for_projector(api, position)
    body = status(api, token)
    steps = body["steps"]
    assert [s["status"]["totals"] for s in steps] == [{"alain": 12, "bea": 2}] + [{"alain": 18, "bea": 14}] * 4
    waits = f"pending: the campaign waits for game {unfinished}"
    assert [(s["counted"], s["note"]) for s in steps] == [
        (True, ""),
        (True, ""),
        (False, "not finished: the campaign waits for this game"),
        (False, waits),
        (False, waits),
    ]
    assert not body["status"]["finished"] and body["status"]["winners"] == []
    # The game is finished (Alain 10, Bea 2): the campaign moves on, and Alain passes 30 in the next game.
    position = append(api, token, unfinished, [roll(1, 1), roll(0, 6), roll(1, 1), roll(0, 1)])
    wait_for_projector(api, position)
    body = status(api, token)
    steps = body["steps"]
    assert [s["status"]["totals"] for s in steps] == [
        {"alain": 12, "bea": 2},
        {"alain": 18, "bea": 14},
        {"alain": 28, "bea": 16},
        {"alain": 40, "bea": 22},
        {"alain": 40, "bea": 22},
    ]
    assert [(s["counted"], s["note"]) for s in steps] == [
        (True, ""),
        (True, ""),
        (True, ""),
        (True, ""),
        (False, "played after the campaign was decided"),
    ]
    assert body["status"]["finished"] and body["status"]["winners"] == ["alain"]
    assert body["points"] == {"alain": 40, "bea": 22} and body["score_unit"] == "pip"
    listed = api.client.get("/clubs/c1/campaigns", headers=api.auth(token)).json()
    assert [(c["campaign"]["campaign_id"], len(c["game_ids"])) for c in listed] == [("winter", 5)]


def test_a_game_with_other_players_is_refused_and_a_campaign_needs_club_players(api: Api) -> None:
    token = setup(api)
    other = api.tally_game("c1", token, ("alain", "cleo"))
    refused = api.client.post("/clubs/c1/campaigns/winter/games", json={"game_id": other}, headers=api.auth(token))
    assert refused.status_code == 422 and refused.json()["code"] == "wrong_players"
    assert refused.json()["details"] == {
        "game_id": other,
        "expected": ["alain", "bea"],
        "seated": ["alain", "cleo"],
        "missing": ["bea"],
        "extra": ["cleo"],
    }
    bad = api.client.post(
        "/clubs/c1/campaigns",
        headers=api.auth(token),
        json={"campaign_id": "spring", "ruleset": "tally", "players": ["alain", "zed"]},
    )
    assert bad.status_code == 422 and bad.json()["details"]["unknown"] == ["zed"]
    unknown = api.client.post(
        "/clubs/c1/campaigns",
        headers=api.auth(token),
        json={"campaign_id": "spring", "ruleset": "nope", "players": ["alain"]},
    )
    assert unknown.status_code == 404 and unknown.json()["type"] == "/problems/unknown-ruleset"
    assert api.client.get("/clubs/c1/campaigns/nope/status", headers=api.auth(token)).status_code == 404


def test_a_correction_that_reopens_a_counted_game_reopens_the_decided_campaign_and_shows_what_changed(api: Api) -> None:
    token = setup(api)
    game(api, token, ("alain", "bea"), [(0, 6), (1, 6), (0, 6)])  # Alain 12, Bea 6
    second, _ = game(api, token, ("alain", "bea"), [(0, 6), (1, 6), (0, 6)])  # Alain 24 in all
    last, position = game(api, token, ("alain", "bea"), [(0, 6), (1, 6), (0, 6)])  # Alain reaches 36
    wait_for_projector(api, position)
    assert status(api, token)["status"]["winners"] == ["alain"]
    position = append(api, token, second, [correction(1)])
    wait_for_projector(api, position)
    reopened = status(api, token)
    # The campaign waits at the reopened game: the last one is pending, not counted in its place.
    assert [(s["counted"], s["note"]) for s in reopened["steps"]] == [
        (True, ""),
        (False, "not finished: the campaign waits for this game"),
        (False, f"pending: the campaign waits for game {second}"),
    ]
    assert reopened["status"] == {
        "totals": {"alain": 12, "bea": 6},
        "finished": False,
        "winners": [],
        "next_dealer": None,
        "note": "",
        "target": None,
    }
    changes = api.client.get(f"/clubs/c1/games/{second}/changes", headers=api.auth(token)).json()
    (campaign,) = changes["campaigns"]
    assert campaign["campaign_id"] == "winter" and changes["standings"] == []
    status_changes = campaign["changes"]["status"]
    assert {"path": ["finished"], "op": "changed", "old": True, "new": False} in status_changes
    assert {"path": ["totals", "alain"], "op": "changed", "old": 36, "new": 12} in status_changes
    # The second game no longer counts, and the totals after the last game change with it.
    assert [row["key"] for row in campaign["changes"]["steps"]] == [second, last]
