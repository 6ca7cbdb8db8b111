"""A tournament's pages in a real browser (issue 28, part 3): the organiser runs a round from the page
(pair as a draft, swap with the broken rule shown, publish, forfeit, enter a result) and the standings
show it; a refused form tells its problem beside its field with nothing stored; a read session sees no
form; the screen shows a published round and a result through its live stream without reloading, and
never a draft; the slips print one table a page (a PDF printed by Chromium)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from testkit.waiting import wait_until
from tests.pages.conftest import ARTEFACTS, Site, screenshot, sign_in
from tests.service.api_support import Api

pytestmark = pytest.mark.browser

PLAYERS = {"t-ana": "Ana Duval", "t-ben": "Ben Okafor", "t-cas": "Cas Mota", "t-dia": "Dia Lund", "t-eli": "Eli Ruiz"}
SCREEN = {"width": 1920, "height": 1080}


@pytest.fixture(scope="module")
def entered(site: Site) -> Site:
    for player_id, name in PLAYERS.items():
        made = site.http.post(
            "/clubs/c1/players", json={"player_id": player_id, "name": name}, headers=Api.auth(site.record)
        )
        assert made.status_code == 201, made.text
    return site


def tournament(site: Site, tournament_id: str, players: list[str]) -> str:
    """A Swiss of tally (a win 2, a draw 1), ranked by points then score, with `players` entered."""
    body = {
        "tournament_id": tournament_id,
        "title": f"The {tournament_id} open",
        "ruleset": "tally",
        "system": "swiss",
        "scoring": {"win_draw_loss": [2, 1, 0]},
        "tie_breaks": ["points", "score"],
    }
    made = site.http.post("/clubs/c1/tournaments", json=body, headers=Api.auth(site.record))
    assert made.status_code == 201, made.text
    for player in players:
        call(site, tournament_id, "/players", {"player_id": player})
    return f"/club/c1/tournaments/{tournament_id}"


def call(site: Site, tournament_id: str, path: str, body: dict[str, Any] | None = None, **params: Any) -> Any:
    response = site.http.post(
        f"/clubs/c1/tournaments/{tournament_id}{path}", json=body or {}, params=params, headers=Api.auth(site.record)
    )
    assert response.status_code == 201, response.text
    return response.json()


def read(site: Site, tournament_id: str, path: str = "") -> Any:
    return site.get(f"/clubs/c1/tournaments/{tournament_id}{path}", site.record)


def standings_shown(page: Any) -> dict[str, str]:
    """The standings table as the page shows it: each name's points."""
    rows = page.locator("#standings table.standings tbody tr[data-player]")
    return {
        rows.nth(i).get_attribute("data-player"): rows.nth(i).locator("td.num strong").inner_text()
        for i in range(rows.count())
    }


