"""The D-Day Landings reinforcements, each rule id accepted and refused (M44-DD-4 for the Axis turn after
an Allied Air Power, M44-DD-6 to M44-DD-9), with the test reinforcement table (made up for the tests):
Allies infantry -> infantry, armour -> armour, grenade -> infantry, star -> artillery, flag -> nothing;
Axis infantry -> infantry, armour -> armour, star -> infantry, grenade and flag -> nothing.

Seats: Alain (seat 0) commands the Axis at row 0, Bea (seat 1) the Allies at row 8. Units are numbered in
the order the hexagons are listed, reinforcements after them.
"""

import msgspec
import pytest

from domain.memoire44 import RULESET
from domain.memoire44.events import (
    Battle,
    CardDrawn,
    CardPlayed,
    DiceRolled,
    ReinforcementPlaced,
    ReinforcementsRolled,
    Retreated,
    UnitMoved,
    UnitsOrdered,
)
from domain.ruleset import Player, ResourceError, RuleError, Setup, Viewer

from .harness import TEST_REINFORCEMENTS, setup_for, with_resource
from .tables import ALLIES, AXIS, hexagon, m44, setup_from, table

KIND = RULESET.resource_kinds["scenario"]
DDAY = {
    "reserve": {"ALLIES": {"infantry": 8, "armour": 3}, "AXIS": {"infantry": 4}},
    "entry_tokens": [[0, 12]],
    "landing_craft": [[8, 4]],
}
# Axis infantry far up the board (unit 0); Allied infantry at the water's edge (unit 1); a beach worth no
# medal that the Allies control while no Axis unit is on or next to it (M44-DD-2); a landing craft at sea.
BOARD = [
    hexagon(1, 1, unit="infger"),
    hexagon(7, 23, "ocean", unit="infus"),
    hexagon(6, 10, "beach"),
    hexagon(6, 12, "beach"),
    hexagon(8, 4, "ocean"),
]
BEACH = [{"camp": 1, "kind": "beach", "hexes": [[6, 10], [6, 12]], "medals": 0}]


def _game(board=BOARD, axis=(), allies=("direct_from_hq",), dday=DDAY, options=None, **game_info):
    return table(
        board,
        axis=axis,
        allies=allies,
        resources={"reinforcement_table": TEST_REINFORCEMENTS},
        options={"dday_rules": True} | (options or {}),
        dday=dday,
        objectives=BEACH,
        **game_info,
    )


def _rolled(game, seat, card, faces, **played):
    game.accept(CardPlayed(seat=seat, card=card, **played))
    return game.accept(ReinforcementsRolled(seat=seat, faces=faces))


# ---------------------------------------------------------------- M44-DD-6: the roll


def test_the_roll_is_one_die_per_card_held_and_the_table_says_what_each_face_brings():
    game = _game()
    game.accept(CardPlayed(seat=ALLIES, card="direct_from_hq"))
    # Three cards left in hand and the one shown: four dice.
    state = game.accept(ReinforcementsRolled(seat=ALLIES, faces=("infantry", "star", "flag", "grenade")))
    assert state.reinforcements == ("infantry", "artillery", "infantry") and state.reinforced


def test_a_roll_with_the_wrong_number_of_dice_is_refused():
    game = _game()
    game.accept(CardPlayed(seat=ALLIES, card="direct_from_hq"))
    error = game.refused(ReinforcementsRolled(seat=ALLIES, faces=("infantry",) * 3))
    assert (error.rule_id, error.code, error.details["expected"]) == ("M44-DD-6", "wrong_roll", 4)


def test_a_recon_card_adds_two_dice():
    game = _game(allies=("recon_1_left",))
    game.accept(CardPlayed(seat=ALLIES, card="recon_1_left"))
    assert game.refused(ReinforcementsRolled(seat=ALLIES, faces=("flag",) * 4)).details["expected"] == 6
    state = game.accept(ReinforcementsRolled(seat=ALLIES, faces=("flag",) * 6))
    assert state.reinforcements == ()


def test_orders_before_the_roll_and_a_second_roll_are_refused():
    game = _game()
    game.accept(CardPlayed(seat=ALLIES, card="direct_from_hq"))
    error = game.refused(UnitsOrdered(seat=ALLIES, units=(1,)))
    assert (error.rule_id, error.code) == ("M44-DD-6", "roll_reinforcements")
    game.accept(ReinforcementsRolled(seat=ALLIES, faces=("flag",) * 4), UnitsOrdered(seat=ALLIES, units=(1,)))
    assert game.refused(ReinforcementsRolled(seat=ALLIES, faces=("flag",) * 4)).code == "roll_timing"


