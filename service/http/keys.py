"""The club's keys and share links over the API.

Keys: the operator creates any key; a club's `record` key may list, name and revoke its own club's keys
and create `read` and `spectate` keys for it (not `record` ones: handing out write access stays with the
operator). Share links: a `record` key makes a read-only link to one game, league or campaign of its
club and revokes it; whoever holds the link sees that one thing, as a spectator would.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import msgspec
from litestar import Controller, get, patch, post
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.exceptions import PermissionDeniedException
from litestar.params import FromPath, FromQuery, JSONBody

from service.http.dependencies import RequestContext
from service.http.guards import GUARDS, KEYS
from service.limits import check_moment
from service.usecases.access import Principal
from service.usecases.games import Records
from service.usecases.keys import Keys
from service.usecases.types import ApiKey, LinkKind, Scope, ShareKind, ShareLink

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
    """A read-only link to one game, league, campaign or tournament of the club, or one "what if" line of a
    game (`kind` `line`, `target_id` `{game_id}/{line_id}`), read as a spectator reads the game."""

    kind: ShareKind
    target_id: _ID
    name: Annotated[str, msgspec.Meta(max_length=200)] = ""


class ShareOut(msgspec.Struct, frozen=True, kw_only=True):
    """A share link; a player link (`kind` `player`) opens tournament `target_id` as its entry `player_id`."""

    share_id: str
    club_id: str
    kind: LinkKind
    target_id: str
    name: str
    created_at: datetime
    revoked_at: datetime | None
    made_by: str | None = None
    """The id of the key that made the link (a page session's key, for one made on the pages): the link
    works while that key does."""
    player_id: str | None = None


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
        made_by=link.created_by,
        player_id=link.player_id,
    )


def create_key(records: Records, principal: Principal, club_id: str, data: KeyIn) -> KeyCreated:
    """Make a key for a club (see the module docstring for who may make which)."""
    if not principal.operator and data.scope == "record":
        raise PermissionDeniedException(detail="Only the operator key may create record keys.")
    check_moment("expires_at", data.expires_at)  # 9999-12-31T23:59:59-14:00 is past what a store keeps
    key, token = Keys.of(records).create_key(club_id, data.name, data.scope, data.expires_at)
    return KeyCreated(
        key_id=key.key_id, club_id=club_id, name=key.name, scope=key.scope, expires_at=key.expires_at, token=token
    )


def create_share(records: Records, principal: Principal, club_id: str, data: ShareIn) -> ShareCreated:
    link, token = Keys.of(records).create_share(club_id, data.kind, data.target_id, data.name, principal.key_id)
    return ShareCreated(share=share_out(link), token=token, path=f"/share/{token}")


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
        context: NamedDependency[RequestContext],
    ) -> KeyCreated:
        return create_key(context.records, context.principal, club_id, data)

    @get("/", sync_to_thread=True, opt=KEYS, summary="The club's keys (never their tokens)")
    def list_keys(self, club_id: FromPath[str], state: State) -> list[KeyOut]:
        return [key_out(k) for k in Keys.of(state.records).keys(club_id)]

    @patch("/{key_id:str}", sync_to_thread=True, opt=KEYS, summary="Rename a key")
    def rename_key(
        self,
        club_id: FromPath[str],
        key_id: FromPath[str],
        data: JSONBody[KeyRename],
        context: NamedDependency[RequestContext],
    ) -> KeyOut:
        return key_out(Keys.of(context.records).rename_key(club_id, key_id, data.name))

    @post(
        "/{key_id:str}/revoke",
        sync_to_thread=True,
        opt=KEYS,
        status_code=200,
        summary="Revoke a key: refused from its next request on every worker; its sessions and live streams end",
    )
    def revoke_key(
        self, club_id: FromPath[str], key_id: FromPath[str], context: NamedDependency[RequestContext], state: State
    ) -> KeyOut:
        revoked = Keys.of(context.records).revoke_key(club_id, key_id)
        state.authenticator.settle()
        return key_out(revoked)


class ShareController(Controller):
    path = "/clubs/{club_id:str}/shares"
    tags = ("share links",)
    guards = GUARDS

    @post(
        "/",
        sync_to_thread=True,
        summary="Make a read-only link to one game, league, campaign or tournament (record key)",
    )
    def create_share(
        self,
        club_id: FromPath[str],
        data: JSONBody[ShareIn],
        context: NamedDependency[RequestContext],
    ) -> ShareCreated:
        return create_share(context.records, context.principal, club_id, data)

    @get("/", sync_to_thread=True, summary="The club's share links (never their tokens), or one key's")
    def list_shares(
        self, club_id: FromPath[str], state: State, made_by: FromQuery[str | None] = None
    ) -> list[ShareOut]:
        return [share_out(s) for s in Keys.of(state.records).shares(club_id, made_by)]

    @post("/revoke", sync_to_thread=True, status_code=200, summary="Revoke every share link one key made")
    def revoke_shares(
        self, club_id: FromPath[str], made_by: FromQuery[str], context: NamedDependency[RequestContext], state: State
    ) -> list[ShareOut]:
        revoked = Keys.of(context.records).revoke_shares_made_by(club_id, made_by)
        state.authenticator.settle()
        return [share_out(s) for s in revoked]

    @post("/{share_id:str}/revoke", sync_to_thread=True, status_code=200, summary="Revoke a share link")
    def revoke_share(
        self, club_id: FromPath[str], share_id: FromPath[str], context: NamedDependency[RequestContext], state: State
    ) -> ShareOut:
        revoked = Keys.of(context.records).revoke_share(club_id, share_id)
        state.authenticator.settle()
        return share_out(revoked)


HANDLERS = [KeyController, ShareController]
