"""The store contract, run on SQLite and on PostgreSQL."""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any, cast

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal

from domain.ruleset import Result
from projections.standings import Removal
from service.store import open_store
from service.store.async_events import AsyncEvents, InThreads
from service.store.base import (
    AlreadyExists,
    AppendRequest,
    GameFilter,
    GameProgress,
    GameRecord,
    GameSummary,
    IdempotencyMismatch,
    ImmutableRecord,
    MissingReference,
    NewEvent,
    Outcome,
    Recorder,
    SnapshotRow,
    SpectatorDelay,
    Store,
    StoredEvent,
    VersionConflict,
    game_stream,
)
from service.store.postgres import AsyncPostgresEvents, PostgresStore
from testkit.waiting import scaled
from tests.support.raw_store import try_raw_delete, try_raw_update

BY = Recorder(club_id="c1", key_id="k1")


def read_all_when_visible(store: Store, count: int, *, after: int = 0, limit: int = 1000) -> list[StoredEvent]:
    """read_all once `count` events are visible. On PostgreSQL the read gate holds events back while
    any older writing transaction on the server is still open (another test's, say): a lag, never a loss."""
    deadline = time.monotonic() + scaled(60)
    while True:
        page = store.read_all(after=after, limit=limit)
        if len(page) >= count or time.monotonic() > deadline:
            return page
        time.sleep(0.02)


def events(*names: str) -> list[NewEvent]:
    return [NewEvent(type=f"test.{n}", schema_version=1, data=b'{"n":"%s"}' % n.encode()) for n in names]


HOT_PATH = frozenset({"append", "replayed_append", "read_stream", "stream_version", "get_game"})
"""The `Store` methods that `AsyncEvents` also offers, awaited by the HTTP hot path."""


class OnTheLoop:
    """A `Store` whose hot-path methods are awaited through `AsyncEvents` on an event loop (a portal
    thread; calls from several threads run there concurrently), the rest blocking as usual: the contract
    tests that take it hold for the hot path as for the blocking store."""

    def __init__(self, store: Store, hot: AsyncEvents, portal: BlockingPortal) -> None:
        self._store, self._hot, self._portal = store, hot, portal

    def __getattr__(self, name: str) -> Any:
        if name not in HOT_PATH:
            return getattr(self._store, name)
        method = getattr(self._hot, name)
        return lambda *args, **kwargs: self._portal.call(functools.partial(method, *args, **kwargs))


@pytest.fixture
def store(database_url: str, request: pytest.FixtureRequest) -> Iterator[Store]:
    store = open_store(database_url, pool_size=20)
    store.migrate()
    store.create_club("c1", "Club One")
    try:
        if getattr(request, "param", "blocking") == "blocking":
            yield store
            return
        with start_blocking_portal() as portal:
            if isinstance(store, PostgresStore):
                hot: Any = AsyncPostgresEvents(store.url, size=20)
                portal.call(hot.open)
            else:
                hot = InThreads(store)
            try:
                yield cast(Store, OnTheLoop(store, hot, portal))
            finally:
                if isinstance(hot, AsyncPostgresEvents):
                    portal.call(hot.close)
    finally:
        store.close()


both_paths = pytest.mark.parametrize("store", ["blocking", "event loop"], indirect=True)
"""For the tests of the hot path: run them on the blocking store and awaited on the event loop."""


def test_migrations_are_applied_once_and_then_none_is_pending(store: Store) -> None:
    assert store.pending_migrations() == []
    assert store.migrate() == []


@both_paths
def test_an_append_is_read_back_with_versions_positions_and_recorder(store: Store) -> None:
    result = store.append(AppendRequest("g1", events("a", "b"), 0, recorded_by=BY))
    assert (result.first_version, result.last_version) == (1, 2)
    stored = store.read_stream("g1")
    assert [(e.version, e.type, e.data) for e in stored] == [(1, "test.a", b'{"n":"a"}'), (2, "test.b", b'{"n":"b"}')]
    assert [e.position for e in stored] == list(result.positions)
    assert stored[0].position < stored[1].position
    assert {(e.club_id, e.key_id, e.schema_version) for e in stored} == {("c1", "k1", 1)}
    assert all(e.recorded_at.tzinfo is not None for e in stored)
    assert store.stream_version("g1") == 2
    assert store.stream_version("nothing") == 0


