"""The pages' header at phone width (issue 27): with Players and Club admin in the menu it took three or
four lines at 360 px; the menu and the languages now fold behind one button (a `<details>`, no script),
one line closed in every language, and open over the page with links that work. At 1280 px the menu sits
in the header's one row, with no button."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.pages.conftest import ARTEFACTS, LAPTOP, PHONE, Site, sign_in

pytestmark = pytest.mark.browser

CLOSED_MOST = 64
"""The header's height at most, closed at 360 px (one line and its padding)."""


def height(page: Any) -> float:
    box = page.locator("header.top").bounding_box()
    assert box is not None
    return float(box["height"])


def shot(page: Any, name: str) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"header-{name}.png"))


@pytest.mark.parametrize(
    ("language", "players", "spanish"),
    [("en", "Players", "Español"), ("fr", "Joueurs", "Español"), ("es", "Jugadores", "Español")],
)
def test_at_phone_width_the_header_is_one_line_and_its_menu_opens_over_the_page(
    browser: Any, site: Site, language: str, players: str, spanish: str
) -> None:
    page = sign_in(browser, site, site.record, PHONE)
    page.goto(f"/language/{language}?next=/club/c1")
    page.wait_for_url(re.compile(r".*/club/c1$"))
    menu = page.locator("header.top details.menu")
    link = page.locator("header.top").get_by_role("link", name=players, exact=True)
    assert height(page) <= CLOSED_MOST, f"{height(page)} px in {language}"
    assert not link.is_visible() and not page.locator("nav.languages").is_visible()
    shot(page, f"{language}-phone")

    menu.locator("summary").click()
    assert menu.get_attribute("open") is not None
    assert link.is_visible() and page.locator("nav.languages").is_visible()
    assert height(page) <= CLOSED_MOST, "the open menu lies over the page, the header keeps its line"
    shot(page, f"{language}-phone-open")
    link.click()
    page.wait_for_url(re.compile(r".*/club/c1/players$"))
    assert page.locator("header.top details.menu").get_attribute("open") is None, "a new page: closed again"

    page.set_viewport_size(LAPTOP)
    assert not page.locator("header.top summary").is_visible(), "no button at laptop width"
    assert page.locator("header.top").get_by_role("link", name=players, exact=True).is_visible()
    assert height(page) <= CLOSED_MOST, "one row at 1280 px"
    shot(page, f"{language}-laptop")
    if language != "es":
        page.set_viewport_size(PHONE)
        page.locator("header.top summary").click()
        page.locator("nav.languages").get_by_role("link", name=spanish).click()
        page.wait_for_url(re.compile(r".*/club/c1/players$"))
        assert page.locator("html").get_attribute("lang") == "es", "the language menu's links work from inside"
    page.context.close()


def test_the_sign_in_pages_header_is_one_line_at_phone_width(browser: Any, site: Site) -> None:
    page = browser.new_context(viewport=PHONE, base_url=site.base).new_page()
    page.goto("/sign-in")
    assert height(page) <= CLOSED_MOST
    page.locator("header.top summary").click()
    page.locator("nav.languages").get_by_role("link", name="Français").click()
    page.wait_for_url(re.compile(r".*/sign-in$"))
    assert page.locator("html").get_attribute("lang") == "fr" and height(page) <= CLOSED_MOST
    shot(page, "sign-in-fr-phone")
    page.context.close()


def test_the_closed_header_is_one_line_on_every_kind_of_page_at_phone_width(browser: Any, site: Site) -> None:
    """The recorder brings its own styles for summaries (record.css): its header stays one line too."""
    game = site.games["two_players_to_forty"]
    playing = site.api.game(
        "c1", site.record, {"ruleset": "milles-nautiques", "players": [{"player_id": "p1"}, {"player_id": "p2"}]}
    )
    page = sign_in(browser, site, site.record, PHONE)
    for path in (
        "/club/c1/players",
        "/club/c1/admin",
        "/club/c1/keys",
        "/club/c1/shares",
        f"/club/c1/games/{game}",
        f"/club/c1/games/{game}/settings",
        f"/club/c1/games/{playing}/record",
        "/club/c1/games/new?ruleset=milles-nautiques",
    ):
        page.goto(path)
        assert height(page) <= CLOSED_MOST, f"{height(page)} px on {path}"
    shot(page, "new-game-phone")
    page.goto(f"/club/c1/games/{playing}/record")
    page.locator("header.top summary").click()
    shot(page, "recorder-phone-open")
    page.context.close()
