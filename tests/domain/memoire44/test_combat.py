"""Combat cards (M44-CC-1 to M44-CC-3), with the test combat deck: each rule id accepted and refused.

Alain (seat 0) commands the Axis infantry at (3, 5), next to a town at (2, 4); Bea (seat 1) the Allied
infantry at (4, 6), next to it. The Allies start.
"""

import msgspec
import pytest

from domain.memoire44 import RULESET
from domain.memoire44.events import (
    Battle,
    CardDrawn,
    CardPlayed,
    CombatCardDrawn,
    CombatCardPlayed,
    Retreated,
    UnitsOrdered,
)
from domain.ruleset import ResourceError, RuleError, Viewer

from .harness import TEST_COMBAT_DECK, with_resource
from .tables import ALLIES, AXIS, Table, hexagon, m44, setup_from
from .test_overlord import ALAIN, BEA, DENIS, UNITS, _team_setup

HEXES = [
    hexagon(2, 4, terrain="town"),
    hexagon(3, 5, unit="infger"),
    hexagon(4, 6, unit="infus"),
    hexagon(8, 8, unit="infus"),
]


def combat_table(allies=("direct_from_hq", "recon_1_centre", "their_finest_hour", "attack_centre")) -> Table:
    data = m44(HEXES, options={"combat_cards": True})
    game = Table(with_resource(setup_from(data), "combat_deck", TEST_COMBAT_DECK))
    for card in ("direct_from_hq", "probe_centre", "attack_centre", "probe_left"):
        game.accept(CardDrawn(seat=AXIS, card=card))
    for card in allies:
        game.accept(CardDrawn(seat=ALLIES, card=card))
    return game


def _deal(game, seat, *cards):
    for card in cards:
        game.accept(CombatCardDrawn(seat=seat, card=card))


# ---------------------------------------------------------------- M44-CC-1: the deck and the draws


def test_combat_cards_without_the_deck_are_refused_naming_it():
    with pytest.raises(RuleError) as error:
        RULESET.initial(setup_from(m44(HEXES, options={"combat_cards": True})))
    assert (error.value.rule_id, error.value.details["missing"]) == ("M44-CC-1", "combat_deck")
    assert "combat card deck" in error.value.message


def test_each_player_is_dealt_two_combat_cards_and_no_more():
    game = combat_table()
    assert game.state.combat_due == (2, 2)  # M44-CC-1
    _deal(game, AXIS, "tenacity", None)
    error = game.refused(CombatCardDrawn(seat=AXIS))
    assert (error.rule_id, error.code) == ("M44-CC-1", "no_combat_draw")
    assert game.state.combat_hands[AXIS].size == 2


def test_a_recon_card_lets_its_player_draw_a_combat_card():
    game = combat_table()
    state = game.accept(CardPlayed(seat=ALLIES, card="recon_1_centre"))
    assert state.combat_due == (2, 3)  # M44-CC-1


def test_their_finest_hour_reshuffles_the_combat_discards_and_everyone_draws_one():
    game = combat_table()
    _deal(game, ALLIES, "ardour", "smoke")
    game.accept(CardPlayed(seat=ALLIES, card="direct_from_hq"), UnitsOrdered(seat=ALLIES, units=(1,)))
    state = game.accept(CombatCardPlayed(seat=ALLIES, card="smoke"))
    assert state.combat_discard == ("smoke",)
    game.accept(CardDrawn(seat=ALLIES, card="probe_right"))
    game.accept(CardPlayed(seat=AXIS, card="probe_left"), UnitsOrdered(seat=AXIS, units=()), CardDrawn(seat=AXIS))
    state = game.accept(CardPlayed(seat=ALLIES, card="their_finest_hour"))
    assert state.combat_discard == () and state.combat_due == (3, 1)  # M44-CC-1


def test_a_combat_deck_with_an_unknown_effect_is_refused_on_import():
    kind = RULESET.resource_kinds["combat_deck"]
    bad = {"source": "x", "cards": {"odd": {"name": "Odd", "count": 1, "effect": "teleport"}}}
    with pytest.raises(ResourceError) as error:
        kind.parse(msgspec.json.encode(bad))
    assert error.value.errors[0]["field"] == "cards.odd.effect"
    assert kind.builtin() == {}  # no public list of the deck to cite: none shipped


# ---------------------------------------------------------------- M44-CC-2: when and on whom


