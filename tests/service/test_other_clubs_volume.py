"""Nothing a club's keys can read tells how much other clubs write (issue 13 part 10): global positions
used to show in append answers, the `Tablelog-Position` header and event listings, so a club could count
the events other clubs wrote between two of its own appends. The same story is played twice on a fresh
database, once with another club writing many events in the middle, and every answer the quiet club's key
gets is compared."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.http.positions import TOKEN_LENGTH, BadToken
from service.settings import Settings
from tests.conftest import fresh_schema
from tests.service.api_support import OPERATOR, Api
from tests.support.rulesets import RULESETS

QUIET, BUSY = "quiet", "busy"
_MOMENT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?")
_KEY_ID = re.compile(r"'key_id': '[0-9a-f]+'")
# The RateLimit header counts the quiet club's own key's allowance, which refills with the time elapsed
# between its requests (the key's bucket comes first, never the address's another club shares).
_UNCOMPARED_HEADERS = {"date", "x-request-id", "content-length", "ratelimit"}


def tally(options: dict[str, Any]) -> dict[str, Any]:
    players = [{"player_id": "alain"}, {"player_id": "bea"}]
    return {"ruleset": "tally", "game_id": "friday-1", "players": players, "options": options}


def roll(seat: int, face: int) -> dict[str, Any]:
    return {"type": "tally.rolled", "seat": seat, "face": face}


@contextmanager
def fresh_database(request: pytest.FixtureRequest, backend: str, name: str) -> Iterator[str]:
    """A new database of `backend` for one run of the story."""
    if backend == "sqlite":
        yield f"sqlite:///{request.getfixturevalue('tmp_path') / f'{name}.db'}"
    else:
        with fresh_schema(str(request.getfixturevalue("postgres_url"))) as url:
            yield url


def seen(response: Any) -> tuple[int, dict[str, str], Any]:
    """An answer as a client reads it, with what differs between any two runs (times, request ids, the
    random nonce in a token, the key's random id) set aside: a token is kept as its length."""
    headers = {k: v for k, v in response.headers.items() if k.lower() not in _UNCOMPARED_HEADERS}
    if "tablelog-position" in headers:
        headers["tablelog-position"] = f"<token of {len(headers['tablelog-position'])}>"
    body: Any = _MOMENT.sub("<moment>", response.text)
    if response.headers.get("content-type", "").startswith("application/json") and isinstance(response.json(), dict):
        decoded = response.json()
        if isinstance(decoded.get("position"), str):
            decoded["position"] = f"<token of {len(decoded['position'])}>"
        body = _KEY_ID.sub("'key_id': <the key>", _MOMENT.sub("<moment>", repr(decoded)))
    return response.status_code, headers, body


@contextmanager
def two_clubs(database_url: str) -> Iterator[tuple[Any, Api, str, str]]:
    """The app with the quiet and the busy club, each with alain and bea: client, api and their keys."""
    settings = Settings(database_url=database_url, operator_key=OPERATOR, log_format="json", run_projector=False)
    with TestClient(create_app(settings, rulesets=RULESETS)) as client:
        api = Api(client)
        quiet, busy = api.club(QUIET), api.club(BUSY)
        for club, token in ((QUIET, quiet), (BUSY, busy)):
            api.players(club, token, "alain", "bea")
        yield client, api, quiet, busy


def story(database_url: str, other_club_events: int) -> list[tuple[int, dict[str, str], Any]]:
    """The quiet club records a game in two appends while the busy club writes `other_club_events`
    events in between; everything the quiet club's key then reads, in order."""
    with two_clubs(database_url) as (client, api, quiet, busy):
        # Both clubs name their game alike (ids are each club's own); the busy club's never ends.
        game = api.game(QUIET, quiet, tally(options={}))
        busy_game = api.game(BUSY, busy, tally(options={"target": 10**6}))
        answers = [seen(api.append(QUIET, quiet, game, 1, [roll(0, 3), roll(1, 4)]))]
        written = 0
        while written < other_club_events:
            batch = [roll((written + i) % 2, 2) for i in range(min(200, other_club_events - written))]
            assert api.append(BUSY, busy, busy_game, 1 + written, batch).status_code == 201
            written += len(batch)
        second = api.append(QUIET, quiet, game, 3, [roll(0, 5)])
        answers.append(seen(second))
        token = second.headers["Tablelog-Position"]
        base = f"/clubs/{QUIET}/games/{game}"
        paths = [
            f"{base}/events",
            f"{base}/events?after=1&limit=2",
            f"{base}/state?view=full",
            f"{base}/result",
            f"{base}/legal?seat=1",
            base,
            f"/clubs/{QUIET}/games",
            f"/clubs/{QUIET}",
            f"/clubs/{QUIET}/players",
            "/ready",
            "/health",
        ]
        for path in paths:
            answers.append(seen(client.get(path, headers=api.auth(quiet))))
            # Reading one's writes: the token sent back changes nothing either.
            answers.append(seen(client.get(path, headers=api.auth(quiet) | {"Tablelog-Position": token})))
        retried = api.append(QUIET, quiet, game, 3, [roll(0, 5)])  # a stale retry: the conflict's answer
        answers.append(seen(retried))
        return answers


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_nothing_a_club_reads_changes_with_how_much_another_club_writes(
    backend: str, request: pytest.FixtureRequest
) -> None:
    with fresh_database(request, backend, "alone") as url:
        alone = story(url, 0)
    with fresh_database(request, backend, "beside") as url:
        beside = story(url, 600)
    for quiet_alone, quiet_beside in zip(alone, beside, strict=True):
        assert quiet_alone == quiet_beside
    assert [a[0] for a in alone][:2] == [201, 201]
    assert alone[1][1]["tablelog-position"] == f"<token of {TOKEN_LENGTH}>"


# -- the read-your-writes token ---------------------------------------------------------------------------
def test_a_token_reads_ones_writes_and_anything_else_is_a_400_naming_the_header(database_url: str) -> None:
    with two_clubs(database_url) as (client, api, quiet, busy):
        for club, key in ((QUIET, quiet), (BUSY, busy)):
            game = api.game(club, key, tally(options={}))
        appended = api.append(QUIET, quiet, game, 1, [roll(0, 3)])
        token = appended.headers["Tablelog-Position"]
        events = f"/clubs/{QUIET}/games/{game}/events"
        assert client.get(events, headers=api.auth(quiet) | {"Tablelog-Position": token}).status_code == 200
        assert client.get(events, headers=api.auth(quiet), params={"position": token}).status_code == 200
        # An old client's number, a token altered by one character, and the quiet club's token sent to the
        # busy club's games (by the operator, who may read both): each a 400 problem, never a 5xx.
        altered = token[:-2] + ("AA" if token[-2:] != "AA" else "BB")
        for headers, params, path in [
            ({"Tablelog-Position": "1234"}, {}, events),
            ({}, {"position": "1234"}, events),
            ({"Tablelog-Position": altered}, {}, events),
            ({"Tablelog-Position": token}, {}, f"/clubs/{BUSY}/games/{game}/events"),
        ]:
            refused = client.get(path, headers=api.auth(OPERATOR) | headers, params=params)
            assert refused.status_code == 400, refused.text
            problem = refused.json()
            assert problem["field"] == ("position" if params else "Tablelog-Position")
            assert "read-your-writes token" in problem["detail"]


def test_every_node_of_a_deployment_opens_the_tokens_of_the_others(database_url: str) -> None:
    """Two app instances on one database share the key made once in it; a `position_key` setting, when
    given, is the key instead (and a node with another key refuses the token)."""
    tokens = []
    for position_key in (None, None, "k" * 40, "k" * 40, "another key, long enough to be taken......"):
        settings = Settings(database_url=database_url, operator_key=OPERATOR, log_format="json", run_projector=False)
        app = create_app(msgspec.structs.replace(settings, position_key=position_key), rulesets=RULESETS)
        with TestClient(app):
            tokens.append(app.state.tokens)
    sealed = tokens[0].seal(QUIET, 77)
    assert tokens[1].open(QUIET, sealed) == 77
    assert tokens[3].open(QUIET, tokens[2].seal(QUIET, 78)) == 78
    for other in tokens[2:]:
        with pytest.raises(BadToken):
            other.open(QUIET, sealed)
    assert sealed != tokens[0].seal(QUIET, 77)  # sealed afresh every time: equal positions look unrelated
