"""Overlord team tables (M44-OV-2 to M44-OV-7): each rule id accepted and refused.

Six seats on an Overlord board: Alain (0) is the Axis commander-in-chief, Bea (1) commands the Axis
left, Chloe (2) the Axis centre and right; Denis (3) is the Allied commander-in-chief and commands the
Allied centre, Emma (4) the Allied left, Fred (5) the Allied right. Sections are seen from each side's
edge, so the Axis left (high columns) faces the Allied right.
"""

import msgspec
import pytest

from domain.memoire44 import RULESET
from domain.memoire44.events import (
    Battle,
    CardDrawn,
    CardPlayed,
    CardsGiven,
    GameEnded,
    Gift,
    InitiativeTaken,
    TurnEnded,
    UnitMoved,
    UnitsOrdered,
)
from domain.memoire44.setup import seat_sides
from domain.ruleset import Player, ResourceError, RuleError, Viewer

from .harness import SIX, TEST_INITIATIVE, setup_for, team_setup_for
from .tables import Table, hexagon, m44, setup_from

ALAIN, BEA, CHLOE, DENIS, EMMA, FRED = range(6)

UNITS = [
    hexagon(2, 44, unit="infger"),  # 0: Axis left (Bea)
    hexagon(3, 25, unit="infger"),  # 1: Axis centre (Chloe)
    hexagon(2, 6, unit="infger"),  # 2: Axis right (Chloe)
    hexagon(6, 6, unit="infus"),  # 3: Allied left (Emma)
    hexagon(4, 26, unit="infus"),  # 4: Allied centre (Denis), next to unit 1
    hexagon(6, 44, unit="infus"),  # 5: Allied right (Fred)
]
AXIS_HAND = ("probe_left", "attack_centre", "assault_right", "direct_from_hq")
ALLIED_HAND = ("probe_centre", "attack_left", "attack_right", "firefight")


def _team_setup(data: bytes, roles: tuple[str, ...] | None = None, initiative: dict | None = None):
    base = setup_from(data)
    seats = tuple(
        Player(player_id=f"p-{name.lower()}", name=name, seat=seat, team=team)
        for seat, (name, team, _) in enumerate(SIX)
    )
    resources = dict(base.resources)
    if initiative is not None:
        kind = RULESET.resource_kinds["initiative_table"]
        resources["initiative_table"] = msgspec.structs.replace(
            base.resources["scenario"],
            kind="initiative_table",
            content=kind.parse(msgspec.json.encode(initiative)),
        )
    roles = roles or tuple(role for _, _, role in SIX)
    return msgspec.structs.replace(base, players=seats, options={"roles": list(roles)}, resources=resources)


def team_table(initiative: dict | None = None, hexagons=UNITS) -> Table:
    """The six-seat table, hands dealt (Axis first to play)."""
    data = m44(hexagons, board_type="OVERLORD", starting="PLAYER1")
    game = Table(_team_setup(data, initiative=initiative))
    for seat, cards in ((ALAIN, AXIS_HAND), (DENIS, ALLIED_HAND)):
        for card in cards:
            game.accept(CardDrawn(seat=seat, card=card))
    return game


def _gift(seat, *gifts):
    return CardsGiven(seat=seat, gifts=tuple(Gift(general=g, card=c) for g, c in gifts))


def _give(game, *gifts):
    return game.accept(_gift(ALAIN, *gifts))


# ---------------------------------------------------------------- M44-OV-2: the team table


def test_a_six_seat_overlord_table_sets_up_a_commander_and_generals_per_side():
    state = team_table().state
    assert state.commanders == (ALAIN, DENIS)  # M44-OV-2
    assert state.commands[CHLOE] == ("centre", "right") and state.commands[DENIS] == ("centre",)
    assert state.seat_camp == (0, 0, 0, 1, 1, 1)
    assert state.phase == "card" and state.hands[0].known == AXIS_HAND
    assert seat_sides(_team_setup(m44(UNITS, board_type="OVERLORD"))) == ("AXIS",) * 3 + ("ALLIES",) * 3


def test_the_shipped_overlord_scenario_sets_up_for_six():
    state = RULESET.initial(team_setup_for("meuse_line"))
    assert len(state.players) == 6 and state.teams  # M44-OV-2


