"""Leagues over HTTP on both backends: a table worked out by hand, as-of dates, refusals as problem
details, and a correction of a finished game re-deriving the standings, with what it changed."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.service.api_support import Api
from tests.service.test_projector_support import append, correction, projection_api, roll, wait_for_projector

LEAGUE = {
    "league_id": "autumn",
    "ruleset": "tally",
    "members": ["alain", "bea", "cleo"],
    "starts": "2000-01-01",
    "ends": "2999-12-31",
    "scoring": {"win_draw_loss": [3, 1, 0]},
    "tie_breaks": ["points", "head_to_head", "score"],
}


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    with projection_api(database_url) as client:
        yield client


def club(api: Api) -> str:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea", "cleo")
    created = api.client.post("/clubs/c1/leagues", json=LEAGUE, headers=api.auth(token))
    assert created.status_code == 201, created.text
    return token


def played(api: Api, token: str, players: tuple[str, str], rolls: list[tuple[int, int]]) -> tuple[str, int]:
    """A two-player tally game to 10, with these (seat, face) rolls; returns its id and last position."""
    game_id = api.tally_game("c1", token, players)
    return game_id, append(api, token, game_id, [roll(seat, face) for seat, face in rolls])


def assign(api: Api, token: str, game_id: str) -> Any:
    return api.client.post("/clubs/c1/leagues/autumn/games", json={"game_id": game_id}, headers=api.auth(token))


def three_games(api: Api, token: str) -> tuple[str, int]:
    """Alain beats Bea 12-2, Bea beats Cleo 12-6, Cleo beats Alain 10-6: three points each, one
    head-to-head win each, so the score decides: Alain 18, Cleo 16, Bea 14."""
    first, _ = played(api, token, ("alain", "bea"), [(0, 6), (1, 2), (0, 6)])
    second, _ = played(api, token, ("bea", "cleo"), [(0, 6), (1, 6), (0, 6)])
    third, position = played(api, token, ("cleo", "alain"), [(0, 5), (1, 6), (0, 5)])
    for game_id in (first, second, third):
        assert assign(api, token, game_id).status_code == 201
    return first, position


def standings(api: Api, token: str, **params: Any) -> dict[str, Any]:
    response = api.client.get("/clubs/c1/leagues/autumn/standings", params=params, headers=api.auth(token))
    assert response.status_code == 200, response.text
    return dict(response.json())


def table(body: dict[str, Any]) -> list[tuple[int, str, int, int, int, int]]:
    return [(r["rank"], r["player_id"], r["played"], r["wins"], r["points"], r["score"]) for r in body["rows"]]


def test_the_standings_match_a_table_worked_out_by_hand_with_their_explanation(api: Api) -> None:
    token = club(api)
    _, position = three_games(api, token)
    wait_for_projector(api, position)
    body = standings(api, token)
    assert table(body) == [(1, "alain", 2, 1, 3, 18), (2, "cleo", 2, 1, 3, 16), (3, "bea", 2, 1, 3, 14)]
    assert [r["tie_breaks"] for r in body["rows"]] == [
        {"points": 3, "head_to_head": 2, "score": 18},
        {"points": 3, "head_to_head": 2, "score": 16},
        {"points": 3, "head_to_head": 2, "score": 14},
    ]
    assert [
        (s["upper"], s["lower"], s["criterion"], s["upper_value"], s["lower_value"]) for s in body["separations"]
    ] == [("alain", "cleo", "score", 18, 16), ("cleo", "bea", "score", 16, 14)]
    assert body["separations"][0]["text"] == "Alain is above Cleo on score (18 to 16)."
    assert all(line["counted"] for line in body["games"])
    listed = api.client.get("/clubs/c1/leagues/autumn", headers=api.auth(token)).json()
    assert len(listed["game_ids"]) == 3 and listed["league"]["tie_breaks"] == LEAGUE["tie_breaks"]


def test_standings_as_of_a_date_count_only_games_finished_by_then(api: Api) -> None:
    token = club(api)
    _, position = three_games(api, token)
    wait_for_projector(api, position)
    today = datetime.now(UTC).date()
    before = standings(api, token, as_of=(today - timedelta(days=1)).isoformat())
    assert [(r["player_id"], r["played"], r["points"]) for r in before["rows"]] == [
        ("alain", 0, 0),
        ("bea", 0, 0),
        ("cleo", 0, 0),
    ]
    assert before["as_of"] == (today - timedelta(days=1)).isoformat()
    assert table(standings(api, token, as_of=today.isoformat())) == table(standings(api, token))


def test_a_league_that_cannot_be_ranked_or_a_bad_assignment_is_refused_with_a_problem(api: Api) -> None:
    token = club(api)
    bad = api.client.post(
        "/clubs/c1/leagues",
        headers=api.auth(token),
        json=LEAGUE | {"league_id": "spring", "tie_breaks": ["points", "elo"]},
    )
    assert bad.status_code == 422 and bad.headers["content-type"].startswith("application/problem+json")
    assert bad.json()["code"] == "unknown_criterion" and bad.json()["details"]["unknown"] == ["elo"]
    stranger = api.client.post(
        "/clubs/c1/leagues", headers=api.auth(token), json=LEAGUE | {"league_id": "spring", "members": ["alain", "zed"]}
    )
    assert stranger.status_code == 422 and stranger.json()["details"]["unknown"] == ["zed"]
    again = api.client.post("/clubs/c1/leagues", json=LEAGUE, headers=api.auth(token))
    assert again.status_code == 409
    unfinished, _ = played(api, token, ("alain", "bea"), [(0, 6)])
    refused = assign(api, token, unfinished)
    assert refused.status_code == 422 and refused.json()["code"] == "game_not_finished"
    finished, _ = played(api, token, ("alain", "bea"), [(0, 6), (1, 1), (0, 6)])
    assert assign(api, token, finished).status_code == 201
    assert assign(api, token, finished).status_code == 409
    missing = api.client.get("/clubs/c1/leagues/nope/standings", headers=api.auth(token))
    assert missing.status_code == 404


def test_a_correction_of_a_finished_game_re_derives_the_standings_and_shows_what_changed(api: Api) -> None:
    token = club(api)
    first, _ = three_games(api, token)
    # Alain's winning 6 in the first game was misread: void it; the game is open again.
    position = append(api, token, first, [correction(1, "misread die")])
    wait_for_projector(api, position)
    reopened = standings(api, token)
    # Bea and Cleo tie on points; Bea beat Cleo, so head-to-head puts her first.
    assert table(reopened) == [(1, "bea", 1, 1, 3, 12), (2, "cleo", 2, 1, 3, 16), (3, "alain", 1, 0, 0, 6)]
    assert reopened["separations"][0]["criterion"] == "head_to_head"
    assert next(line for line in reopened["games"] if line["game_id"] == first)["note"] == "not finished"

    changes = api.client.get(f"/clubs/c1/games/{first}/changes", headers=api.auth(token)).json()
    assert changes["correction_version"] == 5 and changes["corrections"] == [5]
    assert changes["before"]["finished"] and not changes["after"]["finished"]
    (league,) = changes["standings"]
    assert league["league_id"] == "autumn"
    what = league["changes"]
    assert {"path": ["counted"], "op": "changed", "old": True, "new": False} in what["game"]
    rows = {row["key"]: row["changes"] for row in what["rows"]}
    assert {"path": ["points"], "op": "changed", "old": 3, "new": 0} in rows["alain"]
    assert {"path": ["rank"], "op": "changed", "old": 1, "new": 3} in rows["alain"]
    assert {"path": ["played"], "op": "changed", "old": 2, "new": 1} in rows["bea"]

    # The game goes on and Bea wins it 12-8: the table follows.
    position = append(api, token, first, [roll(0, 1), roll(1, 6), roll(0, 1), roll(1, 4)])
    wait_for_projector(api, position)
    assert [(r["rank"], r["player_id"], r["points"]) for r in standings(api, token)["rows"]] == [
        (1, "bea", 6),
        (2, "cleo", 3),
        (3, "alain", 0),
    ]


def test_a_game_never_corrected_shows_no_change(api: Api) -> None:
    token = club(api)
    game_id, position = played(api, token, ("alain", "bea"), [(0, 6), (1, 1), (0, 6)])
    wait_for_projector(api, position)
    changes = api.client.get(f"/clubs/c1/games/{game_id}/changes", headers=api.auth(token)).json()
    assert changes == {
        "game_id": game_id,
        "correction_version": None,
        "corrections": [],
        "before": None,
        "after": None,
        "standings": [],
        "campaigns": [],
    }
