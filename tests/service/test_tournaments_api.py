"""Tournaments over HTTP on both backends: a Swiss event of five tally players paired by tablelog round
after round from the standings, with byes, a withdrawal, a late entry, games attached to tables,
standings per round, a re-pairing after a correction, and refusals as problem details."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from projections.tournaments import seeded
from tests.service.api_support import Api
from tests.service.test_projector_support import append, correction, projection_api, roll, wait_for_projector

PLAYERS = ("alain", "bea", "cleo", "dan", "eve")


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    with projection_api(database_url) as client:
        yield client


def club(api: Api) -> str:
    token = api.club("c1")
    api.players("c1", token, *PLAYERS, "fay")
    created = post(
        api,
        token,
        "",
        {
            "tournament_id": "open",
            "ruleset": "tally",
            "system": "swiss",
            "scoring": {"win_draw_loss": [2, 1, 0]},
            "tie_breaks": ["points", "buchholz", "score"],
        },
    )
    assert created["tournament"]["definition"]["bye_points"] == 2
    for player in PLAYERS:
        post(api, token, "/players", {"player_id": player})
    return token


def post(api: Api, token: str, path: str, body: dict[str, Any], status: int = 201) -> Any:
    response = api.client.post(
        f"/clubs/c1/tournaments/open{path}" if path or "tournament_id" not in body else "/clubs/c1/tournaments",
        json=body,
        headers=api.auth(token),
    )
    assert response.status_code == status, response.text
    return response.json()


def get(api: Api, token: str, path: str = "", **params: Any) -> Any:
    response = api.client.get(f"/clubs/c1/tournaments/open{path}", params=params, headers=api.auth(token))
    assert response.status_code == 200, response.text
    return response.json()


def play(api: Api, token: str, seats: list[str], first_wins: bool = True) -> tuple[str, int]:
    """A tally game between the table's players in its seats; seat 0 wins 12-1 (or seat 1 wins 12-6)."""
    game_id = api.tally_game("c1", token, seats)
    rolls = [(0, 6), (1, 1), (0, 6)] if first_wins else [(0, 1), (1, 6), (0, 5), (1, 6)]
    return game_id, append(api, token, game_id, [roll(seat, face) for seat, face in rolls])


def play_round(api: Api, token: str, number: int, tables: list[dict[str, Any]]) -> int:
    position = 0
    for table in tables:
        game_id, position = play(api, token, table["seats"])
        post(api, token, f"/rounds/{number}/tables/{table['table']}/game", {"game_id": game_id})
    return position


def test_a_swiss_tournament_is_paired_round_after_round_from_the_standings(api: Api) -> None:
    token = club(api)
    first = post(api, token, "/rounds", {})["tournament"]["rounds"][0]
    # Before any game the order is the seeded one: the lowest in it gets the bye, the rest pair top down.
    order = sorted(PLAYERS, key=lambda p: seeded(0, p))
    assert first["byes"] == [order[-1]] and first["relaxed"] == []
    assert [sorted(t["seats"]) for t in first["tables"]] == [sorted(order[0:2]), sorted(order[2:4])]
    early = post(api, token, "/rounds", {}, status=422)
    assert early["code"] == "round_not_finished" and early["details"] == {"round": 1, "tables": [1, 2]}

    position = play_round(api, token, 1, first["tables"])
    wait_for_projector(api, position)
    after_one = get(api, token, "/standings", round=1)
    winners = {t["seats"][0] for t in first["tables"]} | set(first["byes"])
    assert sorted((r["player_id"], r["points"]) for r in after_one["rows"]) == sorted(
        (p, 2 if p in winners else 0) for p in PLAYERS
    )

    second = post(api, token, "/rounds", {})["tournament"]["rounds"][1]
    met_before = {frozenset(t["seats"]) for t in first["tables"]}
    assert not any(frozenset(t["seats"]) in met_before for t in second["tables"])
    assert second["byes"] != first["byes"] and len(second["byes"]) == 1
    position = play_round(api, token, 2, second["tables"])
    wait_for_projector(api, position)

    # Dan withdraws; Fay enters late: round 3 pairs Fay and not Dan.
    post(api, token, "/players/dan/withdrawal", {"reason": "went home"})
    post(api, token, "/players", {"player_id": "fay"})
    third = post(api, token, "/rounds", {})["tournament"]["rounds"][2]
    seated = [p for t in third["tables"] for p in t["seats"]] + third["byes"]
    assert sorted(seated) == ["alain", "bea", "cleo", "eve", "fay"]
    standings_now = get(api, token, "/standings")
    assert {r["player_id"] for r in standings_now["rows"]} == {*PLAYERS, "fay"}

    events = get(api, token, "/events")["events"]
    kinds = [e["event"]["type"] for e in events]
    assert kinds[:6] == ["tournament.created"] + ["tournament.player_entered"] * 5
    assert kinds.count("tournament.round_paired") == 3 and kinds.count("tournament.game_attached") == 4
    assert {e["key_id"] for e in events} != {None}
    assert events[-3]["event"] == {"type": "tournament.player_withdrew", "player_id": "dan", "reason": "went home"}


