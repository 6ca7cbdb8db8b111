"""A tournament's evening over HTTP on both backends: a draft round changed by hand and published (a read
key sees only published rounds), a forfeit that lets the round close, a result entered for a table as a
result-only game (counted in standings and ratings, marked in the games' listing), a revocation, a
knockout of the top cut to its champion, and the bad input of an evening refused with nothing stored."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from testkit.waiting import wait_until
from tests.service.api_support import Api
from tests.service.test_projector_support import projection_api

PLAYERS = ("alain", "bea", "cleo", "dan")


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    with projection_api(database_url) as client:
        yield client


def swiss(tournament_id: str, **options: Any) -> dict[str, Any]:
    """A Swiss tournament of Tally games: win 2, draw 1, loss 0; ties broken by points, then score."""
    return {
        "tournament_id": tournament_id,
        "ruleset": "tally",
        "system": "swiss",
        "scoring": {"win_draw_loss": [2, 1, 0]},
        "tie_breaks": ["points", "score"],
        **options,
    }


def club(api: Api, **options: Any) -> str:
    token = api.club("c1")
    api.players("c1", token, *PLAYERS, "eve", "fay")
    response = api.client.post("/clubs/c1/tournaments", json=swiss("open", **options), headers=api.auth(token))
    assert response.status_code == 201, response.text
    for player in PLAYERS:
        post(api, token, "/players", {"player_id": player})
    return token


def read_key(api: Api, token: str) -> str:
    response = api.client.post("/clubs/c1/keys", json={"name": "players", "scope": "read"}, headers=api.auth(token))
    assert response.status_code == 201, response.text
    return str(response.json()["token"])


def post(api: Api, token: str, path: str, body: dict[str, Any] | None = None, status: int = 201, **params: Any) -> Any:
    response = api.client.post(
        f"/clubs/c1/tournaments/open{path}", json=body or {}, params=params, headers=api.auth(token)
    )
    assert response.status_code == status, response.text
    return response.json()


def get(api: Api, token: str, path: str = "", **params: Any) -> Any:
    response = api.client.get(f"/clubs/c1/tournaments/open{path}", params=params, headers=api.auth(token))
    assert response.status_code == 200, response.text
    return response.json()


def report(api: Api, token: str, number: int, table: dict[str, Any], first: int, second: int) -> Any:
    """The table's result as scores: its first seat `first`, its second `second`."""
    scores = [{"player_id": table["seats"][0], "score": first}, {"player_id": table["seats"][1], "score": second}]
    return post(api, token, f"/rounds/{number}/tables/{table['table']}/result", {"scores": scores})


def points(api: Api, token: str) -> dict[str, float]:
    return {r["player_id"]: r["points"] for r in get(api, token, "/standings")["rows"]}


def settled(api: Api, token: str, expected: dict[str, float]) -> None:
    """Until the standings (read from the projector's summaries) show `expected`."""
    wait_until(lambda: points(api, token) == expected, "the standings")


