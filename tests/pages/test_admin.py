"""The club's administration pages in a real browser (issue 27): leagues, campaigns and tournaments made
from their forms, the games a league counts (an automatic one's taken by itself, one left out with its
reason), a catalogue uploaded (and a bad one refused with its row errors), read and spectate keys made
and revoked after a confirmation, a game's settings; every form's bad value told beside its field with
the values typed kept and nothing stored; a read session shown no form."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.pages.conftest import Site, screenshot, sign_in
from tests.service.api_support import Api
from tests.support.rulesets import RULESETS

pytestmark = pytest.mark.browser


def problem_beside(page: Any, field: str) -> str:
    """The message beside the field (the form's own, refused at the server)."""
    shown = page.locator(f"#error_{field}")
    assert shown.count() == 1, f"no message beside {field}: {page.content()[:4000]}"
    return str(shown.inner_text())


def api_get(site: Site, path: str) -> Any:
    return site.get(path, site.record)


def test_a_league_is_made_from_its_form_its_mistakes_told_beside_each_field_and_nothing_stored(
    browser: Any, site: Site
) -> None:
    page = sign_in(browser, site, site.record)
    page.goto("/club/c1/admin")
    page.click("text=New league")
    page.fill("#league_id", "autumn league!")
    page.select_option("#ruleset", "milles-nautiques")
    members = [p["player_id"] for p in api_get(site, "/clubs/c1/players")][:3]
    for member in members:
        page.check(f"input[name=members][value='{member}']")
    page.fill("#starts", "2026-12-01")
    page.fill("#ends", "2026-01-31")
    page.fill("#win", "3")
    page.click("button[type=submit].primary")
    assert "use letters, digits" in problem_beside(page, "league_id").lower()
    assert "a draw and a loss" in problem_beside(page, "win")
    assert page.input_value("#league_id") == "autumn league!", "the values typed are kept"
    assert page.is_checked(f"input[name=members][value='{members[1]}']")
    screenshot(page, "admin-new-league-refused")
    assert api_get(site, "/clubs/c1/leagues") == [], "nothing stored"

    page.fill("#league_id", "autumn")
    page.fill("#draw", "1")
    page.fill("#loss", "0")
    page.click("button[type=submit].primary")
    assert "end on or after" in problem_beside(page, "ends"), "the use case's refusal, beside its field"
    assert api_get(site, "/clubs/c1/leagues") == []

    page.fill("#ends", "2999-12-31")
    page.fill("#starts", "2000-01-01")
    page.select_option("#tie_break_1", "wins")
    page.check("#automatic")
    page.click("button[type=submit].primary")
    page.wait_for_url(re.compile(r".*/club/c1/admin$"))
    (league,) = api_get(site, "/clubs/c1/leagues")
    assert league["league"]["automatic"] is True and league["league"]["tie_breaks"] == ["points", "wins"]
    assert league["league"]["scoring"]["win_draw_loss"] == [3, 1, 0]
    finished = [
        g["game_id"] for g in api_get(site, "/clubs/c1/games?ruleset=milles-nautiques")["games"] if g["finished"]
    ]
    assert finished and sorted(league["game_ids"]) == sorted(finished), "every finished game taken by itself"
    screenshot(page, "admin-overview")

    # The games it counts: one left out with its reason (a blank reason refused beside its field).
    page.click("a[href='/club/c1/leagues/autumn/games']")
    first = league["game_ids"][0]
    page.click(f"#game-{first} button[type=submit]")
    assert "say why" in problem_beside(page, f"reason_{first}").lower()
    page.fill(f"#reason_{first}", "played with the wrong deck")
    page.click(f"#game-{first} button[type=submit]")
    page.wait_for_url(re.compile(r".*/leagues/autumn/games$"))
    assert "played with the wrong deck" in page.inner_text(f"#game-{first}")
    standings = api_get(site, "/clubs/c1/leagues/autumn/standings")
    assert [(r["game_id"], r["reason"]) for r in standings["removals"]] == [(first, "played with the wrong deck")]
    screenshot(page, "admin-league-games")


def test_a_campaign_and_a_tournament_are_made_from_their_forms(browser: Any, site: Site) -> None:
    page = sign_in(browser, site, site.record)
    page.goto("/club/c1/campaigns/new")
    page.fill("#campaign_id", "winter")
    page.select_option("#ruleset", "milles-nautiques")
    page.click("button[type=submit].primary")
    assert "seat order" in problem_beside(page, "players")
    assert page.input_value("#campaign_id") == "winter"
    assert api_get(site, "/clubs/c1/campaigns") == []
    players = [p["player_id"] for p in api_get(site, "/clubs/c1/players")]
    page.select_option("#player_0", players[0])
    page.select_option("#player_1", players[1])
    screenshot(page, "admin-new-campaign")
    page.click("button[type=submit].primary")
    page.wait_for_url(re.compile(r".*/club/c1/admin$"))
    (campaign,) = api_get(site, "/clubs/c1/campaigns")
    assert campaign["campaign"]["players"] == players[:2]

    page.goto("/club/c1/tournaments/new")
    page.fill("#tournament_id", "open")
    page.fill("#title", "The Open")
    page.select_option("#ruleset", "milles-nautiques")
    page.check("input[name=system][value=swiss]")
    page.fill("#seed", "many")
    page.click("button[type=submit].primary")
    assert "whole number" in problem_beside(page, "seed")
    assert page.input_value("#title") == "The Open" and page.is_checked("input[name=system][value=swiss]")
    page.fill("#seed", "7")
    page.click("button[type=submit].primary")
    assert "how a game gives points" in problem_beside(page, "scoring").lower(), "the use case's refusal"
    assert api_get(site, "/clubs/c1/tournaments") == []
    screenshot(page, "admin-new-tournament-refused")
    page.fill("#placement_points", "3, 1")
    page.click("button[type=submit].primary")
    page.wait_for_url(re.compile(r".*/club/c1/admin$"))
    (tournament,) = api_get(site, "/clubs/c1/tournaments")
    assert (tournament["title"], tournament["seed"], tournament["system"]) == ("The Open", 7, "swiss")
    assert "The Open" in page.inner_text("main")


def test_a_catalogue_is_uploaded_and_a_bad_one_shows_its_row_errors_and_is_not_kept(browser: Any, site: Site) -> None:
    documented = RULESETS.get("atlantic-storm").resource_kinds["catalogue"].builtin()["documented"]
    lines = documented.decode().splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("C?,"))
    bad = "\n".join(
        [*lines[:row], lines[row].replace(",north_atlantic,7,", ",north_atlantic,lots,"), *lines[row + 1 :]]
    )
    page = sign_in(browser, site, site.record)
    page.goto("/club/c1/resources")
    assert "documented" in page.inner_text(".shipped") and "hedgerow_lane" in page.inner_text(".shipped")
    page.select_option("#what", "atlantic-storm/catalogue")
    page.fill("#resource_id", "club-deck")
    page.set_input_files("#file", files=[{"name": "deck.csv", "mimeType": "text/csv", "buffer": bad.encode()}])
    page.click("button[type=submit].primary")
    problem = page.inner_text(".problem")
    assert "does not validate" in problem and "Row" in problem, problem
    assert page.input_value("#resource_id") == "club-deck"
    assert api_get(site, "/clubs/c1/resources") == [], "nothing stored"
    screenshot(page, "admin-resources-refused")

    for _ in range(2):  # two uploads of the same name: two versions
        page.select_option("#what", "atlantic-storm/catalogue")
        page.fill("#resource_id", "club-deck")
        page.set_input_files("#file", files=[{"name": "deck.csv", "mimeType": "text/csv", "buffer": documented}])
        page.click("button[type=submit].primary")
        page.wait_for_url(re.compile(r".*/club/c1/resources$"))
    assert [r["version"] for r in api_get(site, "/clubs/c1/resources")] == [1, 2]
    scenario = RULESETS.get("memoire-44").resource_kinds["scenario"].builtin()["hedgerow_lane"]
    page.select_option("#what", "memoire-44/scenario")
    page.fill("#resource_id", "our-hedgerows")
    page.set_input_files("#file", files=[{"name": "h.m44", "mimeType": "application/json", "buffer": scenario}])
    page.click("button[type=submit].primary")
    page.wait_for_url(re.compile(r".*/club/c1/resources$"))
    assert [r["resource_id"] for r in api_get(site, "/clubs/c1/resources")] == [
        "club-deck",
        "club-deck",
        "our-hedgerows",
    ]
    assert [c.inner_text() for c in page.locator("table.resources tbody tr td:nth-child(4)").all()] == ["2", "1", "1"]
    screenshot(page, "admin-resources")


