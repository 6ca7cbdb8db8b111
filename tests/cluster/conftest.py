"""A primary of the tests' own and a streaming replica of it for the scale tests (issue 15), made once per
test process: the machine's PostgreSQL is never reconfigured for them.

Under `CI=true` a machine that cannot run them (not root, no PostgreSQL binaries) fails the tests instead of
skipping them: scripts/test sets both up.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from testkit.cluster import ClusterUnavailable, Primary, Private, Standby, with_address


def unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"the scale tests must run under CI: {reason}")
    pytest.skip(reason)


@contextmanager
def started(cluster: Private) -> Iterator[None]:
    """`cluster` started, skipped (or failed under CI) when this machine cannot run it; stopped at the end."""
    try:
        cluster.start()
    except ClusterUnavailable as reason:
        cluster.stop()
        unavailable(str(reason))
    except Exception:
        cluster.stop()
        raise
    try:
        yield
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """Here, the URL of the primary of the tests' own (in place of the test server's: see the module)."""
    primary = Primary()
    with started(primary):
        yield primary.url


@pytest.fixture(scope="session")
def standby(postgres_url: str) -> Iterator[Standby]:
    """The primary's replica, streaming; stopped and removed at the end."""
    replica = Standby(primary_url=postgres_url)
    with started(replica):
        yield replica


def on_replica(standby: Standby, schema_url: str) -> str:
    """A schema URL of the primary (with its search path), pointed at the replica."""
    return with_address(schema_url, "127.0.0.1", standby.port)


@contextmanager
def replay_paused(standby: Standby) -> Iterator[Standby]:
    """The replica with WAL replay paused once it has caught up; resumed afterwards whatever happens."""
    standby.wait_until_replayed()
    standby.execute("SELECT pg_wal_replay_pause()")
    try:
        yield standby
    finally:
        standby.execute("SELECT pg_wal_replay_resume()")
