"""Every page of a club in French and in Spanish (issue 26): a browser in `fr-FR`, then one in `es-ES`, walks a
club that has games of the three games (finished and under way), a league, a campaign and a tournament, and
finds no sentence of the English catalogues (the pages', the projections' and the games') on any page; the
language menu then switches to the other language and the choice is remembered (its cookie).

The pages are found by walking: every link within the club from its home page, then every page route of the
app's route table that takes the club's ids (filled with the ids the walk met), so a page added later is
crawled without this test knowing it. One page per route and kind of game (its ruleset, finished or not)
keeps it bounded: the replay of step 3 stands for every step."""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from babel.messages.pofile import read_po

from tests.pages.conftest import ROOT, Site, sign_in
from tests.pages.test_languages import shown_text
from tests.pages.test_record import settled
from tests.service.api_support import Api

pytestmark = pytest.mark.browser

CATALOGUES = [
    "service/pages/locale",
    "projections/locale",
    "domain/locale",
    *sorted(str(path.relative_to(ROOT)) for path in ROOT.glob("domain/*/locale")),
]
"""The English the pages show comes from these catalogues: the pages', the projections' and each game's."""
PARAMETER = re.compile(r"\{(\w+):(\w+)\}")
TYPES = {"str": r"[^/]+", "int": r"\d+", "path": r".+"}


def english_pieces(language: str, names: set[str]) -> dict[str, str]:
    """The English sentences of the catalogues, each cut at its placeholders and markup, of two words or
    more, by the catalogue they come from: what an English page shows and a page in `language` must not.
    A piece its translation keeps as it is (a proper name: "Milles Nautiques", "Atlantic Storm") is left
    out, and so are the games' names (`names`) and pieces of numbers, card ids and marks only."""
    pieces: dict[str, str] = {}
    for folder in CATALOGUES:
        with (ROOT / folder / language / "LC_MESSAGES" / "messages.po").open("rb") as source:
            catalog = read_po(source)
        for message in catalog:
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            told = message.string if isinstance(message.string, tuple) else (message.string,)
            translated = " ".join(told)
            for msgid in ids:
                for piece in re.split(r"%\(\w+\)s|\{\w+\}|<[^>]+>", msgid):
                    piece = piece.strip(" ;:·.,()[]'\"")
                    words = re.findall(r"[^\W\d_]{2,}", piece)
                    if len(piece.split()) > 1 and len(words) > 1 and piece not in translated and piece not in names:
                        pieces.setdefault(piece, folder)
    return pieces


def is_page(handler: Any) -> bool:
    """A GET handler that answers a page (a template), not JSON, an event stream, a script or a redirect."""
    return "GET" in handler.http_methods and "Template" in repr(handler.parsed_fn_signature.return_type.annotation)


def route_patterns(app: Any) -> list[tuple[str, re.Pattern[str]]]:
    """The app's page routes under a club, each with the regular expression its paths match."""
    patterns = []
    for route in app.routes:
        pages = [handler for handler in getattr(route, "route_handlers", []) if is_page(handler)]
        if not route.path.startswith("/club/{club_id") or not pages:
            continue
        pieces = PARAMETER.split(route.path)  # literal, name, type, literal, name, type, ..., literal
        regex = "".join(
            re.escape(piece)
            if i % 3 == 0
            else f"(?P<{piece}>{TYPES.get(pieces[i + 1], '[^/]+')})"
            if i % 3 == 1
            else ""
            for i, piece in enumerate(pieces)
        )
        patterns.append((route.path, re.compile(regex + "$")))
    return patterns


def matched(patterns: list[tuple[str, re.Pattern[str]]], path: str) -> tuple[str, dict[str, str]] | None:
    """The route a path is a page of, and the values of its parameters."""
    for route, pattern in patterns:
        found = pattern.match(path)
        if found:
            return route, found.groupdict()
    return None


