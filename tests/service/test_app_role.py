"""Append-only that a compromised app cannot undo (issue 13 part 9), on the real PostgreSQL: the schema is
migrated by its owner, and the app's own role can record and read but cannot change, delete, truncate or
drop the record, nor disable the triggers that keep it append-only."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from litestar.testing import TestClient
from psycopg import errors as pg_errors

from service.app import create_app
from service.settings import Settings
from service.store.roles import app_role, migrate_database
from testkit.waiting import scaled
from tests.conftest import fresh_schema
from tests.service.api_support import OPERATOR, Api
from tests.service.test_projector_support import roll
from tests.support.rulesets import RULESETS

pytestmark = pytest.mark.postgres


@pytest.fixture
def app_url(postgres_url: str) -> Iterator[tuple[str, str]]:
    """(the app role's URL, the owner's URL) for a fresh schema and a login role made for this test only
    (roles belong to the whole server: it is dropped afterwards)."""
    role = f"tablelog_app_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN")
    try:
        with fresh_schema(postgres_url) as owner_url:
            yield owner_url.replace("postgres@", f"{role}@", 1), owner_url
            with psycopg.connect(postgres_url, autocommit=True) as admin:
                admin.execute(f"DROP OWNED BY {role}")  # its grants in this database
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute(f"DROP OWNED BY {role}")
            admin.execute(f"DROP ROLE {role}")


def test_the_app_role_records_and_reads_and_every_way_to_undo_the_record_is_refused(
    app_url: tuple[str, str],
) -> None:
    url, owner = app_url
    assert app_role(url) is not None and app_role(url) != app_role(owner)
    assert "001_record" in migrate_database(url, owner)
    settings = Settings(
        database_url=url, operator_key=OPERATOR, log_format="json", projector_poll_seconds=0.05, live_poll_seconds=0.1
    )
    with TestClient(create_app(settings, rulesets=RULESETS)) as client:
        api = Api(client)
        token, game_id = api.played_game("c1", [roll(0, 3), roll(1, 4)])
        events = client.get(f"/clubs/c1/games/{game_id}/events", headers=api.auth(token)).json()["events"]
        assert [e["data"].get("face") for e in events] == [None, 3, 4]
        # The projector (in this process) writes its read models as the app role too.
        deadline = time.monotonic() + scaled(20)
        while True:
            ready = client.get("/ready", headers=api.auth(OPERATOR)).json()
            lags = ready["checks"]["projections"]
            if lags and all(p["lag"] == 0 and p["checkpoint"] > 0 for p in lags.values()):
                break
            assert time.monotonic() < deadline, ready
            time.sleep(0.1)
    undo = [
        "ALTER TABLE events DISABLE TRIGGER events_append_only",
        "ALTER TABLE events DISABLE TRIGGER ALL",
        "UPDATE events SET type = 'forged'",
        "DELETE FROM events",
        "TRUNCATE events",
        "DROP TABLE events",
        "DROP TRIGGER events_append_only ON events",
        "ALTER TABLE events RENAME TO old_events",
        "CREATE TABLE events_copy (id int)",
        "DELETE FROM schema_migrations",
    ]
    with psycopg.connect(url, autocommit=True) as app:
        for statement in undo:
            with pytest.raises(pg_errors.InsufficientPrivilege):
                app.execute(statement)
    with psycopg.connect(owner, autocommit=True) as conn:
        row = conn.execute("SELECT count(*), count(*) FILTER (WHERE type = 'forged') FROM events").fetchone()
        assert row == (3, 0)
