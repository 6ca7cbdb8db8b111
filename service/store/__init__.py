"""Storage backends behind one interface (`service.store.base.Store`, made of small ones)."""

from __future__ import annotations

from service.store.base import Store


def open_store(url: str, *, pool_size: int = 10) -> Store:
    """Open the store a database URL names: `sqlite:///path/to/file.db` or `postgresql://...`."""
    if url.startswith("sqlite:///"):
        from service.store.sqlite import SqliteStore

        return SqliteStore(url.removeprefix("sqlite:///"))
    if url.startswith(("postgresql://", "postgres://")):
        from service.store.postgres import PostgresStore

        return PostgresStore(url, max_size=pool_size)
    raise ValueError("The database URL must start with sqlite:/// or postgresql://")
