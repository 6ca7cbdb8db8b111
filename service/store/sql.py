"""What the SQL both backends share needs from a backend: its connections and its SQL dialect.

The tables of the read models, the collections and the access records keep times as ISO text and JSON
as text on both databases, so their SQL is written once (`service.store.readmodels`, `service.store.access_sql`),
in classes composed with a backend's `Database`. It is written with `?` marks; `Dialect.prepare` turns
a set of statements into the driver's own parameter style once, when a store opens.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol, TypeVar

S = TypeVar("S")


@dataclasses.dataclass(frozen=True)
class Dialect:
    """What differs between the drivers in the shared SQL."""

    mark: str
    """The driver's placeholder (`?` for sqlite3, `%s` for psycopg)."""
    projection_tx: tuple[str, ...] = ()
    """Statements that open a projection's transaction."""

    def prepare(self, statements: S) -> S:
        """A set of statements (a frozen dataclass of SQL texts written with `?` marks) in this driver's
        parameter style. Done once per store: the statements are ready when a call runs them."""
        assert dataclasses.is_dataclass(statements) and not isinstance(statements, type)
        ready = {f.name: self._statement(getattr(statements, f.name)) for f in dataclasses.fields(statements)}
        return dataclasses.replace(statements, **ready)

    def _statement(self, sql: str) -> str:
        """One statement written with `?` marks in this driver's style (a literal `%` doubled for psycopg,
        which reads `%` as the start of a placeholder; the shared SQL has no literal `?`)."""
        return sql if self.mark == "?" else sql.replace("%", "%%").replace("?", self.mark)

    def marks(self, count: int) -> str:
        """`count` placeholders for an IN list."""
        return ", ".join([self.mark] * count)


SQLITE = Dialect(mark="?")
POSTGRES = Dialect(
    mark="%s",
    # A projection's rows and checkpoint commit together; if the server crashes before the commit reaches
    # the disk both are lost together and the runner applies the batch again: still exactly once.
    projection_tx=("SET LOCAL synchronous_commit = off",),
)


class Cursor(Protocol):
    def fetchone(self) -> Any: ...
    def fetchall(self) -> Sequence[Any]: ...
    def executemany(self, sql: str, params: Sequence[Sequence[Any]], /) -> Any: ...


class Connection(Protocol):
    """A connection of either driver, as the shared SQL uses it. Its errors come out translated into the
    store's own (`service.store.base`): each backend translates its driver's in one place."""

    def execute(self, sql: str, params: Sequence[Any] = (), /) -> Cursor: ...
    def cursor(self) -> Cursor: ...


class Database(Protocol):
    """A backend's connections, composed into the classes of shared SQL."""

    dialect: Dialect

    def writing(self) -> AbstractContextManager[Connection]:
        """A connection in a transaction, committed when the block ends (rolled back on an error)."""
        ...

    def records(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """The rows of a query (of statements this dialect prepared), each by column name."""
        ...
