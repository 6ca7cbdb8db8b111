"""Writes the recorded Mémoire 44 team game and D-Day game (JSON Lines, the GameStarted first). Run once:
`python -m tests.domain.memoire44.make_fixtures`. A fixture that exists is never rewritten: recorded
games are never edited. The medals at chosen steps are checked by hand in test_recorded_overlord.py."""

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


def dday_landing() -> list[Any]:
    """Pointe du Verrier (the D-Day reinforcements, M44-DD-6 to M44-DD-9) with the test reinforcement table,
    played by the seeded random players: Alain the Axis, Bea the Allies."""
    table = RandomTable(random.Random(1470), setup_for("pointe_du_verrier"))
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
    write("pointe_du_verrier_dday.jsonl", dday_landing())
