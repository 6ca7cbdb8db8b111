"""The expansion boards, settings, nations, night and weather: each rule id accepted and refused
(M44-BT-1, M44-OV-1, M44-OV-2, M44-SC-1, M44-IT-1, M44-IT-2, M44-GB-1, M44-BL-1, M44-BL-2, M44-WX-1,
M44-WX-2, M44-WX-3, M44-NT-1, M44-NT-2, M44-NA-1, M44-RU-1, M44-RU-2, M44-DD-1 to M44-DD-5).

Seats: Alain (seat 0) commands the Axis at row 0, Bea (seat 1) the Allies at the far edge.
Units are numbered in the order the hexagons are listed.
"""

import msgspec
import pytest
from msgspec.structs import replace

from domain.memoire44 import RULESET
from domain.memoire44.events import (
    Battle,
    CardCommitted,
    CardDrawn,
    CardPlayed,
    CardTaken,
    DiceRolled,
    GroundTaken,
    Retreated,
    UnitMoved,
    UnitsOrdered,
    VisibilityRolled,
)
from domain.memoire44.scenario import Scenario
from domain.ruleset import Player, ResourceError, RuleError, Viewer

from .harness import setup_for
from .tables import ALLIES, AXIS, hexagon, m44, setup_from, table

KIND = RULESET.resource_kinds["scenario"]


def _order(game, seat, card, units):
    game.accept(CardPlayed(seat=seat, card=card), UnitsOrdered(seat=seat, units=units))
    return game


# ---------------------------------------------------------------- boards (M44-BT-1, M44-OV-1, M44-OV-2)


def test_a_breakthrough_board_has_seventeen_rows_and_a_unit_on_the_last_one_moves():
    # M44-BT-1: the Allied edge of a Breakthrough board is row 16.
    game = table(
        [hexagon(16, 12, unit="tankus"), hexagon(0, 0, unit="infger")], allies=("direct_from_hq",), board_type="BRKTHRU"
    )
    assert game.state.board.rows == 17
    _order(game, ALLIES, "direct_from_hq", (0,))
    state = game.accept(UnitMoved(seat=ALLIES, unit=0, path=((15, 11), (14, 12), (13, 11))))
    assert state.units[0].hex == (13, 11)


def test_a_hex_beyond_row_sixteen_of_a_breakthrough_board_is_refused():
    with pytest.raises(ResourceError) as error:
        KIND.parse(m44([hexagon(17, 13, unit="infus")], board_type="BRKTHRU"))
    assert "BRKTHRU" in error.value.errors[0]["message"]  # M44-BT-1


def test_an_overlord_board_is_twenty_six_hexes_wide_cut_in_thirds():
    # M44-OV-1: columns 0 to 50; the Allied left (low columns) is the Axis right.
    game = table([hexagon(0, 50, unit="infger"), hexagon(8, 0, unit="infus")], board_type="OVERLORD")
    board = game.state.board
    assert (0, 50) in board.hexes and len(board.hexes) == 5 * 26 + 4 * 25
    assert board.sections((4, 16), 1) == ("left",)
    assert board.sections((4, 16), 0) == ("right",)
    assert board.sections((4, 24), 1) == ("centre",)


def test_a_hex_beyond_column_fifty_of_an_overlord_board_is_refused():
    with pytest.raises(ResourceError) as error:
        KIND.parse(m44([hexagon(0, 52, unit="infger")], board_type="OVERLORD"))
    assert "OVERLORD" in error.value.errors[0]["message"]  # M44-OV-1


def test_the_shipped_overlord_scenario_sets_up_for_two_players():
    state = RULESET.initial(setup_for("meuse_line"))
    assert state.board.cols == 26 and state.expansions.blitz


def test_an_overlord_table_of_six_players_without_their_roles_is_refused():
    setup = setup_for("meuse_line")
    players = tuple(Player(player_id=f"p-{i}", name=f"P{i}", seat=i, team=i % 2) for i in range(6))
    with pytest.raises(RuleError) as error:
        RULESET.initial(msgspec.structs.replace(setup, players=players))
    assert error.value.rule_id == "M44-OV-2"


# ---------------------------------------------------------------- settings (M44-SC-1)


def test_the_expansion_settings_are_read_from_the_scenario_options():
    data = m44(
        [hexagon(0, 0, unit="infita")],
        options={"italy_high_command": True, "blitz_rules": False, "weather": "snow", "night_visibility_rules": True},
    )
    scenario = msgspec.convert(KIND.parse(data), Scenario)
    assert scenario.expansions.italy_high_command and not scenario.expansions.blitz
    assert scenario.expansions.snow and scenario.expansions.night  # M44-SC-1


