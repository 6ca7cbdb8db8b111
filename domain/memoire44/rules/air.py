"""Air rules in play (M44-AIR-2 to M44-AIR-17): the set-up of the air pack, and validate, evolve and the
legal events of the air events. Planes are not ground units: they are kept apart (`State.air`), so a
plane may fly over, and stand on, a hex a ground unit holds, and the base rules never see one as a target.

The air pack itself (what a club imports) is `domain.memoire44.air`; this module reads the battlefield
through `battlefield`, never through the base rules, which call it by the hooks of its `EXPANSION`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.i18n import Message
from domain.memoire44.air import (
    ARTILLERY_DICE,
    ARTILLERY_REACH,
    DEAL,
    GROUND_DICE,
    MAX_MARKERS,
    AirPack,
    duel_faces_result,
    strike_hits,
)
from domain.memoire44.battlefield import (
    adjacent_enemies,
    battle_after_move,
    battles_allowed,
    card_for,
    commissar_camp,
    fits_sections,
    full_day,
    given_left,
    move_unit,
    objective_holder,
    ordered_unit,
    recount,
    set_order,
    take_card,
    unit_at,
)
from domain.memoire44.board import Hex, distance, hex_name
from domain.memoire44.catalogue import (
    AIR_SORTIE,
    ARTILLERY,
    CARDS,
    FACE_NAMES,
    INFANTRY,
    OBSTACLES,
    RECON_CARDS,
    TERRAINS,
    UNIT_TYPES,
)
from domain.memoire44.events import (
    AirCardDrawn,
    AirStrike,
    AntiAircraft,
    Bombing,
    CardPlayed,
    Dogfight,
    Memoire44Event,
    PlaneDeployed,
    PlaneMoved,
    PlaneOrdered,
)
from domain.memoire44.rules.common import ROLL_FOR_LIGHT, check_hand, visibility_roll_due, with_hand
from domain.memoire44.rules.expansion import (
    CardInPlay,
    EffectiveCard,
    Evolvers,
    Expansion,
    Validators,
    on_camp,
    validators,
)
from domain.memoire44.scenario import Scenario
from domain.memoire44.state import AirState, Hand, Order, Pending, Plane, State, Unit
from domain.memoire44.words import _, section
from domain.memoire44.words import alternatives as either
from domain.memoire44.words import card as card_name
from domain.memoire44.words import kind as kind_name
from domain.memoire44.words import phase as phase_name
from domain.ruleset import RuleError, dispatch, on

AIR_EVENTS = (AirCardDrawn, PlaneDeployed, PlaneOrdered, PlaneMoved, AirStrike, Dogfight, AntiAircraft, Bombing)
# M44-AIR-11, M44-AIR-16: the objectives a bombing takes (never a majority one), and those only their own side
# scores (a village's or a bridge's medal goes to whichever side controls it, so either side bombs it).
BOMBED_KINDS = ("temporary", "permanent", "village", "beach", "bridge")
OWN_SIDE_KINDS = ("temporary", "permanent", "beach")
BREAKTHROUGH = "BRKTHRU"  # the board type whose command cards give move orders (M44-AIR-14)


def _refuse(rule: str, code: str, message: Message, **details: Any) -> RuleError:
    return RuleError(rule, code, message, **details)


# ---------------------------------------------------------------- set-up (M44-AIR-1, M44-AIR-2)


def initial_air(scenario: Scenario, pack: Callable[[], AirPack]) -> AirState | None:
    """The air rules' starting state: each side's lot of planes, air superiority, the deal (M44-AIR-2).
    `pack` reads the air pack the set-up embeds, refused by name when missing (M44-AIR-1)."""
    options = scenario.expansions
    if options.sorties is not None and not options.air:
        raise _refuse("M44-AIR-15", "no_air_rules", _("Air Sortie cards are dealt in a game with the air rules only."))
    if not options.air:
        return None
    return air_state(scenario, pack())


def air_state(scenario: Scenario, pack: AirPack) -> AirState:
    """The air state at the start, from the scenario's settings and the club's air pack (M44-AIR-1)."""
    options = scenario.expansions
    side = options.air_superiority
    if not side:
        theatre = options.air_theatre
        if not theatre:
            raise _refuse(
                "M44-AIR-1",
                "missing_air_superiority",
                _(
                    "Air superiority is missing: name the scenario's theatre (option air_theatre) in the air "
                    "pack's superiority table, or the side with air superiority (option air_superiority)."
                ),
                missing="air_theatre",
            )
        if theatre not in pack.superiority:
            raise _refuse(
                "M44-AIR-1",
                "missing_air_superiority",
                _("Air superiority is missing: the air pack's superiority table has no row {row}.", row=repr(theatre)),
                missing=f"superiority.{theatre}",
            )
        side = pack.superiority[theatre]
    sides = scenario.sides
    beach = any(TERRAINS[h.terrain].beach for h in scenario.hexes if h.terrain in TERRAINS)
    superiority = sides.index(side)
    deal = [DEAL - beach + (camp == superiority) for camp in (0, 1)]
    grounded = {plane: (row, col) for plane, row, col in options.planes_on_ground}
    for plane in sorted(set(grounded) - set(pack.planes)):
        raise _refuse(
            "M44-AIR-13",
            "unknown_plane",
            _(
                "The scenario puts the plane {plane} on the ground, but the air pack has no such plane.",
                plane=repr(plane),
            ),
            missing=f"planes.{plane}",
        )
    planes = tuple(
        Plane(plane=plane_id, camp=sides.index(spec.side), hex=grounded.get(plane_id), grounded=plane_id in grounded)
        for plane_id, spec in sorted(pack.planes.items())
    )
    dealt = options.sorties
    sorties = None if dealt is None else (dealt.get(sides[0], 0), dealt.get(sides[1], 0))
    return AirState(pack=pack, superiority=superiority, planes=planes, due=(deal[0], deal[1]), sorties=sorties)


# ---------------------------------------------------------------- the turn


def cards_for_play(air: AirState, camp: int, effective: str, recon: bool) -> AirState:
    """M44-AIR-9: a Recon card lets its side draw an air combat card (at the end of its turn); Their
    Finest Hour shuffles the air combat discards back and each side draws one."""
    due = list(air.due)
    if recon:
        due[camp] += 1
    if effective == "their_finest_hour":
        due = [d + 1 for d in due]
        air = replace(air, discard=())
    return replace(air, due=(due[0], due[1]))


def turn_over(air: AirState, camp: int) -> AirState:
    """The end of `camp`'s turn (M44-AIR-4): its plane, if not activated this turn, leaves the board
    without a medal; what the planes did this turn is forgotten."""
    planes = tuple(
        replace(p, hex=None)
        if p.camp == camp and p.hex is not None and not p.grounded and i not in air.activated
        else p
        for i, p in enumerate(air.planes)
    )
    return replace(
        air,
        planes=planes,
        card_played=False,
        sortie_played=False,
        activated=(),
        move_ordered=(),
        moved=(),
        fought=(),
        battled=False,
        effect=(),
        markers=(),
        shot=(),
        bomb=None,
        bomb_markers=0,
    )


# ---------------------------------------------------------------- helpers


def air_pile(air: AirState) -> int:
    """Air combat cards left to draw: the deck less the hands and the discards."""
    return air.pack.size - air.hands[0].size - air.hands[1].size - len(air.discard)


def air_copies(air: AirState, card: str) -> int:
    """Copies of air combat card `card` the record knows the place of."""
    return air.hands[0].known.count(card) + air.hands[1].known.count(card) + air.discard.count(card)


def plane_index(air: AirState, plane: str) -> int | None:
    for index, entry in enumerate(air.planes):
        if entry.plane == plane:
            return index
    return None


def type_lost(air: AirState, index: int) -> bool:
    """Whether a plane of the same side and type (its symbol) as plane `index` was shot down: that type never
    returns to the board (M44-AIR-7, M44-AIR-8, M44-AIR-13)."""
    plane = air.planes[index]
    symbol = air.pack.planes[plane.plane].symbol
    return any(p.lost and p.camp == plane.camp and air.pack.planes[p.plane].symbol == symbol for p in air.planes)


def flying(air: AirState, camp: int) -> int | None:
    """The index of `camp`'s plane in the air, if any (one plane per side, M44-AIR-3)."""
    for index, entry in enumerate(air.planes):
        if entry.camp == camp and entry.hex is not None and not entry.grounded:
            return index
    return None


