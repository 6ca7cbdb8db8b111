"""Milles Nautiques' seeded random table, for the property tests and the benches: a shuffled deck the
table holds, hands whose cards the record may or may not know, and a seeded random player that reports only legal events
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
from domain.ruleset import Player, Setup, Viewer

NAMES = ("Alain", "Bea", "Claire", "Damien", "Elise", "Fanny")


def make_setup(players: int, teams: bool = False, dealer: int | None = None, round_number: int = 1) -> Setup:
    """A table of `players` named players; in team play partners face each other (MN-18)."""
    half = players // 2
    options: dict[str, Any] = {"round": round_number}
    if dealer is not None:
        options["dealer"] = dealer
    return Setup(
        players=tuple(
            Player(player_id=f"p{seat + 1}", name=NAMES[seat], seat=seat, team=(seat % half) + 1 if teams else None)
            for seat in range(players)
        ),
        options=options,
    )


def started(setup: Setup) -> GameStarted:
    return GameStarted(ruleset=RULESET.name, ruleset_version=RULESET.version, setup=setup)


def census(state: State) -> tuple[dict[str, int], list[int]]:
    """Where the cards are (stock, hands, rows, convoy piles, port, captors' piles, discard), and the
    known cards by kind (catalogue order), counted from the state's places rather than its `seen`."""
    known = list(state.discard)
    hands = 0
    for hand in state.hands:
        hands += hand.size
        for card in hand.known:
            known[INDEX[card]] += 1
    places = {
        "stock": state.stock,
        "hands": hands,
        "rows": 0,
        "port": 0,
        "captured": 0,
        "piles": 0,
        "discard": sum(state.discard),
    }
    for convoy in state.convoys:
        places[_PLACE[convoy.status]] += 1
        if convoy.card is not None:
            known[INDEX[convoy.card]] += 1
        pile = list(convoy.miles)
        if convoy.alert:
            pile.append("alert")
        if convoy.storm:
            pile.append("storm")
        if convoy.neutral:
            pile.append("neutral_flag")
        if convoy.plane is not None:
            pile.append("plane")
        if convoy.mine is not None:
            pile.append("mine")
        if convoy.detected and convoy.status != "destroyed":
            pile.append("radar")
        pile.extend(card for ship in convoy.battle for card in ship.cards)
        places["piles"] += len(pile)
        for card in pile:
            known[INDEX[card]] += 1
    return places, known


_PLACE = {"at_sea": "rows", "arrived": "port", "destroyed": "captured"}


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
        self.counts: Counter[str] = Counter()  # what the round exercised
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
            return ConvoysRevealed(
                convoys=tuple(
                    RevealedConvoy(convoy=c.number, card=self.truth[c.number]) for c in state.convoys if c.card is None
                )
            )
        seat = state.to_play
        if state.phase in ("draw", "extra_draw"):
            card = self.deck.pop()
            known = self.rng.random() < self.known
            self.hands[seat].append((card, known))
            return Drew(seat=seat, card=card if known else None)
        face_down = [c.number for c in state.convoys if c.card is None]
        if face_down and self.rng.random() < 0.02:  # a player shows a convoy mid-round (MN-15 claim)
            number = self.rng.choice(face_down)
            self.counts["mid_round_reveals"] += 1
            return ConvoysRevealed(convoys=(RevealedConvoy(convoy=number, card=self.truth[number]),))
        held = Counter(card for card, _ in self.hands[seat])
        hidden_convoys = [card for card, k in self.hands[seat] if not k and card in CONVOY_CARDS]
        plays: list[Any] = []
        discards: list[Any] = []
        for event in RULESET.legal_events(state, seat) or ():
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
        if (
            isinstance(choice, RadarPlayed)
            and state.convoys[choice.convoy - 1].card is None
            and self.rng.random() < 0.5
        ):
            choice = RadarPlayed(seat=seat, convoy=choice.convoy, revealed=self.truth[choice.convoy])
        return choice

    def _play(self, seat: int, event: Any, hidden_convoys: list[str]) -> None:
        needed = cards_of(event)
        if needed is None:
            card = self.rng.choice(hidden_convoys)
            self.counts["face_down_convoys"] += 1
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
        assert known == list(state.seen), (known, state.seen)
        assert state.stock == len(self.deck)
        face_down = [0] * len(CARDS)  # the stock, face-down cards in hands, convoys the record cannot name
        for card in self.deck:
            face_down[INDEX[card]] += 1
        for seat, hand in enumerate(self.hands):
            record = state.hands[seat]
            assert record.size == len(hand)
            assert sorted(record.known) == sorted(card for card, k in hand if k)
            for card, k in hand:
                if not k:
                    face_down[INDEX[card]] += 1
        for convoy in state.convoys:
            if convoy.card is None:
                face_down[INDEX[self.truth[convoy.number]]] += 1
            else:
                assert convoy.card == self.truth[convoy.number]
        for kind in CARDS:  # each kind: what the record places + what lies face down = the deck
            assert known[INDEX[kind.name]] + face_down[INDEX[kind.name]] == kind.count, kind.name
        for player in RULESET.result(state, Viewer.public()).players:
            assert player.score >= 0
            assert min(player.breakdown.values()) >= 0

    def play(self, on_event: Callable[[], None] | None = None, limit: int = 1000) -> State:
        """Play the round to its end."""
        for _ in range(limit):
            if self.state.phase == "over":
                return self.state
            self.apply(self.next_event())
            if on_event is not None:
                on_event()
        raise AssertionError("the round did not end")
