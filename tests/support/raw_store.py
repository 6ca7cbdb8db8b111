"""Raw statements against a store's own database, for tests that check the database itself refuses them
(the events are append-only: a trigger in both backends). Not part of the store: no caller needs them."""

from __future__ import annotations

from typing import cast

from service.store.composed import ComposedStore
from service.store.sql import Database


def _database(store: object) -> Database:
    # Both backends compose their database as the store's schema (`ComposedStore`).
    return cast(Database, cast(ComposedStore, store).schema)


def try_raw_update(store: object, position: int) -> None:
    """Try to change a stored event; the database refuses (ImmutableRecord)."""
    db = _database(store)
    with db.writing() as conn:
        conn.execute(f"UPDATE events SET type = type || '!' WHERE position = {db.dialect.mark}", (position,))


def try_raw_delete(store: object, position: int) -> None:
    """Try to delete a stored event; the database refuses (ImmutableRecord)."""
    db = _database(store)
    with db.writing() as conn:
        conn.execute(f"DELETE FROM events WHERE position = {db.dialect.mark}", (position,))
