"""The API in the reader's language (issue 26): a refused event's problem and a replay's narration are told
in the language `Accept-Language` asks for, else the club's default language, else English; the answer
names it in `Content-Language`; machine fields (`type`, `code`, `rule_id`, event types) never change. The
expected sentences are written here by hand."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.service.api_support import OPERATOR, Api
from tests.service.test_sse import served

DEALT = {"type": "milles_nautiques.dealt", "dealer": 1}


@pytest.fixture
def api(tmp_path: Path) -> Iterator[Api]:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 't.db'}", operator_key=OPERATOR))
    with TestClient(app) as client:
        yield Api(client)


def _nautiques(api: Api) -> tuple[str, str]:
    """Club c1 with Alain and Bea, and their Milles Nautiques round dealt by Bea (Alain plays first)."""
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    players = [{"player_id": "alain"}, {"player_id": "bea"}]
    body = {"ruleset": "milles-nautiques", "options": {"dealer": 1}, "players": players}
    game_id = api.game("c1", token, body)
    assert api.append("c1", token, game_id, 1, [DEALT]).status_code == 201
    return token, game_id


def _refused(api: Api, token: str, game_id: str, headers: dict[str, str]) -> Any:
    """Bea draws although it is Alain's turn (MN-2)."""
    return api.client.post(
        f"/clubs/c1/games/{game_id}/events",
        headers=api.auth(token) | headers,
        json={"expected_version": 2, "events": [{"type": "milles_nautiques.drew", "seat": 1}]},
    )


