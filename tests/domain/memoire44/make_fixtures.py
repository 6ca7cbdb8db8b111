"""Writes the recorded Mémoire 44 team game, D-Day game and air game (JSON Lines, the GameStarted first). Run once:
`python -m tests.domain.memoire44.make_fixtures`. A fixture that exists is never rewritten: recorded
games are never edited. The medals at chosen steps are checked by hand in test_recorded_overlord.py
and test_recorded_air.py."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import msgspec

from domain.ruleset import Setup
from tests.domain.memoire44.harness import (
    TEST_AIR_PACK,
    TEST_INITIATIVE,
    TEST_REINFORCEMENTS,
    RandomTable,
    scenario_beside_tests,
    setup_for,
    team_setup_for,
    with_resource,
)

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def overlord_six() -> list[Any]:
    """Meuse Line (Overlord board, Blitz) at a table of six with the test initiative table, played by the
    seeded random players: Alain, Bea and Chloe the Axis; Denis, Emma and Fred the Allies (harness.SIX)."""
    table = RandomTable(random.Random(4420), team_setup_for("meuse_line", initiative=TEST_INITIATIVE))
    table.play()
    return table.events


def eastern_front_six() -> list[Any]:
    """Meuse Line at a table of six with the commissar rule turned on for the Allies (the Eastern Front team
    rules, M44-OV-8 and M44-OV-10), as a club imports it: the file meuse_line_commissar.m44 beside these
    tests (the shipped scenario with `russian_commissar_rule` added), with the test initiative table; one
    draw in ten recorded face down. Played by the seeded random players (harness.SIX)."""
    ref = scenario_beside_tests("meuse_line_commissar")
    setup = team_setup_for("meuse_line", initiative=TEST_INITIATIVE)
    setup = msgspec.structs.replace(setup, resources=setup.resources | {"scenario": ref})
    table = RandomTable(random.Random(1457), setup, face_down=0.1)
    table.play()
    return table.events


def dday_landing() -> list[Any]:
    """Pointe du Verrier (the D-Day reinforcements, M44-DD-6 to M44-DD-9) with the test reinforcement table,
    played by the seeded random players: Alain the Axis, Bea the Allies."""
    table = RandomTable(random.Random(1470), setup_for("pointe_du_verrier"))
    table.play()
    return table.events


def hedgerow_air_setup() -> Setup:
    """Hedgerow Lane with the air settings, as a club imports it: the file hedgerow_lane_air.m44 beside these
    tests (the shipped scenario with `air_rules` and `air_theatre` added), and the test air pack."""
    ref = scenario_beside_tests("hedgerow_lane_air")
    setup = setup_for("hedgerow_lane")
    setup = msgspec.structs.replace(setup, resources={"scenario": ref})
    return with_resource(setup, "air_pack", TEST_AIR_PACK)


def hedgerow_air() -> list[Any]:
    """Hedgerow Lane (standard board) with the air rules, the test air pack and Normandy 1944 air
    superiority (the Allies), played by the seeded random players: Alain the Axis, Bea the Allies. The
    record was written at commit c20758a; the random players have been offered more air events since, so
    a new run would play another game (the record itself is never rewritten)."""
    table = RandomTable(random.Random(4415), hedgerow_air_setup(), face_down=0.1)
    table.play()
    return table.events


def dday_air_setup() -> Setup:
    """Pointe du Verrier with the air rules, as a club imports it: the file pointe_du_verrier_air.m44 beside
    these tests (the D-Day scenario with `air_rules` and `air_theatre` added), the test reinforcement
    table and the test air pack."""
    ref = scenario_beside_tests("pointe_du_verrier_air")
    setup = msgspec.structs.replace(setup_for("hedgerow_lane"), resources={"scenario": ref})
    return with_resource(with_resource(setup, "reinforcement_table", TEST_REINFORCEMENTS), "air_pack", TEST_AIR_PACK)


def dday_air() -> list[Any]:
    """Pointe du Verrier (D-Day) with the air rules, played by the seeded random players: Alain the Axis,
    Bea the Allies."""
    table = RandomTable(random.Random(131), dday_air_setup(), face_down=0.1)
    table.play()
    return table.events


def write(name: str, events: list[Any]) -> None:
    path = FIXTURES / name
    if path.exists():
        print(f"{path.name} exists: recorded games are never rewritten")
        return
    path.write_bytes(b"".join(msgspec.json.encode(event) + b"\n" for event in events))
    print(f"wrote {path.name}: {len(events)} events")


if __name__ == "__main__":
    write("meuse_line_overlord_six.jsonl", overlord_six())
    write("hedgerow_lane_air_allied_victory.jsonl", hedgerow_air())
    write("pointe_du_verrier_dday.jsonl", dday_landing())
    write("pointe_du_verrier_air_axis_victory.jsonl", dday_air())
    write("meuse_line_eastern_front_six.jsonl", eastern_front_six())