def enemy_plane_at(state: State, hex_: Hex, camp: int) -> bool:
    """Whether an enemy plane flies over `hex_`: ground units do not move through it (M44-AIR-5)."""
    air = state.air
    return air is not None and any(p.hex == hex_ and p.camp != camp for p in air.planes)


def sorties_dealt(state: State) -> bool:
    """Whether the scenario deals Air Sortie cards: Air Power, and a German Recon 1 under Blitz, are then
    played as one (M44-AIR-15)."""
    return state.air is not None and state.air.sorties is not None


def played_as_sortie(state: State, card: str) -> str:
    """The card `card` is played as: Air Power is played as an Air Sortie where the scenario deals them
    (M44-AIR-15)."""
    return AIR_SORTIE if card == "air_power" and sorties_dealt(state) else card


def sortie_problem(state: State, camp: int) -> RuleError | None:
    """Why `camp` cannot play one of its Air Sortie cards now, or None (M44-AIR-15): alone, as the turn's
    card, or beside the turn's section card, after its orders and before any battle, once a turn."""
    air = state.air
    if air is None or air.sorties is None:
        return _refuse("M44-AIR-15", "no_air_sortie", _("This game deals no Air Sortie cards."))
    if air.sorties[camp] < 1:
        return _refuse("M44-AIR-15", "no_sortie_left", _("This side holds no Air Sortie card."))
    if camp != state.active:
        return _refuse("M44-AIR-15", "sortie_timing", _("An Air Sortie is played in its side's own turn."))
    if state.phase == "card":
        if state.teams:
            return _refuse(
                "M44-AIR-17",
                "sortie_alone",
                _(
                    "At a team table the commander-in-chief hands out command cards every turn: an Air Sortie is "
                    "played beside a section card a general played."
                ),
            )
        return None  # alone, as the turn's only card; the base rules check what must come before any card
    if state.phase != "move":
        return _refuse(
            "M44-AIR-15",
            "sortie_timing",
            _("An Air Sortie is played after the section card's orders, before any battle."),
        )
    spec = CARDS.get(str(state.effective))
    if spec is None or spec.kind != "section":
        return _refuse("M44-AIR-15", "beside_section", _("An Air Sortie is played beside a section card only."))
    if air.sortie_played:
        return _refuse("M44-AIR-15", "one_sortie", _("One Air Sortie a turn."))
    return None


def sortie_played(state: State, camp: int, beside: bool) -> State:
    """An Air Sortie played, spent and never replaced (M44-AIR-15). Beside the section card, the turn's card
    stays the section card, so a Counter-Attack copies that alone; alone, it is the turn's card."""
    air = _air(state)
    assert air.sorties is not None
    left = list(air.sorties)
    left[camp] -= 1
    return _with_air(state, replace(air, sorties=(left[0], left[1]), sortie_played=beside))


def lone_sortie(state: State) -> bool:
    """Whether the turn's only card is an Air Sortie held apart from the hand: nothing to replace, so the
    turn ends with no draw for its side (M44-AIR-15)."""
    return state.card == AIR_SORTIE


def _no_air() -> RuleError:
    return _refuse("M44-AIR-1", "no_air_rules", _("This game is not played with the air rules."))


def _air(state: State) -> AirState:
    if state.air is None:
        raise _no_air()
    return state.air


def _own_plane(state: State, camp: int, plane: str) -> tuple[AirState, int]:
    air = _air(state)
    index = plane_index(air, plane)
    if index is None or air.planes[index].camp != camp:
        raise _refuse(
            "M44-AIR-1",
            "not_your_plane",
            _("{plane} is not a plane of this side's lot.", plane=repr(plane)),
            plane=plane,
        )
    return air, index


def general_problem(state: State, seat: int) -> RuleError | None:
    """At an Overlord team table, why `seat` may not deploy or order the side's plane now (M44-AIR-17): the
    general carrying out the turn's latest card does, beside it."""
    if state.teams and seat != state.general:
        return _refuse(
            "M44-AIR-17", "not_the_general", _("The general who played the card deploys or orders the plane.")
        )
    return None


def team_fight_problem(state: State) -> RuleError | None:
    """At an Overlord team table, why no plane or ground unit may fight in the air now (M44-OV-6): every
    card handed out is played, and its units ordered, before the first battle."""
    if state.teams and (given_left(state) or state.phase in ("order", "roll")):
        return _refuse(
            "M44-OV-6",
            "moves_first",
            _("Overlord: every general plays his cards and moves his units before the first battle."),
        )
    return None


def _check_team_fight(state: State) -> None:
    refused = team_fight_problem(state)
    if refused is not None:
        raise refused


def _check_turn(state: State, camp: int, phases: tuple[str, ...], what: Message) -> None:
    if camp != state.active or state.phase not in phases:
        raise _refuse(
            "M44-6", "not_now", _("{what} (now: {phase}).", what=what, phase=phase_name(state.phase)), phase=state.phase
        )


def strike_dice(state: State) -> int:
    """Dice per ammunition marker: one, two under Their Finest Hour (M44-AIR-6, M44-AIR-9)."""
    return 2 if state.effective == "their_finest_hour" else 1


def anti_aircraft_dice(state: State, unit: Unit, plane_hex: Hex) -> tuple[int, Message] | Message:
    """(dice, how counted) for `unit` firing at the plane over `plane_hex`, or why it cannot (M44-AIR-8)."""
    assert unit.hex is not None
    reach = distance(unit.hex, plane_hex)
    if unit.kind == ARTILLERY:
        if reach > ARTILLERY_REACH:
            return _(
                "artillery fires at a plane at most {count} hexes away, not {reach}", count=ARTILLERY_REACH, reach=reach
            )
        return ARTILLERY_DICE, _("artillery at a plane: {count}", count=ARTILLERY_DICE)
    if reach > 1:  # a plane over the unit's own hex is as close as one next to it
        return _(
            "{kind} fires only at a plane next to it, not {reach} hexes away", kind=kind_name(unit.kind), reach=reach
        )
    adjacent = _("{kind} at an adjacent plane: {count}", kind=kind_name(unit.kind), count=GROUND_DICE)
    if card_for(state, unit.uid) == "close_assault":
        return GROUND_DICE + 1, _(
            "{first}; {then}", first=adjacent, then=_("{card}: +1", card=card_name("close_assault"))
        )
    return GROUND_DICE, adjacent


