"""Append-only that the application itself cannot undo: the database refuses every statement that
would replace a stored event, whatever the connection asks for."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg
import pytest

from service.store import open_store
from service.store.base import AppendRequest, NewEvent, Recorder

BY = Recorder(club_id="c1")
COLUMNS = "stream_id, version, type, schema_version, data, recorded_at, club_id"


def _recorded(url: str) -> None:
    store = open_store(url)
    try:
        store.migrate()
        store.append(
            AppendRequest(
                "g1", [NewEvent(type="tally.rolled", schema_version=1, data=b'{"face": 6}')], 0, recorded_by=BY
            )
        )
    finally:
        store.close()


def test_sqlite_refuses_insert_or_replace_over_an_event(tmp_path: Path) -> None:
    path = tmp_path / "tablelog.db"
    _recorded(f"sqlite:///{path}")
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        (position,) = conn.execute("SELECT position FROM events").fetchone()
        for statement, values in (
            (
                f"INSERT OR REPLACE INTO events ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                ("g1", 1, "tally.rolled", 1, '{"face": 1}', "2026-01-01T00:00:00+00:00", "c1"),
            ),
            (
                f"REPLACE INTO events (position, {COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (position, "other", 1, "tally.rolled", 1, '{"face": 1}', "2026-01-01T00:00:00+00:00", "c1"),
            ),
        ):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                conn.execute(statement, values)
        conn.execute("PRAGMA recursive_triggers = ON")  # what the connection asks for does not matter
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute(
                f"INSERT OR REPLACE INTO events ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                ("g1", 1, "tally.rolled", 1, '{"face": 1}', "2026-01-01T00:00:00+00:00", "c1"),
            )
        assert conn.execute("SELECT position, data FROM events").fetchall() == [(position, '{"face": 6}')]
    finally:
        conn.close()


@pytest.mark.postgres
def test_postgresql_refuses_an_upsert_over_an_event(postgres_schema_url: str) -> None:
    _recorded(postgres_schema_url)
    with psycopg.connect(postgres_schema_url, autocommit=True) as conn:
        row = conn.execute("SELECT position, data::text FROM events").fetchone()
        assert row is not None
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only"):
            conn.execute(
                "INSERT INTO events (position, stream_id, version, type, schema_version, data, club_id) "
                "VALUES (%s, 'g1', 1, 'tally.rolled', 1, '{\"face\": 1}', 'c1') "
                "ON CONFLICT (position) DO UPDATE SET data = excluded.data",
                (row[0],),
            )
        assert conn.execute("SELECT position, data::text FROM events").fetchall() == [row]