@pytest.mark.parametrize(
    ("options", "field", "words"),
    [
        ({"air_theatre": 1944}, "game_info.options.air_theatre", "must name a theatre"),
        ({"dday_rules": True}, "game_info.dday", "reserve, entry tokens and landing craft"),  # M44-DD-6
        ({"gung_ho": "PACIFIC"}, "game_info.options.gung_ho", "must name a side"),
        ({"mystery_rule": True}, "game_info.options.mystery_rule", "unknown option"),
        ({"weather": "hail"}, "game_info.options.weather", "weather must be one of"),
        ({"blitz_rules": "yes"}, "game_info.options.blitz_rules", "true or false"),
    ],
)
def test_unknown_and_unsupported_settings_are_refused_by_name(options, field, words):
    # M44-SC-1: a game is never recorded under rules the core would silently ignore.
    with pytest.raises(ResourceError) as error:
        KIND.parse(m44([hexagon(0, 0, unit="infger")], options=options))
    assert error.value.errors[0]["field"] == field
    assert words in error.value.errors[0]["message"]


def test_a_setting_turned_off_explicitly_is_accepted():
    content = KIND.parse(m44([hexagon(0, 0, unit="infger")], options={"air_rules": False}))
    assert content["expansions"]["blitz"] is False  # M44-SC-1


# ---------------------------------------------------------------- Italian High Command (M44-IT-1)

ITALY = {"italy_high_command": True}


def _italian_loss(**options):
    game = table(
        [hexagon(5, 11, unit="infus"), hexagon(4, 12, unit="infita", figures=1)],
        allies=("direct_from_hq",),
        options=ITALY | options,
    )
    _order(game, ALLIES, "direct_from_hq", (0,))
    return game


def test_the_italian_side_holds_six_cards_and_a_lost_unit_costs_one_taken_by_the_enemy():
    game = _italian_loss()
    assert game.state.hand_limit[0] == 6 and game.state.hands[0].size == 6
    state = game.accept(Battle(seat=ALLIES, unit=0, target=(4, 12), dice=3, faces=("infantry", "star", "star")))
    assert state.cards_to_take == 1 and state.hand_limit[0] == 5
    state = game.accept(CardTaken(seat=ALLIES, card="attack_centre"))
    assert state.hands[0].size == 5 and state.discard[-1] == "attack_centre" and state.cards_to_take == 0
    state = game.accept(CardDrawn(seat=ALLIES))
    assert state.phase == "card"


def test_no_card_is_drawn_before_the_italian_card_is_taken():
    game = _italian_loss()
    game.accept(Battle(seat=ALLIES, unit=0, target=(4, 12), dice=3, faces=("infantry", "star", "star")))
    error = game.refused(CardDrawn(seat=ALLIES))
    assert (error.rule_id, error.code) == ("M44-IT-1", "card_to_take")


def test_the_italian_side_does_not_take_its_own_card_and_none_is_taken_without_a_loss():
    game = _italian_loss()
    assert game.refused(CardTaken(seat=ALLIES, card="attack_centre")).code == "nothing_to_take"
    game.accept(Battle(seat=ALLIES, unit=0, target=(4, 12), dice=3, faces=("infantry", "star", "star")))
    error = game.refused(CardTaken(seat=AXIS, card="attack_centre"))
    assert (error.rule_id, error.code) == ("M44-IT-1", "taker")


def test_an_italian_hand_of_three_loses_no_card():
    game = _italian_loss()
    state = replace(game.state, hand_limit=(3, 4))
    battle = Battle(seat=ALLIES, unit=0, target=(4, 12), dice=3, faces=("infantry", "star", "star"))
    RULESET.validate(state, battle)
    after = RULESET.evolve(state, battle)
    assert after.cards_to_take == 0 and after.hand_limit == (3, 4)  # M44-IT-1: never below three


def test_without_the_rule_a_lost_italian_unit_costs_no_card():
    game = table([hexagon(5, 11, unit="infus"), hexagon(4, 12, unit="infita", figures=1)], allies=("direct_from_hq",))
    _order(game, ALLIES, "direct_from_hq", (0,))
    state = game.accept(Battle(seat=ALLIES, unit=0, target=(4, 12), dice=3, faces=("infantry", "star", "star")))
    assert state.cards_to_take == 0 and state.hand_limit == (4, 4)


# ---------------------------------------------------------------- Italian retreats (M44-IT-2)


def _flag_on(unit_name, **options):
    game = table([hexagon(5, 11, unit="infus"), hexagon(4, 12, unit=unit_name)], allies=("direct_from_hq",), **options)
    _order(game, ALLIES, "direct_from_hq", (0,))
    game.accept(Battle(seat=ALLIES, unit=0, target=(4, 12), dice=3, faces=("flag", "star", "star")))
    return game


