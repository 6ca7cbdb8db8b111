"""Club resources (Atlantic Storm card catalogues, Mémoire 44 scenarios) through the API and the CLI:
validated row by row, stored as immutable versions, and recorded (id, version, hash) by the games."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from litestar.testing import TestClient

from domain.atlantic_storm.catalogue import COLUMNS
from service.app import create_app
from service.settings import Settings
from service.store import open_store
from tests.service.api_support import OPERATOR, Api
from tests.support.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = RULESETS.get("memoire-44").resource_kinds["scenario"].builtin()["hedgerow_lane"]
CATALOGUE = RULESETS.get("atlantic-storm").resource_kinds["catalogue"].builtin()["documented"]


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    app = create_app(Settings(database_url=database_url, operator_key=OPERATOR, log_format="json"), rulesets=RULESETS)
    with TestClient(app) as client:
        yield Api(client)


def upload(api: Api, token: str, path: str, data: bytes) -> object:
    return api.client.post(
        f"/clubs/c1/resources/{path}",
        content=data,
        headers=api.auth(token) | {"Content-Type": "application/octet-stream"},
    )


def test_a_scenario_is_imported_as_versions_and_a_game_records_which_one_it_played(api: Api) -> None:
    token = api.club("c1")
    first = upload(api, token, "memoire-44/scenario/lane", SCENARIO)
    second = upload(api, token, "memoire-44/scenario/lane", SCENARIO)
    assert first.status_code == 201, first.text  # type: ignore[attr-defined]
    assert (first.json()["version"], second.json()["version"]) == (1, 2)  # type: ignore[attr-defined]
    assert first.json()["content_hash"] == second.json()["content_hash"]  # type: ignore[attr-defined]
    listed = api.client.get("/clubs/c1/resources", headers=api.auth(token)).json()
    assert [(r["kind"], r["resource_id"], r["version"]) for r in listed] == [
        ("scenario", "lane", 1),
        ("scenario", "lane", 2),
    ]
    api.players("c1", token, "alain", "bea")
    game_id = api.game(
        "c1",
        token,
        {
            "ruleset": "memoire-44",
            "players": [{"player_id": "alain"}, {"player_id": "bea"}],
            "resources": {"scenario": {"resource_id": "lane", "version": 1}},
        },
    )
    started = api.client.get(f"/clubs/c1/games/{game_id}/events", headers=api.auth(token)).json()["events"][0]
    ref = started["data"]["setup"]["resources"]["scenario"]
    assert (ref["resource_id"], ref["version"], ref["content_hash"]) == ("lane", 1, first.json()["content_hash"])  # type: ignore[attr-defined]


def test_a_broken_file_is_refused_row_by_row_and_nothing_is_stored(api: Api) -> None:
    token = api.club("c1")
    broken = CATALOGUE.replace(b"north_atlantic", b"pacific", 1)
    response = upload(api, token, "atlantic-storm/catalogue/deck", broken)
    assert response.status_code == 422  # type: ignore[attr-defined]
    body = response.json()  # type: ignore[attr-defined]
    assert body["type"] == "/problems/invalid-resource" and body["errors"]
    assert any("pacific" in str(error) or "ocean" in str(error) for error in body["errors"])
    assert api.client.get("/clubs/c1/resources", headers=api.auth(token)).json() == []
    unknown = upload(api, token, "atlantic-storm/scenario/deck", CATALOGUE)
    assert unknown.status_code == 404  # type: ignore[attr-defined]


def test_a_game_naming_a_missing_resource_is_refused(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    response = api.client.post(
        "/clubs/c1/games",
        headers=api.auth(token),
        json={
            "ruleset": "memoire-44",
            "players": [{"player_id": "alain"}, {"player_id": "bea"}],
            "resources": {"scenario": {"resource_id": "nowhere"}},
        },
    )
    assert response.status_code == 422
    assert response.json()["details"] == {"kind": "scenario", "resource_id": "nowhere"}


def test_the_cli_imports_a_catalogue_and_reports_row_errors(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'club.db'}"
    store = open_store(url)
    store.migrate()
    store.create_club("c1", "Club")
    store.close()
    good = tmp_path / "deck.csv"
    good.write_bytes(CATALOGUE)
    bad = tmp_path / "bad.csv"
    bad.write_bytes(CATALOGUE.replace(b"north_atlantic", b"pacific", 1))

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "service.cli", *args, "--database-url", url],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )

    done = cli("catalogue", "import", "atlantic-storm", str(good), "--club", "c1")
    assert done.returncode == 0, done.stderr
    assert "catalogue deck version 1 imported" in done.stdout
    refused = cli("catalogue", "import", "atlantic-storm", str(bad), "--club", "c1")
    assert refused.returncode == 1 and "row=" in refused.stderr
    store = open_store(url)
    assert [(r.resource_id, r.version) for r in store.list_resources("c1")] == [("deck", 1)]
    store.close()


def test_a_resource_version_is_served_immutable_with_its_etag_and_a_304_on_a_match(api: Api) -> None:
    token = api.club("c1")
    for _ in range(2):
        assert upload(api, token, "atlantic-storm/catalogue/deck", CATALOGUE).status_code == 201  # type: ignore[attr-defined]
    path = "/clubs/c1/resources/atlantic-storm/catalogue/deck/versions"
    first = api.client.get(f"{path}/1", headers=api.auth(token))
    assert first.status_code == 200, first.text
    body = first.json()
    assert (body["resource_id"], body["version"], body["kind"]) == ("deck", 1, "catalogue")
    assert body["content"] and body["content_hash"]
    tag = first.headers["etag"]
    assert tag.startswith('"') and not tag.startswith("W/")  # strong
    assert "immutable" in first.headers["cache-control"]
    held = api.client.get(f"{path}/1", headers=api.auth(token) | {"If-None-Match": tag})
    assert held.status_code == 304 and held.content == b"" and held.headers["etag"] == tag
    # The second version holds the same file: its own tag all the same (its version is in the body).
    second = api.client.get(f"{path}/2", headers=api.auth(token) | {"If-None-Match": tag})
    assert second.status_code == 200 and second.json()["version"] == 2 and second.headers["etag"] != tag
    missing = api.client.get(f"{path}/3", headers=api.auth(token))
    assert missing.status_code == 404 and "version 3" in missing.json()["detail"]
    assert api.client.get(f"{path}/0", headers=api.auth(token)).status_code == 400
    other = api.club("c2")
    assert api.client.get(f"{path}/1", headers=api.auth(other)).status_code == 403


def bad_scenario() -> bytes:
    """The shipped Hedgerow Lane with a starting player that does not exist and a swamp its second hexagon
    cannot have."""
    scenario = json.loads(SCENARIO)
    scenario["game_info"]["starting"] = "PLAYER3"
    scenario["board"]["hexagons"][1]["terrain"] = {"name": "swamp"}
    return json.dumps(scenario).encode()


BAD_SCENARIO_SAID = {
    "en": (
        "The file does not validate",
        "The scenario has 2 error(s).",
        "must be PLAYER1 or PLAYER2, not 'PLAYER3'",
        "unknown terrain 'swamp'",
    ),
    "fr": (
        "Le fichier n'est pas valide",
        "Le scénario a 2 erreur(s).",
        "doit valoir PLAYER1 ou PLAYER2, pas 'PLAYER3'",
        "terrain inconnu 'swamp'",
    ),
    "es": (
        "El archivo no es válido",
        "El escenario tiene 2 error(es).",
        "debe ser PLAYER1 o PLAYER2, no 'PLAYER3'",
        "terreno desconocido 'swamp'",
    ),
}
"""A bad scenario's problem as each language tells it, word for word (also read by the page's test)."""


@pytest.mark.parametrize("language", ["fr-FR", "es-ES", "en"])
def test_a_bad_scenario_is_refused_in_the_readers_language_with_the_same_machine_fields(
    api: Api, language: str
) -> None:
    token = api.club("c1")
    response = api.client.post(
        "/clubs/c1/resources/memoire-44/scenario/lane",
        content=bad_scenario(),
        headers=api.auth(token) | {"Content-Type": "application/octet-stream", "Accept-Language": language},
    )
    assert response.status_code == 422, response.text
    assert response.headers["content-language"] == language[:2]
    body = response.json()
    title, detail, starting, terrain = BAD_SCENARIO_SAID[language[:2]]
    assert (body["type"], body["title"], body["detail"]) == ("/problems/invalid-resource", title, detail)
    assert body["errors"] == [
        {"hexagon": None, "field": "game_info.starting", "message": starting},
        {"hexagon": 1, "field": "terrain", "message": terrain},
    ]
    assert api.client.get("/clubs/c1/resources", headers=api.auth(token)).json() == []


FACES = ("armour", "flag", "grenade", "infantry", "star")
BAD_TABLES: dict[str, dict[str, object]] = {
    "air_pack": {
        "source": "our club",
        "cards": {"ace": {"name": "Ace", "count": 30, "symbol": "fighter"}},
        "planes": {"odd": {"name": "Odd", "side": "NAVY", "symbol": "fighter", "duel": 9}},
        "move_orders": {"attack_centre": 9},
    },
    "combat_deck": {"source": " ", "cards": {"odd": {"name": "Odd", "count": 0, "effect": "teleport"}}},
    "initiative_table": {
        "source": "our club",
        "faces": {face: {"orders": 1} for face in FACES}
        | {"jump": {"orders": 1}, "star": {"orders": 5, "kinds": ["navy"]}},
    },
    "reinforcement_table": {
        "source": "our club",
        "sides": {"ALLIES": {face: [] for face in FACES} | {"star": ["infantry"] * 4}, "NAVY": {}},
    },
}
"""A bad file of each of Mémoire 44's tables: every row error its parser can make, or nearly."""

