"""Writes the recorded Mémoire 44 team game and air game (JSON Lines, the GameStarted first). Run once:
`python -m tests.domain.memoire44.make_fixtures`. A fixture that exists is never rewritten: recorded
games are never edited. The medals at chosen steps are checked by hand in test_recorded_overlord.py
and test_recorded_air.py."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import msgspec

from tests.domain.memoire44.harness import TEST_INITIATIVE, RandomTable, setup_for, team_setup_for

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def overlord_six() -> list[Any]:
    """Meuse Line (Overlord board, Blitz) at a table of six with the test initiative table, played by the
    seeded random players: Alain, Bea and Chloe the Axis; Denis, Emma and Fred the Allies (harness.SIX)."""
    table = RandomTable(random.Random(4420), team_setup_for("meuse_line", initiative=TEST_INITIATIVE))
    table.play()
    return table.events


def hedgerow_air() -> list[Any]:
    """Hedgerow Lane (standard board) with the air rules, the test air pack and Normandy 1944 air
    superiority (the Allies), played by the seeded random players: Alain the Axis, Bea the Allies."""
    options = {"air_rules": True, "air_theatre": "normandy-1944"}
    table = RandomTable(random.Random(4415), setup_for("hedgerow_lane", options=options), face_down=0.1)
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
