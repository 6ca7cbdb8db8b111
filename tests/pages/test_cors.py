"""A page of another site calls the API from the browser (CORS, `cors_allow_origins`): Chromium sends the
preflight and reads the answer only when the page's origin is allowed."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from service.app import create_app
from service.settings import Settings
from testkit.waiting import wait_until
from tests.service.api_support import OPERATOR, Api
from tests.service.test_projector_support import free_port

pytestmark = pytest.mark.browser


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b"<!doctype html><title>A club's own site</title>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_: Any) -> None:
        pass


def _serve_page() -> tuple[ThreadingHTTPServer, str]:
    site = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    return site, f"http://127.0.0.1:{site.server_address[1]}"


@pytest.fixture
def pages() -> Iterator[tuple[str, str]]:
    allowed, allowed_origin = _serve_page()
    other, other_origin = _serve_page()
    try:
        yield allowed_origin, other_origin
    finally:
        allowed.shutdown()
        other.shutdown()


def test_a_page_on_an_allowed_origin_reads_the_api_and_another_origin_cannot(
    browser: Any, pages: tuple[str, str], tmp_path: Path
) -> None:
    allowed_origin, other_origin = pages
    port = free_port()
    app = create_app(
        Settings(
            database_url=f"sqlite:///{tmp_path / 'tablelog.db'}",
            operator_key=OPERATOR,
            log_format="json",
            log_level="warning",
            cors_allow_origins=allowed_origin,
        )
    )
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, access_log=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        wait_until(lambda: server.started, "the API's server", 20, runner=thread, interval=0.02)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
            token = Api(http, app).club("cors")
        call = """async ([url, token]) => {
            try {
                const answer = await fetch(url, {headers: {Authorization: `Bearer ${token}`}});
                return {status: answer.status, body: await answer.json()};
            } catch (error) { return {refused: String(error)}; }
        }"""
        url = f"http://127.0.0.1:{port}/clubs/cors"
        page = browser.new_page()
        try:
            page.goto(allowed_origin)
            read = page.evaluate(call, [url, token])
            page.goto(other_origin)
            refused = page.evaluate(call, [url, token])
        finally:
            page.close()
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    assert read["status"] == 200 and read["body"]["club_id"] == "cors"
    assert "Failed to fetch" in refused["refused"]
