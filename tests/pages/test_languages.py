"""The pages in the reader's language (issue 26), in a real browser: a French browser reads the club home, a
replay step and the recorder with no sentence of the pages' English catalogue left on them, and the
language menu on every page switches to Spanish and is remembered on the next page."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from babel.messages.pofile import read_po

from tests.pages.conftest import PHONE, ROOT, Site, screenshot, sign_in
from tests.pages.test_record import settled
from tests.service.test_resources import BAD_SCENARIO_SAID, BAD_TABLES, BAD_TABLES_SAID, bad_scenario

pytestmark = pytest.mark.browser


def english_sentences() -> list[str]:
    """The pages' English texts (their catalogue's message ids) of more than one word, cut at their
    placeholders and markup: what an English page would show and a French one must not."""
    with (ROOT / "service/pages/locale/messages.pot").open("rb") as source:
        catalog = read_po(source)
    pieces: set[str] = set()
    for message in catalog:
        for msgid in message.id if isinstance(message.id, tuple) else (message.id,):
            for piece in re.split(r"%\(\w+\)s|\{\w+\}|<[^>]+>", msgid):
                piece = piece.strip(" ;:·.,")
                if len(piece.split()) > 1:
                    pieces.add(piece)
    return sorted(pieces)


def shown_text(page: Any) -> str:
    """What the page shows a reader, and the labels a screen reader reads out."""
    labels = page.locator("[aria-label], [title], [placeholder]").evaluate_all(
        "es => es.map(e => [e.getAttribute('aria-label'), e.getAttribute('title'), e.getAttribute('placeholder')]"
        ".filter(Boolean).join(' '))"
    )
    return " ".join([page.inner_text("body"), page.title(), *labels])


def test_a_french_browser_reads_the_pages_in_french_and_the_menu_switches_to_spanish_for_good(
    browser: Any, site: Site
) -> None:
    english = english_sentences()
    assert "Live and unfinished games" in english and "What happened, step by step" in english
    page = sign_in(browser, site, site.record, locale="fr-FR")
    game = site.games["two_players_to_forty"]
    started = site.http.post(
        "/clubs/c1/games",
        headers={"Authorization": f"Bearer {site.record}"},
        json={"ruleset": "milles-nautiques", "players": [{"player_id": "p1"}, {"player_id": "p2"}]},
    )
    assert started.status_code == 201, started.text
    recording = started.json()["game_id"]
    pages = {
        "home": "/club/c1",
        "replay": f"/club/c1/games/{game}/replay/3",
        "recorder": f"/club/c1/games/{recording}/record",
    }
    for name, path in pages.items():
        page.goto(path)
        if path.endswith("/record"):
            settled(page)
        assert page.locator("html").get_attribute("lang") == "fr"
        text = shown_text(page)
        assert [sentence for sentence in english if sentence in text] == [], path
        # French runs longer than English: nothing of the page's content is wider than a phone (the recorder's
        # "bigger picture" button ran off its edge).
        page.set_viewport_size(PHONE)
        wider = page.evaluate(
            "() => [...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right"
            " > document.documentElement.clientWidth + 1 && !e.closest('.picture')).map(e => e.tagName + '#' + e.id)"
        )
        assert wider == [], (path, wider)
        screenshot(page, f"french-{name}")
    page.goto(f"/club/c1/games/{game}/replay/3")
    assert "Alain pioche une carte." in page.inner_text("ol.narration")
    assert page.get_by_role("heading", name="Récit").count() == 1
    # The game's picture is drawn in the reader's language too (its own catalogue's words).
    assert "Milles Nautiques · manche 1" in page.locator("svg").first.inner_html()

    page.get_by_role("link", name="Español").click()
    page.wait_for_url(re.compile(rf".*/club/c1/games/{game}/replay/3$"))
    assert page.locator("html").get_attribute("lang") == "es"
    assert "Alain roba una carta." in page.inner_text("ol.narration")
    assert "Milles Nautiques · ronda 1" in page.locator("svg").first.inner_html()
    page.goto("/club/c1")
    assert page.locator("html").get_attribute("lang") == "es"
    assert page.get_by_role("heading", name="Partidas recientes").count() == 1
    assert page.locator("nav.languages strong").inner_text() == "Español"


def test_the_clubs_language_set_on_its_settings_page_greets_a_browser_that_asks_for_none_of_ours(
    browser: Any, site: Site
) -> None:
    member = sign_in(browser, site, site.record)
    member.goto("/club/c1/settings")
    member.select_option("#language", "fr")
    member.click("form.card button[type=submit]")
    member.wait_for_url(re.compile(r".*/club/c1/settings$"))
    assert member.locator("#language").input_value() == "fr"
    assert site.get("/clubs/c1", site.record)["language"] == "fr"
    german = sign_in(browser, site, site.key("read")["token"], locale="de-DE")
    assert german.locator("html").get_attribute("lang") == "fr"
    assert german.get_by_role("heading", name="Parties récentes").count() == 1
    english = sign_in(browser, site, site.key("read")["token"], locale="en-GB")
    assert english.get_by_role("heading", name="Recent games").count() == 1
    member.select_option("#language", "")
    member.click("form.card button[type=submit]")
    member.wait_for_url(re.compile(r".*/club/c1/settings$"))
    assert site.get("/clubs/c1", site.record)["language"] is None


@pytest.mark.parametrize("locale", ["fr-FR", "es-ES"])
def test_abad_scenario_uploaded_on_the_page_is_refused_in_the_readers_language(
    browser: Any, site: Site, locale: str
) -> None:
    title, detail, starting, terrain = BAD_SCENARIO_SAID[locale[:2]]
    page = sign_in(browser, site, site.record, locale=locale)
    page.goto("/club/c1/resources")
    page.select_option("#what", "memoire-44/scenario")
    page.fill("#resource_id", "our-lane")
    page.set_input_files("#file", files=[{"name": "l.m44", "mimeType": "application/json", "buffer": bad_scenario()}])
    page.click("button[type=submit].primary")
    assert page.locator(".problem h2").inner_text() == title
    assert page.locator(".problem p").inner_text() == detail
    hexagon = {"fr": "Hexagone", "es": "Hexágono"}[locale[:2]]
    assert page.locator(".problem li").all_inner_texts() == [
        f"game info.starting: {starting}",
        f"{hexagon} 1, terrain: {terrain}",
    ]
    assert page.input_value("#resource_id") == "our-lane", "the values typed are kept"
    assert [r for r in site.get("/clubs/c1/resources", site.record) if r["resource_id"] == "our-lane"] == []
    screenshot(page, f"resources-refused-{locale[:2]}")
    # A table's rows too, each beside its field as the API names it.
    page.select_option("#what", "memoire-44/combat_deck")
    deck = json.dumps(BAD_TABLES["combat_deck"]).encode()
    page.set_input_files("#file", files=[{"name": "d.json", "mimeType": "application/json", "buffer": deck}])
    page.click("button[type=submit].primary")
    detail, rows = BAD_TABLES_SAID["combat_deck"][locale[:2]]
    assert page.locator(".problem p").inner_text() == detail
    assert page.locator(".problem li").all_inner_texts() == [
        f"{field.replace('_', ' ')}: {said}" for field, said in rows
    ]
    page.context.close()
