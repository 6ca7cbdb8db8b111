"""Credentials: API keys (`tl_<key id>_<secret>`), page sessions (`ts_<session id>_<secret>`, the pages'
cookie) and share links (`sh_<share id>_<secret>`, in a link's URL). Only the SHA-256 of each secret is
stored. The secrets are 256 random bits, so a fast hash is as safe as a slow one and keeps every request
cheap.

A key has a scope: `record` (writes and every view of its club), `read` (every view, no writes) or
`spectate` (public views only, behind each game's spectator delay). A session acts with its key's scope;
a share link sees its one game, league or campaign as a spectator would. A player link is a share link
of kind `player`: it opens one tournament as one of its entries (`service.usecases.tournaments`), on the
API's routes for that entry (`needs` `player`) and the player's page, and nothing else.

Revocation: the store raises a counter in the same transaction as every revocation, and a process that
finds it moved forgets every credential it remembered, so a revoked key, session or link is refused on
its next request on every worker. On PostgreSQL the process hears the counter move (LISTEN/NOTIFY,
`service.notify`) and reads nothing per request; while it is not listening (SQLite, or its listening
connection was lost) each request reads the counter (one indexed row) instead.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from datetime import UTC, datetime
from typing import Literal

import anyio.to_thread
import msgspec

from service.cache import Recent
from service.notify import Hub
from service.store.access import AccessStore, LinkKind, Scope

Access = Literal["operator", "record", "read", "spectate", "share"]


class ShareTarget(msgspec.Struct, frozen=True, kw_only=True):
    """What a share link shows: one game, league or campaign; or, for a player link (`kind` `player`), the
    tournament `target_id` as its entry `player_id` takes part in it."""

    share_id: str
    kind: LinkKind
    target_id: str
    player_id: str | None = None
    made_by: str | None = None
    """The key that made the link (a player's events are appended under it, naming the player)."""


class Principal(msgspec.Struct, frozen=True, kw_only=True):
    """Who is calling: the operator, a club's key (directly or through a signed-in session), or a share
    link. `expires_at` is the earliest expiry of what it stands on."""

    operator: bool = False
    club_id: str | None = None
    key_id: str | None = None
    scope: Scope = "record"
    expires_at: datetime | None = None
    session_id: str | None = None
    share: ShareTarget | None = None

    @property
    def access(self) -> Access:
        if self.operator:
            return "operator"
        if self.share is not None:
            return "share"
        return self.scope

    @property
    def sees_hidden(self) -> bool:
        """May see seat and full views (what a spectator may not)."""
        return self.access in ("operator", "record", "read")

    @property
    def writes(self) -> bool:
        return self.access in ("operator", "record")


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _credential(prefix: str) -> tuple[str, str, str]:
    ident = secrets.token_hex(8)
    secret = secrets.token_urlsafe(32)
    return ident, f"{prefix}_{ident}_{secret}", hash_secret(secret)


def new_key() -> tuple[str, str, str]:
    """A new key: (key id, token to hand to the club once, hash to store)."""
    return _credential("tl")


def new_session() -> tuple[str, str, str]:
    """A new page session: (session id, cookie value, hash to store)."""
    return _credential("ts")


def new_share() -> tuple[str, str, str]:
    """A new share link: (share id, token for the link's URL, hash to store)."""
    return _credential("sh")


def _parts(token: str | None, prefix: str) -> tuple[str, str] | None:
    parts = (token or "").split("_", 2)
    if len(parts) != 3 or parts[0] != prefix or not parts[1] or not parts[2]:
        return None
    return parts[1], parts[2]


def _matches(stored_hash: str, secret: str) -> bool:
    return hmac.compare_digest(stored_hash, hash_secret(secret))


def _earliest(*moments: datetime | None) -> datetime | None:
    known = [m for m in moments if m is not None]
    return min(known) if known else None


def _now() -> datetime:
    return datetime.now(UTC)


def authenticate(store: AccessStore, token: str | None, operator_key: str | None) -> Principal | None:
    """The principal an API bearer token (the operator key or a club key) stands for, or None."""
    if not token:
        return None
    if operator_key and hmac.compare_digest(token.encode(), operator_key.encode()):
        return Principal(operator=True)
    parts = _parts(token, "tl")
    if parts is None:
        return None
    key = store.get_api_key(parts[0])
    if key is None or not key.usable(_now()) or not _matches(key.secret_hash, parts[1]):
        return None
    return Principal(club_id=key.club_id, key_id=key.key_id, scope=key.scope, expires_at=key.expires_at)


def authenticate_session(store: AccessStore, token: str | None) -> Principal | None:
    """The principal a page session cookie stands for (its key's, while both last), or None."""
    parts = _parts(token, "ts")
    if parts is None:
        return None
    session = store.get_page_session(parts[0])
    now = _now()
    if session is None or session.revoked_at is not None or session.expires_at <= now:
        return None
    if not _matches(session.secret_hash, parts[1]):
        return None
    key = store.get_api_key(session.key_id)
    if key is None or not key.usable(now):
        return None
    return Principal(
        club_id=key.club_id,
        key_id=key.key_id,
        scope=key.scope,
        session_id=session.session_id,
        expires_at=_earliest(key.expires_at, session.expires_at),
    )


def authenticate_share(store: AccessStore, token: str | None) -> Principal | None:
    """The principal a share link's token stands for (a spectator of its one target), or None."""
    parts = _parts(token, "sh")
    if parts is None:
        return None
    link = store.get_share_link(parts[0])
    if link is None or link.revoked_at is not None or not _matches(link.secret_hash, parts[1]):
        return None
    if link.created_by is not None:  # a link lasts as long as the key that made it
        maker = store.get_api_key(link.created_by)
        if maker is None or not maker.usable(_now()):
            return None
    return Principal(
        club_id=link.club_id,
        scope="spectate",
        share=ShareTarget(
            share_id=link.share_id,
            kind=link.kind,
            target_id=link.target_id,
            player_id=link.player_id,
            made_by=link.created_by,
        ),
    )


class Authenticator:
    """Resolves tokens, remembering them until a revocation happens anywhere (or `ttl` seconds pass): a
    request then costs nothing when the process listens for revocations (`hub`), else one read of the
    counter, rather than the credential's rows. Each kind of token is remembered apart, so a token is
    only ever taken for what it was first checked as."""

    def __init__(
        self,
        store: AccessStore,
        operator_key: str | None,
        ttl: float = 30.0,
        size: int = 4096,
        hub: Hub | None = None,
        *,
        counter_on_loop: bool = False,
    ) -> None:
        self.store = store
        self.counter_on_loop = counter_on_loop
        """Whether the revocation counter may be read on the event loop when no hub listens (an embedded
        SQLite file in WAL mode, whose readers never wait for its writer): a remembered key then costs one
        local read and no worker-thread hop, and a revocation is still seen on the next request."""
        self.operator_key = operator_key
        self.ttl = ttl
        self.size = size
        self.hub = hub
        self._known: Recent[tuple[str, str], Principal] = Recent(size, ttl=ttl)
        """Principals by token, each trusted for `ttl` seconds (forgotten at once on a revocation)."""
        self._seen: tuple[str, int] | None = None
        self._lock = threading.Lock()

    def _revocations(self) -> tuple[str, int]:
        """Where revocations stand: the hub's epoch while it listens, else the stored counter."""
        hub = self.hub
        if hub is not None and hub.listening:
            return "heard", hub.access_epoch
        return "read", self.store.access_generation()

    def _fresh(self) -> None:
        """Forget everything remembered when a revocation happened anywhere since we last looked."""
        seen = self._revocations()
        with self._lock:
            if seen != self._seen:
                self._known.clear()
                self._seen = seen

    def settle(self) -> None:
        """After a revocation made here: wait (briefly) until this process hears it back, so the answer
        goes out only once every listening process has been told (blocking: call it in a worker thread).
        This process forgets at once, heard or not: its own next request must not wait on the notification."""
        with self._lock:
            self._known.clear()
        if self.hub is not None and self.hub.listening:
            self.hub.wait_heard(self.store.access_generation(), timeout=2.0)

    def _resolve(self, token: str | None, kind: Literal["key", "session", "share"]) -> Principal | None:
        if not token:
            return None
        if kind == "key" and self.operator_key and hmac.compare_digest(token.encode(), self.operator_key.encode()):
            return Principal(operator=True)
        self._fresh()
        known = self._known.get((kind, token))
        if known is not None:
            principal: Principal | None = known
        elif kind == "key":
            principal = authenticate(self.store, token, None)
        elif kind == "session":
            principal = authenticate_session(self.store, token)
        else:
            principal = authenticate_share(self.store, token)
        if principal is None:
            return None
        if principal.expires_at is not None and principal.expires_at <= _now():
            return None
        if known is None:
            self._known.put((kind, token), principal)
        return principal

    def __call__(self, token: str | None) -> Principal | None:
        """An API bearer token: the operator key or a club key."""
        return self._resolve(token, "key")

    def remembered(self, token: str | None, kind: Literal["key", "session", "share"] = "key") -> Principal | None:
        """An API bearer token's (or a page session cookie's, or a share link's) principal when it is known
        without reading the database (the operator key, or a key, session or link remembered while this
        process hears revocations, or while `counter_on_loop`), else None: then call the authenticator
        itself (`session` for a cookie, `share` for a link; in a worker thread on the event loop: it reads
        the database)."""
        if not token:
            return None
        if kind == "key" and self.operator_key and hmac.compare_digest(token.encode(), self.operator_key.encode()):
            return Principal(operator=True)
        if (self.hub is None or not self.hub.listening) and not self.counter_on_loop:
            return None
        self._fresh()  # reads nothing while listening, else the counter
        known = self._known.get((kind, token))
        if known is None or (known.expires_at is not None and known.expires_at <= _now()):
            return None
        return known

    async def found(self, token: str | None, kind: Literal["key", "session", "share"] = "key") -> Principal | None:
        """`token`'s principal for a guard on the event loop: `remembered` when it can be, reading nothing,
        else read in a worker thread (litestar would run a plain function guard in one for every request)."""
        if not token:
            return None
        known = self.remembered(token, kind)
        return known if known is not None else await anyio.to_thread.run_sync(self._resolve, token, kind)

    def session(self, token: str | None) -> Principal | None:
        """A page session cookie."""
        return self._resolve(token, "session")

    def share(self, token: str | None) -> Principal | None:
        """A share link token."""
        return self._resolve(token, "share")

    def watch(self, principal: Principal) -> Watch:
        """A check a long request (a live stream) calls now and then (see `Watch`)."""
        return Watch(self, principal)


class Watch:
    """Whether a principal still stands: False once it has expired or what it stands on was revoked.
    A call reads the rows again only when revocations moved since its last call (and on its first);
    `settled` says, without reading anything, that a call would find nothing new."""

    def __init__(self, authenticator: Authenticator, principal: Principal) -> None:
        self.authenticator = authenticator
        self.principal = principal
        self._seen: tuple[str, int] | None = None

    def _expired(self) -> bool:
        expires = self.principal.expires_at
        return expires is not None and expires <= _now()

    def settled(self) -> bool:
        """True when the process listens, has heard no revocation since the last call, and the principal
        has not expired (no I/O: a live stream asks this on every step)."""
        if self.principal.operator:
            return True
        hub = self.authenticator.hub
        listening = hub is not None and hub.listening and self._seen == ("heard", hub.access_epoch)
        return listening and not self._expired()

    def __call__(self) -> bool:
        if self.principal.operator:
            return True
        if self._expired():
            return False
        revocations = self.authenticator._revocations()
        if revocations == self._seen:
            return True
        self._seen = revocations
        return _in_force(self.authenticator.store, self.principal, _now())


def _in_force(store: AccessStore, principal: Principal, now: datetime) -> bool:
    """Whether the key, session or link a principal stands on is still in force."""
    if principal.share is not None:
        link = store.get_share_link(principal.share.share_id)
        return link is not None and link.revoked_at is None
    if principal.session_id is not None:
        session = store.get_page_session(principal.session_id)
        if session is None or session.revoked_at is not None:
            return False
    key = store.get_api_key(principal.key_id or "")
    return key is not None and key.usable(now)
