"""The club's pages in a real browser, read like a member's evening: sign in, open each recorded game in
the replay viewer and step through it with the keyboard, read a league and a campaign, follow a live
game while the scorekeeper records it, hand out a share link and take it back, and check that a
spectator never sees a hidden card."""

from __future__ import annotations

import json
import os
import re
from typing import Any

import httpx
import pytest

from domain.memoire44.catalogue import CARDS
from domain.milles_nautiques.catalogue import BY_NAME
from service.pages import TEMPLATES
from service.pages.render import change_lines
from tests.pages.conftest import PHONE, ROOT, Site, screenshot, sign_in
from tests.service.api_support import OPERATOR, Api
from tests.service.test_projector_support import append, correction, roll
from tests.support.rulesets import RULESETS

pytestmark = pytest.mark.browser


def changes_of(shown: dict[str, Any], ruleset: str) -> list[str]:
    """What the page lists under "What changed": the game's own lines where it tells them (the API's
    `said`), else the view's differences read plainly."""
    if shown["said"] is not None:
        return list(shown["said"])
    changes = [(c["path"], c["op"], c["old"], c["new"]) for c in shown["changes"]]
    return change_lines(shown["view"], changes, RULESETS.get(ruleset).value_words)


QUICK_STEPS = 6
"""Steps walked one by one at the start of a long game (the heavy run walks them all); each arrow is the
same code, so six of them, the end and two steps back tell what forty did at a sixth of the CI's time (on a
machine where CI ran 14 of its 15 minutes)."""


SAME_SVG = """(expected) => {
  const drawn = new DOMParser().parseFromString(expected, "text/html").querySelector("svg");
  const shown = document.querySelectorAll(".picture svg");
  return shown.length === 1 && drawn !== null && shown[0].outerHTML === drawn.outerHTML;
}"""
"""True when the page shows exactly one picture and it is `expected` (both read by the browser's HTML
parser, so the comparison does not depend on how the server spelled the markup)."""


DESCRIBED_BY_CURRENT = """() => {
  const figure = document.querySelector(".picture");
  const line = document.getElementById(figure.getAttribute("aria-describedby") || "");
  return line !== null && line.classList.contains("current") && document.querySelectorAll("#told-now").length === 1;
}"""
"""True when the picture's text alternative (aria-describedby) is the current step's narration line."""


CURRENT_IN_SIGHT = """() => {
  const list = document.querySelector(".narration"), current = list.querySelector(".current");
  const outer = list.getBoundingClientRect(), inner = current.getBoundingClientRect();
  return inner.top >= outer.top - 1 && inner.bottom <= outer.bottom + 1;
}"""
"""True when the current step's line is inside the narration list's scrolled box, not hidden above or
below it."""


def expected_picture(site: Site, game_id: str, ruleset: str, number: int, view: str = "public") -> str:
    """What the game's picture draws at `number` for the view, from the API's view and changed paths."""
    shown = site.get(f"/clubs/c1/games/{game_id}/replay/{number}?view={view}", site.record)
    draw = RULESETS.get(ruleset).picture
    assert draw is not None
    return draw(shown["view"], [tuple(c["path"]) for c in shown["changes"]])


def check_step(page: Any, site: Site, game_id: str, steps: list[dict[str, Any]], number: int, drawn: str) -> None:
    """The viewer is at `number`: its narration is that step's, the table shows what changed there, and
    the picture is the game's drawing of that step's public view with that step's changes highlighted."""
    page.wait_for_selector(f'#viewer[data-step="{number}"]')
    current = page.locator(".narration li.current")
    assert current.locator("a").first.inner_text() == steps[number - 1]["text"], (game_id, number)
    if number > 1:
        shown = site.get(f"/clubs/c1/games/{game_id}/replay/{number}?view=public", site.record)
        assert page.locator(".changes li").all_inner_texts() == changes_of(shown, drawn), (game_id, number)
    assert page.evaluate(CURRENT_IN_SIGHT), (game_id, number)
    assert page.evaluate(DESCRIBED_BY_CURRENT), (game_id, number)
    if drawn:
        assert page.evaluate(SAME_SVG, expected_picture(site, game_id, drawn, number)), (game_id, number)
    else:
        assert page.locator(".picture .state").count() == 1


