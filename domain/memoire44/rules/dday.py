"""D-Day Landings reinforcements (M44-DD-4, M44-DD-6 to M44-DD-9): the roll after the card is shown, the
units placed as moves, and the reserve they come from. The scenario's reserve, entry tokens and landing
craft, and the reinforcement table a club imports, are `domain.memoire44.dday`."""

from __future__ import annotations

from msgspec.structs import replace

from domain.memoire44.battlefield import cards_held, objective_holder, recount
from domain.memoire44.board import Hex, hex_name
from domain.memoire44.catalogue import FACE_NAMES, RECON_CARDS
from domain.memoire44.dday import RECON_EXTRA_DICE, full_strength, reinforcements_for
from domain.memoire44.events import Memoire44Event, ReinforcementPlaced, ReinforcementsRolled
from domain.memoire44.rules.common import CARD_BATTLES, refuse
from domain.memoire44.rules.expansion import Expansion, on_camp, validators
from domain.memoire44.state import State, Unit
from domain.memoire44.words import _
from domain.memoire44.words import card as card_name
from domain.memoire44.words import kind as kind_name
from domain.ruleset import RuleError, dispatch, on


def air_denies_reinforcements(state: State, camp: int) -> bool:
    """M44-DD-4: no Axis reinforcements on the turn after an Allied Air Power (the Allies' last card)."""
    last = state.last_played[1 - camp]
    return state.sides[camp] == "AXIS" and last is not None and last[0] == "air_power"


def reinforcement_dice(state: State, camp: int) -> int:
    """M44-DD-6: one die per command card held, the card shown included, two more for a Recon card."""
    return cards_held(state, camp) + 1 + (RECON_EXTRA_DICE if state.card in RECON_CARDS else 0)


def reinforcement_roll_due(state: State, camp: int) -> bool:
    """Whether the active side still rolls for reinforcements this turn (M44-DD-6): after its card is
    shown (and Their Finest Hour's own dice), before its orders or its card's battle."""
    return (
        state.dday is not None
        and camp == state.active
        and not state.reinforced
        and state.card is not None
        and (state.phase == "order" or (state.phase == "battle" and state.last_battle is None))
        and not air_denies_reinforcements(state, camp)
    )


def roll_first(state: State, camp: int) -> RuleError | None:
    """The roll the active side makes before its orders, its card's battle or the end of its turn."""
    if not reinforcement_roll_due(state, camp):
        return None
    return refuse(
        "M44-DD-6",
        "roll_reinforcements",
        _("D-Day: the side rolls {count} dice for reinforcements first.", count=reinforcement_dice(state, camp)),
        dice=reinforcement_dice(state, camp),
    )


def _validate_reinforcement_roll(state: State, event: ReinforcementsRolled, camp: int) -> None:
    if state.dday is None:
        raise refuse("M44-DD-6", "no_dday", _("Reinforcements are rolled only under the D-Day rules."))
    if camp == state.active and air_denies_reinforcements(state, camp) and not state.reinforced:
        raise refuse(
            "M44-DD-4",
            "air_attack",
            _(
                "No Axis reinforcements on the turn after an Allied {card} (air superiority).",
                card=card_name("air_power"),
            ),
        )
    if not reinforcement_roll_due(state, camp):
        raise refuse(
            "M44-DD-6",
            "roll_timing",
            _(
                "Reinforcements are rolled once a turn, by the active side, after its card (and {card}'s own dice), "
                "before its orders.",
                card=card_name("their_finest_hour"),
            ),
            phase=state.phase,
        )
    expected = reinforcement_dice(state, camp)
    if len(event.faces) != expected or not set(event.faces) <= FACE_NAMES:
        raise refuse(
            "M44-DD-6",
            "wrong_roll",
            _(
                "The reinforcement roll is one die per command card held, the card shown included, two more for "
                "Recon: {count} dice.",
                count=expected,
            )
            if state.card in RECON_CARDS
            else _(
                "The reinforcement roll is one die per command card held, the card shown included: {count} dice.",
                count=expected,
            ),
            expected=expected,
            reported=len(event.faces),
        )


def placing_open(state: State) -> bool:
    """M44-DD-7: a reinforcement is placed as a move: after the orders (or an Air Power or Barrage card),
    before the turn's first battle."""
    return (
        state.phase == "move" or (state.phase == "battle" and state.effective in CARD_BATTLES)
    ) and state.last_battle is None


def placement_hexes(state: State, camp: int) -> list[Hex]:
    """Where `camp` may place a reinforcement now (M44-DD-7): an empty Axis entry token; an empty Allied
    landing craft, or an empty hex of a beach the Allies control."""
    assert state.dday is not None
    if state.sides[camp] == "AXIS":
        spots = list(state.dday.entry_tokens)
    else:
        spots = list(state.dday.landing_craft)
        for index, objective in enumerate(state.objectives):
            if objective.kind == "beach" and objective_holder(state, index) == camp:
                spots.extend(objective.hexes)
    board = state.board
    return [h for h in dict.fromkeys(spots) if h not in state.occupant and board.passable(h)]


