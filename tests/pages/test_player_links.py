"""Players take part from their phones (issue 28 part 4), in Chromium: the organiser makes every entry's
player link on the links page (each shown once, with its QR code); two players check in from their phones,
report their table's result and confirm it (the table closes); at the other table a report is disputed and
the organiser keeps one of the reports from the evening's partial; a withdrawn player's check-in is refused
in words, as are a score the game refuses and a second report by the same player. Screenshots at 360 and
1280 px."""

from __future__ import annotations

from typing import Any

from tests.pages.conftest import PHONE, Site, screenshot, sign_in
from tests.service.api_support import Api

PLAYERS = {"ana": "Ana", "ben": "Ben", "cora": "Cora", "dev": "Dev", "eli": "Eli"}


def organise(site: Site) -> None:
    """Tournament `night` of Tally, Swiss, with four entries (and Eli, who will withdraw)."""
    for player_id, name in PLAYERS.items():
        made = site.http.post(
            "/clubs/c1/players", json={"player_id": player_id, "name": name}, headers=Api.auth(site.record)
        )
        assert made.status_code == 201, made.text
    body = {"tournament_id": "night", "title": "Friday night", "ruleset": "tally", "system": "swiss"}
    body |= {"scoring": {"win_draw_loss": [2, 1, 0]}}
    assert site.http.post("/clubs/c1/tournaments", json=body, headers=Api.auth(site.record)).status_code == 201
    for player_id in PLAYERS:
        entered = site.http.post(
            "/clubs/c1/tournaments/night/players", json={"player_id": player_id}, headers=Api.auth(site.record)
        )
        assert entered.status_code == 201, entered.text


def api(site: Site, path: str, body: dict[str, Any] | None = None) -> Any:
    answer = site.http.post(f"/clubs/c1/tournaments/night{path}", json=body or {}, headers=Api.auth(site.record))
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


def phone(browser: Any, site: Site, url: str) -> Any:
    """A player's phone opening their link."""
    page = browser.new_context(viewport=PHONE, base_url=site.base).new_page()
    page.goto(url)
    page.wait_for_url("**/me")
    return page


def report(page: Any, first: int, second: int) -> None:
    page.fill("#score-1", str(first))
    page.fill("#score-2", str(second))
    page.click("#report button[type=submit]")


def test_players_check_in_report_confirm_and_a_dispute_is_decided_by_the_organiser(browser: Any, site: Site) -> None:
    organise(site)
    organiser = sign_in(browser, site, site.record)
    organiser.goto("/club/c1/tournaments/night/links")
    assert organiser.locator("#entries li").count() == 5
    organiser.click("#make-links")
    cards = organiser.locator("#made figure.qr-card")
    cards.first.wait_for()  # count() does not wait for the page the form answers with
    assert cards.count() == 5 and organiser.locator("#made svg.qr").count() == 5
    urls = {cards.nth(i).get_attribute("data-player"): cards.nth(i).locator("a").inner_text() for i in range(5)}
    screenshot(organiser, "player-links")
    # Shown once: the page again lists the links, never their addresses.
    organiser.goto("/club/c1/tournaments/night/links")
    assert organiser.locator("#made").count() == 0 and urls["ana"] not in organiser.content()

    phones = {p: phone(browser, site, urls[p]) for p in ("ana", "ben", "cora", "dev", "eli")}
    for player in ("ana", "ben"):
        page = phones[player]
        assert page.locator("h1").inner_text() == PLAYERS[player]
        page.click("#check-in button")
        assert "checked in for round 1" in page.locator("#check-in").inner_text()
    organiser.goto("/club/c1/tournaments/night/links")
    assert organiser.locator("#check-ins").inner_text().count("Ana") == 1
    # Eli withdraws after opening the page: the check-in is refused, in words, nothing stored.
    api(site, "/players/eli/withdrawal", {"reason": "ill"})
    phones["eli"].click("#check-in button")
    assert "withdrawn" in phones["eli"].locator("#problem").inner_text()

    tables = api(site, "/rounds")["tournament"]["rounds"][0]["tables"]
    for page in phones.values():
        page.reload()
    first, second = ({p: phones[p] for p in t["seats"]} for t in tables)
    a, b = tables[0]["seats"]
    assert f"Table {tables[0]['table']}" in first[a].locator(".table-number").inner_text()
    screenshot(first[a], "player-link-phone")
    stale = phone(browser, site, urls[a])  # the same player's second tab, its form still open
    # A score the game refuses (below its lowest): the problem in words, the values typed kept.
    report(first[a], -3, 4)
    assert first[a].locator("#problem").inner_text().strip()
    assert (first[a].input_value("#score-1"), first[a].input_value("#score-2")) == ("-3", "4")
    report(first[a], 12, 4)
    assert "Waiting for the other player" in first[a].locator("#pairing").inner_text()
    report(stale, 12, 5)  # a second report by the same player
    assert "You have answered for this table already." in stale.locator("#problem").inner_text()
    first[b].reload()
    assert f"{PLAYERS[a]} reported" in first[b].locator("#pairing").inner_text()
    screenshot(first[b], "player-link-confirm")
    first[b].click("#confirm")
    assert "this table is closed" in first[b].locator("#pairing").inner_text()

    c, d = tables[1]["seats"]
    report(second[c], 11, 5)
    second[d].reload()
    second[d].fill("#reason", "I won")
    second[d].click("#dispute")
    assert "the organiser decides" in second[d].locator("#pairing").inner_text()
    organiser.goto("/club/c1/tournaments/night/links")
    disputes = organiser.locator("#disputes")
    assert "I won" in disputes.inner_text()
    screenshot(organiser, "player-links-dispute")
    disputes.locator("button", has_text="Keep this result").first.click()
    organiser.wait_for_url("**/links")
    assert "No dispute." in organiser.locator("#disputes").inner_text()
    second[d].reload()
    assert "this table is closed" in second[d].locator("#pairing").inner_text()
    rounds = site.get("/clubs/c1/tournaments/night", site.record)["tournament"]["rounds"]
    assert all(t["game_id"] for t in rounds[0]["tables"])