@both_paths
def test_reading_a_stream_pages_by_version(store: Store) -> None:
    store.append(AppendRequest("g1", events("a", "b", "c", "d"), 0, recorded_by=BY))
    assert [e.version for e in store.read_stream("g1", after_version=1, limit=2)] == [2, 3]


@both_paths
def test_a_stale_expected_version_is_a_conflict_that_reports_the_current_version(store: Store) -> None:
    store.append(AppendRequest("g1", events("a", "b"), 0, recorded_by=BY))
    with pytest.raises(VersionConflict) as conflict:
        store.append(AppendRequest("g1", events("c"), 1, recorded_by=BY))
    assert conflict.value.current == 2
    with pytest.raises(VersionConflict) as ahead:
        store.append(AppendRequest("g1", events("c"), 5, recorded_by=BY))
    assert ahead.value.current == 2
    assert store.stream_version("g1") == 2


@both_paths
def test_a_failed_batch_writes_none_of_its_events(store: Store) -> None:
    store.append(AppendRequest("g1", events("a"), 0, recorded_by=BY))
    with pytest.raises(VersionConflict):
        store.append(AppendRequest("g1", events("x", "y", "z"), 0, recorded_by=BY))
    assert [e.type for e in store.read_stream("g1")] == ["test.a"]
    store.append(AppendRequest("marker", events("after"), 0, recorded_by=BY))  # visible only once all before it are
    assert [e.type for e in read_all_when_visible(store, 2)] == ["test.a", "test.after"]


@both_paths
def test_an_idempotent_retry_returns_the_first_result_and_writes_nothing(store: Store) -> None:
    first = store.append(AppendRequest("g1", events("a", "b"), 0, recorded_by=BY, idempotency_key="k-1"))
    again = store.append(AppendRequest("g1", events("a", "b"), 0, recorded_by=BY, idempotency_key="k-1"))
    assert again.replayed and not first.replayed
    assert (again.first_version, again.last_version, again.positions) == (1, 2, first.positions)
    assert len(store.read_stream("g1")) == 2


@both_paths
def test_an_idempotency_key_reused_with_another_body_is_refused(store: Store) -> None:
    store.append(AppendRequest("g1", events("a"), 0, recorded_by=BY, idempotency_key="k-1"))
    with pytest.raises(IdempotencyMismatch):
        store.append(AppendRequest("g1", events("b"), 1, recorded_by=BY, idempotency_key="k-1"))
    assert store.stream_version("g1") == 1


def test_stored_events_cannot_be_updated_or_deleted(store: Store) -> None:
    result = store.append(AppendRequest("g1", events("a"), 0, recorded_by=BY))
    with pytest.raises(ImmutableRecord):
        try_raw_update(store, result.positions[0])
    with pytest.raises(ImmutableRecord):
        try_raw_delete(store, result.positions[0])
    assert [e.type for e in store.read_stream("g1")] == ["test.a"]


def test_read_all_pages_every_stream_in_position_order(store: Store) -> None:
    store.append(AppendRequest("g1", events("a", "b"), 0, recorded_by=BY))
    store.append(AppendRequest("g2", events("c"), 0, recorded_by=BY))
    store.append(AppendRequest("g1", events("d"), 2, recorded_by=BY))
    first = read_all_when_visible(store, 2, limit=2)
    rest = read_all_when_visible(store, 2, after=first[-1].position)
    assert [e.type for e in first + rest] == ["test.a", "test.b", "test.c", "test.d"]


def test_read_club_pages_one_club_s_events_in_position_order(store: Store) -> None:
    other = Recorder(club_id="c2")
    store.append(AppendRequest("c1/g1", events("a", "b"), 0, recorded_by=BY))
    store.append(AppendRequest("c2/g1", events("x"), 0, recorded_by=other))
    store.append(AppendRequest("c1/g2", events("c"), 0, recorded_by=BY))
    store.append(AppendRequest("c1/g1", events("d"), 2, recorded_by=BY))
    read_all_when_visible(store, 5)
    first = store.read_club("c1", limit=2)
    rest = store.read_club("c1", after=first[-1].position)
    assert [e.type for e in first + rest] == ["test.a", "test.b", "test.c", "test.d"]
    assert {e.club_id for e in first + rest} == {"c1"}
    assert [e.type for e in store.read_club("c2")] == ["test.x"] and store.read_club("c3") == []
    assert store.read_club("c1", after=rest[-1].position) == []


