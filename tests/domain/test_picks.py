"""What tapping an element of a game's picture picks (`domain.svg.pick`), for the recording page: every
Mémoire 44 hex its row and column, every unit its uid and hex, every Milles Nautiques convoy its number."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from domain.record import decoder, fold
from domain.ruleset import Viewer
from domain.svg import pick
from tests.support.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[2]
PICK = re.compile(r"data-pick=\"([^\"]+)\" data-pick-name=\"([^\"]+)\"")


def picture_after(fixture: str, count: int) -> tuple[str, Any]:
    lines = (ROOT / fixture).read_bytes().splitlines()
    ruleset = RULESETS.get(json.loads(lines[0])["ruleset"])
    read = decoder(ruleset)
    state = fold(ruleset, [read.decode(line) for line in lines[: count + 1]]).state
    view = ruleset.view(state, Viewer.public())
    draw = ruleset.picture
    assert draw is not None
    return str(draw(view, [])), view


def picks_of(svg: str) -> list[tuple[dict[str, Any], str]]:
    return [(json.loads(raw.replace("&quot;", '"')), name) for raw, name in PICK.findall(svg)]


def test_a_pick_names_its_fields_and_its_words() -> None:
    assert pick("E3", unit=4, any=[2, 10]) == {"data_pick": '{"unit":4,"any":[2,10]}', "data_pick_name": "E3"}


def test_every_memoire_44_hex_and_unit_can_be_picked() -> None:
    svg, view = picture_after("tests/domain/memoire44/fixtures/hedgerow_lane_axis_medal_victory.jsonl", 20)
    picks = picks_of(svg)
    hexes = [p for p, _ in picks if set(p) == {"any"}]
    units = {p["unit"]: p["any"] for p, _ in picks if "unit" in p}
    assert len(hexes) == svg.count('class="hex"') and len({tuple(p["any"]) for p in hexes}) == len(hexes)
    on_board = {u["uid"]: list(u["hex"]) for u in view["units"] if u.get("hex") is not None}
    assert units == on_board


def test_every_milles_nautiques_convoy_can_be_picked_by_its_number() -> None:
    svg, view = picture_after("tests/domain/milles_nautiques/fixtures/two_players_to_forty.jsonl", 12)
    picked = sorted(p["convoy"] for p, name in picks_of(svg) if name == f"convoy {p.get('convoy')}")
    shown = sorted(c["number"] for c in view["convoys"] if c.get("status") in ("at_sea", "arrived"))
    assert picked and set(shown) <= set(picked)
