"""The records the use cases take and give, named for the layers above them: controllers and pages
never import the store (`tests/test_boundaries.py`), yet a handler's signature names a `Recorder`, a
page shows a `GameRecord`, and the problem details translate the store's errors. They are defined with
the store (`service.store.base`, `service.store.access`), and reach `http/` and `pages/` from here."""

from service.store.access import ApiKey, LinkKind, Scope, ShareKind, ShareLink
from service.store.base import (
    AlreadyExists,
    AppendResult,
    Club,
    ClubPlayer,
    CollectionKind,
    GameFilter,
    GameRecord,
    GameSummary,
    IdempotencyMismatch,
    ImmutableRecord,
    MissingReference,
    PlayerMerge,
    Recorder,
    Resource,
    SpectatorDelay,
    StoredEvent,
    StoreError,
    StoreUnavailable,
    StreamId,
    UnstorableValue,
    VersionConflict,
)
from service.store.webhooks import Delivery as WebhookDelivery
from service.store.webhooks import Webhook, WebhookFormat

__all__ = [
    "AlreadyExists",
    "ApiKey",
    "AppendResult",
    "Club",
    "ClubPlayer",
    "CollectionKind",
    "GameFilter",
    "GameRecord",
    "GameSummary",
    "IdempotencyMismatch",
    "ImmutableRecord",
    "LinkKind",
    "MissingReference",
    "PlayerMerge",
    "Recorder",
    "Resource",
    "Scope",
    "ShareKind",
    "ShareLink",
    "SpectatorDelay",
    "StoreError",
    "StoreUnavailable",
    "StoredEvent",
    "StreamId",
    "UnstorableValue",
    "VersionConflict",
    "Webhook",
    "WebhookDelivery",
    "WebhookFormat",
]