@pytest.mark.parametrize(
    ("roles", "says"),
    [
        (("commander", "left", "centre+right", "commander", "left", "right"), "uncovered: centre"),
        (("commander", "left", "commander+centre+right", "commander+centre", "left", "right"), "one commander"),
        (("commander", "left", "centre+north", "commander+centre", "left", "right"), "sections are"),
        (("commander", "left+centre+right", "", "commander+centre", "left", "right"), "commands something"),
    ],
)
def test_a_team_table_with_a_section_uncovered_or_two_commanders_is_refused(roles, says):
    with pytest.raises(RuleError) as error:
        RULESET.initial(_team_setup(m44(UNITS, board_type="OVERLORD"), roles=roles))
    assert error.value.rule_id == "M44-OV-2"
    assert says in error.value.message.lower() or says in str(error.value.details)


def test_a_team_table_without_roles_is_refused():
    setup = _team_setup(m44(UNITS, board_type="OVERLORD"))
    with pytest.raises(RuleError) as error:
        RULESET.initial(msgspec.structs.replace(setup, options={}))
    assert error.value.rule_id == "M44-OV-2" and "role" in error.value.message


def test_the_result_credits_every_seat_of_the_winning_side():
    game = team_table()
    state = game.accept(
        _gift(ALAIN, (CHLOE, "attack_centre")),
        CardPlayed(seat=CHLOE, card="attack_centre"),
        UnitsOrdered(seat=CHLOE, units=(1,)),
    )
    assert state.phase == "move"
    state = game.accept(GameEnded(winner=BEA, reason="the Allies concede"))
    result = RULESET.result(state, Viewer.public())
    assert result.winners == (ALAIN, BEA, CHLOE)  # M44-OV-2: the side, every seat of it
    assert [p.placement for p in result.players] == [1, 1, 1, 2, 2, 2]


# ---------------------------------------------------------------- M44-OV-3: handing out cards


def test_the_commander_hands_cards_to_the_generals_of_their_sections():
    game = team_table()
    state = _give(game, (BEA, "probe_left"), (CHLOE, "attack_centre"), (CHLOE, "assault_right"))
    assert state.hands[0].known == ("direct_from_hq",)  # M44-OV-3: he keeps one
    assert state.given[BEA].known == ("probe_left",) and state.given[CHLOE].known == ("attack_centre", "assault_right")
    assert state.phase == "plays"


@pytest.mark.parametrize(
    ("seat", "gifts", "code"),
    [
        (BEA, ((BEA, "probe_left"),), "not_commander"),
        (ALAIN, (), "gift_count"),
        (
            ALAIN,
            ((BEA, "probe_left"), (CHLOE, "attack_centre"), (CHLOE, "assault_right"), (BEA, "direct_from_hq")),
            "gift_count",
        ),
        (ALAIN, ((CHLOE, "probe_left"),), "wrong_general"),
        (ALAIN, ((BEA, "probe_left"), (BEA, "direct_from_hq")), "too_many_for_general"),
        (ALAIN, ((CHLOE, "attack_centre"), (CHLOE, "direct_from_hq")), "too_many_for_general"),
        (ALAIN, ((ALAIN, "direct_from_hq"),), "not_a_general"),
        (ALAIN, ((DENIS, "direct_from_hq"),), "not_a_general"),
    ],
)
def test_a_hand_out_breaking_the_overlord_limits_is_refused(seat, gifts, code):
    game = team_table()
    error = game.refused(_gift(seat, *gifts))
    assert (error.rule_id, error.code) == ("M44-OV-3", code)


def test_a_general_of_one_section_gets_one_card():
    # Bea commands only the left: a second left card would have no section to be played in.
    data = m44(UNITS, board_type="OVERLORD", starting="PLAYER1")
    game = Table(_team_setup(data))
    for card in ("probe_left", "attack_left", "probe_centre", "probe_right"):
        game.accept(CardDrawn(seat=ALAIN, card=card))
    for card in ALLIED_HAND:
        game.accept(CardDrawn(seat=DENIS, card=card))
    error = game.refused(_gift(ALAIN, (BEA, "probe_left"), (BEA, "attack_left")))
    assert (error.rule_id, error.code) == ("M44-OV-3", "no_section_for_card")
    game.accept(_gift(ALAIN, (BEA, "probe_left"), (CHLOE, "probe_centre"), (CHLOE, "probe_right")))


