"""Settings, read from the environment (TABLELOG_*) and overridden by command-line flags."""

from __future__ import annotations

import os
from typing import Literal

import msgspec

DEFAULT_DATABASE_URL = "sqlite:///./tablelog.db"


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the service can be told. See the README's Configure section."""

    database_url: str = DEFAULT_DATABASE_URL
    operator_key: str | None = None
    """Bearer token that may create clubs and their API keys. None: club creation only by the CLI."""
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    pool_size: int = 10
    log_format: Literal["auto", "json", "console"] = "auto"
    log_level: str = "info"
    migrate_on_start: bool = True
    run_projector: bool = True
    """Run the projector (read models for standings, campaigns, replays) in a thread of each server process;
    a lease lets one of them work at a time. Off when it runs as its own process (`tablelog project`)."""
    projector_poll_seconds: float = 0.5
    projector_lease_seconds: float = 15.0
    """A runner that stops renewing its lease (killed) is replaced after this long."""
    snapshot_every: int = 100
    """A replay snapshot every this many events."""
    live_poll_seconds: float = 0.5
    """How often a live stream looks for new events."""
    live_keepalive_seconds: float = 15.0
    """A comment line sent on a quiet live stream this often, so proxies keep it open."""
    extra_rulesets: str = ""
    """Comma-separated modules exporting RULESET, registered beside the built-in games."""

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
