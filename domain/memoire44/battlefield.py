"""The battlefield as the rules read it: who stands where, which card ordered a unit, what a unit may
still do, the figures and cards a state change moves, and the objectives and medals counted from it.

The base rules (`rules.base`) and the expansions beside it (`rules.air`, ...) build on these; this module
imports none of them.
"""

from __future__ import annotations

import functools
from typing import Any

from msgspec.structs import replace

from domain.i18n import Message
from domain.memoire44.board import BoardSpec, Hex, board_from, hex_name
from domain.memoire44.catalogue import ARTILLERY, FULL_DAY, INFANTRY, UNIT_TYPES
from domain.memoire44.dday import returned_to_reserve
from domain.memoire44.scenario import Objective
from domain.memoire44.state import AirState, Hand, Order, State, Unit
from domain.memoire44.words import _, listed
from domain.memoire44.words import section as section_name
from domain.memoire44.words import sections as either_section
from domain.ruleset import RuleError


def _refuse(rule: str, code: str, message: Message, **details: Any) -> RuleError:
    return RuleError(rule, code, message, **details)


INITIATIVE = "initiative"  # what a general acting on the initiative table plays (M44-OV-7)


def card_for(state: State, uid: int | None) -> str | None:
    """The card that ordered unit `uid` this turn: the turn's card, or at an Overlord team table the card
    of the general who ordered it (M44-OV-5)."""
    if uid is not None and state.teams:
        for order in state.orders:
            if order.uid == uid:
                return order.card
    return state.effective


def unit_at(state: State, hex_: Hex) -> Unit | None:
    """The unit standing in `hex_`, if any."""
    uid = state.occupant.get(hex_)
    return None if uid is None else state.units[uid]


def adjacent_enemies(state: State, unit: Unit) -> list[Unit]:
    """Enemy units next to `unit`."""
    assert unit.hex is not None
    found = []
    for hex_ in state.board.neighbours(unit.hex):
        other = unit_at(state, hex_)
        if other is not None and other.camp != unit.camp:
            found.append(other)
    return found


def italian_camp(state: State) -> int | None:
    """The camp under Italian High Command (M44-IT-1): the Axis side, when the scenario turns it on."""
    if state.expansions.italy_high_command and "AXIS" in state.sides:
        return state.sides.index("AXIS")
    return None


def full_day(state: State) -> bool:
    """Whether the night visibility track (M44-NT-1) has reached full daylight, or is not in play."""
    return not state.expansions.night or state.visibility >= FULL_DAY


def fits_sections(
    state: State, camp: int, units: list[Any], sections: tuple[str, ...], per_section: int | None
) -> Message | None:
    """Whether each unit can be counted in one of `sections` (a hex on a line is in both, M44-1)
    with at most `per_section` in each."""
    board = state.board
    options = [[s for s in board.sections(u.hex, camp) if s in sections] for u in units]
    for unit, found in zip(units, options, strict=True):
        if not found:
            return _(
                "the unit at {hex} is not in the {section} section",
                hex=hex_name(unit.hex),
                section=either_section(sections),
            )
    if per_section is None or len(units) <= per_section:  # no section can be asked for more than it allows
        return None
    used = dict.fromkeys(sections, 0)

    def place(i: int) -> bool:
        if i == len(options):
            return True
        for section in options[i]:
            if used[section] < per_section:
                used[section] += 1
                if place(i + 1):
                    return True
                used[section] -= 1
        return False

    if place(0):
        return None
    return _.ngettext(
        "the card orders at most {count} unit in each of: {sections}",
        "the card orders at most {count} units in each of: {sections}",
        per_section,
        sections=listed([section_name(s) for s in sections]),
    )


def battle_after_move(state: State, unit: Unit) -> int:
    """The most hexes a unit may move and still battle."""
    card = card_for(state, unit.uid)
    if card == "behind_enemy_lines" and unit.kind == INFANTRY:
        return 3
    if card == "infantry_assault" and unit.kind == INFANTRY:
        return 2
    return UNIT_TYPES[unit.kind].move_and_battle


def battles_allowed(state: State, unit: Unit, order: Order) -> int:
    """How many battles an ordered unit has this turn."""
    card = order.card if state.teams else state.effective
    if card == "dig_in":
        return 0
    allowed = 1
    if card == "artillery_bombard" and unit.kind == ARTILLERY and order.moved == 0:
        allowed = 2
    return allowed + (1 if order.overrun else 0)


def ordered_unit(state: State, uid: int, camp: int) -> tuple[Unit, Order]:
    if not 0 <= uid < len(state.units) or state.units[uid].camp != camp or state.units[uid].hex is None:
        raise _refuse(
            "M44-6", "not_your_unit", _("Unit {unit} is not one of this side's units on the board.", unit=str(uid))
        )
    order = state.order_of(uid)
    if order is None:
        raise _refuse("M44-6", "not_ordered", _("Only an ordered unit moves or battles."), unit=uid)
    return state.units[uid], order


