"""Mémoire 44 rules: `validate` refuses what cannot have happened, `evolve` applies an accepted event with
every consequence (hits, eliminations, medals, victory).

The base game (M44-1 to M44-6, with the nations, night and weather rules) is `base`; each expansion is a
module of its own beside it, its validators, evolvers and legal events side by side.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.memoire44.board import hex_name
from domain.memoire44.events import (
    Battle,
    GameEnded,
    GroundTaken,
    MedalAwarded,
    Memoire44Event,
    Retreated,
)
from domain.memoire44.rules import base
from domain.memoire44.rules.common import camp_of_seat
from domain.memoire44.rules.expansion import Evolvers, Validators
from domain.memoire44.rules.joined import EXPANSIONS
from domain.memoire44.state import State
from domain.memoire44.words import _
from domain.ruleset import RuleError

_VALIDATORS: Validators = {
    **base.VALIDATORS,
    **{kind: check for x in EXPANSIONS for kind, check in x.validators.items()},
}
_EVOLVERS: Evolvers = {
    **base.EVOLVERS,
    **{kind: apply for x in EXPANSIONS for kind, apply in x.evolvers.items()},
}


def validate(state: State, event: Memoire44Event) -> None:
    """Raise RuleError if `event` cannot happen at `state`."""
    if state.over:
        raise RuleError("M44-6", "game_over", _("The game is over."))
    check = _VALIDATORS.get(type(event))
    if check is None:
        raise RuleError("M44-6", "unknown_event", _("{event} is not a Mémoire 44 event.", event=type(event).__name__))
    seat = event.seat
    camp = camp_of_seat(state, seat) if seat is not None else None
    if (
        state.pending is not None
        and state.pending.kind == "retreat"
        and not isinstance(event, (Retreated, MedalAwarded, GameEnded, *base.during_retreat(state)))
    ):
        raise RuleError(
            "M44-3", "retreat_pending", _("The unit at {hex} must retreat first.", hex=hex_name(state.pending.hex))
        )
    check(state, event, camp)


def evolve(state: State, event: Memoire44Event) -> State:
    """Apply an accepted event with its consequences; never validates."""
    pending = state.pending
    if pending is not None and pending.kind == "take_ground" and not isinstance(event, GroundTaken):
        state = replace(state, pending=None)  # the attacker chose not to take ground
    elif (
        pending is not None
        and pending.kind == "battle_back"
        and not (isinstance(event, Battle) and event.unit == pending.unit)
    ):
        state = replace(state, pending=None)  # the British unit did not battle back
    return _EVOLVERS[type(event)](state, event)
