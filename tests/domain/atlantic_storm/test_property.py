"""Property test: seeded random tables play whole games of legal moves; invariants after every event."""

from __future__ import annotations

import os
import random
import time
from collections import Counter

import msgspec
import pytest

from domain.atlantic_storm import RULESET
from domain.record import fold
from domain.ruleset import Viewer
from testkit.players.atlantic_storm import RandomGame, generated_catalogue, places

GAMES = 300  # every table size and both variants; TABLELOG_HEAVY scales it
CATALOGUES = [generated_catalogue(seed) for seed in range(4)]


def check_invariants(game: RandomGame) -> None:
    truth = game.truth.state
    record = game.record.state
    # Every force card in exactly one place: the state's places plus the physical deck.
    placed = places(truth) + game.deck
    assert len(placed) == len(game.forces) and set(placed) == game.force_set, _debug_diff(game)
    assert truth.deck == len(game.deck)
    # The scorekeeper's record (some cards face down) conserves cards too (G-2).
    known = places(record)
    assert len(known) == len(record.located) and set(known) == record.located
    assert len(record.located) + record.deck + sum(record.unknown) + record.discard_face_down == record.force_total
    if record.phase != truth.phase or record.decision != truth.decision:
        raise AssertionError("the two records disagree")
    # VP equal the VP of the cards each player holds (checked whenever what they hold changes).
    holdings = (truth.convoys_won, truth.captured)
    if holdings != game.checked_holdings or truth.phase == "over":
        game.checked_holdings = holdings
        result = RULESET.result(truth, Viewer.full())
        for seat, player in enumerate(result.players):
            held = truth.convoys_won[seat] + truth.captured[seat]
            assert player.score == sum(truth.cards[c].vp or 0 for c in held)
        assert RULESET.result(record, Viewer.full()) == result


def narrate_and_view(game: RandomGame) -> None:
    """A whole game's replay lines and views: plain text, JSON-encodable views, nothing hidden leaks."""
    folded = fold(RULESET, [game.record_started])
    for _, event in game.record.effective_events():
        after = folded.apply(event)
        line = RULESET.narrate(folded.state, event, after.state, Viewer.full())
        assert line.text and "None" not in line.text
        folded = after
        public = RULESET.view(folded.state, Viewer.public())
        msgspec.json.encode(public)
        assert all("hand" not in p for p in public["players"])
        for seat in range(folded.state.players):
            mine = RULESET.view(folded.state, Viewer.of_seat(seat))
            assert [("hand" in p) for p in mine["players"]] == [s == seat for s in range(folded.state.players)]


def play_games(count: int, seed: int) -> int:
    rng = random.Random(seed)
    events = 0
    for number in range(count):
        players = 2 + number % 5
        variant = "advanced" if players > 2 and number % 2 else "basic"
        game = RandomGame(rng, CATALOGUES[number % len(CATALOGUES)], players, variant)
        game.play(check_invariants)
        if number % 50 == 0:
            narrate_and_view(game)
        result = RULESET.result(game.truth.state, Viewer.full())
        assert result.finished
        assert game.truth.state.battles_fought == 20
        assert result.winners
        events += game.events
    return events


def test_three_hundred_random_games_of_two_to_six_players_play_to_the_end_with_every_card_in_one_place():
    start = time.perf_counter()
    events = play_games(GAMES, seed=1997)
    assert events > GAMES * 100
    print(f"{GAMES} games, {events} events, {time.perf_counter() - start:.1f}s")


@pytest.mark.heavy
@pytest.mark.skipif(not os.environ.get("TABLELOG_HEAVY"), reason="set TABLELOG_HEAVY=<multiplier>")
def test_many_more_random_games_play_to_the_end():
    multiplier = int(os.environ.get("TABLELOG_HEAVY", "1"))
    play_games(GAMES * 10 * multiplier, seed=4242)


def _debug_diff(game: RandomGame) -> str:
    placed = Counter(places(game.truth.state)) + Counter(game.deck)
    expected = Counter(game.forces)
    return f"extra={placed - expected} missing={expected - placed}"
