"""Nothing a client sends gets a 5xx: each malformed, out-of-range or hostile input is a 4xx RFC 9457
problem that names what is wrong, on both backends, and nothing of it is stored."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from service.store import open_store
from service.store.base import UnstorableValue
from tests.service.api_support import OPERATOR, Api
from tests.support.rulesets import RULESETS

HUGE = 2**63


@dataclass
class World:
    api: Api
    token: str
    tally: str
    nautiques: str

    @property
    def client(self) -> Any:
        return self.api.client

    @property
    def key(self) -> dict[str, str]:
        return self.api.auth(self.token)


@pytest.fixture
def world(database_url: str) -> Iterator[World]:
    app = create_app(Settings(database_url=database_url, operator_key=OPERATOR, log_format="json"), rulesets=RULESETS)
    with TestClient(app, raise_server_exceptions=False) as client:
        api = Api(client)
        token = api.club("c1")
        api.players("c1", token, "alain", "bea")
        tally = api.tally_game("c1", token)
        nautiques = api.game(
            "c1",
            token,
            {
                "ruleset": "milles-nautiques",
                "options": {"round": 1, "dealer": 1},
                "players": [{"player_id": "alain"}, {"player_id": "bea"}],
            },
        )
        yield World(api, token, tally, nautiques)


def _games(w: World, body: dict[str, Any]) -> Any:
    return w.client.post(
        "/clubs/c1/games",
        headers=w.key,
        json={"ruleset": "tally", "players": [{"player_id": "alain"}, {"player_id": "bea"}]} | body,
    )


def _append(w: World, body: bytes) -> Any:
    return w.client.post(f"/clubs/c1/games/{w.tally}/events", headers=w.key, content=body)


def _operator_post(path: str, body: dict[str, Any]) -> Callable[[World], Any]:
    return lambda w: w.client.post(path, headers=w.api.auth(OPERATOR), json=body)


NESTED = b"[" * 1000 + b"]" * 1000
# (what is sent, the request, status, problem type, field named (None: not checked), text in the detail)
CASES: list[tuple[str, Callable[[World], Any], int, str, str | None, str]] = [
    (
        "JSON nested 1,000 deep in an event",
        lambda w: _append(w, b'{"expected_version": 1, "events": [{"type": "tally.rolled", "x": ' + NESTED + b"}]}"),
        400,
        "malformed-request",
        None,
        "nested too deep",
    ),
    (
        "JSON nested 1,000 deep as the body",
        lambda w: _append(w, NESTED),
        400,
        "malformed-request",
        None,
        "nested too deep",
    ),
    (
        "JSON nested 100 deep in an event (below the decoder's own limit)",
        lambda w: _append(
            w, b'{"expected_version": 1, "events": [{"type": "tally.rolled", "x": ' + b"[" * 100 + b"]" * 100 + b"}]}"
        ),
        400,
        "malformed-request",
        None,
        "nested too deep",
    ),
    (
        "invalid UTF-8 in a body",
        lambda w: w.client.post("/clubs/c1/players", headers=w.key, content=b'{"player_id": "x\xff", "name": "X"}'),
        400,
        "malformed-request",
        None,
        "UTF-8",
    ),
    (
        "version 2**63",
        lambda w: w.client.get(f"/clubs/c1/games/{w.tally}/state?version={HUGE}", headers=w.key),
        400,
        "malformed-request",
        "version",
        "",
    ),
    (
        "offset 2**63",
        lambda w: w.client.get(f"/clubs/c1/games?offset={HUGE}", headers=w.key),
        400,
        "malformed-request",
        "offset",
        "",
    ),
    (
        "limit 2**63",
        lambda w: w.client.get(f"/clubs/c1/games?limit={HUGE}", headers=w.key),
        400,
        "malformed-request",
        "limit",
        "",
    ),
    (
        "after 2**63",
        lambda w: w.client.get(f"/clubs/c1/games/{w.tally}/events?after={HUGE}", headers=w.key),
        400,
        "malformed-request",
        "after",
        "",
    ),
    (
        "replay step 2**63",
        lambda w: w.client.get(f"/clubs/c1/games/{w.tally}/replay/{HUGE}", headers=w.key),
        400,
        "malformed-request",
        "step",
        "",
    ),
    (
        "expected_version 2**63",
        lambda w: _append(
            w, b'{"expected_version": %d, "events": [{"type": "tally.rolled", "seat": 0, "face": 1}]}' % HUGE
        ),
        400,
        "malformed-request",
        None,
        "expected_version",
    ),
    (
        "seat 2**63 in a view",
        lambda w: w.client.get(f"/clubs/c1/games/{w.tally}/state?view=seat&seat={HUGE}", headers=w.key),
        400,
        "malformed-request",
        "seat",
        "",
    ),
    (
        "seat 2**63 at the table",
        lambda w: _games(w, {"players": [{"player_id": "alain", "seat": HUGE}, {"player_id": "bea"}]}),
        400,
        "malformed-request",
        None,
        "players[0].seat",
    ),
    (
        "resource version 2**63",
        lambda w: _games(w, {"resources": {"catalogue": {"resource_id": "documented", "version": HUGE}}}),
        400,
        "malformed-request",
        None,
        "version",
    ),
    (
        "correction 2**63",
        lambda w: w.client.get(f"/clubs/c1/games/{w.tally}/changes?correction={HUGE}", headers=w.key),
        400,
        "malformed-request",
        "correction",
        "",
    ),
    (
        "a from date before year 1 in UTC",
        lambda w: w.client.get("/clubs/c1/games?from=0001-01-01T00:00:00%2B05:00", headers=w.key),
        400,
        "malformed-request",
        "from",
        "out of range",
    ),
    (
        "a to date past year 9999 in UTC",
        lambda w: w.client.get("/clubs/c1/games?to=9999-12-31T23:59:59-05:00", headers=w.key),
        400,
        "malformed-request",
        "to",
        "out of range",
    ),
    (
        "a NUL byte in a name",
        lambda w: w.client.post("/clubs/c1/players", headers=w.key, json={"player_id": "zed", "name": "Z\x00ed"}),
        400,
        "malformed-request",
        "name",
        "control characters",
    ),
    (
        "a NUL byte in a title",
        lambda w: _games(w, {"title": "Friday\x00"}),
        400,
        "malformed-request",
        "title",
        "control characters",
    ),
    (
        "a game id of 3,000 characters",
        lambda w: _games(w, {"game_id": "g" * 3000}),
        400,
        "malformed-request",
        "game_id",
        "at most 64 characters",
    ),
    (
        "a player id with a trailing newline",
        lambda w: w.client.post("/clubs/c1/players", headers=w.key, json={"player_id": "alain\n", "name": "Alain"}),
        400,
        "malformed-request",
        "player_id",
        "control characters",
    ),
    (
        "a key for a club that does not exist",
        _operator_post("/clubs/nope/keys", {"name": "x"}),
        404,
        "not-found",
        None,
        "No club 'nope'",
    ),
    (
        "a player for a club that does not exist",
        _operator_post("/clubs/nope/players", {"player_id": "a", "name": "A"}),
        404,
        "not-found",
        None,
        "No club 'nope'",
    ),
    (
        "a game for a club that does not exist",
        _operator_post("/clubs/nope/games", {"ruleset": "tally", "players": []}),
        404,
        "not-found",
        None,
        "No club 'nope'",
    ),
    (
        "a league for a club that does not exist",
        _operator_post(
            "/clubs/nope/leagues",
            {
                "league_id": "l",
                "ruleset": "tally",
                "members": [],
                "starts": "2026-01-01",
                "ends": "2026-02-01",
                "scoring": {},
            },
        ),
        404,
        "not-found",
        None,
        "No club 'nope'",
    ),
    (
        "a resource for a club that does not exist",
        lambda w: w.client.post(
            "/clubs/nope/resources/atlantic-storm/catalogue/x", headers=w.api.auth(OPERATOR), content=b"a,b\n"
        ),
        404,
        "not-found",
        None,
        "No club 'nope'",
    ),
    (
        "a seat beyond the table in view=seat",
        lambda w: w.client.get(f"/clubs/c1/games/{w.nautiques}/state?view=seat&seat=5", headers=w.key),
        422,
        "no-such-seat",
        "seat",
        "Seat 5 is not at this table",
    ),
    (
        "a seat beyond the table in legal?seat=",
        lambda w: w.client.get(f"/clubs/c1/games/{w.nautiques}/legal?seat=2", headers=w.key),
        422,
        "no-such-seat",
        "seat",
        "Seat 2 is not at this table",
    ),
    (
        "a seat beyond the table in a replay's view=seat",
        lambda w: w.client.get(f"/clubs/c1/games/{w.nautiques}/replay/1?view=seat&seat=7", headers=w.key),
        422,
        "no-such-seat",
        "seat",
        "Seat 7 is not at this table",
    ),
]


def _import(w: World, path: str, data: bytes) -> Any:
    return w.client.post(f"/clubs/c1/resources/{path}", headers=w.key, content=data)


CATALOGUE_HEADER = "number,name,side,nationality,type,unit,air,surface,submarine,years,ocean,vp,special,fate_victim"
CATALOGUE_HEADER += ",victim,cargo,source\n"
JSON_KINDS = ("scenario", "combat_deck", "initiative_table", "air_pack", "reinforcement_table")
TOO_BIG = 2**31
# Issue 25 part 5: inputs that were a 500 or were stored.
CASES += [
    *(
        (
            f"JSON nested 10,000 deep in a Mémoire 44 {kind}",
            lambda w, kind=kind: _import(w, f"memoire-44/{kind}/deep", b"[" * 10_000 + b"]" * 10_000),
            422,
            "invalid-resource",
            None,
            "nested too deep",
        )
        for kind in JSON_KINDS
    ),
    (
        "a catalogue field over 131,072 characters",
        lambda w: _import(w, "atlantic-storm/catalogue/long", (CATALOGUE_HEADER + "x" * 131_073).encode()),
        422,
        "invalid-resource",
        None,
        "'row': 2, 'field': '', 'message': 'The line is not CSV: field larger than field limit (131072).'",
    ),
    (
        "a catalogue line of a million commas",
        lambda w: _import(w, "atlantic-storm/catalogue/commas", (CATALOGUE_HEADER + "," * 1_000_000).encode()),
        422,
        "invalid-resource",
        None,
        "'row': 2, 'field': '', 'message': 'The line has 1000000 commas",
    ),
    (
        "a catalogue of 9,998 bad rows",
        lambda w: _import(w, "atlantic-storm/catalogue/bad", (CATALOGUE_HEADER + "1,bad\n" * 9_998).encode()),
        422,
        "invalid-resource",
        None,
        "The catalogue has 9998 error(s). (9898 more errors not listed.)",
    ),
    (
        "a key's expiry past what a store keeps",
        lambda w: w.client.post(
            "/clubs/c1/keys",
            headers=w.key,
            json={"name": "k", "scope": "read", "expires_at": "9999-12-31T23:59:59-14:00"},
        ),
        400,
        "malformed-request",
        "expires_at",
        "out of range",
    ),
    (
        "a key in a JSON object twice",
        lambda w: _append(w, b'{"expected_version": 1, "expected_version": 2, "events": []}'),
        400,
        "malformed-request",
        "expected_version",
        "appears twice",
    ),
    (
        "a key twice in an event whose texts hold colons",
        lambda w: _append(
            w, b'{"expected_version": 1, "events": [{"type": "tally.noted", "seat": 0, "seat": 1, "text": "at 12:30"}]}'
        ),
        400,
        "malformed-request",
        "seat",
        "appears twice",
    ),
    (
        "a JSON body sent as text/plain",
        lambda w: w.client.post(
            "/clubs/c1/players",
            headers=w.key | {"Content-Type": "text/plain"},
            content=b'{"player_id": "zed", "name": "Zed"}',
        ),
        415,
        "unsupported-media-type",
        "content-type",
        "not text/plain",
    ),
    (
        "a JSON body's fields sent as a form",
        lambda w: w.client.post("/clubs/c1/players", headers=w.key, data={"player_id": "zed", "name": "Zed"}),
        415,
        "unsupported-media-type",
        "content-type",
        "not application/x-www-form-urlencoded",
    ),
    (
        "a string where an integer is declared",
        lambda w: _append(w, b'{"expected_version": "1", "events": []}'),
        400,
        "malformed-request",
        "expected_version",
        "Expected `int`, got `str`",
    ),
    (
        "a number where a date-time is declared",
        lambda w: w.client.post(
            "/clubs/c1/keys", headers=w.key, json={"name": "k", "scope": "read", "expires_at": 2000000000}
        ),
        400,
        "malformed-request",
        "expires_at",
        "got `int`",
    ),
    (
        "an integer past 2^31 - 1 in a game's set-up options",
        lambda w: _games(w, {"options": {"rounds": TOO_BIG}}),
        400,
        "malformed-request",
        "options.rounds",
        "at most 2147483647",
    ),
    (
        "an integer past 2^31 - 1 in a tournament's settings",
        lambda w: w.client.post(
            "/clubs/c1/tournaments",
            headers=w.key,
            json={"tournament_id": "t", "ruleset": "tally", "system": "swiss", "scoring": {}, "bye_points": TOO_BIG},
        ),
        400,
        "malformed-request",
        "bye_points",
        "at most 2147483647",
    ),
    (
        "an integer past 2^31 - 1 in a league's scoring",
        lambda w: w.client.post(
            "/clubs/c1/leagues",
            headers=w.key,
            json={
                "league_id": "l",
                "ruleset": "tally",
                "members": ["alain", "bea"],
                "starts": "2026-01-01",
                "ends": "2026-02-01",
                "scoring": {"win_draw_loss": [TOO_BIG, 1, 0]},
            },
        ),
        400,
        "malformed-request",
        "scoring.win_draw_loss[0]",
        "at most 2147483647",
    ),
    (
        "a right-to-left override in a player's name",
        lambda w: w.client.post("/clubs/c1/players", headers=w.key, json={"player_id": "zed", "name": "\u202edeZ"}),
        400,
        "malformed-request",
        "name",
        "bidirectional override",
    ),
    (
        "a directional isolate in a game's title",
        lambda w: _games(w, {"title": "Friday \u2066night\u2069"}),
        400,
        "malformed-request",
        "title",
        "bidirectional override",
    ),
]


@pytest.mark.parametrize(
    ("sent", "send", "status", "type_name", "field", "says"), CASES, ids=[case[0] for case in CASES]
)
def test_bad_input_is_a_4xx_problem_that_says_what_is_wrong(
    world: World, sent: str, send: Callable[[World], Any], status: int, type_name: str, field: str | None, says: str
) -> None:
    response = send(world)
    assert response.status_code == status, f"{sent}: {response.status_code} {response.text[:300]}"
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["type"] == f"/problems/{type_name}" and body["status"] == status
    assert body["title"] and body["detail"]
    if field is not None:
        assert body["field"] == field, body
    assert says in body["detail"] + str(body.get("errors", "")), body
    assert "Traceback" not in response.text


def test_nothing_of_a_refused_input_is_stored(world: World) -> None:
    keys = world.client.get("/clubs/c1/keys", headers=world.key).json()
    events = world.client.get(f"/clubs/c1/games/{world.tally}/events", headers=world.key).json()
    _games(world, {"game_id": "g" * 3000})
    _games(world, {"title": "\u202eyadirF"})
    _games(world, {"options": {"rounds": TOO_BIG}})
    world.client.post("/clubs/c1/players", headers=world.key, json={"player_id": "alain\n", "name": "A"})
    world.client.post("/clubs/c1/players", headers=world.key, json={"player_id": "zed", "name": "\u202eZ"})
    world.client.post("/clubs/c1/players", headers=world.key, data={"player_id": "zed", "name": "Zed"})
    world.client.post(
        "/clubs/c1/keys",
        headers=world.key,
        json={"name": "k", "scope": "read", "expires_at": "9999-12-31T23:59:59-14:00"},
    )
    _append(world, b'{"expected_version": 1, "expected_version": 1, "events": [{"type": "tally.rolled"}]}')
    _import(world, "atlantic-storm/catalogue/long", (CATALOGUE_HEADER + "x" * 131_073).encode())
    assert world.client.get("/clubs/c1/keys", headers=world.key).json() == keys
    assert world.client.get(f"/clubs/c1/games/{world.tally}/events", headers=world.key).json() == events
    assert world.client.get("/clubs/c1/resources", headers=world.key).json() == []
    players = world.client.get("/clubs/c1/players", headers=world.key).json()
    assert sorted(p["player_id"] for p in players) == ["alain", "bea"]
    games = world.client.get("/clubs/c1/games", headers=world.key).json()["games"]
    assert sorted(g["game_id"] for g in games) == sorted([world.tally, world.nautiques])


def test_names_are_kept_in_one_unicode_normal_form(world: World) -> None:
    decomposed = "Ame\u0301lie"  # e + combining acute: NFD
    created = world.client.post(
        "/clubs/c1/players", headers=world.key, json={"player_id": "amelie", "name": decomposed}
    )
    assert created.status_code == 201, created.text
    assert created.json()["name"] == "Am\u00e9lie"


def test_an_error_inside_the_service_answers_500_without_its_text(world: World, monkeypatch: Any) -> None:
    store = world.client.app.state.store

    def broken(club_id: str) -> Any:
        raise RuntimeError("secret detail of the failure")

    monkeypatch.setattr(store, "list_players", broken)
    response = world.client.get("/clubs/c1/players", headers=world.key)
    assert response.status_code == 500
    assert response.json()["type"] == "/problems/internal-error"
    assert "secret" not in response.text and "RuntimeError" not in response.text


def test_the_stores_turn_values_the_database_cannot_keep_into_their_own_error(database_url: str) -> None:
    """Below the API's own bounds: a store never lets a driver's data error out (a number past 64
    bits, a NUL in a text PostgreSQL refuses, an id too long to index)."""
    store = open_store(database_url)
    try:
        store.migrate()
        store.create_club("c1", "Club")
        for attempt in (
            lambda: store.read_stream("g", after_version=HUGE),
            lambda: store.create_player("c1", "zed", "Z\x00ed"),
            lambda: store.create_player("c1", "é" * 3000 + "".join(chr(0x4E00 + i) for i in range(3000)), "Long"),
        ):
            try:
                attempt()
            except UnstorableValue as error:
                assert "cannot store" in str(error)
    finally:
        store.close()
