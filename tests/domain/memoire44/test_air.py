"""Air rules (M44-AIR-1 to M44-AIR-17), with the test air pack: each rule id accepted and refused.

Alain (seat 0) commands the Axis: infantry at (3, 9) (unit 0), armour at (3, 11) (unit 1), artillery at
(1, 11) (unit 2). Bea (seat 1) the Allies: infantry at (6, 12) (unit 3), infantry at (8, 8) (unit 4),
artillery at (7, 13) (unit 5). Every unit stands in the centre section; the Allies start and have air
superiority (the pack's row for Normandy 1944).
"""

from typing import Any

import msgspec
import pytest

from domain.memoire44 import RULESET
from domain.memoire44.board import hex_name
from domain.memoire44.catalogue import ARMOUR, ARTILLERY, INFANTRY, UNIT_TYPES
from domain.memoire44.events import (
    AirCardDrawn,
    AirStrike,
    AntiAircraft,
    Battle,
    Bombing,
    CardCommitted,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardsGiven,
    DiceRolled,
    Dogfight,
    Gift,
    PlaneDeployed,
    PlaneMoved,
    PlaneOrdered,
    Retreated,
    TurnEnded,
    UnitMoved,
    UnitsOrdered,
    VisibilityRolled,
)
from domain.memoire44.rules.air import bomb_target
from domain.memoire44.rules.overlord import can_act_now
from domain.memoire44.state import State
from domain.ruleset import ResourceError, RuleError, Viewer

from .harness import TEST_AIR_PACK, with_resource
from .tables import ALLIES, AXIS, Table, hexagon, m44, setup_from
from .test_overlord import ALAIN, ALLIED_HAND, AXIS_HAND, BEA, CHLOE, DENIS, EMMA, UNITS, _team_setup

HEXES = [
    hexagon(3, 9, unit="infger"),
    hexagon(3, 11, unit="tankger"),
    hexagon(1, 11, unit="gunger"),
    hexagon(6, 12, unit="infus"),
    hexagon(8, 8, unit="infus"),
    hexagon(7, 13, unit="gunus"),
]
AIR = {"air_rules": True, "air_theatre": "normandy-1944"}


def air_setup(hexes: list[dict[str, Any]] = HEXES, options: dict[str, Any] | None = None, pack: Any = TEST_AIR_PACK):
    data = m44(hexes, options=AIR if options is None else options)
    setup = setup_from(data)
    return setup if pack is None else with_resource(setup, "air_pack", pack)


def air_table(
    allies: tuple[str, ...] = ("attack_centre", "recon_1_centre", "their_finest_hour", "close_assault"),
    axis: tuple[str, ...] = ("attack_centre", "probe_centre", "direct_from_hq", "barrage"),
    allied_air: tuple[str, ...] = ("fighter_sweep", "bomb_run", "fighter_sweep"),
    axis_air: tuple[str, ...] = ("fighter_sweep", "bomb_run"),
) -> Table:
    game = Table(air_setup())
    for card in axis:
        game.accept(CardDrawn(seat=AXIS, card=card))
    for card in allies:
        game.accept(CardDrawn(seat=ALLIES, card=card))
    for card in allied_air:
        game.accept(AirCardDrawn(seat=ALLIES, card=card))
    for card in axis_air:
        game.accept(AirCardDrawn(seat=AXIS, card=card))
    return game


def _rule(error: RuleError) -> tuple[str, str]:
    return error.rule_id, error.code


def allied_spitfire(game: Table, at=(5, 11), card="attack_centre", units=(3,)) -> None:
    """The Allies play `card`, order `units` and deploy the Spitfire at `at` with a Fighter Sweep."""
    game.accept(CardPlayed(seat=ALLIES, card=card), UnitsOrdered(seat=ALLIES, units=units))
    game.accept(PlaneDeployed(seat=ALLIES, plane="spitfire", card="fighter_sweep", hex=at))


def end_turn(game: Table, seat: int, card: str | None = None) -> None:
    game.accept(CardDrawn(seat=seat, card=card))


def plane_hex(game: Table, plane: str):
    air = game.state.air
    assert air is not None
    return next(p.hex for p in air.planes if p.plane == plane)


# ---------------------------------------------------------------- M44-AIR-1: the air pack


def test_air_rules_without_the_air_pack_are_refused_naming_it():
    with pytest.raises(RuleError) as error:
        RULESET.initial(air_setup(pack=None))
    assert (error.value.rule_id, error.value.details["missing"]) == ("M44-AIR-1", "air_pack")


def test_a_theatre_missing_from_the_superiority_table_is_refused_naming_the_row():
    with pytest.raises(RuleError) as error:
        RULESET.initial(air_setup(options={"air_rules": True, "air_theatre": "burma-1945"}))
    assert error.value.details["missing"] == "superiority.burma-1945"  # M44-AIR-1
    # The scenario may name the side itself: then no table row is needed.
    state = RULESET.initial(air_setup(options={"air_rules": True, "air_superiority": "AXIS"}))
    assert state.air is not None and state.air.superiority == AXIS


def test_an_air_pack_with_bad_rows_is_refused_on_import_and_none_ships():
    kind = RULESET.resource_kinds["air_pack"]
    bad = TEST_AIR_PACK | {"planes": {"odd": {"name": "Odd", "side": "NAVY", "symbol": "fighter", "duel": 9}}}
    with pytest.raises(ResourceError) as error:
        kind.parse(msgspec.json.encode(bad))
    assert {e["field"] for e in error.value.errors} == {"planes.odd.side", "planes.odd.duel"}  # M44-AIR-1
    assert kind.builtin() == {}  # no public source of the values to cite: none shipped


def test_a_dogfight_needing_a_missing_duel_value_is_refused_naming_it():
    game = air_table()
    game.accept(CardPlayed(seat=ALLIES, card="attack_centre"), UnitsOrdered(seat=ALLIES, units=()))
    game.accept(PlaneDeployed(seat=ALLIES, plane="typhoon", card="fighter_sweep", hex=(5, 11)))
    end_turn(game, ALLIES)
    game.accept(CardPlayed(seat=AXIS, card="attack_centre"), UnitsOrdered(seat=AXIS, units=()))
    game.accept(PlaneDeployed(seat=AXIS, plane="bf109", card="fighter_sweep", hex=(4, 10)))
    end_turn(game, AXIS)
    game.accept(CardPlayed(seat=ALLIES, card="recon_1_centre"), UnitsOrdered(seat=ALLIES, units=()))
    game.accept(PlaneOrdered(seat=ALLIES, plane="typhoon"))
    error = game.refused(Dogfight(seat=ALLIES, plane="typhoon", dice=3, faces=("grenade",) * 3))
    assert _rule(error) == ("M44-AIR-1", "missing_duel_value")
    assert error.details["missing"] == "planes.typhoon.duel"


# ---------------------------------------------------------------- M44-AIR-2: the air combat deck


def test_the_deal_gives_the_side_with_air_superiority_one_more_card():
    game = air_table(allied_air=(), axis_air=())
    air = game.state.air
    assert air is not None and air.due == (2, 3)  # M44-AIR-2: Axis 2, Allies 2 + 1
    game.accept(AirCardDrawn(seat=AXIS), AirCardDrawn(seat=AXIS))
    error = game.refused(AirCardDrawn(seat=AXIS))
    assert _rule(error) == ("M44-AIR-2", "no_air_draw")


def test_a_beach_takes_one_card_off_each_side():
    state = RULESET.initial(air_setup([*HEXES, hexagon(5, 5, terrain="beach")]))
    assert state.air is not None and state.air.due == (1, 2)  # M44-AIR-2


def test_a_recon_card_draws_an_air_combat_card():
    game = air_table()
    state = game.accept(CardPlayed(seat=ALLIES, card="recon_1_centre"))
    assert state.air is not None and state.air.due == (0, 1)  # M44-AIR-9
    state = game.accept(AirCardDrawn(seat=ALLIES, card="bomb_run"))
    assert state.air is not None and state.air.hands[ALLIES].size == 4


# ---------------------------------------------------------------- M44-AIR-3: deployment


def test_a_plane_is_deployed_with_a_section_card_and_an_air_card_on_any_hex_even_occupied():
    game = air_table()
    allied_spitfire(game, at=(3, 9))  # over the Axis infantry
    state = game.state
    assert plane_hex(game, "spitfire") == (3, 9)  # M44-AIR-3
    assert state.air is not None and state.air.discard == ("fighter_sweep",) and state.air.hands[ALLIES].size == 2
    assert state.occupant[(3, 9)] == 0  # the ground unit stays: planes are kept apart