def test_the_organiser_runs_a_round_from_the_page_and_the_standings_show_it(browser: Any, entered: Site) -> None:
    site = entered
    address = tournament(site, "evening", ["t-ana", "t-ben", "t-cas", "t-dia"])
    page = sign_in(browser, site, site.record)
    page.goto(address)

    # Round 1: paired as a draft, published, a table forfeited and the other's result entered.
    page.click("button:has-text('Pair round 1')")
    assert page.locator(".badge.draft").count() == 1
    assert read(site, "evening")["tournament"]["rounds"][0]["draft"]
    page.click("button:has-text('Publish round 1')")
    assert page.locator(".badge.draft").count() == 0
    one, two = read(site, "evening")["tournament"]["rounds"][0]["tables"]
    absent, present = one["seats"][1], one["seats"][0]
    page.check(f"#table-1-{one['table']} input[name=absent][value='{absent}']")
    page.click(f"#table-1-{one['table']} button:has-text('Forfeit')")

    # A result that cannot be read: told beside the table's form, the typed values kept, nothing stored.
    events = len(read(site, "evening", "/events")["events"])
    page.fill(f"#score_1_{two['table']}_0", "12")
    page.fill(f"#score_1_{two['table']}_1", "four")
    page.click(f"#table-1-{two['table']} button:has-text('Enter the result')")
    problem = page.locator(f"#error_result_1_{two['table']}")
    assert "whole number" in problem.inner_text()
    assert page.input_value(f"#score_1_{two['table']}_0") == "12", "the values typed are kept"
    assert len(read(site, "evening", "/events")["events"]) == events, "nothing stored"
    screenshot(page, "tournament-result-refused")

    page.fill(f"#score_1_{two['table']}_1", "4")
    page.click(f"#table-1-{two['table']} button:has-text('Enter the result')")
    winner, loser = two["seats"]
    expected = {present: "2", winner: "2", absent: "0", loser: "0"}

    def shown() -> bool:
        page.goto(address)  # the standings read the projector's summaries: it may be a moment behind
        return standings_shown(page) == expected

    wait_until(shown, "the standings on the organiser's page", 10, interval=0.2)
    why = page.locator("#standings td.why").first.inner_text()
    assert why, "the first row says why it is above the next (score, after equal points)"

    # Round 2: a swap that makes round 1's opponents meet again is warned of, by the rule it breaks.
    page.click("button:has-text('Pair round 2')")
    second = read(site, "evening")["tournament"]["rounds"][1]["tables"]
    met = {frozenset(one["seats"]), frozenset(two["seats"])}
    a, b = second[0]["seats"]
    mover = next(p for p in second[1]["seats"] if frozenset((a, p)) in met)
    page.select_option("#swap_a", b)
    page.select_option("#swap_b", mover)
    page.click("button:has-text('Swap')")
    warning = page.locator("p.warning[role=alert]")
    assert warning.count() == 1 and "have met already" in warning.inner_text()
    screenshot(page, "tournament-organiser")
    page.click("button:has-text('Publish round 2')")
    assert not read(site, "evening")["tournament"]["rounds"][1]["draft"]
    assert read(site, "evening")["tournament"]["rounds"][1]["warnings"] == ["no_repeat"]

    # A knockout of more players than are playing: refused beside its field, nothing stored.
    events = len(read(site, "evening", "/events")["events"])
    page.fill("#cut", "8")
    page.click("button:has-text('Start the knockout')")
    assert "A top cut of 8 needs 8 active players" in page.inner_text("#error_cut")
    assert page.input_value("#cut") == "8"
    assert len(read(site, "evening", "/events")["events"]) == events
    assert read(site, "evening")["tournament"]["knockout"] is None

    # A table's game recorded move by move: started from its table, attached to it, opened in the recorder.
    table = read(site, "evening")["tournament"]["rounds"][1]["tables"][0]
    page.click(f'#table-2-{table["table"]} button:has-text("Record this table\'s game")')
    page.wait_for_url(re.compile(r".*/club/c1/games/[^/]+/record$"))
    attached = read(site, "evening")["tournament"]["rounds"][1]["tables"][0]
    assert attached["game_id"] and page.url.endswith(f"/games/{attached['game_id']}/record")
    game = site.get(f"/clubs/c1/games/{attached['game_id']}", site.record)
    assert game["player_ids"] == table["seats"], "the table's players in its seats"


def test_a_refusal_is_told_beside_its_field_in_the_readers_language(browser: Any, entered: Site) -> None:
    site = entered
    address = tournament(site, "francais", ["t-ana", "t-ben", "t-cas"])
    page = sign_in(browser, site, site.record)
    page.goto(f"/language/fr?next={address}")
    page.fill("#cut", "8")
    page.click("form[action$='/knockout'] button[type=submit]")
    said = page.inner_text("#error_cut")
    assert said == "Une phase finale des 8 premiers demande 8 joueurs en lice ; il y en a 3.", said
    assert page.input_value("#cut") == "8" and read(site, "francais")["tournament"]["knockout"] is None


def test_a_read_session_sees_the_published_rounds_and_no_form(browser: Any, entered: Site) -> None:
    site = entered
    address = tournament(site, "quiet", ["t-ana", "t-ben", "t-cas"])
    call(site, "quiet", "/rounds", draft="true")
    reader = site.key("read")["token"]
    page = sign_in(browser, site, reader)
    page.click(f"a[href='{address}']")  # the club home lists the tournaments
    page.wait_for_url(re.compile(f".*{address}$"))
    assert page.locator("main form").count() == 0, "a read session is shown no form"
    assert page.locator(".pairing").count() == 0, "and no draft"
    assert "No round is published yet." in page.inner_text("#round")
    refused = page.request.post(f"{address}/rounds")
    assert refused.status in (403, 401), refused.status
    screenshot(page, "tournament-read-session")