def test_a_correction_of_a_played_game_lets_the_latest_round_be_paired_again(api: Api) -> None:
    token = club(api)
    first = post(api, token, "/rounds", {})["tournament"]["rounds"][0]
    games: dict[int, str] = {}
    position = 0
    for table in first["tables"]:
        games[table["table"]], position = play(api, token, table["seats"])
        post(api, token, f"/rounds/1/tables/{table['table']}/game", {"game_id": games[table["table"]]})
    wait_for_projector(api, position)
    post(api, token, "/rounds", {})
    # The first table's winning roll is voided and the game replayed the other way: seat 1 wins.
    loser = first["tables"][0]["seats"][1]
    position = append(
        api, token, games[1], [correction(1, "misread die"), roll(0, 1), roll(1, 6), roll(0, 1), roll(1, 6)]
    )
    wait_for_projector(api, position)
    assert next(r for r in get(api, token, "/standings", round=1)["rows"] if r["player_id"] == loser)["points"] == 2
    again = post(api, token, "/rounds/2/repairing", {"reason": "table 1 of round 1 corrected"})
    rounds = again["tournament"]["rounds"]
    assert len(rounds) == 2 and all(t["game_id"] is None for t in rounds[1]["tables"])
    kinds = [e["event"]["type"] for e in get(api, token, "/events")["events"]]
    assert kinds[-2:] == ["tournament.round_unpaired", "tournament.round_paired"]
    refused = post(api, token, "/rounds/1/repairing", {"reason": "too late"}, status=422)
    assert refused["code"] == "not_latest_round"


def test_games_at_the_wrong_table_and_unplayable_tournaments_are_refused(api: Api) -> None:
    token = club(api)
    table = post(api, token, "/rounds", {})["tournament"]["rounds"][0]["tables"][0]
    outsider = next(p for p in PLAYERS if p not in table["seats"])
    stranger, _ = play(api, token, [table["seats"][0], outsider])
    refused = post(api, token, "/rounds/1/tables/1/game", {"game_id": stranger}, status=422)
    assert refused["code"] == "wrong_players" and refused["details"]["seats"] == table["seats"]
    missing = post(api, token, "/rounds/3/tables/1/game", {"game_id": stranger}, status=422)
    assert missing["code"] == "no_such_round"
    duel_only = api.client.post(
        "/clubs/c1/tournaments",
        headers=api.auth(token),
        json={
            "tournament_id": "m44",
            "ruleset": "memoire-44",
            "system": "tables",
            "scoring": {"win_draw_loss": [2, 1, 0]},
        },
    )
    assert duel_only.status_code == 422 and duel_only.json()["code"] == "table_size_unplayable"
    assert duel_only.json()["detail"] == "The game is not played at tables of 3."
    crowd = api.client.post(
        "/clubs/c1/tournaments",
        headers=api.auth(token),
        json={
            "tournament_id": "crowd",
            "ruleset": "memoire-44",
            "system": "swiss",
            "scoring": {"win_draw_loss": [2, 1, 0]},
        },
    )
    assert crowd.status_code == 201 and crowd.json()["tournament"]["definition"]["sides"] is True
    assert api.client.get("/clubs/c1/tournaments/nope", headers=api.auth(token)).status_code == 404
    listed = api.client.get("/clubs/c1/tournaments", headers=api.auth(token)).json()
    assert [(t["tournament_id"], t["ruleset"], t["system"]) for t in listed] == [
        ("crowd", "memoire-44", "swiss"),
        ("open", "tally", "swiss"),
    ]
    again = api.client.post(
        "/clubs/c1/tournaments",
        headers=api.auth(token),
        json={"tournament_id": "open", "ruleset": "tally", "system": "swiss", "scoring": {"win_draw_loss": [2, 1, 0]}},
    )
    assert again.status_code == 409
