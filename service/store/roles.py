"""Two PostgreSQL roles, so a compromised app cannot undo the record (issue 13 part 9).

The migration role (`TABLELOG_MIGRATION_DATABASE_URL`) owns the schema: it creates the tables and the
triggers that keep `events` append-only. The app connects as another role (`TABLELOG_DATABASE_URL`'s
user), which `tablelog migrate` grants only what the service does: it reads and appends events (no
UPDATE, DELETE or TRUNCATE on them), writes the other tables, and owns nothing, so it can neither
disable a trigger nor alter, truncate or drop a table (PostgreSQL lets only a table's owner do those).
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict

from service.store import open_store

_APPEND_ONLY = ("events",)
_READ_ONLY = ("schema_migrations",)


def app_role(database_url: str) -> str | None:
    """The role the app connects as (the user named in its URL), or None when the URL names none."""
    if not database_url.startswith(("postgresql://", "postgres://")):
        return None
    user: Any = conninfo_to_dict(database_url).get("user")
    return str(user) if user else None


def grant_app_role(owner_url: str, role: str) -> None:
    """Give `role` what the app needs in the owner's schema, and take back anything more on the record."""
    with psycopg.connect(owner_url, autocommit=True) as conn, conn.transaction():
        row = conn.execute("SELECT current_schema(), current_user").fetchone()
        assert row is not None
        schema, owner = row
        if owner == role:
            return  # one role for both: nothing to restrict (a single-user installation)
        who, where = sql.Identifier(role), sql.Identifier(schema)
        tables = [r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = %s", (schema,))]
        conn.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(where, who))
        conn.execute(sql.SQL("REVOKE CREATE ON SCHEMA {} FROM {}").format(where, who))
        conn.execute(sql.SQL("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {} TO {}").format(where, who))
        for table in tables:
            name = sql.Identifier(schema, table)
            conn.execute(sql.SQL("REVOKE ALL ON {} FROM {}").format(name, who))
            if table in _APPEND_ONLY:
                rights = "SELECT, INSERT"
            elif table in _READ_ONLY:
                rights = "SELECT"
            else:
                rights = "SELECT, INSERT, UPDATE, DELETE"
            conn.execute(sql.SQL("GRANT {} ON {} TO {}").format(sql.SQL(rights), name, who))


def migrate_database(database_url: str, migration_url: str | None, *, pool_size: int = 2) -> list[str]:
    """Apply the migrations as the migration role (`migration_url`, else the app's own URL), then grant the
    app's role what it needs when the two differ. The names of the migrations applied."""
    store = open_store(migration_url or database_url, pool_size=pool_size)
    try:
        applied = store.migrate()
    finally:
        store.close()
    role = app_role(database_url)
    if migration_url and role:
        grant_app_role(migration_url, role)
    return applied