def test_deployment_beside_a_tactic_card_a_second_card_or_a_second_plane_is_refused():
    game = air_table(allies=("direct_from_hq", "attack_centre", "recon_1_centre", "close_assault"))
    game.accept(CardPlayed(seat=ALLIES, card="direct_from_hq"), UnitsOrdered(seat=ALLIES, units=(3,)))
    error = game.refused(PlaneDeployed(seat=ALLIES, plane="spitfire", card="fighter_sweep", hex=(5, 11)))
    assert _rule(error) == ("M44-AIR-3", "tactic_card")
    game = air_table()
    allied_spitfire(game)
    error = game.refused(PlaneDeployed(seat=ALLIES, plane="typhoon", card="bomb_run", hex=(5, 9)))
    assert _rule(error) == ("M44-AIR-3", "one_air_card")
    end_turn(game, ALLIES)
    end_axis_turn(game)
    game.accept(CardPlayed(seat=ALLIES, card="recon_1_centre"), UnitsOrdered(seat=ALLIES, units=()))
    error = game.refused(PlaneDeployed(seat=ALLIES, plane="typhoon", card="bomb_run", hex=(5, 9)))
    assert _rule(error) == ("M44-AIR-3", "one_plane")


def test_a_card_is_used_for_its_effect_only_with_the_planes_symbol():
    game = air_table()
    game.accept(CardPlayed(seat=ALLIES, card="attack_centre"), UnitsOrdered(seat=ALLIES, units=()))
    error = game.refused(PlaneDeployed(seat=ALLIES, plane="spitfire", card="bomb_run", hex=(5, 11), use_effect=True))
    assert _rule(error) == ("M44-AIR-3", "symbol_mismatch")
    game.accept(PlaneDeployed(seat=ALLIES, plane="spitfire", card="fighter_sweep", hex=(5, 11), use_effect=True))
    # Using the card's effect takes the place of the standard attack.
    error = game.refused(PlaneMoved(seat=ALLIES, plane="spitfire", path=((4, 10),), markers=((4, 10),)))
    assert _rule(error) == ("M44-AIR-3", "card_effect")


def test_no_plane_is_deployed_before_full_daylight():
    game = Table(air_setup(options=AIR | {"night_visibility_rules": True}))
    for seat in (AXIS, ALLIES):
        for card in ("attack_centre", "probe_centre", "recon_1_centre", "direct_from_hq"):
            game.accept(CardDrawn(seat=seat, card=card))
    game.accept(AirCardDrawn(seat=ALLIES, card="fighter_sweep"))
    game.accept(VisibilityRolled(seat=ALLIES, faces=("flag",) * 4))
    game.accept(CardPlayed(seat=ALLIES, card="attack_centre"), UnitsOrdered(seat=ALLIES, units=()))
    error = game.refused(PlaneDeployed(seat=ALLIES, plane="spitfire", card="fighter_sweep", hex=(5, 11)))
    assert _rule(error) == ("M44-AIR-3", "not_full_day")


def end_axis_turn(game: Table) -> None:
    game.accept(CardPlayed(seat=AXIS, card="probe_centre"), UnitsOrdered(seat=AXIS, units=()))
    end_turn(game, AXIS)


# ---------------------------------------------------------------- M44-AIR-4: activation or removal


def test_a_plane_not_ordered_in_its_sides_turn_leaves_without_a_medal():
    game = air_table()
    allied_spitfire(game)
    end_turn(game, ALLIES)
    end_axis_turn(game)
    assert plane_hex(game, "spitfire") == (5, 11)  # the enemy's turn does not count
    game.accept(CardPlayed(seat=ALLIES, card="recon_1_centre"), UnitsOrdered(seat=ALLIES, units=()))
    end_recon_turn(game)
    state = game.state
    assert plane_hex(game, "spitfire") is None  # M44-AIR-4
    assert state.medals == (0, 0)
    assert state.air is not None and not state.air.planes[0].lost


def end_recon_turn(game: Table) -> None:
    """The Allies end a Recon turn: two cards drawn, one discarded."""
    game.accept(CardDrawn(seat=ALLIES, card="probe_left"), CardDrawn(seat=ALLIES, card="probe_right"))
    game.accept(CardDiscarded(seat=ALLIES, card="probe_left"))


def test_a_plane_is_ordered_as_one_of_the_cards_units_in_its_section():
    game = air_table()
    allied_spitfire(game)
    end_turn(game, ALLIES)
    end_axis_turn(game)
    game.accept(CardPlayed(seat=ALLIES, card="recon_1_centre"), UnitsOrdered(seat=ALLIES, units=(3,)))
    error = game.refused(PlaneOrdered(seat=ALLIES, plane="spitfire"))
    assert _rule(error) == ("M44-AIR-4", "wrong_order")  # Recon 1 orders one unit, already given
    game = air_table()
    allied_spitfire(game)
    end_turn(game, ALLIES)
    end_axis_turn(game)
    game.accept(CardPlayed(seat=ALLIES, card="recon_1_centre"), UnitsOrdered(seat=ALLIES, units=()))
    state = game.accept(PlaneOrdered(seat=ALLIES, plane="spitfire"))
    assert state.air is not None and state.air.activated == (1,)  # M44-AIR-4 (planes sorted by id: the Spitfire is 1)
    end_recon_turn(game)
    assert plane_hex(game, "spitfire") == (5, 11)  # ordered: it stays


# ---------------------------------------------------------------- M44-AIR-5: flight


def test_a_plane_flies_any_distance_over_ground_units_but_not_through_the_enemy_plane():
    game = air_table()
    allied_spitfire(game, at=(8, 2))
    state = game.accept(
        PlaneMoved(seat=ALLIES, plane="spitfire", path=((7, 3), (6, 4), (5, 5), (4, 6), (3, 7), (3, 9)))
    )
    assert plane_hex(game, "spitfire") == (3, 9)  # M44-AIR-5: six hexes, ending over the Axis infantry
    assert state.last_move[-1] == (3, 9)
    end_turn(game, ALLIES)
    game.accept(CardPlayed(seat=AXIS, card="attack_centre"), UnitsOrdered(seat=AXIS, units=(1,)))
    game.accept(PlaneDeployed(seat=AXIS, plane="bf109", card="fighter_sweep", hex=(5, 9)))
    error = game.refused(PlaneMoved(seat=AXIS, plane="bf109", path=((4, 8), (3, 9), (2, 10))))
    assert _rule(error) == ("M44-AIR-5", "air_occupied")
    game.accept(PlaneMoved(seat=AXIS, plane="bf109", path=((4, 8), (3, 7), (2, 8))))


def test_a_ground_unit_does_not_enter_the_enemy_planes_hex():
    game = air_table()
    allied_spitfire(game, at=(4, 10))
    end_turn(game, ALLIES)
    game.accept(CardPlayed(seat=AXIS, card="attack_centre"), UnitsOrdered(seat=AXIS, units=(0,)))
    error = game.refused(UnitMoved(seat=AXIS, unit=0, path=((4, 10),)))
    assert _rule(error) == ("M44-AIR-5", "illegal_move")
    game.accept(UnitMoved(seat=AXIS, unit=0, path=((4, 8),)))


# ---------------------------------------------------------------- M44-AIR-6: standard attack


def test_ammunition_markers_then_one_die_each_hitting_by_the_units_symbol():
    game = air_table()
    allied_spitfire(game, at=(5, 11))
    game.accept(PlaneMoved(seat=ALLIES, plane="spitfire", path=((4, 10), (3, 9), (3, 11)), markers=((3, 9), (3, 11))))
    error = game.refused(AirStrike(seat=ALLIES, target=(3, 9), dice=2, faces=("infantry", "infantry")))
    assert _rule(error) == ("M44-AIR-6", "wrong_dice_count")
    state = game.accept(AirStrike(seat=ALLIES, target=(3, 9), dice=1, faces=("grenade",)))
    assert state.units[0].figures == 4  # M44-AIR-6: a grenade does not hit
    state = game.accept(AirStrike(seat=ALLIES, target=(3, 11), dice=1, faces=("armour",)))
    assert state.units[1].figures == 2
    error = game.refused(AirStrike(seat=ALLIES, target=(3, 11), dice=1, faces=("armour",)))
    assert _rule(error) == ("M44-AIR-6", "no_marker")


def test_a_flag_makes_the_ground_unit_retreat():
    game = air_table()
    allied_spitfire(game, at=(4, 10))
    game.accept(PlaneMoved(seat=ALLIES, plane="spitfire", path=((3, 9),), markers=((3, 9),)))
    state = game.accept(AirStrike(seat=ALLIES, target=(3, 9), dice=1, faces=("flag",)))
    assert state.pending is not None and state.pending.kind == "retreat" and state.pending.flags == 1
    state = game.accept(Retreated(seat=AXIS, unit=0, path=((2, 8),)))
    assert state.units[0].hex == (2, 8)