def _validate_placed(state: State, event: ReinforcementPlaced, camp: int) -> None:
    if state.dday is None or camp != state.active or event.kind not in state.reinforcements:
        raise refuse(
            "M44-DD-6",
            "no_reinforcement",
            _("Only a unit the side's reinforcement roll brought this turn is placed."),
            kind=event.kind,
            brought=list(state.reinforcements),
        )
    if not placing_open(state) or state.ambush_target is not None:
        raise refuse(
            "M44-DD-7",
            "place_as_move",
            _("A reinforcement is placed as a move: after the orders, before the first battle."),
            phase=state.phase,
        )
    needed, left = full_strength(event.kind), state.reserve[camp].get(event.kind, 0)
    if left < needed:
        raise refuse(
            "M44-DD-8",
            "reserve_short",
            _.ngettext(
                "The reserve holds {count} {kind} figure; a unit needs {needed}.",
                "The reserve holds {count} {kind} figures; a unit needs {needed}.",
                left,
                kind=kind_name(event.kind),
                needed=needed,
            ),
            reserve=left,
            needed=needed,
        )
    if event.hex not in placement_hexes(state, camp):
        where = (
            _("{hex} is not an empty entry token.", hex=hex_name(event.hex))
            if state.sides[camp] == "AXIS"
            else _(
                "{hex} is not an empty landing craft or an empty hex of a beach the Allies control.",
                hex=hex_name(event.hex),
            )
        )
        raise refuse("M44-DD-7", "placement", where, hex=list(event.hex))


def _evolve_reinforcement_roll(state: State, event: ReinforcementsRolled) -> State:
    assert state.reinforcement_table is not None
    side = state.sides[state.seat_camp[event.seat]]
    brought = reinforcements_for(state.reinforcement_table, side, event.faces)
    return replace(state, reinforced=True, reinforcements=brought)


def _evolve_placed(state: State, event: ReinforcementPlaced) -> State:
    """M44-DD-7, M44-DD-8: a full unit from the reserve, numbered after the others; it neither moves nor
    battles this turn (it is not among the turn's orders)."""
    camp = state.seat_camp[event.seat]
    figures = full_strength(event.kind)
    unit = Unit(uid=len(state.units), camp=camp, kind=event.kind, size=figures, figures=figures, hex=event.hex)
    reserve = list(state.reserve)
    reserve[camp] = reserve[camp] | {event.kind: reserve[camp][event.kind] - figures}
    brought = list(state.reinforcements)
    brought.remove(event.kind)
    occupant = dict(state.occupant)
    occupant[event.hex] = unit.uid
    return recount(
        replace(
            state,
            units=(*state.units, unit),
            occupant=occupant,
            reserve=tuple(reserve),
            reinforcements=tuple(brought),
            last_move=(event.hex,),
        )
    )


# ---------------------------------------------------------------- legal events


def legal(state: State, seat: int) -> list[Memoire44Event]:
    """The reinforcement roll when it is due (M44-DD-6), else each reinforcement the roll brought, where it
    may be placed now (M44-DD-7, M44-DD-8)."""
    camp = state.seat_camp[seat]
    if reinforcement_roll_due(state, camp) and state.pending is None and not state.cards_to_take:
        return [ReinforcementsRolled(seat=seat, faces=("star",) * reinforcement_dice(state, camp))]
    if camp != state.active or not state.reinforcements or not placing_open(state) or state.ambush_target is not None:
        return []
    hexes = placement_hexes(state, camp)
    return [
        ReinforcementPlaced(seat=seat, kind=kind, hex=hex_)
        for kind in dict.fromkeys(state.reinforcements)
        if state.reserve[camp].get(kind, 0) >= full_strength(kind)
        for hex_ in hexes
    ]


def _next_turn(state: State) -> State:
    return replace(state, reinforced=False, reinforcements=())


EXPANSION = Expansion(
    name="D-Day reinforcements",
    in_play=lambda state: state.dday is not None,
    validators=validators(
        on_camp(ReinforcementsRolled, _validate_reinforcement_roll),
        on_camp(ReinforcementPlaced, _validate_placed),
    ),
    evolvers=dispatch(
        on(ReinforcementsRolled, _evolve_reinforcement_roll),
        on(ReinforcementPlaced, _evolve_placed),
    ),
    legal=legal,
    before_orders=roll_first,
    before_turn_end=roll_first,
    next_turn=_next_turn,
)
