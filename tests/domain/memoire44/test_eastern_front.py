"""Eastern Front at an Overlord team table (M44-OV-8, M44-OV-10): the commander-in-chief places cards
under the commissar token, hands them out on the next turn, and hands out only Counter-Attack at once.

The six seats of test_overlord: Alain (0) commands the Axis, which is under the commissar rule, with Bea
(1) on the left and Chloe (2) on the centre and right; Denis (3) commands the Allies and their centre,
Emma (4) the left, Fred (5) the right. The Axis plays first and holds six cards.
"""

import random
from itertools import combinations, product

import msgspec
import pytest

from domain.memoire44 import RULESET
from domain.memoire44.catalogue import CARDS
from domain.memoire44.events import CardCommitted, CardDrawn, CardPlayed, CardsGiven, Gift, UnitsOrdered
from domain.memoire44.state import Hand
from domain.ruleset import RuleError, Viewer

from .harness import TEST_INITIATIVE, RandomTable, team_setup_for
from .tables import Table, m44
from .test_overlord import ALLIED_HAND, UNITS, _gift, _team_setup
from .test_property import TEAM_SCENARIOS

ALAIN, BEA, CHLOE, DENIS, EMMA, FRED = range(6)
AXIS_HAND = ("probe_left", "attack_centre", "assault_right", "recon_1_right", "counter_attack", "ambush")


def eastern_table(hand: tuple[str | None, ...] = AXIS_HAND) -> Table:
    """The six seats with the Axis under the commissar rule, hands dealt (None: a card drawn face down)."""
    data = m44(
        UNITS,
        board_type="OVERLORD",
        starting="PLAYER1",
        cards_player1=len(hand),
        options={"russian_commissar_rule": "AXIS"},
    )
    game = Table(_team_setup(data))
    for card in hand:
        game.accept(CardDrawn(seat=ALAIN, card=card))
    for card in ALLIED_HAND:
        game.accept(CardDrawn(seat=DENIS, card=card))
    return game


def _play(game: Table, seat: int, card: str) -> None:
    game.accept(CardPlayed(seat=seat, card=card), UnitsOrdered(seat=seat, units=()))


def _allied_turn(game: Table) -> None:
    """Denis hands Probe Centre to himself, plays it and draws."""
    game.accept(_gift(DENIS, (DENIS, "probe_centre")))
    _play(game, DENIS, "probe_centre")
    game.accept(CardDrawn(seat=DENIS, card="probe_centre"))


def _first_turn(game: Table, placed: tuple[str, ...]) -> None:
    """The Axis first turn: Probe Left to Bea from the hand, `placed` under the token, the draw."""
    game.accept(_gift(ALAIN, (BEA, "probe_left")))
    _play(game, BEA, "probe_left")
    for card in placed:
        game.accept(CardCommitted(seat=ALAIN, card=card))
    while game.state.active == 0:
        game.accept(CardDrawn(seat=ALAIN, card="direct_from_hq"))


# ---------------------------------------------------------------- M44-OV-8: the cards under the token


def test_a_team_table_under_the_commissar_rule_is_set_up():
    state = RULESET.initial(team_setup_for("meuse_line", options={"russian_commissar_rule": "ALLIES"}))
    assert state.teams and state.token == ()
    assert RULESET.initial(team_setup_for("meuse_line", options={"russian_commissar_rule": "AXIS"})).teams


def test_the_first_turn_hands_out_from_the_hand_then_places_cards_for_the_next():
    game = eastern_table()
    error = game.refused(CardCommitted(seat=ALAIN, card="attack_centre"))  # the hand-out comes first
    assert (error.rule_id, error.code) == ("M44-OV-8", "commit_timing")
    state = game.accept(_gift(ALAIN, (BEA, "probe_left")))  # nothing under the token: from the hand
    assert state.given[BEA].known == ("probe_left",)
    state = game.accept(CardCommitted(seat=ALAIN, card="attack_centre"))  # before the general plays: accepted
    _play(game, BEA, "probe_left")
    state = game.accept(CardCommitted(seat=ALAIN, card="assault_right"))
    assert state.token == ("attack_centre", "assault_right") and state.hands[0].known == (
        "recon_1_right",
        "counter_attack",
        "ambush",
    )
    # M44-OV-4 with the token counted: 3 in hand + 2 under the token of a hand of 6 leaves one to draw.
    state = game.accept(CardDrawn(seat=ALAIN, card="direct_from_hq"))
    assert state.active == 1 and state.token == ("attack_centre", "assault_right") and state.hands[0].size == 4