def test_more_than_three_markers_or_a_broken_run_is_refused():
    hexes = [*HEXES, hexagon(3, 13, unit="infger"), hexagon(3, 15, unit="infger")]
    game = Table(air_setup(hexes))
    for seat in (AXIS, ALLIES):
        for card in ("attack_centre", "probe_centre", "recon_1_centre", "direct_from_hq"):
            game.accept(CardDrawn(seat=seat, card=card))
    game.accept(AirCardDrawn(seat=ALLIES, card="fighter_sweep"))
    allied_spitfire(game, at=(4, 8))
    row = ((3, 9), (3, 11), (3, 13), (3, 15))
    error = game.refused(PlaneMoved(seat=ALLIES, plane="spitfire", path=row, markers=row))
    assert _rule(error) == ("M44-AIR-6", "bad_markers")
    error = game.refused(PlaneMoved(seat=ALLIES, plane="spitfire", path=row, markers=((3, 9), (3, 13))))
    assert _rule(error) == ("M44-AIR-6", "bad_markers")
    game.accept(PlaneMoved(seat=ALLIES, plane="spitfire", path=row, markers=row[:3]))


# ---------------------------------------------------------------- M44-AIR-7: dogfights


def _two_planes(game: Table, allies_draw: str | None = None) -> None:
    """Both planes deployed next to each other: the Spitfire at (5, 11), the Bf 109 at (4, 10); the Allies
    drew `allies_draw` (unnamed when None)."""
    allied_spitfire(game, at=(5, 11))
    end_turn(game, ALLIES, allies_draw)
    game.accept(CardPlayed(seat=AXIS, card="attack_centre"), UnitsOrdered(seat=AXIS, units=()))
    game.accept(PlaneDeployed(seat=AXIS, plane="bf109", card="fighter_sweep", hex=(4, 10)))
    end_turn(game, AXIS)


def test_a_dogfight_rolls_the_duel_value_and_a_grenade_destroys_the_plane_for_a_medal():
    game = air_table()
    _two_planes(game)
    game.accept(CardPlayed(seat=ALLIES, card="recon_1_centre"), UnitsOrdered(seat=ALLIES, units=()))
    game.accept(PlaneOrdered(seat=ALLIES, plane="spitfire"))
    error = game.refused(Dogfight(seat=ALLIES, plane="spitfire", dice=2, faces=("grenade", "star")))
    assert _rule(error) == ("M44-AIR-7", "wrong_dice_count")
    state = game.accept(Dogfight(seat=ALLIES, plane="spitfire", dice=3, faces=("grenade", "star", "flag")))
    assert plane_hex(game, "bf109") is None and state.air is not None and state.air.planes[0].lost
    assert state.medals == (0, 1)  # M44-AIR-7: the plane's token is a medal for the Allies
    assert state.air.due == (0, 2)  # the Recon draw and the card for the kill
    error = game.refused(Dogfight(seat=ALLIES, plane="spitfire", dice=3, faces=("grenade",) * 3))
    assert _rule(error) == ("M44-AIR-7", "fought")


def test_a_flag_drives_the_plane_off_and_it_may_return():
    game = air_table()
    _two_planes(game)
    game.accept(CardPlayed(seat=ALLIES, card="recon_1_centre"), UnitsOrdered(seat=ALLIES, units=()))
    game.accept(PlaneOrdered(seat=ALLIES, plane="spitfire"))
    state = game.accept(Dogfight(seat=ALLIES, plane="spitfire", dice=3, faces=("flag", "star", "infantry")))
    assert plane_hex(game, "bf109") is None and state.air is not None and not state.air.planes[0].lost
    assert state.medals == (0, 0)


def test_a_dogfight_against_a_plane_not_next_to_yours_is_refused():
    game = air_table()
    _two_planes(game)
    game.accept(CardPlayed(seat=ALLIES, card="recon_1_centre"), UnitsOrdered(seat=ALLIES, units=()))
    game.accept(PlaneOrdered(seat=ALLIES, plane="spitfire"))
    game.accept(PlaneMoved(seat=ALLIES, plane="spitfire", path=((6, 12), (7, 11))))
    error = game.refused(Dogfight(seat=ALLIES, plane="spitfire", dice=3, faces=("grenade",) * 3))
    assert _rule(error) == ("M44-AIR-7", "no_enemy_plane")


# ---------------------------------------------------------------- M44-AIR-8: fire at planes


def test_a_ground_unit_fires_three_dice_at_an_adjacent_plane_artillery_four_at_two_hexes():
    game = air_table()
    allied_spitfire(game, at=(2, 10))
    end_turn(game, ALLIES)
    game.accept(CardPlayed(seat=AXIS, card="direct_from_hq"), UnitsOrdered(seat=AXIS, units=(0, 2)))
    error = game.refused(AntiAircraft(seat=AXIS, unit=2, dice=3, faces=("star",) * 3))
    assert _rule(error) == ("M44-AIR-8", "wrong_dice_count")
    state = game.accept(AntiAircraft(seat=AXIS, unit=2, dice=4, faces=("star", "star", "infantry", "armour")))
    assert plane_hex(game, "spitfire") == (2, 10)
    state = game.accept(AntiAircraft(seat=AXIS, unit=0, dice=3, faces=("grenade", "star", "star")))
    assert plane_hex(game, "spitfire") is None and state.air is not None and state.air.planes[1].lost
    assert state.medals == (1, 0)  # M44-AIR-8


def test_fire_at_a_plane_out_of_reach_or_from_a_unit_next_to_an_enemy_is_refused():
    game = air_table()
    allied_spitfire(game, at=(5, 9))
    end_turn(game, ALLIES)
    game.accept(CardPlayed(seat=AXIS, card="direct_from_hq"), UnitsOrdered(seat=AXIS, units=(0, 2)))
    error = game.refused(AntiAircraft(seat=AXIS, unit=0, dice=3, faces=("star",) * 3))
    assert _rule(error) == ("M44-AIR-8", "out_of_reach")  # infantry two hexes away
    error = game.refused(AntiAircraft(seat=AXIS, unit=2, dice=4, faces=("star",) * 4))
    assert _rule(error) == ("M44-AIR-8", "out_of_reach")  # artillery four hexes away


# ---------------------------------------------------------------- M44-AIR-9: command cards and planes


def test_their_finest_hour_adds_a_die_per_marker_and_shuffles_the_air_discards_back():
    game = air_table()
    allied_spitfire(game, at=(4, 10))
    end_turn(game, ALLIES)
    end_axis_turn(game)
    state = game.accept(CardPlayed(seat=ALLIES, card="their_finest_hour"))
    assert state.air is not None and state.air.discard == () and state.air.due == (1, 1)  # M44-AIR-9
    held = game.state.hands[ALLIES].size + 1
    game.accept(DiceRolled(seat=ALLIES, faces=("star",) + ("flag",) * (held - 1)))
    game.accept(UnitsOrdered(seat=ALLIES, units=()), PlaneOrdered(seat=ALLIES, plane="spitfire"))
    game.accept(PlaneMoved(seat=ALLIES, plane="spitfire", path=((3, 9),), markers=((3, 9),)))
    error = game.refused(AirStrike(seat=ALLIES, target=(3, 9), dice=1, faces=("infantry",)))
    assert _rule(error) == ("M44-AIR-6", "wrong_dice_count")
    state = game.accept(AirStrike(seat=ALLIES, target=(3, 9), dice=2, faces=("infantry", "infantry")))
    assert state.units[0].figures == 2


def test_their_finest_hour_orders_a_plane_only_with_a_star():
    game = air_table()
    allied_spitfire(game, at=(4, 10))
    end_turn(game, ALLIES)
    end_axis_turn(game)
    game.accept(CardPlayed(seat=ALLIES, card="their_finest_hour"))
    held = game.state.hands[ALLIES].size + 1
    game.accept(DiceRolled(seat=ALLIES, faces=("flag",) * held), UnitsOrdered(seat=ALLIES, units=()))
    error = game.refused(PlaneOrdered(seat=ALLIES, plane="spitfire"))
    assert _rule(error) == ("M44-AIR-4", "wrong_order")


def test_close_assault_orders_a_unit_next_to_an_enemy_plane_and_gives_it_a_die_more():
    game = air_table()
    game.accept(CardPlayed(seat=ALLIES, card="attack_centre"), UnitsOrdered(seat=ALLIES, units=()))
    end_turn(game, ALLIES)
    game.accept(CardPlayed(seat=AXIS, card="attack_centre"), UnitsOrdered(seat=AXIS, units=()))
    game.accept(PlaneDeployed(seat=AXIS, plane="bf109", card="fighter_sweep", hex=(7, 11)))
    end_turn(game, AXIS)
    game.accept(CardPlayed(seat=ALLIES, card="close_assault"))
    error = game.refused(UnitsOrdered(seat=ALLIES, units=(3, 4)))
    assert _rule(error) == ("M44-5", "wrong_order")  # the infantry at (8, 8) is next to nothing
    game.accept(UnitsOrdered(seat=ALLIES, units=(3,)))
    error = game.refused(AntiAircraft(seat=ALLIES, unit=3, dice=3, faces=("star",) * 3))
    assert _rule(error) == ("M44-AIR-8", "wrong_dice_count")
    state = game.accept(AntiAircraft(seat=ALLIES, unit=3, dice=4, faces=("flag", "star", "star", "star")))
    assert plane_hex(game, "bf109") is None and state.air is not None and not state.air.planes[0].lost  # M44-AIR-9