def take_card(hand: Hand, card: str) -> Hand:
    if card in hand.known:
        known = list(hand.known)
        known.remove(card)
        return Hand(known=tuple(known), unknown=hand.unknown)
    return Hand(known=hand.known, unknown=hand.unknown - 1)


def set_order(orders: tuple[Order, ...], order: Order) -> tuple[Order, ...]:
    return tuple(order if o.uid == order.uid else o for o in orders)


def move_unit(state: State, unit: Unit, to: Hex | None, figures: int | None = None) -> State:
    occupant = dict(state.occupant)
    if unit.hex is not None:
        del occupant[unit.hex]
    figures = unit.figures if figures is None else figures
    if state.reserve:
        # M44-DD-8, M44-DD-9: figures come back only from the reserve; lost ones return to it but the last.
        left = state.reserve[unit.camp].get(unit.kind, 0)
        figures = min(figures, unit.figures + left)
        change = returned_to_reserve(unit.figures, figures) - max(figures - unit.figures, 0)
        if change:
            reserve = list(state.reserve)
            reserve[unit.camp] = reserve[unit.camp] | {unit.kind: left + change}
            state = replace(state, reserve=tuple(reserve))
    if figures == 0:
        to = None
    if to is not None:
        occupant[to] = unit.uid
    units = list(state.units)
    units[unit.uid] = replace(unit, hex=to, figures=figures)
    state = replace(state, units=tuple(units), occupant=occupant)
    if figures == 0 and unit.figures > 0 and unit.camp == italian_camp(state):
        state = italian_unit_lost(state, unit.camp)
    return state


ITALIAN_FLOOR = 3  # M44-IT-1: the Italian hand never falls below three cards


def italian_unit_lost(state: State, camp: int) -> State:
    """M44-IT-1: a lost Italian unit costs a command card, which the enemy takes at random (counted in
    `cards_to_take`, taken by a later event), and the Italian hand size falls with it; never below three.

    At two players the hand is filled back to its size every turn, so the size is what the side holds. At
    an Overlord team table the commander-in-chief draws only two (M44-OV-4) and may hold fewer, so the
    floor counts the cards the side really holds (his hand, the cards under the commissar token, and the
    cards his generals were handed and have not played), less those already due to be taken; the card
    comes from his hand, so none is taken from an empty one. No card taken, no smaller hand."""
    if state.teams:
        generals = sum(hand.size for seat, hand in enumerate(state.given) if state.seat_camp[seat] == camp)
        held = cards_held(state, camp) + generals - state.cards_to_take
        take = held > ITALIAN_FLOOR and state.hands[camp].size > state.cards_to_take
    else:
        take = state.hand_limit[camp] > ITALIAN_FLOOR
    if not take:
        return state
    limit = list(state.hand_limit)
    limit[camp] -= 1
    return replace(state, hand_limit=(limit[0], limit[1]), cards_to_take=state.cards_to_take + 1)


def commissar_camp(state: State) -> int | None:
    """The camp under the Russian commissar rule (M44-RU-1), if any."""
    side = state.expansions.commissar
    return state.sides.index(side) if side in state.sides else None


def cards_held(state: State, camp: int) -> int:
    """The command cards a side holds: its hand, and the cards under the commissar token (M44-RU-1)."""
    return state.hands[camp].size + (len(state.token) if camp == commissar_camp(state) else 0)


@functools.lru_cache(maxsize=256)
def control_zone(spec: BoardSpec, hexes: tuple[Hex, ...]) -> tuple[Hex, ...]:
    """`hexes` and their neighbours: where a unit bears on a beach's or a bridge's control (M44-DD-2, 3)."""
    board = board_from(spec)
    return tuple(dict.fromkeys(spot for hex_ in hexes for spot in (hex_, *board.neighbours(hex_))))


def _near(state: State, index: int) -> set[int]:
    """The camps with a unit on or next to objective `index` (its zone is kept in the state, since
    medals are recounted after every move); it stops looking once both camps are found."""
    zone = state.zones[index] if state.zones else control_zone(state.board_spec, state.objectives[index].hexes)
    occupant, units = state.occupant, state.units
    camps: set[int] = set()
    for spot in zone:
        uid = occupant.get(spot)
        if uid is not None:
            camps.add(units[uid].camp)
            if len(camps) == 2:
                break
    return camps


def village_holder(state: State, index: int) -> int:
    """The camp controlling a village objective: the last side to stand in it (M44-DD-1)."""
    return _village_camp(state.villages, index, state.objectives[index].camp)


def _village_camp(villages: tuple[tuple[int, int], ...], index: int, first: int) -> int:
    for village, camp in villages:
        if village == index:
            return camp
    return first


def objective_holder(state: State, index: int) -> int | None:
    """The camp that scores objective `index` now, or None."""
    bombed = state.air.bombed if state.air is not None else ()
    return _holder(state, index, state.objectives[index], state.permanent, state.villages, bombed)


