"""The expansions joined to Mémoire 44's base rules: which a game plays with, and what each says at the
points of a turn where the base rules ask them (`Expansion`'s hooks). A new expansion is one module beside
the base rules, with its `Expansion`, and one more entry in `EXPANSIONS`."""

from __future__ import annotations

from collections.abc import Callable

from domain.i18n import Message
from domain.memoire44.board import Hex
from domain.memoire44.rules import air, combat_cards, dday, overlord
from domain.memoire44.rules.expansion import Expansion, Problem
from domain.memoire44.state import State, Unit
from domain.ruleset import RuleError

# The expansions joined to the base rules, in the order their hooks run. A new expansion is one module beside
# this one, with its `Expansion`, and one more entry here.
EXPANSIONS: tuple[Expansion, ...] = (dday.EXPANSION, combat_cards.EXPANSION, air.EXPANSION, overlord.EXPANSION)


_LAST_IN_PLAY: tuple[State | None, tuple[Expansion, ...]] = (None, ())


def in_play(state: State) -> tuple[Expansion, ...]:
    """The expansions the game plays with.

    Asked two or three times per event of the same state: the last answer is kept with its state (held,
    so its identity cannot pass to another state), one tuple swapped whole, safe between threads."""
    global _LAST_IN_PLAY
    last = _LAST_IN_PLAY
    if last[0] is state:
        return last[1]
    playing = tuple(x for x in EXPANSIONS if x.in_play(state))
    _LAST_IN_PLAY = (state, playing)
    return playing


def first_due(state: State, camp: int, point: Callable[[Expansion], Problem | None]) -> RuleError | None:
    """What an expansion in play wants reported first at a point of the turn (`point` picks its hook)."""
    for x in in_play(state):
        hook = point(x)
        if hook is not None and (problem := hook(state, camp)) is not None:
            return problem
    return None


def before_orders(x: Expansion) -> Problem | None:
    return x.before_orders


def before_turn_end(x: Expansion) -> Problem | None:
    return x.before_turn_end


def before_battle(x: Expansion) -> Problem | None:
    return x.before_battle


def before_unit_battle(x: Expansion) -> Problem | None:
    return x.before_unit_battle


def expansion_draws(state: State) -> tuple[int, RuleError] | None:
    """The cards the active side draws at its turn's end when an expansion decides them, with the refusal a
    draw gets when they are none."""
    for x in in_play(state):
        if x.draws is not None and (ruled := x.draws(state)) is not None:
            return ruled
    return None


def played_as(state: State, card: str) -> str:
    """What a played card acts as once the expansions in play have their say."""
    for x in in_play(state):
        if x.played_as is not None:
            card = x.played_as(state, card)
    return card


def move_problems(state: State) -> list[Callable[[State, Unit, Hex], tuple[str, Message] | None]]:
    """The checks the expansions in play add to each hex a ground unit enters (a plane over it, ...)."""
    return [x.move_problem for x in in_play(state) if x.move_problem is not None]


def near_other_enemy(state: State, unit: Unit) -> bool:
    """Whether an enemy piece of an expansion (a plane) is next to `unit`, for Close Assault."""
    return any(x.near_enemy is not None and x.near_enemy(state, unit) for x in in_play(state))


def check_hooks(state: State, camp: int, point: Callable[[Expansion], Problem | None]) -> None:
    problem = first_due(state, camp, point)
    if problem is not None:
        raise problem
