"""Seeded random players play whole scenarios with legal events only; invariants hold after every event
(figures within the unit's size, medals equal eliminations plus objectives held, cards conserved)."""

import os
import random

import pytest

from domain.memoire44 import RULESET
from domain.memoire44.events import (
    CardCommitted,
    CardsGiven,
    PlaneOrdered,
    ReinforcementPlaced,
    TurnEnded,
)
from domain.memoire44.rules.overlord import hands_out_token
from domain.record import start
from domain.ruleset import Viewer
from testkit.players.memoire44 import (
    AIR_VARIANTS,
    SCENARIOS,
    TEAM_SCENARIOS,
    TEAM_VARIANTS,
    TEST_INITIATIVE,
    VARIANTS,
    RandomTable,
    setup_for,
    team_setup_for,
)

GAMES = 150  # every shipped scenario several times over; TABLELOG_HEAVY scales it
VARIANT_GAMES = 126


def _play(count, first_seed=0, variants=({},), events=None):
    """Play `count` seeded games; the events of every game go to `events` when given."""
    finished = 0
    for seed in range(first_seed, first_seed + count):
        rng = random.Random(seed)
        sides = ("AXIS", "ALLIES") if seed % 4 < 2 else ("ALLIES", "AXIS")
        options = variants[seed % len(variants)]
        scenario = SCENARIOS[(seed // len(variants)) % len(SCENARIOS)]
        table = RandomTable(rng, setup_for(scenario, sides=sides, options=options))
        state = table.play()
        if events is not None:
            events.extend(table.events)
        result = RULESET.result(state, Viewer.public())
        assert result.finished and len(result.winners) == 1
        winner = state.seat_camp[result.winners[0]]
        assert state.medals[winner] >= state.victory[winner]
        finished += 1
    return finished


def test_random_players_finish_a_hundred_and_fifty_scenarios_without_error():
    # The shipped scenarios include a Breakthrough one with the nation rules and an Overlord one with Blitz.
    assert _play(GAMES) == GAMES


def test_random_players_finish_scenarios_at_night_and_in_bad_weather_without_error():
    assert _play(VARIANT_GAMES, first_seed=10_000, variants=VARIANTS) == VARIANT_GAMES


AIR_GAMES = 40


def test_random_players_finish_scenarios_with_the_air_rules_without_error():
    # Cards conserved includes the air combat deck; medals include the planes shot down.
    events = []
    assert _play(AIR_GAMES, first_seed=20_000, variants=AIR_VARIANTS, events=events) == AIR_GAMES
    # Air Sorties are played alone too, their turns ending with no draw (M44-AIR-15); the cards stay conserved.
    assert sum(isinstance(e, TurnEnded) for e in events) > AIR_GAMES // 4


BREAKTHROUGH_AIR_GAMES = 12


def test_random_players_give_planes_move_orders_on_a_breakthrough_board():
    # M44-AIR-14 on the shipped Breakthrough scenario, with the air variants: the invariants hold after every
    # event, and the random players do take move orders (the test pack gives Attack and Probe cards some).
    move_orders = 0
    for seed in range(70_000, 70_000 + BREAKTHROUGH_AIR_GAMES):
        sides = ("AXIS", "ALLIES") if seed % 2 else ("ALLIES", "AXIS")
        options = AIR_VARIANTS[seed % len(AIR_VARIANTS)]
        table = RandomTable(random.Random(seed), setup_for("sidi_ghazal", sides=sides, options=options))
        assert table.play().over
        move_orders += sum(isinstance(e, PlaneOrdered) and e.move_order for e in table.events)
    assert move_orders > BREAKTHROUGH_AIR_GAMES


DDAY_GAMES = 30


def test_random_players_land_reinforcements_and_keep_every_figure_accounted_for():
    # M44-DD-6 to M44-DD-9 on the D-Day scenario, with the expansions on top; the harness checks after every
    # event that figures stay within their units, that reserve + board + medal figures are conserved per
    # side and kind, and that medals are eliminations plus objectives held.
    placed = 0
    for seed in range(60_000, 60_000 + DDAY_GAMES):
        sides = ("AXIS", "ALLIES") if seed % 2 else ("ALLIES", "AXIS")
        options = ({}, *VARIANTS)[seed % (len(VARIANTS) + 1)]
        table = RandomTable(random.Random(seed), setup_for("pointe_du_verrier", sides=sides, options=options))
        state = table.play()
        assert state.over and state.reserve
        placed += sum(isinstance(e, ReinforcementPlaced) for e in table.events)
    assert placed > DDAY_GAMES  # reinforcements do land (the invariants are not checked on empty games)


TEAM_GAMES = 40


def _play_teams(count, first_seed=30_000, variants=TEAM_VARIANTS):
    return len(_team_tables(count, first_seed, variants))


def _team_tables(count, first_seed, variants):
    tables = []
    for seed in range(first_seed, first_seed + count):
        rng = random.Random(seed)
        sides = ("AXIS", "ALLIES") if seed % 4 < 2 else ("ALLIES", "AXIS")
        scenario = TEAM_SCENARIOS[seed % len(TEAM_SCENARIOS)]
        setup = team_setup_for(
            scenario,
            sides=sides,
            options=variants[(seed // len(TEAM_SCENARIOS)) % len(variants)],
            initiative=TEST_INITIATIVE if seed % 2 else None,
        )
        table = RandomTable(rng, setup)
        state = table.play()
        result = RULESET.result(state, Viewer.public())
        assert result.finished and len(result.winners) == 3  # the whole winning side
        assert {state.seat_camp[s] for s in result.winners} == {state.winner}
        tables.append(table)
    return tables


def test_random_team_tables_of_six_finish_overlord_games_without_error():
    assert _play_teams(TEAM_GAMES) == TEAM_GAMES


EASTERN_GAMES = 16
# The Eastern Front at team tables (M44-OV-8, M44-OV-10): the commissar on either side, beside other expansions.
EASTERN_VARIANTS = (
    {"russian_commissar_rule": "AXIS"},
    {"russian_commissar_rule": "ALLIES", "night_visibility_rules": True},
    {"russian_commissar_rule": "ALLIES", "weather": "snow", "combat_cards": True},
    {"russian_commissar_rule": "AXIS", "gung_ho": "ALLIES"},
)


def test_random_team_tables_on_the_eastern_front_hand_out_the_commissar_s_cards_and_conserve_cards():
    # The harness checks after every event that the record's draw pile is the physical one (hands, generals'
    # cards, the cards under the token, discards) and that each side holds at most its hand size.
    tables = _team_tables(EASTERN_GAMES, 50_000, EASTERN_VARIANTS)
    placed = handed = at_once = 0
    for table in tables:
        folded = start(RULESET, table.events[0])
        for event in table.events[1:]:
            state = folded.state
            if isinstance(event, CardCommitted):
                placed += 1
            if isinstance(event, CardsGiven) and hands_out_token(state, state.active):
                handed += 1
                at_once += len(event.gifts) > len(state.token)  # M44-OV-10: Counter-Attack beside the token's
            folded = folded.accept(event)
    assert placed > EASTERN_GAMES and handed > EASTERN_GAMES and at_once > 0


@pytest.mark.heavy
def test_random_players_finish_many_more_scenarios_without_error():
    multiplier = int(os.environ.get("TABLELOG_HEAVY", "0") or 0)
    if multiplier < 1:
        pytest.skip("set TABLELOG_HEAVY=<multiplier> to run")
    assert _play(GAMES * multiplier, first_seed=GAMES) == GAMES * multiplier
    assert _play(VARIANT_GAMES * multiplier, first_seed=20_000, variants=VARIANTS) == VARIANT_GAMES * multiplier
    assert _play_teams(TEAM_GAMES * multiplier, first_seed=40_000) == TEAM_GAMES * multiplier
    eastern = EASTERN_GAMES * multiplier
    assert _play_teams(eastern, first_seed=70_000, variants=EASTERN_VARIANTS) == eastern
