"""What each viewer may see of a round (G-2).

Public: hands as sizes only, and a convoy's card only once detected by radar (MN-9) or when the round is
over. A seat: its own hand, and its side's convoys (MN-18: partners know each other's convoys) and the
convoys it (or its partner) captured. Full: everything the record knows. A view is drawn from the round
with the cards its viewer does not know turned face down, so its running score counts only what the
viewer has seen (a hidden 20,000 at 0 miles is worth 2 points, a 5,000 nothing).
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.milles_nautiques.catalogue import CARDS
from domain.milles_nautiques.events import (
    ConvoyPlaced,
    ConvoysRevealed,
    Dealt,
    Drew,
    MillesNautiquesEvent,
    RadarPlayed,
    RevealedConvoy,
)
from domain.milles_nautiques.scoring import hidden_in_port, side_scores
from domain.milles_nautiques.state import Convoy, State, seen_by, sees_card
from domain.ruleset import Viewer


def _convoy(convoy: Convoy) -> dict[str, Any]:
    return {
        "number": convoy.number,
        "side": convoy.side,
        "laid_by": convoy.seat,
        "card": convoy.card,
        "status": convoy.status,
        "miles": list(convoy.miles),
        "distance": convoy.distance,
        "detected": convoy.detected,
        "alert": convoy.alert,
        "storm": convoy.storm,
        "neutral": convoy.neutral,
        "plane_by": convoy.plane,
        "mine_by": convoy.mine,
        "battle": [
            {"seat": ship.seat, "cards": list(ship.cards), "strength": ship.strength, "attacking": ship.attacking}
            for ship in convoy.battle
        ],
        "captor": convoy.captor,
    }


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """The round as `viewer` may see it, as JSON-able data."""
    state = seen_by(state, viewer)
    players = []
    for seat, hand in enumerate(state.hands):
        entry: dict[str, Any] = {
            "seat": seat,
            "name": state.names[seat],
            "player_id": state.player_ids[seat],
            "side": state.side_of[seat],
            "hand_size": hand.size,
        }
        if viewer.sees(seat):
            entry["hand"] = {"known": list(hand.known), "unknown": hand.unknown}
        players.append(entry)
    scores = side_scores(state)
    return {
        "round": state.round_number,
        "phase": state.phase,
        "dealer": state.dealer,
        "to_play": state.to_play,
        "turn": state.turn,
        "stock": state.stock,
        "players": players,
        "sides": [
            {
                "side": side,
                "seats": list(seats),
                "name": state.side_name(side),
                "row": list(state.rows[side]),
                "score": {
                    "convoy": scores[side].convoy,
                    "capture": scores[side].capture,
                    "round_bonus": scores[side].round_bonus,
                    "slowness_bonus": scores[side].slowness_bonus,
                },
                # A convoy of the side's in port face down to this viewer: its score is hidden, not 0.
                "score_hidden": hidden_in_port(state, side),
            }
            for side, seats in enumerate(state.side_seats)
        ],
        "convoys": [_convoy(convoy) for convoy in state.convoys],
        "discard": {card.name: count for card, count in zip(CARDS, state.discard, strict=True) if count},
    }


def known(state: State, event: MillesNautiquesEvent, after: State, viewer: Viewer) -> tuple[MillesNautiquesEvent, ...]:
    """`event` as `viewer` knew it (`Ruleset.known`): a card dealt, drawn or laid face down is None
    unless the viewer's side holds it (MN-18: partners know each other's convoys), and a radar names the
    card it turned face up (MN-9); then the convoys the step showed the viewer where the event names
    none (the end of the round, a convoy its side captured), as the table tells them (G-2)."""
    if viewer.kind == "full":
        return (event,)
    seat = viewer.seat
    side = (
        state.side_of[seat] if viewer.kind == "seat" and seat is not None and 0 <= seat < len(state.side_of) else None
    )

    def hidden(holder: int) -> bool:
        return side is None or state.side_of[holder] != side

    told = event
    if isinstance(event, Drew | ConvoyPlaced) and event.card is not None and hidden(event.seat):
        told = msgspec.structs.replace(event, card=None)
    elif isinstance(event, Dealt):
        hands = tuple(() if hidden(holder) else hand for holder, hand in enumerate(event.hands))
        told = msgspec.structs.replace(event, hands=hands if any(hands) else ())
    elif isinstance(event, RadarPlayed) and event.revealed is None:
        convoy = state.convoy(event.convoy)
        if convoy is not None and convoy.card is not None and not sees_card(state, convoy, side):
            told = msgspec.structs.replace(event, revealed=convoy.card)
    shown = tuple(
        RevealedConvoy(convoy=convoy.number, card=convoy.card)
        for convoy in after.convoys
        if convoy.card is not None
        and sees_card(after, convoy, side)
        and not (isinstance(told, RadarPlayed) and told.convoy == convoy.number)
        and not ((was := state.convoy(convoy.number)) is not None and sees_card(state, was, side))
        and not (was is None and isinstance(told, ConvoyPlaced) and told.card is not None)
    )
    return (told, ConvoysRevealed(convoys=shown)) if shown else (told,)
