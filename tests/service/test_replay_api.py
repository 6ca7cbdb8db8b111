"""The replay API on both backends: steps and chapters, the state at every step in every view equal to a
plain fold of the first N events, seeking from stored snapshots equal to seeking without, and
snapshots of an old ruleset version or format passed over by a read that never writes them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from domain.record import decoder, fold
from domain.ruleset import Viewer
from projections.diff import diff
from projections.replay import decode_snapshot, encode_snapshot, replay, snapshot, view_at
from service.store.base import SnapshotRow, Store, game_stream
from service.usecases.replays import good_snapshots
from testkit import tally
from tests.service.api_support import OPERATOR, Api
from tests.service.test_projector_support import as_json, projection_api, roll, wait_for_projector

EVERY = 3
VIEWS = [
    ("public", None, Viewer.public()),
    ("seat", 0, Viewer.of_seat(0)),
    ("seat", 1, Viewer.of_seat(1)),
    ("full", None, Viewer.full()),
]


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    with projection_api(database_url, snapshot_every=EVERY) as client:
        yield client


def corrected_game(api: Api) -> tuple[str, str, int]:
    """A tally game (target 20) with a correction in the middle and one at the end; returns the token,
    the game id and the last position written."""
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token, options={"target": 20})
    batches = [
        [roll(0, 3), roll(1, 4), roll(0, 6)],
        [{"type": "tablelog.correction", "voids": 2, "reason": "misread"}],
        [roll(1, 2), roll(0, 5), roll(1, 6), roll(0, 6), roll(1, 1), roll(0, 6)],
        [{"type": "tablelog.correction", "voids": 1}],
        [roll(0, 5), {"type": "tally.noted", "seat": 1, "text": "Bea sighs"}],
    ]
    version, position = 1, 0
    for batch in batches:
        response = api.append("c1", token, game_id, version, batch)
        assert response.status_code == 201, response.text
        version = response.json()["last_version"]
        position = api.opened("c1", response.json()["position"])
    return token, game_id, position


def stored_events(store: Store, game_id: str) -> list[Any]:
    return [decoder(tally.RULESET).decode(e.data) for e in store.read_stream(game_stream("c1", game_id))]


def test_the_replay_lists_every_step_with_voided_events_as_they_were_and_the_chapter_index(api: Api) -> None:
    token, game_id, _ = corrected_game(api)
    body = api.client.get(f"/clubs/c1/games/{game_id}/replay", headers=api.auth(token)).json()
    events = stored_events(api.client.app.state.store, game_id)
    assert body == as_json(replay(tally.RULESET, events, Viewer.public()))
    steps = body["steps"]
    assert [s["version"] for s in steps] == list(range(1, len(events) + 1))
    # Bea's 4 and Alain's 6 were voided by the correction at step 5, and still read as what they were.
    assert [(s["version"], s["text"], s["voided_by"]) for s in steps if s["voided"]] == [
        (3, "Seat 1 rolls a 4", 5),
        (4, "Seat 0 rolls a 6", 5),
        (11, "Seat 0 rolls a 6", 12),
    ]
    assert steps[4]["type"] == "tablelog.correction" and "misread" in steps[4]["text"]
    assert {"chapters": [["turn", 1]], "version": 2} in body["chapters"]


def test_the_state_at_every_step_in_every_view_equals_a_plain_fold_of_the_first_n_events(api: Api) -> None:
    token, game_id, position = corrected_game(api)
    wait_for_projector(api, position)
    store: Store = api.client.app.state.store
    events = stored_events(store, game_id)
    assert [s.version for s in store.snapshots(game_stream("c1", game_id))] == list(
        range(EVERY, len(events) + 1, EVERY)
    )
    for step in range(1, len(events) + 1):
        for view, seat, viewer in VIEWS:
            params: dict[str, Any] = {"view": view} | ({"seat": seat} if seat is not None else {})
            response = api.client.get(
                f"/clubs/c1/games/{game_id}/replay/{step}", params=params, headers=api.auth(token)
            )
            assert response.status_code == 200, response.text
            body = response.json()
            expected = tally.RULESET.view(fold(tally.RULESET, events[:step]).state, viewer)
            assert body["view"] == as_json(expected)
            if step > 1:
                before = tally.RULESET.view(fold(tally.RULESET, events[: step - 1]).state, viewer)
                assert body["changes"] == as_json(diff(before, expected))
            # Seeking from the stored snapshots gives what seeking from the start gives.
            assert body == as_json(view_at(tally.RULESET, events, step, viewer))


def test_a_snapshot_made_under_an_old_ruleset_version_is_passed_over_and_the_read_writes_nothing(api: Api) -> None:
    token, game_id, position = corrected_game(api)
    wait_for_projector(api, position)
    store: Store = api.client.app.state.store
    events = stored_events(store, game_id)
    # A snapshot "of version 0.9" whose state is wrong: using it would give a wrong view.
    wrong = fold(tally.RULESET, events[:6])
    old = msgspec.structs.replace(snapshot(wrong), version=9, ruleset_version="0.9.0")
    stream = game_stream("c1", game_id)
    store.replace_snapshots(
        stream, [SnapshotRow(stream_id=stream, version=9, ruleset_version="0.9.0", data=encode_snapshot(old))]
    )
    response = api.client.get(f"/clubs/c1/games/{game_id}/replay/10", params={"view": "full"}, headers=api.auth(token))
    assert response.status_code == 200, response.text
    assert response.json()["view"] == as_json(tally.RULESET.view(fold(tally.RULESET, events[:10]).state, Viewer.full()))
    # The snapshots are the projector's (issue 24): a GET folds past the stale one and leaves it as it was.
    kept = store.snapshots(game_stream("c1", game_id))
    assert [(s.version, s.ruleset_version) for s in kept] == [(9, "0.9.0")]


def test_a_step_past_the_end_is_a_404_and_a_seat_view_needs_its_seat(api: Api) -> None:
    token, game_id, _ = corrected_game(api)
    past = api.client.get(f"/clubs/c1/games/{game_id}/replay/99", headers=api.auth(token))
    assert past.status_code == 404 and past.json()["code"] == "no_such_step"
    assert past.headers["content-type"].startswith("application/problem+json")
    # Step 0 names the game's real range too (issue 16: it used to say "steps 1 to 1").
    last = api.client.get(f"/clubs/c1/games/{game_id}", headers=api.auth(token)).json()["version"]
    for step in (0, 99):
        refused = api.client.get(f"/clubs/c1/games/{game_id}/replay/{step}", headers=api.auth(token)).json()
        assert refused["detail"] == f"This game has steps 1 to {last}." and last > 1
    seatless = api.client.get(f"/clubs/c1/games/{game_id}/replay/2", params={"view": "seat"}, headers=api.auth(token))
    assert seatless.status_code == 400 and seatless.json()["field"] == "seat"
    other = api.club("c2")
    forbidden = api.client.get(f"/clubs/c1/games/{game_id}/replay", headers=api.auth(other))
    assert forbidden.status_code == 403


def test_a_snapshot_stored_in_an_older_format_is_passed_over_and_the_read_writes_nothing(api: Api) -> None:
    token, game_id, position = corrected_game(api)
    wait_for_projector(api, position)
    store: Store = api.client.app.state.store
    events = stored_events(store, game_id)
    stream = game_stream("c1", game_id)
    store.replace_snapshots(
        stream,
        [SnapshotRow(stream_id=stream, version=EVERY, ruleset_version=tally.RULESET.version, data=b"\x93\x01\x02\x03")],
    )  # not a Snapshot any more
    response = api.client.get(f"/clubs/c1/games/{game_id}/replay/10", params={"view": "full"}, headers=api.auth(token))
    assert response.status_code == 200, response.text
    assert response.json()["view"] == as_json(tally.RULESET.view(fold(tally.RULESET, events[:10]).state, Viewer.full()))
    kept = store.snapshots(game_stream("c1", game_id))
    assert [(s.version, s.data) for s in kept] == [(EVERY, b"\x93\x01\x02\x03")]


def test_the_replay_is_narrated_for_the_view_asked_and_a_spectate_key_reads_the_public_one(api: Api) -> None:
    # G-2 (issue 16): the test ruleset's notes are their seat's own; the public reads that a note was made.
    token, game_id, _ = corrected_game(api)
    url = f"/clubs/c1/games/{game_id}/replay"

    def last_line(key: str, **params: Any) -> str:
        response = api.client.get(url, params=params, headers=api.auth(key))
        assert response.status_code == 200, response.text
        return str(response.json()["steps"][-1]["text"])

    assert last_line(token) == last_line(token, view="public") == "Seat 1 notes"
    assert last_line(token, view="seat", seat=0) == "Seat 1 notes"
    assert last_line(token, view="seat", seat=1) == last_line(token, view="full") == "Seat 1 notes: Bea sighs"
    spectate = api.client.post(
        "/clubs/c1/keys", json={"name": "screen", "scope": "spectate"}, headers=api.auth(OPERATOR)
    ).json()["token"]
    assert last_line(spectate) == "Seat 1 notes"
    refused = api.client.get(url, params={"view": "full"}, headers=api.auth(spectate))
    assert refused.status_code == 403
    beyond = api.client.get(url, params={"view": "seat", "seat": 7}, headers=api.auth(token))
    assert beyond.status_code == 422 and beyond.json()["type"] == "/problems/no-such-seat"


def test_a_replay_seeks_only_from_snapshots_of_the_ruleset_version_in_todays_format(api: Api) -> None:
    token, game_id, position = corrected_game(api)
    del token
    wait_for_projector(api, position)
    store: Store = api.client.app.state.store
    good = store.snapshots(game_stream("c1", game_id))
    assert good and all(row.ruleset_version == tally.RULESET.version for row in good)
    stale = msgspec.structs.replace(good[0], ruleset_version="0.9.0")
    garbled = msgspec.structs.replace(good[-1], data=b"\x93\x01\x02\x03")
    found = good_snapshots(tally.RULESET, [stale, *good, garbled])
    assert [s.version for s in found] == [row.version for row in good]
    assert found == [decode_snapshot(row.data) for row in good]


def test_a_step_is_kept_by_its_etag_and_the_replay_revalidated_until_the_game_moves_on(api: Api) -> None:
    token = api.club("c1")
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token, options={"target": 20})
    assert api.append("c1", token, game_id, 1, [roll(0, 3), roll(1, 4)]).status_code == 201
    auth = Api.auth(token)
    step, whole = f"/clubs/c1/games/{game_id}/replay/3", f"/clubs/c1/games/{game_id}/replay"
    first, listed = api.client.get(step, headers=auth), api.client.get(whole, headers=auth)
    assert first.status_code == 200 and first.json()["version"] == 3 and "immutable" in first.headers["cache-control"]
    assert "no-cache" in listed.headers["cache-control"] and "Accept-Language" in first.headers["vary"]
    held = api.client.get(step, headers=auth | {"If-None-Match": first.headers["etag"]})
    assert held.status_code == 304 and held.content == b"" and held.headers["etag"] == first.headers["etag"]
    assert api.client.get(whole, headers=auth | {"If-None-Match": listed.headers["etag"]}).status_code == 304
    # a correction voids step 3: step 3 still reads as it did (the correction is step 4); the replay moves on
    voided = [{"type": "tablelog.correction", "voids": 1, "reason": "misread"}]
    assert api.append("c1", token, game_id, 3, voided).status_code == 201
    assert api.client.get(step, headers=auth | {"If-None-Match": first.headers["etag"]}).status_code == 304
    moved = api.client.get(whole, headers=auth | {"If-None-Match": listed.headers["etag"]})
    assert moved.status_code == 200 and moved.headers["etag"] != listed.headers["etag"]
    assert len(moved.json()["steps"]) == len(listed.json()["steps"]) + 1
