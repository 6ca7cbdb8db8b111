""" "What if" lines in Chromium: a member opens a line from a step of the replay, taps the recorder's
choices to try other plays (a Milles Nautiques round, a Mémoire 44 turn), saves and finds it listed under
its step, shares it (the link reads as a spectator would); the game's record, result and league standings
stay byte-identical. A line opened from the public view of an Atlantic Storm battle offers no event that
needs a card the public has not seen."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import msgspec

from service.cli import main as tablelog
from tests.pages.conftest import Site, screenshot, sign_in
from tests.service.api_support import Api
from tests.support.rulesets import RULESETS
from tests.test_hidden_information import FIXTURES, SECRETS, _fixture, alternative
from tests.test_lines_hidden import comparable

FIXTURE = next(p for p in FIXTURES if p.stem == "three_players_two_convoys")

LEAGUE = {
    "league_id": "whatif",
    "ruleset": "milles-nautiques",
    "members": ["p1", "p2"],
    "starts": "2000-01-01",
    "ends": "2999-12-31",
    "scoring": {"win_draw_loss": [3, 1, 0]},
    "tie_breaks": ["points"],
}


def untouched(site: Site, game_id: str, league: str | None = None) -> tuple[bytes, ...]:
    """The game's record, its listing (result included) and, when given, a league's standings, as sent."""
    paths = [f"/clubs/c1/games/{game_id}/events?limit=1000", f"/clubs/c1/games/{game_id}"]
    if league is not None:
        paths.append(f"/clubs/c1/leagues/{league}/standings")
    answers = [site.http.get(path, headers=Api.auth(site.record)) for path in paths]
    assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
    return tuple(a.content for a in answers)


def open_line(page: Any, game_id: str, step: int, name: str, view: str) -> str:
    """Open a line from the replay's step `step` through its form; the line's id."""
    page.goto(f"/club/c1/games/{game_id}/replay/{step}")
    page.click(".line-form summary")
    page.fill("#line-name", name)
    page.select_option("#line-view", view)
    page.click(".line-form button[type=submit]")
    page.wait_for_selector("#line")
    return str(page.locator("#line").get_attribute("data-line"))


def tap(page: Any, times: int) -> list[str]:
    """Tap the first choice `times` times (each a step of the line); the narration after each."""
    told = []
    for count in range(1, times + 1):
        page.locator(".line-choices button.choice").first.click()
        page.wait_for_selector(f'#line[data-length="{count}"]')
        told.append(page.locator(".line-narration li.current").inner_text())
    return told


def test_a_line_on_a_milles_nautiques_round_and_a_memoire_44_turn_leaves_the_record_alone(
    browser: Any, site: Site
) -> None:
    forty = site.games["two_players_to_forty"]
    made = site.http.post("/clubs/c1/leagues", json=LEAGUE, headers=Api.auth(site.record))
    assert made.status_code == 201, made.text
    added = site.http.post("/clubs/c1/leagues/whatif/games", json={"game_id": forty}, headers=Api.auth(site.record))
    assert added.status_code == 201, added.text
    site.caught_up()
    before = untouched(site, forty, "whatif")
    page = sign_in(browser, site, site.record)

    line_id = open_line(page, forty, 8, "<i>Radar</i> first", "public")
    assert page.locator("h1").inner_text().endswith("<i>Radar</i> first")  # a name is shown as text
    assert page.locator("h1 i").count() == 0
    told = tap(page, 3)
    assert len(told) == 3 and all(told)
    assert [int(v) for v in page.locator(".line-narration li").evaluate_all("l => l.map(e => e.value)")] == [9, 10, 11]
    assert page.locator(".picture svg").count() == 1
    screenshot(page, "what-if-line")

    page.goto(f"/club/c1/games/{forty}/replay/8")
    listed = page.locator(f'.line-list .line[data-line="{line_id}"]')
    assert "<i>Radar</i> first" in listed.inner_text() and "3" in listed.inner_text()
    page.goto(f"/club/c1/games/{forty}/replay/9")
    assert page.locator(f'.line-list .line[data-line="{line_id}"]').count() == 0  # listed under its own step only

    # Shared: the link reads the line as a spectator would, and offers nothing to tap.
    page.goto(f"/club/c1/games/{forty}/lines/{line_id}")
    page.click("form[action$='/share'] button")
    url = str(page.locator(".share-url").input_value())
    spectator = browser.new_context(base_url=site.base).new_page()
    spectator.goto(url)
    spectator.wait_for_selector("#line")
    assert spectator.locator(".line-narration li").count() == 3
    assert spectator.locator(".line-choices").count() == 0
    spectator.context.close()

    # A Mémoire 44 turn, from the full record, tapped through.
    hedgerow = site.games["hedgerow_lane_axis_medal_victory"]
    before_m44 = untouched(site, hedgerow)
    open_line(page, hedgerow, 22, "Another order", "full")  # the Allies' first turn, before their card
    told = tap(page, 4)
    assert "Bea" in told[0] and all(told), told
    screenshot(page, "what-if-memoire44")

    site.caught_up()
    assert untouched(site, forty, "whatif") == before
    assert untouched(site, hedgerow) == before_m44
    page.context.close()


def test_a_refused_event_is_shown_beside_the_line_and_nothing_is_kept(browser: Any, site: Site) -> None:
    forty = site.games["two_players_to_forty"]
    page = sign_in(browser, site, site.record)
    line_id = open_line(page, forty, 3, "A second draw", "full")
    page.click(".line-choices details summary")
    page.fill("#line-event", json.dumps({"type": "milles_nautiques.drew", "seat": 1}))  # not Bea's turn
    page.click(".line-choices details button[type=submit]")
    page.wait_for_selector("#line-problem")
    assert "MN-" in page.locator("#line-problem").inner_text()
    assert page.locator("#line").get_attribute("data-length") == "0"
    assert "milles_nautiques.drew" in page.locator("#line-event").input_value()  # what was typed, kept
    stored = site.get(f"/clubs/c1/games/{forty}/lines/{line_id}", site.record)
    assert stored["events"] == []
    # A line without a name: the problem beside the field, the view chosen kept, nothing stored.
    page.goto(f"/club/c1/games/{forty}/replay/5")
    page.click(".line-form summary")
    page.fill("#line-name", "   ")
    page.select_option("#line-view", "seat-1")
    page.click(".line-form button[type=submit]")
    page.wait_for_selector("#line-problem")
    assert "name" in page.locator("#line-problem").inner_text()
    assert page.locator("#line-view").input_value() == "seat-1"
    assert [x["line_id"] for x in site.get(f"/clubs/c1/games/{forty}/lines", site.record) if x["step"] == 5] == []
    page.context.close()


def choices_offered(page: Any) -> tuple[list[Any], str]:
    """The events a line's page offers to tap, and its choices as read."""
    values = page.locator(".line-choices input[name=event]").evaluate_all("l => l.map(e => e.value)")
    return [json.loads(v) for v in values], str(page.locator(".line-choices").inner_text())


