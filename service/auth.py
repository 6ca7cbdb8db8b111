"""API keys: bearer tokens `tl_<key id>_<secret>`; only the SHA-256 of the secret is stored.

The secrets are 256 random bits, so a fast hash is as safe as a slow one and keeps every request cheap.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time

import msgspec

from service.store.base import Store


class Principal(msgspec.Struct, frozen=True, kw_only=True):
    """Who is calling: the operator, or a club's key."""

    operator: bool = False
    club_id: str | None = None
    key_id: str | None = None


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_key() -> tuple[str, str, str]:
    """A new key: (key id, token to hand to the club once, hash to store)."""
    key_id = secrets.token_hex(8)
    secret = secrets.token_urlsafe(32)
    return key_id, f"tl_{key_id}_{secret}", hash_secret(secret)


class Authenticator:
    """Resolves bearer tokens, remembering club keys for `ttl` seconds: a request then needs no
    database round trip for its key. (A key revoked in the database stops working within `ttl`.)"""

    def __init__(self, store: Store, operator_key: str | None, ttl: float = 30.0, size: int = 4096) -> None:
        self.store = store
        self.operator_key = operator_key
        self.ttl = ttl
        self.size = size
        self._known: dict[str, tuple[float, Principal]] = {}
        self._lock = threading.Lock()

    def __call__(self, token: str | None) -> Principal | None:
        if not token:
            return None
        now = time.monotonic()
        with self._lock:
            known = self._known.get(token)
        if known is not None and now - known[0] < self.ttl:
            return known[1]
        principal = authenticate(self.store, token, self.operator_key)
        if principal is not None and not principal.operator:
            with self._lock:
                if len(self._known) >= self.size:
                    self._known.clear()
                self._known[token] = (now, principal)
        return principal


def authenticate(store: Store, token: str | None, operator_key: str | None) -> Principal | None:
    """The principal a bearer token stands for, or None."""
    if not token:
        return None
    if operator_key and hmac.compare_digest(token.encode(), operator_key.encode()):
        return Principal(operator=True)
    parts = token.split("_", 2)
    if len(parts) != 3 or parts[0] != "tl":
        return None
    key = store.get_api_key(parts[1])
    if key is None or key.revoked or not hmac.compare_digest(key.secret_hash, hash_secret(parts[2])):
        return None
    return Principal(club_id=key.club_id, key_id=key.key_id)