def game(game_id: str, players: tuple[str, ...], ruleset: str = "tally", club_id: str = "c1") -> GameRecord:
    return GameRecord(
        game_id=game_id,
        club_id=club_id,
        ruleset=ruleset,
        ruleset_version="1.0.0",
        player_ids=players,
        created_at=datetime.now(UTC),
        title=game_id,
    )


@both_paths
def test_a_game_listing_is_written_with_its_first_events_and_updated_by_appends(store: Store) -> None:
    store.append(AppendRequest("g1", events("start"), 0, recorded_by=BY, game=game("g1", ("p1", "p2"))))
    store.append(AppendRequest("g1", events("a", "b"), 1, recorded_by=BY))  # no progress: the listing is not written
    unfinished = store.get_game("c1", "g1")
    assert unfinished is not None and (unfinished.version, unfinished.finished) == (3, False)
    store.append(AppendRequest("g1", events("end"), 3, recorded_by=BY, progress=GameProgress(finished=True)))
    listed = store.get_game("c1", "g1")
    assert listed is not None
    assert (listed.version, listed.finished, listed.player_ids) == (4, True, ("p1", "p2"))
    assert listed.finished_at is not None and listed.stream_id == "g1"
    assert [g.version for g in store.list_games("c1", GameFilter())] == [4]
    with pytest.raises(AlreadyExists):
        store.append(AppendRequest("g1", events("start"), 0, recorded_by=BY, game=game("g1", ("p1",))))


def test_a_games_title_is_changed_in_its_listing_and_its_record_stays_as_it_was(store: Store) -> None:
    store.append(AppendRequest("g1", events("start", "a"), 0, recorded_by=BY, game=game("g1", ("p1", "p2"))))
    before = store.read_stream("g1")
    changed = store.set_game_title("c1", "g1", "Friday final")
    assert changed is not None and changed.title == "Friday final" and changed.version == 2
    assert [g.title for g in store.list_games("c1", GameFilter())] == ["Friday final"]
    assert store.read_stream("g1") == before
    assert store.set_game_title("c1", "nope", "x") is None
    assert store.set_game_title("other-club", "g1", "x") is None


def test_games_are_listed_with_filters(store: Store) -> None:
    store.append(AppendRequest("g1", events("s"), 0, recorded_by=BY, game=game("g1", ("p1", "p2"))))
    store.append(AppendRequest("g2", events("s"), 0, recorded_by=BY, game=game("g2", ("p2", "p3"), ruleset="other")))
    store.append(AppendRequest("g2", events("e"), 1, recorded_by=BY, progress=GameProgress(finished=True)))
    ids = lambda **kw: sorted(g.game_id for g in store.list_games("c1", GameFilter(**kw)))  # noqa: E731
    assert ids() == ["g1", "g2"]
    assert ids(player_id="p1") == ["g1"]
    assert ids(player_id="p2") == ["g1", "g2"]
    assert ids(ruleset="other") == ["g2"]
    assert ids(finished=True) == ["g2"]
    assert ids(finished=False) == ["g1"]
    assert ids(created_from=datetime(2999, 1, 1, tzinfo=UTC)) == []
    assert store.list_games("other-club", GameFilter()) == []