def test_their_finest_hour_rolls_its_own_dice_first():
    game = _game(allies=("their_finest_hour",))
    game.accept(CardPlayed(seat=ALLIES, card="their_finest_hour"))
    assert game.refused(ReinforcementsRolled(seat=ALLIES, faces=("flag",) * 4)).code == "roll_timing"
    game.accept(DiceRolled(seat=ALLIES, faces=("flag",) * 4))
    state = game.accept(ReinforcementsRolled(seat=ALLIES, faces=("armour",) * 4))
    assert state.reinforcements == ("armour",) * 4


def test_a_dday_scenario_without_the_reinforcement_table_is_refused_naming_it():
    data = m44(BOARD, options={"dday_rules": True}, dday=DDAY)
    with pytest.raises(RuleError) as error:
        RULESET.initial(setup_from(data))
    assert (error.value.rule_id, error.value.details["missing"]) == ("M44-DD-6", "reinforcement_table")


def test_a_reinforcement_table_missing_a_face_is_refused_and_none_is_shipped():
    kind = RULESET.resource_kinds["reinforcement_table"]
    bad = msgspec.json.decode(msgspec.json.encode(TEST_REINFORCEMENTS))
    del bad["sides"]["AXIS"]["flag"]
    with pytest.raises(ResourceError) as error:
        kind.parse(msgspec.json.encode(bad))
    assert error.value.errors == [{"field": "sides.AXIS.flag", "message": "every die face has a row"}]
    assert kind.builtin() == {}  # no public source of the values: none shipped


def test_the_dday_block_is_refused_without_the_option_and_with_a_hex_off_the_board():
    with pytest.raises(ResourceError) as error:
        KIND.parse(m44(BOARD, dday=DDAY))
    assert error.value.errors[0]["field"] == "game_info.dday"
    with pytest.raises(ResourceError) as error:
        KIND.parse(m44(BOARD, options={"dday_rules": True}, dday=DDAY | {"landing_craft": [[8, 5]]}))
    assert error.value.errors[0]["field"] == "game_info.dday.landing_craft[0]"


def test_the_dday_reinforcements_are_refused_at_a_team_table():
    setup = with_resource(setup_for("pointe_du_verrier"), "reinforcement_table", TEST_REINFORCEMENTS)
    seats = [
        ("Alain", 0, "commander"),
        ("Bea", 0, "left+centre+right"),
        ("Chloe", 1, "commander"),
        ("Denis", 1, "left+centre+right"),
    ]
    teams = Setup(
        players=tuple(Player(player_id=f"p-{n}", name=n, seat=i, team=t) for i, (n, t, _) in enumerate(seats)),
        options={"roles": [r for _, _, r in seats]},
        resources=setup.resources,
    )
    with pytest.raises(RuleError) as error:
        RULESET.initial(teams)
    assert (error.value.rule_id, error.value.code) == ("M44-DD-6", "dday_teams")
    assert RULESET.initial(setup).reserve[1] == {"infantry": 16, "armour": 6, "artillery": 2}


# ---------------------------------------------------------------- M44-DD-4: air superiority and reinforcements


def _axis_turn_after(card):
    game = _game(allies=(card,), axis=("direct_from_hq",))
    game.accept(CardPlayed(seat=ALLIES, card=card), ReinforcementsRolled(seat=ALLIES, faces=("flag",) * 4))
    if card == "air_power":
        game.accept(Battle(seat=ALLIES, unit=None, target=(1, 1), dice=2, faces=("flag", "flag")))
        game.accept(Retreated(seat=AXIS, unit=0, path=((0, 0),)))  # one hex back, a hit for the other flag
    else:
        game.accept(UnitsOrdered(seat=ALLIES, units=()))
    game.accept(CardDrawn(seat=ALLIES), CardPlayed(seat=AXIS, card="direct_from_hq"))
    return game


def test_no_axis_reinforcements_the_turn_after_an_allied_air_power():
    game = _axis_turn_after("air_power")
    error = game.refused(ReinforcementsRolled(seat=AXIS, faces=("flag",) * 4))
    assert (error.rule_id, error.code) == ("M44-DD-4", "air_attack")
    game.accept(UnitsOrdered(seat=AXIS, units=(0,)))  # straight to the orders