def walk(browser: Any, site: Site, every_step: bool) -> None:
    """Open each recorded game at step 1 and press the right arrow through it (a long game: its first
    steps, then End and back with the left arrow), checking every step on the way."""
    page = sign_in(browser, site, site.record)
    screenshot(page, "club")
    for stem, game_id in site.games.items():
        told = site.get(f"/clubs/c1/games/{game_id}/replay", site.record)
        steps = told["steps"]
        drawn = told["ruleset"] if getattr(RULESETS.get(told["ruleset"]), "picture", None) else ""
        assert drawn, f"{stem}: every recorded game's ruleset draws a picture"
        page.goto(f"/club/c1/games/{game_id}/replay/1")
        check_step(page, site, game_id, steps, 1, drawn)
        forward = len(steps) if every_step else min(len(steps), QUICK_STEPS)
        for number in range(2, forward + 1):
            page.keyboard.press("ArrowRight")
            check_step(page, site, game_id, steps, number, drawn)
        page.keyboard.press("End")
        check_step(page, site, game_id, steps, len(steps), drawn)
        back = 6 if every_step else 3
        for number in range(len(steps) - 1, max(len(steps) - back, 1), -1):
            page.keyboard.press("ArrowLeft")
            check_step(page, site, game_id, steps, number, drawn)
        assert page.url.endswith("?view=public") and "/replay/" in page.url
        page.keyboard.press("Home")
        check_step(page, site, game_id, steps, 1, drawn)
        voided = [s for s in steps if s["voided"]]
        if voided:  # struck through, with the correction that voided it
            page.goto(f"/club/c1/games/{game_id}/replay/{voided[0]['voided_by']}")
            struck = page.locator(f'.narration li[data-step="{voided[0]["version"]}"]')
            assert struck.locator("s").inner_text() == voided[0]["text"]
            assert f"correction at step {voided[0]['voided_by']}" in struck.inner_text()
        middle = len(steps) // 2  # a step well into the game, with something highlighted as changed
        page.goto(f"/club/c1/games/{game_id}/replay/{middle}")
        check_step(page, site, game_id, steps, middle, drawn)
        screenshot(page, f"replay-{stem}")
    page.context.close()


def test_every_recorded_game_steps_with_the_keyboard_and_the_narration_and_table_follow(
    browser: Any, site: Site
) -> None:
    walk(browser, site, every_step=False)


@pytest.mark.heavy
@pytest.mark.skipif(not os.environ.get("TABLELOG_HEAVY"), reason="set TABLELOG_HEAVY=1")
def test_every_step_of_every_recorded_game_follows_the_keyboard(browser: Any, site: Site) -> None:
    walk(browser, site, every_step=True)


def test_a_replay_opens_at_the_step_and_view_asked_and_offers_only_the_views_the_key_may_see(
    browser: Any, site: Site
) -> None:
    game_id = site.games["two_players_to_forty"]
    member = sign_in(browser, site, site.record)
    member.goto(f"/club/c1/games/{game_id}/replay/7?view=seat&seat=0")
    assert member.locator("#viewer").get_attribute("data-step") == "7"
    assert member.locator(".views strong").inner_text() == "Alain's hand"
    assert member.locator(".views a").all_inner_texts() == [
        "Public (what the table sees)",
        "Bea's hand",
        "Everything (the record)",
    ]
    assert "20,000 t" in member.locator(".picture").inner_text()  # Alain's own convoy, face down to the table
    screenshot(member, "replay-seat-view")
    # Slider without the keyboard: drag to step 3.
    member.locator("#step-slider").fill("3")
    member.locator("#step-slider").dispatch_event("change")
    member.wait_for_selector('#viewer[data-step="3"]')
    member.context.close()
    spectator = sign_in(browser, site, site.key("spectate")["token"])
    spectator.goto(f"/club/c1/games/{game_id}/replay/7?view=full")
    assert spectator.locator("#viewer").get_attribute("data-step") == "7"
    assert spectator.locator(".views a").count() == 0
    assert "public view" in spectator.locator(".views").inner_text().lower()
    spectator.context.close()


