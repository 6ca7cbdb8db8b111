"""Notes at a step over the API on both backends: who writes and who reads which visibility (record,
read and spectate keys), the spectator delay holding public notes back with their steps, seat notes in
that seat's view only, edits and deletions as the notes' own stream (the game's record untouched), a
note on a voided step saying so, and each bad input a 4xx problem with nothing stored."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from service.store.base import game_stream
from service.usecases.notes import stream_id
from tests.service.api_support import OPERATOR, Api
from tests.service.test_projector_support import correction, roll
from tests.support.rulesets import RULESETS


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    app = create_app(
        Settings(database_url=database_url, operator_key=OPERATOR, log_format="json", run_projector=False),
        rulesets=RULESETS,
    )
    with TestClient(app) as client:
        yield Api(client)


def keys(api: Api) -> dict[str, str]:
    """Club c1 with alain and bea, and a record, a read and a spectate key's tokens."""
    tokens = {"record": api.club("c1")}
    api.players("c1", tokens["record"], "alain", "bea")
    for scope in ("read", "spectate"):
        made = api.client.post(
            "/clubs/c1/keys", json={"name": f"{scope} desk", "scope": scope}, headers=api.auth(OPERATOR)
        )
        assert made.status_code == 201, made.text
        tokens[scope] = made.json()["token"]
    return tokens


def game(api: Api, token: str) -> str:
    """A Tally game of 6 steps whose step 4 a correction (step 5) voided."""
    game_id = api.tally_game("c1", token)
    appended = api.append("c1", token, game_id, 1, [roll(0, 3), roll(1, 4), roll(0, 2), correction(1, "misread")])
    assert appended.status_code == 201, appended.text
    appended = api.append("c1", token, game_id, 5, [roll(0, 5)])
    assert appended.status_code == 201, appended.text
    return game_id


def write(api: Api, token: str, game_id: str, **body: Any) -> Any:
    return api.client.post(f"/clubs/c1/games/{game_id}/notes", json=body, headers=api.auth(token))


def seen(api: Api, token: str, game_id: str, query: str = "") -> list[tuple[int, str]]:
    answer = api.client.get(f"/clubs/c1/games/{game_id}/notes{query}", headers=api.auth(token))
    assert answer.status_code == 200, answer.text
    return [(n["step"], n["text"]) for n in answer.json()]


def test_who_reads_which_notes_club_public_and_a_seats_own(api: Api) -> None:
    tokens = keys(api)
    game_id = game(api, tokens["record"])
    made = write(api, tokens["read"], game_id, step=2, text="Too cautious", marker="?!")
    assert made.status_code == 201, made.text
    note = made.json()
    assert note["author"] == "read desk" and note["marker"] == "?!" and note["visibility"] == "club"
    assert note["written_at"] and note["voided_by"] is None
    assert write(api, tokens["record"], game_id, step=4, text="Well rolled", visibility="public").status_code == 201
    assert write(api, tokens["read"], game_id, step=3, text="I kept a 6", visibility="seat", seat=1).status_code == 201

    everything = [(2, "Too cautious"), (3, "I kept a 6"), (4, "Well rolled")]
    for token in (tokens["record"], tokens["read"]):
        assert seen(api, token, game_id) == [(2, "Too cautious"), (4, "Well rolled")]
        assert seen(api, token, game_id, "?view=full") == everything
        assert seen(api, token, game_id, "?view=seat&seat=1") == everything
        assert seen(api, token, game_id, "?view=seat&seat=0") == [(2, "Too cautious"), (4, "Well rolled")]
    # A spectator sees the public notes only, and no other view.
    assert seen(api, tokens["spectate"], game_id) == [(4, "Well rolled")]
    refused = api.client.get(f"/clubs/c1/games/{game_id}/notes?view=full", headers=api.auth(tokens["spectate"]))
    assert refused.status_code == 403
    # The public note is on step 4, which the correction at step 5 voided: it stays and says so.
    full = api.client.get(f"/clubs/c1/games/{game_id}/notes?view=full", headers=api.auth(tokens["read"])).json()
    assert [(n["step"], n["voided_by"]) for n in full] == [(2, None), (3, None), (4, 5)]


def test_a_public_note_waits_for_the_spectator_delay_of_its_step(api: Api) -> None:
    tokens = keys(api)
    game_id = game(api, tokens["record"])
    assert write(api, tokens["record"], game_id, step=2, text="Opening", visibility="public").status_code == 201
    assert write(api, tokens["record"], game_id, step=6, text="Last roll", visibility="public").status_code == 201
    delayed = api.client.put(
        f"/clubs/c1/games/{game_id}/spectator-delay", json={"events": 3}, headers=api.auth(tokens["record"])
    )
    assert delayed.status_code == 200, delayed.text
    assert seen(api, tokens["spectate"], game_id) == [(2, "Opening")]
    assert seen(api, tokens["read"], game_id) == [(2, "Opening"), (6, "Last roll")]
    api.client.put(f"/clubs/c1/games/{game_id}/spectator-delay", json={"events": 0}, headers=api.auth(tokens["record"]))
    assert seen(api, tokens["spectate"], game_id) == [(2, "Opening"), (6, "Last roll")]


