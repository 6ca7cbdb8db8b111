"""The ratings the games projection keeps: applied batch by batch (games finishing one after another,
corrections reopening finished ones) they equal the ratings derived from scratch over the finished game
summaries, and a rebuild from zero gives them again."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from projections.ratings import rate_all
from service.projector import Games, Runner, rebuild
from service.store import open_store
from service.store.base import Store
from service.usecases.ratings import rated
from tests.service.test_projector import PLAYERS, drain, record_games
from tests.support.rulesets import RULESETS


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    opened = open_store(database_url)
    opened.migrate()
    try:
        yield opened
    finally:
        opened.close()


def kept(store: Store) -> dict[str, Any]:
    ratings = store.player_ratings("c1", "tally")
    return {
        "ratings": msgspec.to_builtins(ratings),
        "history": {p: msgspec.to_builtins(store.rating_history("c1", "tally", p)) for p in PLAYERS},
    }


def test_ratings_kept_batch_by_batch_equal_those_derived_from_scratch_and_a_rebuild(store: Store) -> None:
    last = record_games(store, 12, seed=11)
    drain(store, until=last, runners=[Runner(store, Games(store, RULESETS), batch=7)])
    batch_by_batch = kept(store)
    assert batch_by_batch["ratings"], "the seed should finish some games"
    finished = [rated(s) for s in store.finished_summaries("c1", "tally")]
    now, history = rate_all(finished)
    assert batch_by_batch["ratings"] == msgspec.to_builtins(now)
    assert sum(len(h) for h in batch_by_batch["history"].values()) == len(history)
    rebuild(store, Games(store, RULESETS), batch=500)
    assert kept(store) == batch_by_batch