@both_paths
def test_two_clubs_each_keep_a_game_of_the_same_id_on_its_own_stream(store: Store) -> None:
    store.create_club("c2", "Club Two")
    two = Recorder(club_id="c2")
    store.append(
        AppendRequest(game_stream("c1", "friday-1"), events("s"), 0, recorded_by=BY, game=game("friday-1", ("p1",)))
    )
    store.append(
        AppendRequest(
            game_stream("c2", "friday-1"),
            events("s", "t"),
            0,
            recorded_by=two,
            game=game("friday-1", ("p9",), club_id="c2"),
            progress=GameProgress(finished=True),
        )
    )
    one, other = store.get_game("c1", "friday-1"), store.get_game("c2", "friday-1")
    assert one is not None and other is not None
    assert (one.stream_id, one.version, one.finished, one.player_ids) == ("c1/friday-1", 1, False, ("p1",))
    assert (other.stream_id, other.version, other.finished, other.player_ids) == ("c2/friday-1", 2, True, ("p9",))
    assert [e.type for e in store.read_stream(other.stream_id)] == ["test.s", "test.t"]
    assert store.get_game("c3", "friday-1") is None
    assert [g.game_id for g in store.list_games("c2", GameFilter(player_id="p1"))] == []
    assert [g.game_id for g in store.list_games("c2", GameFilter(player_id="p9"))] == ["friday-1"]
    # The id is taken within its club only.
    with pytest.raises(AlreadyExists):
        store.append(
            AppendRequest(
                game_stream("c2", "other"),
                events("s"),
                0,
                recorded_by=two,
                game=game("friday-1", ("p9",), club_id="c2"),
            )
        )
    store.create_club("c3", "Club Three")
    for attempt in range(2):  # an import writes the club's own friday-1 once
        restore = functools.partial(
            store.restore_stream,
            game_stream("c3", "friday-1"),
            events("s"),
            [datetime.now(UTC)],
            recorded_by=Recorder(club_id="c3"),
            game=game("friday-1", ("p1",), club_id="c3"),
        )
        if attempt:
            with pytest.raises(AlreadyExists):
                restore()
        else:
            restore()
    assert [g.stream_id for g in store.list_games("c3", GameFilter())] == ["c3/friday-1"]


def test_read_models_and_club_records_of_same_id_games_stay_with_their_club(store: Store) -> None:
    store.create_club("c2", "Club Two")
    streams = {club: game_stream(club, "friday-1") for club in ("c1", "c2")}
    for club, stream in streams.items():
        store.append(
            AppendRequest(
                stream, events("s"), 0, recorded_by=Recorder(club_id=club), game=game("friday-1", (), club_id=club)
            )
        )
    summary = GameSummary(
        game_id="friday-1",
        club_id="c2",
        ruleset="tally",
        ruleset_version="1.0.0",
        version=1,
        applied=1,
        started_at=datetime.now(UTC),
        players=(),
        outcome=Outcome(finished=False, finished_at=None, result=Result(finished=False, score_unit="", players=())),
    )
    snapshot = SnapshotRow(stream_id=streams["c2"], version=1, ruleset_version="1.0.0", data=b"x")
    assert store.commit_projection("games", 0, 1, [summary, snapshot])
    assert store.game_summaries("c1", ["friday-1"]) == {}
    assert store.game_summaries("c2", ["friday-1"]) == {"friday-1": summary}
    assert store.snapshots(streams["c1"]) == [] and store.snapshots(streams["c2"]) == [snapshot]
    store.set_spectator_delay(streams["c2"], SpectatorDelay(events=3))
    assert store.spectator_delay(streams["c1"]) == SpectatorDelay()
    assert store.spectator_delay(streams["c2"]) == SpectatorDelay(events=3)
    # A club's delayed games, by game id: the other club's game of the same id is not one of them.
    version = store.stream_version(streams["c2"])
    assert store.spectator_delays("c2") == {"friday-1": (streams["c2"], SpectatorDelay(events=3), version)}
    assert store.spectator_delays("c1") == {}
    store.create_collection("league", "c2", "spring", b"{}")
    store.add_collection_game("league", "c2", "spring", "friday-1")
    assert store.collections_of_game("c1", "friday-1") == []
    assert store.collections_of_game("c2", "friday-1") == [("league", "spring")]
    store.create_collection("league", "c2", "summer", b"{}")
    store.append(
        AppendRequest(game_stream("c1", "saturday-1"), events("s"), 0, recorded_by=BY, game=game("saturday-1", ()))
    )
    with pytest.raises(MissingReference) as missing:  # a game id another club holds is no game of this club's
        store.add_collection_game("league", "c2", "summer", "saturday-1")
    assert "game" in missing.value.what


def test_clubs_players_and_keys_are_kept(store: Store) -> None:
    with pytest.raises(AlreadyExists):
        store.create_club("c1", "again")
    store.create_player("c1", "p1", "Alain")
    store.create_player("c1", "p2", "Bea")
    with pytest.raises(AlreadyExists):
        store.create_player("c1", "p1", "Alain again")
    assert [p.name for p in store.list_players("c1")] == ["Alain", "Bea"]
    assert [p.player_id for p in store.get_players("c1", ["p2", "zz"])] == ["p2"]
    store.create_api_key("k1", "c1", "scorer", "abc")
    key = store.get_api_key("k1")
    assert key is not None and (key.club_id, key.secret_hash, key.revoked) == ("c1", "abc", False)
    assert store.get_api_key("nope") is None


