"""`AccessStore` in SQL both backends run: times in the tables of migration 005 are ISO text, so the SQL
lives here once, mixed into both stores through `ReadModelSql` (which supplies connections and
placeholders). Every revocation raises `access_revocations.generation` in the same transaction: a
process that finds the counter moved forgets the credentials it remembered (`service.auth`)."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from service.readmodels import ReadModelSql
from service.store.access import ApiKey, PageSession, Scope, ShareKind, ShareLink
from service.store.base import AlreadyExists


def _now() -> datetime:
    return datetime.now(UTC)


def _when(value: Any) -> datetime:
    """A stored time back as a datetime (PostgreSQL's older columns hand back datetimes, text columns ISO)."""
    return value if isinstance(value, datetime) else datetime.fromisoformat(value)


def _moment(value: Any) -> datetime | None:
    return None if value is None else _when(value)


def _text(moment: datetime | None) -> str | None:
    return moment.astimezone(UTC).isoformat() if moment is not None else None


_KEY_COLUMNS = "key_id, club_id, name, secret_hash, created_at, scope, expires_at, revoked_at"
_SESSION_COLUMNS = "session_id, key_id, secret_hash, created_at, expires_at, revoked_at"
_SHARE_COLUMNS = "share_id, club_id, kind, target_id, name, secret_hash, created_by, created_at, revoked_at"
_BUMP = "UPDATE access_revocations SET generation = generation + 1 WHERE id = 1"


def _key(row: tuple[Any, ...]) -> ApiKey:
    return ApiKey(
        key_id=row[0],
        club_id=row[1],
        name=row[2],
        secret_hash=row[3],
        created_at=_when(row[4]),
        scope=row[5],
        expires_at=_moment(row[6]),
        revoked_at=_moment(row[7]),
    )


def _session(row: tuple[Any, ...]) -> PageSession:
    return PageSession(
        session_id=row[0],
        key_id=row[1],
        secret_hash=row[2],
        created_at=_when(row[3]),
        expires_at=_when(row[4]),
        revoked_at=_moment(row[5]),
    )


def _share(row: tuple[Any, ...]) -> ShareLink:
    return ShareLink(
        share_id=row[0],
        club_id=row[1],
        kind=row[2],
        target_id=row[3],
        name=row[4],
        secret_hash=row[5],
        created_by=row[6],
        created_at=_when(row[7]),
        revoked_at=_moment(row[8]),
    )


class AccessSql(ReadModelSql):
    """`AccessStore` in SQL both backends run (see the module docstring)."""

    # -- API keys ----------------------------------------------------------------------------------
    def create_api_key(
        self,
        key_id: str,
        club_id: str,
        name: str,
        secret_hash: str,
        scope: Scope = "record",
        expires_at: datetime | None = None,
    ) -> ApiKey:
        created = _now()
        with self._rm_write() as conn:
            conn.execute(
                self._q(f"INSERT INTO api_keys ({_KEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)"),
                (key_id, club_id, name, secret_hash, _text(created), scope, _text(expires_at)),
            )
        return ApiKey(
            key_id=key_id,
            club_id=club_id,
            name=name,
            secret_hash=secret_hash,
            created_at=created,
            scope=scope,
            expires_at=expires_at,
        )

    def get_api_key(self, key_id: str) -> ApiKey | None:
        rows = self._rows(f"SELECT {_KEY_COLUMNS} FROM api_keys WHERE key_id = ?", (key_id,))
        return _key(rows[0]) if rows else None

    def list_api_keys(self, club_id: str) -> list[ApiKey]:
        rows = self._rows(
            f"SELECT {_KEY_COLUMNS} FROM api_keys WHERE club_id = ? ORDER BY created_at, key_id", (club_id,)
        )
        return [_key(row) for row in rows]

    def rename_api_key(self, key_id: str, name: str) -> ApiKey | None:
        with self._rm_write() as conn:
            conn.execute(self._q("UPDATE api_keys SET name = ? WHERE key_id = ?"), (name, key_id))
        return self.get_api_key(key_id)

    def revoke_api_key(self, key_id: str) -> ApiKey | None:
        """Revoke a key (and so every session signed in with it); revoking twice keeps the first time."""
        with self._rm_write() as conn:
            conn.execute(
                self._q("UPDATE api_keys SET revoked = ?, revoked_at = coalesce(revoked_at, ?) WHERE key_id = ?"),
                (True, _text(_now()), key_id),
            )
            conn.execute(_BUMP)
        return self.get_api_key(key_id)

    # -- page sessions -------------------------------------------------------------------------------
    def create_page_session(self, session_id: str, key_id: str, secret_hash: str, expires_at: datetime) -> PageSession:
        created = _now()
        with self._rm_write() as conn:
            conn.execute(
                self._q(f"INSERT INTO page_sessions ({_SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, NULL)"),
                (session_id, key_id, secret_hash, _text(created), _text(expires_at)),
            )
        return PageSession(
            session_id=session_id, key_id=key_id, secret_hash=secret_hash, created_at=created, expires_at=expires_at
        )

    def get_page_session(self, session_id: str) -> PageSession | None:
        rows = self._rows(f"SELECT {_SESSION_COLUMNS} FROM page_sessions WHERE session_id = ?", (session_id,))
        return _session(rows[0]) if rows else None

    def revoke_page_session(self, session_id: str) -> None:
        with self._rm_write() as conn:
            conn.execute(
                self._q("UPDATE page_sessions SET revoked_at = coalesce(revoked_at, ?) WHERE session_id = ?"),
                (_text(_now()), session_id),
            )
            conn.execute(_BUMP)

    # -- share links -------------------------------------------------------------------------------
    def create_share_link(
        self,
        share_id: str,
        club_id: str,
        kind: ShareKind,
        target_id: str,
        name: str,
        secret_hash: str,
        created_by: str | None,
    ) -> ShareLink:
        created = _now()
        try:
            with self._rm_write() as conn:
                conn.execute(
                    self._q(f"INSERT INTO share_links ({_SHARE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)"),
                    (share_id, club_id, kind, target_id, name, secret_hash, created_by, _text(created)),
                )
        except self._rm_integrity:
            raise AlreadyExists("share link", share_id) from None
        return ShareLink(
            share_id=share_id,
            club_id=club_id,
            kind=kind,
            target_id=target_id,
            name=name,
            secret_hash=secret_hash,
            created_by=created_by,
            created_at=created,
        )

    def get_share_link(self, share_id: str) -> ShareLink | None:
        rows = self._rows(f"SELECT {_SHARE_COLUMNS} FROM share_links WHERE share_id = ?", (share_id,))
        return _share(rows[0]) if rows else None

    def list_share_links(self, club_id: str) -> list[ShareLink]:
        rows = self._rows(
            f"SELECT {_SHARE_COLUMNS} FROM share_links WHERE club_id = ? ORDER BY created_at, share_id", (club_id,)
        )
        return [_share(row) for row in rows]

    def revoke_share_link(self, share_id: str) -> ShareLink | None:
        with self._rm_write() as conn:
            conn.execute(
                self._q("UPDATE share_links SET revoked_at = coalesce(revoked_at, ?) WHERE share_id = ?"),
                (_text(_now()), share_id),
            )
            conn.execute(_BUMP)
        return self.get_share_link(share_id)

    # -- revocations and secrets -------------------------------------------------------------------
    def access_generation(self) -> int:
        """The revocation counter (raised by every revocation)."""
        rows = self._rows("SELECT generation FROM access_revocations WHERE id = 1")
        return int(rows[0][0]) if rows else 0

    def server_secret(self, name: str) -> str:
        """A random secret made once for the whole server (every worker reads the same)."""
        with self._rm_write() as conn:
            conn.execute(
                self._q("INSERT INTO server_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING"),
                (name, secrets.token_hex(32)),
            )
            row = conn.execute(self._q("SELECT value FROM server_secrets WHERE name = ?"), (name,)).fetchone()
        return str(row[0])