def test_barrage_never_targets_a_plane():
    game = air_table()
    allied_spitfire(game, at=(2, 8))
    end_turn(game, ALLIES)
    game.accept(CardPlayed(seat=AXIS, card="barrage"))
    error = game.refused(Battle(seat=AXIS, unit=None, target=(2, 8), dice=4, faces=("grenade",) * 4))
    assert error.code == "no_target"  # M44-AIR-9: a plane is no unit a Barrage may target
    game.accept(Battle(seat=AXIS, unit=None, target=(6, 12), dice=4, faces=("star",) * 4))


# ---------------------------------------------------------------- M44-AIR-11: strategic bombing


def bombing_table() -> Table:
    game = Table(air_setup([*HEXES, hexagon(2, 14, tags=("medal1",))]))  # an Allied objective behind the Axis
    for seat in (AXIS, ALLIES):
        for card in ("attack_centre", "probe_centre", "recon_1_centre", "direct_from_hq"):
            game.accept(CardDrawn(seat=seat, card=card))
    game.accept(AirCardDrawn(seat=ALLIES, card="fighter_sweep"))
    return game


def test_a_bomb_on_an_objective_takes_its_medal_until_an_enemy_unit_retakes_it():
    game = bombing_table()
    allied_spitfire(game, at=(4, 12))
    error = game.refused(PlaneMoved(seat=ALLIES, plane="spitfire", path=((3, 13),), bomb=True))
    assert _rule(error) == ("M44-AIR-11", "no_objective")
    game.accept(
        PlaneMoved(seat=ALLIES, plane="spitfire", path=((3, 11), (2, 12), (2, 14)), markers=((3, 11),), bomb=True)
    )
    error = game.refused(Bombing(seat=ALLIES, dice=1, faces=("grenade",)))
    assert _rule(error) == ("M44-AIR-11", "strikes_first")
    game.accept(AirStrike(seat=ALLIES, target=(3, 11), dice=1, faces=("star",)))
    error = game.refused(Bombing(seat=ALLIES, dice=3, faces=("grenade",) * 3))
    assert _rule(error) == ("M44-AIR-11", "wrong_dice_count")
    state = game.accept(Bombing(seat=ALLIES, dice=1, faces=("grenade",)))
    assert state.medals == (0, 1) and state.air is not None and state.air.bombed == ((0, ALLIES),)  # M44-AIR-11
    end_turn(game, ALLIES)
    end_axis_turn(game)
    game.accept(CardPlayed(seat=ALLIES, card="probe_centre"), UnitsOrdered(seat=ALLIES, units=()))
    state = game.accept(CardDrawn(seat=ALLIES))
    assert plane_hex(game, "spitfire") is None and state.medals == (0, 1)  # the plane gone, the objective held
    game.accept(CardPlayed(seat=AXIS, card="direct_from_hq"), UnitsOrdered(seat=AXIS, units=(1,)))
    state = game.accept(UnitMoved(seat=AXIS, unit=1, path=((2, 12), (2, 14))))
    assert state.medals == (0, 0) and state.air is not None and state.air.retaken == (0,)  # retaken by the Axis


def test_a_bombing_that_rolls_no_grenade_takes_nothing():
    game = bombing_table()
    allied_spitfire(game, at=(4, 12))
    game.accept(PlaneMoved(seat=ALLIES, plane="spitfire", path=((3, 13), (2, 14)), bomb=True))
    state = game.accept(Bombing(seat=ALLIES, dice=1, faces=("flag",)))
    assert state.medals == (0, 0) and state.air is not None and state.air.bomb is None
    error = game.refused(Bombing(seat=ALLIES, dice=1, faces=("grenade",)))
    assert _rule(error) == ("M44-AIR-11", "no_bomb")


# ---------------------------------------------------------------- M44-AIR-12: Ambush against a plane


def test_an_ambush_fires_at_the_plane_dropping_a_marker_and_downing_it_ends_its_attack():
    game = air_table(axis=("attack_centre", "probe_centre", "ambush", "barrage"))
    allied_spitfire(game, at=(4, 10))
    error = game.refused(CardPlayed(seat=AXIS, card="ambush", target=(4, 10)))
    assert error.code == "ambush_target"  # no marker dropped yet: Ambush names the hex of the unit marked
    game.accept(PlaneMoved(seat=ALLIES, plane="spitfire", path=((3, 9), (3, 11)), markers=((3, 9), (3, 11))))
    game.accept(CardPlayed(seat=AXIS, card="ambush", target=(3, 9)))
    error = game.refused(AirStrike(seat=ALLIES, target=(3, 11), dice=1, faces=("armour",)))
    assert _rule(error) == ("M44-5", "ambush_first")
    error = game.refused(AntiAircraft(seat=AXIS, unit=1, dice=3, faces=("grenade",) * 3))
    assert _rule(error) == ("M44-AIR-12", "ambush_fire")  # the unit under the marker fires
    state = game.accept(AntiAircraft(seat=AXIS, unit=0, dice=3, faces=("flag", "star", "star")))
    assert plane_hex(game, "spitfire") is None and state.air is not None and state.air.markers == ()  # M44-AIR-12
    assert state.phase == "move"  # the Allies' other units may still move


def test_an_ambush_that_misses_lets_the_plane_strike():
    game = air_table(axis=("attack_centre", "probe_centre", "ambush", "barrage"))
    allied_spitfire(game, at=(4, 10))
    game.accept(PlaneMoved(seat=ALLIES, plane="spitfire", path=((3, 9),), markers=((3, 9),)))
    game.accept(CardPlayed(seat=AXIS, card="ambush", target=(3, 9)))
    state = game.accept(AntiAircraft(seat=AXIS, unit=0, dice=3, faces=("star", "star", "infantry")))
    assert plane_hex(game, "spitfire") == (3, 9) and state.air is not None and state.air.markers == ((3, 9),)
    state = game.accept(AirStrike(seat=ALLIES, target=(3, 9), dice=1, faces=("infantry",)))
    assert state.units[0].figures == 3


# ---------------------------------------------------------------- M44-AIR-13: planes on the ground


def ground_table(allies=("direct_from_hq", "attack_centre", "probe_centre", "recon_1_centre")) -> Table:
    options = AIR | {"air_planes_on_ground": {"bf109": [5, 13]}}
    game = Table(air_setup(options=options))
    for seat, cards in (
        (AXIS, ("attack_centre", "probe_centre", "recon_1_centre", "direct_from_hq")),
        (ALLIES, allies),
    ):
        for card in cards:
            game.accept(CardDrawn(seat=seat, card=card))
    return game


def test_a_plane_on_the_ground_is_destroyed_by_a_flag_for_an_air_card_and_never_returns():
    game = ground_table()
    assert plane_hex(game, "bf109") == (5, 13) and game.state.air.planes[0].grounded  # M44-AIR-13
    game.accept(CardPlayed(seat=ALLIES, card="direct_from_hq"), UnitsOrdered(seat=ALLIES, units=(3, 4)))
    error = game.refused(AntiAircraft(seat=ALLIES, unit=4, dice=1, faces=("flag",), plane="bf109"))
    assert _rule(error) == ("M44-AIR-13", "out_of_reach")
    error = game.refused(AntiAircraft(seat=ALLIES, unit=3, dice=2, faces=("flag", "star"), plane="bf109"))
    assert _rule(error) == ("M44-AIR-8", "wrong_dice_count")
    state = game.accept(AntiAircraft(seat=ALLIES, unit=3, dice=3, faces=("flag", "star", "star"), plane="bf109"))
    assert state.air is not None and state.air.planes[0].lost and plane_hex(game, "bf109") is None
    assert state.air.due == (2, 4) and state.medals == (0, 1)


def test_a_plane_shot_down_keeps_every_plane_of_its_type_off_the_board():
    # M44-AIR-7, M44-AIR-13: "pas de retour possible pour ce type d'unité" -- the type, not only that plane.
    pack = TEST_AIR_PACK | {
        "planes": TEST_AIR_PACK["planes"]
        | {
            "fw190": {"name": "Fw 190", "side": "AXIS", "symbol": "fighter", "duel": 2},
            "ju87": {"name": "Ju 87", "side": "AXIS", "symbol": "fighter_bomber"},
        }
    }
    options = AIR | {"air_planes_on_ground": {"bf109": [5, 13]}}
    game = Table(air_setup(options=options, pack=pack))
    for seat, cards in (
        (AXIS, ("attack_centre", "probe_centre", "recon_1_centre", "direct_from_hq")),
        (ALLIES, ("direct_from_hq", "attack_centre", "probe_centre", "recon_1_centre")),
    ):
        for card in cards:
            game.accept(CardDrawn(seat=seat, card=card))
    game.accept(AirCardDrawn(seat=AXIS, card="fighter_sweep"), AirCardDrawn(seat=AXIS, card="bomb_run"))
    game.accept(CardPlayed(seat=ALLIES, card="direct_from_hq"), UnitsOrdered(seat=ALLIES, units=(3, 4)))
    game.accept(AntiAircraft(seat=ALLIES, unit=3, dice=3, faces=("grenade", "star", "star"), plane="bf109"))
    end_turn(game, ALLIES)
    game.accept(CardPlayed(seat=AXIS, card="attack_centre"), UnitsOrdered(seat=AXIS, units=()))
    error = game.refused(PlaneDeployed(seat=AXIS, plane="fw190", card="fighter_sweep", hex=(4, 12)))
    assert _rule(error) == ("M44-AIR-7", "plane_type_lost")
    state = game.accept(PlaneDeployed(seat=AXIS, plane="ju87", card="bomb_run", hex=(4, 12)))  # another type flies
    assert plane_hex(game, "ju87") == (4, 12) and state.air is not None