def test_after_another_allied_card_the_axis_rolls_for_reinforcements():
    game = _axis_turn_after("direct_from_hq")
    assert game.refused(UnitsOrdered(seat=AXIS, units=(0,))).code == "roll_reinforcements"
    state = game.accept(ReinforcementsRolled(seat=AXIS, faces=("star", "grenade", "flag", "flag")))
    assert state.reinforcements == ("infantry",)


# ---------------------------------------------------------------- M44-DD-7: where and when a unit is placed


def _placing(faces=("infantry", "armour", "flag", "flag"), **kwargs):
    game = _game(**kwargs)
    _rolled(game, ALLIES, "direct_from_hq", faces)
    return game


def test_allied_reinforcements_land_in_an_empty_landing_craft_or_on_a_beach_they_control():
    game = _placing()
    game.accept(UnitsOrdered(seat=ALLIES, units=(1,)))
    state = game.accept(ReinforcementPlaced(seat=ALLIES, kind="infantry", hex=(8, 4)))
    assert state.units[2].hex == (8, 4) and state.units[2].figures == 4 and state.occupant[(8, 4)] == 2
    state = game.accept(ReinforcementPlaced(seat=ALLIES, kind="armour", hex=(6, 12)))
    assert state.units[3].kind == "armour" and state.reinforcements == ()


def test_an_allied_reinforcement_elsewhere_or_on_an_occupied_craft_is_refused():
    game = _placing(faces=("infantry", "infantry", "flag", "flag"))
    game.accept(UnitsOrdered(seat=ALLIES, units=(1,)))
    assert game.refused(ReinforcementPlaced(seat=ALLIES, kind="infantry", hex=(6, 14))).rule_id == "M44-DD-7"
    game.accept(ReinforcementPlaced(seat=ALLIES, kind="infantry", hex=(8, 4)))
    error = game.refused(ReinforcementPlaced(seat=ALLIES, kind="infantry", hex=(8, 4)))
    assert (error.rule_id, error.code) == ("M44-DD-7", "placement")


def test_a_beach_with_a_defender_next_to_it_takes_no_reinforcement():
    board = [*BOARD, hexagon(5, 11, unit="infger")]
    game = _placing(board=board)
    game.accept(UnitsOrdered(seat=ALLIES, units=(1,)))
    assert game.refused(ReinforcementPlaced(seat=ALLIES, kind="armour", hex=(6, 12))).code == "placement"


def test_axis_reinforcements_enter_on_an_entry_token_only():
    game = _axis_turn_after("direct_from_hq")
    game.accept(ReinforcementsRolled(seat=AXIS, faces=("infantry", "flag", "flag", "flag")))
    game.accept(UnitsOrdered(seat=AXIS, units=(0,)))
    assert game.refused(ReinforcementPlaced(seat=AXIS, kind="infantry", hex=(0, 14))).code == "placement"
    state = game.accept(ReinforcementPlaced(seat=AXIS, kind="infantry", hex=(0, 12)))
    assert state.units[2].camp == 0 and state.reserve[0] == {"infantry": 0}


def test_a_reinforcement_is_placed_as_a_move_after_the_orders_and_then_neither_moves_nor_battles():
    game = _placing()
    error = game.refused(ReinforcementPlaced(seat=ALLIES, kind="infantry", hex=(8, 4)))
    assert (error.rule_id, error.code) == ("M44-DD-7", "place_as_move")  # orders first
    game.accept(UnitsOrdered(seat=ALLIES, units=(1,)), ReinforcementPlaced(seat=ALLIES, kind="infantry", hex=(8, 4)))
    assert game.refused(UnitMoved(seat=ALLIES, unit=2, path=((7, 5),))).code == "not_ordered"
    assert game.refused(ReinforcementPlaced(seat=ALLIES, kind="geese", hex=(6, 12))).code == "no_reinforcement"


# ---------------------------------------------------------------- M44-DD-8, M44-DD-9: the reserve


def test_a_reinforcement_takes_a_full_unit_from_the_reserve_and_is_refused_when_it_runs_short():
    game = _placing(faces=("star", "armour", "flag", "flag"))  # artillery and armour
    game.accept(UnitsOrdered(seat=ALLIES, units=(1,)))
    error = game.refused(ReinforcementPlaced(seat=ALLIES, kind="artillery", hex=(8, 4)))
    assert (error.rule_id, error.code, error.details["reserve"]) == ("M44-DD-8", "reserve_short", 0)
    state = game.accept(ReinforcementPlaced(seat=ALLIES, kind="armour", hex=(8, 4)))
    assert state.reserve[1] == {"infantry": 8, "armour": 0}