def test_an_evening_drafts_publishes_forfeits_reports_and_revokes(api: Api) -> None:
    token = club(api)
    reader = read_key(api, token)
    draft = post(api, token, "/rounds", draft="true")["tournament"]["rounds"][0]
    assert draft["draft"] and len(draft["tables"]) == 2
    assert get(api, reader)["tournament"]["rounds"] == []  # players see published rounds only
    assert "tournament.round_paired" not in {e["event"]["type"] for e in get(api, reader, "/events")["events"]}
    assert get(api, token)["tournament"]["rounds"][0]["draft"]
    # Swap a player of each table (nobody has met yet: no rule broken), move table 1 to table 5.
    one, two = draft["tables"]
    swapped = post(api, token, "/rounds/1/swap", {"players": [one["seats"][0], two["seats"][0]]})
    assert swapped["warnings"] == []
    moved = post(api, token, "/rounds/1/tables/1/move", {"to": 5})["tournament"]["rounds"][0]
    assert [t["table"] for t in moved["tables"]] == [2, 5]
    refused = post(api, token, "/rounds/1/tables/5/forfeit", {"absent": [one["seats"][1]]}, status=422)
    assert refused["code"] == "round_not_published"
    post(api, token, "/rounds/1/publication")
    seen = get(api, reader)["tournament"]["rounds"]
    assert [t["table"] for t in seen[0]["tables"]] == [2, 5] and not seen[0]["draft"]

    table_five, table_two = moved["tables"][1], moved["tables"][0]
    absent, present = table_five["seats"][1], table_five["seats"][0]
    forfeit = post(api, token, "/rounds/1/tables/5/forfeit", {"absent": [absent], "reason": "did not come"})
    assert forfeit["tournament"]["rounds"][0]["tables"][1]["forfeited"] == [absent]
    attached = report(api, token, 1, table_two, 12, 4)["tournament"]["rounds"][0]["tables"][0]
    winner, loser = table_two["seats"]
    settled(api, token, {present: 2, absent: 0, winner: 2, loser: 0})

    # The round closes with a forfeit; the result-only game is listed as such and rated, the forfeit not.
    second = post(api, token, "/rounds")["tournament"]["rounds"][1]
    assert not second["draft"] and len(second["tables"]) == 2
    listed = {g["game_id"]: g for g in api.client.get("/clubs/c1/games", headers=api.auth(token)).json()["games"]}
    assert listed[attached["game_id"]]["result_only"] and listed[attached["game_id"]]["finished"]
    game_events = api.client.get(f"/clubs/c1/games/{attached['game_id']}/events", headers=api.auth(token)).json()
    assert [e["type"] for e in game_events["events"]] == ["tablelog.game_started", "tablelog.result_reported"]
    lines = get(api, token, "/standings")["games"]
    assert [(g["game_id"], g["result_only"]) for g in lines] == [(attached["game_id"], True)]
    rated = api.client.get("/clubs/c1/ratings/tally", headers=api.auth(token)).json()["players"]
    assert sorted(r["player_id"] for r in rated) == sorted((winner, loser))

    # The forfeit is revoked: the event stays in the record, its points are gone.
    events = get(api, token, "/events")["events"]
    version = next(e["version"] for e in events if e["event"]["type"] == "tournament.table_forfeited")
    revoked = post(api, token, "/revocations", {"version": version, "reason": "she was there"})
    assert revoked["tournament"]["rounds"][0]["tables"][1]["forfeited"] == []
    assert points(api, token) == {present: 0, absent: 0, winner: 2, loser: 0}
    audit = get(api, token, "/events")["events"]
    assert audit[-1]["event"] == {"type": "tournament.revoked", "version": version, "reason": "she was there"}
    assert audit[-1]["key_id"] is not None and len(audit) == len(events) + 1


def test_the_hand_change_that_breaks_a_pairing_rule_says_which(api: Api) -> None:
    token = club(api)
    first = post(api, token, "/rounds")["tournament"]["rounds"][0]
    for table in first["tables"]:
        report(api, token, 1, table, 12, 4)
    settled(api, token, {p: 2 if p in {t["seats"][0] for t in first["tables"]} else 0 for p in PLAYERS})
    draft = post(api, token, "/rounds", draft="true")["tournament"]["rounds"][1]
    met = first["tables"][0]["seats"]
    sitting = next(t for t in draft["tables"] if met[0] in t["seats"])
    opponent = next(p for p in sitting["seats"] if p != met[0])
    changed = post(api, token, "/rounds/2/swap", {"players": [opponent, met[1]]})
    assert changed["warnings"] == [{"rule": "no_repeat", "text": "This change pairs two players who have met already."}]
    assert changed["tournament"]["rounds"][1]["warnings"] == ["no_repeat"]
    # Paired again, the round is a fresh draft: the hand change and its warning are gone.
    again = post(api, token, "/rounds/2/repairing", {"reason": "start over"})["tournament"]["rounds"][1]
    assert again["draft"] and again["warnings"] == [] and again["tables"] == draft["tables"]