def test_a_public_line_of_an_atlantic_storm_battle_never_offers_a_hidden_card(
    browser: Any, site: Site, tmp_path: Path
) -> None:
    """The same battle recorded with two hidden cards swapped between two hands (cut before either shows):
    a line from the public view offers the very same choices on both, while a line from the full record,
    which knows the hands, does not."""
    ruleset, events = _fixture(FIXTURE)
    made = alternative(SECRETS[ruleset.name], events, random.Random(7))
    assert made is not None
    alt, a, b = made
    last = comparable(ruleset, events, alt, a, b)
    encode = msgspec.json.Encoder()
    games = []
    for name, record in (("storm-truth", events), ("storm-swapped", alt)):
        path = tmp_path / f"{name}.jsonl"
        path.write_bytes(b"\n".join(encode.encode(e) for e in record[:last]) + b"\n")
        command = ["import", str(path), "--club", "c1", "--game-id", name, "--database-url", site.database_url]
        assert tablelog(command, rulesets=RULESETS) == 0
        games.append(name)
    battle = next(step for step, e in enumerate(events, start=1) if type(e).__name__ == "ZoneDeclared")
    assert max(a.step, b.step) < battle <= last, (a, b, battle, last)
    page = sign_in(browser, site, site.record)
    public, full = [], []
    for game_id in games:
        open_line(page, game_id, battle, "Public battle", "public")
        public.append(choices_offered(page))
        open_line(page, game_id, battle, "Full battle", "full")
        full.append(choices_offered(page))
    assert public[0][0], "the public line offers the battle's choices"
    assert public[0] == public[1]
    assert full[0] != full[1]  # the full record knows which cards each hand holds
    screenshot(page, "what-if-storm")
    page.context.close()
