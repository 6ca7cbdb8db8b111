"""The API documents itself: each ruleset's events as a tagged union with descriptions, allowed names
and an example that really decodes; every error documented as a problem; the interactive docs served
from the installed package, with nothing fetched from another host."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from domain.record import decoder
from service.app import create_app
from service.http.errors import Problem
from service.openapi import document
from service.settings import Settings
from tests.support.rulesets import RULESETS

REF = "#/components/schemas/"
BUILTIN = [RULESETS.get(name) for name in ("milles-nautiques", "atlantic-storm", "memoire-44")]


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return dict(json.loads(document()))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient[Any]]:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 't.db'}")
    with TestClient(create_app(settings, rulesets=RULESETS, configure_logs=False)) as c:
        yield c


def test_each_rulesets_events_are_a_tagged_union_on_type(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    for ruleset in BUILTIN:
        union = schemas[f"{ruleset.name}.event"]
        mapping = union["discriminator"]["mapping"]
        assert union["discriminator"]["propertyName"] == "type"
        assert sorted(option["$ref"] for option in union["oneOf"]) == sorted(mapping.values())
        assert {"tablelog.game_started", "tablelog.correction"} <= mapping.keys()
        for tag, ref in mapping.items():
            event = schemas[ref.removeprefix(REF)]
            assert event["properties"]["type"]["enum"] == [tag] and "type" in event["required"]
    for struct in ("AppendIn", "LegalOut"):
        assert schemas[struct]["properties"]["events"]["items"] == {"$ref": REF + "AnyEvent"}
    assert "milles_nautiques.warship_played" in schemas["AnyEvent"]["discriminator"]["mapping"]


def test_every_event_example_decodes_as_that_event_of_its_ruleset(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    for ruleset in BUILTIN:
        for tag, ref in schemas[f"{ruleset.name}.event"]["discriminator"]["mapping"].items():
            [example] = schemas[ref.removeprefix(REF)]["examples"]
            event = decoder(ruleset).decode(msgspec.json.encode(example))
            assert type(event).__struct_config__.tag == tag


def test_event_fields_carry_descriptions_and_the_games_names(spec: dict[str, Any]) -> None:
    warship = spec["components"]["schemas"]["milles_nautiques.warship_played"]
    assert warship["properties"]["ship"]["enum"] == ["submarine", "frigate", "destroyer", "cruiser", "carrier"]
    assert "MN-6" in warship["description"]
    assert warship["properties"]["seat"]["description"].startswith("The seat that acts")
    drew = spec["components"]["schemas"]["milles_nautiques.drew"]["properties"]["card"]
    assert {"type": "string", "enum": list(RULESETS.get("milles-nautiques").field_values["card"])} in drew["anyOf"]
    faces = spec["components"]["schemas"]["memoire44.dice_rolled"]["properties"]["faces"]["items"]["enum"]
    assert faces == ["infantry", "armour", "grenade", "star", "flag"]


def test_every_error_response_is_a_problem_with_the_fields_actually_sent(spec: dict[str, Any]) -> None:
    problem = spec["components"]["schemas"]["Problem"]
    assert problem["properties"].keys() == {field.name for field in msgspec.structs.fields(Problem)}
    assert problem["required"] == ["type", "title", "status", "detail"]
    assert all(p["description"] for p in problem["properties"].values())
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            for status, response in operation["responses"].items():
                if int(status) >= 400:
                    assert response["content"].keys() == {"application/problem+json"}, (method, path, status)
                    assert response["content"]["application/problem+json"]["schema"] == {"$ref": REF + "Problem"}
    append = spec["paths"]["/clubs/{club_id}/games/{game_id}/events"]["post"]["responses"]
    assert sorted(append) == ["201", "400", "401", "403", "404", "409", "413", "422", "429", "503"]
    refusal = append["422"]["content"]["application/problem+json"]["example"]
    assert refusal["rule_url"] == "/rulesets/milles-nautiques/rules/MN-2" and refusal["event_index"] == 0
    health = spec["paths"]["/health"]["get"]
    assert health["security"] == [] and sorted(health["responses"]) == ["200"]
    assert sorted(spec["paths"]["/ready"]["get"]["responses"]) == ["200", "429", "503"]
    rule = spec["paths"]["/rulesets/{name}/rules/{rule_id}"]["get"]
    assert rule["security"] == [] and "401" not in rule["responses"] and "404" in rule["responses"]


def test_the_served_document_is_the_committed_one_with_every_served_ruleset(
    client: TestClient[Any], spec: dict[str, Any]
) -> None:
    response = client.get("/docs/openapi.json")
    assert response.status_code == 200
    served = response.json()
    assert served["paths"] == spec["paths"]
    # This app also serves the test ruleset: its events are documented beside the shipped games'.
    assert "tally.event" in served["components"]["schemas"] and "tally.event" not in spec["components"]["schemas"]
    for name, schema in spec["components"]["schemas"].items():
        if name != "AnyEvent":
            assert served["components"]["schemas"][name] == schema, name


def test_the_docs_page_loads_every_asset_from_this_server(client: TestClient[Any]) -> None:
    for page in ("/docs", "/docs/swagger"):
        html = client.get(page)
        assert html.status_code == 200 and "SwaggerUIBundle" in html.text
        assert re.findall(r"https?://", html.text) == [], "the page names another host"
        assets = re.findall(r"(?:src|href)=['\"]([^'\"]+)['\"]", html.text)
        assert {a.rsplit("/", 1)[-1] for a in assets} >= {"swagger-ui-bundle.js", "swagger-ui.css"}
        for asset in assets:
            assert asset.startswith("/docs/assets/")
            response = client.get(asset)
            assert response.status_code == 200 and len(response.content) > 100, asset


def test_every_field_of_every_event_says_what_it_holds(spec: dict[str, Any]) -> None:
    # Issue 17: a reader learns an event's fields from the document, not from the Python.
    undescribed = [
        (name, field)
        for name, schema in spec["components"]["schemas"].items()
        if "." in name and "properties" in schema
        for field, prop in schema["properties"].items()
        if not prop.get("description")
    ]
    assert undescribed == []
    warship = spec["components"]["schemas"]["milles_nautiques.warship_played"]["properties"]
    assert "never changes" in warship["convoy"]["description"]