def test_a_player_is_renamed_noted_retired_and_brought_back(store: Store) -> None:
    store.create_player("c1", "p1", "Alain")
    renamed = store.update_player("c1", "p1", name="Alain D.", note="Tuesdays")
    assert renamed is not None and (renamed.name, renamed.note, renamed.retired_at) == ("Alain D.", "Tuesdays", None)
    retired = store.update_player("c1", "p1", retired=True)
    assert retired is not None and retired.retired_at is not None and retired.name == "Alain D."
    again = store.update_player("c1", "p1", retired=True)  # retiring twice keeps the first date
    assert again is not None and again.retired_at == retired.retired_at
    [listed] = store.list_players("c1")
    assert (listed.note, listed.retired_at) == ("Tuesdays", retired.retired_at)
    back = store.update_player("c1", "p1", retired=False)
    assert back is not None and back.retired_at is None
    assert store.update_player("c1", "nobody", name="X") is None


def test_a_merge_is_a_row_of_its_own_read_back_with_who_and_when(store: Store) -> None:
    store.create_player("c1", "alain", "Alain")
    store.create_player("c1", "p-alain", "Alain")
    merge = store.merge_player("c1", "p-alain", "alain", "k1")
    [read] = store.player_merges("c1")
    assert (read.player_id, read.into_id, read.key_id) == ("p-alain", "alain", "k1")
    assert read.merged_at == merge.merged_at
    with pytest.raises(AlreadyExists):
        store.merge_player("c1", "p-alain", "alain", "k1")
    with pytest.raises(MissingReference):
        store.merge_player("c1", "ghost", "alain", "k1")
    assert store.player_merges("other") == []
    assert [p.player_id for p in store.list_players("c1")] == ["alain", "p-alain"]  # both records kept