def order_problem(state: State, camp: int, index: int) -> Message | None:
    """Why the turn's command card cannot order the plane as one of its units, or None (M44-AIR-4)."""
    air = state.air
    assert air is not None
    plane_hex = air.planes[index].hex
    assert plane_hex is not None
    card = str(state.effective)
    if card == AIR_SORTIE or air.sortie_played:  # M44-AIR-15: the Air Sortie orders the plane
        return None
    ordered = [state.units[o.uid] for o in state.orders]
    as_unit = Unit(uid=-1, camp=camp, kind="plane", size=1, figures=1, hex=plane_hex)
    spec = CARDS.get(card)
    if state.teams:  # M44-AIR-17: one of the units the latest card orders, in the section it was played in
        if state.section not in state.board.sections(plane_hex, camp):
            return _(
                "the plane is not in the {section} section, where {card} was played",
                section=section(str(state.section)),
                card=card_name(card),
            )
        ordered = [state.units[o.uid] for o in state.orders if o.card == card]
        if spec is not None and spec.kind == "section":
            return fits_sections(state, camp, [*ordered, as_unit], (str(state.section),), spec.orders)
    if spec is not None and spec.kind == "section":
        return fits_sections(state, camp, [*ordered, as_unit], spec.sections, spec.orders)
    if card == "direct_from_hq":
        return None if len(ordered) < 4 else _("{card} orders at most {count} units", card=card_name(card), count=4)
    if card == "their_finest_hour":
        # A star orders any unit; the units ordered may already use the stars (M44-AIR-9).
        spare = state.roll.count("star")
        for of_kind, symbol in ((INFANTRY, "infantry"), ("armour", "armour"), (ARTILLERY, "")):
            spare -= max(0, sum(u.kind == of_kind for u in ordered) - (state.roll.count(symbol) if symbol else 0))
        if spare >= 1:
            return None
        return _("{card} orders a plane with a star not used by another unit", card=card_name(card))
    return _("{card} orders no plane", card=card_name(card))


def move_order_problem(state: State, index: int) -> RuleError | None:
    """Why the plane cannot take one of the turn's Breakthrough move orders, or None (M44-AIR-14): only
    on a Breakthrough board, only a plane already in the air (never one deploying, nor one on the
    ground, which takes off on an ordinary order), and only under a card the air pack gives move orders."""
    air = state.air
    assert air is not None
    if state.board_spec.board_type != BREAKTHROUGH:
        return _refuse("M44-AIR-14", "not_breakthrough", _("Move orders are given on a Breakthrough board only."))
    if air.planes[index].grounded:
        return _refuse(
            "M44-AIR-14", "on_the_ground", _("A plane on the ground takes off on an ordinary order, not a move order.")
        )
    card = str(state.effective)
    given = air.pack.move_orders.get(card)
    if given is None:
        return _refuse(
            "M44-AIR-14",
            "missing_move_orders",
            _(
                "The move orders {card} gives on a Breakthrough board are missing from the air pack ({field}).",
                card=card_name(card),
                field=f"move_orders.{card}",
            ),
            missing=f"move_orders.{card}",
        )
    if given < 1:
        return _refuse("M44-AIR-14", "no_move_order", _("{card} gives no move order.", card=card_name(card)), card=card)
    return None


def marker_problem(state: State, camp: int, path: tuple[Hex, ...], markers: tuple[Hex, ...]) -> Message | None:
    """Why these ammunition markers cannot be dropped along `path`, or None (M44-AIR-6)."""
    if len(markers) > MAX_MARKERS:
        return _(
            "a plane attacks at most {count} hexes of ground units in one flight, not {reported}",
            count=MAX_MARKERS,
            reported=len(markers),
        )
    if len(set(markers)) != len(markers):
        return _("one ammunition marker per hex")
    for number, hex_ in enumerate(markers):
        if hex_ not in path:
            return _("{hex} is not a hex the plane passes", hex=hex_name(hex_))
        target = unit_at(state, hex_)
        if target is None or target.camp == camp:
            return _("there is no enemy ground unit at {hex}", hex=hex_name(hex_))
        if number and distance(markers[number - 1], hex_) != 1:
            return _("the hexes marked follow each other, each next to the one before")
    return None


# ---------------------------------------------------------------- validate


def _validate_drawn(state: State, event: AirCardDrawn, camp: int) -> None:
    air = _air(state)
    if air.due[camp] <= 0:
        raise _refuse(
            "M44-AIR-2",
            "no_air_draw",
            _(
                "An air combat card is drawn in the deal, after a Recon card, after {card} and for shooting down a "
                "plane in a dogfight only.",
                card=card_name("their_finest_hour"),
            ),
        )
    if air_pile(air) <= 0:
        raise _refuse("M44-AIR-2", "air_pile_empty", _("The air combat pile is empty."))
    if event.card is not None:
        if event.card not in air.pack.cards:
            raise _refuse(
                "M44-AIR-1", "unknown_air_card", _("The air combat deck has no card {card}.", card=repr(event.card))
            )
        if air_copies(air, event.card) >= air.pack.cards[event.card].count:
            raise _refuse(
                "G-2",
                "too_many_copies",
                _("Every {card} is already placed.", card=air.pack.cards[event.card].name),
            )


def _check_air_card(air: AirState, camp: int, card: str) -> None:
    if card not in air.pack.cards:
        raise _refuse(
            "M44-AIR-1", "unknown_air_card", _("The air combat deck has no card {card}.", card=repr(card)), card=card
        )
    hand = air.hands[camp]
    if card in hand.known:
        return
    if not hand.unknown:
        raise _refuse(
            "M44-AIR-3", "not_in_hand", _("{card} is not in that side's air cards.", card=air.pack.cards[card].name)
        )
    if air_copies(air, card) >= air.pack.cards[card].count:
        raise _refuse(
            "G-2", "too_many_copies", _("The air combat deck holds {count}.", count=air.pack.cards[card].count)
        )


def deploy_problem(state: State, camp: int, index: int) -> tuple[str, str, Message] | None:
    """(rule, code, reason) why `camp` cannot deploy plane `index` now, wherever, or None (M44-AIR-3)."""
    air = state.air
    assert air is not None
    if camp != state.active or state.phase != "move":
        return "M44-AIR-3", "deploy_timing", _("A plane is deployed in its side's turn, after the card and its orders.")
    if air.card_played:
        return "M44-AIR-3", "one_air_card", _("One air combat card a turn.")
    spec = CARDS.get(str(state.effective))
    if (spec is None or spec.kind != "section") and state.effective != AIR_SORTIE:
        return "M44-AIR-3", "tactic_card", _("A plane is deployed beside a command card other than a tactic card.")
    if not full_day(state):
        return "M44-AIR-3", "not_full_day", _("No plane is deployed before full daylight.")
    if flying(air, camp) is not None:
        return "M44-AIR-3", "one_plane", _("One plane per side on the board.")
    plane = air.planes[index]
    if plane.lost:
        return "M44-AIR-7", "plane_lost", _("A plane shot down never returns.")
    if type_lost(air, index):
        symbol = air.pack.planes[plane.plane].symbol
        return (
            "M44-AIR-7",
            "plane_type_lost",
            _("A {symbol} plane of this side was shot down: no plane of its type returns.", symbol=symbol),
        )
    if plane.hex is not None:
        return "M44-AIR-3", "on_the_board", _("That plane is already on the board.")
    return None