def test_a_combat_card_helps_an_ordered_unit_once_a_turn():
    game = combat_table()
    _deal(game, ALLIES, "ardour", "tropical_fury")
    error = game.refused(CombatCardPlayed(seat=ALLIES, card="tropical_fury", unit=1))
    assert (error.rule_id, error.code) == ("M44-CC-2", "beside_command_card")  # no command card in play yet
    game.accept(CardPlayed(seat=ALLIES, card="direct_from_hq"), UnitsOrdered(seat=ALLIES, units=(1,)))
    game.accept(CombatCardPlayed(seat=ALLIES, card="tropical_fury", unit=1))
    error = game.refused(CombatCardPlayed(seat=ALLIES, card="ardour", unit=1))
    assert (error.rule_id, error.code) == ("M44-CC-2", "helped_already")
    error = game.refused(CombatCardPlayed(seat=ALLIES, card="street_fighting", unit=1))
    assert (error.rule_id, error.code) == ("M44-CC-2", "not_in_hand")


def test_a_card_on_a_unit_not_ordered_or_not_ones_own_is_refused():
    game = combat_table()
    _deal(game, ALLIES, "ardour", "ardour")
    game.accept(CardPlayed(seat=ALLIES, card="direct_from_hq"), UnitsOrdered(seat=ALLIES, units=(1,)))
    error = game.refused(CombatCardPlayed(seat=ALLIES, card="ardour", unit=2))
    assert (error.rule_id, error.code) == ("M44-CC-2", "beside_command_card")
    error = game.refused(CombatCardPlayed(seat=ALLIES, card="ardour", unit=0))
    assert (error.rule_id, error.code) == ("M44-CC-2", "not_your_unit")


# ---------------------------------------------------------------- M44-CC-3: the effects


def test_tropical_fury_adds_a_die_to_a_close_assault():
    game = combat_table()
    _deal(game, ALLIES, "tropical_fury", "ardour")
    game.accept(CardPlayed(seat=ALLIES, card="direct_from_hq"), UnitsOrdered(seat=ALLIES, units=(1,)))
    game.accept(CombatCardPlayed(seat=ALLIES, card="tropical_fury", unit=1))
    error = game.refused(Battle(seat=ALLIES, unit=1, target=(3, 5), dice=3, faces=("star",) * 3))
    assert error.code == "wrong_dice_count" and error.details["computed"] == 4  # M44-CC-3
    state = game.accept(Battle(seat=ALLIES, unit=1, target=(3, 5), dice=4, faces=("star",) * 4))
    assert state.last_battle == (3, 5)


def test_ardour_adds_no_die_to_a_close_assault():
    game = combat_table()
    _deal(game, ALLIES, "ardour", "smoke")
    game.accept(CardPlayed(seat=ALLIES, card="direct_from_hq"), UnitsOrdered(seat=ALLIES, units=(1,)))
    game.accept(CombatCardPlayed(seat=ALLIES, card="ardour", unit=1))
    error = game.refused(Battle(seat=ALLIES, unit=1, target=(3, 5), dice=4, faces=("star",) * 4))
    assert error.details["computed"] == 3  # M44-CC-3: Ardour is for fire at range


def test_street_fighting_helps_only_next_to_a_town():
    game = combat_table()
    _deal(game, ALLIES, "street_fighting", "smoke")
    _deal(game, AXIS, "street_fighting", "tenacity")
    game.accept(CardPlayed(seat=ALLIES, card="direct_from_hq"), UnitsOrdered(seat=ALLIES, units=(1,)))
    error = game.refused(CombatCardPlayed(seat=ALLIES, card="street_fighting", unit=1))
    assert (error.rule_id, error.code) == ("M44-CC-3", "not_in_town")
    game.accept(CardDrawn(seat=ALLIES, card="probe_right"))
    game.accept(CardPlayed(seat=AXIS, card="direct_from_hq"), UnitsOrdered(seat=AXIS, units=(0,)))
    game.accept(CombatCardPlayed(seat=AXIS, card="street_fighting", unit=0))  # (3, 5) is next to the town
    game.accept(Battle(seat=AXIS, unit=0, target=(4, 6), dice=4, faces=("star",) * 4))


