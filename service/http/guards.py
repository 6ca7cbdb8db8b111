"""Who may call what: one litestar guard on every API controller, reading what a handler needs from its
`opt` (default: `read` for GET, `write` otherwise), so no handler checks access itself.

| needs      | operator | record | read | spectate                      |
|------------|----------|--------|------|-------------------------------|
| `operator` | yes      | no     | no   | no                            |
| `keys`     | yes      | yes    | no   | no                            |
| `write`    | yes      | yes    | no   | no                            |
| `read`     | yes      | yes    | yes  | no                            |
| `public`   | yes      | yes    | yes  | only `view=public`, delayed   |
| `player`   | no       | no     | no   | no                            |

`player` routes (a tournament entry's own: `/clubs/{club}/tournaments/{tournament}/me...`) take a player
link's token (`sh_…`, a share link of kind `player`) as the bearer token, for its own tournament only; no
other route takes a share link's token (it is no key: 401).

A club's key reaches only its own club. A spectate key's reads are held back by each game's spectator
delay (`service.usecases.spectators`), as the live stream is.
"""

from __future__ import annotations

import hmac
from typing import Any, Literal

import anyio.to_thread
from litestar.connection import ASGIConnection
from litestar.exceptions import NotAuthorizedException, PermissionDeniedException
from litestar.handlers.base import BaseRouteHandler

from service.usecases.access import Principal
from service.usecases.clubs import Clubs

Needs = Literal["operator", "keys", "write", "read", "public", "player"]

OPERATOR: dict[str, Any] = {"needs": "operator"}
KEYS: dict[str, Any] = {"needs": "keys"}
PUBLIC: dict[str, Any] = {"needs": "public"}
"""Handler `opt`s: `@get(..., opt=PUBLIC)` lets a spectate key read it (public view, delayed)."""
PLAYER: dict[str, Any] = {"needs": "player"}
"""A tournament entry's own route: its player link alone may call it."""


def bearer(connection: ASGIConnection[Any, Any, Any, Any]) -> str | None:
    header = connection.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def needs_of(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> Needs:
    needs = handler.opt.get("needs")
    if needs is not None:
        return needs
    return "read" if connection.scope.get("method") in ("GET", "HEAD") else "write"


def check(principal: Principal, needs: Needs, club_id: str | None, view: str | None) -> None:
    """Raise PermissionDeniedException (403) when `principal` may not do what a handler `needs`."""
    share = principal.share
    if needs == "player" or (share is not None and share.kind == "player"):
        if club_id is not None and principal.club_id != club_id and not principal.operator:
            what = "key" if share is None else "player link"
            raise PermissionDeniedException(detail=f"This {what} belongs to another club.")
        if needs != "player" or share is None or share.kind != "player":
            raise PermissionDeniedException(detail="Only a player's own link may do this.")
        return
    if principal.operator:
        return
    if needs == "operator":
        raise PermissionDeniedException(detail="Only the operator key may do this.")
    if club_id is not None and principal.club_id != club_id:
        raise PermissionDeniedException(detail="This key belongs to another club.")
    access = principal.access
    if needs in ("keys", "write") and access != "record":
        what = "manage the club's keys" if needs == "keys" else "change the record"
        raise PermissionDeniedException(detail=f"A {access} key may not {what}: it needs a record key.")
    if needs == "read" and access not in ("record", "read"):
        raise PermissionDeniedException(detail=f"A {access} key sees public views only; this needs a read key.")
    if needs == "public" and not principal.sees_hidden and view not in (None, "public"):
        raise PermissionDeniedException(detail=f"A {access} key sees the public view only.")


NO_OPERATOR_KEY = (
    "No valid key was sent, and this server has no operator key (TABLELOG_OPERATOR_KEY is not set), so no key "
    "can create clubs over HTTP. Restart it with TABLELOG_OPERATOR_KEY=<a secret> and send that as the bearer "
    "token, or make a club and its key on the command line: .venv/bin/tablelog club create CLUB NAME, then "
    ".venv/bin/tablelog key create CLUB."
)


def unauthorized(authenticator: Any) -> NotAuthorizedException:
    """The 401 for a request without a valid key; on a server without an operator key it says why no key
    can create clubs (the first minutes of a new user)."""
    return NotAuthorizedException() if authenticator.operator_key else NotAuthorizedException(NO_OPERATOR_KEY)


async def authorize(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    """The API guard: a bearer key (401 without a valid one), allowed what the handler needs (403), and
    for the operator a club that exists (404, as `club_exists`: one guard, as litestar copies the handler
    for each guard it runs, a tenth of an append's CPU for two; bench/).
    Guards are coroutines: litestar runs a plain function guard in a worker thread, a hop that cost more
    than the rest of an append's work (bench/); a key not remembered is read in one."""
    authenticator = connection.app.state.authenticator
    token = bearer(connection)
    if needs_of(connection, handler) == "player":  # a player link's token, never a key
        await _player(connection, authenticator, token)
        return
    principal = await authenticator.found(token)
    club_id = connection.path_params.get("club_id")
    if principal is not None and principal.operator:
        await _existing(connection, club_id)
    if principal is None:
        raise unauthorized(connection.app.state.authenticator)
    check(principal, needs_of(connection, handler), club_id, connection.query_params.get("view"))
    connection.scope["state"]["principal"] = principal


async def _player(connection: ASGIConnection[Any, Any, Any, Any], authenticator: Any, token: str | None) -> None:
    """A player route's caller: a player link (401 without one; 403 for another kind of token, and for
    a link to another club's or tournament)."""
    principal = await authenticator.found(token, "share")
    if principal is None:
        known = await authenticator.found(token)
        if not known:
            raise unauthorized(authenticator)
        principal = known  # a key: refused below, as another club's first where it is one
    check(principal, "player", connection.path_params.get("club_id"), None)
    share = principal.share
    assert share is not None
    if connection.path_params.get("tournament_id") != share.target_id:
        raise PermissionDeniedException(detail="This player link is for another tournament.")
    connection.scope["state"]["principal"] = principal


GUARDS = [authorize]


def is_operator(connection: ASGIConnection[Any, Any, Any, Any]) -> bool:
    """Whether the request carries the operator key (compared in constant time)."""
    operator_key = connection.app.state.settings.operator_key
    token = bearer(connection)
    return bool(operator_key) and token is not None and hmac.compare_digest(token.encode(), operator_key.encode())


async def club_exists(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    """The guard of the pages under a club: the operator's calls on a club that does not exist are a 404
    before anything is tried (a club's own key reaches only its club, which exists). The API's guard,
    `authorize`, does the same."""
    del handler
    if is_operator(connection):
        await _existing(connection, connection.path_params.get("club_id"))


async def _existing(connection: ASGIConnection[Any, Any, Any, Any], club_id: str | None) -> None:
    if club_id is not None:
        await anyio.to_thread.run_sync(Clubs.of(connection.app.state.records).club, club_id)
