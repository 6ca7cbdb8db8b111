"""A streaming replica of the test PostgreSQL for the scale tests (issue 15), made once per test process.

Under `CI=true` a machine that cannot run it (not root, no binaries, replication not allowed) fails the
tests instead of skipping them: scripts/test sets every one of those up.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.support.cluster import ClusterUnavailable, Standby, with_address


def unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"the scale tests must run under CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def standby(postgres_url: str) -> Iterator[Standby]:
    """The test server's replica, streaming; stopped and removed at the end."""
    replica = Standby(postgres_url)
    try:
        replica.start()
    except ClusterUnavailable as reason:
        replica.stop()
        unavailable(str(reason))
    except Exception:
        replica.stop()
        raise
    try:
        yield replica
    finally:
        replica.stop()


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