def test_the_hand_out_names_no_card_to_the_public():
    game = team_table()
    before = game.state
    event = _gift(ALAIN, (BEA, "probe_left"), (CHLOE, "attack_centre"))
    after = game.accept(event)
    for viewer in (Viewer.public(), Viewer.of_seat(DENIS)):  # the enemy too
        line = RULESET.narrate(before, event, after, viewer).text
        assert line.endswith(": 1 card to Bea, 1 card to Chloe.") and "Probe" not in line and "Attack" not in line
    # The full record names them, as the side's own seats read them (G-2: the side shares its cards).
    line = RULESET.narrate(before, event, after, Viewer.full()).text
    assert line.endswith(": Probe Left to Bea, Attack Centre to Chloe.")
    public = RULESET.view(after, Viewer.public())
    assert "probe_left" not in msgspec.json.encode(public).decode()  # G-2
    assert [t["given"] for t in public["teams"]] == [0, 1, 1, 0, 0, 0]
    teammate = RULESET.view(after, Viewer.of_seat(BEA))
    assert teammate["teams"][CHLOE]["given_cards"] == ["attack_centre"]
    enemy = RULESET.view(after, Viewer.of_seat(EMMA))
    assert "given_cards" not in enemy["teams"][CHLOE] and "known" not in enemy["hands"][0]


# ---------------------------------------------------------------- M44-OV-5: playing in one's sections


def test_a_general_plays_his_card_in_his_section_and_orders_units_there():
    game = team_table()
    _give(game, (BEA, "probe_left"), (CHLOE, "attack_centre"))
    state = game.accept(CardPlayed(seat=BEA, card="probe_left"), UnitsOrdered(seat=BEA, units=(0,)))
    assert state.orders[0].card == "probe_left" and state.played_in == ("left",)  # M44-OV-5
    state = game.accept(CardPlayed(seat=CHLOE, card="attack_centre"), UnitsOrdered(seat=CHLOE, units=(1,)))
    assert [o.card for o in state.orders] == ["probe_left", "attack_centre"]
    assert state.phase == "move" and state.played_in == ("left", "centre")


def test_a_card_not_given_or_units_outside_the_section_are_refused():
    game = team_table()
    _give(game, (BEA, "probe_left"), (CHLOE, "assault_right"))
    error = game.refused(CardPlayed(seat=BEA, card="attack_centre"))
    assert (error.rule_id, error.code) == ("M44-OV-5", "card_not_given")
    error = game.refused(CardPlayed(seat=CHLOE, card="assault_right", section="centre"))
    assert (error.rule_id, error.code) == ("M44-OV-5", "play_section")
    game.accept(CardPlayed(seat=CHLOE, card="assault_right"))
    error = game.refused(UnitsOrdered(seat=CHLOE, units=(1,)))  # unit 1 stands in the centre
    assert (error.rule_id, error.code) == ("M44-OV-5", "outside_section")
    error = game.refused(UnitsOrdered(seat=BEA, units=(2,)))
    assert (error.rule_id, error.code) == ("M44-OV-5", "not_the_general")
    game.accept(UnitsOrdered(seat=CHLOE, units=(2,)))


def test_a_tactic_card_orders_only_in_the_section_it_is_played_in():
    game = team_table()
    _give(game, (CHLOE, "direct_from_hq"))
    game.accept(CardPlayed(seat=CHLOE, card="direct_from_hq", section="centre"))
    error = game.refused(UnitsOrdered(seat=CHLOE, units=(1, 2)))
    assert (error.rule_id, error.code) == ("M44-OV-5", "outside_section")
    game.accept(UnitsOrdered(seat=CHLOE, units=(1,)))


# ---------------------------------------------------------------- M44-OV-6: moves before battles


def test_no_unit_battles_until_every_general_has_played_and_then_no_more_moves():
    game = team_table()
    _give(game, (BEA, "probe_left"), (CHLOE, "attack_centre"))
    game.accept(CardPlayed(seat=CHLOE, card="attack_centre"), UnitsOrdered(seat=CHLOE, units=(1,)))
    battle = Battle(seat=ALAIN, unit=1, target=(4, 26), dice=3, faces=("star", "star", "star"))
    error = game.refused(battle)
    assert (error.rule_id, error.code) == ("M44-OV-6", "moves_first")
    game.accept(CardPlayed(seat=BEA, card="probe_left"), UnitsOrdered(seat=BEA, units=(0,)))
    game.accept(battle)  # M44-OV-6: every card played, the battles begin
    error = game.refused(UnitMoved(seat=ALAIN, unit=0, path=((3, 43),)))
    assert error.code == "moves_before_battles"