def test_an_italian_unit_retreats_up_to_three_hexes_for_one_flag():
    game = _flag_on("infita", options={"italy_royal_army": True})
    state = game.accept(Retreated(seat=AXIS, unit=1, path=((3, 11), (2, 12), (1, 11))))
    assert state.units[1].hex == (1, 11) and state.units[1].figures == 4


def test_an_italian_unit_retreating_four_hexes_for_one_flag_is_refused():
    game = _flag_on("infita", options={"italy_royal_army": True})
    error = game.refused(Retreated(seat=AXIS, unit=1, path=((3, 11), (2, 12), (1, 11), (0, 12))))
    assert (error.rule_id, error.code) == ("M44-IT-2", "too_far")


def test_a_german_unit_beside_the_italians_retreats_one_hex_per_flag():
    game = _flag_on("infger", options={"italy_royal_army": True})
    error = game.refused(Retreated(seat=AXIS, unit=1, path=((3, 11), (2, 12))))
    assert (error.rule_id, error.code) == ("M44-3", "too_far")


# ---------------------------------------------------------------- British Commonwealth (M44-GB-1)

BRITISH = {"british_commonwealth": True}


def _british_assaulted(unit_name="infbrit", faces=("infantry", "star", "star"), **options):
    game = table(
        [hexagon(4, 12, "woods", unit="infger"), hexagon(5, 11, unit=unit_name, figures=2)],
        axis=("direct_from_hq",),
        starting="PLAYER1",
        options=options or BRITISH,
    )
    _order(game, AXIS, "direct_from_hq", (0,))
    game.accept(Battle(seat=AXIS, unit=0, target=(5, 11), dice=3, faces=faces))
    return game


def test_a_british_unit_left_with_one_figure_battles_back_with_one_die_ignoring_terrain():
    game = _british_assaulted()
    assert game.state.pending.kind == "battle_back"
    # The German infantry is in a forest (-1 die), ignored: the battle back rolls 1 die.
    state = game.accept(Battle(seat=ALLIES, unit=1, target=(4, 12), dice=1, faces=("infantry",)))
    assert state.units[0].figures == 3 and state.pending is None


def test_a_british_battle_back_with_two_dice_or_at_another_unit_is_refused():
    game = _british_assaulted()
    error = game.refused(Battle(seat=ALLIES, unit=1, target=(4, 12), dice=2, faces=("infantry", "infantry")))
    assert error.rule_id == "M44-2" and "battle back" in error.message
    error = game.refused(Battle(seat=ALLIES, unit=1, target=(3, 11), dice=1, faces=("infantry",)))
    assert error.rule_id == "M44-GB-1"


def test_a_british_unit_battles_back_after_a_flag_it_could_not_retreat():
    # The British unit cannot retreat (two units behind it): the flag costs its second figure.
    game = table(
        [
            hexagon(4, 12, unit="infger"),
            hexagon(5, 11, unit="infbrit", figures=2),
            hexagon(6, 10, unit="infus"),
            hexagon(6, 12, unit="infus"),
        ],
        axis=("direct_from_hq",),
        starting="PLAYER1",
        options=BRITISH,
    )
    _order(game, AXIS, "direct_from_hq", (0,))
    game.accept(Battle(seat=AXIS, unit=0, target=(5, 11), dice=3, faces=("flag", "star", "star")))
    state = game.accept(Retreated(seat=ALLIES, unit=1, path=()))
    assert state.units[1].figures == 1 and state.pending.kind == "battle_back"
    state = game.accept(Battle(seat=ALLIES, unit=1, target=(4, 12), dice=1, faces=("flag",)))
    assert state.pending.kind == "retreat" and state.pending.unit == 0


def test_a_unit_of_another_nation_does_not_battle_back():
    game = _british_assaulted(unit_name="infus")
    error = game.refused(Battle(seat=ALLIES, unit=1, target=(4, 12), dice=1, faces=("infantry",)))
    assert error.rule_id == "M44-6"  # M44-GB-1 is for British units only


def test_the_battle_back_lapses_when_the_assaulting_side_goes_on():
    game = _british_assaulted()
    game.accept(CardDrawn(seat=AXIS))
    assert game.state.pending is None  # M44-GB-1: the British side chose not to battle back


# ---------------------------------------------------------------- Blitz (M44-BL-1, M44-BL-2)

BLITZ = {"blitz_rules": True}


def test_the_german_side_plays_recon_1_as_air_power():
    game = table(
        [hexagon(0, 0, unit="infger"), hexagon(5, 11, unit="infus")],
        axis=("recon_1_left",),
        starting="PLAYER1",
        options=BLITZ,
    )
    state = game.accept(CardPlayed(seat=AXIS, card="recon_1_left", as_card="air_power"))
    assert state.effective == "air_power" and state.phase == "battle"
    state = game.accept(Battle(seat=AXIS, unit=None, target=(5, 11), dice=1, faces=("star",)))
    assert state.units[1].figures == 3  # M44-BL-1: stars hit, as Air Power's do