def hidden_convoys(site: Site, game_id: str, number: int) -> list[str]:
    """The convoys the record knows at `number` that the public view shows face down, leaving out any
    whose tonnage a face-up convoy shows too (its number is then rightly on the page)."""
    public = site.get(f"/clubs/c1/games/{game_id}/replay/{number}?view=public", site.record)["view"]["convoys"]
    full = site.get(f"/clubs/c1/games/{game_id}/replay/{number}?view=full", site.record)["view"]["convoys"]
    shown = {BY_NAME[c["card"]].tons for c in public if c["card"]}
    return [
        f["card"]
        for p, f in zip(public, full, strict=True)
        if p["card"] is None and BY_NAME[f["card"]].tons not in shown
    ]


def told_so_far(page: Any, number: int) -> str:
    """The page's picture and its narration up to step `number`: the replay's narration also lists the
    steps after it, where a convoy may since have been detected and named."""
    return str(
        page.evaluate(
            """(number) => [document.querySelector(".picture").outerHTML].concat(
                 Array.from(document.querySelectorAll(".narration li"))
                   .filter((li) => Number(li.dataset.step) <= number).map((li) => li.outerHTML)).join("\\n")""",
            number,
        )
    )


def test_a_spectate_key_never_sees_a_hidden_card_in_the_pages_or_the_stream(browser: Any, site: Site) -> None:
    game_id = site.games["two_players_to_forty"]
    steps = len(site.get(f"/clubs/c1/games/{game_id}/replay", site.record)["steps"])
    spectate = site.key("spectate")["token"]
    page = sign_in(browser, site, spectate)
    face_down = 0
    for number in range(1, steps + 1):
        page.goto(f"/club/c1/games/{game_id}/replay/{number}?view=full")
        shown = page.locator(".picture").inner_text()
        assert "known" not in shown and "unknown" not in shown, number  # hands appear only in seat views
        # The page is the public picture, and a convoy laid face down shows no tonnage anywhere in it.
        assert page.evaluate(SAME_SVG, expected_picture(site, game_id, "milles-nautiques", number)), number
        html = told_so_far(page, number)
        for card in hidden_convoys(site, game_id, number):
            tons = f"{BY_NAME[card].tons:,}"
            assert tons in expected_picture(site, game_id, "milles-nautiques", number, "full")  # the record's
            assert card not in html and tons not in html, (number, card)
            face_down += 1
    assert face_down >= 10  # the game has convoys face down for many steps: the check above ran
    page.context.close()
    with (
        httpx.Client(base_url=site.base, timeout=httpx.Timeout(10, read=5)) as client,
        client.stream("GET", f"/clubs/c1/games/{game_id}/live", headers=Api.auth(spectate)) as stream,
    ):
        seen, last = "", False
        for line in stream.iter_lines():
            seen += line + "\n"
            last = last or line == f"id: {steps}"
            if last and line.startswith("data: "):
                break
    assert seen.count("event: step") == steps and '"hand"' not in seen and '"known"' not in seen
    # Each step the stream sends names no convoy still face down at that step, by card or tonnage.
    sent = re.findall(r"^id: (\d+)\n(?:event: step\n)?data: (.*)$", seen, flags=re.MULTILINE)
    assert len(sent) == steps, seen[:400]
    for number, data in sent:
        for card in hidden_convoys(site, game_id, int(number)):
            assert card not in data and f"{BY_NAME[card].tons:,}" not in data, (number, card)


