"""A report to keep and catching up at the live table (issue 31), in Chromium: the replay page's download
opened from `file://` with the network off shows every step, its picture and the notes of its view only,
and prints to PDF (kept in test-artifacts/pages/); a spectator's report is the public one up to the
spectator delay and every bad ask is a clear 4xx; one who joined a live game late steps through from there
at the chosen speed, then follows live again."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.pages.conftest import ARTEFACTS, LAPTOP, Site, screenshot, sign_in
from tests.pages.test_notes import SNEAKY, write
from tests.pages.test_pages import signed_in
from tests.service.api_support import OPERATOR, Api
from tests.service.test_projector_support import append, roll

pytestmark = pytest.mark.browser

ONLY_ITS_OWN = """() => [...document.querySelectorAll("a[href]")].every(a => a.getAttribute("href").startsWith("#")
  && document.getElementById(a.getAttribute("href").slice(1)) !== null)"""
"""True when every link of the page is one of its own anchors, and each leads somewhere."""

DRAWN = """() => [...document.querySelectorAll("article.step .picture svg")].every(svg => {
  const box = svg.getBoundingClientRect();
  return box.width > 200 && box.height > 100;
}) && [...document.querySelectorAll("use")].every(use => {
  const part = document.querySelector(use.getAttribute("href"));
  return part !== null && part.tagName === "g" && use.getBoundingClientRect().height > 0;
}) && document.querySelectorAll("use").length > 0"""
"""True when every step's picture is drawn at a readable size, and each part an earlier step drew the same
(shown by a `<use>` of it) is there and drawn."""


def pages_of(pdf: bytes) -> int:
    """The pages of a PDF (Chromium's: one page object each, not compressed into object streams)."""
    return len(re.findall(rb"/Type\s*/Page\b", pdf))


def test_the_report_opens_from_a_file_offline_with_every_step_and_only_its_views_notes_and_prints(
    browser: Any, site: Site, tmp_path: Path
) -> None:
    game_id = site.games["two_players_to_forty"]
    for text, more in (
        ("for the club", {}),
        ("for everyone", {"visibility": "public"}),
        ("for Alain's eyes", {"visibility": "seat", "seat": 0}),
        ("for Bea's eyes", {"visibility": "seat", "seat": 1}),
    ):
        write(site, game_id, site.record, step=3, text=text, **more)
    write(site, game_id, site.record, step=5, text=SNEAKY, marker="!?")
    page = sign_in(browser, site, site.record)
    page.goto(f"/club/c1/games/{game_id}/replay/3?view=seat&seat=0")
    link = page.locator(".report-link a")
    assert link.get_attribute("href") == f"/club/c1/games/{game_id}/report?view=seat&seat=0"
    with page.expect_download() as caught:
        link.click()
    download = caught.value
    assert download.suggested_filename == f"{game_id}-seat-0.html"
    kept = tmp_path / download.suggested_filename
    download.save_as(kept)
    page.context.close()
    steps = site.get(f"/clubs/c1/games/{game_id}/replay?view=seat&seat=0", site.record)["steps"]

    context = browser.new_context(viewport=LAPTOP)
    context.set_offline(True)
    context.route(re.compile(r"^https?://"), lambda route: route.abort())
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(kept.as_uri())
    assert asked == [kept.as_uri()]  # nothing else: every picture and style is in the file
    assert page.locator("script").count() == 0 and page.evaluate(ONLY_ITS_OWN)
    assert page.locator("article.step").count() == len(steps) == page.locator("article.step .picture svg").count()
    assert page.evaluate(DRAWN)
    told = page.locator("article.step .told").all_inner_texts()
    assert [t.split(" voided by ")[0] for t in told] == [s["text"] for s in steps]
    notes = page.locator("article.step .note-list").all_inner_texts()
    joined = "\n".join(notes)
    assert all(t in joined for t in ("for the club", "for everyone", "for Alain's eyes")) and "Bea's eyes" not in joined
    sneaky = page.locator("#step-5 .note-text")
    assert sneaky.inner_text() == SNEAKY and sneaky.locator("b").count() == 0
    assert "wins" in page.locator(".verdict").inner_text()
    assert page.locator(".index a").count() >= 3  # the start, a round, its turns
    screenshot(page, "report")

    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    chapters = page.locator("section.chapter").count()
    by_chapter = page.pdf(path=str(ARTEFACTS / "report-chapters.pdf"), format="A4")
    page.check("#print-steps")
    by_step = page.pdf(path=str(ARTEFACTS / "report-steps.pdf"), format="A4")
    assert by_chapter.startswith(b"%PDF") and by_step.startswith(b"%PDF")
    # The index and notes, then each chapter on new pages; or each step on a page of its own.
    assert pages_of(by_chapter) > chapters and pages_of(by_step) >= len(steps) + 1
    context.close()


def test_a_spectators_report_is_the_public_one_up_to_the_delay_and_bad_asks_are_refused(site: Site) -> None:
    game_id = site.games["four_players_in_teams"]
    last = site.api.version("c1", site.record, game_id)
    write(site, game_id, site.record, step=2, text="club only")
    write(site, game_id, site.record, step=3, text="for all", visibility="public")
    write(site, game_id, site.record, step=last, text="late and public", visibility="public")
    write(site, game_id, site.record, step=4, text="seat one's secret", visibility="seat", seat=1)
    delayed = site.http.put(
        f"/clubs/c1/games/{game_id}/spectator-delay", json={"events": 5}, headers=Api.auth(site.record)
    )
    assert delayed.status_code == 200, delayed.text
    link = site.http.post(
        "/clubs/c1/shares", json={"kind": "game", "target_id": game_id}, headers=Api.auth(site.record)
    ).json()["path"]
    public = site.get(f"/clubs/c1/games/{game_id}/replay", site.record)["steps"][: last - 5]
    try:
        spectator = site.key("spectate")["token"]
        for kind in ("share", "session"):
            with httpx.Client(base_url=site.base, timeout=20) as client:
                if kind == "session":
                    signed_in(client, spectator)
                    shown = client.get(f"/club/c1/games/{game_id}/report")
                    refused = client.get(f"/club/c1/games/{game_id}/report?view=full")
                    assert refused.status_code == 403 and "public view" in refused.text, refused.text
                else:
                    shown = client.get(f"{link}/report")
            assert shown.status_code == 200, shown.text
            assert shown.headers["content-disposition"] == f'attachment; filename="{game_id}-public.html"'
            html = shown.text
            assert html.count('<article class="step') == len(public), kind
            assert f'id="step-{len(public)}"' in html and f'id="step-{len(public) + 1}"' not in html
            assert "for all" in html and "club only" not in html and "late and public" not in html
            assert "secret" not in html
        # A member's report of the same view tells the club's notes and every step.
        reader = site.key("read")["token"]
        with httpx.Client(base_url=site.base, timeout=20) as client:
            signed_in(client, reader)
            whole = client.get(f"/club/c1/games/{game_id}/report")
            assert whole.status_code == 200 and whole.text.count('<article class="step') == last
            assert "club only" in whole.text and "secret" not in whole.text
            for path, status, said in (
                (f"/club/c1/games/{game_id}/report?view=seat&seat=9", 404, "Seat 9 is not at this table"),
                (f"/club/c1/games/{game_id}/report?view=seat", 400, "needs the seat it is for"),
                (f"/club/c1/games/{game_id}/report?view=everything", 400, ""),
                ("/club/c1/games/no-such-game/report", 404, "No game"),
                (f"/club/c2/games/{game_id}/report", 403, "another club"),
            ):
                answer = client.get(path)
                assert answer.status_code == status and said in answer.text, (path, answer.status_code)
                assert "content-disposition" not in answer.headers
    finally:
        site.http.put(f"/clubs/c1/games/{game_id}/spectator-delay", json={"events": 0}, headers=Api.auth(site.record))


def test_another_clubs_game_has_no_report_here(site: Site) -> None:
    made = site.http.post("/clubs", json={"club_id": "c2", "name": "Other"}, headers=Api.auth(OPERATOR))
    assert made.status_code == 201, made.text
    for player in ("alain", "bea"):
        site.http.post("/clubs/c2/players", json={"player_id": player, "name": player}, headers=Api.auth(OPERATOR))
    theirs = site.api.tally_game("c2", OPERATOR, players=("alain", "bea"))
    with httpx.Client(base_url=site.base, timeout=20) as client:
        signed_in(client, site.record)
        answer = client.get(f"/club/c1/games/{theirs}/report")
        assert answer.status_code == 404 and "No game" in answer.text


CAUGHT = """() => {
  window.shownSteps = [];
  new MutationObserver(() => window.shownSteps.push(document.getElementById("live-step").textContent))
    .observe(document.getElementById("live-step"), { childList: true, characterData: true, subtree: true });
}"""
"""Keeps every step number the live table shows, in order."""


def test_one_who_joined_a_live_game_late_catches_up_from_there_then_follows_live(browser: Any, site: Site) -> None:
    token = site.record
    game_id = site.api.tally_game("c1", token, players=("p1", "p2"), options={"target": 500})
    append(site.api, token, game_id, [roll(0, 1), roll(1, 2)])
    page = sign_in(browser, site, site.key("read")["token"])
    page.goto(f"/club/c1/games/{game_id}/live")
    page.wait_for_selector("#live-state:text('following')")
    assert page.input_value("#catch-up-from") == "3"  # the step joined at
    append(site.api, token, game_id, [roll(0, 3), roll(1, 4), roll(0, 5)])
    page.wait_for_selector("#live-step:text('6')")
    page.evaluate(CAUGHT)
    page.select_option("#catch-up-speed", "500")
    page.click("#catch-up-start")
    page.wait_for_selector("#live-state:text('catching up: step 3 of 6')")
    assert page.locator("#catch-up-stop").is_visible() and not page.locator("#catch-up-start").is_visible()
    page.wait_for_selector(".narration li.current:has-text('Seat 1 rolls a 2')")  # step 3's own page
    screenshot(page, "live-catching-up")
    # A step recorded meanwhile moves "now", not the table; the catch-up goes on to it, then follows live.
    append(site.api, token, game_id, [roll(1, 6)])
    page.wait_for_selector("#live-state:has-text('of 7')")
    page.wait_for_selector("#live-state:text('following')", timeout=15_000)
    shown = [int(s) for s in page.evaluate("window.shownSteps")]
    assert shown[0] == 3 and shown[-1] == 7 and [s for s in shown if s >= 3] == sorted(shown)
    assert {3, 4, 5, 6, 7} <= set(shown)
    page.wait_for_selector(".narration li.current:has-text('Seat 1 rolls a 6')")
    assert page.locator("#catch-up-start").is_visible()
    # Live again: the next step shows at once.
    append(site.api, token, game_id, [roll(0, 2)])
    page.wait_for_selector("#live-step:text('8')")
    page.context.close()
