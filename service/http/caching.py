"""Answers that can never change (the state at a version the record already holds: the record is only
appended to) carry a strong `ETag` and `Cache-Control: immutable`; answers that change only now and then (a
replay, a step, which a later correction marks as voided) carry a strong `ETag` to revalidate with. A
request whose `If-None-Match` names the tag gets a `304` without the body."""

from __future__ import annotations

import hashlib
from typing import Any, TypeVar, cast

from litestar import MediaType, Request, Response
from litestar.serialization import encode_json

T = TypeVar("T")

# private: the answer was shown to one key's holder (a seat's view is not for a shared cache).
IMMUTABLE = "private, max-age=31536000, immutable"


# A private answer the client may keep but must revalidate (its words follow the reader's language).
REVALIDATE = "private, no-cache"


def immutable(request: Request[Any, Any, Any], body: T) -> Response[T]:
    """`body` with its ETag (a digest of its JSON), or a 304 when the client holds it already."""
    return _tagged(request, body, IMMUTABLE)


def revalidated(request: Request[Any, Any, Any], body: T) -> Response[T]:
    """`body` with its ETag, to be asked again with `If-None-Match` (a 304 while it has not changed)."""
    return _tagged(request, body, REVALIDATE)


def _tagged(request: Request[Any, Any, Any], body: T, cache_control: str) -> Response[T]:
    # Encoded once: the tag is a digest of the very bytes sent (a whole replay can be large).
    encoded = encode_json(body)
    tag = f'"{hashlib.blake2b(encoded, digest_size=16).hexdigest()}"'
    headers = {"ETag": tag, "Cache-Control": cache_control, "Vary": "Accept-Language, Cookie"}
    held = request.headers.get("if-none-match", "")
    if tag in (candidate.strip().removeprefix("W/") for candidate in held.split(",")) or held.strip() == "*":
        return Response(content=None, status_code=304, headers=headers)  # type: ignore[arg-type]
    return cast("Response[T]", Response(content=encoded, headers=headers, media_type=MediaType.JSON))
