"""The club's keys, share links and page sessions: made, listed, renamed and revoked.

Who may make which key is the controllers' to decide (`service.http.keys`: the operator any, a club's
`record` key `read` and `spectate` ones); here a key is made for a club that exists, with an expiry in
the future, and a share link for a game, league or campaign of its club. Only hashes are stored: a new
key's or link's token is handed out once.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol

from domain.i18n import Catalogue
from projections.errors import ProjectionError
from service.logs import get_logger
from service.store.access import ApiKey, LinkKind, Scope, ShareLink
from service.store.base import ClubRecords, Collections
from service.usecases.access import new_key, new_session, new_share
from service.usecases.games import GameRecords, NotFound, Records
from service.usecases.lines import Lines, LinesStore

_ = Catalogue("service.usecases")


class KeyStore(LinesStore, ClubRecords, Collections, Protocol):
    """What keys and links read and write: the access records, and the clubs, collections and lines they
    name."""


def aware(moment: datetime) -> datetime:
    """A time without a zone is read as UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class Keys:
    """The key, share-link and page-session use cases of the club's records (`games`)."""

    def __init__(self, games: GameRecords, store: KeyStore) -> None:
        self.games = games
        self.store = store

    @classmethod
    def of(cls, records: Records) -> Keys:
        return cls(records, records.store)

    # -- keys ---------------------------------------------------------------------------------------------
    def create_key(self, club_id: str, name: str, scope: Scope, expires_at: datetime | None) -> tuple[ApiKey, str]:
        """A new key of the club, and its token (shown once: only its hash is kept)."""
        if self.store.get_club(club_id) is None:
            raise NotFound("club", club_id)
        if expires_at is not None and aware(expires_at) <= datetime.now(UTC):
            raise ProjectionError(
                "expiry_in_the_past", _("A key's expiry must be in the future."), expires_at=expires_at.isoformat()
            )
        key_id, token, secret_hash = new_key()
        expires = aware(expires_at) if expires_at is not None else None
        key = self.store.create_api_key(key_id, club_id, name, secret_hash, scope, expires)
        get_logger(club_id=club_id).info("key.created", new_key_id=key_id, scope=scope)
        return key, token

    def keys(self, club_id: str) -> list[ApiKey]:
        return self.store.list_api_keys(club_id)

    def key(self, club_id: str, key_id: str) -> ApiKey:
        """A key of the club (NotFound for another club's)."""
        key = self.store.get_api_key(key_id)
        if key is None or key.club_id != club_id:
            raise NotFound("key", key_id)
        return key

    def rename_key(self, club_id: str, key_id: str, name: str) -> ApiKey:
        self.key(club_id, key_id)
        renamed = self.store.rename_api_key(key_id, name)
        assert renamed is not None
        return renamed

    def revoke_key(self, club_id: str, key_id: str) -> ApiKey:
        self.key(club_id, key_id)
        revoked = self.store.revoke_api_key(key_id)
        assert revoked is not None
        get_logger(club_id=club_id).info("key.revoked", revoked_key_id=key_id)
        return revoked

    # -- share links --------------------------------------------------------------------------------------
    def check_target(self, club_id: str, kind: LinkKind, target_id: str) -> None:
        """The game, league, campaign, tournament or line (`{game}/{line}`) a link is made for exists in the
        club (404 otherwise); a player link's target is its tournament."""
        if kind == "game":
            self.games.game(club_id, target_id)
            return
        if kind == "line":
            game_id, _, line_id = target_id.partition("/")
            Lines(self.games, self.store).find(club_id, game_id, line_id)
            return
        collection = "tournament" if kind == "player" else kind
        if self.store.get_collection(collection, club_id, target_id) is None:
            raise NotFound(collection, target_id)

    def create_share(
        self,
        club_id: str,
        kind: LinkKind,
        target_id: str,
        name: str,
        created_by: str | None,
        player_id: str | None = None,
    ) -> tuple[ShareLink, str]:
        """A new read-only link to one game, league, campaign or tournament, or a player link to a tournament
        for its entry `player_id` (whose entry the caller checked), and its token (shown once)."""
        self.check_target(club_id, kind, target_id)
        share_id, token, secret_hash = new_share()
        link = self.store.create_share_link(
            share_id, club_id, kind, target_id, name or f"{kind} {target_id}", secret_hash, created_by, player_id
        )
        get_logger(club_id=club_id).info("share.created", share_id=share_id, kind=kind, target_id=target_id)
        return link, token

    def shares(self, club_id: str, made_by: str | None = None) -> list[ShareLink]:
        """The club's share links, or only those the key `made_by` made."""
        links = self.store.list_share_links(club_id)
        return links if made_by is None else [link for link in links if link.created_by == made_by]

    def share(self, club_id: str, share_id: str) -> ShareLink:
        """A share link of the club (NotFound for another club's)."""
        link = self.store.get_share_link(share_id)
        if link is None or link.club_id != club_id:
            raise NotFound("share link", share_id)
        return link

    def revoke_share(self, club_id: str, share_id: str) -> ShareLink:
        self.share(club_id, share_id)
        revoked = self.store.revoke_share_link(share_id)
        assert revoked is not None
        return revoked

    def revoke_shares_made_by(self, club_id: str, key_id: str) -> list[ShareLink]:
        """Revoke every live share link the key made (a key's own links, as revoking the key does)."""
        self.key(club_id, key_id)
        made = [link for link in self.shares(club_id, key_id) if link.revoked_at is None]
        return [self.revoke_share(club_id, link.share_id) for link in made]

    # -- page sessions ------------------------------------------------------------------------------------
    def open_session(self, key_id: str, expires_at: datetime) -> str:
        """A page session signed in with the key: the cookie's value (only its hash is kept)."""
        session_id, token, secret_hash = new_session()
        self.store.create_page_session(session_id, key_id, secret_hash, expires_at)
        return token

    def close_session(self, session_id: str) -> None:
        self.store.revoke_page_session(session_id)

    def server_secret(self, name: str) -> str:
        """A secret every worker shares (kept in the database, made on first use)."""
        return self.store.server_secret(name)
