""" "What if" lines over the API on both backends: opened from a step as a view, extended by events the rules
accept, listed under their step, read, deleted; the game's record and result byte-identical throughout;
a line from the public view knowing only what the public knew (the hidden-information swaps); and each bad
input a clear 4xx with nothing stored."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from domain.record import decoder
from domain.ruleset import RuleError, Viewer
from projections.lines import as_known
from service.app import create_app
from service.cli import main as tablelog
from service.settings import Settings
from service.usecases.lines import stream_id
from tests.service.api_support import OPERATOR, Api
from tests.support.rulesets import RULESETS
from tests.test_hidden_information import FIXTURES, SECRETS, _fixture, alternative
from tests.test_lines_hidden import comparable

MN = next(p for p in FIXTURES if p.stem == "two_players_to_forty")
STORM = next(p for p in FIXTURES if p.stem == "three_players_two_convoys")


class Club(Api):
    """The API, and where `tablelog import` finds the database and puts the records it imports."""

    def __init__(self, client: Any, database_url: str, tmp: Path) -> None:
        super().__init__(client)
        self.database_url = database_url
        self.tmp = tmp

    def imported(self, token: str, path: Path, game_id: str, rows: list[bytes] | None = None) -> str:
        """The fixture's game (or `rows`, a record of the same players) in club c1, as `tablelog import` makes it."""
        rows = rows if rows is not None else path.read_bytes().splitlines()
        for player in json.loads(rows[0])["setup"]["players"]:
            body = {"player_id": player["player_id"], "name": player["name"]}
            made = self.client.post("/clubs/c1/players", json=body, headers=self.auth(token))
            assert made.status_code in (201, 409), made.text
        record = self.tmp / f"{game_id}.jsonl"
        record.write_bytes(b"\n".join(rows) + b"\n")
        command = ["import", str(record), "--club", "c1", "--game-id", game_id, "--database-url", self.database_url]
        assert tablelog(command, rulesets=RULESETS) == 0
        return game_id


@pytest.fixture
def api(database_url: str, tmp_path: Path) -> Iterator[Club]:
    app = create_app(
        Settings(database_url=database_url, operator_key=OPERATOR, log_format="json", run_projector=False),
        rulesets=RULESETS,
    )
    with TestClient(app) as client:
        yield Club(client, database_url, tmp_path)


def open_line(api: Api, token: str, game_id: str, **body: Any) -> Any:
    return api.client.post(f"/clubs/c1/games/{game_id}/lines", json=body, headers=api.auth(token))


def extend(api: Api, token: str, game_id: str, line_id: str, events: list[Any], **more: Any) -> Any:
    return api.client.post(
        f"/clubs/c1/games/{game_id}/lines/{line_id}/events", json={"events": events, **more}, headers=api.auth(token)
    )


def record_bytes(api: Api, token: str, game_id: str) -> tuple[bytes, bytes]:
    """The game's record and its listing (result included), as the API answers them."""
    events = api.client.get(f"/clubs/c1/games/{game_id}/events?limit=1000", headers=api.auth(token))
    game = api.client.get(f"/clubs/c1/games/{game_id}", headers=api.auth(token))
    assert events.status_code == 200 and game.status_code == 200, (events.text, game.text)
    return events.content, game.content


def legal_at(path: Path, step: int, viewer: Viewer, tried: list[Any] = ()) -> list[Any]:  # type: ignore[assignment]
    """The events the rules accept where a line from `step` (as `viewer`) stands after `tried`: each as JSON."""
    rows = path.read_bytes().splitlines()
    ruleset = RULESETS.get(json.loads(rows[0])["ruleset"])
    dec = decoder(ruleset)
    folded = as_known(ruleset, [dec.decode(r) for r in rows], step, viewer)
    for event in tried:
        folded = folded.accept(msgspec.convert(event, ruleset.event_type))
    found = []
    for seat in range(len(folded.setup.players)):
        for event in ruleset.legal_events(folded.state, seat) or []:
            try:
                ruleset.validate(folded.state, event)
            except RuleError:
                continue
            found.append(msgspec.to_builtins(event))
    return found


