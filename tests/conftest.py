"""Shared fixtures: stores on both backends.

PostgreSQL comes from, in order: `TABLELOG_TEST_DATABASE_URL`; a testcontainers PostgreSQL where a
Docker engine answers; the local server at 127.0.0.1:5432 (user postgres, database test). Each test
gets its own schema, dropped afterwards. Under `CI=true` an unreachable PostgreSQL fails the run:
the PostgreSQL tests must never be skipped silently there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest

LOCAL_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"


def _docker_answers() -> bool:
    docker = shutil.which("docker")
    if not docker:
        return False
    try:
        return subprocess.run([docker, "info"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """The base URL of a reachable PostgreSQL server (see the module docstring)."""
    url = os.environ.get("TABLELOG_TEST_DATABASE_URL")
    container = None
    if not url and _docker_answers():
        from testcontainers.postgres import PostgresContainer

        container = PostgresContainer("postgres:16-alpine", driver=None)
        container.start()
        url = container.get_connection_url()
    url = url or LOCAL_POSTGRES
    try:
        with psycopg.connect(url, connect_timeout=5) as conn:
            conn.execute("SELECT 1")
    except psycopg.OperationalError as error:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is required under CI and {url} does not answer: {error}")
        pytest.skip(f"no PostgreSQL reachable at {url}")
    try:
        yield url
    finally:
        if container is not None:
            container.stop()


def _with_search_path(url: str, schema: str) -> str:
    separator = "&" if "?" in url else "?"
    return f"{url}{separator}options={quote(f'-csearch_path={schema}')}"


@contextmanager
def fresh_schema(postgres_url: str) -> Iterator[str]:
    """A URL whose connections work in a fresh schema of their own, dropped on leaving."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield _with_search_path(postgres_url, schema)
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def postgres_schema_url(postgres_url: str) -> Iterator[str]:
    """A URL whose connections work in a fresh schema of their own, dropped after the test."""
    with fresh_schema(postgres_url) as url:
        yield url


@pytest.fixture
def sqlite_path(tmp_path: Path) -> Path:
    return tmp_path / "tablelog.db"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database URL for each backend in turn."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tablelog.db'}"
    return str(request.getfixturevalue("postgres_schema_url"))


LONGEST_FIRST = (
    "tests/pages/test_tournament_evening.py",
    "tests/test_bench_smoke.py",
    "tests/pages/test_pages.py",
    "tests/pages/test_club_from_empty.py",
    "tests/test_faults.py",
    "tests/pages/test_record.py",
    "tests/domain/milles_nautiques/test_property.py",
    "tests/pages/test_crawl_languages.py",
    "tests/domain/memoire44/test_property.py",
)
"""Files whose tests take 10-30 s each (`--durations`), handed out first: pytest-xdist deals tests in
collection order, and these came last (the root's files are collected after the folders'), so one worker
ran them alone while the other had finished (a quarter of a minute of CI)."""


def _longest_first(items: list[pytest.Item]) -> None:
    rank = {path: number for number, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))  # stable: the rest keep order


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The longest tests first (`LONGEST_FIRST`). The schemathesis runs (a few hundred requests against real
    servers) only under `CI=true` or when asked for with `-m schemathesis`: a local run of a slice stays
    quick."""
    _longest_first(items)
    if os.environ.get("CI") == "true" or "schemathesis" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="schemathesis runs under CI=true or with -m schemathesis")
    for item in items:
        if item.get_closest_marker("schemathesis"):
            item.add_marker(skip)