def test_the_draw_waits_for_a_card_under_the_token():
    game = eastern_table()
    game.accept(_gift(ALAIN, (BEA, "probe_left")))
    _play(game, BEA, "probe_left")
    error = game.refused(CardDrawn(seat=ALAIN, card="direct_from_hq"))
    assert (error.rule_id, error.code) == ("M44-OV-8", "place_first")
    assert not any(isinstance(e, CardDrawn) for e in RULESET.legal_events(game.state, ALAIN))
    game.accept(CardCommitted(seat=ALAIN, card="recon_1_right"))
    assert CardDrawn(seat=ALAIN) in RULESET.legal_events(game.state, ALAIN)


@pytest.mark.parametrize(
    ("placed", "event", "rule", "code"),
    [
        ((), CardCommitted(seat=BEA, card="attack_centre"), "M44-OV-8", "not_commander"),
        ((), CardCommitted(seat=DENIS, card="attack_left"), "M44-RU-1", "no_commissar"),
        ((), CardCommitted(seat=ALAIN, card="ambush"), "M44-RU-1", "ambush_kept"),
        ((), CardCommitted(seat=ALAIN, card="firefight"), "M44-5", "card_not_in_hand"),
        ((), CardCommitted(seat=ALAIN), "G-2", "name_the_card"),
        (
            ("probe_left", "attack_centre", "assault_right"),
            CardCommitted(seat=ALAIN, card="recon_1_right"),
            "M44-OV-8",
            "token_full",
        ),
        # Bea alone commands the left and takes one card there: a second left card could not go out.
        (("probe_left",), CardCommitted(seat=ALAIN, card="attack_left"), "M44-OV-8", "token_unplayable"),
    ],
)
def test_a_placement_breaking_the_eastern_front_rules_is_refused(placed, event, rule, code):
    hand = ("probe_left", "probe_left", "attack_centre", "assault_right", "recon_1_right", "attack_left", "ambush")
    game = eastern_table(hand)
    game.accept(_gift(ALAIN, (BEA, "probe_left")))
    for card in placed:
        game.accept(CardCommitted(seat=ALAIN, card=card))
    error = game.refused(event)
    assert (error.rule_id, error.code) == (rule, code)


def test_the_commander_keeps_one_card_in_hand():
    game = eastern_table(("probe_left", "attack_centre", "ambush"))
    game.accept(_gift(ALAIN, (BEA, "probe_left")))
    game.accept(CardCommitted(seat=ALAIN, card="attack_centre"))
    error = game.refused(CardCommitted(seat=ALAIN, card="ambush"))
    assert (error.rule_id, error.code) == ("M44-OV-8", "keep_one")
    _play(game, BEA, "probe_left")
    assert game.accept(CardDrawn(seat=ALAIN, card="probe_centre")).hands[0].size == 2  # Ambush kept, one drawn


def test_two_tactic_cards_and_a_third_card_cannot_all_go_to_two_generals():
    hand = ("probe_left", "direct_from_hq", "move_out", "attack_centre", "ambush")
    game = eastern_table(hand)
    game.accept(_gift(ALAIN, (BEA, "probe_left")))
    game.accept(CardCommitted(seat=ALAIN, card="direct_from_hq"), CardCommitted(seat=ALAIN, card="move_out"))
    error = game.refused(CardCommitted(seat=ALAIN, card="attack_centre"))
    assert (error.rule_id, error.code) == ("M44-OV-8", "token_unplayable")


