"""Rate limits per credential and per client address: writes, reads and live streams opened a minute, and
live streams open at once. Past one, a 429 problem with `Retry-After`.

The stream gate is one for every live stream (a handler marked with `LIVE_STREAM` in its `opt`: the API's
`/live`, the pages' and a share link's `/live/events`). It counts a stream against the credential the
request presents, of any kind (an API key, a page session, a share link, named by the id in its token:
not checked here, so a made-up one still counts against its address) and against the client address,
and refuses one past either cap before any handler runs, so a client opening thousands costs little.

Each limit is a token bucket (a minute's allowance as the burst, refilled evenly): O(1) per request,
on the event loop, with no lock. Litestar's own `RateLimitConfig` was the first choice; it fits less
well here: one rate per middleware, a list of every request's timestamp per client decoded and encoded
as JSON on each request (the append path's p99 has little margin, docs/reference/performance.md), no
`Retry-After` and no count of open streams. The buckets live in each server process, so with
`--workers N` a client may reach N times the limits; the defaults are far above what a club's tables
send (a scorekeeper appends every few seconds).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from http.cookies import CookieError, SimpleCookie
from typing import Any, Literal

from litestar.types import ASGIApp, Message, Receive, Scope, Send

from service.settings import Settings

Kind = Literal["write", "read", "stream"]
LIVE_STREAM: dict[str, Any] = {"live_stream": True}
"""A handler's `opt` (`@get(..., opt=LIVE_STREAM)`): its answer is a live stream, counted by the gate."""
LIVE_STREAM_IF_ASKED: dict[str, Any] = {"live_stream": "if asked"}
"""The `opt` of a handler that answers a live stream only to `Accept: text/event-stream` (the club feed)."""
SESSION_COOKIE = "tablelog_session"
"""The pages' session cookie (set by `service.pages`; read here by name only)."""
_CREDENTIALS = {"tl": "key", "ts": "page session", "sh": "share link"}
_MAX_BUCKETS = 100_000
"""Buckets kept before the full (idle) ones are dropped: a full bucket is the same as none."""


class RateLimited(Exception):
    """A request past a limit: 429, retry after `retry_after` seconds."""

    status_code = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


