"""Automatic league membership on both backends: a league set `automatic` takes every finished game of its
ruleset and period by itself (nobody assigns it), a game can still be left out with a reason, a
correction that un-finishes a game takes it out, and a game outside the period or ruleset is not taken."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.service.api_support import Api
from tests.service.test_leagues_api import LEAGUE, played, standings, table
from tests.service.test_projector_support import append, correction, projection_api, wait_for_projector


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    with projection_api(database_url) as client:
        yield client


def league(api: Api, token: str, **changes: Any) -> Any:
    created = api.client.post("/clubs/c1/leagues", json=LEAGUE | changes, headers=api.auth(token))
    assert created.status_code == 201, created.text
    return created.json()


def games_of(api: Api, token: str, collection_id: str, kind: str = "leagues") -> list[str]:
    found = api.client.get(f"/clubs/c1/{kind}/{collection_id}", headers=api.auth(token))
    assert found.status_code == 200, found.text
    return list(found.json()["game_ids"])


def test_an_automatic_league_takes_every_finished_game_of_its_ruleset_and_period_by_itself(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea", "cleo")
    assert league(api, token, automatic=True)["league"]["automatic"] is True
    league(api, token, league_id="by-hand")  # the same league, not automatic: takes nothing by itself
    league(api, token, league_id="last-year", automatic=True, starts="2000-01-01", ends="2000-12-31")
    league(api, token, league_id="other-game", automatic=True, ruleset="milles-nautiques", tie_breaks=["points"])

    first, _ = played(api, token, ("alain", "bea"), [(0, 6), (1, 2), (0, 6)])  # Alain wins 12-2
    unfinished = api.tally_game("c1", token, ("bea", "cleo"))
    position = append(api, token, unfinished, [{"type": "tally.rolled", "seat": 0, "face": 3}])
    wait_for_projector(api, position)

    assert games_of(api, token, "autumn") == [first]
    assert table(standings(api, token)) == [(1, "alain", 1, 1, 3, 12), (2, "bea", 1, 0, 0, 2), (3, "cleo", 0, 0, 0, 0)]
    assert games_of(api, token, "by-hand") == []
    assert games_of(api, token, "last-year") == [], "a game finished outside the period is not taken"
    assert games_of(api, token, "other-game") == [], "a game of another ruleset is not taken"
    listed = api.client.get("/clubs/c1/leagues", headers=api.auth(token)).json()
    assert {entry["league"]["league_id"]: entry["game_ids"] for entry in listed}["autumn"] == [first]


def test_a_game_taken_by_itself_can_be_left_out_with_a_reason_and_a_correction_that_reopens_it_takes_it_out(
    api: Api,
) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea", "cleo")
    league(api, token, automatic=True)
    first, _ = played(api, token, ("alain", "bea"), [(0, 6), (1, 2), (0, 6)])
    second, position = played(api, token, ("bea", "cleo"), [(0, 6), (1, 6), (0, 6)])  # Bea wins 12-6
    wait_for_projector(api, position)
    assert games_of(api, token, "autumn") == [first, second]

    left_out = api.client.post(
        f"/clubs/c1/leagues/autumn/games/{second}/removal",
        json={"reason": "a friendly, not a league game"},
        headers=api.auth(token),
    )
    assert left_out.status_code == 201, left_out.text
    assert left_out.json()["counted_game_ids"] == [first]
    body = standings(api, token)
    assert [(r["game_id"], r["reason"]) for r in body["removals"]] == [(second, "a friendly, not a league game")]
    assert [(r["player_id"], r["played"]) for r in body["rows"]] == [("alain", 1), ("bea", 1), ("cleo", 0)]

    # Alain's winning 6 was misread: voided, the game is open again and leaves the league by itself.
    position = append(api, token, first, [correction(1, "misread die")])
    wait_for_projector(api, position)
    assert games_of(api, token, "autumn") == [second]
    assert all(line["game_id"] != first for line in standings(api, token)["games"])
    changes = api.client.get(f"/clubs/c1/games/{first}/changes", headers=api.auth(token)).json()
    assert [s["league_id"] for s in changes["standings"]] == ["autumn"], "the correction's changes name the league"
    rows = {row["key"]: row["changes"] for row in changes["standings"][0]["changes"]["rows"]}
    assert {"path": ["points"], "op": "changed", "old": 3, "new": 0} in rows["alain"]

    # Finished again: taken again.
    position = append(api, token, first, [{"type": "tally.rolled", "seat": 0, "face": 6}])
    wait_for_projector(api, position)
    assert games_of(api, token, "autumn") == [second, first]


def test_an_automatic_campaign_takes_every_finished_game_of_exactly_its_players_by_itself(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea", "cleo")
    made = api.client.post(
        "/clubs/c1/campaigns",
        json={"campaign_id": "winter", "ruleset": "tally", "players": ["alain", "bea"], "automatic": True},
        headers=api.auth(token),
    )
    assert made.status_code == 201 and made.json()["campaign"]["automatic"] is True, made.text
    by_hand = {"campaign_id": "by-hand", "ruleset": "tally", "players": ["alain", "bea"]}
    assert api.client.post("/clubs/c1/campaigns", json=by_hand, headers=api.auth(token)).status_code == 201

    first, _ = played(api, token, ("alain", "bea"), [(0, 6), (1, 2), (0, 6)])  # Alain wins 12-2
    swapped, _ = played(api, token, ("bea", "alain"), [(0, 3), (1, 6), (0, 1), (1, 6)])  # seats swapped: same players
    played(api, token, ("alain", "cleo"), [(0, 6), (1, 2), (0, 6)])  # other players: not taken
    unfinished = api.tally_game("c1", token, ("alain", "bea"))
    position = append(api, token, unfinished, [{"type": "tally.rolled", "seat": 0, "face": 3}])
    wait_for_projector(api, position)

    assert games_of(api, token, "winter", "campaigns") == [first, swapped]
    assert games_of(api, token, "by-hand", "campaigns") == []
    status = api.client.get("/clubs/c1/campaigns/winter/status", headers=api.auth(token)).json()
    assert status["steps"][-1]["status"]["totals"] == {"alain": 24, "bea": 6}
    # A correction that un-finishes a game takes it out again, and names the campaign in its report.
    position = append(api, token, swapped, [correction(1, "misread")])
    wait_for_projector(api, position)
    assert games_of(api, token, "winter", "campaigns") == [first]
    changes = api.client.get(f"/clubs/c1/games/{swapped}/changes", headers=api.auth(token)).json()
    (named,) = changes["campaigns"]  # the correction's report names the campaign and what it changed
    assert named["campaign_id"] == "winter" and named["changes"]["steps"], changes