def test_lost_figures_go_back_to_the_reserve_all_but_the_last_of_an_eliminated_unit():
    board = [hexagon(1, 1, unit="infger", figures=3), hexagon(2, 2, unit="infus"), hexagon(8, 4, "ocean")]
    game = _game(board=board, dday=DDAY | {"reserve": {"ALLIES": {"armour": 2}, "AXIS": {}}})
    _rolled(game, ALLIES, "direct_from_hq", ("armour", "flag", "flag", "flag"))
    game.accept(UnitsOrdered(seat=ALLIES, units=(1,)))
    # Two armour figures in reserve: an armour unit (three) cannot land (M44-DD-8).
    assert game.refused(ReinforcementPlaced(seat=ALLIES, kind="armour", hex=(8, 4))).code == "reserve_short"
    state = game.accept(Battle(seat=ALLIES, unit=1, target=(1, 1), dice=3, faces=("infantry",) * 3))
    assert state.reserve[0] == {"infantry": 2}  # M44-DD-9: two of three back, the third is the medal
    assert state.units[0].figures == 0 and state.medals == (0, 1)


def test_a_unit_hit_but_alive_returns_each_lost_figure():
    board = [hexagon(1, 1, unit="infger"), hexagon(2, 2, unit="infus"), hexagon(8, 4, "ocean")]
    game = _game(board=board)
    _rolled(game, ALLIES, "direct_from_hq", ("flag",) * 4)
    game.accept(UnitsOrdered(seat=ALLIES, units=(1,)))
    state = game.accept(Battle(seat=ALLIES, unit=1, target=(1, 1), dice=3, faces=("infantry", "star", "armour")))
    assert state.units[0].figures == 3 and state.reserve[0] == {"infantry": 5}


def test_the_narration_and_view_show_the_roll_the_placement_and_the_reserve():
    game = _game()
    game.accept(CardPlayed(seat=ALLIES, card="direct_from_hq"))
    before = game.state
    roll = ReinforcementsRolled(seat=ALLIES, faces=("infantry", "flag", "flag", "flag"))
    after = game.accept(roll)
    text = RULESET.narrate(before, roll, after, Viewer.public()).text
    assert text == "Allies (Bea) roll infantry, flag, flag, flag for reinforcements (D-Day): infantry."
    game.accept(UnitsOrdered(seat=ALLIES, units=()))
    before = game.state
    placed = ReinforcementPlaced(seat=ALLIES, kind="infantry", hex=(8, 4))
    after = game.accept(placed)
    text = RULESET.narrate(before, placed, after, Viewer.public()).text
    assert text.startswith("Allies (Bea) bring in a reinforcement infantry unit at ") and "4 figures" in text
    view = RULESET.view(after, Viewer.public())
    assert view["dday"]["reserve"][1] == {"side": "ALLIES", "figures": {"infantry": 4, "armour": 3}}
    assert view["dday"]["landing_craft"] == [[8, 4]]


# ---------------------------------------------------------------- M44-DD-10: a unit moved by a flag


def test_a_unit_driven_back_by_a_flag_in_its_own_turn_may_still_battle():
    # M44-DD-10: the line "pas de Combat lors de ce tour" is recorded as a reading, not enforced (M44-7).
    board = [hexagon(3, 11, unit="infger"), hexagon(4, 12, unit="infus"), *BOARD[2:]]
    game = _game(board, axis=("ambush",), allies=("direct_from_hq",))
    game.accept(CardPlayed(seat=ALLIES, card="direct_from_hq"))
    game.accept(ReinforcementsRolled(seat=ALLIES, faces=("flag",) * (game.state.hands[ALLIES].size + 1)))
    game.accept(UnitsOrdered(seat=ALLIES, units=(1,)))
    game.accept(CardPlayed(seat=AXIS, card="ambush", target=(4, 12)))
    game.accept(Battle(seat=AXIS, unit=0, target=(4, 12), dice=3, faces=("flag", "star", "star")))
    game.accept(Retreated(seat=ALLIES, unit=1, path=((5, 11),)))
    state = game.accept(Battle(seat=ALLIES, unit=1, target=(3, 11), dice=2, faces=("infantry", "star")))
    assert state.units[0].figures == 3 and state.units[1].hex == (5, 11)