def test_recon_1_as_air_power_is_refused_for_the_allies_and_without_blitz():
    game = table([hexagon(5, 11, unit="infus")], allies=("recon_1_left",), options=BLITZ)
    error = game.refused(CardPlayed(seat=ALLIES, card="recon_1_left", as_card="air_power"))
    assert (error.rule_id, error.code) == ("M44-BL-1", "not_as_card")
    game = table([hexagon(0, 0, unit="infger")], axis=("recon_1_left",), starting="PLAYER1")
    error = game.refused(CardPlayed(seat=AXIS, card="recon_1_left", as_card="air_power"))
    assert error.rule_id == "M44-BL-1"


def test_allied_armour_moves_at_most_two_hexes_under_blitz():
    game = table(
        [hexagon(6, 12, unit="tankus"), hexagon(0, 0, unit="infger")], allies=("direct_from_hq",), options=BLITZ
    )
    _order(game, ALLIES, "direct_from_hq", (0,))
    error = game.refused(UnitMoved(seat=ALLIES, unit=0, path=((5, 11), (4, 12), (3, 11))))
    assert error.rule_id == "M44-BL-2"
    state = game.accept(UnitMoved(seat=ALLIES, unit=0, path=((5, 11), (4, 12))))
    assert state.units[0].hex == (4, 12)


def test_german_armour_still_moves_three_hexes_under_blitz():
    game = table(
        [hexagon(2, 12, unit="tankger"), hexagon(8, 0, unit="infus")],
        axis=("direct_from_hq",),
        starting="PLAYER1",
        options=BLITZ,
    )
    _order(game, AXIS, "direct_from_hq", (0,))
    state = game.accept(UnitMoved(seat=AXIS, unit=0, path=((3, 11), (4, 12), (5, 11))))
    assert state.units[0].hex == (5, 11)  # M44-BL-2 slows Allied armour only


# ---------------------------------------------------------------- weather (M44-WX-1, M44-WX-2, M44-WX-3)


def test_in_snow_armour_moves_three_hexes_only_along_a_road():
    road = [hexagon(r, c, "road") for r, c in ((6, 12), (5, 11), (4, 12), (3, 11))]
    game = table(
        [*road, hexagon(6, 12, unit="tankus"), hexagon(0, 0, unit="infger")],
        allies=("direct_from_hq",),
        options={"weather": "snow"},
    )
    _order(game, ALLIES, "direct_from_hq", (0,))
    state = game.accept(UnitMoved(seat=ALLIES, unit=0, path=((5, 11), (4, 12), (3, 11))))
    assert state.units[0].hex == (3, 11)  # M44-WX-1


def test_in_snow_armour_moving_three_hexes_off_the_road_is_refused():
    game = table(
        [hexagon(6, 12, unit="tankus"), hexagon(0, 0, unit="infger")],
        allies=("direct_from_hq",),
        options={"weather": "snow"},
    )
    _order(game, ALLIES, "direct_from_hq", (0,))
    error = game.refused(UnitMoved(seat=ALLIES, unit=0, path=((5, 11), (4, 12), (3, 11))))
    assert error.rule_id == "M44-WX-1"


def _ranged(weather):
    game = table(
        [hexagon(6, 12, unit="infus"), hexagon(4, 12, unit="infger"), hexagon(0, 0, unit="infger")],
        allies=("direct_from_hq",),
        options={"weather": weather},
    )
    return _order(game, ALLIES, "direct_from_hq", (0,))


def test_in_fog_a_unit_battles_an_enemy_two_hexes_away_is_refused():
    game = _ranged("fog")
    error = game.refused(Battle(seat=ALLIES, unit=0, target=(4, 12), dice=2, faces=("star", "star")))
    assert error.rule_id == "M44-WX-2"


def test_in_fog_a_unit_battles_an_adjacent_enemy():
    game = _ranged("fog")
    game.accept(UnitMoved(seat=ALLIES, unit=0, path=((5, 11),)))
    state = game.accept(Battle(seat=ALLIES, unit=0, target=(4, 12), dice=3, faces=("infantry", "star", "star")))
    assert state.units[1].figures == 3  # M44-WX-2


def _air_power_in_snow():
    game = table(
        [hexagon(0, 0, unit="infger"), hexagon(5, 11, unit="infus")],
        allies=("air_power",),
        options={"weather": "snow"},
    )
    game.accept(CardPlayed(seat=ALLIES, card="air_power"))
    return game


def test_air_power_in_snow_rolls_one_die_per_hex():
    game = _air_power_in_snow()
    state = game.accept(Battle(seat=ALLIES, unit=None, target=(0, 0), dice=1, faces=("grenade",)))
    assert state.units[0].figures == 3  # M44-WX-3