def test_notes_are_edited_and_deleted_as_their_own_stream_never_the_games_record(api: Api) -> None:
    tokens = keys(api)
    game_id = game(api, tokens["record"])
    store = api.client.app.state.store
    record_before = [e.data for e in store.read_stream(game_stream("c1", game_id))]
    mine = write(api, tokens["read"], game_id, step=2, text="first thought").json()
    path = f"/clubs/c1/games/{game_id}/notes/{mine['note_id']}"
    edited = api.client.patch(
        path, json={"text": "second thought", "marker": "!", "visibility": "public"}, headers=api.auth(tokens["read"])
    )
    assert edited.status_code == 200, edited.text
    assert (edited.json()["text"], edited.json()["marker"], edited.json()["edited_at"] is not None) == (
        "second thought",
        "!",
        True,
    )
    assert seen(api, tokens["spectate"], game_id) == [(2, "second thought")]
    # Another key's note: a spectator may not touch it, a record key may.
    assert api.client.delete(path, headers=api.auth(tokens["spectate"])).status_code == 403
    assert api.client.delete(path, headers=api.auth(tokens["record"])).status_code == 204
    assert seen(api, tokens["read"], game_id, "?view=full") == []
    assert api.client.delete(path, headers=api.auth(tokens["record"])).status_code == 404
    assert [e.type for e in store.read_stream(stream_id("c1", game_id))] == [
        "note.written",
        "note.edited",
        "note.deleted",
    ]
    assert [e.data for e in store.read_stream(game_stream("c1", game_id))] == record_before


def test_a_read_key_changes_only_its_own_notes(api: Api) -> None:
    tokens = keys(api)
    game_id = game(api, tokens["record"])
    theirs = write(api, tokens["record"], game_id, step=2, text="scorer's note").json()
    refused = api.client.patch(
        f"/clubs/c1/games/{game_id}/notes/{theirs['note_id']}",
        json={"text": "mine now"},
        headers=api.auth(tokens["read"]),
    )
    assert refused.status_code == 403 and "scorer" in refused.json()["detail"]
    assert seen(api, tokens["read"], game_id) == [(2, "scorer's note")]


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"step": 99, "text": "later"}, 404, None),
        ({"step": 0, "text": "before"}, 404, None),
        ({"step": 2, "text": "x" * 2001}, 400, "text"),
        ({"step": 2, "text": ""}, 400, "text"),
        ({"step": 2, "text": "   "}, 422, "text"),
        ({"step": 2, "text": "mine", "visibility": "seat", "seat": 2}, 422, "seat"),
        ({"step": 2, "text": "mine", "visibility": "seat"}, 422, "seat"),
        ({"step": 2, "text": "mine", "visibility": "club", "seat": 0}, 422, "seat"),
        ({"step": 2, "text": "mine", "visibility": "friends"}, 400, "visibility"),
        ({"step": 2, "text": "mine", "marker": "?!?"}, 400, "marker"),
    ],
)
def test_bad_input_is_a_clear_problem_and_nothing_is_stored(
    api: Api, body: dict[str, Any], status: int, field: str | None
) -> None:
    tokens = keys(api)
    game_id = game(api, tokens["record"])
    refused = write(api, tokens["read"], game_id, **body)
    assert refused.status_code == status, refused.text
    problem = refused.json()
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert problem["detail"]
    if field is not None:
        assert field in refused.text
    assert api.client.app.state.store.read_stream(stream_id("c1", game_id)) == []


def test_another_clubs_game_and_a_spectate_key_write_nothing(api: Api) -> None:
    tokens = keys(api)
    game_id = game(api, tokens["record"])
    other = api.club("c2")
    api.players("c2", other, "alain", "bea")
    api.tally_game("c2", other)
    theirs = api.tally_game("c2", other)  # game ids are each club's own: c1 has no second game
    # Another club's game: by its club's path a 403, by this club's path no such game.
    assert write(api, tokens["record"], theirs, step=1, text="peek").status_code == 404
    assert (
        api.client.post(
            f"/clubs/c2/games/{theirs}/notes", json={"step": 1, "text": "peek"}, headers=api.auth(tokens["record"])
        ).status_code
        == 403
    )
    assert write(api, tokens["spectate"], game_id, step=1, text="cheer").status_code == 403
    store = api.client.app.state.store
    assert store.read_stream(stream_id("c1", game_id)) == [] and store.read_stream(stream_id("c2", theirs)) == []
    assert api.client.get(f"/clubs/c2/games/{theirs}/notes", headers=api.auth(other)).json() == []


def test_a_note_written_while_another_was_is_written_after_it(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    tokens = keys(api)
    game_id = game(api, tokens["record"])
    assert write(api, tokens["read"], game_id, step=2, text="first").status_code == 201
    store = api.client.app.state.records.store
    real, asked = store.stream_version, []

    def stale(stream: Any) -> int:
        """The version as it was before the first note, once: the append then meets a conflict."""
        asked.append(stream)
        return int(real(stream)) - (1 if len(asked) == 1 else 0)

    monkeypatch.setattr(store, "stream_version", stale)
    second = write(api, tokens["read"], game_id, step=3, text="second")
    assert second.status_code == 201, second.text
    assert len(asked) == 2 and second.json()["note_id"] == "2"
    assert seen(api, tokens["read"], game_id) == [(2, "first"), (3, "second")]