@pytest.fixture(scope="module")
def club(site: Site) -> Iterator[dict[str, Any]]:
    """Club c1 with its fixture games (the three games, finished), a game of each under way, a league, a
    campaign and a tournament with a round paired; returns each game's (ruleset, finished) by id."""
    auth = Api.auth(site.record)
    http = site.http

    def made(path: str, body: Any, **options: Any) -> Any:
        answer = http.post(f"/clubs/c1{path}", headers=auth, **({"json": body} if body is not None else options))
        assert answer.status_code in (200, 201), (path, answer.text)
        return answer.json()

    mn = site.games["two_players_to_forty"]
    made(
        "/leagues",
        {
            "league_id": "automne",
            "ruleset": "milles-nautiques",
            "members": ["p1", "p2"],
            "starts": "2020-01-01",
            "ends": "2099-12-31",
            "scoring": {"placement_points": {"1": 3, "2": 1}},
            "tie_breaks": ["points", "head_to_head"],
        },
    )
    made("/leagues/automne/games", {"game_id": mn})
    made("/campaigns", {"campaign_id": "hiver", "ruleset": "milles-nautiques", "players": ["p1", "p2"]})
    made("/campaigns/hiver/games", {"game_id": mn})
    made(
        "/tournaments",
        {
            "tournament_id": "tournoi",
            "ruleset": "memoire-44",
            "system": "swiss",
            "scoring": {"win_draw_loss": [2, 1, 0]},
        },
    )
    for player in ("p1", "p2"):
        made("/tournaments/tournoi/players", {"player_id": player})
    made("/tournaments/tournoi/rounds", {})
    scenario = site.app.state.records.rulesets.get("memoire-44").resource_kinds["scenario"].builtin()["hedgerow_lane"]
    made("/resources/memoire-44/scenario/lane", None, content=scenario)
    two = [{"player_id": "p1"}, {"player_id": "p2"}]
    made("/games", {"ruleset": "milles-nautiques", "players": two})
    made("/games", {"ruleset": "memoire-44", "players": two, "resources": {"scenario": {"resource_id": "lane"}}})
    # A "what if" line (listed under its step) and a webhook (listed on its page), so that their own pages
    # are reached: the webhook is turned off at once and takes only events recorded from now on (none
    # are), so nothing is ever sent to its address.
    line = made(f"/games/{mn}/lines", {"step": 3, "name": "Autre défausse"})
    made("/webhooks", {"webhook_id": "resultats", "url": "https://93.184.215.14/hook", "kinds": ["game.finished"]})
    off = http.patch("/clubs/c1/webhooks/resultats", headers=auth, json={"enabled": False})
    assert off.status_code == 200, off.text
    site.caught_up()
    games = http.get("/clubs/c1/games", headers=auth, params={"limit": 500})
    assert games.status_code == 200, games.text
    listed = games.json()
    keys = http.get("/clubs/c1/keys", headers=auth)
    assert keys.status_code == 200, keys.text
    yield {
        "games": {g["game_id"]: (g["ruleset"], g["finished"]) for g in listed["games"]},
        # The club's ids, for the route table's pages that no link reaches (a key is revoked through a form;
        # a tournament's round and table pages may be opened from a QR code).
        "ids": {
            "key_id": sorted(k["key_id"] for k in keys.json()),
            "tournament_id": ["tournoi"],
            "league_id": ["automne"],
            "campaign_id": ["hiver"],
            "player_id": ["p1"],
            "round": ["1"],
            "table": ["1"],
            # a line is listed under its one step, which the walk's one page per route may not be
            "line_id": [line["line_id"]],
            "game_id": [mn],
        },
    }


def kind_of(route: str, values: dict[str, str], query: dict[str, list[str]], games: dict[str, Any]) -> tuple[Any, ...]:
    """What makes two pages of one route worth crawling both: the kind of game they show."""
    game = games.get(values.get("game_id", ""))
    return (route, game, values.get("ruleset") or "".join(query.get("ruleset", [])))


