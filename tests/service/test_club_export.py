"""A whole club moved to a new server: players, resource versions, games with their events and times,
leagues, campaigns and tournaments come back exactly (a second export gives the same bytes), API keys
never leave, and a file that cannot be imported leaves nothing behind."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domain.ruleset import Viewer
from service.store import open_store
from service.store.base import Store
from service.usecases.access import Principal
from service.usecases.club_export import ClubImportError, export_club, import_club
from service.usecases.games import Records
from service.usecases.notes import Notes
from tests.service.api_support import OPERATOR, Api
from tests.service.test_export_import import new_server_url  # noqa: F401  (the fixture)
from tests.service.test_projector_support import append, projection_api, roll
from tests.support.rulesets import RULESETS
from tests.test_e2e import environment, tablelog

CATALOGUE = RULESETS.get("atlantic-storm").resource_kinds["catalogue"].builtin()["documented"]


@pytest.fixture
def old_server(database_url: str) -> Iterator[tuple[Api, str]]:
    """A club with two players, a catalogue in two versions, two tally games (one finished, assigned to
    a league and a campaign, then taken out of the league and put back), a league, a campaign and a
    tournament, all made through the API."""
    with projection_api(database_url) as api:
        token = api.club("c1")
        api.players("c1", token, "alain", "bea", "p-alain")
        noted = {"note": "Tuesdays", "retired": True}
        assert api.client.patch("/clubs/c1/players/bea", json=noted, headers=api.auth(token)).status_code == 200
        merged = api.client.post("/clubs/c1/players/p-alain/merge", json={"into": "alain"}, headers=api.auth(token))
        assert merged.status_code == 201, merged.text
        for rows in (CATALOGUE, CATALOGUE.replace(b"\n", b"\r\n")):
            uploaded = api.client.post(
                "/clubs/c1/resources/atlantic-storm/catalogue/deck",
                content=rows,
                headers=api.auth(token) | {"Content-Type": "application/octet-stream"},
            )
            assert uploaded.status_code == 201, uploaded.text
        finished = api.tally_game("c1", token)
        append(api, token, finished, [roll(0, 6), roll(1, 2), roll(0, 6)])
        desk = api.client.post("/clubs/c1/keys", json={"name": "desk", "scope": "read"}, headers=api.auth(OPERATOR))
        for step, text in ((2, "a six to open"), (3, "kept quiet")):
            noted_step = api.client.post(
                f"/clubs/c1/games/{finished}/notes",
                json={"step": step, "text": text},
                headers=api.auth(desk.json()["token"]),
            )
            assert noted_step.status_code == 201, noted_step.text
        open_game = api.tally_game("c1", token)
        append(api, token, open_game, [roll(0, 1)])
        competitions: list[tuple[str, dict[str, Any]]] = [
            (
                "leagues",
                {
                    "league_id": "autumn",
                    "ruleset": "tally",
                    "members": ["alain", "bea"],
                    "starts": "2000-01-01",
                    "ends": "2999-12-31",
                    "scoring": {"win_draw_loss": [3, 1, 0]},
                },
            ),
            ("campaigns", {"campaign_id": "saga", "ruleset": "tally", "players": ["alain", "bea"]}),
            (
                "tournaments",
                {
                    "tournament_id": "open",
                    "ruleset": "tally",
                    "system": "round_robin",
                    "scoring": {"win_draw_loss": [3, 1, 0]},
                },
            ),
        ]
        for path, body in competitions:
            created = api.client.post(f"/clubs/c1/{path}", json=body, headers=api.auth(token))
            assert created.status_code == 201, created.text
        for path in ("leagues/autumn", "campaigns/saga"):
            added = api.client.post(f"/clubs/c1/{path}/games", json={"game_id": finished}, headers=api.auth(token))
            assert added.status_code == 201, added.text
        for action in ("removal", "restoration"):
            changed = api.client.post(
                f"/clubs/c1/leagues/autumn/games/{finished}/{action}",
                json={"reason": "checked"},
                headers=api.auth(token),
            )
            assert changed.status_code < 300, changed.text
        yield api, token


@pytest.fixture
def old_store(database_url: str, old_server: tuple[Api, str]) -> Iterator[Store]:
    store = open_store(database_url)
    try:
        yield store
    finally:
        store.close()


@pytest.fixture
def fresh(new_server_url: str) -> Iterator[Store]:  # noqa: F811
    store = open_store(new_server_url)
    store.migrate()
    try:
        yield store
    finally:
        store.close()


def test_a_club_moved_to_a_new_server_exports_again_to_the_same_bytes(old_store: Store, fresh: Store) -> None:
    exported = export_club(Records(old_store, RULESETS), "c1")
    document = json.loads(exported)
    assert [p["player_id"] for p in document["players"]] == ["alain", "bea", "p-alain"]
    assert document["players"][1]["note"] == "Tuesdays" and document["players"][1]["retired_at"]
    assert [(m["player_id"], m["into_id"]) for m in document["merges"]] == [("p-alain", "alain")]
    assert [r["version"] for r in document["resources"]] == [1, 2]
    assert len(document["games"]) == 2 and all("tablelog_recorded_at" in g["lines"][0] for g in document["games"])
    # The finished game's notes travel with it (the open game has none, and no `notes` key).
    assert [len(g.get("notes", [])) for g in document["games"]] == [2, 0] and "notes" not in document["games"][1]
    kinds = {(c["kind"], c["collection_id"], len(c["game_ids"]), len(c["removals"])) for c in document["collections"]}
    assert kinds == {("league", "autumn", 1, 2), ("campaign", "saga", 1, 0), ("tournament", "open", 0, 0)}
    assert next(c["events"] for c in document["collections"] if c["kind"] == "tournament") != []
    keys = old_store.list_api_keys("c1")
    assert keys and not any(key.secret_hash.encode() in exported or b'"scorer"' in exported for key in keys)

    import_club(Records(fresh, RULESETS), exported)
    assert export_club(Records(fresh, RULESETS), "c1") == exported
    assert fresh.list_api_keys("c1") == []
    moved = Notes.of(Records(fresh, RULESETS)).notes(
        Principal(club_id="c1", scope="read"), "c1", document["games"][0]["game_id"], Viewer.full()
    )
    assert [(n.step, n.text, n.author) for n in moved] == [(2, "a six to open", "desk"), (3, "kept quiet", "desk")]


def test_a_club_file_with_an_edited_event_is_refused_and_leaves_nothing_behind(old_store: Store, fresh: Store) -> None:
    document = json.loads(export_club(Records(old_store, RULESETS), "c1"))
    document["games"][-1]["lines"][1]["face"] = 5  # still a legal roll: only the chain tells
    with pytest.raises(ClubImportError, match=r"event 1: Event 1 \(tally.rolled\) does not match the chain"):
        import_club(Records(fresh, RULESETS), json.dumps(document).encode())
    assert fresh.get_club("c1") is None and fresh.count_events() == 0


def test_the_club_commands_move_a_club_and_name_a_refusal_in_one_line(old_store: Store, tmp_path: Path) -> None:
    exported = export_club(Records(old_store, RULESETS), "c1")
    url = f"sqlite:///{tmp_path / 'moved.db'}"
    env = environment(url)
    tablelog("migrate", env=env)
    source = tmp_path / "club.json"
    source.write_bytes(exported)
    done = tablelog("club", "import", str(source), env=env)
    assert "club c1 imported: 3 players, 2 resource versions, 2 games" in done.stdout
    again = tablelog("club", "export", "c1", "-o", str(tmp_path / "again.json"), env=env)
    assert again.returncode == 0 and (tmp_path / "again.json").read_bytes() == exported + b"\n"
    twice = tablelog("club", "import", str(source), env=env, check=False)
    assert twice.returncode == 1 and twice.stderr.count("\n") == 1 and "c1" in twice.stderr


def test_a_club_file_whose_league_names_a_game_it_lacks_is_refused_before_anything_is_written(
    old_store: Store, fresh: Store
) -> None:
    document = json.loads(export_club(Records(old_store, RULESETS), "c1"))
    league = next(c for c in document["collections"] if c["kind"] == "league")
    league["game_ids"].append("elsewhere")
    with pytest.raises(ClubImportError, match=r"The league 'autumn' names games not in the file: \['elsewhere'\]"):
        import_club(Records(fresh, RULESETS), json.dumps(document).encode())
    league["game_ids"].pop()
    league["definition"]["starts"] = "soon"
    with pytest.raises(ClubImportError, match="The league 'autumn': "):
        import_club(Records(fresh, RULESETS), json.dumps(document).encode())
    assert fresh.get_club("c1") is None and fresh.count_events() == 0
