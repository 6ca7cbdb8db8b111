"""The spectator delay holds everywhere (issue 25 part 3), on both backends: every API route a spectate key
can reach answers, while a finished game is held back five events, exactly what it answered when the game
was stopped at the released step; once the delay is lifted the result shows. The pages' walk (a spectate
session and share links, in Chromium) is tests/pages/test_spectator_release.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.service.api_support import OPERATOR, Api
from tests.service.test_projector_support import append, projection_api, roll, wait_for_projector

GAME = "held"
FIRST = "first"
LEAGUE = {
    "league_id": "auto",
    "ruleset": "tally",
    "members": ["alain", "bea"],
    "starts": "2000-01-01",
    "ends": "2999-12-31",
    "scoring": {"win_draw_loss": [3, 1, 0]},
    "automatic": True,
}
ROLLS = [roll(i % 2, 5 if i % 2 == 0 else 3) for i in range(27)]
"""27 rolls to 70 points: Alain (seat 0) reaches 70 on the last one, event 28; at step 23 nobody has."""
DELAY = 5
RELEASED = 1 + len(ROLLS) - DELAY


def _volatile(value: Any) -> Any:
    """`value` without what differs from one moment to the next (times, a read-your-writes position, the
    feed's sealed token, made anew each time)."""
    if isinstance(value, dict):
        return {k: _volatile(v) for k, v in value.items() if not k.endswith("_at") and k not in ("position", "next")}
    if isinstance(value, list):
        return [_volatile(v) for v in value]
    return value


PUBLIC_ROUTES = {
    "/clubs/{club_id}": "/clubs/c1",
    "/clubs/{club_id}/players": "/clubs/c1/players",
    "/clubs/{club_id}/games": "/clubs/c1/games",
    "/clubs/{club_id}/games/{game_id}": f"/clubs/c1/games/{GAME}",
    "/clubs/{club_id}/games/{game_id}/state": f"/clubs/c1/games/{GAME}/state",
    "/clubs/{club_id}/games/{game_id}/replay": f"/clubs/c1/games/{GAME}/replay",
    "/clubs/{club_id}/games/{game_id}/replay/{step}": f"/clubs/c1/games/{GAME}/replay/{RELEASED}",
    "/clubs/{club_id}/games/{game_id}/changes": f"/clubs/c1/games/{GAME}/changes",
    # the notes a spectator reads (public ones, each behind its step's delay: tests/service/test_notes_api.py)
    "/clubs/{club_id}/games/{game_id}/notes": f"/clubs/c1/games/{GAME}/notes",
    "/clubs/{club_id}/leagues": "/clubs/c1/leagues",
    "/clubs/{club_id}/leagues/{league_id}": "/clubs/c1/leagues/auto",
    "/clubs/{club_id}/leagues/{league_id}/standings": "/clubs/c1/leagues/auto/standings",
    "/clubs/{club_id}/campaigns": "/clubs/c1/campaigns",
    "/clubs/{club_id}/campaigns/{campaign_id}": "/clubs/c1/campaigns/series",
    "/clubs/{club_id}/campaigns/{campaign_id}/status": "/clubs/c1/campaigns/series/status",
    "/clubs/{club_id}/tournaments": "/clubs/c1/tournaments",
    "/clubs/{club_id}/ratings/{ruleset}": "/clubs/c1/ratings/tally",
    "/clubs/{club_id}/ratings/{ruleset}/{player_id}": "/clubs/c1/ratings/tally/alain",
    # the club's feed stops before the first step held back (its stream: tests/service/test_webhooks.py)
    "/clubs/{club_id}/feed": "/clubs/c1/feed?limit=1000",
}
"""Every route a spectate key may call, at the held game (one path each)."""
NOT_COMPARED = {
    "/clubs/{club_id}/games/{game_id}/spectator-delay": "the delay itself, read by anyone",
    "/clubs/{club_id}/games/{game_id}/live": "the live stream, held back by its follower (tests/service/test_sse.py)",
    "/clubs/{club_id}/tournaments/{tournament_id}": "no tournament here; one reads the same summaries as leagues",
    "/clubs/{club_id}/tournaments/{tournament_id}/standings": "as above",
}
EXTRA = [
    "/clubs/c1/games?finished=true",
    "/clubs/c1/games?finished=false",
    "/clubs/c1/games?finished=true&limit=1",
    "/clubs/c1/games?finished=false&limit=1&offset=1",
    "/clubs/c1/games?player=bea&limit=1&offset=1",
    f"/clubs/c1/games/{FIRST}/state",
]


def _paths() -> list[str]:
    return [*PUBLIC_ROUTES.values(), *EXTRA]


def _public_routes(api: Api) -> set[str]:
    """The API's routes a spectate key may call (`opt=PUBLIC`), as the app lists them."""
    found = set()
    for route in api.app.routes:
        for handler in getattr(route, "route_handlers", ()):
            if handler.opt.get("needs") == "public":
                found.add(route.path.replace(":str", "").replace(":int", ""))
    return found


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    with projection_api(database_url) as client:
        yield client


def _walk(api: Api, token: str) -> dict[str, Any]:
    out = {}
    for path in _paths():
        response = api.client.get(path, headers=api.auth(token))
        assert response.status_code == 200, (path, response.text)
        out[path] = _volatile(response.json())
    return out


def set_up(api: Api, record: str) -> None:
    """Club c1's automatic league and campaign of Tally between Alain and Bea, a first game finished, and
    the game to be held back, stopped at the step spectators will be released."""
    for player_id in ("alain", "bea"):
        api.client.post("/clubs/c1/players", json={"player_id": player_id, "name": player_id}, headers=api.auth(record))
    assert api.client.post("/clubs/c1/leagues", json=LEAGUE, headers=api.auth(record)).status_code == 201
    campaign = {"campaign_id": "series", "ruleset": "tally", "players": ["alain", "bea"]}
    assert api.client.post("/clubs/c1/campaigns", json=campaign, headers=api.auth(record)).status_code == 201
    for game_id, options in ((FIRST, {}), (GAME, {"target": 70})):
        body = {"ruleset": "tally", "players": [{"player_id": "alain"}, {"player_id": "bea"}], "options": options}
        made = api.client.post("/clubs/c1/games", json=body | {"game_id": game_id}, headers=api.auth(record))
        assert made.status_code == 201, made.text
    append(api, record, FIRST, [roll(0, 6), roll(1, 2), roll(0, 6)])
    for game_id in (FIRST, GAME):
        added = api.client.post("/clubs/c1/campaigns/series/games", json={"game_id": game_id}, headers=api.auth(record))
        assert added.status_code == 201, added.text
    wait_for_projector(api, append(api, record, GAME, ROLLS[: RELEASED - 1]))


def finish_behind_the_delay(api: Api, record: str) -> None:
    """The delay set, then the game played to its end: the record shows it finished, both games counted."""
    delay(api, record, DELAY)
    wait_for_projector(api, append(api, record, GAME, ROLLS[RELEASED - 1 :]))
    listing = api.client.get(f"/clubs/c1/games/{GAME}", headers=api.auth(record)).json()
    assert (listing["version"], listing["finished"]) == (28, True)
    standings = api.client.get("/clubs/c1/leagues/auto/standings", headers=api.auth(record)).json()
    assert sum(r["played"] for r in standings["rows"]) == 4


def delay(api: Api, record: str, events: int) -> None:
    done = api.client.put(f"/clubs/c1/games/{GAME}/spectator-delay", json={"events": events}, headers=api.auth(record))
    assert done.status_code == 200, done.text


def test_every_route_a_spectator_reaches_shows_a_held_back_game_as_stopped_at_the_released_step(api: Api) -> None:
    assert _public_routes(api) == set(PUBLIC_ROUTES) | set(NOT_COMPARED)
    record = api.club("c1")
    spectate = api.client.post(
        "/clubs/c1/keys", json={"name": "screen", "scope": "spectate"}, headers=api.auth(OPERATOR)
    )
    spectator = spectate.json()["token"]
    set_up(api, record)
    stopped = _walk(api, spectator)
    game = stopped[f"/clubs/c1/games/{GAME}"]
    assert (game["version"], game["finished"]) == (RELEASED, False)

    finish_behind_the_delay(api, record)
    held = _walk(api, spectator)
    assert [path for path in _paths() if held[path] != stopped[path]] == []

    # The delay lifted: a spectator sees the result, as the record does.
    delay(api, record, 0)
    after = _walk(api, spectator)
    game = after[f"/clubs/c1/games/{GAME}"]
    assert (game["version"], game["finished"]) == (28, True)
    assert sum(r["played"] for r in after["/clubs/c1/leagues/auto/standings"]["rows"]) == 4
    recorded = _walk(api, record)
    assert [path for path in _paths() if after[path] != recorded[path]] == []


def test_a_delay_in_seconds_holds_a_just_finished_game_back_from_the_listing_and_the_ratings(api: Api) -> None:
    record = api.club("c1")
    spectate = api.client.post(
        "/clubs/c1/keys", json={"name": "screen", "scope": "spectate"}, headers=api.auth(OPERATOR)
    )
    spectator = spectate.json()["token"]
    api.players("c1", record, "alain", "bea")
    body = {"ruleset": "tally", "players": [{"player_id": "alain"}, {"player_id": "bea"}], "game_id": FIRST}
    assert api.client.post("/clubs/c1/games", json=body, headers=api.auth(record)).status_code == 201
    hour = api.client.put(f"/clubs/c1/games/{FIRST}/spectator-delay", json={"seconds": 3600}, headers=api.auth(record))
    assert hour.status_code == 200, hour.text
    wait_for_projector(api, append(api, record, FIRST, [roll(0, 6), roll(1, 2), roll(0, 6)]))

    def seen(token: str) -> tuple[Any, ...]:
        games = api.client.get("/clubs/c1/games", headers=api.auth(token)).json()["games"]
        ratings = api.client.get("/clubs/c1/ratings/tally", headers=api.auth(token)).json()["players"]
        return tuple((g["version"], g["finished"]) for g in games), len(ratings)

    assert seen(record) == (((4, True),), 2)
    assert seen(spectator) == (((1, False),), 0)  # only the set-up is an hour old