def test_a_plane_on_the_ground_stays_until_ordered_then_takes_off():
    game = ground_table()
    game.accept(CardPlayed(seat=ALLIES, card="attack_centre"), UnitsOrdered(seat=ALLIES, units=()))
    end_turn(game, ALLIES)
    end_axis_turn(game)
    assert plane_hex(game, "bf109") == (5, 13)  # not ordered, yet not removed: it stands on the ground
    game.accept(CardPlayed(seat=ALLIES, card="probe_centre"), UnitsOrdered(seat=ALLIES, units=()))
    end_turn(game, ALLIES)
    game.accept(CardPlayed(seat=AXIS, card="attack_centre"), UnitsOrdered(seat=AXIS, units=()))
    state = game.accept(PlaneOrdered(seat=AXIS, plane="bf109"))
    assert state.air is not None and not state.air.planes[0].grounded  # M44-AIR-13: it takes off
    game.accept(PlaneMoved(seat=AXIS, plane="bf109", path=((4, 12),)))


def test_a_plane_the_air_pack_lacks_is_refused_on_the_ground():
    with pytest.raises(RuleError) as error:
        RULESET.initial(air_setup(options=AIR | {"air_planes_on_ground": {"stuka": [1, 1]}}))
    assert (error.value.rule_id, error.value.details["missing"]) == ("M44-AIR-13", "planes.stuka")


# ---------------------------------------------------------------- views, replay lines, picture (G-2)


def test_air_combat_cards_are_hidden_from_the_enemy_and_the_public():
    game = air_table()
    public = RULESET.view(game.state, Viewer.public())["air"]
    assert [h["count"] for h in public["hands"]] == [2, 3] and "known" not in public["hands"][ALLIES]  # M44-AIR-2
    enemy = RULESET.view(game.state, Viewer.of_seat(AXIS))["air"]
    assert "known" not in enemy["hands"][ALLIES] and enemy["hands"][AXIS]["known"] == ["fighter_sweep", "bomb_run"]
    before = game.state
    event = AirCardDrawn(seat=ALLIES, card="bomb_run")
    game.accept(CardPlayed(seat=ALLIES, card="recon_1_centre"))
    before = game.state
    after = game.accept(event)
    assert RULESET.narrate(before, event, after, Viewer.public()).text == "Allies (Bea) draw an air combat card."
    assert RULESET.narrate(before, event, after, Viewer.of_seat(AXIS)).text.endswith("an air combat card.")
    assert RULESET.narrate(before, event, after, Viewer.of_seat(ALLIES)).text == "Allies (Bea) draw Bomb Run."


def test_the_replay_tells_the_flight_the_strike_and_the_plane_shot_down():
    game = air_table()
    game.accept(CardPlayed(seat=ALLIES, card="attack_centre"), UnitsOrdered(seat=ALLIES, units=()))
    event: Any = PlaneDeployed(seat=ALLIES, plane="spitfire", card="fighter_sweep", hex=(4, 12))
    before = game.state
    line = RULESET.narrate(before, event, game.accept(event), Viewer.public()).text
    assert line == "Allies (Bea) deploy the Spitfire at " + hex_name((4, 12)) + " with Fighter Sweep."
    event = PlaneMoved(seat=ALLIES, plane="spitfire", path=((3, 11),), markers=((3, 11),))
    before = game.state
    line = RULESET.narrate(before, event, game.accept(event), Viewer.public()).text
    assert "dropping ammunition on" in line
    event = AirStrike(seat=ALLIES, target=(3, 11), dice=1, faces=("armour",))
    before = game.state
    line = RULESET.narrate(before, event, game.accept(event), Viewer.public()).text
    assert line.endswith("armour. 1 figure lost.")
    svg = RULESET.picture(RULESET.view(game.state, Viewer.public()))
    assert "Allied plane, Spitfire" in svg or "Allies plane, Spitfire" in svg  # the picture draws planes
    end_turn(game, ALLIES)
    game.accept(CardPlayed(seat=AXIS, card="direct_from_hq"), UnitsOrdered(seat=AXIS, units=(1,)))
    event = AntiAircraft(seat=AXIS, unit=1, dice=3, faces=("grenade", "star", "star"))
    before = game.state
    line = RULESET.narrate(before, event, game.accept(event), Viewer.public()).text
    assert "The Spitfire is shot down. Axis now have 1 medal." in line
    assert "Spitfire" not in RULESET.picture(RULESET.view(game.state, Viewer.public()))


def test_the_recording_page_is_offered_the_air_events():
    game = air_table()
    game.accept(CardPlayed(seat=ALLIES, card="attack_centre"), UnitsOrdered(seat=ALLIES, units=()))
    offered = RULESET.legal_events(game.state, ALLIES)
    deploys = [e for e in offered if isinstance(e, PlaneDeployed)]
    assert {e.plane for e in deploys} == {"spitfire", "typhoon"}  # M44-AIR-3
    assert len({e.hex for e in deploys}) == len(game.state.board.hexes)  # any hex
    assert all(not isinstance(e, PlaneDeployed) for e in RULESET.legal_events(game.state, AXIS))
    game.accept(deploys[0])
    offered = RULESET.legal_events(game.state, ALLIES)
    assert any(isinstance(e, PlaneMoved) and e.markers for e in offered)
    for event in offered:
        if isinstance(event, PlaneMoved):
            game.folded.check(event)  # every flight offered is accepted


# ---------------------------------------------------------------- M44-AIR-14: Breakthrough move orders


def _draw_air_cards(game: Table) -> None:
    """The air cards both sides hold at these tables: the Allies two Fighter Sweeps and a Bomb Run, the
    Axis one of each."""
    for seat, cards in (
        (ALLIES, ("fighter_sweep", "bomb_run", "fighter_sweep")),
        (AXIS, ("fighter_sweep", "bomb_run")),
    ):
        for card in cards:
            game.accept(AirCardDrawn(seat=seat, card=card))


def breakthrough_table(options: dict[str, Any] | None = None) -> Table:
    """The air table on a Breakthrough board (M44-BT-1); the test pack gives Attack 1 move order, Probe 2,
    Recon 0, and says nothing of the tactic cards."""
    game = Table(
        with_resource(setup_from(m44(HEXES, board_type="BRKTHRU", options=options or AIR)), "air_pack", TEST_AIR_PACK)
    )
    for card in ("attack_centre", "probe_centre", "direct_from_hq", "barrage"):
        game.accept(CardDrawn(seat=AXIS, card=card))
    for card in ("attack_centre", "recon_1_centre", "close_assault", "their_finest_hour"):
        game.accept(CardDrawn(seat=ALLIES, card=card))
    _draw_air_cards(game)
    return game


def test_a_plane_on_a_move_order_flies_but_neither_attacks_nor_duels():
    game = breakthrough_table()
    _two_planes(game, allies_draw="probe_centre")
    game.accept(CardPlayed(seat=ALLIES, card="probe_centre"), UnitsOrdered(seat=ALLIES, units=()))
    offered = RULESET.legal_events(game.state, ALLIES)
    assert PlaneOrdered(seat=ALLIES, plane="spitfire", move_order=True) in offered  # M44-AIR-14
    before = game.state
    event = PlaneOrdered(seat=ALLIES, plane="spitfire", move_order=True)
    game.accept(event)
    assert "on a move order" in RULESET.narrate(before, event, game.state, Viewer.public()).text
    offered = RULESET.legal_events(game.state, ALLIES)
    assert not [e for e in offered if isinstance(e, Dogfight)]
    assert not [e for e in offered if isinstance(e, PlaneMoved) and (e.markers or e.bomb)]
    error = game.refused(Dogfight(seat=ALLIES, plane="spitfire", dice=3, faces=("grenade",) * 3))
    assert _rule(error) == ("M44-AIR-14", "move_order")
    error = game.refused(PlaneMoved(seat=ALLIES, plane="spitfire", path=((4, 12), (3, 11)), markers=((3, 11),)))
    assert _rule(error) == ("M44-AIR-14", "move_order")
    game.accept(PlaneMoved(seat=ALLIES, plane="spitfire", path=((4, 12), (3, 11))))
    end_turn(game, ALLIES)
    assert plane_hex(game, "spitfire") == (3, 11)  # ordered: it stays on the board (M44-AIR-4)


