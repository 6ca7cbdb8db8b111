"""Access records: API keys with their scope and expiry, page sessions, share links, the revocation
counter every process reads, and the server's own secrets; and the part of the store that keeps them
(`AccessStore`, implemented once for both backends in `service.store.access_sql`)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal, Protocol

import msgspec

Scope = Literal["record", "read", "spectate"]
SCOPES: tuple[Scope, ...] = ("record", "read", "spectate")
ShareKind = Literal["game", "league", "campaign", "tournament", "line"]
"""A line's link targets `{game}/{line}` (a "what if" line of a game, `service.usecases.lines`)."""
LinkKind = Literal["game", "league", "campaign", "tournament", "line", "player"]
"""What a stored link opens: a share link's one game, league, campaign, tournament or line (`ShareKind`), or
a player link's entry of a tournament (`player`: its `target_id` the tournament, its `player_id` the entry's
player)."""


class ApiKey(msgspec.Struct, frozen=True, kw_only=True):
    """A club's API key as stored: only the SHA-256 of its secret is kept."""

    key_id: str
    club_id: str
    name: str
    secret_hash: str
    created_at: datetime
    scope: Scope = "record"
    expires_at: datetime | None = None
    revoked_at: datetime | None = None

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None

    def usable(self, now: datetime) -> bool:
        """Neither revoked nor expired at `now`."""
        return self.revoked_at is None and (self.expires_at is None or now < self.expires_at)


class PageSession(msgspec.Struct, frozen=True, kw_only=True):
    """A signed-in browser, standing for the key it signed in with."""

    session_id: str
    key_id: str
    secret_hash: str
    created_at: datetime
    expires_at: datetime
    revoked_at: datetime | None = None


class ShareLink(msgspec.Struct, frozen=True, kw_only=True):
    """A read-only link to one game, league or campaign of a club, or a player link (`kind` `player`): one
    entry's way into its tournament (`target_id`) as that player (`player_id`)."""

    share_id: str
    club_id: str
    kind: LinkKind
    target_id: str
    name: str
    secret_hash: str
    created_by: str | None
    created_at: datetime
    revoked_at: datetime | None = None
    player_id: str | None = None


class AccessStore(Protocol):
    """The part of the store that keeps who may do what."""

    def create_api_key(
        self,
        key_id: str,
        club_id: str,
        name: str,
        secret_hash: str,
        scope: Scope = "record",
        expires_at: datetime | None = None,
    ) -> ApiKey: ...
    def get_api_key(self, key_id: str) -> ApiKey | None: ...
    def list_api_keys(self, club_id: str) -> list[ApiKey]: ...
    def rename_api_key(self, key_id: str, name: str) -> ApiKey | None: ...
    def revoke_api_key(self, key_id: str) -> ApiKey | None: ...
    def create_page_session(
        self, session_id: str, key_id: str, secret_hash: str, expires_at: datetime
    ) -> PageSession: ...
    def get_page_session(self, session_id: str) -> PageSession | None: ...
    def revoke_page_session(self, session_id: str) -> None: ...
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
    ) -> ShareLink: ...
    def get_share_link(self, share_id: str) -> ShareLink | None: ...
    def list_share_links(self, club_id: str) -> list[ShareLink]: ...
    def revoke_share_link(self, share_id: str) -> ShareLink | None: ...
    def access_generation(self) -> int: ...
    def server_secret(self, name: str) -> str: ...
