"""The spectator delay holds on every page (issue 25 part 3), in Chromium: with a spectate session and with
share links, each page a spectator can open reads, while a finished game is held back five events, as it
read when the game was stopped at the released step; once the delay is lifted the result shows. The API's
walk, on both backends, is tests/service/test_spectator_release.py."""

from __future__ import annotations

import re
from typing import Any

from tests.pages.conftest import Site, sign_in
from tests.service.api_support import Api
from tests.service.test_spectator_release import FIRST, GAME, RELEASED, delay, finish_behind_the_delay, set_up

MEMBER_PAGES = {
    "/club/{club_id}": "/club/c1",
    "/club/{club_id}/players": "/club/c1/players",
    "/club/{club_id}/players/{player_id}": "/club/c1/players/alain",
    "/club/{club_id}/games/{game_id}": f"/club/c1/games/{GAME}",
    "/club/{club_id}/games/{game_id}/replay/{step}": f"/club/c1/games/{GAME}/replay/{RELEASED}",
    "/club/{club_id}/games/{game_id}/live": f"/club/c1/games/{GAME}/live",
    "/club/{club_id}/leagues/{league_id}": "/club/c1/leagues/auto",
    "/club/{club_id}/campaigns/{campaign_id}": "/club/c1/campaigns/series",
    "/club/{club_id}/ratings/{ruleset}": "/club/c1/ratings/tally",
}
"""Every page a spectate session may open (one path each), and the finished game before."""
EXTRA = [f"/club/c1/games/{FIRST}"]
SHARED_PAGES = {
    "/share/{token}": [("game", ""), ("league", ""), ("campaign", "")],
    "/share/{token}/replay/{step}": [("game", f"/replay/{RELEASED}")],
    "/share/{token}/live": [("game", "/live")],
}
"""Every page a share link may open, for a link to the game, the league and the campaign."""
NOT_WALKED = {
    "/club/{club_id}/games/{game_id}/replay": "a redirect to a step",
    "/club/{club_id}/games/{game_id}/live/events": "the live stream, held back by its follower",
    "/share/{token}/replay": "a redirect to a step",
    "/share/{token}/live/events": "the live stream, held back by its follower",
    "/share/{token}/me": "a player link's own page: its tournament entry, no game (tests/pages/test_player_links.py)",
    "/club/{club_id}/games/{game_id}/report": "a download of the replay: up to the delay "
    "(tests/pages/test_report_and_catch_up.py)",
    "/share/{token}/report": "a download of the replay: up to the delay (tests/pages/test_report_and_catch_up.py)",
    "/club/{club_id}/games/{game_id}/lines/{line_id}": 'a "what if" line: its own events from a step, not found '
    "to a spectator before the delay has passed that step (Lines.get)",
    "/share/{token}/line": "a \"what if\" line's share link: as the line's page",
    "/club/{club_id}/tournaments/{tournament_id}": "a tournament: no game of it is delayed here; its standings "
    "are read through the same released store",
    "/club/{club_id}/tournaments/{tournament_id}/screen": "a tournament's screen: as its page",
    "/club/{club_id}/tournaments/{tournament_id}/screen/events": "the tournament screen's stream",
    "/share/{token}/screen/events": "the tournament screen's stream, by a share link",
}


NOTICE = re.compile(r" · spectators see this game [^\n]*behind the (record|table)")


def _spectators_pages(site: Site) -> set[str]:
    """The pages' GET routes under a club or a share link that a spectate session or a share link may open
    (those needing a record key aside), as the app lists them."""
    found = set()
    for route in site.app.routes:
        path = re.sub(r":(str|int)", "", route.path)
        if not path.startswith(("/club/", "/share/")):
            continue
        for handler in getattr(route, "route_handlers", ()):
            if "GET" in (handler.http_methods or ()) and handler.opt.get("needs") != "record":
                found.add(path)
    return found


def _text(page: Any, path: str) -> str:
    response = page.goto(path)
    assert response is not None and response.status == 200, (path, response and response.status)
    return str(page.inner_text("main"))


def _walk(session: Any, shares: dict[str, str]) -> dict[str, str]:
    seen = {path: _text(session, path) for path in [*MEMBER_PAGES.values(), *EXTRA]}
    for links in SHARED_PAGES.values():
        for kind, suffix in links:
            seen[f"{kind} link{suffix}"] = _text(session, f"/share/{shares[kind]}{suffix}")
    return seen


def test_every_page_a_spectator_opens_shows_a_held_back_game_as_stopped_at_the_released_step(
    browser: Any, site: Site
) -> None:
    api: Api = site.api
    assert _spectators_pages(site) == set(MEMBER_PAGES) | set(SHARED_PAGES) | set(NOT_WALKED)
    set_up(api, site.record)
    shares = {}
    for kind, target in (("game", GAME), ("league", "auto"), ("campaign", "series")):
        made = api.client.post(
            "/clubs/c1/shares", json={"kind": kind, "target_id": target}, headers=api.auth(site.record)
        )
        assert made.status_code == 201, made.text
        shares[kind] = made.json()["token"]
    session = sign_in(browser, site, site.key("spectate")["token"])
    try:
        _held_back_then_released(api, site, session, shares)
    finally:
        session.context.close()


def _held_back_then_released(api: Api, site: Site, session: Any, shares: dict[str, str]) -> None:
    stopped = _walk(session, shares)
    assert "in progress" in stopped[f"/club/c1/games/{GAME}"]

    finish_behind_the_delay(api, site.record)
    held = _walk(session, shares)
    # The one difference: the game's pages say that spectators see it behind the record (the delay is public).
    told = {path for path in held if NOTICE.search(held[path])}
    assert told == {
        f"/club/c1/games/{GAME}",
        *(p for p in held if p.startswith(("game link", f"/club/c1/games/{GAME}/"))),
    }
    assert [path for path in held if NOTICE.sub("", held[path]) != stopped[path]] == []

    delay(api, site.record, 0)
    after = _walk(session, shares)
    assert "finished" in after[f"/club/c1/games/{GAME}"] and "in progress" not in after[f"/club/c1/games/{GAME}"]
    changed = {path for path in after if after[path] != stopped[path]}
    assert {f"/club/c1/games/{GAME}", "/club/c1/leagues/auto", "/club/c1/players/alain", "league link"} <= changed