def test_a_move_order_never_deploys_a_plane_and_needs_a_card_that_gives_one():
    game = breakthrough_table()
    game.accept(CardPlayed(seat=ALLIES, card="attack_centre"), UnitsOrdered(seat=ALLIES, units=()))
    error = game.refused(PlaneOrdered(seat=ALLIES, plane="spitfire", move_order=True))
    assert _rule(error) == ("M44-AIR-4", "not_flying")  # a plane off the board is deployed with an air card
    game = breakthrough_table()
    _two_planes(game, allies_draw="probe_centre")
    game.accept(CardPlayed(seat=ALLIES, card="recon_1_centre"), UnitsOrdered(seat=ALLIES, units=()))
    error = game.refused(PlaneOrdered(seat=ALLIES, plane="spitfire", move_order=True))
    assert _rule(error) == ("M44-AIR-14", "no_move_order")
    game.accept(PlaneOrdered(seat=ALLIES, plane="spitfire"))  # the ordinary order is still there


def test_move_orders_the_air_pack_does_not_give_are_refused_naming_the_value():
    game = breakthrough_table()
    _two_planes(game, allies_draw="probe_centre")
    game.accept(CardPlayed(seat=ALLIES, card="close_assault"), UnitsOrdered(seat=ALLIES, units=()))
    error = game.refused(PlaneOrdered(seat=ALLIES, plane="spitfire", move_order=True))
    assert _rule(error) == ("M44-AIR-14", "missing_move_orders")
    assert error.details["missing"] == "move_orders.close_assault"


def test_move_orders_are_refused_off_a_breakthrough_board_and_for_a_plane_on_the_ground():
    game = air_table()
    allied_spitfire(game)
    end_turn(game, ALLIES, "probe_centre")
    game.accept(CardPlayed(seat=AXIS, card="attack_centre"), UnitsOrdered(seat=AXIS, units=()))
    end_turn(game, AXIS)
    game.accept(CardPlayed(seat=ALLIES, card="probe_centre"), UnitsOrdered(seat=ALLIES, units=()))
    error = game.refused(PlaneOrdered(seat=ALLIES, plane="spitfire", move_order=True))
    assert _rule(error) == ("M44-AIR-14", "not_breakthrough")
    game = breakthrough_table(AIR | {"air_planes_on_ground": {"spitfire": [7, 11]}})
    game.accept(CardPlayed(seat=ALLIES, card="attack_centre"), UnitsOrdered(seat=ALLIES, units=()))
    error = game.refused(PlaneOrdered(seat=ALLIES, plane="spitfire", move_order=True))
    assert _rule(error) == ("M44-AIR-14", "on_the_ground")
    game.accept(PlaneOrdered(seat=ALLIES, plane="spitfire"))  # it takes off on an ordinary order (M44-AIR-13)


def test_an_air_pack_with_bad_move_orders_is_refused_on_import():
    kind = RULESET.resource_kinds["air_pack"]
    bad = TEST_AIR_PACK | {"move_orders": {"attack_centre": 9, "charge": 1}}
    with pytest.raises(ResourceError) as error:
        kind.parse(msgspec.json.encode(bad))
    assert {e["field"] for e in error.value.errors} == {"move_orders.attack_centre", "move_orders.charge"}


# ---------------------------------------------------------------- M44-AIR-15: Air Sortie cards

SORTIES = AIR | {"air_sorties": {"ALLIES": 2, "AXIS": 1}}


def sortie_table(
    allies: tuple[str, ...] = ("attack_centre", "recon_1_centre", "air_power", "direct_from_hq"),
    axis: tuple[str, ...] = ("attack_centre", "counter_attack", "recon_1_centre", "direct_from_hq"),
    options: dict[str, Any] = SORTIES,
) -> Table:
    game = Table(air_setup(options=options))
    for seat, cards in ((AXIS, axis), (ALLIES, allies)):
        for card in cards:
            game.accept(CardDrawn(seat=seat, card=card))
    _draw_air_cards(game)
    return game


def test_an_air_sortie_beside_a_section_card_orders_the_plane_and_is_not_replaced():
    game = sortie_table()
    allied_spitfire(game)
    end_turn(game, ALLIES, "probe_centre")
    game.accept(CardPlayed(seat=AXIS, card="attack_centre"), UnitsOrdered(seat=AXIS, units=()))
    end_turn(game, AXIS)
    game.accept(CardPlayed(seat=ALLIES, card="recon_1_centre"), UnitsOrdered(seat=ALLIES, units=(3,)))
    error = game.refused(PlaneOrdered(seat=ALLIES, plane="spitfire"))
    assert _rule(error) == ("M44-AIR-4", "wrong_order")  # Recon 1 orders one unit, already used
    assert CardPlayed(seat=ALLIES, card="air_sortie") in RULESET.legal_events(game.state, ALLIES)
    before = game.state
    event = CardPlayed(seat=ALLIES, card="air_sortie")
    game.accept(event)
    text = RULESET.narrate(before, event, game.state, Viewer.public()).text
    assert text == "Allies (Bea) play an Air Sortie beside Recon 1 Centre: it orders their plane."
    assert game.state.air.sorties == (1, 1) and game.state.effective == "recon_1_centre"  # M44-AIR-15
    game.accept(PlaneOrdered(seat=ALLIES, plane="spitfire"))
    error = game.refused(CardPlayed(seat=ALLIES, card="air_sortie"))
    assert _rule(error) == ("M44-AIR-15", "one_sortie")
    hand = game.state.hands[ALLIES].size
    game.accept(CardDrawn(seat=ALLIES, card="attack_left"), CardDrawn(seat=ALLIES, card="attack_right"))
    game.accept(CardDiscarded(seat=ALLIES, card="attack_right"))  # the Recon draw: two, keep one
    assert game.state.hands[ALLIES].size == hand + 1  # the Recon card replaced, the Air Sortie not
    public = RULESET.view(game.state, Viewer.public())["air"]
    assert [h["air_sorties"] for h in public["hands"]] == [1, 1]


def test_a_counter_attack_on_a_section_card_and_air_sortie_copies_the_section_card_only():
    game = sortie_table()
    game.accept(CardPlayed(seat=ALLIES, card="attack_centre"), UnitsOrdered(seat=ALLIES, units=()))
    game.accept(CardPlayed(seat=ALLIES, card="air_sortie"))
    end_turn(game, ALLIES)
    game.accept(CardPlayed(seat=AXIS, card="counter_attack"))
    assert game.state.effective == "attack_centre" and not game.state.air.sortie_played


def test_air_sorties_are_refused_beside_a_tactic_card_when_spent_or_not_dealt():
    game = sortie_table()
    game.accept(CardPlayed(seat=ALLIES, card="direct_from_hq"), UnitsOrdered(seat=ALLIES, units=()))
    assert _rule(game.refused(CardPlayed(seat=ALLIES, card="air_sortie"))) == ("M44-AIR-15", "beside_section")
    assert _rule(game.refused(CardPlayed(seat=AXIS, card="air_sortie"))) == ("M44-AIR-15", "sortie_timing")
    game = sortie_table(options=AIR | {"air_sorties": {"ALLIES": 0}})
    game.accept(CardPlayed(seat=ALLIES, card="attack_centre"), UnitsOrdered(seat=ALLIES, units=()))
    assert _rule(game.refused(CardPlayed(seat=ALLIES, card="air_sortie"))) == ("M44-AIR-15", "no_sortie_left")
    game = sortie_table(options=AIR)
    game.accept(CardPlayed(seat=ALLIES, card="attack_centre"), UnitsOrdered(seat=ALLIES, units=()))
    assert _rule(game.refused(CardPlayed(seat=ALLIES, card="air_sortie"))) == ("M44-AIR-15", "no_air_sortie")
    with pytest.raises(RuleError) as refused:
        RULESET.initial(air_setup(options={"air_sorties": {"ALLIES": 1}}))
    assert _rule(refused.value) == ("M44-AIR-15", "no_air_rules")


