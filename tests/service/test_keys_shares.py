"""Share links over the API: a record key makes one for a game, league or campaign of its club and
revokes it; the link's token opens that one thing's page and nothing of the API."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from litestar import get, post
from litestar.di import NamedDependency
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from service.usecases.access import Principal
from tests.service.api_support import OPERATOR, Api
from tests.support.rulesets import RULESETS


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    app = create_app(
        Settings(database_url=database_url, operator_key=OPERATOR, log_format="json", run_projector=False),
        rulesets=RULESETS,
    )
    with TestClient(app) as client:
        yield Api(client)


def test_a_share_link_is_made_by_a_record_key_opens_its_game_only_and_is_refused_once_revoked(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token)
    other_game = api.tally_game("c1", token)
    read = api.client.post("/clubs/c1/keys", json={"name": "r", "scope": "read"}, headers=api.auth(OPERATOR)).json()
    refused = api.client.post(
        "/clubs/c1/shares", json={"kind": "game", "target_id": game_id}, headers=api.auth(read["token"])
    )
    assert refused.status_code == 403 and "record key" in refused.json()["detail"]
    missing = api.client.post("/clubs/c1/shares", json={"kind": "league", "target_id": "nope"}, headers=api.auth(token))
    assert missing.status_code == 404
    made = api.client.post(
        "/clubs/c1/shares", json={"kind": "game", "target_id": game_id, "name": "news"}, headers=api.auth(token)
    )
    assert made.status_code == 201, made.text
    body = made.json()
    share_token, share_id = body["token"], body["share"]["share_id"]
    assert body["path"] == f"/share/{share_token}" and body["share"]["name"] == "news"
    page = api.client.get(body["path"])
    assert page.status_code == 200 and "Tally (test ruleset)" in page.text and "Step <strong>1</strong>" in page.text
    assert other_game not in page.text
    # The token opens the shared page only: not the API, not another game, not the club's pages.
    assert api.client.get(f"/clubs/c1/games/{other_game}", headers=api.auth(share_token)).status_code == 401
    assert api.client.get(body["path"]).status_code == 200  # remembered as a link, still not a key
    assert api.client.get("/clubs/c1/games", headers=api.auth(share_token)).status_code == 401
    assert api.client.get("/club/c1", follow_redirects=False).status_code in (302, 303, 307)
    listed = api.client.get("/clubs/c1/shares", headers=api.auth(read["token"])).json()
    assert [s["share_id"] for s in listed] == [share_id] and "token" not in listed[0]
    revoked = api.client.post(f"/clubs/c1/shares/{share_id}/revoke", headers=api.auth(token))
    assert revoked.status_code == 200 and revoked.json()["revoked_at"] is not None
    gone = api.client.get(body["path"])
    assert gone.status_code == 403 and "This link no longer works" in gone.text


def test_a_handler_without_the_guard_still_keeps_reads_and_writes_to_their_scopes(database_url: str) -> None:
    """A controller added without `guards = GUARDS` falls back on the guard's default rule through the
    principal dependency: GET needs a read key, anything else a record key, of the path's club."""

    @post("/clubs/{club_id:str}/unguarded", sync_to_thread=False)
    def write(club_id: str, principal: NamedDependency[Principal]) -> dict[str, str]:
        return {"scope": principal.scope}

    @get("/clubs/{club_id:str}/unguarded", sync_to_thread=False)
    def read(club_id: str, principal: NamedDependency[Principal]) -> dict[str, str]:
        return {"scope": principal.scope}

    app = create_app(
        Settings(database_url=database_url, operator_key=OPERATOR, log_format="json", run_projector=False),
        rulesets=RULESETS,
    )
    app.register(write)
    app.register(read)
    with TestClient(app) as client:
        api = Api(client)
        record = api.club("c1")
        keys = {
            scope: client.post(
                "/clubs/c1/keys", json={"name": scope, "scope": scope}, headers=api.auth(OPERATOR)
            ).json()["token"]
            for scope in ("read", "spectate")
        }
        assert client.post("/clubs/c1/unguarded", headers=api.auth(record)).json() == {"scope": "record"}
        refused = client.post("/clubs/c1/unguarded", headers=api.auth(keys["read"]))
        assert refused.status_code == 403 and "may not change the record" in refused.json()["detail"]
        assert client.get("/clubs/c1/unguarded", headers=api.auth(keys["read"])).json() == {"scope": "read"}
        assert client.get("/clubs/c1/unguarded", headers=api.auth(keys["spectate"])).status_code == 403
        assert client.get("/clubs/c2/unguarded", headers=api.auth(record)).status_code == 403
        assert client.get("/clubs/c1/unguarded").status_code == 401


def test_a_share_link_names_the_key_that_made_it_and_is_revoked_with_it(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token)
    maker = api.client.post("/clubs/c1/keys", json={"name": "scorer"}, headers=api.auth(OPERATOR)).json()
    other = api.client.post("/clubs/c1/keys", json={"name": "board"}, headers=api.auth(OPERATOR)).json()

    def share(key: dict[str, str], name: str) -> dict[str, str]:
        made = api.client.post(
            "/clubs/c1/shares",
            json={"kind": "game", "target_id": game_id, "name": name},
            headers=api.auth(key["token"]),
        )
        assert made.status_code == 201, made.text
        return {"path": made.json()["path"], **made.json()["share"]}

    first, second, theirs = share(maker, "news"), share(maker, "wall"), share(other, "board")
    assert first["made_by"] == maker["key_id"] and theirs["made_by"] == other["key_id"]
    mine = api.client.get(f"/clubs/c1/shares?made_by={maker['key_id']}", headers=api.auth(token)).json()
    assert sorted(s["name"] for s in mine) == ["news", "wall"]
    assert api.client.get(first["path"]).status_code == 200
    # Revoking the maker ends its links, and only its links, at once (no revocation of each needed).
    revoked = api.client.post(f"/clubs/c1/keys/{maker['key_id']}/revoke", headers=api.auth(OPERATOR))
    assert revoked.status_code == 200
    assert api.client.get(first["path"]).status_code == 403
    assert api.client.get(second["path"]).status_code == 403
    assert api.client.get(theirs["path"]).status_code == 200
    # A maker's links revoked in one go, leaving the others'.
    ended = api.client.post(f"/clubs/c1/shares/revoke?made_by={other['key_id']}", headers=api.auth(token))
    assert ended.status_code == 200 and [s["name"] for s in ended.json()] == ["board"]
    assert ended.json()[0]["revoked_at"] is not None
    assert api.client.get(theirs["path"]).status_code == 403


def test_a_share_links_secret_is_never_written_to_the_logs_only_its_id(
    api: Api, capfd: pytest.CaptureFixture[str]
) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token)
    made = api.client.post("/clubs/c1/shares", json={"kind": "game", "target_id": game_id}, headers=api.auth(token))
    share_token, share_id = made.json()["token"], made.json()["share"]["share_id"]
    secret = share_token.split("_", 2)[2]
    capfd.readouterr()
    for path in (f"/share/{share_token}", f"/share/{share_token}/replay/1", f"/share/{share_token}x/replay/1"):
        api.client.get(path)
    lines = [json.loads(line) for line in capfd.readouterr().err.splitlines() if line.startswith("{")]
    paths = [line["path"] for line in lines if line["event"] == "request.finished"]
    assert paths == [f"/share/sh_{share_id}_…", f"/share/sh_{share_id}_…/replay/1", f"/share/sh_{share_id}_…/replay/1"]
    assert not any(secret in json.dumps(line) for line in lines)
