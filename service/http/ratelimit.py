"""Rate limits per API key and per client address: writes, reads and live streams opened a minute, and
live streams open at once per key. Past one, a 429 problem with `Retry-After`.

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
from typing import Literal

from litestar.types import ASGIApp, Message, Receive, Scope, Send

from service.settings import Settings

Kind = Literal["write", "read", "stream"]
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
        self.max_streams = settings.max_streams_per_key
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
        """Count one request of `kind` against its key's and its address's buckets, or RateLimited. Returns
        the IETF `RateLimit-Policy` and `RateLimit` headers (draft-ietf-httpapi-ratelimit-headers) of the
        first bucket counted: its limit a minute, what is left and the seconds until it is full again."""
        per_key = self.per_minute[kind]
        if per_key <= 0:
            return []
        now = self.clock()
        checks = [((f"{kind}@", address), per_key * self.address_factor, "this address")]
        if key is not None:
            checks.insert(0, ((kind, key), per_key, "this key"))
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

    def open_stream(self, key: str | None, address: str) -> str:
        """Count a live stream opening and its key's open streams; returns who it counts against."""
        self.take("stream", key, address)
        holder = key or f"@{address}"
        if 0 < self.max_streams <= self.open_streams.get(holder, 0):
            raise RateLimited(
                f"This key has {self.max_streams} live streams open already, the most it may: close one first.",
                10,
            )
        self.open_streams[holder] = self.open_streams.get(holder, 0) + 1
        return holder

    def close_stream(self, holder: str) -> None:
        left = self.open_streams.get(holder, 1) - 1
        if left > 0:
            self.open_streams[holder] = left
        else:
            self.open_streams.pop(holder, None)


def _kind(scope: Scope) -> Kind:
    if scope.get("method") in ("GET", "HEAD"):
        return "stream" if scope["path"].endswith("/live") else "read"
    return "write"


def _key(scope: Scope) -> str | None:
    """Who the bearer token claims to be (a digest: the token is never kept). Not checked here: a
    made-up token still counts against its address."""
    for name, value in scope["headers"]:
        if name == b"authorization":
            scheme, _, token = value.partition(b" ")
            if scheme.lower() == b"bearer" and token.strip():
                return hashlib.blake2b(token.strip(), digest_size=12).hexdigest()
    return None


def rate_limit_middleware(limiter: Limiter) -> Callable[[ASGIApp], ASGIApp]:
    """The middleware: takes a token for every request but `/health`; counts open live streams."""

    def middleware(app: ASGIApp) -> ASGIApp:
        async def limited(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != "http" or scope["path"] == "/health":
                await app(scope, receive, send)
                return
            kind = _kind(scope)
            key = _key(scope)
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
            holder = limiter.open_stream(key, address)
            try:
                await app(scope, receive, send)
            finally:
                limiter.close_stream(holder)

        return limited

    return middleware