def test_an_air_sortie_played_alone_orders_the_plane_and_ends_the_turn_without_a_draw():
    game = sortie_table()
    assert CardPlayed(seat=ALLIES, card="air_sortie") in RULESET.legal_events(game.state, ALLIES)
    before = game.state
    event = CardPlayed(seat=ALLIES, card="air_sortie")
    game.accept(event)
    text = RULESET.narrate(before, event, game.state, Viewer.public()).text
    assert text == "Allies (Bea) play an Air Sortie alone: it orders their plane and is not replaced."
    state = game.state
    assert state.card == state.effective == "air_sortie" and state.air.sorties == (1, 1)  # M44-AIR-15
    assert state.hands[ALLIES].size == 4 and "air_sortie" not in state.discard  # held apart, spent
    public = RULESET.view(state, Viewer.public())
    assert public["card"] == "air_sortie" and [h["air_sorties"] for h in public["air"]["hands"]] == [1, 1]
    assert _rule(game.refused(UnitsOrdered(seat=ALLIES, units=(3,)))) == ("M44-5", "wrong_order")
    game.accept(UnitsOrdered(seat=ALLIES, units=()))
    assert _rule(game.refused(CardPlayed(seat=ALLIES, card="air_sortie"))) == ("M44-AIR-15", "beside_section")
    game.accept(PlaneDeployed(seat=ALLIES, plane="spitfire", card="fighter_sweep", hex=(5, 11)))
    game.accept(PlaneMoved(seat=ALLIES, plane="spitfire", path=((4, 10), (3, 9)), markers=((3, 9),)))
    game.accept(AirStrike(seat=ALLIES, target=(3, 9), dice=1, faces=("infantry",)))
    error = game.refused(CardDrawn(seat=ALLIES, card="attack_left"))
    assert _rule(error) == ("M44-AIR-15", "sortie_not_replaced")
    legal = RULESET.legal_events(game.state, ALLIES)
    assert TurnEnded(seat=ALLIES) in legal and not any(isinstance(e, CardDrawn) for e in legal)
    assert _rule(game.refused(TurnEnded(seat=AXIS))) == ("M44-6", "not_ending")
    before = game.state
    game.accept(TurnEnded(seat=ALLIES))
    text = RULESET.narrate(before, TurnEnded(seat=ALLIES), game.state, Viewer.public()).text
    assert text == "Allies (Bea) end their turn without drawing: the Air Sortie is not replaced."
    state = game.state
    assert (state.active, state.phase, state.hands[ALLIES].size) == (AXIS, "card", 4)
    assert plane_hex(game, "spitfire") == (3, 9)  # deployed this turn, so it stays (M44-AIR-4)
    # A Counter-Attack copies the lone Air Sortie; being a command card, it is replaced by the draw.
    game.accept(CardPlayed(seat=AXIS, card="counter_attack"))
    assert game.state.effective == "air_sortie"
    game.accept(UnitsOrdered(seat=AXIS, units=()))
    assert _rule(game.refused(TurnEnded(seat=AXIS))) == ("M44-6", "draw_to_end")
    game.accept(CardDrawn(seat=AXIS, card="probe_left"))
    assert game.state.active == ALLIES and game.state.hands[AXIS].size == 4


def test_a_lone_air_sortie_turn_still_draws_the_enemy_its_ambush_card():
    game = sortie_table(axis=("attack_centre", "ambush", "recon_1_centre", "direct_from_hq"))
    game.accept(CardPlayed(seat=ALLIES, card="air_sortie"), UnitsOrdered(seat=ALLIES, units=()))
    game.accept(PlaneDeployed(seat=ALLIES, plane="spitfire", card="fighter_sweep", hex=(4, 10)))
    game.accept(PlaneMoved(seat=ALLIES, plane="spitfire", path=((3, 9),), markers=((3, 9),)))
    game.accept(CardPlayed(seat=AXIS, card="ambush", target=(3, 9)))  # M44-AIR-12
    game.accept(AntiAircraft(seat=AXIS, unit=0, dice=3, faces=("star", "star", "star")))
    game.accept(AirStrike(seat=ALLIES, target=(3, 9), dice=1, faces=("star",)))
    state = game.accept(TurnEnded(seat=ALLIES))
    assert (state.phase, state.draws_due, state.active) == ("draw", (1, 0), ALLIES)  # the Axis replaces Ambush
    assert _rule(game.refused(CardDrawn(seat=ALLIES))) == ("M44-6", "no_draw_due")
    state = game.accept(CardDrawn(seat=AXIS, card="probe_left"))
    assert (state.phase, state.active, state.hands[AXIS].size) == ("card", AXIS, 4)


def test_a_lone_air_sortie_is_refused_out_of_turn_at_night_and_at_team_tables():
    game = sortie_table()
    assert _rule(game.refused(CardPlayed(seat=AXIS, card="air_sortie"))) == ("M44-AIR-15", "sortie_timing")
    assert _rule(game.refused(TurnEnded(seat=ALLIES))) == ("M44-6", "not_ending")  # no card played yet
    game.accept(CardPlayed(seat=ALLIES, card="air_sortie"))
    assert _rule(game.refused(TurnEnded(seat=ALLIES))) == ("M44-6", "not_ending")  # its orders first
    game = sortie_table(options=SORTIES | {"night_visibility_rules": True})
    assert _rule(game.refused(CardPlayed(seat=ALLIES, card="air_sortie"))) == ("M44-NT-1", "roll_for_light")


def test_the_commissar_does_not_hold_back_a_lone_air_sortie():
    # M44-AIR-18: "Les règles de Commandement propres aux Nations ne sont pas applicables" to the air rules.
    game = sortie_table(options=SORTIES | {"russian_commissar_rule": "ALLIES"})
    assert CardPlayed(seat=ALLIES, card="air_sortie") in RULESET.legal_events(game.state, ALLIES)
    state = game.accept(CardPlayed(seat=ALLIES, card="air_sortie"), UnitsOrdered(seat=ALLIES, units=()))
    assert state.token == () and not state.committed  # nothing placed under the token this turn
    state = game.accept(TurnEnded(seat=ALLIES))
    assert (state.active, state.phase) == (AXIS, "card")
    game = sortie_table(options=SORTIES | {"russian_commissar_rule": "ALLIES"})
    game.accept(CardCommitted(seat=ALLIES, card="attack_centre"))
    error = game.refused(CardPlayed(seat=ALLIES, card="air_sortie"))
    assert _rule(error) == ("M44-AIR-18", "sortie_after_token")


def test_air_power_is_played_as_an_air_sortie_where_sorties_are_dealt():
    game = sortie_table()
    before = game.state
    event = CardPlayed(seat=ALLIES, card="air_power")
    game.accept(event)
    assert game.state.effective == "air_sortie"  # M44-AIR-15: no air attack, the plane is ordered
    assert "Air Power as an Air Sortie" in RULESET.narrate(before, event, game.state, Viewer.public()).text
    error = game.refused(UnitsOrdered(seat=ALLIES, units=(3,)))
    assert error.rule_id == "M44-5"
    game.accept(UnitsOrdered(seat=ALLIES, units=()))
    game.accept(PlaneDeployed(seat=ALLIES, plane="spitfire", card="fighter_sweep", hex=(5, 11)))
    game.accept(PlaneMoved(seat=ALLIES, plane="spitfire", path=((4, 10), (3, 9)), markers=((3, 9),)))
    # Without Air Sortie cards, Air Power stays the base game's card (M44-5) and deploys no plane.
    game = sortie_table(options=AIR)
    game.accept(CardPlayed(seat=ALLIES, card="air_power"))
    assert game.state.effective == "air_power"


def test_a_german_recon_under_blitz_is_played_as_an_air_sortie_where_sorties_are_dealt():
    game = sortie_table(options=SORTIES | {"blitz_rules": True})
    game.accept(CardPlayed(seat=ALLIES, card="attack_centre"), UnitsOrdered(seat=ALLIES, units=()))
    end_turn(game, ALLIES)
    error = game.refused(CardPlayed(seat=AXIS, card="recon_1_centre", as_card="air_power"))
    assert _rule(error) == ("M44-BL-1", "not_as_card")
    game.accept(CardPlayed(seat=AXIS, card="recon_1_centre", as_card="air_sortie"))
    assert game.state.effective == "air_sortie"


# ---------------------------------------------------------------- M44-AIR-10: what is not recorded


def test_no_destroyer_is_recorded_so_none_fires_at_a_plane():
    # M44-AIR-10: the summary gives destroyers only their fire at planes, so the record knows no ship unit: the
    # units that fire at a plane are infantry, armour and artillery, and a scenario placing a unit the record
    # does not know (whatever name the file gives a destroyer) is refused on import, naming that unit.
    assert set(UNIT_TYPES) == {INFANTRY, ARMOUR, ARTILLERY}
    kind = RULESET.resource_kinds["scenario"]
    with pytest.raises(ResourceError) as error:
        kind.parse(m44([*HEXES, hexagon(0, 12, unit="destroyerus")], options=AIR))
    assert [(e["field"], "destroyerus" in e["message"]) for e in error.value.errors] == [("unit", True)]


# ---------------------------------------------------------------- M44-AIR-16: bombing the D-Day control objectives


def control_table(kind: str, camp: int, extra: tuple[dict[str, Any], ...] = ()) -> Table:
    """The air table with one objective of `kind` at (2, 14), behind the Axis lines (M44-DD-1 to M44-DD-3)."""
    objectives = [{"camp": camp, "kind": kind, "hexes": [[2, 14]], "medals": 1}]
    data = m44([*HEXES, hexagon(2, 14), *extra], options=AIR, objectives=objectives)
    game = Table(with_resource(setup_from(data), "air_pack", TEST_AIR_PACK))
    for seat in (AXIS, ALLIES):
        for card in ("attack_centre", "probe_centre", "recon_1_centre", "direct_from_hq"):
            game.accept(CardDrawn(seat=seat, card=card))
    game.accept(AirCardDrawn(seat=ALLIES, card="fighter_sweep"))
    return game