def test_air_power_in_snow_with_the_allies_two_dice_is_refused():
    game = _air_power_in_snow()
    error = game.refused(Battle(seat=ALLIES, unit=None, target=(0, 0), dice=2, faces=("grenade", "star")))
    assert error.details["computed"] == 1 and "snow" in error.message  # M44-WX-3


# ---------------------------------------------------------------- night (M44-NT-1, M44-NT-2)

NIGHT = {"night_visibility_rules": True}


def _night(*hexes, allies=("direct_from_hq",)):
    return table([hexagon(6, 12, unit="infus"), *hexes], allies=allies, options=NIGHT)


def test_at_night_the_allies_roll_for_the_light_before_playing_a_card():
    game = _night(hexagon(0, 0, unit="infger"))
    error = game.refused(CardPlayed(seat=ALLIES, card="direct_from_hq"))
    assert (error.rule_id, error.code) == ("M44-NT-1", "roll_for_light")
    state = game.accept(VisibilityRolled(seat=ALLIES, faces=("star", "flag", "infantry", "grenade")))
    assert state.visibility == 2
    error = game.refused(VisibilityRolled(seat=ALLIES, faces=("star",) * 4))
    assert (error.rule_id, error.code) == ("M44-NT-1", "no_light_roll")


def test_at_night_a_battle_beyond_the_light_is_refused_and_within_it_accepted():
    game = _night(hexagon(3, 11, unit="infger"), hexagon(4, 14, unit="infger"))
    game.accept(VisibilityRolled(seat=ALLIES, faces=("star", "flag", "flag", "flag")))
    _order(game, ALLIES, "direct_from_hq", (0,))
    error = game.refused(Battle(seat=ALLIES, unit=0, target=(3, 11), dice=1, faces=("star",)))
    assert error.rule_id == "M44-NT-1" and "level 2" in error.message
    state = game.accept(Battle(seat=ALLIES, unit=0, target=(4, 14), dice=2, faces=("infantry", "star")))
    assert state.units[2].figures == 3


def test_air_power_battles_nothing_before_full_daylight_and_battles_once_it_comes():
    game = _night(hexagon(0, 0, unit="infger"), allies=("air_power",))
    game.accept(VisibilityRolled(seat=ALLIES, faces=("star", "flag", "flag", "flag")))
    game.accept(CardPlayed(seat=ALLIES, card="air_power"))  # the card is spent
    error = game.refused(Battle(seat=ALLIES, unit=None, target=(0, 0), dice=2, faces=("star", "star")))
    assert (error.rule_id, error.code) == ("M44-NT-2", "not_full_day")
    game = _night(hexagon(0, 0, unit="infger"), allies=("air_power",))
    state = game.accept(VisibilityRolled(seat=ALLIES, faces=("star",) * 4))
    assert state.visibility == 5
    state = replace(state, visibility=6)  # one more star on a later turn
    played = CardPlayed(seat=ALLIES, card="air_power")
    RULESET.validate(state, played)
    state = RULESET.evolve(state, played)
    RULESET.validate(state, Battle(seat=ALLIES, unit=None, target=(0, 0), dice=2, faces=("star", "star")))


# ---------------------------------------------------------------- North Africa (M44-NA-1)


def _desert_overrun(**options):
    game = table(
        [hexagon(6, 12, unit="tankus"), hexagon(5, 11, unit="infger", figures=1), hexagon(3, 13, unit="infger")],
        allies=("direct_from_hq",),
        **options,
    )
    _order(game, ALLIES, "direct_from_hq", (0,))
    game.accept(Battle(seat=ALLIES, unit=0, target=(5, 11), dice=3, faces=("infantry", "star", "star")))
    game.accept(GroundTaken(seat=ALLIES, unit=0, to=(5, 11)))
    return game


def test_desert_armour_advances_one_hex_after_taking_ground_then_overruns():
    game = _desert_overrun(options={"north_african_desert_rules": True})
    state = game.accept(UnitMoved(seat=ALLIES, unit=0, path=((4, 12),)))
    assert state.units[0].hex == (4, 12)
    state = game.accept(Battle(seat=ALLIES, unit=0, target=(3, 13), dice=3, faces=("infantry", "star", "star")))
    assert state.units[2].figures == 3  # M44-NA-1


def test_a_desert_advance_of_two_hexes_is_refused_and_none_without_the_rule():
    game = _desert_overrun(options={"north_african_desert_rules": True})
    error = game.refused(UnitMoved(seat=ALLIES, unit=0, path=((4, 12), (3, 11))))
    assert error.rule_id == "M44-NA-1"
    game = _desert_overrun()
    error = game.refused(UnitMoved(seat=ALLIES, unit=0, path=((4, 12),)))
    assert error.rule_id == "M44-6"