def test_the_next_turn_hands_out_every_card_under_the_token():
    game = eastern_table()
    _first_turn(game, ("attack_centre", "assault_right"))
    _allied_turn(game)
    error = game.refused(_gift(ALAIN, (CHLOE, "attack_centre")))
    assert (error.rule_id, error.code) == ("M44-OV-8", "token_cards")
    error = game.refused(_gift(ALAIN, (BEA, "probe_left")))  # a card of the hand instead of the token's
    assert error.code == "token_cards"
    state = game.accept(_gift(ALAIN, (CHLOE, "attack_centre"), (CHLOE, "assault_right")))
    assert state.token == () and state.given[CHLOE].known == ("attack_centre", "assault_right")
    assert state.hands[0].known == ("recon_1_right", "counter_attack", "ambush", "direct_from_hq")  # untouched


def test_the_token_s_cards_go_out_even_from_an_empty_hand():
    game = eastern_table()
    _first_turn(game, ("attack_centre", "assault_right"))
    _allied_turn(game)
    # As when Italian High Command has taken the commander's last cards (M44-IT-1).
    state = msgspec.structs.replace(game.state, hands=(Hand(), game.state.hands[1]))
    RULESET.validate(state, _gift(ALAIN, (CHLOE, "attack_centre"), (CHLOE, "assault_right")))
    with pytest.raises(RuleError) as error:  # but nothing goes out at once from it
        RULESET.validate(state, _gift(ALAIN, (CHLOE, "attack_centre"), (CHLOE, "assault_right"), (BEA, None)))
    assert error.value.rule_id == "M44-OV-10"
    offered = [e for e in RULESET.legal_events(state, ALAIN) if isinstance(e, CardsGiven)]
    assert offered and all(len(e.gifts) == 2 for e in offered)


def test_the_token_s_cards_obey_the_hand_out_limits():
    game = eastern_table()
    _first_turn(game, ("attack_centre", "assault_right"))
    _allied_turn(game)
    error = game.refused(_gift(ALAIN, (BEA, "attack_centre"), (CHLOE, "assault_right")))
    assert (error.rule_id, error.code) == ("M44-OV-3", "wrong_general")


def test_a_card_placed_face_down_is_named_as_it_is_handed_out():
    game = eastern_table(("probe_left", None, None, None, "ambush"))
    game.accept(_gift(ALAIN, (BEA, "probe_left")))
    state = game.accept(CardCommitted(seat=ALAIN), CardCommitted(seat=ALAIN))
    assert state.token == (None, None) and state.hands[0].unknown == 1
    _play(game, BEA, "probe_left")
    game.accept(CardDrawn(seat=ALAIN, card="air_power"))  # 2 in hand + 2 under the token of 5: one drawn
    _allied_turn(game)
    # Air Power's one copy is in the hand, so the token cannot hold it.
    error = game.refused(_gift(ALAIN, (CHLOE, "air_power"), (BEA, "probe_left")))
    assert (error.rule_id, error.code) == ("G-2", "too_many_copies")
    error = game.refused(_gift(ALAIN, (CHLOE, "close_assault"), (BEA, "close_assault")))  # one copy, named twice
    assert (error.rule_id, error.code) == ("G-2", "too_many_copies")
    state = game.accept(_gift(ALAIN, (CHLOE, "attack_centre"), (BEA, None)))
    assert state.token == () and state.given[BEA].unknown == 1 and state.given[CHLOE].known == ("attack_centre",)
    assert state.hands[0].known == ("ambush", "air_power") and state.hands[0].unknown == 1  # the hand gave nothing


# ---------------------------------------------------------------- M44-OV-10: what goes out at once


def test_counter_attack_goes_out_at_once_beside_fewer_than_three_cards():
    game = eastern_table()
    _first_turn(game, ("attack_centre", "assault_right"))
    _allied_turn(game)
    state = game.accept(_gift(ALAIN, (CHLOE, "attack_centre"), (CHLOE, "assault_right"), (BEA, "counter_attack")))
    assert state.given[BEA].known == ("counter_attack",)
    assert state.hands[0].known == ("recon_1_right", "ambush", "direct_from_hq")
    _play(game, BEA, "counter_attack")  # copying the Allied Probe Centre, on Bea's left
    assert game.state.played_in == ("left",) and game.state.discard[-1] == "counter_attack"