def test_the_screen_follows_publication_and_results_live_and_never_shows_a_draft(browser: Any, entered: Site) -> None:
    site = entered
    players = ["t-ana", "t-ben", "t-cas", "t-dia", "t-eli"]
    address = tournament(site, "screen", players)
    spectator = site.key("spectate")["token"]
    page = sign_in(browser, site, spectator, width=SCREEN)
    page.goto(f"{address}/screen")
    page.evaluate("window.notReloaded = true")
    assert "No round is published yet." in page.inner_text("#panel-tables")

    call(site, "screen", "/rounds", draft="true")
    draft = read(site, "screen")["tournament"]["rounds"][0]
    page.wait_for_timeout(1500)  # long enough for a stream that would show it
    assert page.locator(".screen-table").count() == 0, "a draft never reaches the screen"
    served = page.request.get(f"{address}/screen").text()
    assert 'class="screen-table ' not in served and "No round is published yet." in served

    call(site, "screen", "/rounds/1/publication")
    page.locator(".screen-table").nth(1).wait_for(state="attached", timeout=5000)
    assert page.locator(".screen-table").count() == 2
    assert page.evaluate("window.notReloaded === true"), "updated by its stream, not reloaded"
    names = page.locator("#panel-names .screen-names .name").all_inner_texts()
    assert names == sorted(names, key=str.casefold) and len(names) == 5, "every player, alphabetically"
    bye = PLAYERS[draft["byes"][0]]
    assert bye in page.inner_text("#panel-names")
    svg = page.locator(".screen-table .qr-cell svg.qr")
    assert svg.count() == 2

    first = draft["tables"][0]
    call(
        site,
        "screen",
        f"/rounds/1/tables/{first['table']}/result",
        {"scores": [{"player_id": first["seats"][0], "score": 9}, {"player_id": first["seats"][1], "score": 3}]},
    )
    winner = first["seats"][0]
    points = page.locator(f"#panel-standings tr[data-player='{winner}'] strong")
    wait_until(lambda: points.count() == 1 and points.text_content() == "2", "the result shown", 8, interval=0.1)
    assert page.evaluate("window.notReloaded === true")
    assert page.locator(f".screen-table[data-table='{first['table']}'].done").count() == 1
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "tournament-screen-1920.png"))
    page.evaluate("document.getElementById('screen-panels').classList.remove('rotating')")
    screenshot(page, "tournament-screen")

    # A share link to the tournament opens the same screen.
    share = site.http.post(
        "/clubs/c1/shares",
        json={"kind": "tournament", "target_id": "screen", "name": "the hall"},
        headers=Api.auth(site.record),
    )
    assert share.status_code == 201, share.text
    token = share.json()["token"]
    shared = site.http.get(f"/share/{token}/")
    assert shared.status_code == 200 and "screen-table" in shared.text and PLAYERS[winner] in shared.text
    with site.http.stream("GET", f"/share/{token}/screen/events") as stream:
        assert stream.status_code == 200 and stream.headers["content-type"].startswith("text/event-stream")
        lines = stream.iter_lines()
        assert next(lines) == ": tablelog tournament"
        assert next(line for line in lines if line.startswith("event:")) == "event: update", "what it shows, at once"
    page.context.close()  # its live stream ends with it


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf))


def test_the_slips_print_one_table_a_page_with_its_qr_code(browser: Any, entered: Site) -> None:
    site = entered
    address = tournament(site, "paper", ["t-ana", "t-ben", "t-cas", "t-dia", "t-eli"])
    call(site, "paper", "/rounds")
    tables = read(site, "paper")["tournament"]["rounds"][0]["tables"]
    page = sign_in(browser, site, site.record)
    page.goto(f"{address}/slips")
    slips = page.locator("article.slip")
    assert slips.count() == len(tables) == 2
    assert slips.first.locator("svg.qr").count() == 1
    assert all(PLAYERS[p] in slips.nth(i).inner_text() for i, t in enumerate(tables) for p in t["seats"])
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    pdf = page.pdf(path=str(ARTEFACTS / "tournament-slips.pdf"), format="A4")
    assert _pages(pdf) == len(tables), "one slip a page"
    page.emulate_media(media="print")
    page.screenshot(path=str(ARTEFACTS / "tournament-slips-print.png"), full_page=True)
    page.goto(address)  # still printing: the pairings and standings, without forms or menus
    pdf = page.pdf(path=str(ARTEFACTS / "tournament-pairings-standings.pdf"), format="A4")
    assert _pages(pdf) >= 1
    page.screenshot(path=str(ARTEFACTS / "tournament-organiser-print.png"), full_page=True)
    assert page.locator("form").first.is_hidden() and page.locator("header.top").is_hidden(), "no form on paper"
    assert page.locator("#standings").is_visible() and page.locator(".pairing").first.is_visible()