def test_a_set_up_embeds_the_settings_so_stored_games_fold_the_same():
    data = m44([hexagon(0, 0, unit="infger")], options=BLITZ)
    state = RULESET.initial(setup_from(data))
    assert state.expansions.blitz and not state.expansions.night


# ---------------------------------------------------------------- narration and views


def _narrated(game, event, viewer=None):
    before = game.state
    return RULESET.narrate(before, event, game.accept(event), viewer or Viewer.full()).text


def test_the_expansion_events_are_narrated_with_their_rule():
    game = _italian_loss()
    game.accept(Battle(seat=ALLIES, unit=0, target=(4, 12), dice=3, faces=("infantry", "star", "star")))
    text = _narrated(game, CardTaken(seat=ALLIES, card="attack_centre"))
    assert text == (
        "Allies (Bea) take Attack Centre at random from the Italian hand (Italian High Command); "
        "it is discarded and the Italian hand is now 5 cards."
    )
    game = _night(hexagon(0, 0, unit="infger"))
    text = _narrated(game, VisibilityRolled(seat=ALLIES, faces=("star", "flag", "star", "grenade")))
    assert text == "Allies (Bea) roll star, flag, star, grenade for the light: visibility 3."
    game = _british_assaulted()
    text = _narrated(game, Battle(seat=ALLIES, unit=1, target=(4, 12), dice=1, faces=("infantry",)))
    assert "battling back (British Commonwealth, 1 die, terrain ignored)" in text and "1 figure lost" in text


def test_a_recon_played_as_air_power_is_narrated_as_such():
    game = table([hexagon(0, 0, unit="infger")], axis=("recon_1_left",), starting="PLAYER1", options=BLITZ)
    text = _narrated(game, CardPlayed(seat=AXIS, card="recon_1_left", as_card="air_power"))
    assert text == "Axis (Alain) play Recon 1 Left as Air Power (Blitz)."


def test_the_public_view_shows_the_settings_and_the_light_but_not_the_hands():
    game = _night(hexagon(0, 0, unit="infger"))
    game.accept(VisibilityRolled(seat=ALLIES, faces=("star", "flag", "flag", "flag")))
    view = RULESET.view(game.state, Viewer(kind="public"))
    assert view["visibility"] == 2 and view["expansions"]["night"] is True
    assert all("known" not in hand for hand in view["hands"])


# ---------------------------------------------------------------- Russian commissar (M44-RU-1, M44-RU-2)

COMMISSAR = {"russian_commissar_rule": "ALLIES"}


def _commissar(allies=("attack_centre", "direct_from_hq", "probe_left", "recon_1_left"), **kw):
    return table(
        [hexagon(6, 12, unit="infru"), hexagon(0, 0, unit="infger")],
        allies=allies,
        axis=("direct_from_hq",),
        options=COMMISSAR,
        **kw,
    )


def _quiet_turn(game, seat, card):
    game.accept(CardPlayed(seat=seat, card=card), UnitsOrdered(seat=seat, units=()), CardDrawn(seat=seat))


def test_the_commissar_side_places_a_card_then_plays_from_its_hand_on_its_first_turn():
    game = _commissar()
    state = game.accept(CardCommitted(seat=ALLIES, card="attack_centre"))
    assert state.token == ("attack_centre",) and state.hands[1].size == 3
    state = game.accept(CardPlayed(seat=ALLIES, card="direct_from_hq"))
    assert state.effective == "direct_from_hq"  # M44-RU-1


def test_the_commissar_side_playing_before_placing_a_card_is_refused_unless_the_card_is_exempt():
    game = _commissar()
    error = game.refused(CardPlayed(seat=ALLIES, card="direct_from_hq"))
    assert (error.rule_id, error.code) == ("M44-RU-1", "commit_first")
    state = game.accept(CardPlayed(seat=ALLIES, card="recon_1_left"))
    assert state.effective == "recon_1_left" and state.token == ()


def test_a_second_card_under_the_token_ambush_or_the_other_side_placing_are_refused():
    game = _commissar(allies=("attack_centre", "direct_from_hq", "ambush", "probe_left"))
    assert game.refused(CardCommitted(seat=ALLIES, card="ambush")).code == "ambush_kept"
    assert game.refused(CardCommitted(seat=AXIS, card="direct_from_hq")).code == "no_commissar"
    game.accept(CardCommitted(seat=ALLIES, card="attack_centre"))
    error = game.refused(CardCommitted(seat=ALLIES, card="probe_left"))
    assert (error.rule_id, error.code) == ("M44-RU-1", "commit_timing")


