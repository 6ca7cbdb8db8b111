"""What a played Mémoire 44 card may order (M44-5, tactic cards, and the expansions' own cards): the
units it may order and why it may not order others."""

from __future__ import annotations

from collections.abc import Callable

from domain.i18n import Message
from domain.memoire44.battlefield import adjacent_enemies, fits_sections
from domain.memoire44.catalogue import AIR_SORTIE, ARMOUR, ARTILLERY, CARDS, INFANTRY
from domain.memoire44.rules.common import alive
from domain.memoire44.rules.joined import in_play, near_other_enemy
from domain.memoire44.state import State, Unit
from domain.memoire44.words import _, section
from domain.memoire44.words import card as card_name
from domain.memoire44.words import kind as kind_name

# Tactic cards that order up to four units of one kind, or one unit of any kind if the camp has none.
FOUR_OF_A_KIND = {"move_out": INFANTRY, "armor_assault": ARMOUR, "dig_in": INFANTRY}


def orderable(state: State, camp: int) -> list[Unit]:
    """The units the played card may order: a camp's units on the board, at a team table only those in
    the section the card was played in (or the general's own sections on the initiative) and not yet
    ordered by another general this turn (M44-OV-5)."""
    units = list(alive(state, camp))
    if not state.teams:
        return units
    where = set((state.section,) if state.section else state.commands[state.general or 0])
    ordered = {o.uid for o in state.orders}  # a unit on a section line is ordered once a turn
    return [
        u
        for u in units
        if u.hex is not None and u.uid not in ordered and where & set(state.board.sections(u.hex, camp))
    ]


def may_order(state: State, camp: int, uids: tuple[int, ...]) -> Message | None:
    """Why the played card cannot order these units, or None if it can (M44-5, tactic cards)."""
    card = str(state.effective)
    units = [state.units[uid] for uid in uids]
    for x in in_play(state):
        if card in x.orders_for:
            return x.orders_for[card](state, units)
    spec = CARDS[card]
    if spec.kind == "section":
        sections = (str(state.section),) if state.teams else spec.sections  # M44-OV-5: where it was played
        return fits_sections(state, camp, units, sections, spec.orders)
    if card in FOUR_OF_A_KIND or card == "behind_enemy_lines":
        return _of_a_kind_problem(state, camp, units, card)
    if card in _TACTIC_ORDERS:
        return _TACTIC_ORDERS[card](state, camp, units)
    if card in _AT_MOST:
        limit, why = _AT_MOST[card]
        return None if len(units) <= limit else why
    return _("{card} orders no units", card=card_name(card))


def _of_a_kind_problem(state: State, camp: int, units: list[Unit], card: str) -> Message | None:
    """Move Out, Armor Assault, Dig In (four units of a kind) and Behind Enemy Lines (one infantry unit):
    any one unit when the camp has none of the kind."""
    name = card_name(card)
    of_kind = FOUR_OF_A_KIND.get(card, INFANTRY)
    limit = 1 if card == "behind_enemy_lines" else 4
    if any(u.kind == of_kind for u in orderable(state, camp)):
        if any(u.kind != of_kind for u in units):
            return _("{card} orders {kind} units only", card=name, kind=kind_name(of_kind))
        return None if len(units) <= limit else _("{card} orders at most {count} units", card=name, count=limit)
    return (
        None
        if len(units) <= 1
        else _("with no {kind} unit, {card} orders one unit", kind=kind_name(of_kind), card=name)
    )


def _bombard_problem(state: State, camp: int, units: list[Unit]) -> Message | None:
    name = card_name("artillery_bombard")
    if any(u.kind == ARTILLERY for u in orderable(state, camp)):
        return None if all(u.kind == ARTILLERY for u in units) else _("{card} orders artillery only", card=name)
    return None if len(units) <= 1 else _("with no artillery, {card} orders one unit", card=name)


def _infantry_assault_problem(state: State, camp: int, units: list[Unit]) -> Message | None:
    where = str(state.section)
    eligible = [
        u for u in orderable(state, camp) if u.kind == INFANTRY and where in state.board.sections(u.hex or (0, 0), camp)
    ]
    if eligible:
        ok = all(u in eligible for u in units)
        return (
            None
            if ok
            else _(
                "{card} orders infantry in the {section} section only",
                card=card_name("infantry_assault"),
                section=section(where),
            )
        )
    return (
        None
        if len(units) <= 1
        else _("with no infantry there, {card} orders one unit", card=card_name("infantry_assault"))
    )


def _close_assault_problem(state: State, camp: int, units: list[Unit]) -> Message | None:
    if all(adjacent_enemies(state, u) or near_other_enemy(state, u) for u in units):
        return None
    return _("{card} orders units next to an enemy only", card=card_name("close_assault"))


def _finest_hour_problem(state: State, camp: int, units: list[Unit]) -> Message | None:
    allowed = {INFANTRY: state.roll.count("infantry"), ARMOUR: state.roll.count("armour"), ARTILLERY: 0}
    spare = state.roll.count("star")
    for of_kind, count in allowed.items():
        spare -= max(0, sum(u.kind == of_kind for u in units) - count)
    if spare >= 0:
        return None
    return _("{card} orders one unit per unit symbol, any unit per star", card=card_name("their_finest_hour"))


_TACTIC_ORDERS: dict[str, Callable[[State, int, list[Unit]], Message | None]] = {
    "artillery_bombard": _bombard_problem,
    "infantry_assault": _infantry_assault_problem,
    "close_assault": _close_assault_problem,
    "their_finest_hour": _finest_hour_problem,
}
# Tactic cards that order any units up to a count; an Air Sortie orders the side's plane, no ground unit
# (M44-AIR-15).
_AT_MOST: dict[str, tuple[int, Message]] = {
    "direct_from_hq": (4, _("{card} orders at most {count} units", card=card_name("direct_from_hq"), count=4)),
    "firefight": (4, _("{card} orders at most {count} units", card=card_name("firefight"), count=4)),
    "medics_and_mechanics": (1, _("{card} orders one unit", card=card_name("medics_and_mechanics"))),
    AIR_SORTIE: (0, _("an Air Sortie orders the side's plane, no ground unit")),
}
