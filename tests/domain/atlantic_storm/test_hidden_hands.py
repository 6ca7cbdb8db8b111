"""Plays offered from a hand dealt face down (issue 29, G-2): the cards the record has seen nowhere are
the ones a face-down card may be, each offered alone where the rules allow it (year, ocean, zone, side),
and `extensions` adds a card at a time (a bonus attached, a special, a supply). A card seen elsewhere is
never offered, and the rules still refuse it."""

from __future__ import annotations

from domain.atlantic_storm import RULESET
from domain.atlantic_storm.events import Bonus, CardDiscarded, CardsPlayed, IntelligencePlayed
from domain.atlantic_storm.legal import extensions, unseen
from tests.domain.atlantic_storm.harness import at_battle, refused


def plays(table, seat: int) -> list[CardsPlayed]:
    return [e for e in RULESET.legal_events(table.state, seat) or [] if isinstance(e, CardsPlayed)]


def test_a_face_down_hand_is_offered_the_unseen_cards_that_sail_in_this_ocean_and_year():
    # AS-4: convoy C1 (SC 42) sails the North Atlantic in 1941; Alain's hand is all face down.
    table = at_battle([[], ["A1"]], "C1")
    offered = plays(table, 0)
    normals = {e.normals[0] for e in offered if e.normals}
    assert {"A1"}.isdisjoint(normals)  # dealt to Bea: seen elsewhere
    assert {"A3", "A6", "G1", "G2", "G3", "G6", "G7", "A16", "G17", "G14"} <= normals
    assert "A5" not in normals  # Escort Group B7 sails only in 1943 (AS-4)
    assert "A4" not in normals  # B-24 Liberator: 1942-1943
    for event in offered:  # each one card, each accepted by the rules as listed
        assert len(event.normals) + len(event.bonuses) + len(event.specials) + len(event.supplies) == 1
        RULESET.validate(table.state, event)
    assert CardsPlayed(seat=0, bonuses=(Bonus(card="A51"),)) in offered  # Minefield stands alone
    assert IntelligencePlayed(seat=0, card="A12") in RULESET.legal_events(table.state, 0)
    discards = {e.card for e in RULESET.legal_events(table.state, 0) or [] if isinstance(e, CardDiscarded)}
    assert discards == {None}  # a face-down card goes onto the face-down pile unseen (AS-3, G-2)


def test_a_fate_cards_play_announces_its_victim_and_a_hand_fully_known_is_offered_nothing_unseen():
    table = at_battle([[], ["A1"]], "C1")
    markgraf = next(e for e in plays(table, 0) if e.normals == ("G1",))
    assert markgraf.victims == ("C1",)  # AS-6: Markgraf's victim is SC 42, the convoy: doubled
    known = at_battle([["A1", "A6", "A3", "A16", "A15", "A17"], []], "C1")
    assert unseen(known.state, 0) == []
    assert {n for e in plays(known, 0) for n in e.normals} <= {"A1", "A6", "A3", "A16", "A15", "A17"}


def test_a_card_seen_elsewhere_is_not_offered_and_the_rules_still_refuse_it():
    table = at_battle([[], []], "C1")
    assert any(e.normals == ("G2",) for e in plays(table, 0))
    table.play(*[e for e in plays(table, 0) if e.normals == ("A6",)])  # Alain plays Achates
    # The record now has Achates on the table: Bea's face-down cards cannot be it.
    assert not any("A6" in e.normals for e in plays(table, 1))
    error = refused(table, CardsPlayed(seat=1, normals=("A6",)))
    assert error.rule_id == "G-2"


def test_extensions_attach_a_bonus_add_a_special_or_a_supply_each_legal_and_one_card_more():
    table = at_battle([[], []], "C2", zone="submarine")  # ONS 5, 1943, North Atlantic
    base = next(e for e in plays(table, 0) if e.normals == ("A16",))  # Walker, a submarine ship
    more = extensions(table.state, base)
    assert CardsPlayed(seat=0, normals=("A16",), bonuses=(Bonus(card="A7", parent="A16"),)) in more
    assert CardsPlayed(seat=0, normals=("A16",), bonuses=(Bonus(card="A14", parent="A16"),)) in more
    assert CardsPlayed(seat=0, normals=("A16",), specials=("A10",), admiral="combined") in more
    assert CardsPlayed(seat=0, normals=("A16",), supplies=("A13",)) in more
    assert not any(e.normals != ("A16",) and e.admiral is None for e in more)  # one normal without an admiral
    assert not any(b.card == "G16" for e in more for b in e.bonuses)  # a German bonus on an Allied play
    for event in more:
        RULESET.validate(table.state, event)
    bonus = CardsPlayed(seat=0, normals=("A16",), bonuses=(Bonus(card="A7", parent="A16"),))
    twice = extensions(table.state, bonus)
    assert all(len(e.bonuses) + len(e.specials) + len(e.supplies) == 2 for e in twice)
    table.play(bonus)
    assert table.state.unknown[0] == 4  # two face-down cards named by the play (G-2)


