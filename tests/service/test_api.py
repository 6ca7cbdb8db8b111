"""The HTTP API through litestar's test client, on both backends: every endpoint and every error,
with the problem body checked."""

from __future__ import annotations

import json
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from litestar.testing import TestClient

from service import __version__
from service.app import create_app
from service.settings import Settings
from tests.service.api_support import OPERATOR, Api
from tests.support.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    app = create_app(Settings(database_url=database_url, operator_key=OPERATOR, log_format="json"), rulesets=RULESETS)
    with TestClient(app) as client:
        yield Api(client)


def rolled(seat: int, face: int) -> dict[str, Any]:
    return {"type": "tally.rolled", "seat": seat, "face": face}


def assert_problem(response: Any, status: int, type_name: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["type"] == f"/problems/{type_name}"
    assert body["status"] == status
    assert body["title"] and body["detail"]
    return body


# -- access ---------------------------------------------------------------------------------------------
def test_a_request_without_a_key_is_refused_with_401(api: Api) -> None:
    body = assert_problem(api.client.get("/clubs/c1/players"), 401, "unauthorized")
    assert "Bearer" in body["detail"]
    assert_problem(api.client.get("/clubs/c1/players", headers={"Authorization": "Bearer tl_x_y"}), 401, "unauthorized")


def test_only_the_operator_creates_clubs_and_keys(api: Api) -> None:
    token = api.club("c1")
    body = assert_problem(
        api.client.post("/clubs", json={"club_id": "c2", "name": "Two"}, headers=api.auth(token)), 403, "forbidden"
    )
    assert "operator" in body["detail"]
    assert_problem(api.client.post("/clubs/c1/keys", json={"name": "x"}, headers=api.auth(token)), 403, "forbidden")
    created = api.client.post("/clubs", json={"club_id": "c2", "name": "Two"}, headers=api.auth(OPERATOR))
    assert created.status_code == 201 and created.json()["club_id"] == "c2"
    assert_problem(
        api.client.post("/clubs", json={"club_id": "c2", "name": "Again"}, headers=api.auth(OPERATOR)),
        409,
        "already-exists",
    )
    assert_problem(
        api.client.post("/clubs/nope/keys", json={"name": "x"}, headers=api.auth(OPERATOR)), 404, "not-found"
    )


def test_a_club_key_reads_and_writes_only_its_own_club(api: Api) -> None:
    one = api.club("c1")
    two = api.club("c2")
    api.players("c1", one, "alain", "bea")
    game_id = api.tally_game("c1", one)
    assert api.client.get("/clubs/c1", headers=api.auth(one)).json()["name"] == "Club c1"
    assert_problem(api.client.get("/clubs/c1/players", headers=api.auth(two)), 403, "forbidden")
    assert_problem(api.client.get(f"/clubs/c1/games/{game_id}/events", headers=api.auth(two)), 403, "forbidden")
    blocked = api.client.post(
        f"/clubs/c1/games/{game_id}/events",
        headers=api.auth(two),
        json={"expected_version": 1, "events": [rolled(0, 3)]},
    )
    assert_problem(blocked, 403, "forbidden")
    # Club two's own path does not reach club one's game either.
    assert_problem(api.client.get(f"/clubs/c2/games/{game_id}", headers=api.auth(two)), 404, "not-found")
    assert api.client.get(f"/clubs/c1/games/{game_id}", headers=api.auth(one)).json()["version"] == 1


# -- players and games ----------------------------------------------------------------------------------
def test_players_are_added_and_listed_and_duplicates_refused(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    listed = api.client.get("/clubs/c1/players", headers=api.auth(token)).json()
    assert [(p["player_id"], p["name"]) for p in listed] == [("alain", "Alain"), ("bea", "Bea")]
    again = api.client.post("/clubs/c1/players", json={"player_id": "bea", "name": "B"}, headers=api.auth(token))
    assert_problem(again, 409, "already-exists")
    bad = api.client.post("/clubs/c1/players", json={"player_id": "", "name": "B"}, headers=api.auth(token))
    assert assert_problem(bad, 400, "malformed-request")["field"] == "player_id"


def test_creating_a_game_records_the_setup_and_ruleset_version_first(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token, options={"target": 12})
    events = api.client.get(f"/clubs/c1/games/{game_id}/events", headers=api.auth(token)).json()["events"]
    assert len(events) == 1
    first = events[0]
    assert first["type"] == "tablelog.game_started" and first["version"] == 1
    assert first["data"]["ruleset"] == "tally" and first["data"]["ruleset_version"] == "1.0.0"
    assert [(p["player_id"], p["name"], p["seat"]) for p in first["data"]["setup"]["players"]] == [
        ("alain", "Alain", 0),
        ("bea", "Bea", 1),
    ]
    assert first["data"]["setup"]["options"] == {"target": 12}


def test_a_game_with_an_unknown_player_or_ruleset_or_bad_seats_is_refused(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain")
    unknown = api.client.post(
        "/clubs/c1/games",
        headers=api.auth(token),
        json={"ruleset": "tally", "players": [{"player_id": "alain"}, {"player_id": "zed"}]},
    )
    assert assert_problem(unknown, 422, "invalid-setup")["details"] == {"unknown_players": ["zed"]}
    no_game = api.client.post(
        "/clubs/c1/games", headers=api.auth(token), json={"ruleset": "chess", "players": [{"player_id": "alain"}]}
    )
    assert "chess" in assert_problem(no_game, 404, "unknown-ruleset")["detail"]
    seats = api.client.post(
        "/clubs/c1/games",
        headers=api.auth(token),
        json={"ruleset": "tally", "players": [{"player_id": "alain", "seat": 3}]},
    )
    assert assert_problem(seats, 422, "invalid-setup")["details"] == {"seats": [3]}
    assert api.client.get("/clubs/c1/games", headers=api.auth(token)).json()["games"] == []


def test_games_are_listed_with_filters(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea", "carl")
    first = api.tally_game("c1", token, players=("alain", "bea"), options={"target": 3})
    second = api.tally_game("c1", token, players=("bea", "carl"))
    api.append("c1", token, first, 1, [rolled(0, 5)])  # alain reaches 3: finished

    def listed(query: str) -> list[str]:
        games = api.client.get(f"/clubs/c1/games{query}", headers=api.auth(token)).json()["games"]
        return sorted(g["game_id"] for g in games)

    assert listed("") == sorted([first, second])
    assert listed("?player=alain") == [first]
    assert listed("?player=carl") == [second]
    assert listed("?finished=true") == [first]
    assert listed("?finished=false") == [second]
    assert listed("?ruleset=tally&player=bea") == sorted([first, second])
    assert listed("?from=2999-01-01T00:00:00Z") == []
    assert listed("?to=2999-01-01T00:00:00Z") == sorted([first, second])


# -- appending ------------------------------------------------------------------------------------------
def test_an_append_returns_the_new_version_and_the_state_follows(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token)
    response = api.append("c1", token, game_id, 1, [rolled(0, 3), rolled(1, 6)])
    assert response.status_code == 201
    assert response.json()["first_version"] == 2 and response.json()["last_version"] == 3
    assert response.json()["position"] == response.headers["Tablelog-Position"] and response.json()["replayed"] is False
    state = api.client.get(f"/clubs/c1/games/{game_id}/state?view=full", headers=api.auth(token)).json()
    assert state["version"] == 3 and state["state"]["scores"] == [3, 6] and state["state"]["turn"] == 3


def test_a_rule_violation_names_the_event_index_and_rule_and_stores_nothing(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token)
    response = api.append("c1", token, game_id, 1, [rolled(0, 3), rolled(1, 9), rolled(0, 1)])
    body = assert_problem(response, 422, "rule-violation")
    assert body["event_index"] == 1 and body["rule_id"] == "T-2" and body["event_type"] == "tally.rolled"
    assert body["code"] == "bad_face" and body["details"] == {"face": 9}
    assert "T-2" in body["detail"] and "1 to 6" in body["detail"]
    assert api.version("c1", token, game_id) == 1


def test_a_malformed_event_is_a_400_naming_the_event_and_field_and_stores_nothing(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token)
    wrong_field = api.append("c1", token, game_id, 1, [rolled(0, 3), {"type": "tally.rolled", "seat": "x", "face": 1}])
    body = assert_problem(wrong_field, 400, "malformed-event")
    assert (body["event_index"], body["field"]) == (1, "seat")
    unknown_type = api.append("c1", token, game_id, 1, [{"type": "tally.flipped"}])
    assert assert_problem(unknown_type, 400, "malformed-event")["field"] == "type"
    not_json = api.client.post(f"/clubs/c1/games/{game_id}/events", headers=api.auth(token), content=b"{nope")
    assert_problem(not_json, 400, "malformed-request")
    empty = api.append("c1", token, game_id, 1, [])
    assert_problem(empty, 400, "malformed-event")
    assert api.version("c1", token, game_id) == 1


def test_a_stale_expected_version_is_a_409_with_the_current_version(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token)
    api.append("c1", token, game_id, 1, [rolled(0, 3)])
    body = assert_problem(api.append("c1", token, game_id, 1, [rolled(1, 3)]), 409, "version-conflict")
    assert (body["current_version"], body["expected_version"]) == (2, 1)
    assert api.version("c1", token, game_id) == 2


def test_an_idempotent_retry_returns_the_first_result_and_a_reused_key_is_refused(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token)
    first = api.append("c1", token, game_id, 1, [rolled(0, 3)], key="roll-1")
    retry = api.append("c1", token, game_id, 1, [rolled(0, 3)], key="roll-1")
    assert retry.status_code == 201 and retry.json()["replayed"] is True
    tokens = api.client.app.state.tokens  # a token is sealed afresh each time, over the same position
    assert tokens.open("c1", retry.json()["position"]) == tokens.open("c1", first.json()["position"])
    assert api.version("c1", token, game_id) == 2
    reused = api.append("c1", token, game_id, 2, [rolled(1, 4)], key="roll-1")
    assert "roll-1" in assert_problem(reused, 422, "idempotency-key-reused")["detail"]
    assert api.version("c1", token, game_id) == 2


def test_appending_to_an_unknown_game_is_a_404(api: Api) -> None:
    token = api.club("c1")
    assert_problem(api.append("c1", token, "nope", 1, [rolled(0, 1)]), 404, "not-found")


def test_a_correction_voids_the_latest_events(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token)
    api.append("c1", token, game_id, 1, [rolled(0, 3), rolled(1, 5)])
    api.append("c1", token, game_id, 3, [{"type": "tablelog.correction", "voids": 1, "reason": "misread die"}])
    state = api.client.get(f"/clubs/c1/games/{game_id}/state?view=full", headers=api.auth(token)).json()
    assert state["version"] == 4 and state["state"]["scores"] == [3, 0]
    too_long = api.append("c1", token, game_id, 4, [{"type": "tablelog.correction", "voids": 5}])
    assert assert_problem(too_long, 422, "rule-violation")["rule_id"] == "G-3"


# -- reading ----------------------------------------------------------------------------------------------
def test_events_are_read_in_pages(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token)
    api.append("c1", token, game_id, 1, [rolled(0, 1), rolled(1, 2), rolled(0, 3)])
    page = api.client.get(f"/clubs/c1/games/{game_id}/events?limit=2", headers=api.auth(token)).json()
    assert [e["version"] for e in page["events"]] == [1, 2] and page["next_after"] == 2
    rest = api.client.get(f"/clubs/c1/games/{game_id}/events?after=2&limit=2", headers=api.auth(token)).json()
    assert [e["data"] for e in rest["events"]] == [rolled(1, 2), rolled(0, 3)] and rest["next_after"] == 4
    assert rest["events"][0]["club_id"] == "c1" and rest["events"][0]["key_id"]


def test_the_state_is_read_at_any_version_in_each_view(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token)
    api.append("c1", token, game_id, 1, [rolled(0, 1), rolled(1, 2), rolled(0, 3)])
    url = f"/clubs/c1/games/{game_id}/state"
    at2 = api.client.get(f"{url}?version=2&view=full", headers=api.auth(token)).json()
    assert (at2["version"], at2["state"]["scores"], at2["state"]["turn"]) == (2, [1, 0], 2)
    public = api.client.get(f"{url}?version=3", headers=api.auth(token)).json()
    assert public["view"] == "public" and "turn" not in public["state"] and public["state"]["scores"] == [1, 2]
    seat = api.client.get(f"{url}?view=seat&seat=1", headers=api.auth(token)).json()
    assert (seat["view"], seat["seat"], seat["version"]) == ("seat", 1, 4)
    assert_problem(api.client.get(f"{url}?version=9", headers=api.auth(token)), 404, "not-found")
    assert_problem(api.client.get(f"{url}?view=seat", headers=api.auth(token)), 400, "malformed-request")
    assert_problem(api.client.get(f"{url}?view=sideways", headers=api.auth(token)), 400, "malformed-request")


def test_the_listing_follows_the_record_when_a_correction_takes_the_end_back(api: Api) -> None:
    """Appends write the listing only when the finished status changes; its version comes from the
    events, so it follows every append."""
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token, options={"target": 5})

    def listing() -> tuple[int, bool, bool]:
        game = api.client.get(f"/clubs/c1/games/{game_id}", headers=api.auth(token)).json()
        return game["version"], game["finished"], game["finished_at"] is not None

    api.append("c1", token, game_id, 1, [rolled(0, 2)])
    assert listing() == (2, False, False)
    api.append("c1", token, game_id, 2, [rolled(1, 6)])  # bea reaches 5: finished
    assert listing() == (3, True, True)
    api.append("c1", token, game_id, 3, [{"type": "tablelog.correction", "voids": 1, "reason": "misread die"}])
    assert listing() == (4, False, False)
    api.append("c1", token, game_id, 4, [rolled(1, 1)])
    assert listing() == (5, False, False)
    api.append("c1", token, game_id, 5, [rolled(0, 4)])  # alain reaches 6: finished again
    assert listing() == (6, True, True)


def test_the_result_and_legal_events_are_read(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token, options={"target": 5})
    api.append("c1", token, game_id, 1, [rolled(0, 2), rolled(1, 6)])
    result = api.client.get(f"/clubs/c1/games/{game_id}/result", headers=api.auth(token)).json()
    assert result["version"] == 3 and result["result"]["finished"] is True
    assert result["result"]["winners"] == [1] and result["result"]["score_unit"] == "pip"
    assert [(p["seat"], p["score"], p["placement"]) for p in result["result"]["players"]] == [(0, 2, 2), (1, 6, 1)]
    game = api.client.get(f"/clubs/c1/games/{game_id}", headers=api.auth(token)).json()
    assert game["finished"] is True and game["finished_at"]
    other = api.tally_game("c1", token)
    legal = api.client.get(f"/clubs/c1/games/{other}/legal?seat=0", headers=api.auth(token)).json()
    assert legal["enumerable"] is True and legal["events"] == [rolled(0, face) for face in range(1, 7)]


def test_rulesets_health_ready_and_docs_are_served(api: Api) -> None:
    rulesets = {r["name"]: r for r in api.client.get("/rulesets").json()}
    assert {"tablelog.correction", "tally.rolled"} <= set(rulesets["tally"]["event_types"])
    assert api.client.get("/health").json() == {"status": "ok", "version": __version__, "checks": {}}
    # The details are the operator's only.
    assert api.client.get("/ready").json() == {"status": "ready", "version": __version__, "checks": {}}
    ready = api.client.get("/ready", headers=api.auth(OPERATOR)).json()
    assert ready["status"] == "ready"
    assert (ready["checks"]["database"], ready["checks"]["migrations"]) == ("ok", "applied")
    assert set(ready["checks"]["projections"]) >= {"games"}
    schema = api.client.get("/docs/openapi.json").json()
    assert "/clubs/{club_id}/games/{game_id}/events" in schema["paths"]
    assert schema["info"]["version"] == __version__
    assert api.client.get("/docs/swagger").status_code == 200


def test_the_version_health_and_the_api_document_give_is_the_one_written_in_pyproject() -> None:
    with (ROOT / "pyproject.toml").open("rb") as file:
        written = tomllib.load(file)["project"]["version"]
    assert __version__ == written
    committed = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
    assert committed["info"]["version"] == written


def test_every_log_line_of_a_request_carries_its_request_club_and_game_and_no_secret(
    database_url: str, capfd: pytest.CaptureFixture[str]
) -> None:
    app = create_app(Settings(database_url=database_url, operator_key=OPERATOR, log_format="json"), rulesets=RULESETS)
    with TestClient(app) as client:
        api = Api(client)
        token = api.club("c1")
        api.players("c1", token, "alain", "bea")
        game_id = api.tally_game("c1", token)
        api.client.post(
            f"/clubs/c1/games/{game_id}/events",
            headers={**api.auth(token), "X-Request-ID": "req-42"},
            json={"expected_version": 1, "events": [rolled(0, 3)]},
        )
    output = capfd.readouterr().err
    lines = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    mine = [line for line in lines if line.get("request_id") == "req-42"]
    # One summary line per request, telling what it did.
    assert [line["event"] for line in mine] == ["request.finished"]
    assert mine[0]["club_id"] == "c1" and mine[0]["game_id"] == game_id
    assert (mine[0]["status"], mine[0]["appended"], mine[0]["version"], mine[0]["replayed"]) == (201, 1, 2, False)
    # A line written inside a handler carries the request's context too.
    created = [line for line in lines if line["event"] == "game.created"]
    assert len(created) == 1 and created[0]["club_id"] == "c1" and created[0]["game_id"] == game_id
    assert created[0]["request_id"] != "req-42" and len(created[0]["request_id"]) == 32
    assert all("request_id" in line for line in lines if line["event"] == "request.finished")
    assert token not in output and token.split("_", 2)[2] not in output and OPERATOR not in output


def test_a_writer_behind_another_process_gets_a_conflict_not_a_lost_event(database_url: str) -> None:
    """Two servers on one database (two workers): each remembers folds, and one appends behind the
    other's back. The other's stale fold must not let an event in at a taken version."""
    one = create_app(Settings(database_url=database_url, operator_key=OPERATOR, log_format="json"), rulesets=RULESETS)
    two = create_app(
        Settings(database_url=database_url, operator_key=OPERATOR, log_format="json", migrate_on_start=False),
        rulesets=RULESETS,
    )
    with TestClient(one) as first, TestClient(two) as second:
        api_one, api_two = Api(first), Api(second)
        token = api_one.club("c1")
        api_one.players("c1", token, "alain", "bea")
        game_id = api_one.tally_game("c1", token)
        assert api_one.append("c1", token, game_id, 1, [rolled(0, 3)]).status_code == 201  # one remembers v2
        assert api_two.append("c1", token, game_id, 2, [rolled(1, 4)]).status_code == 201  # now at v3
        stale = api_one.append("c1", token, game_id, 2, [rolled(1, 6)])
        assert assert_problem(stale, 409, "version-conflict")["current_version"] == 3
        retried = api_one.append("c1", token, game_id, 3, [rolled(0, 1)])
        assert retried.status_code == 201, retried.text
        events = first.get(f"/clubs/c1/games/{game_id}/events", headers=api_one.auth(token)).json()["events"]
        assert [e["data"].get("face") for e in events[1:]] == [3, 4, 1]


def test_an_earlier_state_is_folded_in_a_worker_thread_and_the_latest_on_the_loop(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 13: an earlier version is folded from the start (a long game took 0.77 s), so it must not
    # run on the event loop, where it would stall every other request of the process.
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token)
    assert api.append("c1", token, game_id, 1, [rolled(0, 3), rolled(1, 4)]).status_code == 201
    threads = fold_threads(monkeypatch)
    earlier = api.client.get(f"/clubs/c1/games/{game_id}/state", params={"version": 2}, headers=api.auth(token))
    latest = api.client.get(f"/clubs/c1/games/{game_id}/state", headers=api.auth(token))
    assert (earlier.json()["version"], latest.json()["version"]) == (2, 3)
    # The heavy lane names its threads (service.usecases.games.heavy); the event loop's thread is another one.
    assert threads[0].startswith("tablelog-heavy") and not threads[1].startswith("tablelog-heavy")


def fold_threads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The threads that fold games and check batches from now on (the CPU-bound steps of `GameRecords`),
    in order: the heavy lane names its threads; the event loop's thread is another one."""
    import threading

    from service.usecases import games as recording

    threads: list[str] = []
    fold_onto, accept = recording.GameRecords._fold_onto, recording.accept_batch

    def folding(*args: Any) -> Any:
        threads.append(threading.current_thread().name)
        return fold_onto(*args)

    def checking(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        return accept(*args, **kwargs)

    monkeypatch.setattr(recording.GameRecords, "_fold_onto", staticmethod(folding))
    monkeypatch.setattr(recording, "accept_batch", checking)
    return threads


def test_a_large_batch_is_checked_in_a_worker_thread_and_a_small_one_on_the_loop(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 13: 32 writers of 500-event batches held the loop (and `/health`) for seconds.
    from service.usecases.games import LOOP_BATCH

    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token)
    threads = fold_threads(monkeypatch)
    assert api.append("c1", token, game_id, 1, [rolled(0, 1)]).status_code == 201
    many = [rolled((index + 1) % 2, 1) for index in range(LOOP_BATCH + 1)]
    assert api.append("c1", token, game_id, 2, many).status_code == 201
    assert len(threads) == 2, threads
    assert not threads[0].startswith("tablelog-heavy") and threads[1].startswith("tablelog-heavy")


@pytest.mark.parametrize("read", ["state", "result", "legal?seat=0", "events"])
def test_the_first_fold_of_a_game_after_a_restart_runs_in_a_worker_thread_and_the_next_on_the_loop(
    database_url: str, read: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 13 part 7: a process that has not folded a game yet (after a restart) folds the whole game; a
    # long one would hold the event loop (and `/health`) for as long.
    settings = Settings(database_url=database_url, operator_key=OPERATOR, log_format="json", run_projector=False)
    with TestClient(create_app(settings, rulesets=RULESETS)) as before:
        token, game_id = Api(before).played_game("c1", [rolled(0, 3), rolled(1, 4)])
    threads = fold_threads(monkeypatch)
    with TestClient(create_app(settings, rulesets=RULESETS)) as restarted:
        api = Api(restarted)
        if read == "events":  # an append is the first to fold the game
            assert api.append("c1", token, game_id, 3, [rolled(0, 1)]).status_code == 201
            assert api.append("c1", token, game_id, 4, [rolled(1, 1)]).status_code == 201
        else:
            for _ in range(2):
                answer = restarted.get(f"/clubs/c1/games/{game_id}/{read}", headers=api.auth(token))
                assert answer.status_code == 200 and answer.json()["version"] == 3
    assert len(threads) >= 1 and threads[0].startswith("tablelog-heavy"), threads
    # The next reads fold what is new on the loop (on SQLite a read that finds nothing committed since
    # folds nothing at all: test_hot_path's known-current tests).
    assert not any(thread.startswith("tablelog-heavy") for thread in threads[1:]), "the remembered fold left the loop"


def test_at_most_two_large_batches_are_checked_at_once_so_the_loop_keeps_its_turn(
    sqlite_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 13 part 7: each waiting large batch was a thread computing with the GIL; 32 of them left the
    # event loop (and `/health`) waiting its turn behind all of them.
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from service.usecases import games as recording
    from service.usecases.games import HEAVY_THREADS, LOOP_BATCH
    from tests.service.test_sse import served

    running, most = [0], [0]
    lock = threading.Lock()
    original = recording.accept_batch

    def watched(*args: Any, **kwargs: Any) -> Any:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        try:
            time.sleep(0.2)  # long enough for the six to overlap, were they let
            return original(*args, **kwargs)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(recording, "accept_batch", watched)
    with served(f"sqlite:///{sqlite_path}") as site:
        token = site.api.club("c1")
        site.api.players("c1", token, "alain", "bea")
        games = [site.api.tally_game("c1", token) for _ in range(6)]
        batch = [rolled(index % 2, 1) for index in range(LOOP_BATCH + 1)]

        def write(game_id: str) -> int:
            with httpx.Client(base_url=site.base, timeout=30) as client:
                return Api(client).append("c1", token, game_id, 1, batch).status_code

        with ThreadPoolExecutor(6) as pool:
            assert list(pool.map(write, games)) == [201] * 6
    assert 1 <= most[0] <= HEAVY_THREADS == 2


def test_a_server_hands_the_gil_back_to_its_event_loop_within_a_millisecond(api: Api) -> None:
    # Issue 13 part 7: at Python's default of 5 ms, each of the loop's wake-ups waited that long for a heavy
    # thread to let go of the GIL (bench/: `/health` p99 116 and 211 ms against 39 and 90 ms at 1 ms).
    import sys

    from service.usecases.games import SWITCH_INTERVAL

    assert api.client.get("/health").status_code == 200
    assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL) and SWITCH_INTERVAL <= 0.001
