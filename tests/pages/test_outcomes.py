"""What the pages say of finished games (issue 27), in a real browser: the club home's results and
winners, the winner (or the placements on a tie) at the last step of a game of each of the three games,
a player's opponents and rating per game, the ratings page with its ladder and plot, and a rule id that
opens as a page in the reader's language while the API still answers JSON."""

from __future__ import annotations

import re
from typing import Any

import msgspec
import pytest

from domain.i18n import english
from domain.ruleset import Player, PlayerResult, Result
from projections.verdict import verdict
from service.store import open_store
from service.usecases.clubs import told_apart
from tests.pages.conftest import Site, screenshot, sign_in
from tests.pages.test_languages import english_sentences, shown_text
from tests.service.api_support import Api
from tests.support.rulesets import RULESETS

pytestmark = pytest.mark.browser

LAST_STEPS = {"atlantic-storm": "three_players_two_convoys", "milles-nautiques": "two_players_to_forty"}
"""A fixture game of each game whose last step the test reads (Mémoire 44's are picked by their result)."""


def said(site: Site, game_id: str, names: dict[str, str] | None = None) -> tuple[str, list[str]]:
    """What the projection says of the game's public result, in English: the sentence and the placings
    (the players named by `names`, player id -> name, where given; else as the record names them)."""
    told = site.get(f"/clubs/c1/games/{game_id}/replay", site.record)
    result = site.get(f"/clubs/c1/games/{game_id}/result", site.record)["result"]
    players = [
        Player(**{k: v for k, v in p.items() if k in ("seat", "player_id", "name", "team")}) for p in told["players"]
    ]
    players = [msgspec.structs.replace(p, name=(names or {}).get(p.player_id, p.name)) for p in players]
    scored = Result(
        finished=result["finished"],
        score_unit=result["score_unit"],
        players=tuple(
            PlayerResult(seat=p["seat"], score=p["score"], placement=p.get("placement")) for p in result["players"]
        ),
        winners=tuple(result["winners"]),
        void=result["void"],
    )
    found = verdict(players, scored, RULESETS.get(told["ruleset"]).score_scale)
    assert found is not None, game_id
    return english(found.said), [f"{p.name}: {english(p.score)}" for p in found.placings]


def test_the_home_and_each_games_last_step_say_who_won(browser: Any, site: Site) -> None:
    site.caught_up()
    page = sign_in(browser, site, site.record)
    home = page.locator("main").inner_text()
    store = open_store(site.database_url)
    names = told_apart(store.list_players("c1"))  # the home names players as the club's lists do
    store.close()
    for stem, game_id in site.games.items():
        sentence, _ = said(site, game_id, names)
        row = page.locator("li", has=page.locator(f'a[href="/club/c1/games/{game_id}"]'))
        assert sentence in row.inner_text(), (stem, sentence)
    assert "wins with" in home
    screenshot(page, "club-results")
    # Atlantic Storm ended "the game is over" beside two players' 8 VP; now the winner is named, and why.
    atlantic = site.games[LAST_STEPS["atlantic-storm"]]
    sentence, placings = said(site, atlantic)
    assert re.fullmatch(r"\w+ wins with 8 VP, ahead of \w+ on the game's tie-break\.", sentence), sentence
    memoire = [g for s, g in site.games.items() if s.startswith(("hedgerow", "pointe", "sidi"))][:1]
    for game_id in [atlantic, site.games[LAST_STEPS["milles-nautiques"]], *memoire]:
        sentence, placings = said(site, game_id)
        last = len(site.get(f"/clubs/c1/games/{game_id}/replay", site.record)["steps"])
        page.goto(f"/club/c1/games/{game_id}/replay/{last}")
        assert page.locator(".verdict-card .verdict").inner_text() == sentence
        assert page.locator(".verdict-card .placings li").all_inner_texts() == placings
        page.goto(f"/club/c1/games/{game_id}")  # the game's own page opens at its last step
        assert page.locator(".verdict-card .verdict").inner_text() == sentence
        screenshot(page, f"last-step-{site.get(f'/clubs/c1/games/{game_id}', site.record)['ruleset']}")
        page.goto(f"/club/c1/games/{game_id}/replay/{last - 1}")  # before the end: no verdict yet
        assert page.locator(".verdict-card").count() == 0
    page.context.close()


