"""A new user's first five minutes: a first start leaves them one step from recording, a refused key
says why when the server has no operator key, and a taken port is one clear line."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from litestar.testing import TestClient

from service import cli
from service.app import create_app
from service.settings import Settings
from service.store import open_store
from service.usecases.access import Authenticator
from tests.service.api_support import OPERATOR
from tests.support.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[2]


def test_without_an_operator_key_a_refused_request_says_why_and_how_to_get_a_key(tmp_path: Path) -> None:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 't.db'}"), configure_logs=False, rulesets=RULESETS)
    with TestClient(app) as client:
        refused = client.post(
            "/clubs", json={"club_id": "brest", "name": "Brest"}, headers={"Authorization": "Bearer x"}
        )
    assert refused.status_code == 401 and refused.json()["title"] == "An API key is needed"
    detail = refused.json()["detail"]
    assert "no operator key" in detail and "TABLELOG_OPERATOR_KEY" in detail
    assert ".venv/bin/tablelog club create" in detail and ".venv/bin/tablelog key create" in detail


def test_with_an_operator_key_a_refused_request_keeps_the_plain_answer(tmp_path: Path) -> None:
    app = create_app(
        Settings(database_url=f"sqlite:///{tmp_path / 't.db'}", operator_key=OPERATOR),
        configure_logs=False,
        rulesets=RULESETS,
    )
    with TestClient(app) as client:
        refused = client.post("/clubs", json={"club_id": "brest", "name": "Brest"})
    assert refused.json()["detail"] == "Send 'Authorization: Bearer <key>' with a valid key."


def test_a_first_start_on_a_new_sqlite_database_makes_a_club_and_prints_its_key_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 't.db'}", port=8123)
    store = open_store(settings.database_url)
    store.migrate()
    cli._first_club(settings, store)
    printed = capsys.readouterr().out
    [token] = [line.strip() for line in printed.splitlines() if line.strip().startswith("tl_")]
    assert (
        "'my-club'" in printed
        and f"curl -s http://127.0.0.1:8123/clubs/my-club -H 'Authorization: Bearer {token}'" in printed
        and "The club's pages: http://127.0.0.1:8123/sign-in" in printed
    )
    principal = Authenticator(store, None)(token)
    assert principal is not None and principal.club_id == "my-club" and not principal.operator
    cli._first_club(settings, store)  # a second start: the database has a club
    assert capsys.readouterr().out == ""
    assert [c.club_id for c in store.list_clubs()] == ["my-club"]
    store.close()


def test_no_first_club_is_made_when_an_operator_key_is_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 't.db'}", operator_key=OPERATOR)
    store = open_store(settings.database_url)
    store.migrate()
    cli._first_club(settings, store)
    assert capsys.readouterr().out == "" and store.list_clubs() == []
    store.close()


def test_serving_on_a_taken_port_is_one_clear_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if not k.startswith("TABLELOG_")} | {
            "TABLELOG_DATABASE_URL": f"sqlite:///{tmp_path / 't.db'}",
            "TABLELOG_LOG_FORMAT": "json",
        }
        done = subprocess.run(
            [sys.executable, "-m", "service.cli", "serve", "--port", str(port)],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"tablelog serve: 127.0.0.1:{port} is already in use (another tablelog serve still running?): "
        "stop it, or choose another port with --port."
    )
    assert "first club" not in done.stdout  # nothing was made for a server that never started