def _validate_deployed(state: State, event: PlaneDeployed, camp: int) -> None:
    air, index = _own_plane(state, camp, event.plane)
    problem = deploy_problem(state, camp, index)
    if problem is not None:
        raise _refuse(*problem, plane=event.plane)
    refused = general_problem(state, event.seat)
    if refused is not None:
        raise refused
    if event.hex not in state.board.hexes:
        raise _refuse("M44-AIR-3", "off_board", _("{hex} is not on the board.", hex=str(event.hex)))
    if enemy_plane_at(state, event.hex, camp):
        raise _refuse("M44-AIR-5", "air_occupied", _("An enemy plane flies over {hex}.", hex=hex_name(event.hex)))
    _check_air_card(air, camp, event.card)
    symbol = air.pack.planes[event.plane].symbol
    if event.use_effect and air.pack.cards[event.card].symbol != symbol:
        raise _refuse(
            "M44-AIR-3",
            "symbol_mismatch",
            _(
                "Only a card showing the plane's symbol ({symbol}) is used for its own effect; this one makes a "
                "standard attack only.",
                symbol=symbol,
            ),
        )


def _validate_ordered(state: State, event: PlaneOrdered, camp: int) -> None:
    air, index = _own_plane(state, camp, event.plane)
    _check_turn(state, camp, ("move",), _("A plane is ordered with the turn's units, before any battle"))
    if air.planes[index].hex is None:
        raise _refuse("M44-AIR-4", "not_flying", _("Only a plane on the board is ordered."))
    if index in air.activated:
        raise _refuse("M44-AIR-4", "ordered_twice", _("The plane is already ordered this turn."))
    refused = general_problem(state, event.seat)
    if refused is not None:
        raise refused
    if air.planes[index].grounded and flying(air, camp) is not None:
        raise _refuse("M44-AIR-13", "one_plane", _("A plane takes off only while no other of its side flies."))
    if event.move_order:
        refused = move_order_problem(state, index)
        if refused is not None:
            raise refused
        return
    problem = order_problem(state, camp, index)
    if problem is not None:
        raise _refuse("M44-AIR-4", "wrong_order", _("{problem}.", problem=problem), card=state.effective)


def _validate_moved(state: State, event: PlaneMoved, camp: int) -> None:
    air, index = _own_plane(state, camp, event.plane)
    _check_turn(state, camp, ("move",), _("Planes move with the units, before any battle"))
    if index not in air.activated or index in air.moved:
        raise _refuse("M44-AIR-5", "not_activated", _("A plane moves once, in a turn it is deployed or ordered."))
    here = air.planes[index].hex
    assert here is not None
    if not event.path:
        raise _refuse("M44-AIR-5", "empty_flight", _("A flight enters at least one hex."))
    for hex_ in event.path:
        if hex_ not in state.board.hexes or distance(here, hex_) != 1:
            raise _refuse(
                "M44-AIR-5",
                "illegal_flight",
                _("{hex} is not a board hex next to {here}.", hex=hex_name(hex_), here=hex_name(here)),
            )
        if enemy_plane_at(state, hex_, camp):
            raise _refuse(
                "M44-AIR-5",
                "air_occupied",
                _("A plane does not fly through the enemy plane at {hex}.", hex=hex_name(hex_)),
            )
        here = hex_
    if (event.markers or event.bomb) and index in air.move_ordered:
        raise _refuse("M44-AIR-14", "move_order", _("A plane on a move order flies but does not attack or bomb."))
    if event.markers and index in air.effect:
        raise _refuse("M44-AIR-3", "card_effect", _("The plane uses its air combat card's effect: no standard attack."))
    problem = marker_problem(state, camp, event.path, event.markers)
    if problem is not None:
        raise _refuse("M44-AIR-6", "bad_markers", _("Markers refused: {problem}.", problem=problem))
    if event.bomb:
        if index in air.effect:
            raise _refuse("M44-AIR-3", "card_effect", _("The plane uses its air combat card's effect: no bombing."))
        if bomb_target(state, camp, event.path[-1]) is None:
            raise _refuse(
                "M44-AIR-11",
                "no_objective",
                _(
                    "A bomb is laid where the plane stops, on an objective of its side not yet held (not a majority "
                    "objective, nor one the enemy retook from a bombing); {hex} is none.",
                    hex=hex_name(event.path[-1]),
                ),
            )


def bomb_target(state: State, camp: int, hex_: Hex) -> int | None:
    """The objective a bomb laid at `hex_` by `camp` would take, or None (M44-AIR-11, M44-AIR-16): one that
    `camp` may score and does not hold now, never one the enemy retook from a bombing."""
    air = state.air
    assert air is not None
    for index, objective in enumerate(state.objectives):
        if (
            hex_ in objective.hexes
            and objective.kind in BOMBED_KINDS
            and (objective.camp == camp or objective.kind not in OWN_SIDE_KINDS)
            and index not in air.retaken
            and objective_holder(state, index) != camp
        ):
            return index
    return None


def bombing_dice(air: AirState) -> tuple[int, ...]:
    """Dice a bombing may roll: one, or one per ammunition marker of the flight (M44-7, M44-AIR-11)."""
    return tuple(sorted({1, air.bomb_markers} - {0}))


def _validate_bombing(state: State, event: Bombing, camp: int) -> None:
    air = _air(state)
    _check_turn(state, camp, ("move", "battle"), _("A bombing comes in its side's turn"))
    _check_team_fight(state)
    if air.bomb is None:
        raise _refuse("M44-AIR-11", "no_bomb", _("No bomb token lies on an objective this turn."))
    if air.markers:
        raise _refuse("M44-AIR-11", "strikes_first", _("The bombing is rolled after the plane's standard attack."))
    if event.dice not in bombing_dice(air):
        raise _refuse(
            "M44-AIR-11",
            "wrong_dice_count",
            _(
                "A bombing rolls {counts} dice, not {reported}.",
                counts=either([str(n) for n in bombing_dice(air)]),
                reported=event.dice,
            ),
            reported=event.dice,
        )
    _check_faces(event.faces, event.dice, "M44-AIR-11")


def _check_faces(faces: tuple[str, ...], dice: int, rule: str) -> None:
    if len(faces) != dice or not set(faces) <= FACE_NAMES:
        raise _refuse(rule, "wrong_faces", _("Report the {count} faces rolled.", count=dice), faces=list(faces))


def _check_ambush_first(state: State) -> None:
    if state.ambush is not None and state.ambush_target is not None:
        raise _refuse("M44-5", "ambush_first", _("{card}: the ambushing unit fires first.", card=card_name("ambush")))