def test_a_card_played_after_the_first_battle_is_refused():
    game = team_table(initiative=TEST_INITIATIVE)
    game.accept(_gift(ALAIN, (CHLOE, "attack_centre")))
    game.accept(CardPlayed(seat=CHLOE, card="attack_centre"), UnitsOrdered(seat=CHLOE, units=(1,)))
    game.accept(Battle(seat=CHLOE, unit=1, target=(4, 26), dice=3, faces=("star", "star", "star")))
    error = game.refused(InitiativeTaken(seat=BEA, face="star"))
    assert (error.rule_id, error.code) == ("M44-OV-7", "initiative_timing")


# ---------------------------------------------------------------- M44-OV-4: the commander draws two


def test_the_commander_draws_two_up_to_the_hand_size():
    game = team_table()
    _give(game, (BEA, "probe_left"), (CHLOE, "attack_centre"), (CHLOE, "assault_right"))
    game.accept(CardPlayed(seat=BEA, card="probe_left"), UnitsOrdered(seat=BEA, units=(0,)))
    game.accept(CardPlayed(seat=CHLOE, card="attack_centre"), UnitsOrdered(seat=CHLOE, units=(1,)))
    error = game.refused(CardDrawn(seat=ALAIN))
    assert (error.rule_id, error.code) == ("M44-OV-5", "cards_to_play")
    game.accept(CardPlayed(seat=CHLOE, card="assault_right"), UnitsOrdered(seat=CHLOE, units=(2,)))
    state = game.accept(CardDrawn(seat=ALAIN))
    assert state.draws_due == (1, 0)  # M44-OV-4: two in all, though three were handed out
    state = game.accept(CardDrawn(seat=ALAIN))
    assert state.phase == "card" and state.active == 1 and state.hands[0].size == 3


def test_after_handing_out_one_card_the_commander_draws_one():
    game = team_table()
    game.accept(_gift(ALAIN, (BEA, "probe_left")))
    game.accept(CardPlayed(seat=BEA, card="probe_left"), UnitsOrdered(seat=BEA, units=(0,)))
    state = game.accept(CardDrawn(seat=ALAIN))
    assert state.phase == "card" and state.hands[0].size == 4  # M44-OV-4: never above the hand size
    error = game.refused(CardDrawn(seat=ALAIN))
    assert error.code == "not_drawing"


# ---------------------------------------------------------------- M44-OV-3: no card he may hand out


def stuck_table(initiative: dict | None = None) -> Table:
    """Issue 14: the Axis hand is two cards, Ambush and Counter-Attack, and the Allies have played nothing
    yet, so Alain has no card he may hand out; his hand is full."""
    data = m44(UNITS, board_type="OVERLORD", starting="PLAYER1", cards_player1=2)
    game = Table(_team_setup(data, initiative=initiative))
    for seat, cards in ((ALAIN, ("ambush", "counter_attack")), (DENIS, ALLIED_HAND)):
        for card in cards:
            game.accept(CardDrawn(seat=seat, card=card))
    return game


def test_a_commander_with_no_card_he_may_hand_out_hands_out_none_and_the_turn_ends_undrawn():
    game = stuck_table()
    assert RULESET.legal_events(game.state, ALAIN) == [CardsGiven(seat=ALAIN, gifts=())]  # M44-OV-3
    before = game.state
    state = game.accept(CardsGiven(seat=ALAIN, gifts=()))
    assert state.phase == "move" and state.hands[0].known == ("ambush", "counter_attack")
    for viewer in (Viewer.public(), Viewer.of_seat(BEA)):
        text = RULESET.narrate(before, CardsGiven(seat=ALAIN, gifts=()), state, viewer).text
        assert "hand out no card" in text
    # no general may take the initiative without the table, and the full hand draws nothing (M44-OV-4)
    assert [e for seat in (ALAIN, BEA, CHLOE) for e in RULESET.legal_events(state, seat)] == [TurnEnded(seat=ALAIN)]
    error = game.refused(CardDrawn(seat=ALAIN))
    assert (error.rule_id, error.code) == ("M44-OV-4", "hand_full")
    before = game.state
    state = game.accept(TurnEnded(seat=ALAIN))
    assert state.phase == "card" and state.active == 1 and state.hands[0].size == 2
    text = RULESET.narrate(before, TurnEnded(seat=ALAIN), state, Viewer.public()).text
    assert text.endswith("without drawing: the commander-in-chief's hand is full.")