def test_a_line_is_opened_tried_listed_read_and_deleted_and_the_record_never_moves(api: Club) -> None:
    token = api.club("c1")
    game_id = api.imported(token, MN, "forty")
    before = record_bytes(api, token, game_id)

    opened = open_line(api, token, game_id, step=8, name="Keep the radar", view="full")
    assert opened.status_code == 201, opened.text
    line = opened.json()
    assert (line["step"], line["name"], line["view"], line["events"], line["steps"]) == (
        8,
        "Keep the radar",
        "full",
        [],
        [],
    )
    assert line["author"] and line["state"]["phase"]

    first = legal_at(MN, 8, Viewer.full())[0]
    tried = extend(api, token, game_id, line["line_id"], [first], expected_length=0)
    assert tried.status_code == 201, tried.text
    body = tried.json()
    assert body["events"] == [first] and [s["version"] for s in body["steps"]] == [9]
    assert body["steps"][0]["text"]
    second = legal_at(MN, 8, Viewer.full(), [first])[0]
    assert extend(api, token, game_id, line["line_id"], [second]).status_code == 201

    listed = api.client.get(f"/clubs/c1/games/{game_id}/lines?step=8", headers=api.auth(token)).json()
    assert [(x["line_id"], x["name"], len(x["events"])) for x in listed] == [(line["line_id"], "Keep the radar", 2)]
    assert api.client.get(f"/clubs/c1/games/{game_id}/lines?step=7", headers=api.auth(token)).json() == []
    read = api.client.get(f"/clubs/c1/games/{game_id}/lines/{line['line_id']}", headers=api.auth(token)).json()
    assert [s["version"] for s in read["steps"]] == [9, 10] and read["events"] == [first, second]

    assert record_bytes(api, token, game_id) == before  # the record and the result never moved
    gone = api.client.delete(f"/clubs/c1/games/{game_id}/lines/{line['line_id']}", headers=api.auth(token))
    assert gone.status_code == 204, gone.text
    assert api.client.get(f"/clubs/c1/games/{game_id}/lines", headers=api.auth(token)).json() == []
    assert (
        api.client.get(f"/clubs/c1/games/{game_id}/lines/{line['line_id']}", headers=api.auth(token)).status_code == 404
    )
    assert record_bytes(api, token, game_id) == before


def test_bad_input_is_a_clear_4xx_and_nothing_is_stored(api: Club) -> None:
    token = api.club("c1")
    game_id = api.imported(token, MN, "forty")
    store = api.client.app.state.records.store  # type: ignore[attr-defined]
    other = api.club("c2")
    api.client.post("/clubs/c2/players", json={"player_id": "p1", "name": "Alain"}, headers=api.auth(other))

    def stored() -> int:
        return int(store.stream_version(stream_id("c1", game_id)))

    cases = [
        (dict(step=0, name="Nought"), 404, "no_such_step"),
        (dict(step=99, name="Past the end"), 404, "no_such_step"),
        (dict(step=3, name="x" * 81), 400, None),
        (dict(step=3, name="   "), 422, "blank_name"),
        (dict(step=3, name="Seatless", view="seat"), 422, "seat_needed"),
        (dict(step=3, name="Far seat", view="seat", seat=5), 422, None),
        (dict(step=3, name="Public seat", view="public", seat=0), 422, "seat_without_seat_view"),
    ]
    for body, status, code in cases:
        refused = open_line(api, token, game_id, **body)
        assert refused.status_code == status, (body, refused.text)
        assert refused.headers["content-type"].startswith("application/problem+json")
        if code is not None:
            assert refused.json()["code"] == code, refused.text
        assert stored() == 0
    elsewhere = api.client.post(
        f"/clubs/c2/games/{game_id}/lines", json={"step": 3, "name": "Ours?"}, headers=api.auth(other)
    )
    assert elsewhere.status_code == 404 and "forty" in elsewhere.json()["detail"], elsewhere.text  # c1's game, not c2's
    assert api.client.get(f"/clubs/c2/games/{game_id}/lines", headers=api.auth(other)).status_code == 404
    assert open_line(api, other, game_id, step=3, name="Not our club").status_code == 403  # c2's key on c1

    sneaky = '<b>bold</b> & <script>alert("x")</script>'
    line = open_line(api, token, game_id, step=3, name=sneaky).json()
    assert line["name"] == sneaky  # kept as text; the pages show it as text
    at = stored()
    drawn = json.loads(MN.read_bytes().splitlines()[2])
    refused = extend(api, token, game_id, line["line_id"], [drawn])  # step 3's draw again: not that seat's turn
    assert refused.status_code == 422, refused.text
    problem = refused.json()
    assert problem["rule_id"].startswith("MN-") or "MN-" in json.dumps(problem), problem
    assert stored() == at
    bad = extend(api, token, game_id, line["line_id"], [{"type": "milles_nautiques.no_such_thing"}])
    assert bad.status_code in (400, 422) and stored() == at, bad.text
    correction = extend(
        api, token, game_id, line["line_id"], [{"type": "tablelog.correction", "voids": 1, "reason": "x"}]
    )
    assert correction.status_code == 422 and correction.json()["code"] == "not_in_a_line", correction.text
    assert (
        extend(
            api, token, game_id, line["line_id"], [legal_at(MN, 3, Viewer.public())[0]], expected_length=3
        ).status_code
        == 409
    )
    assert stored() == at
    assert extend(api, token, game_id, "999", [drawn]).status_code == 404