def _validate_strike(state: State, event: AirStrike, camp: int) -> None:
    air = _air(state)
    _check_turn(state, camp, ("move", "battle"), _("A plane's attack comes in its side's turn"))
    _check_team_fight(state)
    _check_ambush_first(state)
    if event.target not in air.markers:
        raise _refuse(
            "M44-AIR-6", "no_marker", _("There is no ammunition marker at {hex}.", hex=hex_name(event.target))
        )
    dice = strike_dice(state)
    if event.dice != dice:
        raise _refuse(
            "M44-AIR-6",
            "wrong_dice_count",
            (
                _(
                    "One die per marker and one more under {card}: {count}, not {reported}.",
                    card=card_name("their_finest_hour"),
                    count=dice,
                    reported=event.dice,
                )
                if dice == 2
                else _("One die per marker: {count}, not {reported}.", count=dice, reported=event.dice)
            ),
            computed=dice,
            reported=event.dice,
        )
    _check_faces(event.faces, dice, "M44-AIR-6")


def _validate_dogfight(state: State, event: Dogfight, camp: int) -> None:
    air, index = _own_plane(state, camp, event.plane)
    _check_turn(state, camp, ("move", "battle"), _("A dogfight comes in its side's turn"))
    _check_team_fight(state)
    plane = air.planes[index]
    if plane.hex is None or index not in air.activated:
        raise _refuse("M44-AIR-7", "not_activated", _("A plane ordered or deployed this turn duels."))
    if index in air.fought or index in air.effect:
        raise _refuse("M44-AIR-7", "fought", _("The plane has made its attack this turn."))
    if index in air.move_ordered:
        raise _refuse("M44-AIR-14", "move_order", _("A plane on a move order fights no dogfight."))
    enemy = flying(air, 1 - camp)
    if enemy is None or air.planes[enemy].hex is None or distance(plane.hex, air.planes[enemy].hex or plane.hex) != 1:
        raise _refuse("M44-AIR-7", "no_enemy_plane", _("A dogfight is fought against an enemy plane next to yours."))
    duel = air.pack.planes[plane.plane].duel
    if duel is None:
        raise _refuse(
            "M44-AIR-1",
            "missing_duel_value",
            _(
                "The duel value of {plane} is missing from the air pack ({field}).",
                plane=air.pack.planes[plane.plane].name,
                field=f"planes.{plane.plane}.duel",
            ),
            missing=f"planes.{plane.plane}.duel",
        )
    if event.dice != duel:
        raise _refuse(
            "M44-AIR-7",
            "wrong_dice_count",
            _("The plane rolls its duel value, {count} dice.", count=duel),
            computed=duel,
        )
    _check_faces(event.faces, duel, "M44-AIR-7")


def grounded_target(air: AirState, camp: int, plane: str) -> int | None:
    """The index of `plane` if it is an enemy plane standing on the ground (M44-AIR-13)."""
    index = plane_index(air, plane)
    if index is None or air.planes[index].camp == camp or not air.planes[index].grounded:
        return None
    return index


def anti_aircraft_problem(
    state: State, camp: int, unit: Unit, order: Order, plane: str | None = None
) -> RuleError | tuple[int, Message]:
    """Why the ordered `unit` cannot fire at the enemy plane now (the one flying, or `plane` on the
    ground), or (dice, how counted) (M44-AIR-8, M44-AIR-13)."""
    air = state.air
    assert air is not None and unit.hex is not None
    if plane is not None:
        index = grounded_target(air, camp, plane)
        if index is None:
            return _refuse(
                "M44-AIR-13", "not_on_ground", _("{plane} is no enemy plane on the ground.", plane=repr(plane))
            )
        enemy: int | None = index
    else:
        enemy = flying(air, 1 - camp)
    plane_hex = None if enemy is None else air.planes[enemy].hex
    if plane_hex is None:
        return _refuse("M44-AIR-8", "no_enemy_plane", _("There is no enemy plane on the board."))
    if order.battles >= battles_allowed(state, unit, order):
        return _refuse("M44-6", "no_battle_left", _("This unit has no battle left this turn."))
    if order.moved > battle_after_move(state, unit) or order.stopped:
        return _refuse(
            "M44-2", "cannot_battle", _("This {kind} cannot battle after its move.", kind=kind_name(unit.kind))
        )
    if adjacent_enemies(state, unit):
        return _refuse("M44-AIR-8", "enemy_adjacent", _("A unit next to an enemy ground unit battles it, not a plane."))
    if plane is not None:  # M44-AIR-13: a plane on the ground is a target at the unit's own ranges
        reach, dice = distance(unit.hex, plane_hex), UNIT_TYPES[unit.kind].dice
        if not 1 <= reach <= len(dice):
            return _refuse(
                "M44-AIR-13",
                "out_of_reach",
                _(
                    "{kind} reaches 1 to {count} hexes, not {reach}.",
                    kind=kind_name(unit.kind),
                    count=len(dice),
                    reach=reach,
                ),
            )
        return dice[reach - 1], _(
            "{kind} at range {range}: {count}", kind=kind_name(unit.kind), range=reach, count=dice[reach - 1]
        )
    counted = anti_aircraft_dice(state, unit, plane_hex)
    if isinstance(counted, Message):
        return _refuse("M44-AIR-8", "out_of_reach", _("Fire refused: {problem}.", problem=counted))
    return counted


def ambush_problem(state: State, camp: int, target: Hex | None) -> tuple[str, Message] | None:
    """(code, reason) why `camp` cannot answer the ammunition marker the enemy plane dropped on its unit
    at `target` with Ambush now, or None (M44-AIR-12)."""
    air = state.air
    assert air is not None
    if camp == state.active or state.ambush is not None or state.phase not in ("move", "battle"):
        return "ambush_timing", _("{card} answers an enemy's attack, once a turn.", card=card_name("ambush"))
    unit = unit_at(state, target) if target is not None else None
    if unit is None or unit.camp != camp or target not in air.markers or flying(air, 1 - camp) is None:
        return "ambush_target", _(
            "Against a plane, {card} names the hex of your unit it dropped a marker on.", card=card_name("ambush")
        )
    return None


def ambushing(state: State, camp: int) -> Unit | None:
    """The unit answering the enemy plane with Ambush, if `camp` is to fire it now (M44-AIR-12)."""
    air, hex_ = state.air, state.ambush_target
    if air is None or state.ambush != camp or hex_ is None or hex_ not in air.markers:
        return None
    return unit_at(state, hex_)


