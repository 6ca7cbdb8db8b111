"""What the base rules and the expansion modules beside them both read: shared checks and counts that call
no expansion hook, so every rules module may import this one and it imports none of them."""

from __future__ import annotations

from typing import Any

from domain.ruleset import RuleError

CARD_BATTLES = frozenset({"air_power", "barrage"})  # the cards that battle themselves, with no unit


def refuse(rule: str, code: str, message: str, **details: Any) -> RuleError:
    return RuleError(rule, code, message, **details)