def test_who_opens_reads_and_changes_lines(api: Club) -> None:
    token = api.club("c1")
    game_id = api.imported(token, MN, "forty")
    made = {}
    for scope in ("read", "spectate"):
        key = api.client.post(
            "/clubs/c1/keys", json={"name": f"{scope} desk", "scope": scope}, headers=api.auth(OPERATOR)
        )
        made[scope] = key.json()["token"]
    line = open_line(api, made["read"], game_id, step=4, name="Read desk's idea")
    assert line.status_code == 201 and line.json()["author"] == "read desk", line.text
    line_id = line.json()["line_id"]
    assert open_line(api, made["spectate"], game_id, step=4, name="Spectator").status_code == 403
    assert api.client.get(f"/clubs/c1/games/{game_id}/lines", headers=api.auth(made["spectate"])).status_code == 403
    mine = open_line(api, token, game_id, step=4, name="Record desk's").json()["line_id"]
    first = legal_at(MN, 4, Viewer.public())[0]
    assert extend(api, made["read"], game_id, mine, [first]).status_code == 403  # another key's line
    assert (
        api.client.delete(f"/clubs/c1/games/{game_id}/lines/{mine}", headers=api.auth(made["read"])).status_code == 403
    )
    assert extend(api, token, game_id, line_id, [first]).status_code == 201  # a record key changes any

    # A share link to a line names the game and the line; one to a line that is not there is refused.
    shares = "/clubs/c1/shares"
    shared = api.client.post(
        shares, json={"kind": "line", "target_id": f"{game_id}/{line_id}"}, headers=api.auth(token)
    )
    assert shared.status_code == 201 and shared.json()["share"]["kind"] == "line", shared.text
    missing = api.client.post(shares, json={"kind": "line", "target_id": f"{game_id}/999"}, headers=api.auth(token))
    assert missing.status_code == 404, missing.text


def test_a_public_line_knows_what_the_public_knew_and_no_more(api: Club) -> None:
    """Two Atlantic Storm records differing only in hidden cards (cut where the swapped cards would show)
    give the same public line, as the API answers it: its view, narration and whether the game is over;
    and tried events: the same answer from the rules."""
    token = api.club("c1")
    ruleset, events = _fixture(STORM)
    made = alternative(SECRETS[ruleset.name], events, random.Random(7))
    assert made is not None
    alt, a, b = made
    last = comparable(ruleset, events, alt, a, b)
    assert last > max(a.step, b.step) + 1
    encode = msgspec.json.Encoder()
    one = api.imported(token, STORM, "storm-a", [encode.encode(e) for e in events[:last]])
    two = api.imported(token, STORM, "storm-b", [encode.encode(e) for e in alt[:last]])
    for step in range(max(a.step, b.step) + 1, last + 1):
        shown = []
        for game_id in (one, two):
            line = open_line(api, token, game_id, step=step, name="Public").json()
            tried = [
                extend(api, token, game_id, line["line_id"], [e]).status_code
                for e in legal_at(STORM, step, Viewer.public())[:3]
            ]
            shown.append(({k: line[k] for k in ("state", "steps", "finished")}, tried))
        assert shown[0] == shown[1], step