EFFECTS = "['tenacity', 'street_fighting', 'tropical_fury', 'ardour', 'text']"
KINDS = "['infantry', 'armour', 'artillery']"
BAD_TABLES_SAID: dict[str, dict[str, tuple[str, list[tuple[str, str]]]]] = {
    "air_pack": {
        "en": (
            "The air pack has errors.",
            [
                ("cards.ace.count", "1 to 20 copies"),
                ("planes.odd.side", "ALLIES or AXIS"),
                ("planes.odd.duel", "1 to 6 dice, or null when unknown"),
                ("move_orders.attack_centre", "0 to 6 move orders"),
            ],
        ),
        "fr": (
            "Le paquet aérien comporte des erreurs.",
            [
                ("cards.ace.count", "de 1 à 20 exemplaires"),
                ("planes.odd.side", "ALLIES ou AXIS"),
                ("planes.odd.duel", "de 1 à 6 dés, ou null si la valeur est inconnue"),
                ("move_orders.attack_centre", "de 0 à 6 ordres de déplacement"),
            ],
        ),
        "es": (
            "El paquete aéreo tiene errores.",
            [
                ("cards.ace.count", "de 1 a 20 copias"),
                ("planes.odd.side", "ALLIES o AXIS"),
                ("planes.odd.duel", "de 1 a 6 dados, o null si el valor se desconoce"),
                ("move_orders.attack_centre", "de 0 a 6 órdenes de movimiento"),
            ],
        ),
    },
    "combat_deck": {
        "en": (
            "The combat deck has errors.",
            [
                ("source", "name the source"),
                ("cards.odd.effect", f"one of {EFFECTS}"),
                ("cards.odd.count", "1 to 20 copies"),
            ],
        ),
        "fr": (
            "Le paquet de cartes Combat comporte des erreurs.",
            [
                ("source", "indiquez la source"),
                ("cards.odd.effect", f"l'un de {EFFECTS}"),
                ("cards.odd.count", "de 1 à 20 exemplaires"),
            ],
        ),
        "es": (
            "El mazo de cartas de combate tiene errores.",
            [
                ("source", "indique la fuente"),
                ("cards.odd.effect", f"uno de {EFFECTS}"),
                ("cards.odd.count", "de 1 a 20 copias"),
            ],
        ),
    },
    "initiative_table": {
        "en": (
            "The initiative table has errors.",
            [
                ("faces.jump", f"not a die face; faces: {list(FACES)}"),
                ("faces.star.orders", "orders 0 to 4 units"),
                ("faces.star.kinds", "unknown unit kind 'navy'"),
            ],
        ),
        "fr": (
            "La table d'initiative comporte des erreurs.",
            [
                ("faces.jump", f"n'est pas une face de dé ; faces : {list(FACES)}"),
                ("faces.star.orders", "de 0 à 4 unités reçoivent un ordre"),
                ("faces.star.kinds", "type d'unité inconnu 'navy'"),
            ],
        ),
        "es": (
            "La tabla de iniciativa tiene errores.",
            [
                ("faces.jump", f"no es una cara del dado; caras: {list(FACES)}"),
                ("faces.star.orders", "de 0 a 4 unidades reciben una orden"),
                ("faces.star.kinds", "tipo de unidad desconocido 'navy'"),
            ],
        ),
    },
    "reinforcement_table": {
        "en": (
            "The reinforcement table has errors.",
            [
                ("sides.ALLIES.star", f"up to 3 of {KINDS}"),
                ("sides.AXIS", "each side has its rows"),
                ("sides.NAVY", "sides are ALLIES and AXIS"),
            ],
        ),
        "fr": (
            "La table des renforts comporte des erreurs.",
            [
                ("sides.ALLIES.star", f"jusqu'à 3 parmi {KINDS}"),
                ("sides.AXIS", "chaque camp a ses lignes"),
                ("sides.NAVY", "les camps sont ALLIES et AXIS"),
            ],
        ),
        "es": (
            "La tabla de refuerzos tiene errores.",
            [
                ("sides.ALLIES.star", f"hasta 3 de {KINDS}"),
                ("sides.AXIS", "cada bando tiene sus filas"),
                ("sides.NAVY", "los bandos son ALLIES y AXIS"),
            ],
        ),
    },
}
"""Each bad table's problem as each language tells it, word for word: the sentence, then (field, message)
of each row."""


