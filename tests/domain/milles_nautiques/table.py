"""A simulated physical table for Milles Nautiques tests: a shuffled deck the harness holds, hands whose
cards the record may or may not know, and a seeded random player that reports only legal events
(chosen from `legal_events`). It also counts where every card is, independently of the rules' own
bookkeeping, so the property test can check conservation (G-2) after every event."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from domain.milles_nautiques import RULESET
from domain.milles_nautiques.catalogue import CARDS, CONVOY_CARDS, DECK_SIZE, HAND_SIZE, INDEX
from domain.milles_nautiques.events import (
    CARD_OF_EVENT,
    ConvoyPlaced,
    ConvoysRevealed,
    Dealt,
    Discarded,
    Drew,
    MilesPlayed,
    RadarPlayed,
    RevealedConvoy,
    WarshipPlayed,
)
from domain.milles_nautiques.state import State
from domain.record import GameStarted
from domain.ruleset import Player, Setup

NAMES = ("Alain", "Bea", "Claire", "Damien", "Elise", "Fanny")


def make_setup(players: int, teams: bool = False, dealer: int | None = None, round_number: int = 1) -> Setup:
    """A table of `players` named players; in team play partners face each other (MN-18)."""
    half = players // 2
    options: dict[str, Any] = {"round": round_number}
    if dealer is not None:
        options["dealer"] = dealer
    return Setup(
        players=tuple(
            Player(player_id=f"p{seat + 1}", name=NAMES[seat], seat=seat,
                   team=(seat % half) + 1 if teams else None)
            for seat in range(players)
        ),
        options=options,
    )


def started(setup: Setup) -> GameStarted:
    return GameStarted(ruleset=RULESET.name, ruleset_version=RULESET.version, setup=setup)


def census(state: State) -> tuple[dict[str, int], Counter[str]]:
    """Where the cards are (stock, hands, rows, convoy piles, port, captors' piles, discard), and the
    known cards by kind, counted from the state's places rather than its `seen` bookkeeping."""
    places: Counter[str] = Counter()
    known: Counter[str] = Counter()
    places["stock"] = state.stock
    for hand in state.hands:
        places["hands"] += hand.size
        known.update(hand.known)
    for convoy in state.convoys:
        places[{"at_sea": "rows", "arrived": "port", "destroyed": "captured"}[convoy.status]] += 1
        if convoy.card is not None:
            known[convoy.card] += 1
        pile = list(convoy.miles)
        pile += ["alert"] * convoy.alert + ["storm"] * convoy.storm + ["neutral_flag"] * convoy.neutral
        pile += ["plane"] * (convoy.plane is not None) + ["mine"] * (convoy.mine is not None)
        pile += [card for ship in convoy.battle for card in ship.cards]
        pile += ["radar"] * (convoy.detected and convoy.status != "destroyed")
        places["piles"] += len(pile)
        known.update(pile)
    for card, count in zip(CARDS, state.discard, strict=True):
        places["discard"] += count
        known[card.name] += count
    return dict(places), known


def cards_of(event: Any) -> tuple[str, int] | None:
    """The card kind and number of copies a play takes from the hand (None: a face-down convoy)."""
    if isinstance(event, ConvoyPlaced):
        return (event.card, 1) if event.card else None
    if isinstance(event, MilesPlayed | Discarded):
        return event.card, 1
    if isinstance(event, WarshipPlayed):
        return event.ship, 2 if event.paired else 1
    return CARD_OF_EVENT[type(event)], 1


class Table:
    """One round at a physical table. `known` is the chance that the record is told a card's identity
    when it is dealt or drawn; `hidden` the chance a convoy is laid without naming it."""

    def __init__(self, rng: random.Random, setup: Setup, known: float = 1.0, hidden: float = 0.0):
        self.rng = rng
        self.setup = setup
        self.known = known
        self.hidden = hidden
        self.deck = [card.name for card in CARDS for _ in range(card.count)]
        rng.shuffle(self.deck)
        self.hands: list[list[tuple[str, bool]]] = [[] for _ in setup.players]
        self.truth: dict[int, str] = {}
        self.state: State = RULESET.initial(setup)
        self.events: list[Any] = [started(setup)]

    def apply(self, event: Any) -> None:
        RULESET.validate(self.state, event)
        self.state = RULESET.evolve(self.state, event)
        self.events.append(event)

    def _take(self, seat: int, card: str, copies: int) -> None:
        hand = self.hands[seat]
        for _ in range(copies):  # as the rules do: known copies first (G-2)
            index = next((i for i, c in enumerate(hand) if c == (card, True)), None)
            if index is None:
                index = next(i for i, c in enumerate(hand) if c == (card, False))
            hand.pop(index)

    def deal(self, dealer: int) -> Dealt:
        count = len(self.hands)
        for turn in range(HAND_SIZE * count):
            seat = (dealer + 1 + turn) % count
            self.hands[seat].append((self.deck.pop(), self.rng.random() < self.known))
        known = tuple(tuple(card for card, k in hand if k) for hand in self.hands)
        return Dealt(dealer=dealer, hands=known if any(known) else ())

    def next_event(self) -> Any:
        """The event the table reports next (the state must not be over)."""
        state = self.state
        if state.phase == "deal":
            dealer = state.dealer if state.dealer is not None else self.rng.randrange(len(self.hands))
            return self.deal(dealer)
        if state.phase == "reveal":
            return ConvoysRevealed(convoys=tuple(RevealedConvoy(convoy=c.number, card=self.truth[c.number])
                                                 for c in state.convoys if c.card is None))
        seat = state.to_play
        if state.phase in ("draw", "extra_draw"):
            card = self.deck.pop()
            known = self.rng.random() < self.known
            self.hands[seat].append((card, known))
            return Drew(seat=seat, card=card if known else None)
        held = Counter(card for card, _ in self.hands[seat])
        hidden_convoys = [card for card, k in self.hands[seat] if not k and card in CONVOY_CARDS]
        plays, discards = [], []
        for event in RULESET.legal_events(state, seat):
            needed = cards_of(event)
            if needed is None:
                if hidden_convoys:
                    plays.append(event)
            elif held[needed[0]] >= needed[1]:
                (discards if isinstance(event, Discarded) else plays).append(event)
        hide = hidden_convoys and self.rng.random() < self.hidden
        if hide:
            plays = [e for e in plays if isinstance(e, ConvoyPlaced) and e.card is None] or plays
        else:
            plays = [e for e in plays if not (isinstance(e, ConvoyPlaced) and e.card is None)] or plays
        choice = self.rng.choice(plays if plays and self.rng.random() < 0.85 else discards or plays)
        self._play(seat, choice, hidden_convoys)
        if isinstance(choice, RadarPlayed) and state.convoys[choice.convoy - 1].card is None \
                and self.rng.random() < 0.5:
            choice = RadarPlayed(seat=seat, convoy=choice.convoy, revealed=self.truth[choice.convoy])
        return choice

    def _play(self, seat: int, event: Any, hidden_convoys: list[str]) -> None:
        needed = cards_of(event)
        if needed is None:
            card = self.rng.choice(hidden_convoys)
            self.hands[seat].remove((card, False))
            self.truth[len(self.state.convoys) + 1] = card
            return
        self._take(seat, *needed)
        if isinstance(event, ConvoyPlaced):
            self.truth[len(self.state.convoys) + 1] = needed[0]

    def check(self) -> None:
        """Every card in exactly one place, the record's knowledge matches the table, scores >= 0."""
        state = self.state
        places, known = census(state)
        assert sum(places.values()) == DECK_SIZE, places
        assert known == Counter({card.name: state.seen[INDEX[card.name]] for card in CARDS
                                 if state.seen[INDEX[card.name]]}), (known, state.seen)
        assert state.stock == len(self.deck)
        unknown_physical: Counter[str] = Counter(self.deck)
        for seat, hand in enumerate(self.hands):
            record = state.hands[seat]
            assert record.size == len(hand)
            assert Counter(record.known) == Counter(card for card, k in hand if k)
            unknown_physical.update(card for card, k in hand if not k)
        unknown_physical.update(self.truth[c.number] for c in state.convoys if c.card is None)
        for c in state.convoys:
            if c.card is not None and c.number in self.truth:
                assert c.card == self.truth[c.number]
        for card in CARDS:  # each kind: known places + the table's face-down cards = the deck
            assert known[card.name] + unknown_physical[card.name] == card.count, card.name
        for player in RULESET.result(state).players:
            assert player.score >= 0
            assert all(value >= 0 for value in player.breakdown.values())

    def play(self, on_event: Callable[[], None] | None = None, limit: int = 1000) -> State:
        """Play the round to its end."""
        for _ in range(limit):
            if self.state.phase == "over":
                return self.state
            self.apply(self.next_event())
            if on_event is not None:
                on_event()
        raise AssertionError("the round did not end")
