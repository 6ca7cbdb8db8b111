"""The generic fold: start, evolve, corrections (G-3), determinism."""

import gc

import msgspec
import pytest

from domain.record import Correction, Folded, GameStarted, decoder, effective_events_of, fold, start
from domain.ruleset import Player, RuleError, Setup
from testkit.tally import RULESET, Noted, Rolled

SETUP = Setup(players=(Player(player_id="p1", name="Alain", seat=0), Player(player_id="p2", name="Bea", seat=1)))
STARTED = GameStarted(ruleset="tally", ruleset_version="1.0.0", setup=SETUP)


def test_a_stream_folds_to_the_state_of_its_events():
    folded = fold(RULESET, [STARTED, Rolled(seat=0, face=3), Rolled(seat=1, face=5)])
    assert folded.state.scores == (3, 5)
    assert folded.version == 3


def test_a_correction_voids_the_latest_events_and_the_fold_skips_them():
    # G-3: the mistake stays in the record, the fold skips it.
    events = [STARTED, Rolled(seat=0, face=3), Rolled(seat=1, face=5), Correction(voids=1)]
    folded = fold(RULESET, events)
    assert folded.state.scores == (3, 0)
    assert folded.state.to_play == 1
    assert [v for v, _ in folded.effective_events()] == [2]
    assert folded.version == 4


def test_a_correction_longer_than_the_events_in_effect_is_refused():
    folded = fold(RULESET, [STARTED, Rolled(seat=0, face=3)])
    with pytest.raises(RuleError) as error:
        folded.check(Correction(voids=2))
    assert error.value.rule_id == "G-3"
    assert error.value.details == {"voids": 2, "in_effect": 1}


def test_an_event_the_rules_refuse_raises_with_the_rule_id():
    folded = start(RULESET, STARTED)
    with pytest.raises(RuleError) as error:
        folded.accept(Rolled(seat=1, face=3))
    assert error.value.rule_id == "T-1"


def test_a_second_start_is_refused():
    folded = start(RULESET, STARTED)
    with pytest.raises(RuleError) as error:
        folded.check(STARTED)
    assert error.value.rule_id == "G-5"


def test_folding_the_same_events_twice_gives_equal_states():
    events = [
        STARTED,
        Rolled(seat=0, face=3),
        Noted(seat=1, text="x"),
        Rolled(seat=1, face=6),
        Correction(voids=2),
        Rolled(seat=1, face=2),
    ]
    assert fold(RULESET, events).state == fold(RULESET, events).state


def test_the_decoder_reads_game_events_and_record_events():
    raw = msgspec.json.encode(Correction(voids=1, reason="typo"))
    assert decoder(RULESET).decode(raw) == Correction(voids=1, reason="typo")
    assert decoder(RULESET).decode(b'{"type":"tally.rolled","seat":0,"face":4}') == Rolled(seat=0, face=4)


def test_a_fold_resumed_lazily_loads_the_events_in_effect_only_when_a_correction_needs_them():
    events = [STARTED, Rolled(seat=0, face=3), Rolled(seat=1, face=5), Rolled(seat=0, face=2)]
    saved = fold(RULESET, events[:3])
    loads = []

    def load():
        loads.append(1)
        return saved.effective_events()

    resumed = Folded.resume_lazily(RULESET, SETUP, saved.state, 3, saved.effective_count, load)
    resumed = resumed.apply(events[3], 4)
    assert resumed.state == fold(RULESET, events).state and resumed.effective_count == 3 and loads == []
    corrected = resumed.apply(Correction(voids=2), 5)
    assert loads == [1]
    assert corrected.state == fold(RULESET, [*events, Correction(voids=2)]).state
    assert [v for v, _ in corrected.effective_events()] == [2]


def test_the_events_in_effect_are_found_from_the_corrections_alone():
    events = [
        STARTED,
        Rolled(seat=0, face=3),
        Rolled(seat=1, face=5),
        Correction(voids=1),
        Rolled(seat=1, face=4),
        Noted(seat=0, text="x"),
        Correction(voids=2),
        Rolled(seat=1, face=1),
    ]
    assert effective_events_of(events) == fold(RULESET, events).effective_events()
    assert [v for v, _ in effective_events_of(events)] == [2, 8]


def test_a_long_fold_adds_nothing_for_the_garbage_collector_to_scan():
    # A server remembers each game's fold, with one link per event in effect: tracked, they made every full
    # collection scan every remembered event (pauses of 40 to 160 ms under the bench's heaviest load).
    # Links are immutable and only point to older links, so they can never be part of a cycle.
    gc.collect()
    before = len(gc.get_objects())
    folded = fold(RULESET, [STARTED, *(Rolled(seat=i % 2, face=1 + i % 6) for i in range(5000))])
    gc.collect()
    assert folded.effective_count == 5000
    assert len(gc.get_objects()) - before < 100