def test_next_turn_the_card_under_the_token_is_played_and_no_other():
    game = _commissar()
    game.accept(CardCommitted(seat=ALLIES, card="attack_centre"))
    _quiet_turn(game, ALLIES, "direct_from_hq")
    _quiet_turn(game, AXIS, "direct_from_hq")
    game.accept(CardCommitted(seat=ALLIES, card="probe_left"))
    error = game.refused(CardPlayed(seat=ALLIES, card="probe_left"))
    assert (error.rule_id, error.code) == ("M44-RU-2", "token_card")
    state = game.accept(CardPlayed(seat=ALLIES, card="attack_centre"))
    assert state.token == ("probe_left",) and state.effective == "attack_centre"
    assert state.hands[1].size + len(state.token) == state.hand_limit[1] - 1  # one card played, none drawn yet


def test_a_card_placed_face_down_is_named_when_played_and_hidden_from_the_enemy_meanwhile():
    game = _commissar(allies=("direct_from_hq",))
    game.accept(CardCommitted(seat=ALLIES))  # one of the face-down cards
    public = RULESET.view(game.state, Viewer(kind="public"))["hands"][1]
    assert public["under_token"] == {"count": 1}
    own = RULESET.view(game.state, Viewer(kind="seat", seat=ALLIES))["hands"][1]
    assert own["under_token"] == {"count": 1, "cards": [None]}
    _quiet_turn(game, ALLIES, "direct_from_hq")
    _quiet_turn(game, AXIS, "direct_from_hq")
    game.accept(CardCommitted(seat=ALLIES))
    state = game.accept(CardPlayed(seat=ALLIES, card="probe_centre"))  # M44-RU-2: now known
    assert state.discard[-1] == "probe_centre"


def test_a_face_down_placement_from_a_hand_the_record_knows_is_refused():
    game = _commissar()
    error = game.refused(CardCommitted(seat=ALLIES))
    assert (error.rule_id, error.code) == ("G-2", "name_the_card")  # M44-RU-1


def test_the_commissar_placement_is_narrated_without_naming_the_card_and_its_play_from_the_token():
    game = _commissar()
    before, placed = game.state, CardCommitted(seat=ALLIES, card="attack_centre")
    text = _narrated(game, placed, Viewer.public())
    assert text == "Allies (Bea) place a card under the commissar token for their next turn."
    told = RULESET.narrate(before, placed, game.state, Viewer.of_seat(ALLIES)).text
    assert told == "Allies (Bea) place Attack Centre under the commissar token for their next turn."
    _quiet_turn(game, ALLIES, "direct_from_hq")
    _quiet_turn(game, AXIS, "direct_from_hq")
    game.accept(CardCommitted(seat=ALLIES, card="probe_left"))
    text = _narrated(game, CardPlayed(seat=ALLIES, card="attack_centre"))
    assert text.startswith("Allies (Bea) play Attack Centre from under the commissar token")


# ---------------------------------------------------------------- D-Day control (M44-DD-1, M44-DD-2, M44-DD-3)


def _objective(kind, hexes, camp):
    return [{"camp": camp, "kind": kind, "hexes": [list(h) for h in hexes], "medals": 1}]


def test_a_village_medal_stays_with_its_holder_until_the_enemy_stands_in_it():
    game = table(
        [hexagon(6, 12, unit="infus"), hexagon(0, 0, unit="infger"), hexagon(4, 12, "buildings")],
        allies=("direct_from_hq",),
        objectives=_objective("village", [(4, 12)], 0),
    )
    assert game.state.medals == (1, 0)  # M44-DD-1: the Axis hold the village at the start
    _order(game, ALLIES, "direct_from_hq", (0,))
    state = game.accept(UnitMoved(seat=ALLIES, unit=0, path=((5, 11),)))
    assert state.medals == (1, 0) and state.villages == ()  # next to it is not in it


def test_a_village_changes_hands_when_the_enemy_enters_and_keeps_its_marker_after():
    game = table(
        [hexagon(6, 12, unit="infus"), hexagon(0, 0, unit="infger"), hexagon(4, 12, "buildings")],
        allies=("direct_from_hq",),
        objectives=_objective("village", [(4, 12)], 0),
    )
    _order(game, ALLIES, "direct_from_hq", (0,))
    state = game.accept(UnitMoved(seat=ALLIES, unit=0, path=((5, 11), (4, 12))))
    assert state.medals == (0, 1) and state.villages == ((0, 1),)  # M44-DD-1


def test_a_beach_is_the_assailants_once_no_defender_is_on_or_next_to_it():
    game = table(
        [hexagon(4, 12, unit="infus"), hexagon(2, 12, unit="infger", figures=1)],
        allies=("direct_from_hq",),
        objectives=_objective("beach", [(3, 11), (3, 13)], 1),
    )
    assert game.state.medals == (0, 0)  # M44-DD-2: a defender stands next to the beach
    _order(game, ALLIES, "direct_from_hq", (0,))
    state = game.accept(Battle(seat=ALLIES, unit=0, target=(2, 12), dice=2, faces=("infantry", "star")))
    assert state.medals == (0, 2)  # the eliminated unit and the beach


