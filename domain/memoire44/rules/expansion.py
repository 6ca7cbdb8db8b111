"""How an expansion joins the base rules: one `Expansion` value per expansion module, listed in
`rules.base.EXPANSIONS`. Its events come with their validators, evolvers and legal events; the base rules
call its hooks at named points of the turn and know it by nothing else. A new expansion fills in the hooks
it needs and leaves the others None.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.i18n import Message
from domain.memoire44.board import Hex
from domain.memoire44.events import CardCommitted, CardPlayed, Memoire44Event, UnitsOrdered
from domain.memoire44.state import State, Unit
from domain.ruleset import Dispatch, HandledT, RuleError

# A validator takes the state, an event of its key's type and the camp of the event's seat (None for the one
# seatless event, a GameEnded reported by no seat: its validator takes `int | None`, hence the loose camp here);
# an evolver the state and the event. `on_camp` and `ruleset.on` entries let mypy check each against its key.
Validator = Callable[[State, Memoire44Event, Any], None]
Evolver = Callable[[State, Memoire44Event], State]
Validators = dict[type[Memoire44Event], Validator]
Evolvers = Dispatch[Memoire44Event, State, State]
Problem = Callable[[State, int], RuleError | None]
# The base rules' own step that puts a played command card into play (what it acts as, what comes next).
CardInPlay = Callable[[State, CardPlayed, int], State]
# The base rules' own reading of what a played command card acts as (checked: refused when it cannot).
EffectiveCard = Callable[[State, CardPlayed, int], str]


def on_camp(
    kind: type[HandledT], validator: Callable[[State, HandledT, int], None]
) -> tuple[type[Any], Callable[[State, Any, Any], None]]:
    """One entry of a validators table: `validator` takes the events of type `kind` and the camp of their seat
    (mypy checks that it does)."""
    return kind, validator


def validators(*entries: tuple[type[Any], Callable[[State, Any, Any], None]]) -> Validators:
    """A validators table from its `on_camp` entries (as `ruleset.dispatch` makes an evolvers table): each
    validator is given only the events of its key's type, looked up by `type(event)`."""
    return dict(entries)


@dataclass(frozen=True, kw_only=True)
class Expansion:
    """An expansion's events and hooks. Each hook is called only while `in_play(state)` says the game plays
    with the expansion."""

    name: str
    in_play: Callable[[State], bool]
    validators: Mapping[type[Memoire44Event], Validator] = field(default_factory=dict)  # made by `validators`
    evolvers: Mapping[type[Memoire44Event], Evolver] = field(default_factory=dict)  # made by `ruleset.dispatch`
    # The events it offers `seat` now, beside the base game's.
    legal: Callable[[State, int], list[Memoire44Event]] | None = None
    # What the active side must report before it orders units or its card battles (a roll due, ...).
    before_orders: Problem | None = None
    # What must happen before the active side's turn ends (cards still to play, ...).
    before_turn_end: Problem | None = None
    # Events it reports while a unit's retreat is pending (the base allows only the retreat itself).
    during_retreat: tuple[type[Memoire44Event], ...] = ()
    # The turn over: the expansion's own turn state cleared for the next side.
    next_turn: Callable[[State], State] | None = None
    # A command card has just come into play (`effective` is what it acts as).
    card_in_play: Callable[[State, CardPlayed, int, str], State] | None = None
    # Battle dice it adds to a unit's battle (close: at range 1), with the line the table reads.
    battle_bonus: Callable[[State, Unit, bool], tuple[int, Message] | None] | None = None
    # A command card played: True when the expansion checked the play as its own (raising if refused).
    validate_play: Callable[[State, CardPlayed, int, EffectiveCard], bool] | None = None
    # A command card played: the state after it when the play is the expansion's own, else None.
    evolve_play: Callable[[State, CardPlayed, int, CardInPlay], State | None] | None = None
    # What the card a side plays acts as under the expansion (`card` itself when nothing changes).
    played_as: Callable[[State, str], str] | None = None
    # What must happen before any battle is reported now (an answer to the expansion's piece, ...).
    before_battle: Problem | None = None
    # The cards the active side draws at the end of its turn, when the expansion decides them, with the
    # refusal a draw gets when they are none (the turn then ends with `TurnEnded`).
    draws: Callable[[State], tuple[int, RuleError] | None] | None = None
    # Why `unit` may not move into `hex` because of the expansion's pieces, as (rule id, reason), or None.
    move_problem: Callable[[State, Unit, Hex], tuple[str, Message] | None] | None = None
    # Whether an enemy piece of the expansion is next to `unit`, so Close Assault may order it.
    near_enemy: Callable[[State, Unit], bool] | None = None
    # What must happen before a unit battles now (the other generals' plays, ...).
    before_unit_battle: Problem | None = None
    # A card placed under the commissar token: True when the expansion checked it as its own.
    validate_commit: Callable[[State, CardCommitted, int], bool] | None = None
    # More checks of the units a card orders (whose sections they are in, ...), raising if refused.
    validate_orders: Callable[[State, UnitsOrdered, int], None] | None = None
    # Whether the side may order one more unit than the card allows.
    extra_order: Callable[[State, int], bool] | None = None
    # What the expansion plays in place of a command card (the initiative, ...), with why it cannot order
    # these units (None when it can).
    orders_for: Mapping[str, Callable[[State, list[Unit]], Message | None]] = field(default_factory=dict)
    # The unit choices a random player or an entry form is offered for what it plays in place of a card.
    order_choices: Mapping[str, Callable[[State, list[Unit]], list[tuple[int, ...]]]] = field(default_factory=dict)