def test_a_spectate_key_never_reads_a_memoire44_drawn_card_in_the_pages_the_replay_or_the_stream(
    browser: Any, site: Site
) -> None:
    """G-2 (issue 16): the narration of a draw names the card to its seat and the record only."""
    game_id = site.games["hedgerow_lane_axis_medal_victory"]
    events = site.get(f"/clubs/c1/games/{game_id}/events?limit=1000", site.record)["events"]
    drawn = {
        event["version"]: CARDS[event["data"]["card"]].name
        for event in events
        if event["type"] == "memoire44.card_drawn" and event["data"].get("card")
    }
    assert len(drawn) >= 10
    full = site.get(f"/clubs/c1/games/{game_id}/replay?view=full", site.record)["steps"]
    assert all(name in full[n - 1]["text"] for n, name in drawn.items())  # the record tells all
    spectate = site.key("spectate")["token"]
    steps = site.get(f"/clubs/c1/games/{game_id}/replay", spectate)["steps"]
    assert steps == site.get(f"/clubs/c1/games/{game_id}/replay?view=public", site.record)["steps"]
    for number in drawn:
        assert steps[number - 1]["text"].endswith(" draw a card."), steps[number - 1]
    page = sign_in(browser, site, spectate)
    for number in sorted(drawn)[:12]:
        page.goto(f"/club/c1/games/{game_id}/replay/{number}?view=full")  # asks for more than it may see
        line = page.locator(f'.narration li[data-step="{number}"]').inner_text()
        assert drawn[number] not in line and line.strip().endswith("draw a card."), (number, line)
        assert page.evaluate(DESCRIBED_BY_CURRENT)
    page.context.close()
    with (
        httpx.Client(base_url=site.base, timeout=httpx.Timeout(10, read=5)) as client,
        client.stream("GET", f"/clubs/c1/games/{game_id}/live", headers=Api.auth(spectate)) as stream,
    ):
        seen = ""
        for line in stream.iter_lines():
            seen += line + "\n"
            if line.startswith(f"id: {len(steps)}"):
                break
    sent = dict(re.findall(r"^id: (\d+)\n(?:event: step\n)?data: (.*)$", seen, flags=re.MULTILINE))
    for number, name in drawn.items():
        text = json.loads(sent[str(number)])["step"]["text"]
        assert name not in text and text.endswith(" draw a card."), (number, text)


def test_a_league_and_a_campaign_read_with_their_explanations_and_plot(browser: Any, site: Site) -> None:
    game_id = site.games["two_players_to_forty"]
    token = site.record
    http = site.http
    league = http.post(
        "/clubs/c1/leagues",
        headers=Api.auth(token),
        json={
            "league_id": "autumn",
            "ruleset": "milles-nautiques",
            "members": ["p1", "p2"],
            "starts": "2020-01-01",
            "ends": "2099-12-31",
            "scoring": {"placement_points": {"1": 3, "2": 1}},
            "tie_breaks": ["points", "head_to_head"],
        },
    )
    assert league.status_code == 201, league.text
    assert (
        http.post("/clubs/c1/leagues/autumn/games", headers=Api.auth(token), json={"game_id": game_id}).status_code
        == 201
    )
    campaign = http.post(
        "/clubs/c1/campaigns",
        headers=Api.auth(token),
        json={"campaign_id": "winter", "ruleset": "milles-nautiques", "players": ["p1", "p2"]},
    )
    assert campaign.status_code == 201, campaign.text
    assert (
        http.post("/clubs/c1/campaigns/winter/games", headers=Api.auth(token), json={"game_id": game_id}).status_code
        == 201
    )
    site.caught_up()
    table = site.get("/clubs/c1/leagues/autumn/standings", token)
    status = site.get("/clubs/c1/campaigns/winter/status", token)
    page = sign_in(browser, site, token)
    page.goto("/club/c1")
    page.click("text=autumn")
    page.wait_for_url("**/club/c1/leagues/autumn")  # count() does not wait: the page must have loaded
    rows = page.locator("table.standings tbody tr")
    assert rows.count() == len(table["rows"]) == 2
    first = rows.nth(0).inner_text()
    assert table["rows"][0]["name"] in first and table["separations"][0]["text"] in first
    assert "1 game counted" in page.locator(".meta").first.inner_text()
    screenshot(page, "league")
    page.goto("/club/c1")
    page.click("text=winter")
    page.wait_for_url("**/club/c1/campaigns/winter")
    assert page.locator("svg.plot-wide polyline").count() == 2
    assert page.locator("svg.plot-wide line.target").count() == 1  # the 200-point target
    totals = page.locator(".totals").inner_text()
    # The fixtures' club has two Alains and two Beas (p1 and p-alain...): each is told apart by their id.
    names = {"p1": "Alain (p1)", "p2": "Bea (p2)"}
    for label, total in status["status"]["totals"].items():
        assert f"{names[label]}: {total / 2:g}" in totals
    dealer = status["status"]["next_dealer"]
    assert f"{names[dealer]} deals the next game" in page.locator(".verdict").inner_text()
    screenshot(page, "campaign")
    page.goto("/club/c1/players/p1")
    assert page.locator("h1").inner_text() == "Alain (p1)"
    assert "autumn" in page.locator("body").inner_text()
    screenshot(page, "player")
    page.context.close()