@pytest.mark.parametrize("language", ["fr-FR", "es-ES", "en"])
@pytest.mark.parametrize("kind", sorted(BAD_TABLES))
def test_a_bad_table_is_refused_row_by_row_in_the_readers_language_with_the_same_machine_fields(
    api: Api, kind: str, language: str
) -> None:
    token = api.club("c1")
    response = api.client.post(
        f"/clubs/c1/resources/memoire-44/{kind}/ours",
        content=json.dumps(BAD_TABLES[kind]).encode(),
        headers=api.auth(token) | {"Content-Type": "application/octet-stream", "Accept-Language": language},
    )
    assert response.status_code == 422, response.text
    assert response.headers["content-language"] == language[:2]
    body = response.json()
    detail, rows = BAD_TABLES_SAID[kind][language[:2]]
    assert (body["type"], body["title"], body["detail"]) == (
        "/problems/invalid-resource",
        BAD_SCENARIO_SAID[language[:2]][0],
        detail,
    )
    assert body["errors"] == [{"field": field, "message": message} for field, message in rows]
    assert api.client.get("/clubs/c1/resources", headers=api.auth(token)).json() == []


def test_a_bad_catalogue_row_is_refused_in_french_through_the_api(api: Api) -> None:
    """Atlantic Storm's catalogue tells its rows the same way, its machine fields unchanged."""
    token = api.club("c1")
    data = "\n".join(
        [
            ",".join(COLUMNS),
            "C1,SC 42,,,,,,,,1941,north_atlantic,7,,,,full,test",
            "G1,Markgraf,german,,submarine,wolfpack,0,1,?,1941,any,3,,SC 42,,,test",  # SC 42 not marked victim=yes
        ]
    )
    response = api.client.post(
        "/clubs/c1/resources/atlantic-storm/catalogue/ours",
        content=data.encode(),
        headers=api.auth(token) | {"Content-Type": "application/octet-stream", "Accept-Language": "fr-FR"},
    )
    assert response.status_code == 422, response.text
    body = response.json()
    assert (body["title"], body["detail"]) == ("Le fichier n'est pas valide", "Le catalogue a 1 erreur(s).")
    assert body["errors"] == [
        {
            "row": 3,
            "field": "fate_victim",
            "message": "'SC 42' est une victime du destin : marquez sa ligne victim=yes.",
        }
    ]