def test_with_the_initiative_table_the_generals_given_nothing_take_the_initiative():
    game = stuck_table(initiative=TEST_INITIATIVE)
    game.accept(CardsGiven(seat=ALAIN, gifts=()))
    offered = [e for seat in (ALAIN, BEA, CHLOE) for e in RULESET.legal_events(game.state, seat)]
    assert InitiativeTaken(seat=BEA, face="star") in offered and InitiativeTaken(seat=CHLOE, face="star") in offered
    game.accept(InitiativeTaken(seat=CHLOE, face="grenade"))
    state = game.accept(UnitsOrdered(seat=CHLOE, units=(1, 2)))  # M44-OV-7: both in Chloe's sections
    assert [o.card for o in state.orders] == ["initiative", "initiative"]
    game.accept(UnitMoved(seat=ALAIN, unit=1, path=((2, 24),)))
    state = game.accept(TurnEnded(seat=ALAIN))
    assert state.active == 1 and state.phase == "card"


def test_an_empty_hand_out_is_refused_while_a_card_may_go_out():
    game = team_table()
    error = game.refused(CardsGiven(seat=ALAIN, gifts=()))
    assert (error.rule_id, error.code) == ("M44-OV-3", "gift_count")
    assert CardsGiven(seat=ALAIN, gifts=()) not in RULESET.legal_events(game.state, ALAIN)


def test_once_the_enemy_has_played_the_counter_attack_goes_out_and_none_is_refused():
    game = stuck_table()
    game.accept(CardsGiven(seat=ALAIN, gifts=()), TurnEnded(seat=ALAIN))
    game.accept(CardsGiven(seat=DENIS, gifts=(Gift(general=EMMA, card="attack_left"),)))
    game.accept(CardPlayed(seat=EMMA, card="attack_left"), UnitsOrdered(seat=EMMA, units=(3,)))
    game.accept(CardDrawn(seat=DENIS))
    error = game.refused(CardsGiven(seat=ALAIN, gifts=()))
    assert (error.rule_id, error.code) == ("M44-OV-3", "gift_count")
    offered = RULESET.legal_events(game.state, ALAIN)
    assert offered == [_gift(ALAIN, (BEA, "counter_attack")), _gift(ALAIN, (CHLOE, "counter_attack"))]


# ---------------------------------------------------------------- M44-OV-7: the initiative


def test_the_initiative_without_the_table_is_refused_naming_it():
    game = team_table()
    game.accept(_gift(ALAIN, (CHLOE, "attack_centre")))
    error = game.refused(InitiativeTaken(seat=BEA, face="grenade"))
    assert (error.rule_id, error.code) == ("M44-OV-7", "missing_initiative_table")
    assert "initiative table" in error.message and error.details["missing"] == "initiative_table"


def test_a_general_with_no_card_takes_the_initiative_from_the_table():
    game = team_table(initiative=TEST_INITIATIVE)
    game.accept(_gift(ALAIN, (CHLOE, "attack_centre")))
    error = game.refused(InitiativeTaken(seat=CHLOE, face="grenade"))  # Chloe was given a card
    assert (error.rule_id, error.code) == ("M44-OV-7", "initiative_not_allowed")
    state = game.accept(InitiativeTaken(seat=BEA, face="armour"))
    assert state.phase == "order" and state.general == BEA
    error = game.refused(UnitsOrdered(seat=BEA, units=(0,)))  # the armour row orders armour only
    assert error.rule_id == "M44-5" and "armour" in error.message
    game.accept(UnitsOrdered(seat=BEA, units=()))
    error = game.refused(InitiativeTaken(seat=BEA, face="star"))  # once a turn
    assert error.code == "initiative_not_allowed"


def test_the_initiative_orders_units_in_the_general_s_own_sections():
    game = team_table(initiative=TEST_INITIATIVE)
    game.accept(_gift(ALAIN, (BEA, "probe_left")))
    game.accept(InitiativeTaken(seat=CHLOE, face="grenade"))
    state = game.accept(UnitsOrdered(seat=CHLOE, units=(1, 2)))  # centre and right: both Chloe's
    assert [o.card for o in state.orders] == ["initiative", "initiative"]
    game.accept(CardPlayed(seat=BEA, card="probe_left"), UnitsOrdered(seat=BEA, units=(0,)))
    state = game.accept(Battle(seat=ALAIN, unit=1, target=(4, 26), dice=3, faces=("infantry", "star", "star")))
    assert state.units[4].figures == 3