def test_the_live_table_follows_a_game_as_events_are_appended_over_the_api(browser: Any, site: Site) -> None:
    token = site.record
    game_id = site.api.tally_game("c1", token, players=("p1", "p2"), options={"target": 50})
    page = sign_in(browser, site, site.key("read")["token"])
    page.goto(f"/club/c1/games/{game_id}/live")
    page.wait_for_selector("#live-state:text('following')")
    append(site.api, token, game_id, [roll(0, 6)])
    page.wait_for_selector("#live-step:text('2')")
    page.wait_for_selector(".narration li.current:has-text('Seat 0 rolls a 6')")
    page.wait_for_selector(".picture mark.changed:text('6')")  # the score, highlighted as changed
    append(site.api, token, game_id, [roll(1, 4), correction(1, "misread die"), roll(1, 3)])
    page.wait_for_selector("#live-step:text('5')")
    page.wait_for_selector(".narration li.voided s:text('Seat 1 rolls a 4')")
    assert "Seat 1 rolls a 3" in page.locator(".narration li.current").inner_text()
    assert page.evaluate(DESCRIBED_BY_CURRENT)  # the picture's text alternative follows the stream
    screenshot(page, "live")
    page.context.close()


def test_the_live_picture_follows_a_card_game_and_never_turns_a_face_down_convoy_up(browser: Any, site: Site) -> None:
    token = site.record
    lines = (ROOT / "tests/domain/milles_nautiques/fixtures/two_players_to_forty.jsonl").read_bytes().splitlines()
    setup = json.loads(lines[0])["setup"]
    game_id = site.api.game(
        "c1",
        token,
        {
            "ruleset": "milles-nautiques",
            "players": [{"player_id": p["player_id"]} for p in setup["players"]],
            "options": setup["options"],
        },
    )
    page = sign_in(browser, site, site.key("spectate")["token"])
    page.goto(f"/club/c1/games/{game_id}/live")
    page.wait_for_selector("#live-state:text('following')")
    assert page.evaluate(SAME_SVG, expected_picture(site, game_id, "milles-nautiques", 1))
    before = page.locator(".picture svg").inner_html()
    for number, line in enumerate(lines[1:9], start=2):  # the deal, then three convoys laid face down
        append(site.api, token, game_id, [json.loads(line)])
        page.wait_for_selector(f"#live-step:text('{number}')")
        expected = expected_picture(site, game_id, "milles-nautiques", number)
        page.wait_for_function(SAME_SVG, arg=expected)  # the picture is swapped in once it is fetched
        now = page.locator(".picture svg").inner_html()
        assert now != before, number  # every step here changes what the table sees
        before = now
        html = told_so_far(page, number)
        for card in hidden_convoys(site, game_id, number):
            assert card not in html and f"{BY_NAME[card].tons:,}" not in html, (number, card)
    assert page.locator(".picture svg [aria-label*='face down']").count() >= 3
    screenshot(page, "live-picture")
    page.context.close()


def test_a_share_link_sees_its_one_game_and_nothing_else_until_it_is_revoked(browser: Any, site: Site) -> None:
    game_id = site.games["cards_run_out"]
    member = sign_in(browser, site, site.record)
    member.goto("/club/c1/shares")
    member.select_option("#target", f"game:{game_id}")
    member.fill("#name", "newsletter")
    member.click("form.card button[type=submit]")
    link = member.locator("#new-share").get_attribute("href")
    assert link is not None and "/share/sh_" in link
    screenshot(member, "shares")
    visitor = browser.new_context(base_url=site.base).new_page()
    visitor.goto(link)
    assert visitor.locator("h1").inner_text().startswith("Milles Nautiques")
    assert visitor.locator("a[href^='/club/']").count() == 0  # no way into the club's other pages
    visitor.keyboard.press("Home")
    visitor.wait_for_selector('#viewer[data-step="1"]')
    visitor.keyboard.press("ArrowRight")
    visitor.wait_for_selector('#viewer[data-step="2"]')
    assert "/share/" in visitor.url
    screenshot(visitor, "share")
    token = link.rsplit("/share/", 1)[1]
    # The browser's EventSource watches the shared game with the token in the URL; the token opens
    # nothing of the API.
    with httpx.Client(base_url=site.base, timeout=httpx.Timeout(10, read=5)) as client:
        with client.stream("GET", f"/share/{token}/live/events?after=202") as stream:
            assert stream.status_code == 200
            lines = []
            for line in stream.iter_lines():
                lines.append(line)
                if line == "id: 203":
                    break
            assert lines[-1] == "id: 203"
        assert client.get("/clubs/c1/games", headers=Api.auth(token)).status_code == 401
    visitor.goto("/club/c1")
    assert "/sign-in" in visitor.url  # the link is not a session
    # Revoked from the club's page: the link is refused from the next request.
    member.goto("/club/c1/shares")
    member.click("text=Revoke")
    member.wait_for_selector(".badge:text('revoked')")
    visitor.goto(link)
    assert visitor.locator("h1").inner_text() == "This link no longer works"
    member.context.close()
    visitor.context.close()