def _validate_anti_aircraft(state: State, event: AntiAircraft, camp: int) -> None:
    _air(state)  # refused without the air rules
    ambusher = ambushing(state, camp)
    if ambusher is not None:  # M44-AIR-12: the unit under the marker fires first, three dice
        if event.unit != ambusher.uid:
            raise _refuse(
                "M44-AIR-12",
                "ambush_fire",
                _("{card}: the unit under the marker fires at the plane.", card=card_name("ambush")),
            )
        if event.dice != GROUND_DICE:
            raise _refuse(
                "M44-AIR-12",
                "wrong_dice_count",
                _("{card}: {count} dice.", card=card_name("ambush"), count=GROUND_DICE),
                computed=GROUND_DICE,
            )
        _check_faces(event.faces, GROUND_DICE, "M44-AIR-12")
        return
    _check_turn(state, camp, ("move", "battle"), _("Ground units fire in their side's turn"))
    _check_team_fight(state)
    _check_ambush_first(state)
    unit, order = ordered_unit(state, event.unit, camp)
    counted = anti_aircraft_problem(state, camp, unit, order, event.plane)
    if isinstance(counted, RuleError):
        raise counted
    if event.dice != counted[0]:
        raise _refuse(
            "M44-AIR-8",
            "wrong_dice_count",
            _(
                "This fire gets {count} dice, not {reported}: {steps}.",
                count=counted[0],
                reported=event.dice,
                steps=counted[1],
            ),
            computed=counted[0],
        )
    _check_faces(event.faces, counted[0], "M44-AIR-8")


VALIDATORS: Validators = validators(
    on_camp(AirCardDrawn, _validate_drawn),
    on_camp(PlaneDeployed, _validate_deployed),
    on_camp(PlaneOrdered, _validate_ordered),
    on_camp(PlaneMoved, _validate_moved),
    on_camp(AirStrike, _validate_strike),
    on_camp(Dogfight, _validate_dogfight),
    on_camp(AntiAircraft, _validate_anti_aircraft),
    on_camp(Bombing, _validate_bombing),
)


# ---------------------------------------------------------------- evolve


def _with_air(state: State, air: AirState) -> State:
    return replace(state, air=air)


def _hand_plus(hand: Hand, card: str | None) -> Hand:
    if card is None:
        return Hand(known=hand.known, unknown=hand.unknown + 1)
    return Hand(known=(*hand.known, card), unknown=hand.unknown)


def _evolve_drawn(state: State, event: AirCardDrawn) -> State:
    air = _air(state)
    camp = state.seat_camp[event.seat]
    hands = list(air.hands)
    hands[camp] = _hand_plus(hands[camp], event.card)
    due = list(air.due)
    due[camp] -= 1
    return _with_air(state, replace(air, hands=(hands[0], hands[1]), due=(due[0], due[1])))


def _evolve_deployed(state: State, event: PlaneDeployed) -> State:
    air = _air(state)
    camp = state.seat_camp[event.seat]
    index = plane_index(air, event.plane)
    assert index is not None
    hands = list(air.hands)
    hands[camp] = take_card(hands[camp], event.card)
    planes = list(air.planes)
    planes[index] = replace(planes[index], hex=event.hex)
    return _with_air(
        state,
        replace(
            air,
            planes=tuple(planes),
            hands=(hands[0], hands[1]),
            discard=(*air.discard, event.card),
            card_played=True,
            activated=(*air.activated, index),
            effect=(*air.effect, index) if event.use_effect else air.effect,
        ),
    )


def _evolve_ordered(state: State, event: PlaneOrdered) -> State:
    air = _air(state)
    index = plane_index(air, event.plane)
    assert index is not None
    planes = list(air.planes)
    planes[index] = replace(planes[index], grounded=False)  # M44-AIR-13: a plane on the ground takes off
    move_ordered = (*air.move_ordered, index) if event.move_order else air.move_ordered
    return _with_air(
        state, replace(air, planes=tuple(planes), activated=(*air.activated, index), move_ordered=move_ordered)
    )


def _evolve_moved(state: State, event: PlaneMoved) -> State:
    air = _air(state)
    index = plane_index(air, event.plane)
    assert index is not None
    planes = list(air.planes)
    start = planes[index].hex
    planes[index] = replace(planes[index], hex=event.path[-1])
    camp = state.seat_camp[event.seat]
    air = replace(
        air,
        planes=tuple(planes),
        moved=(*air.moved, index),
        markers=event.markers,
        fought=(*air.fought, index) if event.markers or event.bomb else air.fought,
        bomb=bomb_target(state, camp, event.path[-1]) if event.bomb else None,
        bomb_markers=len(event.markers),
    )
    return replace(state, air=air, last_move=(start, *event.path) if start is not None else event.path)


def _evolve_strike(state: State, event: AirStrike) -> State:
    air = _air(state)
    markers = list(air.markers)
    markers.remove(event.target)
    state = replace(
        state, air=replace(air, markers=tuple(markers), battled=True), phase="battle", last_battle=event.target
    )
    target = unit_at(state, event.target)
    if target is None:
        return state
    hits, flags = strike_hits(event.faces, target.kind)
    figures = max(0, target.figures - hits)
    state = move_unit(state, target, target.hex, figures)
    if figures and flags:
        obstacle = state.obstacles.get(event.target)
        ignorable = 1 if obstacle and OBSTACLES[obstacle].ignores_flag else 0
        pending = Pending(kind="retreat", unit=target.uid, hex=event.target, flags=flags, ignorable=ignorable)
        state = replace(state, pending=pending)
    return recount(state)


def _plane_hit(state: State, camp: int, faces: tuple[str, ...], card: bool, enemy: int | None = None) -> State:
    """The enemy plane hit by `camp` (the one flying, unless `enemy` names one on the ground): destroyed on a
    grenade (a medal for `camp`, never to return, and in a dogfight an air combat card), driven off the
    board on a flag (M44-AIR-7, M44-AIR-8); on the ground, destroyed on a grenade or a flag, for an air
    combat card (M44-AIR-13)."""
    air = _air(state)
    if enemy is None:
        enemy = flying(air, 1 - camp)
        result = duel_faces_result(faces)
    else:
        result = "destroyed" if {"grenade", "flag"} & set(faces) else "missed"
    assert enemy is not None
    if result == "missed":
        return state
    planes = list(air.planes)
    planes[enemy] = replace(planes[enemy], hex=None, lost=result == "destroyed")
    air = replace(air, planes=tuple(planes))
    if result == "destroyed":
        kills = list(air.kills)
        kills[camp] += 1
        due = list(air.due)
        due[camp] += 1 if card else 0
        air = replace(air, kills=(kills[0], kills[1]), due=(due[0], due[1]))
    return recount(replace(state, air=air))


def _evolve_dogfight(state: State, event: Dogfight) -> State:
    air = _air(state)
    camp = state.seat_camp[event.seat]
    index = plane_index(air, event.plane)
    assert index is not None
    enemy = flying(air, 1 - camp)
    assert enemy is not None
    state = replace(
        state,
        air=replace(air, fought=(*air.fought, index), battled=True),
        phase="battle",
        last_battle=air.planes[enemy].hex,
    )
    return _plane_hit(state, camp, event.faces, card=True)