def test_a_knockout_of_the_top_four_is_seeded_from_the_swiss_and_ends_with_a_champion(api: Api) -> None:
    token = club(api, rounds=1)
    first = post(api, token, "/rounds")["tournament"]["rounds"][0]
    for table in first["tables"]:
        report(api, token, 1, table, 12, 4)
    winners = {t["seats"][0] for t in first["tables"]}
    settled(api, token, {p: 2 if p in winners else 0 for p in PLAYERS})
    refused = post(api, token, "/knockout", {"cut": 8}, status=422)
    assert refused["code"] == "field_smaller_than_cut" and refused["details"] == {"cut": 8, "players": 4}
    seeds = post(api, token, "/knockout", {"cut": 4})["tournament"]["knockout"]["seeds"]
    rank = {r["player_id"]: r["rank"] for r in get(api, token, "/standings")["rows"]}
    assert sorted(seeds) == sorted(PLAYERS) and [rank[p] for p in seeds] == [1, 1, 3, 3]
    semi = post(api, token, "/rounds")["tournament"]["rounds"][1]
    assert semi["stage"] == "knockout"
    assert {frozenset(t["seats"]) for t in semi["tables"]} == {
        frozenset((seeds[0], seeds[3])),
        frozenset((seeds[1], seeds[2])),
    }
    for table in semi["tables"]:
        report(api, token, 2, table, 3, 11)  # the second seat wins
    through = sorted(t["seats"][1] for t in semi["tables"])

    finals: list[Any] = []

    def final() -> bool:
        response = api.client.post("/clubs/c1/tournaments/open/rounds", json={}, headers=api.auth(token))
        if response.status_code == 201:
            finals.append(response.json()["tournament"]["rounds"][2])
        return bool(finals)

    wait_until(final, "the final paired once the semi-finals' games are projected")
    paired = finals[0]
    assert sorted(paired["tables"][0]["seats"]) == through
    report(api, token, 3, paired["tables"][0], 12, 6)
    wait_until(lambda: get(api, token)["champion"] == paired["tables"][0]["seats"][0], "the champion")
    assert post(api, token, "/rounds", status=422)["code"] == "knockout_finished"
    # Standings stay the Swiss ones.
    assert points(api, token) == {p: 2 if p in winners else 0 for p in PLAYERS}


def stored(api: Api, token: str) -> tuple[int, int]:
    """The tournament's events and the club's games, counted."""
    games = api.client.get("/clubs/c1/games", headers=api.auth(token)).json()["games"]
    return len(get(api, token, "/events")["events"]), len(games)


def test_the_bad_input_of_an_evening_is_refused_with_nothing_stored(api: Api) -> None:
    token = club(api, rounds=1)
    first = post(api, token, "/rounds")["tournament"]["rounds"][0]
    one, two = first["tables"]
    before = stored(api, token)

    # A result for a table one is not at.
    stranger = [{"player_id": one["seats"][0], "score": 12}, {"player_id": two["seats"][0], "score": 3}]
    problem = post(api, token, "/rounds/1/tables/1/result", {"scores": stranger}, status=422)
    assert problem["code"] == "not_at_table" and problem["details"]["players"] == [two["seats"][0]]
    # A result-only game with inconsistent placements: the game's rules refuse it (G-6).
    inconsistent = [
        {"player_id": one["seats"][0], "score": 12, "placement": 2},
        {"player_id": one["seats"][1], "score": 4, "placement": 1},
    ]
    problem = post(api, token, "/rounds/1/tables/1/result", {"scores": inconsistent}, status=422)
    assert problem["rule_id"] == "G-6" and problem["code"] == "placements_inconsistent"
    assert "Seat 1 scored more than seat 2 but is not placed above it." in problem["detail"]
    # A knockout over a field smaller than its cut.
    assert post(api, token, "/knockout", {"cut": 6}, status=422)["code"] == "field_smaller_than_cut"
    # A late entry after the last round.
    problem = post(api, token, "/players", {"player_id": "eve"}, status=422)
    assert problem["code"] == "after_last_round"
    # A forfeit of a closed table: forfeited already, or its game finished.
    assert stored(api, token) == before
    post(api, token, "/rounds/1/tables/1/forfeit", {"absent": [one["seats"][1]]})
    again = post(api, token, "/rounds/1/tables/1/forfeit", {"absent": [one["seats"][0]]}, status=422)
    assert again["code"] == "table_closed"
    report(api, token, 1, two, 12, 4)
    wait_until(lambda: points(api, token)[two["seats"][0]] == 2, "the table's game projected")
    after = stored(api, token)
    closed = post(api, token, "/rounds/1/tables/2/forfeit", {"absent": [two["seats"][1]]}, status=422)
    assert closed["code"] == "table_closed" and closed["details"]["game_id"]
    # A forfeit naming a player not at the table, and a revocation the record would not hold.
    assert post(api, token, "/rounds/1/tables/1/result", {"scores": stranger}, status=422)["code"] == "table_closed"
    problem = post(api, token, "/revocations", {"version": 2}, status=422)
    assert problem["code"] == "revocation_breaks_record"
    assert post(api, token, "/revocations", {"version": 1}, status=422)["code"] == "not_revocable"
    assert stored(api, token) == after