def test_a_tie_names_the_placements() -> None:
    players = [
        Player(seat=0, player_id="a", name="Ann"),
        Player(seat=1, player_id="b", name="Bob"),
        Player(seat=2, player_id="c", name="Cy"),
    ]
    tie = Result(
        finished=True,
        score_unit="vp",
        players=(
            PlayerResult(seat=0, score=9, placement=1),
            PlayerResult(seat=1, score=9, placement=1),
            PlayerResult(seat=2, score=4, placement=3),
        ),
        winners=(0, 1),
    )
    found = verdict(players, tie)
    assert found is not None
    assert english(found.said) == "A tie: Ann and Bob share first place with 9 VP."
    assert [(p.name, p.placement, english(p.score)) for p in found.placings] == [
        ("Ann", 1, "9 VP"),
        ("Bob", 1, "9 VP"),
        ("Cy", 3, "4 VP"),
    ]
    half = Result(
        finished=True,
        score_unit="half_point",
        players=(PlayerResult(seat=0, score=109, placement=1), PlayerResult(seat=1, score=2, placement=2)),
        winners=(0,),
    )
    told = verdict(players[:2], half, 2)
    assert told is not None and english(told.said) == "Ann wins with 54.5 points."
    assert verdict(players[:2], Result(finished=False, score_unit="vp", players=())) is None


def test_the_ratings_page_shows_the_ladder_and_a_players_rating_over_time(browser: Any, site: Site) -> None:
    site.caught_up()
    ratings = site.get("/clubs/c1/ratings/milles-nautiques", site.record)["players"]
    assert len(ratings) >= 2
    page = sign_in(browser, site, site.record)
    page.click("a[href='/club/c1/ratings/milles-nautiques']")
    page.wait_for_url(re.compile(r".*/club/c1/ratings/milles-nautiques$"))
    rows = page.locator("table.ladder tbody tr")
    assert rows.count() == len(ratings)
    for row, rated in zip(rows.all(), ratings, strict=True):
        text = row.inner_text()
        shown = f"{round(rated['mu'] * 60):,} ± {round(rated['sigma'] * 60):,}"
        assert rated["name"] in text and shown in text, (text, shown)
    # The leader's rating over time: a point per rated game, drawn at both widths.
    leader = ratings[0]
    history = site.get(f"/clubs/c1/ratings/milles-nautiques/{leader['player_id']}", site.record)["history"]
    assert page.locator("svg.plot-wide circle").count() == len(history) >= 1
    assert page.locator("svg.plot-narrow circle").count() == len(history)
    screenshot(page, "ratings")
    labels_inside(page)
    # Another player, from their own page: the rating per game links to the ladder with their plot.
    other = ratings[-1]
    page.goto(f"/club/c1/players/{other['player_id']}")
    games = page.locator("main li", has=page.locator(".opponents"))
    assert games.count() >= 1
    first = games.first.inner_text()
    assert "against " in first and "rating after: " in first
    screenshot(page, "player-ratings")
    page.click(f"a[href='/club/c1/ratings/milles-nautiques?player={other['player_id']}']")
    assert page.locator("h2").first.inner_text().startswith(f"{other['name']} over time")
    assert page.locator("tr.chosen").inner_text().startswith(str(len(ratings)))
    page.context.close()


LABELS_INSIDE = """() => Array.from(document.querySelectorAll("svg.plot"))
  .filter(s => s.getBoundingClientRect().width > 0)
  .every(svg => { const box = svg.getBoundingClientRect();
    return Array.from(svg.querySelectorAll("text")).every(t => { const r = t.getBoundingClientRect();
      return r.left >= box.left - 1 && r.right <= box.right + 1
        && r.top >= box.top - 1 && r.bottom <= box.bottom + 1; }); })"""
"""True when every label of every plot shown lies inside its picture."""

READABLE = """() => Array.from(document.querySelectorAll("svg.plot")).filter(s => s.getBoundingClientRect().width > 0)
  .every(svg => Array.from(svg.querySelectorAll("text")).every(t => t.getBoundingClientRect().height >= 10))"""
