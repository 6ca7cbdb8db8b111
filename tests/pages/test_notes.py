"""Notes at a step in the replay viewer, in Chromium: a member writes one and sees it (HTML shown as
text), a refused note is shown beside the form with what was typed, who sees which note (record, read
and spectate keys' sessions, a share link, the spectator delay, a seat's view), and autoplay reaching
the end and stopping at a note."""

from __future__ import annotations

from typing import Any

import httpx

from tests.pages.conftest import Site, screenshot, sign_in
from tests.pages.test_pages import signed_in
from tests.service.api_support import Api

SNEAKY = '<b>bold</b> & <script>alert("x")</script>'


def notes_of(site: Site, game_id: str) -> list[dict[str, Any]]:
    return list(site.get(f"/clubs/c1/games/{game_id}/notes?view=full", site.record))


def write(site: Site, game_id: str, token: str, **body: Any) -> dict[str, Any]:
    made = site.http.post(f"/clubs/c1/games/{game_id}/notes", json=body, headers=Api.auth(token))
    assert made.status_code == 201, made.text
    return dict(made.json())


def test_a_member_writes_a_note_on_a_step_and_reads_it_as_text_and_autoplay_stops_at_notes(
    browser: Any, site: Site
) -> None:
    game_id = site.games["two_players_to_forty"]
    page = sign_in(browser, site, site.record)
    page.goto(f"/club/c1/games/{game_id}/replay/3")
    assert page.locator(".notes").inner_text().count("No note at this step") == 1
    page.click(".note-form summary")
    page.fill("#note-text", SNEAKY)
    page.check("input[name=marker][value='!?']")
    page.select_option("#note-visibility", "public")
    page.click(".note-form button[type=submit]")
    page.wait_for_selector(".notes .note")
    note = page.locator(".notes > .note-list .note").first
    assert note.locator(".note-text").inner_text() == SNEAKY  # the markup is shown, never made
    assert note.locator("b, script").count() == 0
    assert note.locator(".marker").inner_text() == "!?" and "everyone" in note.inner_text()
    assert page.locator('.narration li[data-step="3"].noted').count() == 1
    [stored] = notes_of(site, game_id)
    assert (stored["step"], stored["text"], stored["visibility"]) == (3, SNEAKY, "public")
    screenshot(page, "replay-notes")

    # Autoplay from step 4 at the quickest speed stops at the next note (step 6), then, notes not
    # stopping it, runs to the end.
    write(site, game_id, site.record, step=6, text="Here it turns")
    last = int(page.locator("#viewer").get_attribute("data-last") or 0)
    page.goto(f"/club/c1/games/{game_id}/replay/4")
    page.select_option("#autoplay-speed", "500")
    page.locator("h1").click()
    page.keyboard.press(" ")
    page.wait_for_selector('#autoplay-toggle[aria-pressed="true"]')
    page.wait_for_selector('#viewer[data-step="6"]')
    page.wait_for_selector('#autoplay-toggle[aria-pressed="false"]')
    assert page.locator("#viewer").get_attribute("data-step") == "6"
    assert page.locator(".notes > .note-list .note-text").inner_text() == "Here it turns"
    screenshot(page, "replay-autoplay-stopped")
    # Asked to, it stops at the first step of the next chapter (a new turn).
    page.goto(f"/club/c1/games/{game_id}/replay/7")
    page.uncheck("#autoplay-note")
    page.check("#autoplay-chapter")
    page.select_option("#autoplay-speed", "500")
    page.click("#autoplay-toggle")
    page.wait_for_selector('#autoplay-toggle[aria-pressed="true"]')
    page.wait_for_selector('#autoplay-toggle[aria-pressed="false"]')
    stopped = int(page.locator("#viewer").get_attribute("data-step") or 0)
    assert 7 < stopped < last and page.locator("#notes").get_attribute("data-chapter-start") == "1"
    assert page.locator(f".chapters a[href*='/replay/{stopped}?']").count() == 1  # the chapter index agrees
    page.goto(f"/club/c1/games/{game_id}/replay/{last - 2}")
    page.uncheck("#autoplay-note")
    page.select_option("#autoplay-speed", "500")
    page.click("#autoplay-toggle")
    page.wait_for_selector(f'#viewer[data-step="{last}"]')
    page.wait_for_selector('#autoplay-toggle[aria-pressed="false"]')
    page.context.close()


