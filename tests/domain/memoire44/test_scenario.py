"""Scenarios as data: the `.m44` import (resource kind `scenario`), its errors, the shipped scenarios."""

import csv
from pathlib import Path

import msgspec
import pytest

from domain.memoire44 import RULESET
from domain.memoire44.catalogue import CARDS, DECK_SIZE
from domain.memoire44.scenario import Scenario
from domain.ruleset import ResourceError

from .harness import setup_for
from .tables import hexagon, m44, setup_from

KIND = RULESET.resource_kinds["scenario"]
SHARED = Path(__file__).resolve().parents[3] / ".." / "shared" / "data" / "memoire44"


def _csv_rows(name: str) -> list[dict[str, str]]:
    lines = (SHARED / name).read_text(encoding="utf-8").splitlines()
    return list(csv.DictReader(line for line in lines if not line.startswith("#")))


def _m44_from_csv(name: str) -> tuple[bytes, list[dict[str, str]]]:
    """The `.m44` file the scenario editor would write for a shared CSV scenario."""
    rows = _csv_rows(name)
    hexagons = []
    for row in rows:
        entry: dict[str, object] = {"row": int(row["row"]), "col": int(row["col"])}
        for field in ("terrain", "rect_terrain", "obstacle"):
            if row[field]:
                orientation = row[f"{field}_orientation"]
                entry[field] = {"name": row[field]} | ({"orientation": int(orientation)} if orientation else {})
        if row["unit"]:
            entry["unit"] = (
                {"name": row["unit"]}
                | ({"nbr_units": int(row["unit_nbr"])} if row["unit_nbr"] else {})
                | ({"badge": row["unit_badge"]} if row["unit_badge"] else {})
            )
        if row["tags"]:
            entry["tags"] = [{"name": tag} for tag in row["tags"].split("|")]
        hexagons.append(entry)
    return m44(hexagons, cards_player1=4, cards_player2=6), rows


@pytest.mark.parametrize("name", ["scenario_pegasus_bridge.csv", "scenario_sainte_mere_eglise.csv"])
def test_an_m44_file_built_from_a_shared_csv_scenario_imports(name):
    data, rows = _m44_from_csv(name)
    content = KIND.parse(data)
    scenario = msgspec.convert(content, Scenario)
    assert len(scenario.units) == sum(1 for row in rows if row["unit"])
    assert {(u.row, u.col) for u in scenario.units} == {(int(r["row"]), int(r["col"])) for r in rows if r["unit"]}
    for unit, row in zip(scenario.units, [r for r in rows if r["unit"]], strict=True):
        assert scenario.sides[unit.camp] == ("AXIS" if row["unit"].endswith("ger") else "ALLIES")
    # The content is plain JSON, so the service can store it and embed it in a set-up.
    assert msgspec.json.decode(msgspec.json.encode(content)) == content
    state = RULESET.initial(setup_from(data))
    assert state.hand_limit == (4, 6)


def test_pegasus_bridge_tags_make_allied_objectives_on_passable_bridges():
    # Gap reading: a `medal1` token is Allied, so the two bridges are Allied temporary objectives.
    data, _ = _m44_from_csv("scenario_pegasus_bridge.csv")
    state = RULESET.initial(setup_from(data))
    bridges = {(2, 6), (5, 21)}
    assert {(o.camp, o.kind, o.hexes[0]) for o in state.objectives} == {(1, "temporary", h) for h in bridges}
    assert all(state.board.passable(h) for h in bridges)
    assert not state.board.passable((1, 7))  # the canal beside the bridge


def test_unknown_terrain_and_units_are_listed_by_hexagon():
    data = m44(
        [
            hexagon(0, 0, "lava"),
            hexagon(1, 1, unit="infmars"),
            hexagon(2, 2, unit="robotger"),
            hexagon(3, 3, obstacle="moat"),
            {"row": 1, "col": 2},
        ]
    )
    with pytest.raises(ResourceError) as error:
        KIND.parse(data)
    errors = error.value.errors
    assert {(e["hexagon"], e["field"]) for e in errors} == {
        (0, "terrain"),
        (1, "unit"),
        (2, "unit"),
        (3, "obstacle"),
        (4, "row"),
    }
    assert "lava" in next(e["message"] for e in errors if e["hexagon"] == 0)


def test_a_file_that_is_not_json_is_refused_with_a_clear_message():
    with pytest.raises(ResourceError) as error:
        KIND.parse(b"<scenario/>")
    assert "not JSON" in error.value.message


def test_bad_game_info_is_reported():
    data = m44([], starting="PLAYER3", cards_player1=0)
    with pytest.raises(ResourceError) as error:
        KIND.parse(data)
    assert {e["field"] for e in error.value.errors} == {"game_info.starting", "game_info.cards_player1"}


def test_the_shipped_scenarios_import_and_set_up():
    shipped = KIND.builtin()
    assert set(shipped) == {"hedgerow_lane", "vernay_crossroads", "sidi_ghazal", "meuse_line", "pointe_du_verrier"}
    for scenario_id in shipped:
        state = RULESET.initial(setup_for(scenario_id))  # with the test reinforcement table for D-Day
        assert state.scenario_id == scenario_id
        assert state.draws_due == state.hand_limit
        assert {u.camp for u in state.units} == {0, 1}
    boards = {i: RULESET.initial(setup_for(i)).board_spec.board_type for i in shipped}
    assert boards["sidi_ghazal"] == "BRKTHRU" and boards["meuse_line"] == "OVERLORD"  # M44-BT-1, M44-OV-1


def test_objective_kinds_come_from_game_info():
    content = KIND.parse(KIND.builtin()["vernay_crossroads"])
    kinds = sorted(o["kind"] for o in content["objectives"])
    assert kinds == ["majority", "permanent", "temporary"]


def test_the_command_deck_matches_the_shared_reference():
    # M44-5
    rows = _csv_rows("command_deck.csv")
    assert DECK_SIZE == sum(int(r["count"]) for r in rows) == 60
    names = {CARDS[c].name.replace(" Centre", "").replace(" Left", "").replace(" Right", "") for c in CARDS}
    for row in rows:
        name = row["card"].replace("Recon 1", "Recon 1").replace("Probe 2", "Probe").replace("Attack 3", "Attack")
        assert name in names, name
        section = {"left": "left", "center": "centre", "right": "right"}.get(row["section"])
        if section:
            card = next(c for c in CARDS.values() if c.name.startswith(name) and c.sections == (section,))
            assert card.count == int(row["count"])
