"""Idempotent retries under concurrency: many copies of one append with one `Idempotency-Key`, sent
at once through several server workers, all get the first result, and the batch is stored once."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from domain.ruleset import Viewer
from service.store.base import AppendRequest, AppendResult, Recorder, Store, game_stream
from service.usecases.games import GameRecords, NewGame, SeatSpec
from tests.service.api_support import club_store
from tests.support.rulesets import RULESETS

COPIES = 200
WORKERS = 2  # server processes: each has its own GameRecords (its own remembered folds)
BY = Recorder(club_id="c1", key_id="k1")


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    with club_store(database_url, pool_size=20) as opened:
        yield opened


class CheckedAtOnce:
    """The store, with every copy's append reaching it before any copy's goes on: the worst interleaving
    (every copy has checked the game at the version it expects and found its key unused, then they all
    try to append), made certain."""

    def __init__(self, store: Store, copies: int) -> None:
        self._store = store
        self._all_checked = threading.Barrier(copies)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def append(self, request: AppendRequest) -> AppendResult:
        if request.idempotency_key is not None:  # the copies' appends (not the game's creation)
            self._all_checked.wait()
        return self._store.append(request)


@pytest.mark.parametrize("interleaving", ["as it comes", "every copy checks first"])
def test_every_concurrent_copy_of_an_idempotent_append_gets_the_first_result(store: Store, interleaving: str) -> None:
    shared: Any = store if interleaving == "as it comes" else CheckedAtOnce(store, COPIES)
    workers = [GameRecords(shared, RULESETS) for _ in range(WORKERS)]
    players = [SeatSpec(player_id="alain"), SeatSpec(player_id="bea")]
    workers[0].create_game("c1", NewGame(ruleset="tally", players=players, game_id="friday-1"), BY)
    for worker in workers:  # each worker has folded the game once, as a busy server has
        worker.state("c1", "friday-1", Viewer.public())
    batch: list[dict[str, Any]] = [
        {"type": "tally.rolled", "seat": 0, "face": 4},
        {"type": "tally.rolled", "seat": 1, "face": 2},
    ]
    start = threading.Barrier(COPIES)

    def send(copy: int) -> AppendResult | Exception:
        start.wait()
        try:
            return workers[copy % WORKERS].append("c1", "friday-1", batch, 1, BY, idempotency_key="deal-1")
        except Exception as error:
            return error

    with ThreadPoolExecutor(COPIES) as pool:
        answers = list(pool.map(send, range(COPIES)))

    failures = [a for a in answers if isinstance(a, Exception)]
    assert not failures, f"{len(failures)} of {COPIES} copies failed: {sorted({repr(f) for f in failures})[:3]}"
    results = [a for a in answers if isinstance(a, AppendResult)]
    first = [r for r in results if not r.replayed]
    assert len(first) == 1
    assert {(r.first_version, r.last_version, r.positions) for r in results} == {(2, 3, first[0].positions)}
    assert [e.version for e in store.read_stream(game_stream("c1", "friday-1"))] == [1, 2, 3]
