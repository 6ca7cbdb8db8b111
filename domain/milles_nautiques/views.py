"""What each viewer may see of a round (G-2).

Public: hands as sizes only, and a convoy's card only once detected by radar (MN-9) or when the round is
over. A seat: its own hand, and its side's convoys (MN-18: partners know each other's convoys) and the
convoys it (or its partner) captured. Full: everything the record knows. A view is drawn from the round
with the cards its viewer does not know turned face down, so its running score counts only what the
viewer has seen (a hidden 20,000 at 0 miles is worth 2 points, a 5,000 nothing).
"""

from __future__ import annotations

from typing import Any

from domain.milles_nautiques.catalogue import CARDS
from domain.milles_nautiques.scoring import hidden_in_port, side_scores
from domain.milles_nautiques.state import Convoy, State, seen_by
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
