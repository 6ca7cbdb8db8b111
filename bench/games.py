"""Games to measure with: each game's seeded random player from its tests (only legal moves, chance
from a physical deck the player shuffles), and long Tally games for seeks of any length.

The random players live under `tests/domain/<game>/`; they are imported, not copied, so the bench
plays exactly what the property tests play. A game whose package or player cannot be imported yet
is skipped and named in the output.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

from domain import registry
from domain.record import GameStarted
from domain.registry import Rulesets
from domain.ruleset import Player, Ruleset, Setup

Game = list[Any]
"""A whole stream: the `GameStarted` first, then the game's events as the record holds them."""

GAME_MODULES = {
    "milles-nautiques": "domain.milles_nautiques",
    "atlantic-storm": "domain.atlantic_storm",
    "memoire-44": "domain.memoire44",
}


def _milles_nautiques(rng: random.Random) -> Game:
    from testkit.players.milles_nautiques import Table, make_setup

    players = rng.randint(2, 6)
    teams = players in (4, 6) and rng.random() < 0.5
    # Some cards known and some face down, as club scorekeepers record them (G-2).
    table = Table(rng, make_setup(players, teams), known=rng.choice((1.0, 0.5)), hidden=rng.choice((0.0, 0.4)))
    table.play()
    return list(table.events)


def _atlantic_storm(rng: random.Random) -> Game:
    from testkit.players.atlantic_storm import RandomGame, generated_catalogue, started

    players = rng.randint(2, 6)
    variant = "advanced" if players > 2 and rng.random() < 0.5 else "basic"
    game = RandomGame(rng, generated_catalogue(rng.randrange(4)), players, variant)
    game.play(lambda _: None)
    # The scorekeeper's record (some draws face down) is what the service stores.
    head = started(game.record.setup)
    return [head, *(event for _, event in game.record.effective_events())]


def _memoire_44(rng: random.Random) -> Game:
    from domain.memoire44 import RULESET
    from testkit.players.memoire44 import RandomTable, setup_for

    scenarios = sorted(RULESET.resource_kinds["scenario"].builtin())
    table = RandomTable(rng, setup_for(rng.choice(scenarios)))
    table.play()
    return list(table.events)


PLAYERS: dict[str, Callable[[random.Random], Game]] = {
    "milles-nautiques": _milles_nautiques,
    "atlantic-storm": _atlantic_storm,
    "memoire-44": _memoire_44,
}


def game_rulesets() -> tuple[list[Ruleset], dict[str, str]]:
    """The three games' rulesets, and the games that could not be loaded with the reason."""
    loaded: list[Ruleset] = []
    missing: dict[str, str] = {}
    for name, module in GAME_MODULES.items():
        try:
            loaded.append(importlib.import_module(module).RULESET)
        except Exception as error:  # a game still being written: say so and go on
            missing[name] = f"{type(error).__name__}: {error}"
    return loaded, missing


def bench_rulesets() -> Rulesets:
    """The games a bench's records, projector and app serve: the built-in ones and Tally."""
    return registry.load(["testkit.tally"])


def random_games(ruleset: Ruleset, count: int, seed: int) -> list[Game]:
    """`count` whole games of `ruleset`, played by its seeded random player from seeds `seed`, `seed + 1`..."""
    play = PLAYERS[ruleset.name]
    return [play(random.Random(seed + number)) for number in range(count)]


def tally_game(length: int, seed: int) -> Game:
    """A Tally game (the test ruleset, whose target is never reached here) of exactly `length` events,
    for seeks in games longer than any real game's random play reaches."""
    from testkit.tally import Rolled

    rng = random.Random(seed)
    players = tuple(Player(player_id=f"p{seat}", name=name, seat=seat) for seat, name in enumerate(("Alain", "Bea")))
    head = GameStarted(
        ruleset="tally", ruleset_version="1.0.0", setup=Setup(players=players, options={"target": 10**9})
    )
    return [head, *(Rolled(seat=number % 2, face=rng.randint(1, 6)) for number in range(length - 1))]


def tally_ruleset() -> Ruleset:
    """The test ruleset Tally."""
    from testkit import tally

    return tally.RULESET