def test_recon_1_and_other_cards_do_not_go_out_at_once():
    game = eastern_table()
    _first_turn(game, ("attack_centre",))
    _allied_turn(game)
    for extra, card in (((CHLOE, "recon_1_right"),), "recon_1_right"), (((BEA, "direct_from_hq"),), "direct_from_hq"):
        error = game.refused(_gift(ALAIN, (CHLOE, "attack_centre"), *extra))
        assert (error.rule_id, error.code, error.details["card"]) == ("M44-OV-10", "not_at_once", card)
    assert (
        "Recon 1 goes under the token first"
        in game.refused(_gift(ALAIN, (CHLOE, "attack_centre"), (CHLOE, "recon_1_right"))).message
    )


def test_with_three_cards_under_the_token_nothing_goes_out_at_once():
    game = eastern_table(("probe_left", "attack_left", "attack_centre", "assault_right", "counter_attack", "ambush"))
    _first_turn(game, ("attack_left", "attack_centre", "assault_right"))
    _allied_turn(game)
    token = ((BEA, "attack_left"), (CHLOE, "attack_centre"), (CHLOE, "assault_right"))
    error = game.refused(_gift(ALAIN, *token, (BEA, "counter_attack")))
    assert (error.rule_id, error.code) == ("M44-OV-10", "token_full")
    error = game.refused(_gift(ALAIN, (CHLOE, "attack_centre"), (CHLOE, "assault_right"), (BEA, "counter_attack")))
    assert (error.rule_id, error.code) == ("M44-OV-8", "token_cards")
    game.accept(_gift(ALAIN, *token))


def test_ambush_answers_an_enemy_assault_from_the_hand_as_usual():
    game = eastern_table()
    _first_turn(game, ("attack_centre",))
    game.accept(_gift(DENIS, (DENIS, "probe_centre")), CardPlayed(seat=DENIS, card="probe_centre"))
    game.accept(UnitsOrdered(seat=DENIS, units=(4,)))  # the Allied centre unit, next to the Axis unit 1
    ambush = CardPlayed(seat=ALAIN, card="ambush", target=(4, 26))
    assert ambush in RULESET.legal_events(game.state, ALAIN)
    state = game.accept(ambush)
    assert "ambush" not in state.hands[0].known and state.token == ("attack_centre",) and state.ambush == 0


# ---------------------------------------------------------------- legal events


def test_the_hand_outs_offered_are_the_token_s_cards_with_counter_attack_at_most():
    game = eastern_table()
    _first_turn(game, ("attack_centre", "assault_right"))
    _allied_turn(game)
    offered = [e for e in RULESET.legal_events(game.state, ALAIN) if isinstance(e, CardsGiven)]
    assert offered and not any(isinstance(e, CardCommitted) for e in RULESET.legal_events(game.state, ALAIN))
    cards = {tuple(sorted(str(g.card) for g in e.gifts)) for e in offered}
    assert cards == {
        ("assault_right", "attack_centre"),
        ("assault_right", "attack_centre", "counter_attack"),
    }
    # Exactly the hand-outs accepted, among every split of the token's cards and the hand's between seats.
    hand = game.state.hands[0].known
    token = game.state.token
    lists = [list(part) for n in range(1, len(token) + 1) for part in combinations(token, n)]
    lists += [[*token, card] for card in hand]
    accepted = set()
    for cards in lists:
        for to in product((ALAIN, BEA, CHLOE, DENIS), repeat=len(cards)):
            gifts = tuple(Gift(general=g, card=c) for g, c in zip(to, cards, strict=True))
            event = CardsGiven(seat=ALAIN, gifts=gifts)
            try:
                game.folded.check(event)
            except RuleError:
                continue
            accepted.add(tuple(sorted((g.general, str(g.card)) for g in event.gifts)))
    assert accepted == {tuple(sorted((g.general, str(g.card)) for g in e.gifts)) for e in offered}


