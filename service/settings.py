"""Settings, read from the environment (TABLELOG_*) and overridden by command-line flags."""

from __future__ import annotations

import os
from typing import Literal

import msgspec

from domain import registry

DEFAULT_DATABASE_URL = "sqlite:///./tablelog.db"


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the service can be told; the guide's settings reference is generated from these fields."""

    database_url: str = DEFAULT_DATABASE_URL
    """`sqlite:///path` (one club, no set-up) or `postgresql://user:pass@host/db`."""
    migration_database_url: str | None = None
    """PostgreSQL: the role that owns the schema, for `tablelog migrate` (and a migration on start). When
    set, the app's own role (`database_url`'s user) is granted only what the service needs: it can
    append to the record but never change, delete or truncate it, nor disable its triggers."""
    operator_key: str | None = None
    """Bearer token that may create clubs and their API keys. None: club creation only by the CLI, and `serve`
    makes a first club in a new SQLite database, its key printed once."""
    host: str = "127.0.0.1"
    """Where `serve` listens."""
    port: int = 8000
    """The port `serve` listens on."""
    health_port: int | None = None
    """A port on which each server process answers `GET /health` from a thread of its own: promptly even while
    the main port is flooded, and 503 when the process's event loop has not run for `health_stalled_seconds`.
    Point an orchestrator's liveness probe at it; keep it on a private network. None: `/health` on the main
    port only."""
    health_stalled_seconds: float = 10.0
    """How long the event loop may go without running before the health port answers 503."""
    workers: int = 1
    """Server processes (the number of cores on a league server); each listens on its own socket (SO_REUSEPORT),
    so the kernel spreads connections over them."""
    pool_size: int = 10
    """PostgreSQL connections per process for each of its two pools: the event loop's (appends and state reads; all
    opened at start) and its worker threads' (opened as needed)."""
    log_format: Literal["auto", "json", "console"] = "auto"
    """`json` (production), `console` (readable); `auto`: console on a terminal."""
    log_level: str = "info"
    """The least level logged (`debug`, `info`, `warning`, `error`)."""
    migrate_on_start: bool = True
    """Apply migrations when the server starts."""
    run_projector: bool = True
    """Run the projector (read models for standings, campaigns, replays) in a thread of each server process;
    a lease lets one of them work at a time. Off when it runs as its own process (`tablelog project`)."""
    projector_poll_seconds: float = 0.5
    """How often an idle projector looks for new events."""
    projector_lease_seconds: float = 15.0
    """A runner that stops renewing its lease (killed) is replaced after this long."""
    projector_lag_warn_seconds: float = 60.0
    """A projection further behind the record than this is warned about in the logs (`projector.lagging`)."""
    run_webhooks: bool = True
    """Deliver the clubs' webhooks from a thread of each server process; a lease per subscription lets one
    process at a time deliver it."""
    webhook_poll_seconds: float = 1.0
    """How often the webhook worker looks for new events and retries that are due."""
    webhook_timeout_seconds: float = 10.0
    """How long a receiver has to answer a delivery (then it counts as failed)."""
    webhook_retry_seconds: float = 10.0
    """The wait before the first retry of a failed delivery; it doubles with each failure, up to an hour."""
    webhook_max_attempts: int = 30
    """Failed attempts in a row (about a day with the defaults) after which a subscription is turned off."""
    webhook_refuse_private_addresses: bool = True
    """Refuse webhook URLs whose host has a loopback, private, link-local or reserved address, so a club
    cannot make the server call into its own network. Off only where every club is trusted (or in tests)."""
    snapshot_every: int = 100
    """A replay snapshot every this many events."""
    # Signed checkpoints (service.usecases.checkpoints, `tablelog checkpoint`): the record's heads signed with
    # a key kept outside the database, so `tablelog verify` finds a record rewritten by someone who can
    # write its rows.
    checkpoint_key: str | None = None
    """Path of the Ed25519 private key (PEM) that signs checkpoints (`tablelog checkpoint --new-key PATH`)."""
    checkpoint_file: str | None = None
    """Path of the file checkpoints are added to (JSON Lines; keep it, or copies, off the database's host)."""
    checkpoint_every_seconds: float = 0.0
    """How often `tablelog project` signs a checkpoint (with `checkpoint_key` and `checkpoint_file`); 0: never."""
    live_poll_seconds: float = 3.0
    """How often a live game is looked at in the store when no notification came (one missed, or an
    append by another worker on SQLite), and how often a stream re-checks its key while revocations
    are not heard (SQLite)."""
    live_keepalive_seconds: float = 15.0
    """A comment line sent on a quiet live stream this often, so proxies keep it open."""
    extra_rulesets: str = ""
    """Comma-separated modules exporting RULESET, served beside the built-in games (`rulesets`)."""
    # Rate limits (service.http.ratelimit), per server process; 0 turns one off. A credential is an API
    # key, a page session or a share link: each counts on its own.
    rate_limit_writes_per_minute: int = 1200
    """Writes (appends, creations, imports) a minute per credential."""
    rate_limit_reads_per_minute: int = 6000
    """Reads a minute per credential."""
    rate_limit_streams_per_minute: int = 60
    """Live streams (the API's `/live`, the pages' and share links' `/live/events`) opened a minute per
    credential."""
    rate_limit_per_address_factor: int = 4
    """A client address may make this many credentials' worth of requests (a club house behind one address)."""
    max_streams_per_key: int = 16
    """Live streams one API key or one page session may hold open at once."""
    max_streams_per_share_link: int = 64
    """Live streams one share link may hold open at once (a link handed round a club's spectators)."""
    max_streams_per_address: int = 64
    """Live streams one client address may hold open at once, whatever credentials it uses (or none)."""
    # Bounds on one request (service.limits): past one, a clear 413 or 400 problem.
    max_body_bytes: int = 5_000_000
    """Largest request body (an append, a resource file)."""
    max_events_per_batch: int = 1000
    """Most events in one append (at most 1000, the store's own bound)."""
    max_event_bytes: int = 64_000
    """Largest encoded event."""
    max_id_length: int = 64
    """Longest id (player, game, league, campaign, resource)."""
    max_name_length: int = 200
    """Longest name or title."""
    max_import_errors: int = 100
    """Row errors listed in the answer to a resource import that does not validate (then a count of the rest)."""
    max_resource_rows: int = 10_000
    """Most lines in a resource file (a catalogue, a scenario)."""
    # Read replicas (service.store.replicas): PostgreSQL streaming replicas that serve lag-tolerant reads.
    read_database_urls: str = ""
    """Comma-separated postgresql:// URLs of streaming replicas of `database_url`; empty: every read on the primary."""
    read_replica_max_lag_seconds: float = 5.0
    """A replica further behind the primary than this leaves the rotation until it catches up."""
    read_replica_wait_seconds: float = 0.25
    """How long a read that names a position (`Tablelog-Position`) waits for a replica to replay it before the
    primary serves it."""
    read_replica_check_seconds: float = 1.0
    """How often each node measures its replicas' lag (and tries an unreachable one again)."""
    # Operations (service.telemetry, docs/how-to/monitor.md): each off by default.
    metrics: bool = False
    """Serve Prometheus metrics at `/metrics` (every worker's, summed); needs the `ops` extra. Only to the
    operator key unless `metrics_public`."""
    metrics_public: bool = False
    """Serve `/metrics` to anyone (a scraper inside a private network, no key to hand it)."""
    tracing: bool = False
    """OpenTelemetry traces: a span per request with its database calls, the trace id in every log line;
    exported as the OpenTelemetry SDK's `OTEL_*` variables say (OTLP over HTTP by default). Needs the `ops`
    extra."""
    cors_allow_origins: str = ""
    """Comma-separated origins (`https://club.example`) whose pages may call the API from a browser (CORS);
    empty: none."""
    position_key: str | None = None
    """The secret that seals read-your-writes tokens (`Tablelog-Position`; any string, at least 32
    characters). None: one made once in the database (`server_secrets`), which every node reads alike."""

    def rulesets(self) -> registry.Rulesets:
        """The games this process serves: the built-in ones (`domain.registry`) and `extra_rulesets`. Built
        once by each composition root (`service.app.create_app`, `service.cli.main`), which hands it down."""
        return registry.load(self.extra_rulesets.split(","))

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        """Settings from TABLELOG_<FIELD> variables (for example TABLELOG_DATABASE_URL)."""
        env = os.environ if environ is None else environ
        raw: dict[str, object] = {}
        for field in msgspec.structs.fields(cls):
            value = env.get(f"TABLELOG_{field.name.upper()}")
            if value is not None:
                raw[field.name] = value
        return msgspec.convert(raw, cls, strict=False)