def _evolve_anti_aircraft(state: State, event: AntiAircraft) -> State:
    air = _air(state)
    camp = state.seat_camp[event.seat]
    if ambushing(state, camp) is not None:
        # M44-AIR-12: a plane the ambush downs or drives off does not finish its attack.
        state = _plane_hit(replace(state, ambush_target=None), camp, event.faces, card=False)
        assert state.air is not None
        enemy = flying(state.air, 1 - camp)
        return state if enemy is not None else replace(state, air=replace(state.air, markers=(), bomb=None))
    order = state.order_of(event.unit)
    assert order is not None
    enemy = flying(air, 1 - camp) if event.plane is None else plane_index(air, event.plane)
    assert enemy is not None
    state = replace(
        state,
        orders=set_order(state.orders, replace(order, battles=order.battles + 1)),
        air=replace(air, shot=(*air.shot, event.unit)),
        phase="battle",
        last_battle=air.planes[enemy].hex,
    )
    if event.plane is not None:
        return _plane_hit(state, camp, event.faces, card=True, enemy=enemy)
    return _plane_hit(state, camp, event.faces, card=False)


def _evolve_bombing(state: State, event: Bombing) -> State:
    air = _air(state)
    index = air.bomb
    assert index is not None
    state = replace(
        state, air=replace(air, bomb=None, battled=True), phase="battle", last_battle=state.objectives[index].hexes[0]
    )
    if "grenade" not in event.faces:
        return state
    if state.objectives[index].kind == "permanent":  # kept for good, as if a unit had entered it
        return recount(replace(state, permanent=(*state.permanent, index)))
    assert state.air is not None
    held = (index, state.seat_camp[event.seat])
    return recount(replace(state, air=replace(state.air, bombed=(*state.air.bombed, held))))


EVOLVERS: Evolvers = dispatch(
    on(AirCardDrawn, _evolve_drawn),
    on(PlaneDeployed, _evolve_deployed),
    on(PlaneOrdered, _evolve_ordered),
    on(PlaneMoved, _evolve_moved),
    on(AirStrike, _evolve_strike),
    on(Dogfight, _evolve_dogfight),
    on(AntiAircraft, _evolve_anti_aircraft),
    on(Bombing, _evolve_bombing),
)


# ---------------------------------------------------------------- legal events


def _flights(state: State, camp: int, index: int) -> dict[Hex, tuple[Hex, ...]]:
    """Every hex the plane can fly to, with one shortest flight to it (M44-AIR-5)."""
    air = state.air
    assert air is not None
    start = air.planes[index].hex
    assert start is not None
    found: dict[Hex, tuple[Hex, ...]] = {}
    frontier: list[tuple[Hex, ...]] = [()]
    while frontier:
        nxt = []
        for path in frontier:
            for hex_ in state.board.neighbours(path[-1] if path else start):
                if hex_ in found or hex_ == start or enemy_plane_at(state, hex_, camp):
                    continue
                found[hex_] = (*path, hex_)
                nxt.append(found[hex_])
        frontier = nxt
    return found


def _markers_along(state: State, camp: int, path: tuple[Hex, ...]) -> tuple[Hex, ...]:
    """The first run of enemy ground units along a flight, up to three (M44-AIR-6)."""
    run: list[Hex] = []
    for hex_ in path:
        unit = unit_at(state, hex_)
        if unit is not None and unit.camp != camp and (not run or distance(run[-1], hex_) == 1):
            run.append(hex_)
            if len(run) == MAX_MARKERS:
                break
        elif run:
            break
    return tuple(run)


def legal(state: State, seat: int) -> list[Memoire44Event]:
    """The air events `seat` may report now."""
    air = state.air
    if air is None:
        return []
    camp = state.seat_camp[seat]
    retreat = state.pending is not None and state.pending.kind == "retreat"
    events: list[Memoire44Event] = []
    if air.due[camp] > 0 and air_pile(air) > 0 and not retreat and state.phase not in ("deal",):
        events.append(AirCardDrawn(seat=seat))
    ambusher = ambushing(state, camp)
    if ambusher is not None:  # M44-AIR-12
        return [*events, AntiAircraft(seat=seat, unit=ambusher.uid, dice=GROUND_DICE, faces=())]
    if not retreat and "ambush" in state.hands[camp].known:
        for hex_ in air.markers:
            if ambush_problem(state, camp, hex_) is None:
                events.append(CardPlayed(seat=seat, card="ambush", target=hex_))
    if state.phase == "card" and not state.cards_to_take and lone_sortie_problem(state, camp) is None:
        events.append(CardPlayed(seat=seat, card=AIR_SORTIE))  # M44-AIR-15: the turn's only card
    if retreat or camp != state.active or state.phase not in ("move", "battle") or state.ambush_target is not None:
        return events
    if sortie_problem(state, camp) is None:
        events.append(CardPlayed(seat=seat, card=AIR_SORTIE))
    general = general_problem(state, seat) is None  # M44-AIR-17: at a team table, the card's general
    battles_open = team_fight_problem(state) is None  # M44-OV-6
    for index, plane in enumerate(air.planes):
        if plane.camp == camp:
            events += _plane_events(state, seat, index, general=general, battles_open=battles_open)
    if battles_open:
        events += _fire_events(state, seat)
    return events


def _plane_events(state: State, seat: int, index: int, general: bool, battles_open: bool) -> list[Memoire44Event]:
    """What `seat` may do with its plane `index` now: deploy it, order it, fly it, duel (M44-AIR-3 to M44-AIR-7)."""
    air = _air(state)
    camp, plane = state.seat_camp[seat], air.planes[index]
    if plane.hex is None:
        return _deploy_events(state, seat, index) if general else []
    events: list[Memoire44Event] = []
    if state.phase == "move" and general and index not in air.activated:
        takes_off = plane.grounded and flying(air, camp) is not None  # M44-AIR-13: one plane of a side flies
        if not takes_off and order_problem(state, camp, index) is None:
            events.append(PlaneOrdered(seat=seat, plane=plane.plane))
        if move_order_problem(state, index) is None:
            events.append(PlaneOrdered(seat=seat, plane=plane.plane, move_order=True))
    if state.phase == "move" and index in air.activated and index not in air.moved:
        events += _flight_events(state, seat, index)
    enemy = flying(air, 1 - camp)
    duel = air.pack.planes[plane.plane].duel
    if (
        battles_open
        and enemy is not None
        and index in air.activated
        and not {index} & {*air.fought, *air.effect, *air.move_ordered}
        and duel is not None
        and distance(plane.hex, air.planes[enemy].hex or plane.hex) == 1
    ):
        events.append(Dogfight(seat=seat, plane=plane.plane, dice=duel, faces=()))
    return events


def _deploy_events(state: State, seat: int, index: int) -> list[Memoire44Event]:
    """Each way to deploy plane `index` with an air combat card the side may hold (M44-AIR-3)."""
    air = _air(state)
    camp, plane = state.seat_camp[seat], air.planes[index]
    cards = set(air.hands[camp].known)
    if air.hands[camp].unknown:
        cards |= {c for c, spec in air.pack.cards.items() if air_copies(air, c) < spec.count}
    if not cards or deploy_problem(state, camp, index) is not None:
        return []
    symbol = air.pack.planes[plane.plane].symbol
    events: list[Memoire44Event] = []
    for card in sorted(cards):
        # The card's own effect instead of a standard attack, when it shows the plane's symbol (M44-AIR-3).
        uses = (False, True) if air.pack.cards[card].symbol == symbol else (False,)
        for hex_ in sorted(state.board.hexes):
            if not enemy_plane_at(state, hex_, camp):
                events.extend(
                    PlaneDeployed(seat=seat, plane=plane.plane, card=card, hex=hex_, use_effect=use) for use in uses
                )
    return events