def test_the_placements_offered_are_exactly_those_accepted():
    hand = ("probe_left", "attack_centre", "assault_right", "attack_left", "direct_from_hq", "move_out", "ambush")
    game = eastern_table(hand)
    game.accept(_gift(ALAIN, (BEA, "probe_left")))
    for placed in ("attack_centre", "direct_from_hq"):
        candidates = [CardCommitted(seat=seat, card=card) for seat in range(6) for card in (*CARDS, None)]
        offered = {
            e for seat in range(6) for e in RULESET.legal_events(game.state, seat) if isinstance(e, CardCommitted)
        }
        accepted = set()
        for event in candidates:
            try:
                game.folded.check(event)
            except RuleError:
                continue
            accepted.add(event)
        assert offered == accepted and offered
        assert CardCommitted(seat=ALAIN, card="ambush") not in offered
        game.accept(CardCommitted(seat=ALAIN, card=placed))
    # Direct from HQ can only go to Bea (Chloe takes the centre card), so only a right card still fits.
    offered = {e.card for e in RULESET.legal_events(game.state, ALAIN) if isinstance(e, CardCommitted)}
    assert offered == {"assault_right"}  # Bea holds the tactic card: no left card, no second tactic card


# ---------------------------------------------------------------- hidden information (G-2)


def test_the_cards_under_the_token_are_hidden_from_the_enemy_and_the_public():
    game = eastern_table()
    game.accept(_gift(ALAIN, (BEA, "probe_left")))
    before = game.state
    event = CardCommitted(seat=ALAIN, card="attack_centre")
    after = game.accept(event)
    for viewer in (Viewer.public(), Viewer.of_seat(DENIS), Viewer.of_seat(EMMA)):
        assert RULESET.view(after, viewer)["hands"][0]["under_token"] == {"count": 1}
        line = RULESET.narrate(before, event, after, viewer).text
        assert line == "Axis (Alain) place a card under the commissar token for their next turn."
        assert "attack_centre" not in msgspec.json.encode(RULESET.view(after, viewer)).decode()
    for viewer in (Viewer.of_seat(BEA), Viewer.full()):  # the side's own seats see it
        assert RULESET.view(after, viewer)["hands"][0]["under_token"] == {"count": 1, "cards": ["attack_centre"]}
        assert "Attack Centre" in RULESET.narrate(before, event, after, viewer).text


def test_the_hand_out_from_the_token_is_narrated_by_counts_to_the_enemy():
    game = eastern_table()
    _first_turn(game, ("attack_centre", "assault_right"))
    _allied_turn(game)
    before = game.state
    event = _gift(ALAIN, (CHLOE, "attack_centre"), (CHLOE, "assault_right"), (BEA, "counter_attack"))
    after = game.accept(event)
    public = RULESET.narrate(before, event, after, Viewer.of_seat(FRED)).text
    assert public == (
        "Axis (Alain) hand out the 2 cards from under the commissar token and 1 card at once from the hand as "
        "commander-in-chief: 2 cards to Chloe, 1 card to Bea."
    )
    own = RULESET.narrate(before, event, after, Viewer.of_seat(CHLOE)).text
    assert own.endswith(": Attack Centre and Assault Right to Chloe, Counter-Attack to Bea.")


def test_random_eastern_front_games_tell_the_public_the_same_when_hidden_cards_are_swapped():
    from tests.test_hidden_information import swap_and_compare

    compared = 0
    for seed in range(3):
        setup = team_setup_for(
            TEAM_SCENARIOS[seed % len(TEAM_SCENARIOS)],
            options={"russian_commissar_rule": "AXIS" if seed % 2 else "ALLIES"},
            initiative=TEST_INITIATIVE,
        )
        table = RandomTable(random.Random(700 + seed), setup, face_down=0.0)
        table.play()
        placements = [e for e in table.events if isinstance(e, CardCommitted)]
        assert placements  # the token is used, so its cards are among those swapped
        compared += swap_and_compare(RULESET, table.events, random.Random(seed), times=6)
    assert compared > 0
