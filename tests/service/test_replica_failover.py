"""A read that fails on a replica is served by the primary (no streaming replica needed: the replica
here is a port nothing listens on)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service.store import open_store
from service.store.base import Store
from service.store.replicas import Replica, RoutedStore
from testkit.cluster import free_port

pytestmark = pytest.mark.postgres


@pytest.fixture
def primary(postgres_schema_url: str) -> Iterator[Store]:
    store = open_store(postgres_schema_url, pool_size=2)
    store.migrate()
    store.create_club("c1", "Club One")
    try:
        yield store
    finally:
        store.close()


def test_a_replica_gone_between_checks_hands_this_read_and_the_rest_of_the_request_to_the_primary(
    primary: Store,
) -> None:
    gone = Replica(f"postgresql://postgres@127.0.0.1:{free_port()}/test", pool_size=1)
    gone.store.db.pool.timeout = 0.5
    gone.status = "in rotation"  # as the last check found it
    failures: list[BaseException] = []
    routed = RoutedStore(primary, gone, lambda replica, error: failures.append(error))
    try:
        assert [club.club_id for club in routed.list_clubs()] == ["c1"]
        assert routed.replica is None, "the rest of the request reads the primary"
        assert len(failures) == 1
    finally:
        gone.store.close()
