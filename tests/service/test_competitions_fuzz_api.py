"""Nothing a client sends to leagues, campaigns or tournaments answers 500: generated bodies (most of
them wrong) for creating them and assigning games get a 2xx or a 4xx problem, and the reads after them
still answer."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.service.api_support import Api
from tests.service.test_projector_support import append, projection_api, roll, wait_for_projector

COUNTER = itertools.count()
RULESETS = st.sampled_from(["tally", "milles-nautiques", "memoire-44", "atlantic-storm", "nope"])
PLAYERS = st.lists(st.sampled_from(["alain", "bea", "cleo", "zed", ""]), max_size=8)
JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)
SCORING = (
    st.fixed_dictionaries(
        {},
        optional={
            "placement_points": st.dictionaries(st.sampled_from(["1", "2", "x", "-1"]), st.integers(-3, 9), max_size=3),
            "win_draw_loss": st.lists(st.integers(-2, 5), max_size=4),
            "score_as_points": st.booleans(),
        },
    )
    | JSONISH
)


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    with projection_api(database_url) as client:
        yield client


@pytest.fixture
def club(api: Api) -> tuple[str, list[str]]:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea", "cleo")
    games = []
    position = 0
    for seats in (("alain", "bea"), ("bea", "alain"), ("alain", "cleo")):
        game_id = api.tally_game("c1", token, seats)
        position = append(api, token, game_id, [roll(0, 6), roll(1, 2), roll(0, 6)])
        games.append(game_id)
    games.append(api.tally_game("c1", token, ("alain", "bea")))  # not finished
    wait_for_projector(api, position)
    return token, games


def fine(response: Any) -> None:
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert response.headers["content-type"].startswith("application/problem+json")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    kind=st.sampled_from(["leagues", "campaigns", "tournaments"]),
    ruleset=RULESETS,
    players=PLAYERS,
    scoring=SCORING,
    criteria=st.lists(st.sampled_from(["points", "head_to_head", "elo", "buchholz"]), max_size=3),
    system=st.sampled_from(["swiss", "round_robin", "tables", "knockout"]),
    sizes=st.lists(st.integers(0, 7), max_size=3),
    picks=st.lists(st.integers(0, 4), max_size=4),
)
@example(
    kind="tournaments",
    ruleset="tally",
    players=["alain"],
    scoring={"win_draw_loss": [2, 1, 0]},
    criteria=["points"],
    system="swiss",
    sizes=[],
    picks=[1, 0, 3],
)
@example(
    kind="tournaments",
    ruleset="tally",
    players=[],
    scoring={"placement_points": {"1": 3}},
    criteria=["points", "buchholz"],
    system="tables",
    sizes=[2, 3],
    picks=[1],
)
@example(
    kind="campaigns",
    ruleset="tally",
    players=["alain", "bea"],
    scoring=None,
    criteria=[],
    system="swiss",
    sizes=[],
    picks=[0, 1, 3, 2, 0],
)
@example(
    kind="leagues",
    ruleset="tally",
    players=["alain", "bea", "cleo"],
    scoring={"win_draw_loss": [3, 1, 0]},
    criteria=["points", "head_to_head"],
    system="swiss",
    sizes=[],
    picks=[0, 1, 2, 3, 0],
)
def test_generated_requests_never_answer_500(
    api: Api,
    club: tuple[str, list[str]],
    kind: str,
    ruleset: str,
    players: list[str],
    scoring: Any,
    criteria: list[str],
    system: str,
    sizes: list[int],
    picks: list[int],
) -> None:
    token, games = club
    auth = api.auth(token)
    ident = f"x{next(COUNTER)}"
    body: dict[str, Any] = {"ruleset": ruleset}
    if kind == "leagues":
        body |= {
            "league_id": ident,
            "members": players,
            "starts": "2000-01-01",
            "ends": "2999-01-01",
            "scoring": scoring,
            "tie_breaks": criteria,
        }
    elif kind == "campaigns":
        body |= {"campaign_id": ident, "players": players}
    else:
        body |= {
            "tournament_id": ident,
            "system": system,
            "scoring": scoring,
            "tie_breaks": criteria,
            "table_sizes": sizes,
        }
    created = api.client.post(f"/clubs/c1/{kind}", json=body, headers=auth)
    fine(created)
    base = f"/clubs/c1/{kind}/{ident}"
    for pick in picks:
        game_id = games[pick] if pick < len(games) else "nope"
        if kind == "tournaments":
            for player in [*players[:2], "alain", "bea", "cleo"]:
                fine(api.client.post(f"{base}/players", json={"player_id": player}, headers=auth))
            fine(api.client.post(f"{base}/rounds", headers=auth))
            fine(api.client.post(f"{base}/rounds/1/tables/{pick}/game", json={"game_id": game_id}, headers=auth))
            fine(api.client.post(f"{base}/rounds/1/repairing", json={"reason": "r"}, headers=auth))
        else:
            fine(api.client.post(f"{base}/games", json={"game_id": game_id}, headers=auth))
            fine(api.client.post(f"{base}/games/{game_id}/removal", json={"reason": "r"}, headers=auth))
    read = {"leagues": "/standings", "campaigns": "/status", "tournaments": "/standings"}[kind]
    fine(api.client.get(f"{base}{read}", headers=auth))
    fine(api.client.get(f"/clubs/c1/games/{games[0]}/changes", headers=auth))


EVENING_PATHS = st.sampled_from(
    [
        "/rounds/{n}/swap",
        "/rounds/{n}/tables/{t}/move",
        "/rounds/{n}/publication",
        "/rounds/{n}/tables/{t}/forfeit",
        "/rounds/{n}/tables/{t}/result",
        "/rounds/{n}/tables/{t}/game",
        "/knockout",
        "/revocations",
        "/rounds",
        "/players",
        "/players/{p}/withdrawal",
    ]
)
EVENING_BODIES = (
    st.fixed_dictionaries(
        {},
        optional={
            "players": st.lists(st.sampled_from(["alain", "bea", "cleo", "zed", ""]), max_size=3),
            "absent": st.lists(st.sampled_from(["alain", "bea", "cleo", "zed"]), max_size=3),
            "to": st.integers(-1, 5),
            "cut": st.integers(-1, 9),
            "version": st.integers(-1, 30),
            "player_id": st.sampled_from(["alain", "bea", "cleo", "zed"]),
            "scores": st.lists(
                st.fixed_dictionaries(
                    {"player_id": st.sampled_from(["alain", "bea", "cleo", "zed"]), "score": st.integers(-2, 20)},
                    optional={"placement": st.integers(0, 3)},
                ),
                max_size=3,
            ),
        },
    )
    | JSONISH
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    steps=st.lists(
        st.tuples(EVENING_PATHS, st.integers(0, 3), st.integers(0, 3), EVENING_BODIES, st.booleans()),
        min_size=1,
        max_size=8,
    )
)
def test_generated_evening_requests_never_answer_500_and_a_refusal_stores_nothing(
    api: Api, club: tuple[str, list[str]], steps: list[tuple[str, int, int, Any, bool]]
) -> None:
    """Drafts, hand changes, forfeits, results, knockouts and revocations in any order with any body: a
    2xx or a 4xx problem, and a refused request leaves the tournament's events as they were."""
    token, _ = club
    auth = api.auth(token)
    base = f"/clubs/c1/tournaments/e{next(COUNTER)}"
    created = api.client.post(
        "/clubs/c1/tournaments",
        json={
            "tournament_id": base.rsplit("/", 1)[1],
            "ruleset": "tally",
            "system": "swiss",
            "scoring": {"win_draw_loss": [2, 1, 0]},
            "rounds": 2,
        },
        headers=auth,
    )
    assert created.status_code == 201, created.text
    for player in ("alain", "bea", "cleo"):
        api.client.post(f"{base}/players", json={"player_id": player}, headers=auth)
    for path, number, table, body, draft in steps:
        before = api.client.get(f"{base}/events", headers=auth).json()["events"]
        response = api.client.post(
            base + path.format(n=number, t=table, p="bea"),
            json=body,
            params={"draft": "true"} if draft and path == "/rounds" else {},
            headers=auth,
        )
        fine(response)
        if response.status_code >= 400:
            assert api.client.get(f"{base}/events", headers=auth).json()["events"] == before
        fine(api.client.get(base, headers=auth))
        fine(api.client.get(f"{base}/standings", headers=auth))
