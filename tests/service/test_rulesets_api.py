"""The games as data: `GET /rulesets/{name}` (events as JSON Schema, resource kinds, variants,
options), the rules reference (`/rules`, `/rules/{id}`) and the link a refusal carries to its rule."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.service.api_support import OPERATOR, Api
from tests.support.rulesets import RULESETS


@pytest.fixture
def api(tmp_path: Path) -> Iterator[Api]:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 't.db'}", operator_key=OPERATOR), rulesets=RULESETS)
    with TestClient(app) as client:
        yield Api(client)


def problem(response: Any, status: int, name: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = response.json()
    assert body["type"] == f"/problems/{name}" and body["status"] == status
    return body


def test_a_ruleset_lists_its_events_as_a_tagged_union_with_their_fields(api: Api) -> None:
    body = api.client.get("/rulesets/milles-nautiques").json()
    assert (body["name"], body["title"], body["variants"]) == ("milles-nautiques", "Milles Nautiques", ["standard"])
    events = body["events"]
    assert events["discriminator"]["propertyName"] == "type"
    ref = "#/$defs/milles_nautiques.warship_played"
    assert events["discriminator"]["mapping"]["milles_nautiques.warship_played"] == ref
    assert {"$ref": ref} in events["oneOf"] and {"$ref": "#/$defs/tablelog.correction"} in events["oneOf"]
    assert len(events["oneOf"]) == len(body["event_types"])
    warship = events["$defs"]["milles_nautiques.warship_played"]
    assert warship["required"] == ["type", "seat", "convoy", "ship"]
    assert warship["properties"]["ship"]["enum"] == ["submarine", "frigate", "destroyer", "cruiser", "carrier"]
    assert "two submarines" in warship["properties"]["paired"]["description"]
    assert warship["examples"] == [
        {"type": "milles_nautiques.warship_played", "seat": 0, "convoy": 0, "ship": "submarine"}
    ]
    dealt = events["$defs"]["milles_nautiques.dealt"]["properties"]["hands"]
    assert "convoy_20000" in dealt["items"]["items"]["enum"]
    assert body["options"]["properties"].keys() == {"dealer", "round"}
    assert body["resource_kinds"] == [] and body["rules_url"] == "/rulesets/milles-nautiques/rules"


def test_a_ruleset_names_its_variants_and_its_resource_kinds_with_their_formats(api: Api) -> None:
    storm = api.client.get("/rulesets/atlantic-storm").json()
    assert storm["variants"] == ["basic", "advanced"]
    assert storm["options"]["properties"]["pile_size"] == {
        "type": "integer",
        "default": 20,
        "description": "How many convoys are fought for (AS-2: 20); fewer make a shorter game.",
    }
    [catalogue] = storm["resource_kinds"]
    assert (catalogue["name"], catalogue["media_types"], catalogue["shipped"]) == (
        "catalogue",
        ["text/csv"],
        ["documented"],
    )
    assert "card list" in catalogue["description"]
    memoire = api.client.get("/rulesets/memoire-44").json()
    kinds = {kind["name"]: kind for kind in memoire["resource_kinds"]}
    assert "hedgerow_lane" in kinds["scenario"]["shipped"]
    assert kinds["initiative_table"]["shipped"] == []  # M44-OV-7: no public source, none shipped
    roles = memoire["options"]["properties"]["roles"]  # asked only at a team table (M44-OV-2)
    assert roles["x-team-table-only"] is True and "M44-OV-2" in roles["description"]
    assert "their_finest_hour" in memoire["events"]["$defs"]["memoire44.card_played"]["properties"]["card"]["enum"]


def test_an_unknown_ruleset_or_rule_is_a_404_problem(api: Api) -> None:
    assert "nope" in problem(api.client.get("/rulesets/nope"), 404, "unknown-ruleset")["detail"]
    assert "nope" in problem(api.client.get("/rulesets/nope/rules"), 404, "unknown-ruleset")["detail"]
    missing = problem(api.client.get("/rulesets/tally/rules/T-99"), 404, "not-found")
    assert "T-99" in missing["detail"]


def test_the_general_rules_are_served_under_every_ruleset_before_the_games_own(api: Api) -> None:
    for name in ("tally", "milles-nautiques", "atlantic-storm", "memoire-44"):
        rules = api.client.get(f"/rulesets/{name}/rules").json()
        assert rules["ruleset"] == name
        assert [r["rule_id"] for r in rules["rules"][:6]] == ["G-1", "G-2", "G-3", "G-4", "G-5", "G-6"]
        assert all(r["general"] for r in rules["rules"][:6])
        g2 = api.client.get(f"/rulesets/{name}/rules/G-2").json()
        assert g2["title"] == "Hidden information" and g2["url"] == f"/rulesets/{name}/rules/G-2"
        assert "face down" in g2["text"] and g2["source"]
    tally = api.client.get("/rulesets/tally/rules").json()["rules"]
    assert [(r["rule_id"], r["general"]) for r in tally[6:]] == [
        ("T-0", False),
        ("T-1", False),
        ("T-2", False),
        ("T-3", False),
    ]
    assert tally[8] == {
        "rule_id": "T-2",
        "title": "Die faces",
        "text": "A die shows a face from 1 to 6.",
        "source": "the test ruleset's own design.",
        "general": False,
        "url": "/rulesets/tally/rules/T-2",
    }


def test_a_refused_event_links_to_its_rule_and_the_link_answers(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token)
    body = problem(
        api.append("c1", token, game_id, 1, [{"type": "tally.rolled", "seat": 1, "face": 2}]), 422, "rule-violation"
    )
    assert (body["rule_id"], body["rule_url"]) == ("T-1", "/rulesets/tally/rules/T-1")
    assert api.client.get(body["rule_url"]).json()["title"] == "Turns"
    correction = api.append("c1", token, game_id, 1, [{"type": "tablelog.correction", "voids": 0}])
    body = problem(correction, 422, "rule-violation")
    assert (body["rule_id"], body["rule_url"]) == ("G-3", "/rulesets/tally/rules/G-3")
    assert api.client.get(body["rule_url"]).json()["title"] == "Corrections are events"
    refused_setup = api.client.post(
        "/clubs/c1/games", headers=api.auth(token), json={"ruleset": "tally", "players": []}
    )
    body = problem(refused_setup, 422, "rule-violation")
    assert (body["rule_id"], body["rule_url"]) == ("T-0", "/rulesets/tally/rules/T-0")


def test_an_app_serves_the_rulesets_it_was_given_and_no_other(tmp_path: Path) -> None:
    """Two apps in one process, one given the test game and one not: nothing is shared between them."""
    builtin = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'b.db'}", operator_key=OPERATOR))
    with TestClient(builtin) as client:
        api = Api(client)
        assert [r["name"] for r in client.get("/rulesets").json()] == [
            "atlantic-storm",
            "memoire-44",
            "milles-nautiques",
        ]
        problem(client.get("/rulesets/tally"), 404, "unknown-ruleset")
        token = api.club("c1")
        api.players("c1", token, "alain", "bea")
        body = {"ruleset": "tally", "players": [{"player_id": "alain"}, {"player_id": "bea"}]}
        problem(client.post("/clubs/c1/games", headers=api.auth(token), json=body), 404, "unknown-ruleset")
    with_tally = create_app(Settings(database_url=f"sqlite:///{tmp_path / 't.db'}"), rulesets=RULESETS)
    with TestClient(with_tally) as client:
        assert "tally" in [r["name"] for r in client.get("/rulesets").json()]
        assert client.get("/rulesets/tally").json()["name"] == "tally"


def test_a_rule_is_json_for_a_client_and_a_page_in_its_language_for_a_browser(api: Api) -> None:
    url = "/rulesets/milles-nautiques/rules/MN-15"
    for accept in ("application/json", "*/*", "application/json, text/html;q=0.5"):
        answered = api.client.get(url, headers={"Accept": accept, "Accept-Language": "fr"})
        assert answered.headers["content-type"].startswith("application/json"), accept
        assert answered.json()["title"] == "End of the round" and answered.headers["vary"] == "Accept"
    browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
    page = api.client.get(url, headers={"Accept": browser, "Accept-Language": "es-ES,es;q=0.9"})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert page.headers["vary"] == "Accept"
    assert "MN-15</span>: El final de la ronda</h1>" in page.text and '<html lang="es">' in page.text
    missing = api.client.get("/rulesets/milles-nautiques/rules/MN-99", headers={"Accept": browser})
    assert missing.status_code == 404 and "MN-99" in missing.text and "<html" in missing.text
    unknown = api.client.get("/rulesets/nope/rules/MN-1", headers={"Accept": browser})
    assert unknown.status_code == 404 and "<html" in unknown.text