"""True when every label of every plot shown is drawn at least 10 px high (readable on a phone)."""


def labels_inside(page: Any) -> None:
    """At phone and laptop width, every label of the plots shown stays inside its picture and readable."""
    for size in ({"width": 360, "height": 780}, {"width": 1280, "height": 800}):
        page.set_viewport_size(size)
        assert page.evaluate(LABELS_INSIDE), size
        assert page.evaluate(READABLE), size


def test_the_campaign_plot_keeps_its_labels_inside_at_phone_and_laptop_width(browser: Any, site: Site) -> None:
    game_id = site.games["two_players_to_forty"]
    http, token = site.http, site.record
    made = http.post(
        "/clubs/c1/campaigns",
        headers=Api.auth(token),
        json={"campaign_id": "spring", "ruleset": "milles-nautiques", "players": ["p1", "p2"]},
    )
    assert made.status_code == 201, made.text
    added = http.post("/clubs/c1/campaigns/spring/games", headers=Api.auth(token), json={"game_id": game_id})
    assert added.status_code == 201, added.text
    site.caught_up()
    page = sign_in(browser, site, token)
    page.goto("/club/c1/campaigns/spring")
    assert page.locator("svg.plot-wide polyline").count() == 2
    labels_inside(page)
    screenshot(page, "campaign-plot")
    page.context.close()


def test_a_rule_id_opens_as_a_page_in_french_and_the_api_still_answers_json(browser: Any, site: Site) -> None:
    page = sign_in(browser, site, site.record, locale="fr-FR")
    page.goto("/rulesets/milles-nautiques/rules/MN-1")
    assert page.locator("h1").inner_text() == "MN-1: Le paquet"
    assert "Le paquet compte 106 cartes" in page.locator(".rule-text").inner_text()
    assert page.locator("html").get_attribute("lang") == "fr"
    screenshot(page, "rule-fr")
    # A rule id on a page is such a link: the campaign's and the refusals' notes lead here.
    missing = page.goto("/rulesets/milles-nautiques/rules/MN-999")
    assert missing is not None and missing.status == 404
    page.context.close()
    answered = site.http.get("/rulesets/milles-nautiques/rules/MN-1", headers={"Accept": "application/json"})
    assert answered.status_code == 200 and answered.headers["content-type"].startswith("application/json")
    assert answered.json()["rule_id"] == "MN-1" and answered.json()["title"] == "The deck"
    anything = site.http.get("/rulesets/milles-nautiques/rules/MN-1")  # */*: the API's JSON
    assert anything.json()["rule_id"] == "MN-1"
    html = site.http.get(
        "/rulesets/milles-nautiques/rules/MN-1", headers={"Accept": "text/html", "Accept-Language": "es"}
    )
    assert html.headers["content-type"].startswith("text/html") and "MN-1" in html.text
    assert html.headers["vary"] == "Accept"


def test_the_new_pages_read_in_french_with_no_english_left(browser: Any, site: Site) -> None:
    site.caught_up()
    english = english_sentences()
    page = sign_in(browser, site, site.record, locale="fr-FR")
    last = len(site.get(f"/clubs/c1/games/{site.games['three_players_two_convoys']}/replay", site.record)["steps"])
    pages = {
        "home": "/club/c1",
        "ratings": "/club/c1/ratings/milles-nautiques",
        "player": "/club/c1/players/p1",
        "last-step": f"/club/c1/games/{site.games['three_players_two_convoys']}/replay/{last}",
    }
    for name, path in pages.items():
        page.goto(path)
        text = shown_text(page)
        assert [sentence for sentence in english if sentence in text] == [], path
        screenshot(page, f"french-{name}-outcomes")
    page.goto(pages["last-step"])
    assert re.fullmatch(r"\w+ gagne avec 8 PV, devant \w+ au départage du jeu\.", page.locator(".verdict").inner_text())
    page.goto(pages["ratings"])
    assert re.search(r"\d\u202f\d{3} ± \d{3}", page.locator("table.ladder").inner_text())  # "1 625 ± 461"
    assert page.goto("/club/c1/ratings/no-such-game").status == 404  # type: ignore[union-attr]
    page.context.close()
