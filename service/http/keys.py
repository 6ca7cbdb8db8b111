"""The club's keys and share links over the API.

Keys: the operator creates any key; a club's `record` key may list, name and revoke its own club's keys
and create `read` and `spectate` keys for it (not `record` ones: handing out write access stays with the
operator). Share links: a `record` key makes a read-only link to one game, league or campaign of its
club and revokes it; whoever holds the link sees that one thing, as a spectator would.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

import msgspec
from litestar import Controller, get, patch, post
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.exceptions import PermissionDeniedException
from litestar.params import FromPath, JSONBody

from projections.errors import ProjectionError
from service.http.guards import GUARDS, KEYS
from service.limits import check_moment
from service.logs import get_logger
from service.store.access import ApiKey, Scope, ShareKind, ShareLink
from service.usecases.access import Principal, new_key, new_share
from service.usecases.games import GameRecords, NotFound

_NAME = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
_ID = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class KeyIn(msgspec.Struct, frozen=True, kw_only=True):
    """A new key: its name, its scope (`record`: writes and every view; `read`: every view, no writes;
    `spectate`: public views behind the spectator delay) and, optionally, when it stops working."""

    name: _NAME
    scope: Scope = "record"
    expires_at: datetime | None = None


class KeyCreated(msgspec.Struct, frozen=True, kw_only=True):
    """A new API key. The token is shown once: only its hash is kept."""

    key_id: str
    club_id: str
    name: str
    scope: Scope
    expires_at: datetime | None
    token: str


class KeyOut(msgspec.Struct, frozen=True, kw_only=True):
    key_id: str
    club_id: str
    name: str
    scope: Scope
    created_at: datetime
    expires_at: datetime | None
    revoked_at: datetime | None


class KeyRename(msgspec.Struct, frozen=True, kw_only=True):
    name: _NAME


class ShareIn(msgspec.Struct, frozen=True, kw_only=True):
    """A read-only link to one game, league or campaign of the club."""

    kind: ShareKind
    target_id: _ID
    name: Annotated[str, msgspec.Meta(max_length=200)] = ""


class ShareOut(msgspec.Struct, frozen=True, kw_only=True):
    share_id: str
    club_id: str
    kind: ShareKind
    target_id: str
    name: str
    created_at: datetime
    revoked_at: datetime | None


class ShareCreated(msgspec.Struct, frozen=True, kw_only=True):
    """A new share link. `path` is the page to hand out (append it to the server's address); `token` is
    shown once and also opens the live stream of a shared game (`/share/{token}/live`)."""

    share: ShareOut
    token: str
    path: str


def key_out(key: ApiKey) -> KeyOut:
    return KeyOut(
        key_id=key.key_id,
        club_id=key.club_id,
        name=key.name,
        scope=key.scope,
        created_at=key.created_at,
        expires_at=key.expires_at,
        revoked_at=key.revoked_at,
    )


def share_out(link: ShareLink) -> ShareOut:
    return ShareOut(
        share_id=link.share_id,
        club_id=link.club_id,
        kind=link.kind,
        target_id=link.target_id,
        name=link.name,
        created_at=link.created_at,
        revoked_at=link.revoked_at,
    )


def create_key(records: GameRecords, principal: Principal, club_id: str, data: KeyIn) -> KeyCreated:
    """Make a key for a club (see the module docstring for who may make which)."""
    if not principal.operator and data.scope == "record":
        raise PermissionDeniedException(detail="Only the operator key may create record keys.")
    if records.store.get_club(club_id) is None:
        raise NotFound("club", club_id)
    check_moment("expires_at", data.expires_at)  # 9999-12-31T23:59:59-14:00 is past what a store keeps
    if data.expires_at is not None and _aware(data.expires_at) <= datetime.now(UTC):
        raise ProjectionError(
            "expiry_in_the_past", "A key's expiry must be in the future.", expires_at=data.expires_at.isoformat()
        )
    key_id, token, secret_hash = new_key()
    expires = _aware(data.expires_at) if data.expires_at is not None else None
    key = records.store.create_api_key(key_id, club_id, data.name, secret_hash, data.scope, expires)
    get_logger(club_id=club_id).info("key.created", new_key_id=key_id, scope=data.scope)
    return KeyCreated(
        key_id=key.key_id, club_id=club_id, name=key.name, scope=key.scope, expires_at=key.expires_at, token=token
    )


def club_key(records: GameRecords, club_id: str, key_id: str) -> ApiKey:
    key = records.store.get_api_key(key_id)
    if key is None or key.club_id != club_id:
        raise NotFound("key", key_id)
    return key


def check_target(records: GameRecords, club_id: str, kind: ShareKind, target_id: str) -> None:
    """The game, league or campaign a link is made for exists in the club (404 otherwise)."""
    if kind == "game":
        records.game(club_id, target_id)
    elif records.store.get_collection(kind, club_id, target_id) is None:
        raise NotFound(kind, target_id)


def create_share(records: GameRecords, principal: Principal, club_id: str, data: ShareIn) -> ShareCreated:
    check_target(records, club_id, data.kind, data.target_id)
    share_id, token, secret_hash = new_share()
    link = records.store.create_share_link(
        share_id,
        club_id,
        data.kind,
        data.target_id,
        data.name or f"{data.kind} {data.target_id}",
        secret_hash,
        principal.key_id,
    )
    get_logger(club_id=club_id).info("share.created", share_id=share_id, kind=data.kind, target_id=data.target_id)
    return ShareCreated(share=share_out(link), token=token, path=f"/share/{token}")


def club_share(records: GameRecords, club_id: str, share_id: str) -> ShareLink:
    link = records.store.get_share_link(share_id)
    if link is None or link.club_id != club_id:
        raise NotFound("share link", share_id)
    return link


def _aware(moment: datetime) -> datetime:
    """A time without a zone is read as UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class KeyController(Controller):
    path = "/clubs/{club_id:str}/keys"
    tags = ("keys",)
    guards = GUARDS

    @post(
        "/",
        sync_to_thread=True,
        opt=KEYS,
        summary="Create an API key (operator: any scope; a club's record key: read or spectate keys)",
    )
    def create_key(
        self,
        club_id: FromPath[str],
        data: JSONBody[KeyIn],
        principal: NamedDependency[Principal],
        records: NamedDependency[GameRecords],
    ) -> KeyCreated:
        return create_key(records, principal, club_id, data)

    @get("/", sync_to_thread=True, opt=KEYS, summary="The club's keys (never their tokens)")
    def list_keys(self, club_id: FromPath[str], state: State) -> list[KeyOut]:
        return [key_out(k) for k in state.store.list_api_keys(club_id)]

    @patch("/{key_id:str}", sync_to_thread=True, opt=KEYS, summary="Rename a key")
    def rename_key(
        self,
        club_id: FromPath[str],
        key_id: FromPath[str],
        data: JSONBody[KeyRename],
        records: NamedDependency[GameRecords],
    ) -> KeyOut:
        club_key(records, club_id, key_id)
        renamed = records.store.rename_api_key(key_id, data.name)
        assert renamed is not None
        return key_out(renamed)

    @post(
        "/{key_id:str}/revoke",
        sync_to_thread=True,
        opt=KEYS,
        status_code=200,
        summary="Revoke a key: refused from its next request on every worker; its sessions and live streams end",
    )
    def revoke_key(
        self, club_id: FromPath[str], key_id: FromPath[str], records: NamedDependency[GameRecords], state: State
    ) -> KeyOut:
        club_key(records, club_id, key_id)
        revoked = records.store.revoke_api_key(key_id)
        assert revoked is not None
        state.authenticator.settle()
        get_logger(club_id=club_id).info("key.revoked", revoked_key_id=key_id)
        return key_out(revoked)


class ShareController(Controller):
    path = "/clubs/{club_id:str}/shares"
    tags = ("share links",)
    guards = GUARDS

    @post("/", sync_to_thread=True, summary="Make a read-only link to one game, league or campaign (record key)")
    def create_share(
        self,
        club_id: FromPath[str],
        data: JSONBody[ShareIn],
        principal: NamedDependency[Principal],
        records: NamedDependency[GameRecords],
    ) -> ShareCreated:
        return create_share(records, principal, club_id, data)

    @get("/", sync_to_thread=True, summary="The club's share links (never their tokens)")
    def list_shares(self, club_id: FromPath[str], state: State) -> list[ShareOut]:
        return [share_out(s) for s in state.store.list_share_links(club_id)]

    @post("/{share_id:str}/revoke", sync_to_thread=True, status_code=200, summary="Revoke a share link")
    def revoke_share(
        self, club_id: FromPath[str], share_id: FromPath[str], records: NamedDependency[GameRecords], state: State
    ) -> ShareOut:
        club_share(records, club_id, share_id)
        revoked = records.store.revoke_share_link(share_id)
        assert revoked is not None
        state.authenticator.settle()
        return share_out(revoked)


HANDLERS = [KeyController, ShareController]