def test_a_refused_event_is_told_in_french_with_the_same_machine_fields_as_in_english(api: Api) -> None:
    token, game_id = _nautiques(api)
    english = _refused(api, token, game_id, {"Accept-Language": "en-GB"})
    french = _refused(api, token, game_id, {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"})
    assert english.status_code == french.status_code == 422
    assert english.json()["detail"] == "Event 0 (milles_nautiques.drew) is refused by rule MN-2: It is Alain's turn."
    assert french.json()["title"] == "Les règles refusent cet évènement"
    assert french.json()["detail"] == (
        "L'évènement 0 (milles_nautiques.drew) est refusé par la règle MN-2 : C'est à Alain de jouer."
    )
    machine = ("type", "status", "code", "rule_id", "rule_url", "event_index", "event_type", "details")
    assert {k: french.json().get(k) for k in machine} == {k: english.json().get(k) for k in machine}
    assert french.json()["code"] == "not_your_turn" and french.json()["rule_id"] == "MN-2"
    assert (english.headers["content-language"], french.headers["content-language"]) == ("en", "fr")


def test_a_step_says_what_changed_in_the_games_words_in_the_readers_language(api: Api) -> None:
    token, game_id = _nautiques(api)
    api.append("c1", token, game_id, 2, [{"type": "milles_nautiques.drew", "seat": 0}])
    said = {
        language: api.client.get(
            f"/clubs/c1/games/{game_id}/replay/3", headers=api.auth(token) | {"Accept-Language": language}
        ).json()["said"]
        for language in ("en", "fr", "es")
    }
    assert said == {
        "en": ["Alain: 7 in hand", "93 cards in the stock"],
        "fr": ["Alain : 7 en main", "93 cartes dans la pioche"],
        "es": ["Alain: 7 en la mano", "93 cartas en el mazo"],
    }


def test_a_replay_in_spanish_narrates_the_steps_in_spanish(api: Api) -> None:
    token, game_id = _nautiques(api)
    api.append("c1", token, game_id, 2, [{"type": "milles_nautiques.drew", "seat": 0}])
    response = api.client.get(
        f"/clubs/c1/games/{game_id}/replay", headers=api.auth(token) | {"Accept-Language": "es-ES"}
    )
    steps = response.json()["steps"]
    assert [s["text"] for s in steps[1:]] == [
        "Bea reparte seis cartas a cada jugador; Alain juega primero.",
        "Alain roba una carta.",
    ]
    assert [s["type"] for s in steps[1:]] == ["milles_nautiques.dealt", "milles_nautiques.drew"]
    assert response.headers["content-language"] == "es"


def test_a_refused_league_tournament_and_campaign_are_told_in_french_with_the_same_machine_fields(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    league = {
        "league_id": "autumn",
        "ruleset": "milles-nautiques",
        "members": ["alain", "bea"],
        "starts": "2000-01-01",
        "ends": "2999-12-31",
        "scoring": {"win_draw_loss": [3, 1, 0]},
        "tie_breaks": ["points", "score", "points"],
    }
    tournament = {
        "tournament_id": "m44",
        "ruleset": "memoire-44",
        "system": "tables",
        "scoring": {"win_draw_loss": [2, 1, 0]},
    }
    campaign = {"campaign_id": "spring", "ruleset": "milles-nautiques", "players": ["alain", "zed"]}
    refusals = [("leagues", league), ("tournaments", tournament), ("campaigns", campaign)]
    told = {
        language: [
            api.client.post(f"/clubs/c1/{kind}", json=body, headers=api.auth(token) | {"Accept-Language": language})
            for kind, body in refusals
        ]
        for language in ("en", "fr-FR")
    }
    machine = ("type", "status", "code", "details")
    for english, french in zip(told["en"], told["fr-FR"], strict=True):
        assert english.status_code == french.status_code == 422
        assert {k: french.json().get(k) for k in machine} == {k: english.json().get(k) for k in machine}
        assert french.json()["title"] == "Cela ne peut pas se faire ainsi"
        assert french.json()["detail"] != english.json()["detail"]
        assert (english.headers["content-language"], french.headers["content-language"]) == ("en", "fr")
    assert [r.json()["code"] for r in told["en"]] == ["duplicate_criterion", "table_size_unplayable", "bad_players"]
    assert told["en"][0].json()["title"] == "This cannot be done as asked"
    assert told["en"][0].json()["detail"] == "Criterion 'points' is listed twice."
    assert [r.json()["detail"] for r in told["fr-FR"]] == [
        "Le critère 'points' figure deux fois.",
        "Ce jeu ne se joue pas à des tables de 3.",
        "Les joueurs d'une campagne sont des joueurs du club, chacun nommé une fois.",
    ]


def test_the_clubs_default_language_applies_when_the_reader_asks_for_none_of_ours(api: Api) -> None:
    token, game_id = _nautiques(api)
    assert api.client.get("/clubs/c1", headers=api.auth(token)).json()["language"] is None
    changed = api.client.put("/clubs/c1/settings", headers=api.auth(token), json={"language": "fr"})
    assert changed.status_code == 200 and changed.json()["language"] == "fr"
    assert api.client.get("/clubs/c1", headers=api.auth(token)).json()["language"] == "fr"
    for headers in ({}, {"Accept-Language": "de-DE"}):
        refused = _refused(api, token, game_id, headers)
        assert refused.json()["detail"].endswith("refusé par la règle MN-2 : C'est à Alain de jouer.")
        assert refused.headers["content-language"] == "fr"
    spanish = _refused(api, token, game_id, {"Accept-Language": "es"})
    assert spanish.json()["detail"].endswith("MN-2: Es el turno de Alain.")
    bad = api.client.put("/clubs/c1/settings", headers=api.auth(token), json={"language": "de"})
    assert bad.status_code == 400 and bad.json()["type"] == "/problems/malformed-request"
    api.client.put("/clubs/c1/settings", headers=api.auth(token), json={"language": None})
    assert _refused(api, token, game_id, {}).headers["content-language"] == "en"


def test_a_live_stream_in_spanish_narrates_its_steps_in_spanish(database_url: str) -> None:
    with served(database_url) as site:
        token, game_id = _nautiques(site.api)
        site.api.append("c1", token, game_id, 2, [{"type": "milles_nautiques.drew", "seat": 0}])
        headers = Api.auth(token) | {"Accept-Language": "es"}
        texts: list[str] = []
        with (
            httpx.Client(base_url=site.base, timeout=httpx.Timeout(10, read=10)) as client,
            client.stream("GET", f"/clubs/c1/games/{game_id}/live", headers=headers) as response,
        ):
            assert response.headers["content-language"] == "es"
            for line in response.iter_lines():
                if line.startswith("data:") and '"step"' in line:
                    texts.append(json.loads(line.removeprefix("data:"))["step"]["text"])
                if len(texts) == 3:
                    break
    assert texts[1:] == ["Bea reparte seis cartas a cada jugador; Alain juega primero.", "Alain roba una carta."]


def test_the_language_menu_remembers_the_choice_and_returns_only_to_a_page_of_this_site(api: Api) -> None:
    back = api.client.get(
        "/language/es", params={"next": "/club/c1/games/g1/replay/3?view=full"}, follow_redirects=False
    )
    assert back.status_code == 303 and back.headers["location"] == "/club/c1/games/g1/replay/3?view=full"
    assert back.cookies["tablelog_lang"] == "es"
    for elsewhere in ("//evil.example/x", "https://evil.example/", "/\\evil.example", "/a\r\nSet-Cookie: x=1", "club"):
        away = api.client.get("/language/fr", params={"next": elsewhere}, follow_redirects=False)
        assert (away.status_code, away.headers["location"]) == (303, "/"), elsewhere
    unknown = api.client.get("/language/de", params={"next": "/sign-in"}, follow_redirects=False)
    assert unknown.headers["location"] == "/sign-in" and "tablelog_lang" not in unknown.cookies


def test_a_campaigns_notes_are_told_in_the_readers_language(api: Api) -> None:
    token, game_id = _nautiques(api)  # a round under way: the campaign waits for it
    made = api.client.post(
        "/clubs/c1/campaigns",
        headers=api.auth(token),
        json={"campaign_id": "hiver", "ruleset": "milles-nautiques", "players": ["alain", "bea"]},
    )
    assert made.status_code == 201, made.text
    added = api.client.post("/clubs/c1/campaigns/hiver/games", headers=api.auth(token), json={"game_id": game_id})
    assert added.status_code == 201, added.text
    told = {
        language: api.client.get(
            "/clubs/c1/campaigns/hiver/status", headers=api.auth(token) | {"Accept-Language": language}
        )
        for language in ("en", "fr", "es")
    }
    assert {language: answer.headers["content-language"] for language, answer in told.items()} == {
        "en": "en",
        "fr": "fr",
        "es": "es",
    }
    bodies = {language: answer.json() for language, answer in told.items()}
    assert [(b["status"]["note"], b["steps"][0]["note"]) for b in bodies.values()] == [
        ("No round has been played yet.", "not finished: the campaign waits for this game"),
        ("Aucune manche n'a encore été jouée.", "non terminée : la campagne attend cette partie"),
        ("Aún no se ha jugado ninguna ronda.", "sin terminar: la campaña espera esta partida"),
    ]
    assert {b["steps"][0]["counted"] for b in bodies.values()} == {False}
