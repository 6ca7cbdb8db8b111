"""A complete recorded game kept as JSON Lines (never edited once written).

fixtures/three_players_two_convoys.jsonl: Alain, Bea and Carl, basic game, a two-convoy game
(pile_size 2), catalogue embedded in the set-up (examples.csv, written for the tests).

Worked by hand:
- Cut: Alain C5, Bea C3, Carl C8: Bea cut the lowest and deals; she leads battle 1 (AS-2).
- Battle 1, SC 42 (1941, North Atlantic, full, 7 VP), submarine. Bea: U-201 (2) + Wolfpack Radio (+1)
  = 3 German. Carl: Achates 3 Allied. Alain: Walker 3 Allied. Allies 6 : Germans 3. Carl and Alain tie
  at 3 for the best Allied play; Carl played first and takes the trick (AS-9): SC 42 (7) + U-201 (1).
- Refill from Carl (next leader, AS-12); SC 42 is full, so Carl's hand size is 7: he draws 2, Alain 1,
  Bea 2 (Reuben James and U552 among them, named in the record, the others face down).
- Battle 2, HX 229 (1943, North Atlantic, full, 6 VP), led by Carl, surface. Carl: Reuben James (2).
  Alain discards U38 (not available in 1943). Bea's discard of U552 was a scorekeeping mistake, voided
  by a correction (G-3); she plays U552 announcing Reuben James: fate destroys it at once and it goes
  face down to Bea (AS-6). Germans 1 (U552 surface 1) : Allies 0. Bea takes HX 229 (6).
- Last convoy: the game ends (AS-13). Alain 0; Bea 6 + 2 = 8 (convoy 6); Carl 7 + 1 = 8 (convoy 7).
  Tie on VP, Carl has more convoy VP: Carl wins, Bea second, Alain third.
"""

from __future__ import annotations

from pathlib import Path

from domain.atlantic_storm import RULESET
from domain.record import decoder, fold, start
from domain.ruleset import Viewer

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "three_players_two_convoys.jsonl"


def events() -> list:
    return [decoder(RULESET).decode(line) for line in FIXTURE.read_bytes().splitlines()]


def test_the_recorded_game_folds_to_the_vp_worked_out_by_hand():
    result = RULESET.result(fold(RULESET, events()).state, Viewer.full())
    assert result.finished
    assert [(p.score, p.breakdown) for p in result.players] == [
        (0, {"convoy": 0, "cards": 0}),
        (8, {"convoy": 6, "cards": 2}),
        (8, {"convoy": 7, "cards": 1}),
    ]
    assert result.winners == (2,)
    assert [p.placement for p in result.players] == [3, 2, 1]


def test_every_event_of_the_recorded_game_is_still_accepted_by_the_rules():
    stream = events()
    folded = start(RULESET, stream[0])
    for event in stream[1:]:
        folded = folded.accept(event)
    assert folded.state == fold(RULESET, stream).state
    assert folded.effective_count == len(stream) - 1 - 2  # the correction and the event it voided
