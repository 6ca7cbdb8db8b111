"""The guide (docs/, mkdocs.yml) builds with strict link checking, loads nothing from another host, carries
the reference generated from the code, and is served by the app under /guide (or a 404 saying how to build it)."""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from service import guide
from service.app import create_app
from service.cli import build_parser
from service.settings import Settings
from tests.support.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[1]
# One page of each section, as the nav names them (mkdocs.yml).
SECTIONS = ("tutorial/", "how-to/", "reference/", "explanation/", "reference/rules/")
OUTSIDE_ASSET = re.compile(r"<(?:script|link|img)\b[^>]*\b(?:src|href)=\"(?:https?:)?//", re.IGNORECASE)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("guide")
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    return out


@pytest.fixture
def client(site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient[Any]]:
    monkeypatch.setattr(guide, "SITE", site)
    settings = Settings(database_url=f"sqlite:///{tmp_path / 't.db'}")
    with TestClient(create_app(settings, rulesets=RULESETS, configure_logs=False)) as c:
        yield c


def _text(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def test_the_guide_builds_strictly_and_no_page_loads_a_script_style_or_image_from_another_host(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    assert len(pages) >= 25
    outside = {str(p.relative_to(site)): OUTSIDE_ASSET.findall(p.read_text(encoding="utf-8")) for p in pages}
    assert {page: found for page, found in outside.items() if found} == {}


def test_the_api_reference_names_every_operation_of_the_committed_openapi_document(site: Path) -> None:
    text = _text((site / "reference" / "api.html").read_text(encoding="utf-8"))
    document = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
    operations = [f"{method.upper()} {path}" for path, item in document["paths"].items() for method in item]
    assert [op for op in operations if op not in text] == []
    assert "Read-your-writes with read replicas" in text  # a parameter's description, not only the paths


def test_the_settings_reference_gives_every_setting_its_variable_default_and_meaning(site: Path) -> None:
    text = _text((site / "reference" / "settings.html").read_text(encoding="utf-8"))
    assert [f.name for f in msgspec.structs.fields(Settings) if f"TABLELOG_{f.name.upper()}" not in text] == []
    assert "Where serve listens." in text  # a field's docstring
    assert "PostgreSQL connections per process" in text


def test_the_cli_reference_shows_every_commands_help(site: Path) -> None:
    text = _text((site / "reference" / "cli.html").read_text(encoding="utf-8"))
    parser = build_parser(RULESETS)
    progs = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                nested = [a for a in sub._actions if isinstance(a, argparse._SubParsersAction)]
                progs += [f"tablelog {name} {n}" for a in nested for n in a.choices] or [f"tablelog {name}"]
    assert [prog for prog in progs if f"usage: {prog}" not in text] == []


def test_the_rules_reference_pages_are_the_packages_rules_files(site: Path) -> None:
    for page, source in [("general", "domain/RULES.md"), ("milles_nautiques", "domain/milles_nautiques/RULES.md")]:
        html = (site / "reference" / "rules" / f"{page}.html").read_text(encoding="utf-8")
        headings = re.findall(r"^## (.+)$", (ROOT / source).read_text(encoding="utf-8"), re.MULTILINE)
        assert headings and all(heading in _text(html) for heading in headings)


def test_the_app_serves_the_guide_under_guide_with_the_tutorial_and_each_section(client: TestClient[Any]) -> None:
    home = client.get("/guide/")
    assert home.status_code == 200 and "A club's first evening" in _text(home.text)
    for section in SECTIONS:
        answer = client.get(f"/guide/{section}")
        assert answer.status_code == 200, section
        assert "<article" in answer.text and "tablelog" in answer.text
    assert "A club's first evening" in _text(client.get("/guide/tutorial/").text)
    assert "TABLELOG_DATABASE_URL" in client.get("/guide/reference/settings.html").text


def test_a_server_without_a_built_guide_answers_guide_with_how_to_build_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(guide, "SITE", tmp_path / "not-built")
    settings = Settings(database_url=f"sqlite:///{tmp_path / 't.db'}")
    with TestClient(create_app(settings, rulesets=RULESETS, configure_logs=False)) as c:
        for path in ("/guide", "/guide/", "/guide/tutorial/"):
            answer = c.get(path)
            assert answer.status_code == 404, path
            assert "mkdocs build --strict" in answer.text and "docs/" in answer.text


def _tutorial_session() -> str:
    """The tutorial's first session as written: the shell block under its heading."""
    text = (ROOT / "docs" / "tutorial" / "index.md").read_text(encoding="utf-8")
    section = text.split("## A first session with curl", 1)[1]
    return section.split("```sh\n", 1)[1].split("\n```", 1)[0]


@pytest.mark.e2e
def test_the_tutorials_first_session_runs_as_written_against_a_real_server(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    # The only changes: the server is this checkout's, on a free port and a fresh database.
    session = _tutorial_session().replace("localhost:8000", f"localhost:{port}")
    serve = f"{sys.executable} -m service.cli serve --port {port} --database-url sqlite:///{tmp_path / 'club.db'}"
    script = "set -e\ntrap 'kill $(jobs -p) 2>/dev/null' EXIT\n" + session.replace("./scripts/serve", serve)
    run = subprocess.run(["bash", "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    out = run.stdout
    assert '"first_version":2,"last_version":4' in out  # the deal's batch, as the comment says
    assert "/problems/" not in out  # nothing the tutorial sends is refused
    assert '"finished":false' in out and '"events"' in out  # the result so far, and the legal events


def test_the_readme_is_a_front_page_with_the_two_commands_and_where_to_read_on() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "./scripts/serve" in readme and "./scripts/test" in readme
    assert "`.ci/run`, which runs `scripts/test`" in readme
    assert "exec ./scripts/test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "/guide" in readme and "(docs/index.md)" in readme
    assert len(readme.splitlines()) < 60  # a front page; the rest is in the guide