def test_a_result_only_game_counts_in_a_league_and_a_campaign_and_takes_no_other_event(api: Api) -> None:
    """Created with its result through the games API: refused with nothing stored when its places do not
    follow its scores; otherwise listed as result-only, counted by a league and a campaign like any game,
    closed to events, and corrected by voiding its result and reporting another."""
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    seats = [{"player_id": "alain"}, {"player_id": "bea"}]
    league = {
        "league_id": "autumn",
        "ruleset": "tally",
        "members": ["alain", "bea"],
        "starts": "2000-01-01",
        "ends": "2999-12-31",
        "scoring": {"win_draw_loss": [3, 1, 0]},
    }
    for path, body in (
        ("/clubs/c1/leagues", league),
        ("/clubs/c1/campaigns", {"campaign_id": "winter", "ruleset": "tally", "players": ["alain", "bea"]}),
    ):
        assert api.client.post(path, json=body, headers=api.auth(token)).status_code == 201
    wrong = {"players": [{"seat": 0, "score": 3, "placement": 1}, {"seat": 1, "score": 11, "placement": 2}]}
    refused = api.client.post(
        "/clubs/c1/games", json={"ruleset": "tally", "players": seats, "result": wrong}, headers=api.auth(token)
    )
    assert refused.status_code == 422 and refused.json()["code"] == "placements_inconsistent"
    assert refused.json()["event_type"] == "tablelog.result_reported" and refused.json()["rule_id"] == "G-6"
    assert api.client.get("/clubs/c1/games", headers=api.auth(token)).json()["games"] == []

    result = {"players": [{"seat": 0, "score": 3}, {"seat": 1, "score": 11}]}
    created = api.client.post(
        "/clubs/c1/games", json={"ruleset": "tally", "players": seats, "result": result}, headers=api.auth(token)
    ).json()
    assert created["result_only"] and created["finished"] and created["version"] == 2
    reported = api.client.get(f"/clubs/c1/games/{created['game_id']}/result", headers=api.auth(token)).json()
    assert reported["result"]["reported"] and reported["result"]["winners"] == [1]
    game_id = created["game_id"]
    for path in ("/clubs/c1/leagues/autumn/games", "/clubs/c1/campaigns/winter/games"):
        assert api.client.post(path, json={"game_id": game_id}, headers=api.auth(token)).status_code == 201
    wait_until(
        lambda: (
            {
                r["player_id"]: r["points"]
                for r in api.client.get("/clubs/c1/leagues/autumn/standings", headers=api.auth(token)).json()["rows"]
            }
            == {"alain": 0, "bea": 3}
        ),
        "the league's standings",
    )
    campaign = api.client.get("/clubs/c1/campaigns/winter/status", headers=api.auth(token)).json()
    assert campaign["steps"][0]["status"]["totals"] == {"alain": 3, "bea": 11}

    rolled = api.append("c1", token, game_id, 2, [{"type": "tally.rolled", "seat": 0, "face": 3}])
    assert rolled.status_code == 422 and rolled.json()["code"] == "result_only"
    again = {
        "type": "tablelog.result_reported",
        "result": {"players": [{"seat": 0, "score": 11}, {"seat": 1, "score": 3}]},
    }
    corrected = api.append("c1", token, game_id, 2, [{"type": "tablelog.correction", "voids": 1}, again])
    assert corrected.status_code == 201, corrected.text
    now = api.client.get(f"/clubs/c1/games/{game_id}/result", headers=api.auth(token)).json()
    assert now["version"] == 4 and now["result"]["winners"] == [0]
    wait_until(
        lambda: (
            api.client.get("/clubs/c1/campaigns/winter/status", headers=api.auth(token)).json()["steps"][0]["status"][
                "totals"
            ]
            == {"alain": 11, "bea": 3}
        ),
        "the campaign after the correction",
    )
