"""The browser tests' set-up: Debian's Chromium driven by Playwright, a real server (the app under uvicorn
in a thread, projector on, SQLite) and a club with the recorded fixture games imported through the CLI.

Under `CI=true` a missing Chromium fails the run; elsewhere the browser tests are skipped. Screenshots go
to `test-artifacts/pages/` (git-ignored), one per page at phone width (360 px) and laptop width."""

from __future__ import annotations

import json
import os
import re
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
import uvicorn

from service.app import create_app
from service.cli import main as tablelog
from service.settings import Settings
from testkit.waiting import wait_until
from tests.service.api_support import OPERATOR, Api
from tests.service.test_projector_support import free_port
from tests.support.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTEFACTS = ROOT / "test-artifacts" / "pages"
FIXTURES = sorted(ROOT.glob("tests/domain/*/fixtures/*.jsonl"))
PHONE = {"width": 360, "height": 780}
LAPTOP = {"width": 1280, "height": 800}

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one test module: Playwright's synchronous API keeps an event loop running in this
    thread while it is open, which would break later tests that start their own (asyncio.run)."""
    if not (os.path.exists(CHROMIUM) and shutil.which(CHROMIUM)):
        if os.environ.get("CI") == "true":
            pytest.fail(f"the browser tests need Chromium at {CHROMIUM} under CI (apt-get install chromium)")
        pytest.skip(f"no Chromium at {CHROMIUM}")
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


class Site:
    """A running server with club c1: its record key, players, the fixture games and a spectate key."""

    def __init__(self, base: str, app: Any, database_url: str) -> None:
        self.base = base
        self.app = app
        self.database_url = database_url
        self.http = httpx.Client(base_url=base, timeout=20)
        self.api = Api(self.http, app)
        self.record = self.api.club("c1")
        self.games: dict[str, str] = {}  # fixture file stem -> game id

    def key(self, scope: str) -> dict[str, Any]:
        made = self.http.post(
            "/clubs/c1/keys", json={"name": f"{scope} key", "scope": scope}, headers=Api.auth(OPERATOR)
        )
        assert made.status_code == 201, made.text
        return dict(made.json())

    def import_fixtures(self) -> None:
        names: dict[str, str] = {}
        for path in FIXTURES:
            for player in json.loads(path.read_bytes().splitlines()[0])["setup"]["players"]:
                names.setdefault(player["player_id"], player["name"])
        for player_id, name in names.items():
            created = self.http.post(
                "/clubs/c1/players", json={"player_id": player_id, "name": name}, headers=Api.auth(self.record)
            )
            assert created.status_code == 201, created.text
        for path in FIXTURES:
            game_id = re.sub(r"[^a-z0-9-]", "-", path.stem)
            code = tablelog(
                ["import", str(path), "--club", "c1", "--game-id", game_id, "--database-url", self.database_url],
                rulesets=RULESETS,
            )
            assert code == 0
            self.games[path.stem] = game_id

    def get(self, path: str, token: str) -> Any:
        response = self.http.get(path, headers=Api.auth(token))
        assert response.status_code == 200, response.text
        return response.json()

    def caught_up(self) -> None:
        """Until the projector has applied everything (standings and campaigns read its summaries)."""
        wait_until(
            lambda: all(p["lag"] == 0 for p in self.get("/ready", OPERATOR)["checks"]["projections"].values()),
            "the projector's catching up",
            30,
            interval=0.05,
        )


@contextmanager
def running_site(folder: Path, *, fixtures: bool = True, **settings: Any) -> Iterator[Site]:
    """A server on SQLite in `folder` with club c1 (and the fixture games imported, with `fixtures`),
    its settings the browser tests' with `settings` changed."""
    database_url = f"sqlite:///{folder / 'tablelog.db'}"
    port = free_port()
    base = Settings(
        database_url=database_url,
        operator_key=OPERATOR,
        log_format="json",
        log_level="warning",
        live_poll_seconds=0.1,
        live_keepalive_seconds=1,
        projector_poll_seconds=0.05,
    )
    app = create_app(msgspec.structs.replace(base, **settings), rulesets=RULESETS)
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, access_log=False, timeout_graceful_shutdown=1)
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_until(lambda: server.started, "the pages' server", 20, runner=thread, interval=0.02)
    running = Site(f"http://127.0.0.1:{port}", app, database_url)
    if fixtures:
        running.import_fixtures()
    try:
        yield running
    finally:
        running.http.close()
        server.should_exit = True
        thread.join(10)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    with running_site(tmp_path_factory.mktemp("pages")) as running:
        yield running


def sign_in(browser: Any, site: Site, token: str, width: dict[str, int] = LAPTOP, **options: Any) -> Any:
    """A new browser context (with Playwright's context `options`) signed in with `token` through the
    sign-in form; returns its page."""
    context = browser.new_context(viewport=width, base_url=site.base, **options)
    page = context.new_page()
    page.goto("/sign-in")
    page.fill("#key", token)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r".*/club/c1$"))
    return page


def screenshot(page: Any, name: str) -> None:
    """Keep a picture of the page at phone and laptop width (look at them: test-artifacts/pages/)."""
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    for label, size in (("phone", PHONE), ("laptop", LAPTOP)):
        page.set_viewport_size(size)
        page.screenshot(path=str(ARTEFACTS / f"{name}-{label}.png"), full_page=True)
        if label == "phone":  # what a phone shows first, at a size one can read
            page.screenshot(path=str(ARTEFACTS / f"{name}-{label}-first-screen.png"))
    page.set_viewport_size(LAPTOP)