def test_a_refused_note_is_shown_beside_the_form_with_what_was_typed_and_nothing_is_stored(
    browser: Any, site: Site
) -> None:
    game_id = site.games["cards_run_out"]
    page = sign_in(browser, site, site.key("read")["token"])
    page.goto(f"/club/c1/games/{game_id}/replay/2")
    page.click(".note-form summary")
    page.evaluate("document.getElementById('note-text').removeAttribute('maxlength')")
    page.fill("#note-text", "long " * 500)
    page.click(".note-form button[type=submit]")
    page.wait_for_selector("#note-problem")
    assert "at most 2000 characters" in page.locator("#note-problem").inner_text()
    assert page.locator("#note-text").input_value() == "long " * 500
    assert page.locator("#viewer").get_attribute("data-step") == "2"
    screenshot(page, "replay-note-refused")
    page.fill("#note-text", "   ")
    page.click(".note-form button[type=submit]")
    page.wait_for_selector("#note-problem")
    assert "Write something" in page.locator("#note-problem").inner_text()
    assert notes_of(site, game_id) == []
    # Written, then changed (a blank change refused beside its own form), then deleted.
    page.fill("#note-text", "Bea keeps her best convoy back")
    page.click(".note-form:not(.note-edit) button[type=submit]")
    page.wait_for_selector(".notes > .note-list .note")
    [written] = notes_of(site, game_id)
    key = written["note_id"]
    page.click(f".note[data-note='{key}'] .note-edit summary")
    page.fill(f"#note-text-{key}", "  ")
    page.click(f".note[data-note='{key}'] .note-edit form:first-of-type button[type=submit]")
    page.wait_for_selector(f"#note-problem-{key}")
    assert page.locator(f"#note-text-{key}").input_value() == "  "
    page.fill(f"#note-text-{key}", "Bea keeps her best convoy back, wisely")
    page.check(f".note[data-note='{key}'] input[name=marker][value='!']")
    page.click(f".note[data-note='{key}'] .note-edit form:first-of-type button[type=submit]")
    page.wait_for_selector(".notes > .note-list .note:has-text('wisely')")
    assert "edited" in page.locator(".notes > .note-list .note").inner_text()
    assert [(n["text"], n["marker"]) for n in notes_of(site, game_id)] == [
        ("Bea keeps her best convoy back, wisely", "!")
    ]
    screenshot(page, "replay-note-edited")
    page.click(f".note[data-note='{key}'] .note-edit summary")
    page.click(f".note[data-note='{key}'] button.danger")
    page.wait_for_selector(".notes p.meta")
    assert notes_of(site, game_id) == []
    page.context.close()


def test_who_sees_which_note_on_the_pages_sessions_share_links_and_the_spectator_delay(site: Site) -> None:
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
    shared = site.http.post(
        "/clubs/c1/shares", json={"kind": "game", "target_id": game_id}, headers=Api.auth(site.record)
    )
    link = shared.json()["path"]
    try:

        def shown(client: httpx.Client, path: str) -> str:
            answer = client.get(path)
            assert answer.status_code == 200, answer.text
            return answer.text

        spectator = site.key("spectate")["token"]
        reader = site.key("read")["token"]
        with httpx.Client(base_url=site.base, timeout=20) as client:
            signed_in(client, reader)
            everything = shown(client, f"/club/c1/games/{game_id}/replay/4?view=full")
            assert all(t in everything for t in ("club only", "for all", "late and public", "seat one&#39;s secret"))
            assert "seat one&#39;s secret" in shown(client, f"/club/c1/games/{game_id}/replay/4?view=seat&seat=1")
            public = shown(client, f"/club/c1/games/{game_id}/replay/4")
            assert "club only" in public and "seat one" not in public and 'id="note-text"' in public
            assert "seat one" not in shown(client, f"/club/c1/games/{game_id}/replay/4?view=seat&seat=0")
        for page_of in ("session", "share"):
            with httpx.Client(base_url=site.base, timeout=20) as client:
                if page_of == "session":
                    signed_in(client, spectator)
                    html = shown(client, f"/club/c1/games/{game_id}/replay/3?view=full")
                else:
                    html = shown(client, f"{link}/replay/3")
            # Public notes only, up to the delay's horizon, and no form to write one.
            assert "for all" in html and "club only" not in html and "seat one" not in html
            assert "late and public" not in html and 'id="note-text"' not in html
        site.http.put(f"/clubs/c1/games/{game_id}/spectator-delay", json={"events": 0}, headers=Api.auth(site.record))
        with httpx.Client(base_url=site.base, timeout=20) as client:
            assert "late and public" in shown(client, f"{link}/replay/3")
    finally:
        site.http.put(f"/clubs/c1/games/{game_id}/spectator-delay", json={"events": 0}, headers=Api.auth(site.record))
