"""Every game's recorded fixtures, recorded again through the HTTP API event by event: the API's state in
each view equals the rules core's fold, and an event the rules refuse is a 422 with the same rule id
while nothing is stored."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from domain.record import GameStarted, decoder, fold, start
from domain.ruleset import RuleError, Viewer
from service.app import create_app
from service.settings import Settings
from tests.service.api_support import OPERATOR, Api
from tests.support.rulesets import RULESETS

RESOURCES = Path(__file__).resolve().parents[2] / "testkit" / "players" / "memoire44_resources"

ROOT = Path(__file__).resolve().parents[2]


def fixtures() -> list[Path]:
    return sorted((ROOT / "tests" / "domain").glob("*/fixtures/*.jsonl"))


def read_fixture(path: Path) -> tuple[Any, list[Any], list[dict[str, Any]]]:
    lines = [line for line in path.read_bytes().splitlines() if line.strip()]
    head = msgspec.json.decode(lines[0], type=GameStarted)
    ruleset = RULESETS.get(head.ruleset)
    events = [decoder(ruleset).decode(line) for line in lines]
    return ruleset, events, [msgspec.json.decode(line) for line in lines]


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    app = create_app(Settings(database_url=database_url, operator_key=OPERATOR, log_format="json"), rulesets=RULESETS)
    with TestClient(app) as client:
        yield Api(client)


def views(ruleset: Any, state: Any, seats_at_table: list[int]) -> dict[str, Any]:
    seats = {f"seat{n}": Viewer.of_seat(n) for n in seats_at_table}
    wanted = {"public": Viewer.public(), "full": Viewer.full(), **seats}
    return {name: msgspec.json.decode(msgspec.json.encode(ruleset.view(state, v))) for name, v in wanted.items()}


def file_with_content(folder: Path, kind: Any, content: Any) -> bytes:
    """The test resource file (CSV, .m44...) next to a game's tests, or among the random tables' made-up
    resources in testkit, whose parsed content is `content`."""
    for candidate in sorted([*folder.iterdir(), *RESOURCES.iterdir()]):
        if candidate.suffix in {".csv", ".m44", ".json"}:
            try:
                parsed = msgspec.json.decode(msgspec.json.encode(kind.parse(candidate.read_bytes())))
                if parsed == content:
                    return candidate.read_bytes()
            except Exception:  # not a file of this kind
                continue
    raise AssertionError(f"no file in {folder} or {RESOURCES} holds the recorded resource")


def first_refused_variant(ruleset: Any, events: list[Any]) -> tuple[int, dict[str, Any], RuleError] | None:
    """The first event that, reported by another seat, the rules core refuses (found by the core itself)."""
    folded = start(ruleset, events[0])
    players = len(events[0].setup.players)
    for index, event in enumerate(events[1:], start=1):
        seat = getattr(event, "seat", None)
        if isinstance(seat, int):
            wrong = msgspec.structs.replace(event, seat=(seat + 1) % players)
            try:
                folded.check(wrong)
            except RuleError as error:
                return index, msgspec.to_builtins(wrong), error
        folded = folded.apply(event)
    return None


@pytest.mark.parametrize("path", fixtures(), ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_a_recorded_game_is_recorded_again_over_http_event_by_event(api: Api, path: Path) -> None:
    ruleset, events, raw = read_fixture(path)
    setup = events[0].setup
    token = api.club("club")
    for player in setup.players:
        api.client.post(
            "/clubs/club/players", headers=api.auth(token), json={"player_id": player.player_id, "name": player.name}
        )
    for kind, ref in setup.resources.items():
        if ref.resource_id not in ruleset.resource_kinds[kind].builtin():
            # Recorded with a file written for the tests: import the one whose content it holds.
            source = file_with_content(path.parent.parent, ruleset.resource_kinds[kind], ref.content)
            response = api.client.post(
                f"/clubs/club/resources/{ruleset.name}/{kind}/{ref.resource_id}",
                content=source,
                headers=api.auth(token),
            )
            assert response.status_code == 201, response.text
    body = {
        "ruleset": ruleset.name,
        "game_id": "recorded",
        "variant": setup.variant,
        "options": setup.options,
        "players": [{"player_id": p.player_id, "seat": p.seat, "team": p.team} for p in setup.players],
        "resources": {kind: {"resource_id": ref.resource_id} for kind, ref in setup.resources.items()},
    }
    game_id = api.game("club", token, body)

    refused = first_refused_variant(ruleset, events)
    for version, event in enumerate(raw[1:], start=2):
        if refused is not None and refused[0] == version - 1:
            response = api.append("club", token, game_id, version - 1, [refused[1]])
            assert response.status_code == 422, response.text
            problem = response.json()
            assert (problem["rule_id"], problem["code"]) == (refused[2].rule_id, refused[2].code)
            assert problem["event_index"] == 0
            assert api.version("club", token, game_id) == version - 1
        response = api.append("club", token, game_id, version - 1, [event])
        assert response.status_code == 201, f"event {version}: {response.text}"
    assert refused is not None, "no event of the fixture could be made illegal by changing its seat"

    expected = fold(ruleset, events).state
    for name, view in views(ruleset, expected, [p.seat for p in setup.players]).items():
        query = f"view={name}" if not name.startswith("seat") else f"view=seat&seat={name[4:]}"
        got = api.client.get(f"/clubs/club/games/{game_id}/state?{query}", headers=api.auth(token)).json()
        assert got["version"] == len(events) and got["state"] == view, name
    result = api.client.get(f"/clubs/club/games/{game_id}/result", headers=api.auth(token)).json()["result"]
    assert result == msgspec.json.decode(msgspec.json.encode(ruleset.result(expected, Viewer.public())))
    assert api.client.get(f"/clubs/club/games/{game_id}", headers=api.auth(token)).json()["finished"] is True
