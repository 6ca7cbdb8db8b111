"""A club's players over HTTP on both backends (issue 27): renamed, noted, retired and merged; a merge is
recorded with who and when, changes no event, and every table (league standings, ratings, campaigns)
counts the two records as one person. New games get readable ids, unique under concurrent starts."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.service.api_support import Api
from tests.service.test_projector_support import append, projection_api, roll, wait_for_projector

READABLE = re.compile(r"^\d{4}-\d{2}-\d{2}-t-\d+$")
"""A tally game's id started today: its day, `t` for Tally, the club's number for both."""


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    with projection_api(database_url) as client:
        yield client


def players(api: Api, token: str) -> dict[str, dict[str, Any]]:
    listed = api.client.get("/clubs/c1/players", headers=api.auth(token))
    assert listed.status_code == 200, listed.text
    return {p["player_id"]: p for p in listed.json()}


def change(api: Api, token: str, player_id: str, body: dict[str, Any]) -> Any:
    return api.client.patch(f"/clubs/c1/players/{player_id}", json=body, headers=api.auth(token))


def played(api: Api, token: str, seats: tuple[str, str], rolls: list[tuple[int, int]]) -> tuple[str, int]:
    game_id = api.tally_game("c1", token, seats)
    return game_id, append(api, token, game_id, [roll(seat, face) for seat, face in rolls])


def test_a_player_is_renamed_noted_retired_and_brought_back_and_a_bad_value_stores_nothing(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    renamed = change(api, token, "alain", {"name": "  Alain   Dupont ", "note": "Tuesdays"})
    assert renamed.status_code == 200, renamed.text
    assert (renamed.json()["name"], renamed.json()["note"]) == ("Alain Dupont", "Tuesdays")
    retired = change(api, token, "bea", {"retired": True}).json()
    assert retired["retired_at"] is not None and retired["name"] == "Bea"
    assert players(api, token)["bea"]["retired_at"] == retired["retired_at"]

    blank = change(api, token, "alain", {"name": "   ", "note": "Fridays"})
    assert blank.status_code == 422
    problem = blank.json()
    assert (problem["field"], problem["code"]) == ("name", "blank") and problem["detail"] == "Write a name."
    french = api.client.patch(
        "/clubs/c1/players/alain", json={"name": " "}, headers=api.auth(token) | {"Accept-Language": "fr"}
    )
    assert french.json()["detail"] == "Écrivez un nom."
    assert change(api, token, "alain", {"name": "x" * 201}).status_code == 400  # past the documented length
    assert players(api, token)["alain"]["note"] == "Tuesdays"  # nothing of the refused changes stored
    assert change(api, token, "zed", {"name": "Zed"}).status_code == 404
    back = change(api, token, "bea", {"retired": False}).json()
    assert back["retired_at"] is None


def test_a_merge_is_recorded_with_who_and_when_and_refused_when_it_makes_no_sense(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "p-alain", "bea")
    before = datetime.now(UTC)
    merged = api.client.post("/clubs/c1/players/p-alain/merge", json={"into": "alain"}, headers=api.auth(token))
    assert merged.status_code == 201, merged.text
    body = merged.json()
    assert (body["player_id"], body["into_id"]) == ("p-alain", "alain")
    assert body["key_id"] and datetime.fromisoformat(body["merged_at"]) >= before
    recorded = api.client.get("/clubs/c1/player-merges", headers=api.auth(token)).json()
    assert recorded == [body]
    assert players(api, token)["p-alain"]["merged_into"] == "alain"

    def refused(player: str, into: str) -> tuple[int, str | None, str | None]:
        answer = api.client.post(f"/clubs/c1/players/{player}/merge", json={"into": into}, headers=api.auth(token))
        return answer.status_code, answer.json().get("field"), answer.json().get("code")

    assert refused("p-alain", "bea") == (422, "player_id", "already_merged")
    assert refused("alain", "p-alain") == (422, "into", "same_person")  # the record merged into alain
    assert refused("alain", "alain") == (422, "into", "same_person")
    assert refused("bea", "zed") == (422, "into", "unknown_player")
    assert refused("zed", "bea") == (422, "player_id", "unknown_player")
    assert api.client.get("/clubs/c1/player-merges", headers=api.auth(token)).json() == [body]


def test_a_merged_person_counts_once_in_standings_ratings_and_campaigns_and_the_record_is_unchanged(
    api: Api,
) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "p-alain", "bea")
    league = {
        "league_id": "autumn",
        "ruleset": "tally",
        "members": ["alain", "p-alain", "bea"],
        "starts": "2000-01-01",
        "ends": "2999-12-31",
        "scoring": {"win_draw_loss": [3, 1, 0]},
    }
    assert api.client.post("/clubs/c1/leagues", json=league, headers=api.auth(token)).status_code == 201
    campaign = {"campaign_id": "winter", "ruleset": "tally", "players": ["alain", "bea"]}
    assert api.client.post("/clubs/c1/campaigns", json=campaign, headers=api.auth(token)).status_code == 201
    first, _ = played(api, token, ("alain", "bea"), [(0, 6), (1, 2), (0, 6)])  # alain wins 12-2
    second, position = played(api, token, ("p-alain", "bea"), [(0, 6), (1, 1), (0, 6)])  # the same person wins
    for game_id in (first, second):
        assert (
            api.client.post(
                "/clubs/c1/leagues/autumn/games", json={"game_id": game_id}, headers=api.auth(token)
            ).status_code
            == 201
        )
    assert (
        api.client.post(
            "/clubs/c1/campaigns/winter/games", json={"game_id": first}, headers=api.auth(token)
        ).status_code
        == 201
    )
    wait_for_projector(api, position)
    exported = api.client.get(f"/clubs/c1/games/{second}/export", headers=api.auth(token)).content

    def table() -> list[tuple[str, str, int]]:
        rows = api.client.get("/clubs/c1/leagues/autumn/standings", headers=api.auth(token)).json()["rows"]
        return [(r["player_id"], r["name"], r["played"]) for r in rows]

    def ladder() -> list[tuple[str, int]]:
        rows = api.client.get("/clubs/c1/ratings/tally", headers=api.auth(token)).json()["players"]
        return [(r["player_id"], r["games"]) for r in rows]

    assert sorted(table()) == [("alain", "Alain", 1), ("bea", "Bea", 2), ("p-alain", "P-alain", 1)]
    assert sorted(ladder()) == [("alain", 1), ("bea", 2), ("p-alain", 1)]
    merged = api.client.post("/clubs/c1/players/p-alain/merge", json={"into": "alain"}, headers=api.auth(token))
    assert merged.status_code == 201, merged.text

    assert sorted(table()) == [("alain", "Alain", 2), ("bea", "Bea", 2)]
    assert sorted(ladder()) == [("alain", 2), ("bea", 2)]
    history = api.client.get("/clubs/c1/ratings/tally/p-alain", headers=api.auth(token)).json()["history"]
    assert [h["game_id"] for h in history] == [first, second]  # the person's, from either record
    # The campaign of alain and bea takes the game p-alain played: the same person sat there.
    added = api.client.post("/clubs/c1/campaigns/winter/games", json={"game_id": second}, headers=api.auth(token))
    assert added.status_code == 201, added.text
    totals = api.client.get("/clubs/c1/campaigns/winter/status", headers=api.auth(token)).json()["status"]["totals"]
    assert totals == {"alain": 24, "bea": 3}
    # The record is as it was: the game still seats p-alain, its events the same bytes.
    assert api.client.get(f"/clubs/c1/games/{second}/export", headers=api.auth(token)).content == exported
    listing = api.client.get(f"/clubs/c1/games/{second}", headers=api.auth(token)).json()
    assert "p-alain" in str(listing) and "alain" in str(listing)


def test_games_started_at_once_get_readable_ids_each_its_own(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    ids: list[str] = []
    lock = threading.Lock()

    def start() -> None:
        for _ in range(3):
            game_id = api.tally_game("c1", token)
            with lock:
                ids.append(game_id)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(ids) == 12 and len(set(ids)) == 12
    assert all(READABLE.match(g) for g in ids), ids
    assert sorted(int(g.rsplit("-", 1)[1]) for g in ids) == list(range(1, 13))
    # A client's own id that a number would have taken is passed over, not doubled.
    today = ids[0].rsplit("-", 1)[0]
    api.game("c1", token, {"ruleset": "tally", "game_id": f"{today}-13", "players": [{"player_id": "alain"}]})
    assert api.tally_game("c1", token) == f"{today}-14"


def test_a_game_between_two_players_of_one_name_records_each_by_the_name_that_tells_them_apart(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "bea")
    for player_id, note in (("a1", "Tuesdays"), ("a2", "Fridays")):
        made = api.client.post(
            "/clubs/c1/players", headers=api.auth(token), json={"player_id": player_id, "name": "Alain"}
        )
        assert made.status_code == 201, made.text
        assert change(api, token, player_id, {"note": note}).status_code == 200

    def recorded_names(seats: tuple[str, str]) -> list[str]:
        game_id = api.tally_game("c1", token, seats)
        first = api.client.get(f"/clubs/c1/games/{game_id}/events", headers=api.auth(token))
        assert first.status_code == 200, first.text
        return [p["name"] for p in first.json()["events"][0]["data"]["setup"]["players"]]

    # Within one game the seats must read apart (narration, results); a name alone in its game stays as it is.
    assert recorded_names(("a1", "a2")) == ["Alain (Tuesdays)", "Alain (Fridays)"]
    assert recorded_names(("a1", "bea")) == ["Alain", "Bea"]
