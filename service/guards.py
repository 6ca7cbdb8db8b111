"""Guards that run before any handler of the app."""

from __future__ import annotations

import hmac
from typing import Any

from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler

from service.records import NotFound


def is_operator(connection: ASGIConnection[Any, Any, Any, Any]) -> bool:
    """Whether the request carries the operator key (compared in constant time)."""
    operator_key = connection.app.state.settings.operator_key
    scheme, _, token = connection.headers.get("authorization", "").partition(" ")
    return (
        bool(operator_key)
        and scheme.lower() == "bearer"
        and hmac.compare_digest(token.strip().encode(), operator_key.encode())
    )


def club_exists(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    """A guard: the operator's calls on a club that does not exist are a 404 before anything is tried
    (a club's own key reaches only its club, which exists)."""
    del handler
    club_id = connection.path_params.get("club_id")
    if club_id is not None and is_operator(connection) and connection.app.state.store.get_club(club_id) is None:
        raise NotFound("club", club_id)