def _holder(
    state: State,
    index: int,
    objective: Objective,
    permanent: tuple[int, ...],
    villages: tuple[tuple[int, int], ...],
    bombed: tuple[tuple[int, int], ...],
) -> int | None:
    """`objective_holder` with the permanent objectives, villages and bombings given apart from the state
    (the recount works them out first, then reads the units and the board from the state)."""
    for target, camp in bombed:  # M44-AIR-11, M44-AIR-16: a bombing holds it until the enemy retakes it
        if target == index:
            return camp
    kind = objective.kind
    if kind == "permanent":  # kept once taken: no need to look at who stands there now
        return objective.camp if index in permanent else None
    if kind == "village":
        return _village_camp(villages, index, objective.camp)
    if kind == "beach" or kind == "bridge":
        near = _near(state, index)
        if kind == "beach":  # M44-DD-2: the assailant, while no defender is on or next to it
            return objective.camp if 1 - objective.camp not in near else None
        return next(iter(near)) if len(near) == 1 else None  # M44-DD-3: one side alone on or next to it
    occupant, units = state.occupant, state.units
    camps = [units[occupant[h]].camp for h in objective.hexes if h in occupant]
    mine = camps.count(objective.camp)
    if kind == "temporary":
        held = mine > 0
    elif kind == "majority":
        held = mine > len(camps) - mine
    else:
        held = index in permanent
    return objective.camp if held else None


def retaken(state: State) -> AirState:
    """The air state once the enemy's ground units retake the objectives a bombing holds (M44-AIR-11,
    M44-AIR-16): an enemy unit in one of its hexes ends the hold for good."""
    air = state.air
    assert air is not None
    back = tuple(
        index
        for index, camp in air.bombed
        if any(
            h in state.occupant and state.units[state.occupant[h]].camp != camp for h in state.objectives[index].hexes
        )
    )
    if not back:
        return air
    return replace(air, bombed=tuple(b for b in air.bombed if b[0] not in back), retaken=(*air.retaken, *back))


def objective_medals(state: State) -> tuple[int, int]:
    """Medals each camp holds from objectives now (seed: temporary, majority, permanent; D-Day control)."""
    medals = [0, 0]
    for index, objective in enumerate(state.objectives):
        holder = objective_holder(state, index)
        if holder is not None:
            medals[holder] += objective.medals
    return medals[0], medals[1]


def eliminations(state: State) -> tuple[int, int]:
    """Enemy units each camp has eliminated: a medal each (M44-6)."""
    lost = [0, 0]
    for unit in state.units:
        if unit.figures == 0:
            lost[unit.camp] += 1
    return lost[1], lost[0]


def recount(state: State) -> State:
    """Recount medals (M44-6: eliminations, objectives, special awards) and end the game on victory."""
    # Run after every move and battle, so in one pass over the objectives: each one's permanent marker
    # or village control first (M44-DD-1), then who holds it; the state is replaced once, if at all.
    occupant, units = state.occupant, state.units
    permanent, villages, air = state.permanent, state.villages, state.air
    if air is not None and air.bombed:
        air = retaken(state)  # M44-AIR-11
    bombed = air.bombed if air is not None else ()
    held = [0, 0]
    for index, objective in enumerate(state.objectives):
        kind = objective.kind
        if kind == "permanent":
            if index not in permanent and any(
                h in occupant and units[occupant[h]].camp == objective.camp for h in objective.hexes
            ):
                permanent = (*permanent, index)
        elif kind == "village":
            present = {units[occupant[h]].camp for h in objective.hexes if h in occupant}
            if len(present) == 1 and (camp := present.pop()) != _village_camp(villages, index, objective.camp):
                # M44-DD-1: the control marker changes when the other side stands in the village alone.
                villages = (*((v, c) for v, c in villages if v != index), (index, camp))
        holder = _holder(state, index, objective, permanent, villages, bombed)
        if holder is not None:
            held[holder] += objective.medals
    kills = eliminations(state)
    if air is not None:  # M44-AIR-7: a plane shot down is a medal for the side that shot it down
        kills = (kills[0] + air.kills[0], kills[1] + air.kills[1])
    medals = (kills[0] + held[0] + state.special[0], kills[1] + held[1] + state.special[1])
    winner = None
    for camp in (state.active, 1 - state.active):
        if medals[camp] >= state.victory[camp]:
            winner = camp
            break
    if winner is None:
        unchanged = permanent is state.permanent and villages is state.villages and air is state.air
        if unchanged and medals == state.medals:
            return state
        return replace(state, permanent=permanent, villages=villages, air=air, medals=medals)
    return replace(
        state,
        permanent=permanent,
        villages=villages,
        air=air,
        medals=medals,
        winner=winner,
        over=True,
        phase="over",
        end_reason=f"{state.sides[winner].title()} reach {state.victory[winner]} medals",
    )


def given_left(state: State) -> int:
    """Cards handed to generals this turn and not yet played (M44-OV-3)."""
    return sum(h.size for h in state.given) if state.given else 0