def test_a_revoked_key_signs_its_browser_out_and_is_refused_at_sign_in(browser: Any, site: Site) -> None:
    made = site.key("read")
    page = sign_in(browser, site, made["token"])
    page.goto(f"/club/c1/games/{site.games['four_players_in_teams']}")
    assert page.locator("#viewer").count() == 1
    revoked = site.http.post(f"/clubs/c1/keys/{made['key_id']}/revoke", headers=Api.auth(OPERATOR))
    assert revoked.status_code == 200
    page.reload()
    assert re.search(r"/sign-in\?next=", page.url)
    page.fill("#key", made["token"])
    page.click("button[type=submit]")
    assert "not valid" in page.locator(".problem").inner_text()
    screenshot(page, "sign-in-refused")
    page.context.close()


def test_a_form_post_without_the_csrf_token_is_refused(site: Site) -> None:
    with httpx.Client(base_url=site.base) as client:
        refused = client.post("/sign-in", data={"key": site.record})
        assert refused.status_code == 403 and "tablelog_session" not in refused.headers.get("set-cookie", "")


def signed_in(client: httpx.Client, token: str) -> tuple[str, str]:
    """Sign in through the form; (the CSRF token the form carried, the session cookie set)."""
    form = client.get("/sign-in").text
    csrf = re.search(r'name="_csrf_token" value="([^"]+)"', form)
    assert csrf is not None
    answer = client.post("/sign-in", data={"key": token, "_csrf_token": csrf[1]})
    assert answer.status_code == 303 and answer.cookies.get("tablelog_session")
    assert 'tablelog_csrf=""' in answer.headers.get_list("set-cookie")[-1]  # dropped: a new one comes
    return csrf[1], answer.cookies["tablelog_session"]


def test_signing_in_rotates_the_csrf_token_and_ends_the_browsers_earlier_session(site: Site) -> None:
    other = site.key("read")
    with httpx.Client(base_url=site.base) as client:
        first_csrf, first_session = signed_in(client, site.record)
        assert client.get("/club/c1").status_code == 200
        second_csrf, second_session = signed_in(client, other["token"])
        assert second_csrf != first_csrf and second_session != first_session
        assert client.get("/club/c1").status_code == 200
    with httpx.Client(base_url=site.base, cookies={"tablelog_session": first_session}) as earlier:
        gone = earlier.get("/club/c1")
        assert gone.status_code in (302, 303) and "/sign-in" in gone.headers["location"]


def test_a_csrf_token_of_one_session_signs_no_form_of_another(site: Site) -> None:
    def form_token(client: httpx.Client) -> tuple[str, str]:
        page = client.get("/club/c1/settings").text
        found = re.search(r'name="_csrf_token" value="([^"]+)"', page)
        assert found is not None
        return found[1], client.cookies["tablelog_csrf"]

    with httpx.Client(base_url=site.base) as alice, httpx.Client(base_url=site.base) as bob:
        signed_in(alice, site.record)
        signed_in(bob, site.key("record")["token"])
        alices_form, alices_cookie = form_token(alice)
        bobs_form, _ = form_token(bob)
        assert alices_form != bobs_form
        domain = next(c.domain for c in bob.cookies.jar if c.name == "tablelog_csrf")
        bob.cookies.delete("tablelog_csrf")
        bob.cookies.set("tablelog_csrf", alices_cookie, domain=domain)  # planted in Bob's browser, with its form
        planted = bob.post("/club/c1/settings", data={"language": "fr", "_csrf_token": alices_form})
        assert planted.status_code == 403
        assert site.http.get("/clubs/c1", headers=Api.auth(site.record)).json().get("language") != "fr"
        # Bob's next page issues him a token of his own session again, and it signs his form
        own_form, _ = form_token(bob)
        saved = bob.post("/club/c1/settings", data={"language": "", "_csrf_token": own_form})
        assert saved.status_code in (200, 303), saved.text


