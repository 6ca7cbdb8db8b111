"""Game ids belong to their club (issue 13 part 10), over HTTP on both backends: two clubs each record,
read, replay, rank and pair their own `friday-1`, and nothing one club asks tells it whether another
club holds an id (every answer is the same before and after the other club records that game)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.store.base import Recorder
from service.usecases.games import GameRecords, NewGame, SeatSpec
from tests.service.api_support import Api, club_store
from tests.service.test_projector_support import append, projection_api, roll, wait_for_projector
from tests.support.rulesets import RULESETS
from tests.test_e2e import environment, tablelog

CLUBS = ("c1", "c2")
# Alain wins friday-1 at c1 (12-2), Bea wins it at c2 (12-4), in a different number of events.
PLAYED = {"c1": [(0, 6), (1, 2), (0, 6)], "c2": [(0, 1), (1, 6), (0, 3), (1, 6)]}
LEAGUE = {
    "league_id": "autumn",
    "ruleset": "tally",
    "members": ["alain", "bea"],
    "starts": "2000-01-01",
    "ends": "2999-12-31",
    "scoring": {"win_draw_loss": [3, 1, 0]},
}


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    with projection_api(database_url) as client:
        yield client


def clubs(api: Api) -> dict[str, str]:
    tokens = {club: api.club(club) for club in CLUBS}
    for club, token in tokens.items():
        api.players(club, token, "alain", "bea")
    return tokens


def create(api: Api, club: str, token: str, game_id: str, status: int = 201) -> Any:
    body = {"ruleset": "tally", "game_id": game_id, "players": [{"player_id": "alain"}, {"player_id": "bea"}]}
    response = api.client.post(f"/clubs/{club}/games", json=body, headers=api.auth(token))
    assert response.status_code == status, response.text
    return response.json()


def get(api: Api, token: str, path: str, **params: Any) -> Any:
    response = api.client.get(path, params=params, headers=api.auth(token))
    assert response.status_code == 200, response.text
    return response.json()


def test_two_clubs_each_record_read_and_replay_their_own_game_of_the_same_id(api: Api) -> None:
    tokens = clubs(api)
    for club, token in tokens.items():
        assert create(api, club, token, "friday-1")["game_id"] == "friday-1"
    positions = [
        append(api, token, "friday-1", [roll(*r) for r in PLAYED[club]], club) for club, token in tokens.items()
    ]
    wait_for_projector(api, max(positions))
    for club, token in tokens.items():
        base = f"/clubs/{club}/games/friday-1"
        rolls = [(e["data"]["seat"], e["data"]["face"]) for e in get(api, token, f"{base}/events")["events"][1:]]
        assert rolls == PLAYED[club]
        assert get(api, token, base)["version"] == len(PLAYED[club]) + 1
        result = get(api, token, f"{base}/result")["result"]
        assert result["winners"] == ([0] if club == "c1" else [1])
        steps = get(api, token, f"{base}/replay")["steps"]
        assert len(steps) == len(PLAYED[club]) + 1
        assert (
            get(api, token, f"{base}/replay/2", view="full")["view"]
            == get(api, token, f"{base}/state", version=2, view="full")["state"]
        )
        listed = get(api, token, f"/clubs/{club}/games")["games"]
        assert [(g["game_id"], g["version"]) for g in listed] == [("friday-1", len(PLAYED[club]) + 1)]
    # A spectator delay set at one club holds back that club's game alone.
    delay = api.client.put(
        "/clubs/c2/games/friday-1/spectator-delay", json={"events": 2}, headers=api.auth(tokens["c2"])
    )
    assert delay.status_code == 200, delay.text
    assert get(api, tokens["c1"], "/clubs/c1/games/friday-1/spectator-delay") == {"events": 0, "seconds": 0}
    assert get(api, tokens["c2"], "/clubs/c2/games/friday-1/spectator-delay") == {"events": 2, "seconds": 0}
    # Idempotency keys are the game's own too: the same key at the other club is a new append.
    for club, token in tokens.items():
        version = get(api, token, f"/clubs/{club}/games/friday-1")["version"]
        response = api.append(club, token, "friday-1", version, [roll(0, 1)], key="late-roll")
        assert response.status_code in (201, 422), response.text


def test_each_club_ranks_and_pairs_its_own_friday_1(api: Api) -> None:
    tokens = clubs(api)
    positions = []
    for club, token in tokens.items():
        created = api.client.post(f"/clubs/{club}/leagues", json=LEAGUE, headers=api.auth(token))
        assert created.status_code == 201, created.text
        tournament = {"tournament_id": "open", "ruleset": "tally", "system": "round_robin"}
        made = api.client.post(
            f"/clubs/{club}/tournaments", json=tournament | {"scoring": LEAGUE["scoring"]}, headers=api.auth(token)
        )
        assert made.status_code == 201, made.text
        for player in ("alain", "bea"):
            joined = api.client.post(
                f"/clubs/{club}/tournaments/open/players", json={"player_id": player}, headers=api.auth(token)
            )
            assert joined.status_code == 201, joined.text
        paired = api.client.post(f"/clubs/{club}/tournaments/open/rounds", json={}, headers=api.auth(token))
        assert paired.status_code == 201, paired.text
        seats = paired.json()["tournament"]["rounds"][0]["tables"][0]["seats"]
        body = {"ruleset": "tally", "game_id": "friday-1", "players": [{"player_id": p} for p in seats]}
        assert api.client.post(f"/clubs/{club}/games", json=body, headers=api.auth(token)).status_code == 201
        # Seat 0 wins at c1, seat 1 at c2.
        positions.append(append(api, token, "friday-1", [roll(*r) for r in PLAYED[club]], club))
        attached = api.client.post(
            f"/clubs/{club}/tournaments/open/rounds/1/tables/1/game",
            json={"game_id": "friday-1"},
            headers=api.auth(token),
        )
        assert attached.status_code == 201, attached.text
    wait_for_projector(api, max(positions))
    winners = {}
    for club, token in tokens.items():
        assigned = api.client.post(
            f"/clubs/{club}/leagues/autumn/games", json={"game_id": "friday-1"}, headers=api.auth(token)
        )
        assert assigned.status_code == 201, assigned.text
        league = get(api, token, f"/clubs/{club}/leagues/autumn/standings")
        tournament = get(api, token, f"/clubs/{club}/tournaments/open/standings")
        winners[club] = (league["rows"][0]["player_id"], tournament["rows"][0]["player_id"])
        assert league["rows"][0]["points"] == 3 and len(league["games"]) == 1
    seats = get(api, tokens["c1"], "/clubs/c1/games/friday-1")["player_ids"]
    assert winners == {"c1": (seats[0], seats[0]), "c2": (seats[1], seats[1])}
    # Taking c1's friday-1 out of c1's league leaves c2's league as it was.
    removed = api.client.post(
        "/clubs/c1/leagues/autumn/games/friday-1/removal", json={"reason": "misread"}, headers=api.auth(tokens["c1"])
    )
    assert removed.status_code == 201, removed.text
    assert removed.json()["counted_game_ids"] == []
    assert get(api, tokens["c1"], "/clubs/c1/leagues/autumn/standings")["rows"][0]["points"] == 0
    kept = get(api, tokens["c2"], "/clubs/c2/leagues/autumn/standings")
    assert (kept["rows"][0]["player_id"], kept["rows"][0]["points"], kept["removals"]) == (seats[1], 3, [])


# Every question a club's key can ask about a game id (path, method, body).
PROBES: list[tuple[str, str, dict[str, Any] | None]] = [
    ("GET", "/clubs/c2/games/{id}", None),
    ("GET", "/clubs/c2/games/{id}/events", None),
    ("GET", "/clubs/c2/games/{id}/state", None),
    ("GET", "/clubs/c2/games/{id}/state?version=1", None),
    ("GET", "/clubs/c2/games/{id}/result", None),
    ("GET", "/clubs/c2/games/{id}/legal?seat=0", None),
    ("GET", "/clubs/c2/games/{id}/replay", None),
    ("GET", "/clubs/c2/games/{id}/replay/1", None),
    ("GET", "/clubs/c2/games/{id}/changes", None),
    ("GET", "/clubs/c2/games/{id}/spectator-delay", None),
    ("PUT", "/clubs/c2/games/{id}/spectator-delay", {"events": 1}),
    ("POST", "/clubs/c2/games/{id}/events", {"expected_version": 1, "events": [roll(0, 3)]}),
    ("POST", "/clubs/c2/leagues/autumn/games", {"game_id": "{id}"}),
    ("POST", "/clubs/c2/leagues/autumn/games/{id}/removal", {"reason": "probe"}),
    ("POST", "/clubs/c2/tournaments/open/rounds/1/tables/1/game", {"game_id": "{id}"}),
    ("POST", "/clubs/c2/shares", {"kind": "game", "target_id": "{id}"}),
]


def probe(api: Api, token: str, game_id: str) -> list[tuple[str, int, Any]]:
    """Each probe's status and body (bar the problem's `instance`, which names the request)."""
    answers = []
    for method, path, body in PROBES:
        json = None if body is None else {k: v.format(id=game_id) if isinstance(v, str) else v for k, v in body.items()}
        response = api.client.request(method, path.format(id=game_id), json=json, headers=api.auth(token))
        content = response.json()
        if isinstance(content, dict):
            content.pop("instance", None)
        answers.append((f"{method} {path}", response.status_code, content))
    return answers


def test_no_answer_tells_a_club_that_another_club_holds_a_game_id(api: Api) -> None:
    tokens = clubs(api)
    created = api.client.post("/clubs/c2/leagues", json=LEAGUE, headers=api.auth(tokens["c2"]))
    assert created.status_code == 201, created.text
    tournament = {"tournament_id": "open", "ruleset": "tally", "system": "round_robin", "scoring": LEAGUE["scoring"]}
    assert api.client.post("/clubs/c2/tournaments", json=tournament, headers=api.auth(tokens["c2"])).status_code == 201
    for path, body in (("/players", {"player_id": "alain"}), ("/players", {"player_id": "bea"}), ("/rounds", {})):
        made = api.client.post(f"/clubs/c2/tournaments/open{path}", json=body, headers=api.auth(tokens["c2"]))
        assert made.status_code == 201, made.text
    before = probe(api, tokens["c2"], "saturday-1")
    assert {status for _, status, _ in before} == {404}, before

    # Club c1 records saturday-1, finishes it, ranks it, delays it and shares it.
    create(api, "c1", tokens["c1"], "saturday-1")
    position = append(api, tokens["c1"], "saturday-1", [roll(*r) for r in PLAYED["c1"]], "c1")
    api.client.post("/clubs/c1/leagues", json=LEAGUE, headers=api.auth(tokens["c1"]))
    wait_for_projector(api, position)
    for path, body in (
        ("/clubs/c1/leagues/autumn/games", {"game_id": "saturday-1"}),
        ("/clubs/c1/shares", {"kind": "game", "target_id": "saturday-1"}),
    ):
        assert api.client.post(path, json=body, headers=api.auth(tokens["c1"])).status_code == 201
    delay = api.client.put(
        "/clubs/c1/games/saturday-1/spectator-delay", json={"events": 1}, headers=api.auth(tokens["c1"])
    )
    assert delay.status_code == 200

    assert probe(api, tokens["c2"], "saturday-1") == before
    # And the id is free at c2, as any id c2 has not used.
    assert create(api, "c2", tokens["c2"], "saturday-1")["game_id"] == "saturday-1"
    assert get(api, tokens["c2"], "/clubs/c2/games/saturday-1")["version"] == 1
    assert get(api, tokens["c1"], "/clubs/c1/games/saturday-1")["version"] == len(PLAYED["c1"]) + 1


def test_the_cli_exports_the_named_clubs_game_and_imports_under_an_id_another_club_holds(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'clubs.db'}"
    env = environment(url)
    with club_store(url) as store:
        store.create_club("c2", "Club Two")
        for player in ("alain", "bea"):
            store.create_player("c2", player, player.capitalize())
        records = GameRecords(store, RULESETS)
        seats = [SeatSpec(player_id="alain"), SeatSpec(player_id="bea")]
        for club in CLUBS:
            by = Recorder(club_id=club)
            records.create_game(club, NewGame(ruleset="tally", players=seats, game_id="friday-1"), by)
            records.append(club, "friday-1", [roll(*r) for r in PLAYED[club]], 1, by)
    exported = {}
    for club in CLUBS:
        exported[club] = tmp_path / f"{club}.jsonl"
        tablelog("export", "friday-1", "--club", club, "-o", str(exported[club]), env=env)
        rolls = [json.loads(line) for line in exported[club].read_text().splitlines()[1:]]
        assert [(r["seat"], r["face"]) for r in rolls] == PLAYED[club]
    missing = tablelog("export", "friday-1", "--club", "c3", env=env, check=False)
    assert missing.returncode == 2 and missing.stderr == "no game 'friday-1' in club 'c3'\n"
    # c1's game goes to c2 under an id c1 also holds (and c2 not yet): taken at c2 alone.
    moved = tablelog("import", str(exported["c1"]), "--club", "c2", "--game-id", "friday-2", env=env)
    assert "game friday-2 imported: 4 events" in moved.stdout
    taken = tablelog("import", str(exported["c1"]), "--club", "c2", "--game-id", "friday-1", env=env, check=False)
    assert taken.returncode == 1 and taken.stderr == "game 'friday-1' already exists.\n"
    tablelog("import", str(exported["c2"]), "--club", "c1", "--game-id", "friday-2", env=env)
    assert "events verified" in tablelog("verify", env=env).stdout