def test_read_and_spectate_keys_are_made_shown_once_and_revoked_after_a_confirmation(browser: Any, site: Site) -> None:
    page = sign_in(browser, site, site.record)
    before = len(api_get(site, "/clubs/c1/keys"))
    page.goto("/club/c1/keys")
    page.check("input[name=scope][value=read]")
    page.fill("#expires", "2001-01-01")
    page.click("button[type=submit].primary")
    assert "name the key" in problem_beside(page, "name").lower()
    assert "after today" in problem_beside(page, "expires")
    assert page.is_checked("input[name=scope][value=read]")
    assert len(api_get(site, "/clubs/c1/keys")) == before, "nothing stored"
    page.fill("#name", "the club's screen")
    page.fill("#expires", "")
    page.click("button[type=submit].primary")
    token = page.input_value("#new-token")
    assert token.startswith("tl_") and page.locator("button.copy").count() == 1
    assert len(api_get(site, "/clubs/c1/keys")) == before + 1
    assert Api(site.http).client.get("/clubs/c1/games", headers=Api.auth(token)).status_code == 200
    screenshot(page, "admin-keys")
    page.goto("/club/c1/keys")
    assert token not in page.content(), "the token is shown once"

    page.click('li:has-text("the club\'s screen") >> text=Revoke…')
    assert "Revoke the key" in page.inner_text("h1")
    screenshot(page, "admin-key-revoke")
    page.click("text=Keep it")
    assert Api(site.http).client.get("/clubs/c1/games", headers=Api.auth(token)).status_code == 200
    page.click('li:has-text("the club\'s screen") >> text=Revoke…')
    page.click("button.danger")
    page.wait_for_url(re.compile(r".*/club/c1/keys$"))
    assert Api(site.http).client.get("/clubs/c1/games", headers=Api.auth(token)).status_code == 401


