"""`AccessStore` in SQL both backends run: times in the tables of migration 005 are ISO text, so the SQL
lives here once, in `AccessTables`, composed with a backend's `Database` (its connections and dialect).
Every revocation raises `access_revocations.generation` in the same transaction: a process that finds
the counter moved forgets the credentials it remembered (`service.usecases.access`)."""

from __future__ import annotations

import dataclasses
import secrets
from datetime import UTC, datetime

import msgspec

from service.store.access import ApiKey, LinkKind, PageSession, Scope, ShareLink
from service.store.base import AlreadyExists, Duplicate
from service.store.sql import Database


def _now() -> datetime:
    return datetime.now(UTC)


def _text(moment: datetime | None) -> str | None:
    return moment.astimezone(UTC).isoformat() if moment is not None else None


_KEY_COLUMNS = "key_id, club_id, name, secret_hash, created_at, scope, expires_at, revoked_at"
_SESSION_COLUMNS = "session_id, key_id, secret_hash, created_at, expires_at, revoked_at"
_SHARE_COLUMNS = "share_id, club_id, kind, target_id, name, secret_hash, created_by, created_at, revoked_at, player_id"


@dataclasses.dataclass(frozen=True)
class _AccessSql:
    create_key: str = f"INSERT INTO api_keys ({_KEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)"
    key: str = f"SELECT {_KEY_COLUMNS} FROM api_keys WHERE key_id = ?"
    keys: str = f"SELECT {_KEY_COLUMNS} FROM api_keys WHERE club_id = ? ORDER BY created_at, key_id"
    rename_key: str = "UPDATE api_keys SET name = ? WHERE key_id = ?"
    revoke_key: str = "UPDATE api_keys SET revoked = ?, revoked_at = coalesce(revoked_at, ?) WHERE key_id = ?"
    create_session: str = f"INSERT INTO page_sessions ({_SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, NULL)"
    session: str = f"SELECT {_SESSION_COLUMNS} FROM page_sessions WHERE session_id = ?"
    revoke_session: str = "UPDATE page_sessions SET revoked_at = coalesce(revoked_at, ?) WHERE session_id = ?"
    create_share: str = f"INSERT INTO share_links ({_SHARE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)"
    share: str = f"SELECT {_SHARE_COLUMNS} FROM share_links WHERE share_id = ?"
    shares: str = f"SELECT {_SHARE_COLUMNS} FROM share_links WHERE club_id = ? ORDER BY created_at, share_id"
    revoke_share: str = "UPDATE share_links SET revoked_at = coalesce(revoked_at, ?) WHERE share_id = ?"
    revoked: str = "UPDATE access_revocations SET generation = generation + 1 WHERE id = 1"
    generation: str = "SELECT generation FROM access_revocations WHERE id = 1"
    make_secret: str = "INSERT INTO server_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING"
    secret: str = "SELECT value FROM server_secrets WHERE name = ?"


class AccessTables:
    """`AccessStore` in SQL both backends run (see the module docstring)."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._sql = db.dialect.prepare(_AccessSql())

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
        with self._db.writing() as conn:
            conn.execute(
                self._sql.create_key, (key_id, club_id, name, secret_hash, _text(created), scope, _text(expires_at))
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
        rows = self._db.records(self._sql.key, (key_id,))
        return msgspec.convert(rows[0], ApiKey) if rows else None

    def list_api_keys(self, club_id: str) -> list[ApiKey]:
        return [msgspec.convert(row, ApiKey) for row in self._db.records(self._sql.keys, (club_id,))]

    def rename_api_key(self, key_id: str, name: str) -> ApiKey | None:
        with self._db.writing() as conn:
            conn.execute(self._sql.rename_key, (name, key_id))
        return self.get_api_key(key_id)

    def revoke_api_key(self, key_id: str) -> ApiKey | None:
        """Revoke a key (and so every session signed in with it); revoking twice keeps the first time."""
        with self._db.writing() as conn:
            conn.execute(self._sql.revoke_key, (True, _text(_now()), key_id))
            conn.execute(self._sql.revoked)
        return self.get_api_key(key_id)

    # -- page sessions -------------------------------------------------------------------------------
    def create_page_session(self, session_id: str, key_id: str, secret_hash: str, expires_at: datetime) -> PageSession:
        created = _now()
        with self._db.writing() as conn:
            conn.execute(self._sql.create_session, (session_id, key_id, secret_hash, _text(created), _text(expires_at)))
        return PageSession(
            session_id=session_id, key_id=key_id, secret_hash=secret_hash, created_at=created, expires_at=expires_at
        )

    def get_page_session(self, session_id: str) -> PageSession | None:
        rows = self._db.records(self._sql.session, (session_id,))
        return msgspec.convert(rows[0], PageSession) if rows else None

    def revoke_page_session(self, session_id: str) -> None:
        with self._db.writing() as conn:
            conn.execute(self._sql.revoke_session, (_text(_now()), session_id))
            conn.execute(self._sql.revoked)

    # -- share links -------------------------------------------------------------------------------
    def create_share_link(
        self,
        share_id: str,
        club_id: str,
        kind: LinkKind,
        target_id: str,
        name: str,
        secret_hash: str,
        created_by: str | None,
        player_id: str | None = None,
    ) -> ShareLink:
        created = _now()
        try:
            with self._db.writing() as conn:
                conn.execute(
                    self._sql.create_share,
                    (share_id, club_id, kind, target_id, name, secret_hash, created_by, _text(created), player_id),
                )
        except Duplicate:
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
            player_id=player_id,
        )

    def get_share_link(self, share_id: str) -> ShareLink | None:
        rows = self._db.records(self._sql.share, (share_id,))
        return msgspec.convert(rows[0], ShareLink) if rows else None

    def list_share_links(self, club_id: str) -> list[ShareLink]:
        return [msgspec.convert(row, ShareLink) for row in self._db.records(self._sql.shares, (club_id,))]

    def revoke_share_link(self, share_id: str) -> ShareLink | None:
        with self._db.writing() as conn:
            conn.execute(self._sql.revoke_share, (_text(_now()), share_id))
            conn.execute(self._sql.revoked)
        return self.get_share_link(share_id)

    # -- revocations and secrets -------------------------------------------------------------------
    def access_generation(self) -> int:
        """The revocation counter (raised by every revocation)."""
        rows = self._db.records(self._sql.generation)
        return int(rows[0]["generation"]) if rows else 0

    def server_secret(self, name: str) -> str:
        """A random secret made once for the whole server (every worker reads the same)."""
        with self._db.writing() as conn:
            conn.execute(self._sql.make_secret, (name, secrets.token_hex(32)))
            row = conn.execute(self._sql.secret, (name,)).fetchone()
        return str(row[0])
