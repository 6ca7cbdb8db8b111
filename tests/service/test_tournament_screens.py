"""A tournament's screens cost the server per change, not per screen (issue 28, the screens' benchmark): the
process follows a tournament once for all its screens, looks at what they show once per result and wakes
them all with it; a screen of another tournament is neither looked at again nor woken; each screen still
checks its own link, so a revoked one ends its screens and no other."""

from __future__ import annotations

import re
import time
from collections import Counter
from typing import Any

import pytest

import service.pages.tournaments
import service.usecases.live
from service.usecases.tournaments import stream_id
from testkit.waiting import wait_until
from tests.service.api_support import Api
from tests.service.test_sse import EventStream, Served, served
from tests.service.test_tournament_evening_api import club, get, post, report, swiss

SCREENS = 10
QUIET = {"live_poll_seconds": 60.0}
"""The fallback poll a minute away: whatever is looked at in a test is looked at because it was heard."""


class Screen(EventStream):
    """A screen's stream of a share link, read in a thread: the test takes its `update` marks as they come."""

    def __init__(self, site: Served, share: str, mark: str | None = None) -> None:
        url = f"/share/{share}/screen/events" + (f"?mark={mark}" if mark else "")
        super().__init__(site, url, {"Accept": "text/event-stream"})

    def told(self, fields: dict[str, str]) -> str | None:
        if fields.get("event") == "update":
            return fields["data"]
        return "revoked" if fields.get("event") == "revoked" else None

    def take(self, timeout: float = 10) -> str:
        return str(self.received.get(timeout=timeout))


def share(api: Api, token: str, tournament_id: str) -> str:
    return str(shared(api, token, tournament_id)["token"])


def shared(api: Api, token: str, tournament_id: str) -> dict[str, Any]:
    """A share link to the tournament (its screen): the link and its token."""
    made = api.client.post(
        "/clubs/c1/shares",
        json={"kind": "tournament", "target_id": tournament_id, "name": f"the {tournament_id} hall"},
        headers=api.auth(token),
    )
    assert made.status_code == 201, made.text
    return dict(made.json())


def page_mark(site: Served, link: str) -> str:
    """The mark the screen's page is served with (what its stream compares with)."""
    page = site.api.client.get(f"/share/{link}/")
    assert page.status_code == 200, page.text
    found = re.search(r'data-mark="([0-9a-f]+)"', page.text)
    assert found, "the screen carries its mark"
    return found.group(1)


def test_one_result_is_looked_at_once_for_every_screen_and_reaches_each_of_them(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    looks: Counter[str] = Counter()
    original = service.pages.tournaments.screen_mark

    def counted(records: Any, club_id: str, tournament_id: str) -> tuple[str, list[Any]]:
        looks[tournament_id] += 1
        return original(records, club_id, tournament_id)

    monkeypatch.setattr(service.pages.tournaments, "screen_mark", counted)
    # No settling looks after news: the looks counted are the ones news caused.
    monkeypatch.setattr(service.usecases.live, "SETTLING", ())
    with served(database_url, **QUIET) as site:
        token = club(site.api)
        post(site.api, token, "/rounds")
        other = site.api.client.post("/clubs/c1/tournaments", json=swiss("other"), headers=site.api.auth(token))
        assert other.status_code == 201, other.text
        for player in ("eve", "fay"):
            entered = site.api.client.post(
                "/clubs/c1/tournaments/other/players", json={"player_id": player}, headers=site.api.auth(token)
            )
            assert entered.status_code == 201, entered.text
        hall, elsewhere = share(site.api, token, "open"), share(site.api, token, "other")
        before = page_mark(site, hall)

        screens = [Screen(site, hall) for _ in range(SCREENS)]
        aside = Screen(site, elsewhere)
        try:
            # Each screen is told at once what there is to show (it opened without a mark).
            assert {screen.take() for screen in screens} == {before}
            aside.take()
            live = site.app.state.live
            assert {key[0] for key in live.tournaments} == {stream_id("c1", "open"), stream_id("c1", "other")}
            followed = next(f for key, f in live.tournaments.items() if key[0] == stream_id("c1", "open"))
            beside = next(f for key, f in live.tournaments.items() if key[0] == stream_id("c1", "other"))
            assert followed.screens == SCREENS and beside.screens == 1
            time.sleep(0.3)  # the looks of the screens' opening are over
            looked, woken = looks.copy(), beside.generation

            table = get(site.api, token)["tournament"]["rounds"][0]["tables"][0]
            report(site.api, token, 1, table, 7, 2)
            after = page_mark(site, hall)
            assert after != before
            assert [screen.take(timeout=5) for screen in screens] == [after] * SCREENS, "every screen, the new mark"
            time.sleep(0.3)
            # Once, or on PostgreSQL once more for each of its own appends it hears back (the game's and the
            # tournament's): never once a screen.
            assert 1 <= looks["open"] - looked["open"] <= 3 < SCREENS, looks
            assert looks["other"] == looked["other"] and beside.generation == woken, "the other tournament slept"
            assert aside.nothing_within(0.2)

            # A screen opened on what is shown now is not looked at again, nor told anything.
            so_far = looks["open"]
            late = Screen(site, hall, mark=after)
            try:
                wait_until(lambda: followed.screens == SCREENS + 1, "the late screen joined")
                assert late.nothing_within(0.5)
                assert looks["open"] == so_far
            finally:
                late.close()
        finally:
            for screen in [*screens, aside]:
                screen.close()
        wait_until(lambda: not site.app.state.live.tournaments, "the followers end with their last screen")


def test_a_revoked_link_ends_its_own_screens_and_the_others_go_on(database_url: str) -> None:
    with served(database_url, **QUIET) as site:
        token = club(site.api)
        post(site.api, token, "/rounds")
        kept, dropped = shared(site.api, token, "open"), shared(site.api, token, "open")
        on, off = Screen(site, kept["token"]), Screen(site, dropped["token"])
        try:
            first = on.take()
            assert off.take() == first
            revoked = site.api.client.post(
                f"/clubs/c1/shares/{dropped['share']['share_id']}/revoke", headers=site.api.auth(token)
            )
            assert revoked.status_code == 200, revoked.text
            assert off.take(timeout=5) == "revoked"
            table = get(site.api, token)["tournament"]["rounds"][0]["tables"][0]
            report(site.api, token, 1, table, 7, 2)
            assert on.take(timeout=5) not in (first, "revoked"), "the other link's screen is told the result"
            assert off.nothing_within(0.2)
        finally:
            on.close()
            off.close()
