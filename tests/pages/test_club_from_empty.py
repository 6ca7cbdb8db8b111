"""A club runs itself from its pages (issue 27), end to end: the real `tablelog serve` on a brand-new
database, signed in with the key its first start printed, and then only pages, clicks and form fills (no
API call, no CLI): four players (two Alains, told apart), an Atlantic Storm catalogue uploaded, an
automatic league and an automatic campaign to 200 points, two Milles Nautiques rounds recorded by taps that
land in both by themselves, a read key made and revoked, a share link to one of two games of one title,
and the league's standings and the campaign's plot with the players' names.

On PostgreSQL the first start prints no key (a first club is made only in a new SQLite database): there the
club and its scorekeeper key come from `tablelog club create` and `tablelog key create`, as the README
tells an operator, before the server starts; everything after is the same pages."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from service.cli import main as tablelog
from testkit.waiting import answers, wait_until
from tests.pages.conftest import LAPTOP, ROOT, screenshot
from tests.pages.test_record import choices, settled, shown
from tests.support.rulesets import RULESETS
from tests.test_e2e import free_port

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

CLUB = "/club/my-club"
TITLE = "Friday night"


class Served(NamedTuple):
    base: str
    key: str


def _environment(database_url: str) -> dict[str, str]:
    """The environment of a club's own server: no operator key (nothing can be made over the API without
    a club key), the projector polling briskly so that the standings move within the test's patience."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLELOG_")}
    return env | {
        "PYTHONPATH": str(ROOT),
        "TABLELOG_DATABASE_URL": database_url,
        "TABLELOG_LOG_FORMAT": "json",
        "TABLELOG_LOG_LEVEL": "warning",
        "TABLELOG_PROJECTOR_POLL_SECONDS": "0.1",
    }


def _tablelog(database_url: str, *args: str) -> str:
    """What `tablelog <args> --database-url <url>` prints (run in this process: a second Python start
    costs seconds on a loaded machine)."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert tablelog([*args, "--database-url", database_url]) == 0
    return printed.getvalue()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Served]:
    """`tablelog serve` on a new database, and the club key to sign in with."""
    if request.param == "sqlite":
        env = _environment(f"sqlite:///{tmp_path / 'tablelog.db'}")
        key = ""
    else:
        database_url = str(request.getfixturevalue("postgres_schema_url"))
        env = _environment(database_url)
        _tablelog(database_url, "club", "create", "my-club", "My club")
        key = _tablelog(database_url, "key", "create", "my-club").strip()
    port = free_port()
    printed = tmp_path / "serve.out"
    with printed.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "serve", "--port", str(port)],
            env=env,
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.DEVNULL,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(answers(f"{base}/health"), "tablelog serve", runner=process)
        said = printed.read_text()
        if request.param == "sqlite":
            assert f"The club's pages: {base}/sign-in" in said, said
            [key] = re.findall(r"^\s+(tl_\S+)$", said, re.MULTILINE)
        else:
            assert "tl_" not in said, "a PostgreSQL database gets no first club"
        yield Served(base, key)
    finally:
        process.terminate()
        process.wait(timeout=30)


def signed_in(browser: Any, base: str, key: str) -> Any:
    """A new browser context signed in with `key` through the sign-in form (Playwright's waits on the
    recorder compile their expression with eval, which the pages' CSP forbids: bypassed, as in
    tests/pages/test_record.py)."""
    page = browser.new_context(viewport=LAPTOP, base_url=base, bypass_csp=True).new_page()
    page.goto("/sign-in")
    page.fill("#key", key)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(rf".*{CLUB}$"))
    return page


def refused(browser: Any, base: str, key: str) -> bool:
    """Whether the sign-in form turns `key` away."""
    page = browser.new_context(viewport=LAPTOP, base_url=base).new_page()
    page.goto("/sign-in")
    page.fill("#key", key)
    page.click("button[type=submit]")
    page.wait_for_load_state()
    turned_away = page.url.endswith("/sign-in") and page.locator(".problem").count() > 0
    page.context.close()
    return turned_away


def add_player(page: Any, name: str, note: str = "") -> None:
    page.fill("#add-name", name)
    page.fill("#add-note", note)
    page.click("#add-player button[type=submit]")
    page.wait_for_load_state()


def tap(page: Any, wanted: dict[str, Any]) -> None:
    """Tap the one choice offering `wanted` (its fields; the others as offered) and wait until it is stored."""
    offered = choices(page)
    fitting = [i for i, e in enumerate(offered) if all(e.get(k) == v for k, v in wanted.items())]
    assert fitting, f"no choice {wanted} among {offered}"
    before = int(page.locator("#version").inner_text())
    shown(page, fitting[0]).click()
    page.wait_for_function(f"Number(document.getElementById('version').textContent) > {before}")
    settled(page)


MN = "milles_nautiques."
# The shortest round the rules allow a winner: two 20,000-ton convoys sailed 4,000 miles each reach the
# round's 40 points (MN-13, MN-15) on the winner's seventh play; the other seat draws and discards.
WINNING_PLAYS = [
    {"type": MN + "convoy_placed", "card": "convoy_20000", "position": 0},
    {"type": MN + "convoy_placed", "card": "convoy_20000", "position": 1},
    {"type": MN + "miles_played", "card": "miles_2000", "convoy": 1},
    {"type": MN + "miles_played", "card": "miles_2000", "convoy": 1},
    {"type": MN + "miles_played", "card": "miles_2000", "convoy": 2},
    {"type": MN + "miles_played", "card": "miles_1000", "convoy": 2},
    {"type": MN + "miles_played", "card": "miles_1000", "convoy": 2},
]
DISCARDS = ["radar", "alert", "storm", "plane", "mine", "radar", "alert"]


def record_round(page: Any, winner: int, first: int) -> str:
    """Tap a two-player round through from its deal (seat `first` plays first) to `winner`'s 40 points;
    returns the game's id."""
    game_id = str(page.url.rsplit("/", 2)[-2])
    tap(page, {"type": MN + "dealt"})
    plays, discards = iter(WINNING_PLAYS), iter(DISCARDS)
    seat = first
    while page.locator("button.choice").count():
        tap(page, {"type": MN + "drew", "seat": seat, "card": None})
        if seat == winner:
            tap(page, next(plays) | {"seat": seat})
        else:
            tap(page, {"type": MN + "discarded", "seat": seat, "card": next(discards)})
        seat = 1 - seat
    assert next(plays, None) is None, "the round ended on the winner's last play"
    assert "The game is over." in page.inner_text("#choices")
    return game_id