def test_every_page_answer_carries_the_security_headers_and_no_template_runs_an_inline_script(site: Site) -> None:
    game_id = site.games["four_players_in_teams"]
    share = site.http.post(
        "/clubs/c1/shares", json={"kind": "game", "target_id": game_id}, headers=Api.auth(site.record)
    ).json()
    with httpx.Client(base_url=site.base) as client:
        signed_in(client, site.record)
        answers = [
            client.get(path)
            for path in (
                "/sign-in",
                "/club/c1",
                f"/club/c1/games/{game_id}/replay/2",
                f"/club/c1/games/{game_id}/live",
                f"/club/c1/games/{game_id}/record",
                "/club/c1/games/new",
                "/club/c1/shares",
                share["path"],
                "/club/c1/games/no-such-game/replay/1",
                "/share/sh_nosuch_secret",
            )
        ]
    assert [a.status_code for a in answers] == [200] * 8 + [404, 403]
    for answer in answers:
        csp = answer.headers.get("content-security-policy", "")
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp, answer.url
        assert answer.headers.get("x-frame-options") == "DENY"
        assert answer.headers.get("referrer-policy") == "same-origin"
        assert answer.headers.get("x-content-type-options") == "nosniff"
    # With script-src 'self', an inline script would not run: every <script> loads a file of the server's,
    # or is data (JSON, never run). Nor may an attribute carry a style or a script.
    for template in sorted(TEMPLATES.glob("*.html")):
        text = template.read_text(encoding="utf-8")
        for tag in re.findall(r"<script\b[^>]*>", text):
            assert "src=" in tag or 'type="application/json"' in tag, f"{template.name}: {tag}"
        assert not re.search(r"\s(on[a-z]+|style)=", text), template.name


def test_what_changed_names_units_and_players_in_words_not_the_views_keys(browser: Any, site: Site) -> None:
    """The "What changed" list is the game's own lines (issue 29): units by kind, side and hex, points as
    counted, a convoy in port face down a hidden score; in French at phone width, in French."""
    page = sign_in(browser, site, site.record)
    lines: list[str] = []
    for stem, wanted in (
        ("hedgerow_lane_axis_medal_victory", "The Allies infantry at J6: 3 figures left"),
        ("two_players_to_forty", "Alain: 50 points (convoys 40, round bonus 10)"),
        ("cards_run_out", "Bea's first convoy in port: tonnage hidden"),
    ):
        game_id = site.games[stem]
        number = next(
            n
            for n in range(2, 80)
            if wanted in site.get(f"/clubs/c1/games/{game_id}/replay/{n}?view=public", site.record)["said"]
        )
        page.goto(f"/club/c1/games/{game_id}/replay/{number}")
        shown = page.locator(".changes li").all_inner_texts()
        assert wanted in shown, (stem, shown)
        lines += shown
    assert "Bea: score hidden, a convoy in port is face down" in lines  # never "0 points"
    raw = re.compile(r"_|→|\b(units|players|hands|sides|orders) \d|: changed")  # a key or a path of the view
    assert not [line for line in lines if raw.search(line)], lines
    page.context.close()
    french = sign_in(browser, site, site.record, width=PHONE, locale="fr-FR")
    game_id = site.games["two_players_to_forty"]
    french.goto(f"/club/c1/games/{game_id}/replay/24")
    assert french.get_by_role("heading", name="Ce qui a changé").count() == 1
    told = french.locator(".changes li").all_inner_texts()
    assert "Alain : 50 points (convois 40, prime de manche 10)" in told, told
    assert "Le premier convoi posé par Alain : au port" in told, told
    assert not [line for line in told if raw.search(line) or " points (convoys" in line], told
    screenshot(french, "french-what-changed")
    french.context.close()
