"""Corrections through the generic record (G-3), decoding, and `legal_events` in every phase."""

from __future__ import annotations

import random

import msgspec

from domain.milles_nautiques import RULESET
from domain.milles_nautiques.events import (
    AlertPlayed,
    ConvoyPlaced,
    Dealt,
    Discarded,
    Drew,
    WarshipPlayed,
)
from domain.record import Correction, decoder, fold
from testkit.players.milles_nautiques import Table, make_setup, started


def battle_events() -> list:
    setup = make_setup(2, dealer=1)
    return [
        started(setup),
        Dealt(dealer=1),
        Drew(seat=0),
        ConvoyPlaced(seat=0, position=0, card="convoy_10000"),
        Drew(seat=1),
        AlertPlayed(seat=1, convoy=1),
        Drew(seat=0),
        Discarded(seat=0, card="radar"),
        Drew(seat=1),
        WarshipPlayed(seat=1, convoy=1, ship="cruiser"),
        Drew(seat=0),
        Discarded(seat=0, card="radar"),
    ]  # unanswered: sunk at Bea's turn


def test_a_correction_voids_the_latest_play_and_its_automatic_consequences():
    events = battle_events()
    assert fold(RULESET, events).state.convoys[0].status == "destroyed"
    corrected = fold(RULESET, [*events, Correction(voids=1, reason="Alain had answered with a carrier")])
    assert corrected.state == fold(RULESET, events[:-1]).state
    assert corrected.state.convoys[0].status == "at_sea"
    assert len(corrected.state.convoys[0].battle) == 1
    answered = corrected.accept(WarshipPlayed(seat=0, convoy=1, ship="carrier"))
    assert answered.state.convoys[0].battle[-1].attacking is False
    # The voided discard (version 12) stays in the record, out of effect.
    assert [v for v, _ in answered.effective_events()][-2:] == [11, 14]


def test_every_event_decodes_from_its_json_line():
    events = battle_events()
    assert [decoder(RULESET).decode(msgspec.json.encode(event)) for event in events] == events


def test_the_deal_is_listed_only_for_the_dealer_the_set_up_names():
    state = RULESET.initial(make_setup(3, dealer=2))
    assert RULESET.legal_events(state, 2) == [Dealt(dealer=2)]
    assert RULESET.legal_events(state, 0) == []


def test_a_draw_is_listed_by_form_only_for_the_player_to_play():
    state = RULESET.evolve(RULESET.initial(make_setup(2, dealer=1)), Dealt(dealer=1))
    assert RULESET.legal_events(state, 0) == [Drew(seat=0)]
    assert RULESET.legal_events(state, 1) == []


def test_every_listed_event_is_accepted_and_every_card_in_hand_may_be_discarded():
    rng = random.Random(7)
    table = Table(rng, make_setup(3), known=1.0)
    checked = 0
    while table.state.phase != "over" and checked < 60:
        state = table.state
        listed = RULESET.legal_events(state, state.to_play)
        for event in listed:
            RULESET.validate(state, event)
        if state.phase == "play":
            discards = {e.card for e in listed if isinstance(e, Discarded)}
            assert discards == set(state.hands[state.to_play].known)
            checked += 1
        table.apply(table.next_event())
    assert checked == 60


def test_nothing_is_listed_once_the_round_is_over():
    table = Table(random.Random(3), make_setup(2))
    state = table.play()
    assert all(RULESET.legal_events(state, seat) == [] for seat in range(2))
