"""A seeded random table for the property tests: a physical deck the harness shuffles, players that make
only legal moves (from `legal_events`), and two records of the same game: the truth (every card named)
and the scorekeeper's (some draws recorded face down, G-2)."""

from __future__ import annotations

import random
from typing import Any

from domain.atlantic_storm import RULESET
from domain.atlantic_storm.events import (
    CardsDealt,
    CardsDrawn,
    CardsPlayed,
    ConvoysCut,
    ConvoyTurned,
    DeckReshuffled,
    IntelligencePlayed,
)
from domain.atlantic_storm.state import State
from domain.record import Folded, start
from tests.domain.atlantic_storm.support import catalogue_ref, make_setup, started


class RandomGame:
    """One game played to the end by random legal moves."""

    def __init__(
        self, rng: random.Random, catalogue: bytes, players: int, variant: str, hidden: float = 0.2, audit: float = 0.02
    ) -> None:
        self.rng = rng
        names = ["Alain", "Bea", "Carl", "Dana", "Eve", "Farid"][:players]
        setup = make_setup(names, variant=variant, data=catalogue, ref=_parsed(catalogue))
        self.record_started = started(setup)
        self.truth: Folded = start(RULESET, started(setup))
        self.record: Folded = start(RULESET, started(setup))
        state: State = self.truth.state
        self.forces = sorted(n for n, c in state.cards.items() if c.category != "convoy")
        convoys = sorted(n for n, c in state.cards.items() if c.category == "convoy")
        rng.shuffle(self.forces)
        self.force_set = set(self.forces)
        self.deck = list(self.forces)
        rng.shuffle(convoys)
        self.all_convoys = list(convoys)
        size = state.pile_size * (2 if variant == "advanced" else 1)
        self.convoy_pile = convoys[:size]
        self.hidden = hidden
        self.audit = audit
        self.events = 0
        self.checked_holdings: Any = None

    def play(self, check: Any) -> None:
        """Play to the end, calling `check(self)` after every event."""
        while self.truth.state.phase != "over":
            truth_event, record_event = self.next_events()
            self.truth = self.truth.accept(truth_event)
            self.record = self.record.accept(record_event)
            self.events += 1
            check(self)

    def next_events(self) -> tuple[Any, Any]:
        state: State = self.truth.state
        if state.phase == "cut":
            cuts = tuple(self.rng.sample(self.all_convoys, state.players))
            return ConvoysCut(cuts=cuts), ConvoysCut(cuts=cuts)
        for seat in range(state.players):
            options = RULESET.legal_events(state, seat)
            if options:
                if self.rng.random() < self.audit:
                    for option in options:  # everything listed is accepted (chance forms included)
                        RULESET.validate(state, option)
                return self.chance(state, self.choose(options))
        raise AssertionError(f"nobody can move at phase {state.phase}")

    def choose(self, options: list[Any]) -> Any:
        """Uniform, except that a player who can play mostly plays (a table of discards tests little)."""
        plays = [o for o in options if isinstance(o, CardsPlayed | IntelligencePlayed)]
        if plays and self.rng.random() < 0.75:
            return self.rng.choice(plays)
        return self.rng.choice(options)

    def chance(self, state: State, event: Any) -> tuple[Any, Any]:
        """Fill a listed form with what the physical table did."""
        if isinstance(event, CardsDealt):
            hands = tuple(tuple(self.deck.pop() for _ in hand) for hand in event.hands)
            return CardsDealt(hands=hands), CardsDealt(hands=tuple(self.veil(h) for h in hands))
        if isinstance(event, CardsDrawn):
            cards = tuple(self.deck.pop() for _ in event.cards)
            return (CardsDrawn(seat=event.seat, cards=cards), CardsDrawn(seat=event.seat, cards=self.veil(cards)))
        if isinstance(event, DeckReshuffled):
            self.deck = list(state.discard)
            self.rng.shuffle(self.deck)
            return event, event
        if isinstance(event, ConvoyTurned):
            top = self.convoy_pile.pop()
            if event.discarded is None:
                real = ConvoyTurned(seat=event.seat, convoy=top)
            else:
                other = self.convoy_pile.pop()
                keep, drop = (top, other) if self.rng.random() < 0.5 else (other, top)
                real = ConvoyTurned(seat=event.seat, convoy=keep, discarded=drop)
            return real, real
        return event, event

    def veil(self, cards: tuple[str, ...]) -> tuple[str | None, ...]:
        return tuple(None if self.rng.random() < self.hidden else c for c in cards)


_PARSED: dict[bytes, Any] = {}


def _parsed(catalogue: bytes) -> Any:
    """Parse each generated catalogue once (the import is not what these games test)."""
    if catalogue not in _PARSED:
        _PARSED[catalogue] = catalogue_ref(catalogue)
    return _PARSED[catalogue]


def places(state: State) -> list[str]:
    """Every force card the state places (hands, table, under the convoy, discard, captured), once each
    if all is well."""
    out: list[str] = list(state.discard)
    for hand in state.hands:
        out += hand
    for pile in state.captured:
        out += pile
    battle = state.battle
    if battle is not None:
        if battle.outcome is not None:
            out += [c for c in battle.outcome.trick if state.cards[c].category != "convoy"]
            out += battle.outcome.to_discard
        else:
            for play in battle.plays:
                if not play.cancelled:
                    out += play.cards()
            out += [card for _, card in battle.under]
    return out