def crawl(
    page: Any, site: Site, club: dict[str, Any], english: dict[str, str]
) -> tuple[dict[str, list[str]], list[str]]:
    """Walk the club's pages in the page's language; the English pieces found, by page, and the pages."""
    patterns = route_patterns(site.app)
    sentence = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, sorted(english, key=len, reverse=True))) + r")(?!\w)")
    seen: set[tuple[Any, ...]] = set()
    games = club["games"]
    values: dict[str, set[str]] = {"club_id": {"c1"}, **{name: set(ids) for name, ids in club["ids"].items()}}
    found: dict[str, list[str]] = {}
    crawled: list[str] = []
    language = page.evaluate("navigator.language")[:2]

    def visit(url: str, listed: bool = False) -> list[str]:
        response = page.goto(url)
        assert response is not None
        if listed and 400 <= response.status < 500:
            return []  # a route that needs what its links give it (a query's step), not a page of its own
        assert response.status < 400, (url, response.status, page.inner_text("body")[:800])
        crawled.append(url)
        if "text/html" not in response.headers.get("content-type", ""):
            return []
        if page.locator("#recorder").count():
            settled(page)
        assert page.locator("html").get_attribute("lang") == language, url
        text = shown_text(page)
        english_here = sorted(
            {f"{m[0]!r} in …{text[max(0, m.start() - 60) : m.end() + 60]}…" for m in sentence.finditer(text)}
        )
        if english_here:
            found[url] = english_here
        base = urlsplit(site.base).netloc
        links = page.eval_on_selector_all("a[href]", "as => as.map(a => a.href)")
        return [link.split("#")[0] for link in links if urlsplit(link).netloc == base]

    def worth(url: str) -> bool:
        parts = urlsplit(url)
        route = matched(patterns, parts.path)
        if route is None or not parts.path.startswith("/club/c1"):
            return False  # another club, the language menu, the rules reference, a share link: not this club's pages
        for name, value in route[1].items():
            values.setdefault(name, set()).add(value)
        kind = kind_of(route[0], route[1], parse_qs(parts.query), games)
        if kind in seen:
            return False
        seen.add(kind)
        return True

    queue = deque(["/club/c1"])
    worth(site.base + "/club/c1")
    while queue:
        for link in visit(queue.popleft()):
            if worth(link):
                queue.append(urlsplit(link).path + (f"?{urlsplit(link).query}" if urlsplit(link).query else ""))
    # The route table's pages the walk did not reach, filled with the ids it met (a game of each kind).
    by_kind = {kind: game_id for game_id, kind in games.items()}
    unfilled = []
    for route, _pattern in patterns:
        names = [name for name, _type in PARAMETER.findall(route)]
        choices: list[dict[str, str]] = [{}]
        for name in names:
            options = sorted(by_kind.values()) if name == "game_id" else sorted(values.get(name, ()))[:1]
            if name == "step":
                options = ["3"]
            if not options:
                unfilled.append(f"{route} ({name})")
                break
            choices = [{**choice, name: option} for choice in choices for option in options]
        else:
            for choice in choices:
                path = PARAMETER.sub(lambda m, c=choice: c[m[1]], route)  # type: ignore[misc]
                if worth(site.base + path):
                    visit(path, listed=True)
    assert unfilled == [], f"page routes the crawl cannot fill (link them from a page the walk reaches): {unfilled}"
    return found, crawled


@pytest.mark.parametrize(("locale", "other", "other_name"), [("fr-FR", "es", "Español"), ("es-ES", "fr", "Français")])
def test_every_page_of_the_club_reads_without_an_english_sentence_and_the_menu_switches_for_good(
    browser: Any, site: Site, club: dict[str, Any], locale: str, other: str, other_name: str
) -> None:
    language = locale[:2]
    english = english_pieces(language, {ruleset.title for ruleset in site.app.state.records.rulesets})
    assert "Live and unfinished games" in english and "What happened, step by step" in english
    page = sign_in(browser, site, site.record, locale=locale, bypass_csp=True)
    began = time.monotonic()
    found, crawled = crawl(page, site, club, english)
    print(f"the {language} crawl: {len(crawled)} pages in {time.monotonic() - began:.1f} s")  # bounded by kinds
    assert found == {}, "\n".join(f"{url}: {pieces}" for url, pieces in found.items())
    assert {"/club/c1/leagues/automne", "/club/c1/campaigns/hiver", "/club/c1/games/new"} <= set(crawled)
    assert {kind for kind in club["games"].values()} <= {
        club["games"].get(url.split("/")[4]) for url in crawled if "/games/" in url
    }

    page.goto("/club/c1/leagues/automne")
    page.get_by_role("link", name=other_name).click()
    page.wait_for_url(re.compile(r".*/club/c1/leagues/automne$"))
    assert page.locator("html").get_attribute("lang") == other
    page.goto("/club/c1")
    assert page.locator("html").get_attribute("lang") == other, "the choice is remembered on the next page"
    assert {c["name"]: c["value"] for c in page.context.cookies()}.get("tablelog_lang") == other
    page.context.close()
