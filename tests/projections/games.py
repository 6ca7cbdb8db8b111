"""Generated tally games for the projection tests: a seeded random table that reports only legal
events (via `legal_events`), notes now and then, and corrections (G-3) of the latest events."""

from __future__ import annotations

import random
from typing import Any

from domain.record import Correction, GameStarted, fold
from domain.ruleset import Player, Setup
from testkit.tally import RULESET, Noted
from tests.projections import hands

NAMES = ("Alain", "Bea", "Carla", "Dan")


def tally_setup(players: int = 2, target: int = 20) -> Setup:
    """A tally table of `players` seated club members p1, p2..."""
    return Setup(
        players=tuple(Player(player_id=f"p{seat + 1}", name=NAMES[seat], seat=seat) for seat in range(players)),
        options={"target": target},
    )


def random_tally_game(seed: int, length: int = 60, players: int = 2) -> list[Any]:
    """A stream of at most `length` events, the `GameStarted` first, with corrections."""
    rng = random.Random(seed)
    setup = tally_setup(players, target=rng.choice((15, 25, 40)))
    events: list[Any] = [GameStarted(ruleset=RULESET.name, ruleset_version=RULESET.version, setup=setup)]
    folded = fold(RULESET, events)
    while len(events) < length:
        roll = rng.random()
        over = folded.state.winner is not None
        if over and roll >= 0.5:
            break
        # A finished game is sometimes corrected, reopening it (G-3).
        if (roll < 0.1 or over) and folded.effective_count:
            event: Any = Correction(
                voids=rng.randint(1, min(3, folded.effective_count)), reason=rng.choice(("", "wrong die", "misheard"))
            )
        elif roll < 0.2:
            event = Noted(seat=rng.randrange(players), text=rng.choice(("coffee", "table bumped")))
        else:
            legal = [e for seat in range(players) for e in RULESET.legal_events(folded.state, seat) or []]
            if not legal:
                break
            event = rng.choice(legal)
        folded = folded.accept(event)
        events.append(event)
    return events


def tally_stream(setup: Setup, *events: Any) -> list[Any]:
    """A tally stream from its set-up and events, each checked as the service would (G-1)."""
    stream: list[Any] = [GameStarted(ruleset=RULESET.name, ruleset_version=RULESET.version, setup=setup)]
    folded = fold(RULESET, stream)
    for event in events:
        folded = folded.accept(event)
        stream.append(event)
    return stream


def duel_setup(first: tuple[str, str], second: tuple[str, str], target: int = 10) -> Setup:
    """A two-player tally table: (player id, name) at seat 0 then seat 1."""
    return Setup(
        players=(
            Player(player_id=first[0], name=first[1], seat=0),
            Player(player_id=second[0], name=second[1], seat=1),
        ),
        options={"target": target},
    )


def random_hands_game(seed: int, players: int = 3, teams: bool = False) -> list[Any]:
    """A whole game of the Hands test ruleset from a physical deck the harness shuffles: draws are
    reported known or face-down (G-2), plays name the real card, and corrections void the latest
    events (the harness then takes back the physical moves too)."""
    rng = random.Random(seed)
    deck = [card for card in hands.CARDS for _ in range(hands.COPIES)]
    rng.shuffle(deck)
    held: list[list[str]] = [[] for _ in range(players)]
    setup = Setup(
        players=tuple(
            Player(player_id=f"p{seat + 1}", name=NAMES[seat], seat=seat, team=seat % 2 if teams else None)
            for seat in range(players)
        )
    )
    events: list[Any] = [GameStarted(ruleset=hands.RULESET.name, ruleset_version=hands.RULESET.version, setup=setup)]
    folded = fold(hands.RULESET, events)
    moves: list[tuple[str, int, str]] = []  # the physical move of each event in effect
    while folded.state.phase != "over":
        state = folded.state
        if moves and rng.random() < 0.08:
            voids = rng.randint(1, min(3, len(moves)))
            for kind, seat, card in reversed(moves[-voids:]):
                if kind == "draw":
                    held[seat].remove(card)
                    deck.append(card)
                else:
                    held[seat].append(card)
            del moves[-voids:]
            event: Any = Correction(voids=voids, reason="misreported")
        elif state.phase == "draw":
            card = deck.pop()
            held[state.to_play].append(card)
            moves.append(("draw", state.to_play, card))
            event = hands.Drew(seat=state.to_play, card=card if rng.random() < 0.6 else None)
        else:
            card = rng.choice(held[state.to_play])
            held[state.to_play].remove(card)
            moves.append(("play", state.to_play, card))
            event = hands.Played(seat=state.to_play, card=card)
        folded = folded.accept(event)
        events.append(event)
    return events
