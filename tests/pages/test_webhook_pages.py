"""The club's webhook pages in a real browser (issue 30), with a real receiver on loopback: an endpoint
registered from its form (its mistakes told beside each field, nothing stored; the secret shown once), a
game finished and its delivery shown in the endpoint's log, sent again from the page and received twice
with the same delivery id; the endpoint turned off, on and removed. A private address is refused in the
reader's language where the server refuses them (its default)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from testkit.waiting import wait_until
from tests.pages.conftest import Site, running_site, screenshot, sign_in
from tests.pages.test_admin import problem_beside
from tests.service.test_projector_support import roll
from tests.service.test_webhooks import Receiver, receiver, verified

pytestmark = pytest.mark.browser
__all__ = ["receiver"]  # the receiver fixture, used by name


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A server that calls loopback addresses (the receiver's), looking for messages every 50 ms."""
    folder = tmp_path_factory.mktemp("webhooks")
    with running_site(folder, fixtures=False, webhook_refuse_private_addresses=False, webhook_poll_seconds=0.05) as on:
        yield on


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A server with the default settings: private and loopback addresses refused."""
    with running_site(tmp_path_factory.mktemp("guarded"), fixtures=False) as on:
        yield on


def webhooks(site: Site) -> list[dict[str, Any]]:
    return list(site.get("/clubs/c1/webhooks", site.record))


def test_an_endpoint_registered_from_its_page_shows_its_deliveries_and_sends_one_again(
    browser: Any, site: Site, receiver: Receiver
) -> None:
    page = sign_in(browser, site, site.record)
    page.goto("/club/c1/admin")
    page.click("a[href='/club/c1/webhooks']")
    page.fill("#webhook_id", "results site")
    page.fill("#url", "ftp://example.org/hook")
    page.uncheck("input[name=kinds][value='game.finished']")
    page.click("button[type=submit].primary")
    assert "use letters, digits" in problem_beside(page, "webhook_id").lower()
    assert "at least one kind" in problem_beside(page, "kinds")
    assert page.input_value("#url") == "ftp://example.org/hook", "the values typed are kept"
    page.fill("#webhook_id", "results")
    page.check("input[name=kinds][value='game.finished']")
    page.click("button[type=submit].primary")
    assert "only http:// and https://" in problem_beside(page, "url")
    assert page.is_checked("input[name=kinds][value='game.finished']")
    assert webhooks(site) == [], "nothing stored"
    screenshot(page, "webhooks-refused")

    page.fill("#url", receiver.url)
    page.click("button[type=submit].primary")
    secret = page.input_value("#new-secret")
    assert secret.startswith("whsec_") and page.locator("button.copy").count() == 1
    (registered,) = webhooks(site)
    assert registered["kinds"] == ["game.finished"] and registered["url"] == receiver.url
    screenshot(page, "webhooks-registered")
    page.goto("/club/c1/webhooks")
    assert secret not in page.content(), "the secret is shown once"

    api = site.api
    api.players("c1", site.record, "alain", "bea")
    game = api.tally_game("c1", site.record)
    answer = api.append("c1", site.record, game, 1, [roll(0, 6), roll(1, 2), roll(0, 6)])
    assert answer.status_code == 201, answer.text
    wait_until(lambda: len(receiver.requests) == 1, "the finished game delivered", 30, interval=0.05)

    page.click("a[href='/club/c1/webhooks/results']")
    rows = page.locator("table.deliveries tbody tr")
    assert rows.count() == 1
    shown = rows.first.inner_text()
    (headers, body) = receiver.requests[0]
    assert "A game finished" in shown and "delivered" in shown and "HTTP 204" in shown and "1 attempt" in shown
    assert headers["webhook-id"] in shown and verified(headers, body, secret)
    screenshot(page, "webhook-log")

    page.click("table.deliveries button[type=submit]")
    page.wait_for_url(re.compile(r".*/club/c1/webhooks/results$"))
    wait_until(lambda: len(receiver.requests) == 2, "the message sent again", 30, interval=0.05)
    again, _ = receiver.requests[1]
    assert again["webhook-id"] == headers["webhook-id"] and receiver.requests[1][1] == body
    wait_until(
        lambda: "2 attempts" in (page.reload() and page.locator("table.deliveries tbody tr").first.inner_text()),
        "the second attempt in the log",
        30,
        interval=0.1,
    )

    page.click("text=Turn it off")
    page.wait_for_url(re.compile(r".*/club/c1/webhooks/results$"))
    assert webhooks(site)[0]["enabled"] is False and "Turned off." in page.content()
    page.click("text=Turn it on again")
    assert webhooks(site)[0]["enabled"] is True
    page.click("main summary")  # the removal's confirmation (the header has a menu summary of its own)
    page.click("button.danger")
    page.wait_for_url(re.compile(r".*/club/c1/webhooks$"))
    assert webhooks(site) == [] and "No webhook yet." in page.content()


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "private or local address 127.0.0.1"), ("fr", "adresse privée ou locale 127.0.0.1")],
)
def test_a_private_address_is_refused_in_words_and_nothing_stored(
    browser: Any, guarded: Site, language: str, said: str
) -> None:
    page = sign_in(browser, guarded, guarded.record)
    page.goto(f"/language/{language}?next=/club/c1/webhooks")
    page.fill("#webhook_id", "inside")
    page.fill("#url", "http://127.0.0.1:9/hook")
    page.click("button[type=submit].primary")
    assert said in problem_beside(page, "url")
    assert webhooks(guarded) == []


def test_a_read_session_is_refused_the_webhook_pages(browser: Any, guarded: Site) -> None:
    page = sign_in(browser, guarded, guarded.key("read")["token"])
    response = page.goto("/club/c1/webhooks")
    assert response is not None and response.status == 403
    assert page.locator("form:not([action='/sign-out'])").count() == 0