def _bomb(game: Table) -> State:
    """The Spitfire deployed at (4, 12) lays a bomb at (2, 14) and rolls a grenade."""
    allied_spitfire(game, at=(4, 12))
    game.accept(PlaneMoved(seat=ALLIES, plane="spitfire", path=((3, 13), (2, 14)), bomb=True))
    return game.accept(Bombing(seat=ALLIES, dice=1, faces=("grenade",)))


def _plane_leaves(game: Table) -> None:
    """The Allies leave the Spitfire unordered on their next turn, so it leaves the board (M44-AIR-4)."""
    end_turn(game, ALLIES)
    end_axis_turn(game)
    game.accept(CardPlayed(seat=ALLIES, card="probe_centre"), UnitsOrdered(seat=ALLIES, units=()))
    end_turn(game, ALLIES)
    assert plane_hex(game, "spitfire") is None


def test_a_bombed_village_changes_hands_until_the_enemy_stands_in_it_and_is_never_bombed_again():
    game = control_table("village", AXIS)
    assert game.state.medals == (1, 0)  # M44-DD-1: the Axis hold the village
    assert bomb_target(game.state, AXIS, (2, 14)) is None  # a side does not bomb what it holds
    state = _bomb(game)
    assert state.medals == (0, 1) and state.air.bombed == ((0, ALLIES),)  # M44-AIR-16
    assert RULESET.view(state, Viewer.public())["air"]["bombed"] == [{"objective": 0, "side": "ALLIES"}]
    _plane_leaves(game)
    game.accept(CardPlayed(seat=AXIS, card="direct_from_hq"), UnitsOrdered(seat=AXIS, units=(1,)))
    state = game.accept(UnitMoved(seat=AXIS, unit=1, path=((2, 12), (2, 14))))
    assert state.medals == (1, 0) and state.air.retaken == (0,)  # retaken by ground units
    assert bomb_target(state, ALLIES, (2, 14)) is None  # no second bombing: ground units only


def test_a_bombed_bridge_is_held_until_an_enemy_unit_stands_on_it():
    game = control_table("bridge", AXIS)
    assert game.state.medals == (0, 0)  # M44-DD-3: nobody on or next to it
    state = _bomb(game)
    assert state.medals == (0, 1)  # M44-AIR-16
    _plane_leaves(game)
    game.accept(CardPlayed(seat=AXIS, card="direct_from_hq"), UnitsOrdered(seat=AXIS, units=(1, 0)))
    state = game.accept(UnitMoved(seat=AXIS, unit=0, path=((2, 10), (2, 12))))
    assert state.medals == (0, 1)  # next to it is not on it: the hold goes on
    state = game.accept(UnitMoved(seat=AXIS, unit=1, path=((3, 13), (2, 14))))
    assert state.medals == (1, 0) and state.air.retaken == (0,)  # the Axis alone on and next to it


def test_only_the_assaulting_side_bombs_a_beach_and_holds_it_despite_a_defender_next_to_it():
    game = control_table("beach", ALLIES, extra=(hexagon(2, 16, unit="infger"),))
    assert game.state.medals == (0, 0)  # M44-DD-2: an Axis unit next to it
    assert bomb_target(game.state, AXIS, (2, 14)) is None  # the Axis never score the beach
    state = _bomb(game)
    assert state.medals == (0, 1)  # M44-AIR-16


def test_a_bomb_on_an_objective_its_side_holds_is_refused():
    game = control_table("village", ALLIES)
    allied_spitfire(game, at=(4, 12))
    error = game.refused(PlaneMoved(seat=ALLIES, plane="spitfire", path=((3, 13), (2, 14)), bomb=True))
    assert _rule(error) == ("M44-AIR-11", "no_objective")


# ---------------------------------------------------------------- M44-AIR-17: at an Overlord team table


def air_team_table(options: dict[str, Any] = AIR, give: bool = True) -> Table:
    """The Overlord table of six (test_overlord), with the air rules: the Axis to play, its commander having
    handed Bea and Chloe a card each unless `give` is False."""
    data = m44(UNITS, board_type="OVERLORD", starting="PLAYER1", options=options)
    game = Table(with_resource(_team_setup(data), "air_pack", TEST_AIR_PACK))
    for seat, cards in ((ALAIN, AXIS_HAND), (DENIS, ALLIED_HAND)):
        for card in cards:
            game.accept(CardDrawn(seat=seat, card=card))
    game.accept(AirCardDrawn(seat=BEA, card="fighter_sweep"), AirCardDrawn(seat=ALAIN, card="bomb_run"))
    if give:
        game.accept(
            CardsGiven(
                seat=ALAIN, gifts=(Gift(general=BEA, card="probe_left"), Gift(general=CHLOE, card="attack_centre"))
            )
        )
    return game


def test_the_general_who_played_the_card_deploys_the_plane_and_no_plane_fights_before_every_card_is_played():
    game = air_team_table()
    assert RULESET.view(game.state, Viewer.of_seat(CHLOE))["air"]["hands"][AXIS]["known"] == [
        "fighter_sweep",
        "bomb_run",
    ]
    assert "known" not in RULESET.view(game.state, Viewer.of_seat(EMMA))["air"]["hands"][AXIS]  # M44-OV-2, G-2
    game.accept(CardPlayed(seat=CHLOE, card="attack_centre"), UnitsOrdered(seat=CHLOE, units=(1,)))
    error = game.refused(PlaneDeployed(seat=BEA, plane="bf109", card="fighter_sweep", hex=(3, 27)))
    assert _rule(error) == ("M44-AIR-17", "not_the_general")
    offered = RULESET.legal_events(game.state, CHLOE)
    assert PlaneDeployed(seat=CHLOE, plane="bf109", card="fighter_sweep", hex=(3, 27)) in offered
    assert not [e for e in RULESET.legal_events(game.state, BEA) if isinstance(e, PlaneDeployed)]
    game.accept(PlaneDeployed(seat=CHLOE, plane="bf109", card="fighter_sweep", hex=(3, 27)))
    game.accept(PlaneMoved(seat=CHLOE, plane="bf109", path=((4, 26),), markers=((4, 26),)))
    error = game.refused(AirStrike(seat=CHLOE, target=(4, 26), dice=1, faces=("star",)))
    assert _rule(error) == ("M44-OV-6", "moves_first")  # Bea still holds a card
    game.accept(CardPlayed(seat=BEA, card="probe_left"), UnitsOrdered(seat=BEA, units=(0,)))
    game.accept(AirStrike(seat=CHLOE, target=(4, 26), dice=1, faces=("star",)))
    assert not can_act_now(game.state)  # M44-OV-6: an air attack is a battle too


def test_an_air_sortie_at_a_team_table_goes_beside_a_section_card_never_alone():
    sorties = AIR | {"air_sorties": {"AXIS": 1, "ALLIES": 1}}
    game = air_team_table(sorties, give=False)
    for seat in (ALAIN, CHLOE):
        error = game.refused(CardPlayed(seat=seat, card="air_sortie"))
        assert _rule(error) == ("M44-AIR-17", "sortie_alone")  # the commander hands out cards every turn
        assert CardPlayed(seat=seat, card="air_sortie") not in RULESET.legal_events(game.state, seat)
    game = air_team_table(sorties)
    error = game.refused(CardPlayed(seat=CHLOE, card="air_sortie"))
    assert _rule(error) == ("M44-AIR-15", "sortie_timing")  # after a card's orders
    game.accept(CardPlayed(seat=CHLOE, card="attack_centre"), UnitsOrdered(seat=CHLOE, units=(1,)))
    game.accept(CardPlayed(seat=CHLOE, card="air_sortie"))  # beside Chloe's section card (M44-AIR-15)
    assert game.state.air.sorties == (0, 1)


def test_a_plane_at_a_team_table_is_ordered_by_the_general_of_its_section():
    game = air_team_table(AIR | {"air_planes_on_ground": {"bf109": [1, 45]}})  # on the Axis left, Bea's
    game.accept(CardPlayed(seat=CHLOE, card="attack_centre"), UnitsOrdered(seat=CHLOE, units=(1,)))
    error = game.refused(PlaneOrdered(seat=CHLOE, plane="bf109"))
    assert _rule(error) == ("M44-AIR-4", "wrong_order")  # not in the centre, where Chloe played
    error = game.refused(PlaneOrdered(seat=BEA, plane="bf109"))
    assert _rule(error) == ("M44-AIR-17", "not_the_general")
    game.accept(CardPlayed(seat=BEA, card="probe_left"), UnitsOrdered(seat=BEA, units=(0,)))
    game.accept(PlaneOrdered(seat=BEA, plane="bf109"))  # Probe orders two in the left: unit 0 and the plane