class Limiter:
    """The buckets of one server process."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute: dict[Kind, int] = {
            "write": settings.rate_limit_writes_per_minute,
            "read": settings.rate_limit_reads_per_minute,
            "stream": settings.rate_limit_streams_per_minute,
        }
        self.address_factor = settings.rate_limit_per_address_factor
        self.max_streams = {
            "key": settings.max_streams_per_key,
            "page session": settings.max_streams_per_key,
            "share link": settings.max_streams_per_share_link,
        }
        self.max_streams_per_address = settings.max_streams_per_address
        self.clock = clock
        self._buckets: dict[tuple[str, str], tuple[float, float, int]] = {}
        """(kind, who) -> (tokens, when counted, limit a minute)."""
        self.open_streams: dict[str, int] = {}

    def _wait(self, bucket: tuple[str, str], per_minute: int, now: float) -> tuple[float, float]:
        """(tokens in the bucket now, seconds until it holds one)."""
        tokens, stamp, _ = self._buckets.get(bucket, (per_minute, now, per_minute))
        tokens = min(per_minute, tokens + (now - stamp) * per_minute / 60)
        return tokens, 0.0 if tokens >= 1 else (1 - tokens) * 60 / per_minute

    def take(self, kind: Kind, key: str | None, address: str) -> list[tuple[bytes, bytes]]:
        """Count one request of `kind` against its credential's (`kind id`, as `credential` names it) and
        its address's buckets, or RateLimited. Returns the IETF `RateLimit-Policy` and `RateLimit` headers
        (draft-ietf-httpapi-ratelimit-headers) of the first bucket counted: its limit a minute, what is left
        and the seconds until it is full again."""
        per_key = self.per_minute[kind]
        if per_key <= 0:
            return []
        now = self.clock()
        checks = [((f"{kind}@", address), per_key * self.address_factor, "this address")]
        if key is not None:
            checks.insert(0, ((kind, key), per_key, f"this {_kind_of(key)}"))
        found = [(bucket, limit, who, *self._wait(bucket, limit, now)) for bucket, limit, who in checks if limit > 0]
        for _, limit, who, _, wait in found:
            if wait > 0:
                raise RateLimited(
                    f"Too many {kind}s from {who}: at most {limit} a minute. Retry after {math.ceil(wait)} s.",
                    math.ceil(wait),
                )
        if len(self._buckets) > _MAX_BUCKETS:
            self._forget_idle(now)
        for bucket, limit, _, tokens, _ in found:
            self._buckets[bucket] = (tokens - 1, now, limit)
        if not found:
            return []
        _, limit, _, tokens, _ = found[0]
        full_in = math.ceil((limit - tokens + 1) * 60 / limit)
        return [
            (b"ratelimit-policy", f'"{kind}";q={limit};w=60'.encode()),
            (b"ratelimit", f'"{kind}";r={math.floor(tokens - 1)};t={full_in}'.encode()),
        ]

    def _forget_idle(self, now: float) -> None:
        for bucket, (tokens, stamp, limit) in list(self._buckets.items()):
            if tokens + (now - stamp) * limit / 60 >= limit:
                del self._buckets[bucket]

    def open_stream(self, key: str | None, address: str) -> tuple[str, ...]:
        """Count a live stream opening against its credential and its address, open streams included;
        returns whom it holds a place of (for `close_stream`)."""
        self.take("stream", key, address)
        holders = [(f"@{address}", self.max_streams_per_address, "This address")]
        if key is not None:
            holders.insert(0, (key, self.max_streams[_kind_of(key)], f"This {_kind_of(key)}"))
        for holder, most, who in holders:
            if 0 < most <= self.open_streams.get(holder, 0):
                raise RateLimited(f"{who} has {most} live streams open already, the most it may: close one first.", 10)
        for holder, _, _ in holders:
            self.open_streams[holder] = self.open_streams.get(holder, 0) + 1
        return tuple(holder for holder, _, _ in holders)

    def close_stream(self, holders: tuple[str, ...]) -> None:
        for holder in holders:
            left = self.open_streams.get(holder, 1) - 1
            if left > 0:
                self.open_streams[holder] = left
            else:
                self.open_streams.pop(holder, None)


def _kind_of(credential: str) -> str:
    """`key`, `page session` or `share link`, from `credential`'s name (a bare name is a key's)."""
    kind = credential.partition(" ")[0].replace("-", " ")
    return kind if kind in _CREDENTIALS.values() else "key"


def _kind(scope: Scope) -> Kind:
    if scope.get("method") in ("GET", "HEAD"):
        handler = scope.get("route_handler")
        live = handler.opt.get("live_stream") if handler is not None else None
        if live == LIVE_STREAM_IF_ASKED["live_stream"]:
            live = any(name == b"accept" and b"text/event-stream" in value for name, value in scope["headers"])
        return "stream" if live else "read"
    return "write"


def credential(scope: Scope) -> str | None:
    """The credential a request presents, as `kind id` (`key tl-id`, `page-session id`, `share-link id`):
    a share link's token in its path, else a bearer token, else the pages' session cookie. Only the id
    in a token is kept (the secret never is); a token of no known shape is named by a digest."""
    token = scope.get("path_params", {}).get("token") if scope["path"].startswith("/share/") else None
    for name, value in scope["headers"]:
        if token is None and name == b"authorization":
            scheme, _, bearer = value.decode("latin-1").partition(" ")
            if scheme.lower() == "bearer" and bearer.strip():
                token = bearer.strip()
    if token is None:
        token = _session_cookie(scope)
    if not token:
        return None
    prefix, _, rest = token.partition("_")
    ident, _, _ = rest.partition("_")
    if prefix in _CREDENTIALS and ident:
        return f"{_CREDENTIALS[prefix].replace(' ', '-')} {ident}"
    return f"key {hashlib.blake2b(token.encode(), digest_size=12).hexdigest()}"


def _session_cookie(scope: Scope) -> str | None:
    for name, value in scope["headers"]:
        if name == b"cookie":
            try:
                morsel = SimpleCookie(value.decode("latin-1")).get(SESSION_COOKIE)
            except CookieError:
                return None
            return morsel.value if morsel is not None else None
    return None


def rate_limit_middleware(limiter: Limiter) -> Callable[[ASGIApp], ASGIApp]:
    """The middleware: takes a token for every request but `/health`; the gate of every live stream."""

    def middleware(app: ASGIApp) -> ASGIApp:
        async def limited(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != "http" or scope["path"] == "/health":
                await app(scope, receive, send)
                return
            kind = _kind(scope)
            key = credential(scope)
            client = scope.get("client")
            address = client[0] if client else "unknown"
            if kind != "stream":
                headers = limiter.take(kind, key, address)

                async def send_with_headers(message: Message) -> None:
                    if message["type"] == "http.response.start":
                        message["headers"] = [*message.get("headers", []), *headers]
                    await send(message)

                await app(scope, receive, send_with_headers if headers else send)
                return
            holders = limiter.open_stream(key, address)
            try:
                await app(scope, receive, send)
            finally:
                limiter.close_stream(holders)

        return limited

    return middleware