def test_an_initiative_table_with_a_face_missing_is_refused_on_import():
    kind = RULESET.resource_kinds["initiative_table"]
    faces = dict(TEST_INITIATIVE["faces"])
    del faces["flag"]
    with pytest.raises(ResourceError) as error:
        kind.parse(msgspec.json.encode({"source": "x", "faces": faces}))
    assert any(e["field"] == "faces.flag" for e in error.value.errors)
    assert kind.builtin() == {}  # no public source of the values: none shipped


# ---------------------------------------------------------------- M44-OV-9: the US Marines


MARINE_UNITS = [*UNITS, hexagon(2, 40, unit="infger"), hexagon(1, 37, unit="tankger")]  # units 6 and 7: Axis left


def marines_table() -> Table:
    data = m44(MARINE_UNITS, board_type="OVERLORD", starting="PLAYER1", options={"gung_ho": "AXIS"})
    game = Table(_team_setup(data))
    for seat, cards in ((ALAIN, ("probe_left", "move_out", "attack_centre", "direct_from_hq")), (DENIS, ALLIED_HAND)):
        for card in cards:
            game.accept(CardDrawn(seat=seat, card=card))
    return game


def test_the_marines_general_orders_one_more_unit_than_his_card_allows():
    game = marines_table()
    state = game.accept(CardsGiven(seat=ALAIN, gifts=(Gift(general=BEA, card="probe_left"),), marines=BEA))
    assert state.marines == BEA
    game.accept(CardPlayed(seat=BEA, card="probe_left"))
    state = game.accept(UnitsOrdered(seat=BEA, units=(0, 6, 7)))  # Probe orders 2; the Marines 3 (M44-OV-9)
    assert [o.uid for o in state.orders] == [0, 6, 7]


def test_a_tactic_card_of_the_marines_side_orders_one_more_unit_of_any_kind():
    game = marines_table()
    game.accept(CardsGiven(seat=ALAIN, gifts=(Gift(general=BEA, card="move_out"),)))
    game.accept(CardPlayed(seat=BEA, card="move_out"))
    state = game.accept(UnitsOrdered(seat=BEA, units=(0, 6, 7)))  # Move Out! orders infantry; the armour is extra
    assert [o.card for o in state.orders] == ["move_out"] * 3


def test_a_section_card_of_a_general_not_chosen_orders_no_extra_unit():
    game = marines_table()
    game.accept(CardsGiven(seat=ALAIN, gifts=(Gift(general=BEA, card="probe_left"),), marines=CHLOE))
    game.accept(CardPlayed(seat=BEA, card="probe_left"))
    error = game.refused(UnitsOrdered(seat=BEA, units=(0, 6, 7)))
    assert (error.rule_id, error.code) == ("M44-5", "wrong_order")


def test_without_the_marines_rule_the_extra_unit_and_the_named_general_are_refused():
    game = team_table(hexagons=MARINE_UNITS)
    error = game.refused(CardsGiven(seat=ALAIN, gifts=(Gift(general=BEA, card="probe_left"),), marines=BEA))
    assert (error.rule_id, error.code) == ("M44-OV-9", "no_marines")
    game.accept(_gift(ALAIN, (BEA, "probe_left")), CardPlayed(seat=BEA, card="probe_left"))
    error = game.refused(UnitsOrdered(seat=BEA, units=(0, 6, 7)))
    assert (error.rule_id, error.code) == ("M44-5", "wrong_order")


def test_the_marines_extra_unit_goes_to_a_general_of_the_side():
    game = marines_table()
    error = game.refused(CardsGiven(seat=ALAIN, gifts=(Gift(general=BEA, card="probe_left"),), marines=EMMA))
    assert (error.rule_id, error.code) == ("M44-OV-9", "not_a_general")


def test_the_marines_rule_at_a_two_player_table_is_refused():
    with pytest.raises(RuleError) as error:
        RULESET.initial(setup_for("meuse_line", options={"gung_ho": True}))
    assert error.value.rule_id == "M44-OV-9"
    assert RULESET.initial(team_setup_for("meuse_line", options={"gung_ho": True})).expansions.marines == "ALLIES"