def test_tenacity_ignores_a_flag():
    game = combat_table()
    _deal(game, AXIS, "tenacity", "ardour")
    game.accept(CardPlayed(seat=ALLIES, card="direct_from_hq"), UnitsOrdered(seat=ALLIES, units=(1,)))
    error = game.refused(CombatCardPlayed(seat=AXIS, card="tenacity", unit=0))
    assert (error.rule_id, error.code) == ("M44-CC-3", "no_flag")
    game.accept(Battle(seat=ALLIES, unit=1, target=(3, 5), dice=3, faces=("flag", "star", "star")))
    state = game.accept(CombatCardPlayed(seat=AXIS, card="tenacity", unit=0))
    assert state.pending.ignorable == 1  # M44-CC-3
    state = game.accept(Retreated(seat=AXIS, unit=0, path=()))
    assert state.units[0].figures == 4 and state.units[0].hex == (3, 5)


def test_the_public_sees_how_many_combat_cards_a_player_holds_never_which():
    game = combat_table()
    _deal(game, AXIS, "tenacity", "ardour")
    public = RULESET.view(game.state, Viewer.public())
    assert public["combat"]["hands"][AXIS]["count"] == 2 and "known" not in public["combat"]["hands"][AXIS]
    assert "tenacity" not in msgspec.json.encode(public).decode()  # G-2
    assert RULESET.view(game.state, Viewer.of_seat(AXIS))["combat"]["hands"][AXIS]["known"] == ["tenacity", "ardour"]
    before = game.state
    event = CombatCardDrawn(seat=ALLIES, card="smoke")
    after = game.accept(event)
    for viewer in (Viewer.public(), Viewer.of_seat(AXIS)):
        assert RULESET.narrate(before, event, after, viewer).text == "Allies (Bea) draw a combat card."
    # The full record and the drawing seat read which card it was, or that the record does not know it.
    for viewer in (Viewer.full(), Viewer.of_seat(ALLIES)):
        line = RULESET.narrate(before, event, after, viewer).text
        assert line == "Allies (Bea) draw the combat card Smoke Screen."
    hidden = CombatCardDrawn(seat=ALLIES)
    line = RULESET.narrate(after, hidden, game.accept(hidden), Viewer.full()).text
    assert line == "Allies (Bea) draw a combat card (face down)."


def test_tenacity_cannot_ignore_the_flag_of_off_board_artillery():
    data = m44(HEXES, options={"combat_cards": True, "off_board_artillery": "ALLIES"})
    game = Table(with_resource(setup_from(data), "combat_deck", TEST_COMBAT_DECK))
    for card in ("direct_from_hq", "probe_centre", "attack_centre", "probe_left"):
        game.accept(CardDrawn(seat=AXIS, card=card))
    for card in ("recon_1_centre", "probe_right", "attack_left", "attack_right"):
        game.accept(CardDrawn(seat=ALLIES, card=card))
    _deal(game, AXIS, "tenacity", "ardour")
    game.accept(CardPlayed(seat=ALLIES, card="recon_1_centre", as_card="barrage"))
    game.accept(Battle(seat=ALLIES, unit=None, target=(3, 5), dice=4, faces=("flag", "armour", "armour", "armour")))
    error = game.refused(CombatCardPlayed(seat=AXIS, card="tenacity", unit=0))
    assert (error.rule_id, error.code) == ("M44-DD-5", "flags_fixed")
    game.accept(Retreated(seat=AXIS, unit=0, path=((2, 6),)))


# ---------------------------------------------------------------- M44-OV-11: combat cards at a team table


def test_at_a_team_table_the_generals_hold_the_combat_cards_and_the_commander_in_chief_none():
    # M44-OV-11: "Cartes Combat : A la charge du Commandant en chef" read beside "1 par Général".
    data = m44(UNITS, board_type="OVERLORD", starting="PLAYER1", options={"combat_cards": True})
    game = Table(with_resource(_team_setup(data), "combat_deck", TEST_COMBAT_DECK))
    assert game.state.combat_due == (0, 1, 1, 1, 1, 1)  # Denis commands the centre too: he is a general
    error = game.refused(CombatCardDrawn(seat=ALAIN, card="ardour"))
    assert (error.rule_id, error.code) == ("M44-CC-1", "no_combat_draw")
    state = game.accept(CombatCardDrawn(seat=BEA, card="ardour"), CombatCardDrawn(seat=DENIS, card="tenacity"))
    assert state.combat_hands[BEA].known == ("ardour",) and state.combat_hands[DENIS].known == ("tenacity",)
