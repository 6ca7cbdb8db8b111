"""The club's players page (issue 27) in a real browser and over plain form posts: players added (two of
one name, told apart in the seat menus by their notes), renamed, retired (out of the menus, still on
their games) and merged (the league's standings count one person); a refused value is shown beside its
field in the reader's words with the values typed kept, and nothing is stored; a read key sees no form."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tests.pages.conftest import PHONE, Site, screenshot, sign_in
from tests.pages.test_pages import signed_in
from tests.service.api_support import Api
from tests.service.test_projector_support import roll

pytestmark = pytest.mark.browser


def listed(site: Site) -> dict[str, dict[str, Any]]:
    return {p["player_id"]: p for p in site.get("/clubs/c1/players", site.record)}


def played(site: Site, seats: tuple[str, str]) -> str:
    """A tally game the first seat wins 12-2 (recorded over the API: the recording page has its own tests)."""
    game_id = site.api.tally_game("c1", site.record, seats)
    events = [roll(0, 6), roll(1, 2), roll(0, 6)]
    assert site.api.append("c1", site.record, game_id, 1, events).status_code == 201
    return game_id


def add(page: Any, name: str, note: str = "") -> None:
    page.fill("#add-name", name)
    page.fill("#add-note", note)
    page.click("#add-player button[type=submit]")
    page.wait_for_load_state()


def seat_menu(page: Any) -> list[str]:
    page.goto("/club/c1/games/new?ruleset=tally")
    return [o.strip() for o in page.locator("#seat_0 option").all_inner_texts()]


def test_a_club_adds_renames_retires_and_merges_its_players_from_the_page(browser: Any, site: Site) -> None:
    page = sign_in(browser, site, site.record)
    page.goto("/club/c1/players")
    add(page, "Camille", "Tuesdays")
    add(page, "Camille", "Fridays")
    add(page, "Dominique")
    add(page, "Dom")
    players = listed(site)
    assert {p: players[p]["name"] for p in ("camille", "camille-2", "dominique", "dom")} == {
        "camille": "Camille",
        "camille-2": "Camille",
        "dominique": "Dominique",
        "dom": "Dom",
    }
    assert players["camille-2"]["note"] == "Fridays"
    menu = seat_menu(page)
    assert "Camille (Tuesdays)" in menu and "Camille (Fridays)" in menu and "Camille" not in menu
    page.select_option("#seat_0", "camille")
    page.select_option("#seat_1", "camille-2")
    screenshot(page, "new-game-same-names")

    # Rename: the page and the menus say the new name.
    page.goto("/club/c1/players")
    page.locator("#player-dom summary").click()
    page.fill("#change-dom-name", "Dom P.")
    page.click("#player-dom form.card button[type=submit]")
    page.wait_for_load_state()
    assert listed(site)["dom"]["name"] == "Dom P." and "Dom P." in seat_menu(page)

    # Retire: out of the menus (the other Camille is plain "Camille" there again), still on its games.
    game_id = played(site, ("camille-2", "dominique"))
    page.goto("/club/c1/players")
    page.locator("#player-camille-2 summary").click()
    page.click("#player-camille-2 form[action$='/retire'] button")
    page.wait_for_load_state()
    assert listed(site)["camille-2"]["retired_at"] is not None
    menu = seat_menu(page)
    assert "Camille" in menu and not any("Fridays" in m or "camille-2" in m for m in menu)
    page.goto("/club/c1/players/camille-2")
    assert game_id in page.locator("main").inner_html() and "Retired on" in page.locator("main").inner_text()

    # Merge: a league of Dominique and Dom P. (one person) counts one row once they are merged.
    site.caught_up()
    first = played(site, ("dominique", "camille"))
    second = played(site, ("dom", "camille"))
    league = {
        "league_id": "players-night",
        "ruleset": "tally",
        "members": ["dominique", "dom", "camille"],
        "starts": "2000-01-01",
        "ends": "2999-12-31",
        "scoring": {"win_draw_loss": [3, 1, 0]},
    }
    auth = Api.auth(site.record)
    assert site.http.post("/clubs/c1/leagues", json=league, headers=auth).status_code == 201
    for game in (first, second):
        assigned = site.http.post("/clubs/c1/leagues/players-night/games", json={"game_id": game}, headers=auth)
        assert assigned.status_code == 201, assigned.text
    site.caught_up()
    page.goto("/club/c1/leagues/players-night")
    assert page.locator("table tbody tr").count() == 3
    page.goto("/club/c1/players")
    page.select_option("#merge-player_id", "dom")
    page.select_option("#merge-into", "dominique")
    page.click("#merge-players button[type=submit]")
    page.wait_for_load_state()
    assert "merged into Dominique" in page.locator("#player-dom").inner_text()
    merges = site.get("/clubs/c1/player-merges", site.record)
    assert [(m["player_id"], m["into_id"]) for m in merges] == [("dom", "dominique")]
    assert "Dom P." not in seat_menu(page)
    page.goto("/club/c1/players")
    screenshot(page, "players")
    page.goto("/club/c1/leagues/players-night")
    rows = page.locator("table tbody tr")
    assert rows.count() == 2
    assert re.search(r"Dominique\b.*\b6\b", rows.nth(0).inner_text(), re.S), rows.nth(0).inner_text()
    screenshot(page, "league-after-merge")
    page.goto("/club/c1/players/dom")  # the merged record's page is its person's, with both records' games
    body = page.locator("main").inner_text()
    assert "Dominique" in body and "Also recorded as dom" in body
    page.context.close()


def test_a_refused_value_is_shown_beside_its_field_with_the_values_kept_and_nothing_stored(
    browser: Any, site: Site
) -> None:
    page = sign_in(browser, site, site.record, PHONE)
    before = listed(site)
    page.goto("/club/c1/players")
    page.fill("#add-name", "   ")
    page.fill("#add-note", "Saturdays")
    page.fill("#add-player_id", "not an id")
    page.click("#add-player button[type=submit]")
    page.wait_for_load_state()
    assert page.locator("#add-name-error").inner_text() == "Write a name."
    assert page.locator("#add-name").get_attribute("aria-invalid") == "true"
    assert page.input_value("#add-note") == "Saturdays" and page.input_value("#add-player_id") == "not an id"
    screenshot(page, "players-refused")
    page.fill("#add-name", "Eve")
    page.click("#add-player button[type=submit]")
    page.wait_for_load_state()
    assert "letters, digits" in page.locator("#add-player_id-error").inner_text()
    assert page.input_value("#add-name") == "Eve"
    page.click("#merge-players button[type=submit]")
    page.wait_for_load_state()
    assert page.locator("#merge-player_id-error").inner_text() == "Choose the record to merge."
    assert listed(site) == before
    # In French: the same refusal in the reader's words.
    page.goto("/language/fr?next=/club/c1/players")
    page.fill("#add-name", "")
    page.click("#add-player button[type=submit]")
    page.wait_for_load_state()
    assert page.locator("#add-name-error").inner_text() == "Écrivez un nom."
    page.goto("/language/en?next=/club/c1/players")
    page.context.close()


def test_a_read_key_sees_the_players_but_no_form_and_cannot_post_one(site: Site) -> None:
    read = site.key("read")
    with httpx.Client(base_url=site.base) as client:
        signed_in(client, read["token"])
        page = client.get("/club/c1/players")
        assert page.status_code == 200 and "player-list" in page.text
        assert "<form" not in page.text.split("<main", 1)[1].split("</main>")[0]
        token = re.search(r'name="_csrf_token" value="([^"]+)"', page.text)  # the sign-out form's
        csrf = token[1] if token else ""
        refused = client.post("/club/c1/players", data={"name": "Mallory", "_csrf_token": csrf})
        assert refused.status_code == 403
    assert "mallory" not in listed(site)