def _flight_events(state: State, seat: int, index: int) -> list[Memoire44Event]:
    """Each flight of the ordered plane `index`, with its ammunition markers or its bomb (M44-AIR-5, 6, 11)."""
    air = _air(state)
    camp, plane = state.seat_camp[seat], air.planes[index]
    events: list[Memoire44Event] = []
    for path in _flights(state, camp, index).values():
        events.append(PlaneMoved(seat=seat, plane=plane.plane, path=path))
        attacks = index not in air.effect and index not in air.move_ordered
        markers = _markers_along(state, camp, path) if attacks else ()
        if markers:
            events.append(PlaneMoved(seat=seat, plane=plane.plane, path=path, markers=markers))
        if attacks and bomb_target(state, camp, path[-1]) is not None:
            events.append(PlaneMoved(seat=seat, plane=plane.plane, path=path, markers=markers, bomb=True))
    return events


def _fire_events(state: State, seat: int) -> list[Memoire44Event]:
    """The attacks `seat` may make now: strikes on the markers, the bombing, fire at the enemy plane
    (M44-AIR-6, M44-AIR-8, M44-AIR-11, M44-AIR-13)."""
    air = _air(state)
    camp = state.seat_camp[seat]
    events: list[Memoire44Event] = []
    for hex_ in air.markers:
        events.append(AirStrike(seat=seat, target=hex_, dice=strike_dice(state), faces=()))
    if air.bomb is not None and not air.markers:
        events.extend(Bombing(seat=seat, dice=dice, faces=()) for dice in bombing_dice(air))
    if flying(air, 1 - camp) is not None:
        for order in state.orders:
            unit = state.units[order.uid]
            if unit.hex is None:
                continue
            counted = anti_aircraft_problem(state, camp, unit, order)
            if not isinstance(counted, RuleError):
                events.append(AntiAircraft(seat=seat, unit=unit.uid, dice=counted[0], faces=()))
    for target in air.planes:
        if target.grounded and target.camp != camp:
            for order in state.orders:
                unit = state.units[order.uid]
                found = anti_aircraft_problem(state, camp, unit, order, target.plane) if unit.hex else None
                if isinstance(found, tuple):
                    events.append(AntiAircraft(seat=seat, unit=unit.uid, dice=found[0], faces=(), plane=target.plane))
    return events


# ---------------------------------------------------------------- the hooks the base rules call


def near_enemy_plane(state: State, unit: Unit) -> bool:
    """Whether an enemy plane flies next to `unit` or over it: Close Assault may order it against the plane
    (M44-AIR-9)."""
    air, here = state.air, unit.hex
    return (
        air is not None
        and here is not None
        and any(p.hex is not None and p.camp != unit.camp and distance(p.hex, here) <= 1 for p in air.planes)
    )


def lone_sortie_problem(state: State, camp: int) -> RuleError | None:
    """Why `camp` cannot play an Air Sortie as its turn's only card now (M44-AIR-15), or None: where any
    command card would come."""
    problem = sortie_problem(state, camp)
    if problem is not None:
        return problem
    if visibility_roll_due(state, camp):
        return _refuse("M44-NT-1", "roll_for_light", ROLL_FOR_LIGHT)
    if camp == commissar_camp(state) and state.committed:
        # M44-AIR-18: the nations' command rules do not bind the air rules, so the commissar's side may play it
        # in place of its turn's card, before placing one under the token; once placed, the token's card is due.
        return _refuse(
            "M44-AIR-18",
            "sortie_after_token",
            _(
                "Under the commissar a lone Air Sortie is played in place of the turn's card, before a card is "
                "placed under the token."
            ),
        )
    return None


def _on_marker(state: State, target: Hex | None) -> bool:
    """Whether an Ambush names a unit an enemy plane dropped an ammunition marker on (M44-AIR-12)."""
    return state.air is not None and target is not None and target in state.air.markers


def _validate_play(state: State, event: CardPlayed, camp: int, effective_card: EffectiveCard) -> bool:
    """An Air Sortie, held apart from the hand, alone or beside the turn's card (M44-AIR-15); an Ambush
    against a plane (M44-AIR-12)."""
    if event.card == AIR_SORTIE:
        problem = lone_sortie_problem(state, camp) if state.phase == "card" else sortie_problem(state, camp)
        if problem is not None:
            raise problem
        return True
    if event.card == "ambush" and _on_marker(state, event.target):
        check_hand(state, camp, "ambush")
        found = ambush_problem(state, camp, event.target)
        if found is not None:
            raise _refuse("M44-5", found[0], found[1])
        return True
    return False


def _evolve_play(state: State, event: CardPlayed, camp: int, card_in_play: CardInPlay) -> State | None:
    if event.card == AIR_SORTIE:  # M44-AIR-15: alone it is the turn's card, beside one it only orders the plane
        alone = state.phase == "card"
        state = sortie_played(state, camp, beside=not alone)
        return card_in_play(state, event, camp) if alone else state
    if event.card == "ambush" and _on_marker(state, event.target):
        hand = take_card(state.hands[camp], event.card)
        state = replace(state, hands=with_hand(state, camp, hand), discard=(*state.discard, event.card))
        return replace(state, ambush=camp, ambush_target=event.target)  # M44-AIR-12: the moves may go on
    return None


def _card_in_play(state: State, event: CardPlayed, camp: int, effective: str) -> State:
    """M44-AIR-9: Recon and Their Finest Hour draw air combat cards."""
    recon = bool(RECON_CARDS & {event.card, effective})
    return _with_air(state, cards_for_play(_air(state), camp, effective, recon))


def _ambush_first(state: State, camp: int) -> RuleError | None:
    if _on_marker(state, state.ambush_target):
        return _refuse(
            "M44-AIR-12",
            "ambush_first",
            _("{card}: the unit under the marker fires at the plane first.", card=card_name("ambush")),
        )
    return None


def _draws(state: State) -> tuple[int, RuleError] | None:
    if not lone_sortie(state):
        return None
    return 0, _refuse(
        "M44-AIR-15",
        "sortie_not_replaced",
        _("A lone Air Sortie is not replaced: the turn ends with no draw (turn_ended)."),
    )


def _move_problem(state: State, unit: Unit, hex_: Hex) -> tuple[str, Message] | None:
    if enemy_plane_at(state, hex_, unit.camp):
        return "M44-AIR-5", _("a ground unit does not move through the enemy plane at {hex}", hex=hex_name(hex_))
    return None


def _next_turn(state: State) -> State:
    """M44-AIR-4: a plane not activated in the turn just over leaves the board."""
    return _with_air(state, turn_over(_air(state), state.active))


EXPANSION = Expansion(
    name="air rules",
    in_play=lambda state: state.air is not None,
    validators=VALIDATORS,
    evolvers=EVOLVERS,
    legal=legal,
    before_battle=_ambush_first,
    next_turn=_next_turn,
    card_in_play=_card_in_play,
    validate_play=_validate_play,
    evolve_play=_evolve_play,
    played_as=played_as_sortie,
    draws=_draws,
    move_problem=_move_problem,
    near_enemy=near_enemy_plane,
)