def test_extensions_stop_at_the_hands_face_down_cards():
    table = at_battle([["A16", "A14", "A13", "A6", "A15"], []], "C2", zone="submarine")  # one face down
    play = CardsPlayed(seat=0, normals=("A16",), bonuses=(Bonus(card="A7", parent="A16"),))
    RULESET.validate(table.state, play)
    more = extensions(table.state, play)
    assert CardsPlayed(seat=0, normals=("A16",), bonuses=(Bonus(card="A7", parent="A16"),), supplies=("A13",)) in more
    assert not any("A10" in e.specials for e in more)  # a second unseen card: the hand has one face down


def test_a_face_down_card_is_discarded_unseen_and_goes_back_into_the_deck_with_the_pile():
    table = at_battle([["A16"], []], "C2", zone="submarine")
    offered = {e.card for e in RULESET.legal_events(table.state, 0) or [] if isinstance(e, CardDiscarded)}
    assert offered == {"A16", None}  # the known card by name, a face-down one unnamed
    table.play(CardDiscarded(seat=0, card=None))
    state = table.state
    assert state.unknown[0] == 4 and state.discard == () and state.discard_face_down == 1
    assert RULESET.view(state, _public())["discard_count"] == 1
    assert len(state.located) + state.deck + sum(state.unknown) + state.discard_face_down == state.force_total
    known = at_battle([["A16", "A14", "A13", "A6", "A15", "A17"], []], "C2", zone="submarine")
    error = refused(known, CardDiscarded(seat=0, card=None))
    assert error.rule_id == "G-2"  # no face-down card to discard


def _public():
    from domain.ruleset import Viewer

    return Viewer.public()


def test_on_random_games_recorded_face_down_everything_listed_and_every_extension_is_accepted():
    import random

    from domain.atlantic_storm.events import ConvoysCut
    from testkit.players.atlantic_storm import RandomGame, generated_catalogue

    rng = random.Random(6)
    checked = 0

    def audit(game: RandomGame) -> None:
        nonlocal checked
        state = game.record.state
        if rng.random() > 0.2:
            return
        for seat in range(state.players):
            for event in RULESET.legal_events(state, seat):
                if not isinstance(event, ConvoysCut):  # listed with its convoys to name (AS-2)
                    RULESET.validate(state, event)
                    checked += 1
                for more in extensions(state, event) if rng.random() < 0.1 else []:
                    RULESET.validate(state, more)
                    checked += 1

    for players, variant in ((2, "basic"), (3, "advanced")):
        RandomGame(rng, generated_catalogue(players), players, variant, hidden=1.0, audit=0).play(audit)
    assert checked > 500


def test_the_advanced_game_discards_a_hand_with_its_face_down_cards_unnamed():
    from domain.atlantic_storm.events import HandDiscarded

    table = at_battle([["A16", "A6"], [], []], "C2", zone="submarine", variant="advanced", discarded="C3")
    listed = [e for e in RULESET.legal_events(table.state, 0) if isinstance(e, HandDiscarded)]
    assert listed == [HandDiscarded(seat=0, cards=("A16", "A6", None, None, None, None))]  # AS-3, G-2
    assert refused(table, HandDiscarded(seat=0, cards=("A16", "A6", None, None, None))).rule_id == "AS-3"  # whole
    assert refused(table, HandDiscarded(seat=0, cards=("A16", None, None, None, None, None))).rule_id == "G-2"
    table.play(HandDiscarded(seat=0, cards=("A16", "A6", "G2", None, None, None)))  # one seen as it went
    state = table.state
    assert state.hands[0] == () and state.unknown[0] == 0
    assert state.discard == ("A16", "A6", "G2") and state.discard_face_down == 3
    assert len(state.located) + state.deck + sum(state.unknown) + state.discard_face_down == state.force_total
