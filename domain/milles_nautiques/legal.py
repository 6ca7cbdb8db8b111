"""The events a Milles Nautiques seat may report at a state (the recording page's choices, the API's
`legal-events`): candidates from the cards the seat may hold, kept where `rules.validate` accepts them."""

from __future__ import annotations

from typing import Any

from domain.i18n import Catalogue, Message
from domain.milles_nautiques.catalogue import CARDS, CONVOY_CARDS, MILES_CARDS, WARSHIPS
from domain.milles_nautiques.events import (
    CARD_OF_EVENT,
    ConvoyPlaced,
    Dealt,
    Discarded,
    Drew,
    MilesPlayed,
    MillesNautiquesEvent,
    WarshipPlayed,
)
from domain.milles_nautiques.rules import validate
from domain.milles_nautiques.state import State
from domain.ruleset import RuleError

_ = Catalogue("domain.milles_nautiques")
_EVENT_OF_CARD: dict[str, type] = {card: kind for kind, card in CARD_OF_EVENT.items()}
# Which convoys a card can aim at: the player's (team's) own, an opponent's, or any. A first sieve for
# `legal_events`; `validate` decides.
_OWN_ROW = frozenset({"end_of_alert", "plane_hit", "minesweeper", "neutral_flag"})
_OTHER_ROWS = frozenset({"alert", "plane", "mine", "radar"})


def legal_events(state: State, seat: int) -> list[MillesNautiquesEvent]:
    """Every event `seat` may report now. Draws and the deal are listed by form only (card unknown);
    cards from the face-down part of a hand are listed for every kind it could still be (G-2).
    The end-of-round reveal is the table's, not a seat's, and is not listed."""
    if state.phase == "deal":
        return [Dealt(dealer=seat)] if state.dealer in (None, seat) and 0 <= seat < len(state.hands) else []
    if state.phase in ("reveal", "over") or seat != state.to_play:
        return []
    if state.phase in ("draw", "extra_draw"):
        return [Drew(seat=seat)]
    hand = state.hands[seat]
    candidates = _candidates(state, seat, _possible_cards(state, seat))
    if hand.unknown:
        candidates.extend(ConvoyPlaced(seat=seat, position=p) for p in range(len(state.rows[state.side_of[seat]]) + 1))
    return [event for event in candidates if _accepted(state, event)]


def _possible_cards(state: State, seat: int) -> set[str]:
    """The cards `seat` may hold: the known ones, and any kind not all seen when part of the hand is
    face down (G-2)."""
    hand = state.hands[seat]
    possible = set(hand.known)
    if hand.unknown:
        possible.update(card.name for i, card in enumerate(CARDS) if state.seen[i] < card.count)
    return possible


def _candidates(state: State, seat: int, possible: set[str]) -> list[Any]:
    """Each possible card played at every target its kind may aim at, and discarded."""
    side = state.side_of[seat]
    row = state.rows[side]
    others = [n for other, numbers in enumerate(state.rows) if other != side for n in numbers]
    at_sea = [c.number for c in state.convoys if c.status == "at_sea"]
    alerted = [c.number for c in state.convoys if c.alert]  # MN-6: every battle needs an alert
    candidates: list[Any] = []
    for card in (c.name for c in CARDS if c.name in possible):
        if card in CONVOY_CARDS:
            candidates.extend(ConvoyPlaced(seat=seat, position=p, card=card) for p in range(len(row) + 1))
        elif card in MILES_CARDS:
            candidates.extend(MilesPlayed(seat=seat, convoy=n, card=card) for n in row)
        elif card in WARSHIPS:
            candidates.extend(WarshipPlayed(seat=seat, convoy=n, ship=card) for n in alerted)
            if card == "submarine":
                candidates.extend(WarshipPlayed(seat=seat, convoy=n, ship=card, paired=True) for n in alerted)
        else:
            event_type = _EVENT_OF_CARD[card]
            targets = row if card in _OWN_ROW else others if card in _OTHER_ROWS else at_sea
            candidates.extend(event_type(seat=seat, convoy=n) for n in targets)
        candidates.append(Discarded(seat=seat, card=card))
    return candidates


def _accepted(state: State, event: MillesNautiquesEvent) -> bool:
    """Whether `rules.validate` accepts `event` now."""
    try:
        validate(state, event)
    except RuleError:
        return False
    return True


_GROUPS = {
    "defence": (0, _("Defend the convoy in battle")),
    "attack": (1, _("Attack a convoy")),
    "convoys": (2, _("Convoys and miles")),
    "other": (3, _("Other cards")),
    "discard": (4, _("Discard")),
}


def choice_group(state: State, event: MillesNautiquesEvent) -> tuple[int, Message]:
    """What the table is doing with `event`, for the recording page's groups: in a naval battle the
    defence first (MN-6), then attacks, convoys and miles, the other cards, a discard last."""
    if isinstance(event, WarshipPlayed):
        own = state.rows[state.side_of[event.seat]] if 0 <= event.seat < len(state.side_of) else ()
        return _GROUPS["defence" if event.convoy in own else "attack"]
    if isinstance(event, ConvoyPlaced | MilesPlayed):
        return _GROUPS["convoys"]
    if isinstance(event, Discarded):
        return _GROUPS["discard"]
    return _GROUPS["other"]
