"""Property test: a seeded random table plays whole rounds with only legal events (2 to 6 players,
teams and not, cards known or face down), and after every event each of the 106 cards is in exactly
one place and no score is negative. Scale up locally with TABLELOG_HEAVY=<multiplier>."""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from domain.milles_nautiques import RULESET
from domain.record import fold
from domain.ruleset import Viewer
from testkit.players.milles_nautiques import Table, make_setup

ROUNDS = 600  # every way a round ends, every table size, in about 8 s; TABLELOG_HEAVY scales it


def play_rounds(first_seed: int, count: int) -> Counter[str]:
    """Play `count` rounds from consecutive seeds; return how they ended and how they were played."""
    seen: Counter[str] = Counter()
    for seed in range(first_seed, first_seed + count):
        rng = random.Random(seed)
        players = rng.randint(2, 6)
        teams = players in (4, 6) and rng.random() < 0.5
        dealer = rng.randrange(players) if rng.random() < 0.5 else None
        table = Table(
            rng, make_setup(players, teams, dealer), known=rng.choice((1.0, 0.5, 0.0)), hidden=rng.choice((0.0, 0.4))
        )
        state = table.play(table.check)
        result = RULESET.result(state, Viewer.public())
        assert result.finished
        assert bool(result.winners) != result.void
        if seed % 50 == 0:  # the record replays to the same state with evolve alone
            assert fold(RULESET, table.events).state == state
        seen["void" if result.void else state.ended] += 1
        seen[f"players_{players}{'_teams' if teams else ''}"] += 1
        seen.update(table.counts)
    return seen


def test_six_hundred_random_rounds_keep_every_card_in_one_place():
    seen = play_rounds(0, ROUNDS)
    assert sum(seen[key] for key in ("forty", "cards", "void")) == ROUNDS
    assert all(seen[key] for key in ("forty", "cards", "void"))  # every way a round ends was played
    for players in range(2, 7):
        assert seen[f"players_{players}"]
    assert seen["players_4_teams"] and seen["players_6_teams"]
    assert seen["face_down_convoys"] and seen["mid_round_reveals"]


@pytest.mark.heavy
@pytest.mark.skipif(not os.environ.get("TABLELOG_HEAVY"), reason="set TABLELOG_HEAVY=<multiplier>")
def test_many_more_random_rounds_keep_every_card_in_one_place():
    count = ROUNDS * int(os.environ.get("TABLELOG_HEAVY", "1"))
    seen = play_rounds(ROUNDS, count)
    assert sum(seen[key] for key in ("forty", "cards", "void")) == count
