"""Schema migrations: numbered SQL files per backend, applied in order, each once."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources


@dataclass(frozen=True)
class Migration:
    name: str
    sql: str


@cache
def load_migrations(backend: str) -> list[Migration]:
    """The migrations shipped for `backend` ("postgres" or "sqlite"), in order."""
    folder = resources.files(__package__).joinpath(backend)
    files = sorted((f for f in folder.iterdir() if f.name.endswith(".sql")), key=lambda f: f.name)
    return [Migration(name=f.name.removesuffix(".sql"), sql=f.read_text(encoding="utf-8")) for f in files]
