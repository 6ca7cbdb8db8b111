"""The hex coordinates on the board's edges (issue 29): the letters and numbers the buttons and the
narration name ("H7") are written on the picture where a scorekeeper looks for them."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from domain.memoire44 import RULESET
from domain.memoire44.events import Battle
from domain.record import decoder, fold
from domain.ruleset import Viewer

SVG = "{http://www.w3.org/2000/svg}"
RECORD = Path(__file__).parent / "fixtures" / "hedgerow_lane_axis_medal_victory.jsonl"


def test_the_board_writes_every_column_letter_top_and_bottom_and_every_row_number_at_both_ends() -> None:
    read = decoder(RULESET)
    events = [read.decode(line) for line in RECORD.read_bytes().splitlines()]
    root = ET.fromstring(RULESET.picture(RULESET.view(fold(RULESET, events[:30]).state, Viewer.public()), ()))
    [edges] = [g for g in root.iter(f"{SVG}g") if g.get("class") == "coordinates"]
    written = [t.text for t in edges.iter(f"{SVG}text")]
    letters = [chr(ord("A") + c) for c in range(13)]
    numbers = [str(r) for r in range(1, 10)]
    # Rows 1 and 9 have 13 hexes: A to M, once in each; every row's number at its left and right end.
    assert sorted(w for w in written if w.isalpha()) == sorted(letters * 2)
    assert sorted(w for w in written if w.isdigit()) == sorted(numbers * 2)
    assert edges.get("aria-hidden") == "true"  # the hexes' own labels already say their names


def test_a_battle_listed_before_its_dice_ends_without_dangling_punctuation() -> None:
    read = decoder(RULESET)
    events = [read.decode(line) for line in RECORD.read_bytes().splitlines()]
    at = next(i for i, e in enumerate(events) if isinstance(e, Battle))
    before = fold(RULESET, events[:at]).state
    listed = next(e for e in RULESET.legal_events(before, events[at].seat) or [] if isinstance(e, Battle))
    assert listed.faces == ()
    line = RULESET.narrate(before, listed, RULESET.evolve(before, listed), Viewer.full()).text
    assert line.endswith(" dice.") or line.endswith(" die."), line
    assert ", ." not in line and ",." not in line


def test_no_listed_event_of_an_air_game_reads_with_dangling_punctuation() -> None:
    """The recording page's buttons are the narration of listed events, dice not rolled yet (issue 29)."""
    read = decoder(RULESET)
    lines = (Path(__file__).parent / "fixtures" / "hedgerow_lane_air_allied_victory.jsonl").read_bytes().splitlines()
    events = [read.decode(line) for line in lines]
    folded = fold(RULESET, events[:1])
    dangling = re.compile(r"[,:;]\s*[.,;:]|\s[.,]$|\(\s*\)")
    seen = 0
    for step, event in enumerate(events[1:], start=1):
        if step % 4 == 0:
            for seat in (0, 1):
                for listed in (RULESET.legal_events(folded.state, seat) or [])[:40]:
                    after = RULESET.evolve(folded.state, listed)
                    line = RULESET.narrate(folded.state, listed, after, Viewer.full()).text
                    assert not dangling.search(line), line
                    seen += 1
        folded = folded.apply(event)
    assert seen > 100
