"""The committed OpenAPI document is the one the code generates."""

from service.openapi import DEFAULT_PATH, document


def test_the_committed_openapi_document_matches_the_code() -> None:
    assert DEFAULT_PATH.read_bytes() == document(), (
        "openapi/openapi.json is out of date: run `python -m service.openapi` and commit it"
    )


def test_the_openapi_document_describes_the_append_and_its_problems() -> None:
    import json

    spec = json.loads(document())
    append = spec["paths"]["/clubs/{club_id}/games/{game_id}/events"]["post"]
    assert any(p["name"] == "Idempotency-Key" and p["in"] == "header" for p in append["parameters"])
    assert spec["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"