def test_game_numbers_count_per_club_and_prefix_and_never_repeat_under_concurrent_takers(store: Store) -> None:
    assert [store.next_game_number("c1", "2026-11-26-mn-") for _ in range(2)] == [1, 2]
    assert store.next_game_number("c1", "2026-11-27-mn-") == 1
    store.create_club("c2", "Club Two")
    assert store.next_game_number("c2", "2026-11-26-mn-") == 1
    taken: list[int] = []
    lock = threading.Lock()

    def taker() -> None:
        for _ in range(5):
            number = store.next_game_number("c1", "race-")
            with lock:
                taken.append(number)

    threads = [threading.Thread(target=taker) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(taken) == list(range(1, 31))


def test_resources_are_versioned_and_immutable(store: Store) -> None:
    first = store.add_resource("c1", "tally", "catalogue", "deck", {"cards": [1, 2]})
    second = store.add_resource("c1", "tally", "catalogue", "deck", {"cards": [1, 2, 3]})
    assert (first.version, second.version) == (1, 2)
    assert first.content_hash != second.content_hash
    latest = store.get_resource("c1", "tally", "catalogue", "deck")
    assert latest is not None and latest.content == {"cards": [1, 2, 3]}
    old = store.get_resource("c1", "tally", "catalogue", "deck", version=1)
    assert old is not None and old.content == {"cards": [1, 2]} and old.content_hash == first.content_hash
    assert [r.version for r in store.list_resources("c1")] == [1, 2]


def test_leagues_removals_and_access_records_are_read_back_as_written(store: Store) -> None:
    store.append(AppendRequest(game_stream("c1", "g1"), events("s"), 0, recorded_by=BY, game=game("g1", ())))
    store.create_collection("league", "c1", "spring", b'{"points": 3}')
    store.add_collection_game("league", "c1", "spring", "g1")
    league = store.get_collection("league", "c1", "spring")
    assert league is not None
    assert (league.definition, league.game_ids) == (b'{"points": 3}', ("g1",))
    assert league.created_at.tzinfo is not None
    assert store.get_collection("campaign", "c1", "spring") is None
    now = datetime.now(UTC)
    taken_out = Removal(game_id="g1", action="removed", reason="misrecorded", key_id="k1", recorded_at=now)
    store.record_removal("league", "c1", "spring", taken_out)
    assert store.removals("league", "c1", "spring") == [taken_out]
    expires = datetime(2999, 1, 1, tzinfo=UTC)
    store.create_api_key("k2", "c1", "reader", "hash", scope="read", expires_at=expires)
    key = store.get_api_key("k2")
    assert key is not None and (key.scope, key.expires_at, key.revoked_at) == ("read", expires, None)
    store.create_page_session("s1", "k2", "hash", expires)
    store.revoke_page_session("s1")
    session = store.get_page_session("s1")
    assert session is not None and (session.key_id, session.expires_at) == ("k2", expires)
    assert session.revoked_at is not None
    link = store.create_share_link("l1", "c1", "league", "spring", "for the board", "hash", None)
    assert store.get_share_link("l1") == link and link.player_id is None
    player = store.create_share_link("l2", "c1", "player", "friday", "Bea", "hash", "k2", player_id="bea")
    assert store.get_share_link("l2") == player and (player.kind, player.player_id) == ("player", "bea")
    assert store.list_share_links("c1") == [link, player]


def test_a_taken_id_in_the_shared_tables_is_already_exists_naming_what_was_taken(store: Store) -> None:
    store.append(AppendRequest(game_stream("c1", "g1"), events("s"), 0, recorded_by=BY, game=game("g1", ())))
    store.create_collection("league", "c1", "spring", b"{}")
    with pytest.raises(AlreadyExists) as collection:
        store.create_collection("league", "c1", "spring", b"{}")
    assert (collection.value.what, collection.value.ident) == ("league", "spring")
    store.add_collection_game("league", "c1", "spring", "g1")
    with pytest.raises(AlreadyExists) as assigned:
        store.add_collection_game("league", "c1", "spring", "g1")
    assert (assigned.value.what, assigned.value.ident) == ("league game", "g1")
    store.create_share_link("l1", "c1", "game", "g1", "", "hash", None)
    with pytest.raises(AlreadyExists) as link:
        store.create_share_link("l1", "c1", "game", "g1", "", "hash", None)
    assert (link.value.what, link.value.ident) == ("share link", "l1")


@both_paths
def test_concurrent_writers_on_one_stream_write_each_version_once(store: Store) -> None:
    """Eight writers race to append 25 events each to one stream, retrying on conflict."""
    written: list[int] = []
    lock = threading.Lock()

    def writer(n: int) -> None:
        done = 0
        while done < 25:
            version = store.stream_version("race")
            try:
                result = store.append(AppendRequest("race", events(f"w{n}-{done}"), version, recorded_by=BY))
            except VersionConflict:
                continue
            with lock:
                written.append(result.last_version)
            done += 1

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stored = store.read_stream("race")
    assert [e.version for e in stored] == list(range(1, 201))
    assert sorted(written) == list(range(1, 201))
    assert len({e.type for e in stored}) == 200


def test_a_concurrent_reader_sees_every_committed_event_once_in_order(store: Store) -> None:
    """Twelve writers on their own streams; a reader pages read_all all the while. What it read must
    equal the committed set, in position order, with no gaps and no duplicates."""
    writers_done = threading.Event()
    committed: list[int] = []
    lock = threading.Lock()
    seen: list[int] = []

    def writer(n: int) -> None:
        for i in range(20):
            result = store.append(
                AppendRequest(
                    f"s{n}",
                    events(*(f"{n}-{i}-{j}" for j in range(1 + i % 3))),
                    store.stream_version(f"s{n}"),
                    recorded_by=BY,
                )
            )
            with lock:
                committed.extend(result.positions)

    def reader() -> None:
        # Read until every committed event has been seen: an empty page proves nothing on PostgreSQL,
        # where another session's open transaction holds the read gate back for a while.
        after = 0
        deadline = time.monotonic() + scaled(120)
        while time.monotonic() < deadline:
            finished = writers_done.is_set()
            page = store.read_all(after=after, limit=37)
            seen.extend(e.position for e in page)
            if page:
                after = page[-1].position
            elif finished and len(seen) >= len(committed):
                return
            else:
                time.sleep(0.01)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(12)]
    tail = threading.Thread(target=reader)
    tail.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    writers_done.set()
    tail.join(timeout=180)
    assert not tail.is_alive()
    assert len(seen) == len(set(seen)), "the reader saw an event twice"
    assert seen == sorted(seen), "the reader saw events out of order"
    assert seen == sorted(committed), "the reader missed committed events"