def test_a_bridge_medal_goes_to_the_side_alone_on_or_next_to_it_and_is_removed_when_both_are():
    game = table(
        [hexagon(5, 11, unit="infus"), hexagon(2, 12, unit="infger"), hexagon(4, 12, "river", bridge=True)],
        axis=("direct_from_hq",),
        starting="PLAYER1",
        objectives=_objective("bridge", [(4, 12)], 1),
    )
    assert game.state.medals == (0, 1)  # M44-DD-3: only the Allies are next to the bridge
    _order(game, AXIS, "direct_from_hq", (1,))
    state = game.accept(UnitMoved(seat=AXIS, unit=1, path=((3, 11),)))
    assert state.medals == (0, 0)  # both sides next to it: the medal is removed


def test_an_objective_of_an_unknown_kind_is_refused_naming_the_control_kinds():
    with pytest.raises(ResourceError) as error:
        KIND.parse(m44([hexagon(0, 0, unit="infger")], objectives=_objective("harbour", [(4, 12)], 1)))
    assert "village" in error.value.errors[0]["message"]  # M44-DD-1 to M44-DD-3


# ---------------------------------------------------------------- air, off-board artillery (M44-DD-4, M44-DD-5)


def _air_power(seat, **options):
    game = table(
        [hexagon(0, 0, unit="infger"), hexagon(5, 11, unit="infus")],
        axis=("air_power",) if seat == AXIS else (),
        allies=("air_power",) if seat == ALLIES else (),
        starting="PLAYER1" if seat == AXIS else "PLAYER2",
        options=options,
    )
    game.accept(CardPlayed(seat=seat, card="air_power"))
    return game


def test_the_side_with_air_superiority_rolls_two_dice_per_hex_with_air_power():
    game = _air_power(AXIS, air_superiority="AXIS")
    state = game.accept(Battle(seat=AXIS, unit=None, target=(5, 11), dice=2, faces=("grenade", "star")))
    assert state.units[1].figures == 2  # M44-DD-4


def test_without_air_superiority_the_allies_two_dice_are_refused():
    game = _air_power(ALLIES, air_superiority="AXIS")
    error = game.refused(Battle(seat=ALLIES, unit=None, target=(0, 0), dice=2, faces=("grenade", "star")))
    assert error.details["computed"] == 1  # M44-DD-4
    game.accept(Battle(seat=ALLIES, unit=None, target=(0, 0), dice=1, faces=("grenade",)))


def test_off_board_artillery_plays_recon_1_as_a_barrage_whose_flags_cannot_be_ignored():
    game = table(
        [hexagon(0, 10, unit="infger", obstacle="sand"), hexagon(8, 0, unit="infus")],
        allies=("recon_1_centre",),
        options={"off_board_artillery": "ALLIES"},
    )
    state = game.accept(CardPlayed(seat=ALLIES, card="recon_1_centre", as_card="barrage"))
    assert state.effective == "barrage"
    state = game.accept(
        Battle(seat=ALLIES, unit=None, target=(0, 10), dice=4, faces=("star", "flag", "armour", "armour"))
    )
    assert state.units[0].figures == 3 and state.pending.flags == 1 and state.pending.ignorable == 0  # M44-DD-5


def test_off_board_artillery_is_refused_to_the_other_side():
    game = table(
        [hexagon(0, 10, unit="infger"), hexagon(8, 0, unit="infus")],
        axis=("recon_1_centre",),
        starting="PLAYER1",
        options={"off_board_artillery": "ALLIES"},
    )
    error = game.refused(CardPlayed(seat=AXIS, card="recon_1_centre", as_card="barrage"))
    assert (error.rule_id, error.code) == ("M44-DD-5", "not_as_card")


def test_their_finest_hour_from_under_the_token_rolls_a_die_for_the_card_still_there():
    game = _commissar(allies=("their_finest_hour", "direct_from_hq", "probe_left", "attack_centre"))
    game.accept(CardCommitted(seat=ALLIES, card="their_finest_hour"))
    _quiet_turn(game, ALLIES, "direct_from_hq")
    _quiet_turn(game, AXIS, "direct_from_hq")
    game.accept(CardCommitted(seat=ALLIES, card="probe_left"), CardPlayed(seat=ALLIES, card="their_finest_hour"))
    # M44-RU-1: 2 cards in hand + 1 under the token + the card played = 4 dice.
    assert game.state.hands[1].size == 2 and game.state.token == ("probe_left",)
    error = game.refused(DiceRolled(seat=ALLIES, faces=("star",) * 3))
    assert error.details["expected"] == 4
    game.accept(DiceRolled(seat=ALLIES, faces=("star",) * 4))
