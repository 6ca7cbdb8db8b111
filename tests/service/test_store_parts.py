"""The store as its parts: each small interface served by one part of each backend, and the shared
SQL's statements made ready for each driver."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from service.store import open_store
from service.store.access import AccessStore
from service.store.base import ClubRecords, Collections, EventRecorder, Projections, ReadModels, Schema, Store
from service.store.composed import ComposedStore
from service.store.sql import POSTGRES, SQLITE
from service.store.webhooks import WebhookStore

PARTS = {
    "schema": Schema,
    "events": EventRecorder,
    "projections": Projections,
    "read_models": ReadModels,
    "collections": Collections,
    "clubs": ClubRecords,
    "access": AccessStore,
    "webhooks": WebhookStore,
}


def members(interface: type) -> set[str]:
    """The methods an interface declares itself (not those of the interfaces it is made of)."""
    return {name for name, value in vars(interface).items() if callable(value) and not name.startswith("_")}


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    store = open_store(database_url, pool_size=2)
    try:
        yield store
    finally:
        store.close()


def test_every_method_of_the_store_is_its_part_s_own(store: Store) -> None:
    assert isinstance(store, ComposedStore)
    declared = [members(interface) for interface in PARTS.values()]
    assert members(Store) == set(), "Store only composes the parts"
    assert len(set().union(*declared)) == sum(map(len, declared)), "a method in two parts"
    for part, interface in PARTS.items():
        serving = getattr(store, part)
        for name in members(interface):
            method = getattr(store, name)
            assert method.__self__ is serving, f"{name} is not served by {part}"
            assert method.__func__ is getattr(type(serving), name)


@dataclasses.dataclass(frozen=True)
class _Statements:
    find: str = "SELECT a FROM t WHERE b = ? AND c IN (?, ?)"
    pattern: str = "SELECT a FROM t WHERE b LIKE 'x%' AND c = ?"


def test_statements_written_with_marks_are_prepared_once_in_each_driver_s_style() -> None:
    assert SQLITE.prepare(_Statements()) == _Statements()
    ready = POSTGRES.prepare(_Statements())
    assert ready.find == "SELECT a FROM t WHERE b = %s AND c IN (%s, %s)"
    assert ready.pattern == "SELECT a FROM t WHERE b LIKE 'x%%' AND c = %s"
    assert (SQLITE.marks(3), POSTGRES.marks(2)) == ("?, ?, ?", "%s, %s")