def start_round(page: Any, dealer: int, number: int) -> None:
    """Start a round of Alain (Tuesdays) against Bea from the start form, titled alike each time."""
    page.goto(f"{CLUB}/games/new?ruleset=milles-nautiques")
    menu = [o.strip() for o in page.locator("#seat_0 option").all_inner_texts()]
    assert "Alain (Tuesdays)" in menu and "Alain (Fridays)" in menu and "Alain" not in menu, menu
    page.fill("input[name=title]", TITLE)
    page.select_option("#seat_0", "alain")
    page.select_option("#seat_1", "bea")
    page.select_option("#option_dealer", str(dealer))
    page.fill("#option_round", str(number))
    page.click("form.new-game button[type=submit]")
    page.wait_for_url(re.compile(r".*/games/[^/]+/record$"))
    settled(page)


def until_shown(page: Any, path: str, expected: str, where: str = "main") -> str:
    """The page at `path` once it shows `expected` (the projector applies a finished game shortly after)."""

    def shows() -> bool:
        page.goto(path)
        return expected in page.inner_text(where)

    wait_until(shows, f"{expected!r} on {path}", 30, interval=0.2)
    return str(page.inner_text(where))


def test_a_club_from_an_empty_database_to_a_league_night_through_its_pages_only(browser: Any, served: Served) -> None:
    page = signed_in(browser, served.base, served.key)
    assert "No player" in page.inner_text("main")

    # Four players, two of them Alain, told apart by a note.
    page.goto(f"{CLUB}/players")
    for name, note in (("Alain", "Tuesdays"), ("Alain", "Fridays"), ("Bea", ""), ("Chloé", "")):
        add_player(page, name, note)
    listed = page.inner_text("main")
    assert all(n in listed for n in ("Alain (Tuesdays)", "Alain (Fridays)", "Bea", "Chloé")), listed

    # An Atlantic Storm catalogue uploaded from the resources page.
    deck = RULESETS.get("atlantic-storm").resource_kinds["catalogue"].builtin()["documented"]
    page.goto(f"{CLUB}/resources")
    page.select_option("#what", "atlantic-storm/catalogue")
    page.fill("#resource_id", "club-deck")
    page.set_input_files("#file", files=[{"name": "deck.csv", "mimeType": "text/csv", "buffer": deck}])
    page.click("button[type=submit].primary")
    page.wait_for_url(re.compile(rf".*{CLUB}/resources$"))
    assert "club-deck" in page.inner_text("table.resources")

    # An automatic league of the four, and an automatic campaign of Alain (Tuesdays) and Bea.
    page.goto(f"{CLUB}/admin")
    page.click("text=New league")
    page.fill("#league_id", "autumn")
    page.select_option("#ruleset", "milles-nautiques")
    for member in ("alain", "alain-2", "bea", "chloe"):
        page.check(f"input[name=members][value='{member}']")
    page.fill("#starts", "2000-01-01")
    page.fill("#ends", "2999-12-31")
    page.fill("#win", "3")
    page.fill("#draw", "1")
    page.fill("#loss", "0")
    page.check("#automatic")
    page.click("button[type=submit].primary")
    page.wait_for_url(re.compile(rf".*{CLUB}/admin$"))
    page.goto(f"{CLUB}/campaigns/new")
    page.fill("#campaign_id", "duel")
    page.select_option("#ruleset", "milles-nautiques")
    page.select_option("#player_0", "alain")
    page.select_option("#player_1", "bea")
    page.check("#automatic")
    page.click("button[type=submit].primary")
    page.wait_for_url(re.compile(rf".*{CLUB}/admin$"))
    assert "autumn" in page.inner_text("main") and "duel" in page.inner_text("main")

    # Two rounds recorded by taps, both titled alike, both won by Alain (Tuesdays); the deal passes left.
    start_round(page, dealer=1, number=1)
    first = record_round(page, winner=0, first=0)
    start_round(page, dealer=0, number=2)
    second = record_round(page, winner=0, first=1)

    # They land in the league and the campaign by themselves.
    standings = until_shown(page, f"{CLUB}/leagues/autumn", "2 games counted")
    rows = [r.inner_text().split("\t") for r in page.locator("table.standings tbody tr").all()]
    assert [c.strip() for c in rows[0][:5]] == ["1", "Alain (Tuesdays)", "2", "2-0-0", "6"], rows
    assert any(r[1].strip() == "Bea" and r[3].strip() == "0-0-2" for r in rows), rows
    assert first in standings and second in standings
    screenshot(page, "club-from-empty-league")
    until_shown(page, f"{CLUB}/campaigns/duel", "Alain (Tuesdays): 100")
    totals = page.inner_text("ul.totals")
    assert "Alain (Tuesdays): 100" in totals and "Bea: 0" in totals, totals
    plot = page.locator("figure.plot-wrap svg").first.inner_html()
    assert "Alain (Tuesdays)" in plot and "Bea" in plot, "the plot names its players"
    screenshot(page, "club-from-empty-campaign")

    # The club home says who won each game.
    page.goto(CLUB)
    home = page.inner_text("main")
    assert home.count(f"{TITLE} Milles Nautiques") == 2, home
    assert home.count("Alain (Tuesdays) wins with 50 points. Alain (Tuesdays) 50 points · Bea 0 points") == 2, home

    # A read key made (shown once) and revoked after its confirmation.
    page.goto(f"{CLUB}/keys")
    page.fill("#name", "the club's screen")
    page.check("input[name=scope][value=read]")
    page.click("button[type=submit].primary")
    token = page.input_value("#new-token")
    assert token.startswith("tl_") and page.locator("button.copy").count() == 1
    reader = signed_in(browser, served.base, token)
    assert reader.locator(f"a[href='{CLUB}/admin']").count() == 0, "a read key administers nothing"
    reader.context.close()
    page.goto(f"{CLUB}/keys")
    assert token not in page.content(), "the token is shown once"
    page.click('li:has-text("the club\'s screen") >> text=Revoke…')
    assert "Revoke the key" in page.inner_text("h1")
    page.click("button.danger")
    page.wait_for_url(re.compile(rf".*{CLUB}/keys$"))
    assert "revoked" in page.locator('li:has-text("the club\'s screen")').inner_text()
    assert refused(browser, served.base, token)

    # A share link to the first of the two games titled alike: the picker tells them apart.
    page.goto(f"{CLUB}/shares")
    options = {str(o.get_attribute("value")): o.inner_text() for o in page.locator("#target option").all()}
    named = {options[f"game:{first}"], options[f"game:{second}"]}
    assert len(named) == 2, options
    assert all(f"{TITLE} · Alain (Tuesdays), Bea" in o and "Alain (Tuesdays) won (50 – 0)" in o for o in named), named
    screenshot(page, "club-from-empty-share-picker")
    page.select_option("#target", f"game:{first}")
    page.click("form.card button[type=submit]")
    link = str(page.locator("#new-share").get_attribute("href"))
    public = browser.new_context(viewport=LAPTOP).new_page()
    public.goto(link)
    shared = public.inner_text("main")
    # The replay names the players as the record did at the start (one Alain at this table).
    assert f"Milles Nautiques: {TITLE}" in shared and "Alain wins with 50 points." in shared, shared
    assert "Alain: 50 points" in shared and "Bea: 0 points" in shared, shared
    screenshot(public, "club-from-empty-shared-game")
    public.context.close()
    page.context.close()
