"""What the base rules and the expansion modules beside them both read: shared checks and counts that call
no expansion hook, so every rules module may import this one and it imports none of them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.i18n import Message
from domain.memoire44.battlefield import full_day
from domain.memoire44.catalogue import CARDS, DECK_SIZE
from domain.memoire44.events import CardCommitted
from domain.memoire44.state import Hand, State, Unit
from domain.memoire44.words import FACES, _, listed
from domain.memoire44.words import card as card_name
from domain.ruleset import RuleError

CARD_BATTLES = frozenset({"air_power", "barrage"})  # the cards that battle themselves, with no unit
SECTION_CARDS = {c: spec.sections for c, spec in CARDS.items() if spec.kind == "section"}

# Refusals several rules modules give in the same words.
ROLL_FOR_LIGHT = _("At night the Allied side rolls four dice for the light first.")
AMBUSH_IN_TURN = _("{card} is played during the enemy's close assault.", card=card_name("ambush"))
AMBUSH_FIRST = _("{card}: the ambushing unit battles first.", card=card_name("ambush"))
ALL_FACES = listed([FACES[face] for face in ("infantry", "armour", "grenade", "star", "flag")])
"""The faces of a battle die, as a refusal asking for them lists them (M44-3)."""


def refuse(rule: str, code: str, message: str | Message, **details: Any) -> RuleError:
    return RuleError(rule, code, message, **details)


def alive(state: State, camp: int) -> Iterable[Unit]:
    """A camp's units still on the board."""
    return (u for u in state.units if u.camp == camp and u.hex is not None)


def camp_of_seat(state: State, seat: int) -> int:
    """The camp of a reporting seat; RuleError for a seat not at the table."""
    if not 0 <= seat < len(state.seat_camp):
        raise RuleError("M44-6", "unknown_seat", _("Seat {seat} is not at this table.", seat=str(seat)), seat=seat)
    return state.seat_camp[seat]


def pile_size(state: State) -> int:
    """Cards left in the draw pile: the deck less the hands, the cards handed to generals (M44-OV-3) and
    the discards."""
    given = sum(h.size for h in state.given) if state.given else 0
    return DECK_SIZE - state.hands[0].size - state.hands[1].size - len(state.discard) - len(state.token) - given


def known_copies(state: State, card: str) -> int:
    """Copies of `card` the record knows the place of (G-2 conservation)."""
    return (
        state.hands[0].known.count(card)
        + state.hands[1].known.count(card)
        + state.discard.count(card)
        + state.token.count(card)
        + (sum(h.known.count(card) for h in state.given) if state.given else 0)
    )


def visibility_roll_due(state: State, camp: int) -> bool:
    """Whether `camp` must roll for the light before playing its card (M44-NT-1: the Allied side, each
    turn until full daylight)."""
    return not full_day(state) and state.sides[camp] == "ALLIES" and not state.visibility_rolled


def check_unplaced(state: State, card: str) -> None:
    """A card whose place the record did not know: it must exist and have a copy unplaced (G-2)."""
    if card not in CARDS:
        raise refuse("M44-5", "unknown_card", _("There is no command card {card}.", card=repr(card)), card=card)
    if known_copies(state, card) >= CARDS[card].count:
        raise refuse(
            "G-2",
            "too_many_copies",
            _("The deck holds {count} {card}, all already placed.", count=CARDS[card].count, card=card_name(card)),
            card=card,
        )


def check_hand(state: State, camp: int, card: str) -> None:
    hand = state.hands[camp]
    if card in hand.known:
        return
    if card in CARDS and hand.unknown == 0:
        raise refuse("M44-5", "card_not_in_hand", _("{card} is not in that hand.", card=card_name(card)), card=card)
    check_unplaced(state, card)


def check_nothing_to_take(state: State) -> None:
    if state.cards_to_take:
        raise refuse(
            "M44-IT-1",
            "card_to_take",
            _("An Italian unit was lost: the enemy takes a card from the Italian hand first."),
            cards=state.cards_to_take,
        )


def with_hand(state: State, camp: int, hand: Hand) -> tuple[Hand, Hand]:
    return (hand, state.hands[1]) if camp == 0 else (state.hands[0], hand)


def check_commit_card(state: State, event: CardCommitted, camp: int) -> None:
    """The card placed under the commissar token: from the hand, never Ambush (M44-RU-1), named when the
    record knows every card of the hand (G-2)."""
    if event.card == "ambush":
        raise refuse("M44-RU-1", "ambush_kept", _("Ambush answers an enemy assault from the hand; it is not placed."))
    if event.card is not None:
        check_hand(state, camp, event.card)
    elif state.hands[camp].unknown == 0:
        raise refuse(
            "G-2",
            "name_the_card",
            _("Every card of that hand is known to the record: name the one placed under the token."),
        )