def test_a_games_settings_change_its_title_and_spectator_delay_and_put_it_in_a_league(browser: Any, site: Site) -> None:
    game_id = site.games["two_players_to_forty"]
    page = sign_in(browser, site, site.record)
    page.goto(f"/club/c1/games/{game_id}")
    page.click("text=Game settings")
    page.fill("#title", "Friday final")
    page.fill("#events", "-2")
    page.click("button[type=submit].primary")
    assert "whole number" in problem_beside(page, "events")
    assert page.input_value("#title") == "Friday final"
    assert api_get(site, f"/clubs/c1/games/{game_id}")["title"] == "", "nothing stored"
    page.fill("#events", "2")
    page.fill("#seconds", "30")
    page.click("button[type=submit].primary")
    page.wait_for_url(re.compile(rf".*/games/{game_id}/settings$"))
    assert api_get(site, f"/clubs/c1/games/{game_id}")["title"] == "Friday final"
    assert api_get(site, f"/clubs/c1/games/{game_id}/spectator-delay") == {"events": 2, "seconds": 30}

    spring = {"league_id": "spring", "ruleset": "milles-nautiques", "members": [], "starts": "2000-01-01"}
    spring |= {"ends": "2999-12-31", "scoring": {"placement_points": {"1": 3}}}
    made = site.http.post("/clubs/c1/leagues", json=spring, headers=Api.auth(site.record))
    assert made.status_code == 201, made.text
    page.reload()
    page.select_option("#collection", "league:spring")
    page.click("form[action$='/settings/collections'] button[type=submit]")
    page.wait_for_url(re.compile(rf".*/games/{game_id}/settings$"))
    assert game_id in api_get(site, "/clubs/c1/leagues/spring")["game_ids"]
    assert "League spring" in page.inner_text("main")
    screenshot(page, "admin-game-settings")


def test_the_share_picker_tells_games_apart_by_players_time_and_result(browser: Any, site: Site) -> None:
    page = sign_in(browser, site, site.record)
    page.goto("/club/c1/shares")
    options = [
        o.inner_text() for o in page.locator("#target option").all() if o.get_attribute("value").startswith("game:")
    ]
    assert len(options) == len(site.games) and len(set(options)) == len(options), options
    assert all(re.search(r"\d{1,2}:\d{2}", o) for o in options), "each names the time it started"
    assert any(" won (" in o for o in options), options
    screenshot(page, "admin-share-picker")


@pytest.mark.parametrize("scope", ["read", "spectate"])
def test_a_read_or_spectate_session_sees_no_admin_form_nor_link(browser: Any, site: Site, scope: str) -> None:
    page = sign_in(browser, site, site.key(scope)["token"])
    assert page.locator("a[href='/club/c1/admin']").count() == 0
    game_id = site.games["two_players_to_forty"]
    page.goto(f"/club/c1/games/{game_id}")
    assert page.locator(f"a[href='/club/c1/games/{game_id}/settings']").count() == 0
    for path in (
        "/admin",
        "/leagues/new",
        "/keys",
        "/resources",
        f"/games/{site.games['two_players_to_forty']}/settings",
    ):
        response = page.goto(f"/club/c1{path}")
        assert response is not None and response.status == 403, path
        assert page.locator("form:not([action='/sign-out'])").count() == 0, path


@pytest.mark.parametrize(
    ("language", "said"),
    [("fr", "Nommez la clé, pour la reconnaître dans cette liste."), ("es", "Ponga nombre a la clave")],
)
def test_a_forms_problem_is_told_in_the_readers_language(browser: Any, site: Site, language: str, said: str) -> None:
    page = sign_in(browser, site, site.record)
    page.goto(f"/language/{language}?next=/club/c1/keys")
    page.check("input[name=scope][value=spectate]")
    page.click("button[type=submit].primary")
    assert said in problem_beside(page, "name")
    assert page.is_checked("input[name=scope][value=spectate]")
