"""Scenarios as data: the `.m44` import (resource kind `scenario`), its errors, the shipped scenarios."""

import csv
from pathlib import Path

import msgspec
import pytest

from domain.memoire44 import RULESET
from domain.memoire44.catalogue import CARDS, DECK_SIZE
from domain.memoire44.scenario import Scenario
from domain.ruleset import MAX_RESOURCE_ERRORS, ResourceError

from .harness import setup_for
from .tables import hexagon, m44, setup_from

KIND = RULESET.resource_kinds["scenario"]
# Facts read from published sources, carried with the tests (reference/README.md names them).
REFERENCE = Path(__file__).resolve().parent / "reference"


def _csv_rows(name: str) -> list[dict[str, str]]:
    lines = (REFERENCE / name).read_text(encoding="utf-8").splitlines()
    return list(csv.DictReader(line for line in lines if not line.startswith("#")))


def _m44_with_the_names_of(scenario: str) -> tuple[bytes, list[str]]:
    """A `.m44` file of our own layout that uses every name (and orientation) the published scenario's
    file uses, one per hexagon along the rows; and the units placed, in order."""
    names = [row for row in _csv_rows("published_scenario_names.csv") if row["scenario"] == scenario]
    places = ((row, col) for row in range(9) for col in range(row % 2, 25, 2))
    hexagons: list[dict[str, object]] = []
    units = []
    for entry in names:
        row, col = next(places)
        field, name, orientation = entry["field"], entry["name"], entry["orientation"]
        if field == "tags":
            hexagons.append({"row": row, "col": col, "tags": [{"name": name}]})
            continue
        hexagons.append(
            {"row": row, "col": col, field: {"name": name} | ({"orientation": int(orientation)} if orientation else {})}
        )
        if field == "unit":
            units.append(name)
    return m44(hexagons, cards_player1=4, cards_player2=6), units


@pytest.mark.parametrize("scenario", ["pegasus_bridge", "sainte_mere_eglise"])
def test_an_m44_file_with_every_name_a_published_scenario_uses_imports(scenario):
    data, units = _m44_with_the_names_of(scenario)
    content = KIND.parse(data)
    imported = msgspec.convert(content, Scenario)
    assert len(imported.units) == len(units) >= 2
    for unit, name in zip(imported.units, units, strict=True):
        assert imported.sides[unit.camp] == ("AXIS" if name.endswith("ger") else "ALLIES")
    # The content is plain JSON, so the service can store it and embed it in a set-up.
    assert msgspec.json.decode(msgspec.json.encode(content)) == content
    state = RULESET.initial(setup_from(data))
    assert state.hand_limit == (4, 6)


def test_medal_tags_on_bridges_make_allied_objectives_on_passable_bridges():
    # Gap reading: a `medal1` token is Allied, so bridges tagged with it (as Pegasus Bridge's are) are
    # Allied temporary objectives; a river hexagon without a bridge stays impassable.
    bridges = [(2, 6), (5, 21)]
    river = {"name": "river", "orientation": 2}
    hexagons: list[dict[str, object]] = [
        {"row": r, "col": c, "terrain": river, "rect_terrain": {"name": "bridge", "orientation": 5}}
        | {"tags": [{"name": "medal1"}]}
        for r, c in bridges
    ]
    hexagons.append({"row": 1, "col": 7, "terrain": river})
    state = RULESET.initial(setup_from(m44(hexagons)))
    assert {(o.camp, o.kind, o.hexes[0]) for o in state.objectives} == {(1, "temporary", h) for h in bridges}
    assert all(state.board.passable(h) for h in bridges)
    assert not state.board.passable((1, 7))  # the river beside the bridge


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


def test_the_command_deck_matches_the_published_reference():
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


def test_a_scenario_of_many_bad_hexagons_keeps_the_first_errors_and_counts_the_rest():
    data = m44([{"row": -1, "col": 0}] * 5_000)
    with pytest.raises(ResourceError) as error:
        KIND.parse(data)
    assert len(error.value.errors) == MAX_RESOURCE_ERRORS
    assert error.value.omitted == 5_000 - MAX_RESOURCE_ERRORS
    assert "5000 error(s)" in error.value.message


def test_a_scenario_of_more_values_than_any_board_needs_is_refused_before_it_is_decoded():
    data = b'{"board": {"hexagons": [' + b",".join([b"{}"] * 490_000) + b"]}}"
    with pytest.raises(ResourceError) as error:
        KIND.parse(data)
    assert "at most 20000" in error.value.message and not error.value.errors


@pytest.mark.parametrize("kind", sorted(RULESET.resource_kinds))
def test_json_nested_deeper_than_the_decoder_goes_is_a_resource_error(kind):
    with pytest.raises(ResourceError) as error:
        RULESET.resource_kinds[kind].parse(b"[" * 10_000 + b"]" * 10_000)
    assert "nested too deep" in error.value.message
