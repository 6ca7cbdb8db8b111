"""What the base rules and the expansion modules beside them both read: shared checks and counts that call
no expansion hook, so every rules module may import this one and it imports none of them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.memoire44.state import State, Unit
from domain.ruleset import RuleError

CARD_BATTLES = frozenset({"air_power", "barrage"})  # the cards that battle themselves, with no unit


def refuse(rule: str, code: str, message: str, **details: Any) -> RuleError:
    return RuleError(rule, code, message, **details)


def alive(state: State, camp: int) -> Iterable[Unit]:
    """A camp's units still on the board."""
    return (u for u in state.units if u.camp == camp and u.hex is not None)
