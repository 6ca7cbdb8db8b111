"""Mémoire 44 base rules (M44-1 to M44-6): `validate` refuses what cannot have happened, `evolve`
applies an accepted event with every consequence (hits, eliminations, medals, victory).

Turn (M44-6): play a card -> order units -> moves -> battles (each with its retreat and take-ground)
-> draw. The opening hands are drawn first, the side the scenario names starting.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from msgspec.structs import replace

from domain.i18n import Arg, Message, english
from domain.memoire44.battlefield import (
    adjacent_enemies,
    battle_after_move,
    battles_allowed,
    card_for,
    cards_held,
    commissar_camp,
    full_day,
    italian_camp,
    move_unit,
    ordered_unit,
    recount,
    set_order,
    take_card,
    unit_at,
)
from domain.memoire44.board import Board, Hex, distance, hex_name, sight_line
from domain.memoire44.catalogue import (
    ARMOUR,
    ARTILLERY,
    CARDS,
    FACE_NAMES,
    FULL_DAY,
    INFANTRY,
    NIGHT_DICE,
    OBSTACLES,
    RECON_CARDS,
    SECTIONS,
    UNIT_TYPES,
)
from domain.memoire44.events import (
    Battle,
    CardCommitted,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardTaken,
    DeckReshuffled,
    DiceRolled,
    GameEnded,
    GroundTaken,
    MedalAwarded,
    Memoire44Event,
    Retreated,
    TurnEnded,
    UnitMoved,
    UnitsOrdered,
    VisibilityRolled,
    WireRemoved,
)
from domain.memoire44.rules.common import (
    ALL_FACES,
    AMBUSH_FIRST,
    AMBUSH_IN_TURN,
    CARD_BATTLES,
    ROLL_FOR_LIGHT,
    check_commit_card,
    check_hand,
    check_nothing_to_take,
    check_unplaced,
    pile_size,
    refuse,
    visibility_roll_due,
    with_hand,
)
from domain.memoire44.rules.expansion import Evolvers, Validators, on_camp, validators
from domain.memoire44.rules.joined import (
    before_battle,
    before_orders,
    before_turn_end,
    before_unit_battle,
    check_hooks,
    expansion_draws,
    in_play,
    move_problems,
    played_as,
)
from domain.memoire44.rules.orders import may_order
from domain.memoire44.state import Hand, Order, Pending, State, Unit
from domain.memoire44.words import _, listed, section
from domain.memoire44.words import card as card_name
from domain.memoire44.words import kind as kind_name
from domain.memoire44.words import side as side_name
from domain.memoire44.words import terrain as terrain_name
from domain.memoire44.words import weather as weather_name
from domain.ruleset import dispatch, on

MIRROR = {"left": "right", "centre": "centre", "right": "left"}
_SECTION_LIST = listed([section(s) for s in SECTIONS])
_CARD_BATTLES: dict[str, Arg] = {"air_power": card_name("air_power"), "barrage": card_name("barrage")}
ROLL_CARDS = frozenset({"their_finest_hour", "medics_and_mechanics"})

# ---------------------------------------------------------------- small shared helpers


def toward_home(camp: int) -> int:
    """The row step of a retreat: camp 0's edge is row 0 (M44-3)."""
    return -1 if camp == 0 else 1


def protection(state: State, hex_: Hex, kind: str) -> tuple[int, Arg]:
    """Dice taken off an infantry or armour unit battling into `hex_` and why: terrain and obstacle
    reductions do not add up, the larger counts (M44-4). Hills are handled by the caller."""
    index = 0 if kind == INFANTRY else 1
    terrain = state.board.terrain[hex_]
    best, why = terrain.protection[index] if not terrain.hill else 0, terrain_name(terrain.name)
    obstacle = state.obstacles.get(hex_)
    if obstacle:
        cover = OBSTACLES[obstacle].protection[index]
        if cover > best:
            best, why = cover, terrain_name(OBSTACLES[obstacle].name)
    return best, why


# ---------------------------------------------------------------- nations, night and weather


def retreat_reach(state: State, unit: Unit) -> int:
    """Hexes a unit may retreat for each flag: 1, or up to 3 for Italian units (M44-IT-2)."""
    return 3 if state.expansions.italy_royal_army and unit.nation == "ita" else 1


def battles_back(state: State, unit: Unit) -> bool:
    """Whether `unit` is British Commonwealth under its command rule (M44-GB-1)."""
    return state.expansions.british_commonwealth and unit.nation == "brit"


def is_battle_back(state: State, attacker: Unit | None) -> bool:
    """Whether `attacker` is the British unit now battling back (M44-GB-1)."""
    pending = state.pending
    if pending is None or pending.kind != "battle_back" or attacker is None:
        return False
    return attacker.uid == pending.unit


# M44-RU-1: the cards the side under the commissar may play at once, from its hand.
COMMISSAR_FREE: frozenset[str] = frozenset({*RECON_CARDS, "counter_attack", "ambush"})


def plays_from_token(state: State, camp: int) -> bool:
    """Whether `camp`'s card this turn is the one placed under the commissar token on an earlier turn
    (M44-RU-2): it has placed this turn's card, and an older one lies beneath. Never at a team table, where
    the token's cards are handed out to the generals (M44-OV-8)."""
    return state.committed and camp == commissar_camp(state) and len(state.token) > 1 and not state.teams


BLITZ_ARMOUR_MOVE = 2


def blitz_slowed(state: State, unit: Unit) -> bool:
    """Whether `unit` is Allied armour under the Blitz rules, moving at most 2 hexes (M44-BL-2)."""
    return state.expansions.blitz and unit.kind == ARMOUR and state.sides[unit.camp] == "ALLIES"


def recon_played_as(state: State, camp: int, card: str) -> tuple[str, ...]:
    """The cards a Recon 1 of `camp` may be played as: Air Power for the German side under the Blitz
    rules (M44-BL-1), or an Air Sortie where the scenario deals them (M44-AIR-15), Barrage for the side
    with off-board artillery (M44-DD-5)."""
    if card not in RECON_CARDS:
        return ()
    found: list[str] = []
    if state.expansions.blitz and state.sides[camp] == "AXIS":
        found.append(played_as(state, "air_power"))  # an Air Sortie where the scenario deals them (M44-AIR-15)
    if state.expansions.off_board_artillery == state.sides[camp]:
        found.append("barrage")
    return tuple(found)


# ---------------------------------------------------------------- dice


def battle_dice(state: State, attacker: Unit | None, target: Unit, explain: bool = True) -> tuple[int, list[Message]]:
    """The dice a battle gets and the computation shown to the table (M44-2, M44-4, tactic cards).

    Checking a battle needs only the count: with `explain` False the steps are left empty (their words
    cost more than the count), and are asked for again only when a battle is refused."""
    assert target.hex is not None
    card = card_for(state, None if attacker is None else attacker.uid)
    if is_battle_back(state, attacker):
        return 1, [_("British Commonwealth battle back: 1 die, terrain ignored")] if explain else []
    if attacker is None:
        if card == "barrage":
            return 4, [_("{card}: {count} dice", card=card_name("barrage"), count=4)] if explain else []
        if state.expansions.snow:
            return 1, [_("{card} in snow: 1 per hex", card=card_name("air_power"))] if explain else []  # M44-WX-3
        superior = state.expansions.air_superiority or "ALLIES"  # M44-DD-4; the base game favours the Allies
        dice = 2 if state.sides[state.active] == superior else 1
        if not explain:
            return dice, []
        return dice, [
            _(
                "{card}: {count} per hex for the {side}",
                card=card_name("air_power"),
                count=dice,
                side=side_name(state.sides[state.active]),
            )
        ]
    assert attacker.hex is not None
    kind = UNIT_TYPES[attacker.kind]
    rng = distance(attacker.hex, target.hex)
    dice = kind.dice[rng - 1]
    steps: list[Message] = []
    if explain:
        steps.append(_("{kind} at range {range}: {count}", kind=kind_name(attacker.kind), range=rng, count=dice))
    close = rng == 1
    if attacker.kind != ARTILLERY:  # M44-2: artillery ignores terrain reductions
        less, why = protection(state, target.hex, attacker.kind)
        terrain = state.board.terrain
        hill = terrain[target.hex].hill and not terrain[attacker.hex].hill
        if hill and less < 1:
            less, why = 1, _("hill (battling up)")
        if less:
            dice -= less
            if explain:
                steps.append(_("target in {terrain}: -{count}", terrain=why, count=less))
        if attacker.kind == INFANTRY and state.obstacles.get(attacker.hex) == "wire":
            dice -= 1
            if explain:
                steps.append(_("battling from wire: -1"))
    # Tactic cards help the units they order, never an ambushing unit.
    bonus = attacker.camp == state.active and (
        (card == "armor_assault" and close and attacker.kind == ARMOUR)
        or (card == "close_assault" and close)
        or (card == "firefight" and not close)
        or card == "their_finest_hour"
    )
    if bonus:
        dice += 1
        if explain:
            steps.append(_("{card}: +1", card=card_name(str(card))))
    for x in in_play(state):
        if x.battle_bonus is not None and (extra := x.battle_bonus(state, attacker, close)) is not None:
            dice += extra[0]
            if explain:
                steps.append(extra[1])
    return max(dice, 0), steps


def unsure_dice(state: State, attacker: Unit | None, target: Unit, dice: int) -> tuple[int, ...]:
    """Other dice counts accepted where the reading is unsure (M44-7): whether Close Assault adds a die
    to the close assaults it orders."""
    if attacker is not None and card_for(state, attacker.uid) == "close_assault" and attacker.camp == state.active:
        assert attacker.hex is not None and target.hex is not None
        if distance(attacker.hex, target.hex) == 1 and dice > 1:
            return (dice - 1,)
    return ()


def hits_and_flags(faces: Iterable[str], target_kind: str, stars_hit: bool) -> tuple[int, int]:
    """Hits and flags of a roll on a unit of `target_kind` (M44-3)."""
    hits = flags = 0
    for face in faces:
        if face == "flag":
            flags += 1
        elif face == "grenade" or face == target_kind or (face == "star" and stars_hit):
            hits += 1
    return hits, flags


# ---------------------------------------------------------------- movement


def move_allowance(state: State, unit: Unit) -> int:
    """Hexes an ordered unit may move (M44-2 and the tactic cards)."""
    card = card_for(state, unit.uid)
    if card in ("dig_in", "firefight"):
        return 0
    if card == "behind_enemy_lines" and unit.kind == INFANTRY:
        return 3
    if card == "infantry_assault" and unit.kind == INFANTRY:
        return 3
    if card == "artillery_bombard" and unit.kind == ARTILLERY:
        return 3
    if blitz_slowed(state, unit):
        return BLITZ_ARMOUR_MOVE
    return UNIT_TYPES[unit.kind].move


def moves_allowed(state: State, unit: Unit) -> int:
    """Separate moves a unit makes: Behind Enemy Lines moves, battles and moves again."""
    return 2 if card_for(state, unit.uid) == "behind_enemy_lines" and unit.kind == INFANTRY else 1


def path_problem(
    state: State, unit: Unit, path: tuple[Hex, ...], allowance: int, free: bool = False
) -> tuple[str, Message] | None:
    """(rule id, reason) why a unit cannot move along `path`, or None: its allowance (M44-2), the board
    and other units (M44-1), terrain (M44-4; `free` ignores terrain stops, as Behind Enemy Lines does)."""
    if not path:
        return "M44-2", _("a move enters at least one hex")
    if len(path) > allowance:
        rule = "M44-BL-2" if blitz_slowed(state, unit) and allowance == BLITZ_ARMOUR_MOVE else "M44-2"
        return rule, _.ngettext(
            "{kind} may move {count} hex here, not {moved}",
            "{kind} may move {count} hexes here, not {moved}",
            allowance,
            kind=kind_name(unit.kind),
            moved=len(path),
        )
    board = state.board
    here = unit.hex
    assert here is not None
    if state.expansions.snow and len(path) > 2:
        on_road = all(board.terrain.get(h) is not None and board.terrain[h].name == "road" for h in (here, *path))
        if len(path) > 3 or not on_road:
            return "M44-WX-1", _("in snow a unit moves at most 2 hexes, 3 along a road, not {moved}", moved=len(path))
    others = move_problems(state)
    for step, hex_ in enumerate(path):
        if hex_ not in board.hexes:
            return "M44-1", _("{hex} is not on the board", hex=str(hex_))
        if distance(here, hex_) != 1:
            return "M44-1", _("{hex} is not next to {here}", hex=hex_name(hex_), here=hex_name(here))
        if not board.passable(hex_):
            return "M44-4", _(
                "{hex} is {terrain} with no bridge", hex=hex_name(hex_), terrain=terrain_name(board.terrain[hex_].name)
            )
        if hex_ in state.occupant:
            return "M44-1", _("{hex} is occupied", hex=hex_name(hex_))
        for check in others:
            if (blocked := check(state, unit, hex_)) is not None:
                return blocked
        obstacle = state.obstacles.get(hex_)
        if obstacle == "hedgehog" and unit.kind != INFANTRY:
            return "M44-4", _("hedgehogs at {hex} stop armour and artillery", hex=hex_name(hex_))
        if not free and (stopped := _terrain_stop(state, board, path, step)) is not None:
            return stopped
        here = hex_
    return None


def _terrain_stop(state: State, board: Board, path: tuple[Hex, ...], step: int) -> tuple[str, Message] | None:
    """Why the terrain of the `step`th hex of a move stops it there or earlier (M44-4), or None."""
    hex_ = path[step]
    terrain, obstacle = board.terrain[hex_], state.obstacles.get(hex_)
    if terrain.hedgerow and step > 0:
        return "M44-4", _("a hedgerow ({hex}) is entered only from the hex next to it", hex=hex_name(hex_))
    if (terrain.stops or obstacle == "wire") and step < len(path) - 1:
        what = "wire" if obstacle == "wire" else terrain.name
        return "M44-4", _(
            "a unit entering {terrain} at {hex} stops there", terrain=terrain_name(what), hex=hex_name(hex_)
        )
    if terrain.beach and len(path) > 2:
        return "M44-4", _("a unit moving onto a beach moves at most 2 hexes")
    return None


def reachable(state: State, unit: Unit, allowance: int, free: bool) -> dict[Hex, tuple[Hex, ...]]:
    """Every hex a unit can end a move in, with one path to it."""
    assert unit.hex is not None
    found: dict[Hex, tuple[Hex, ...]] = {}
    frontier: list[tuple[Hex, ...]] = [()]
    for _step in range(allowance):
        nxt: list[tuple[Hex, ...]] = []
        for path in frontier:
            last = path[-1] if path else unit.hex
            for hex_ in state.board.neighbours(last):
                if hex_ in found or hex_ == unit.hex:
                    continue
                candidate = (*path, hex_)
                if path_problem(state, unit, candidate, allowance, free) is None:
                    found[hex_] = candidate
                    nxt.append(candidate)
        frontier = nxt
    return found


# ---------------------------------------------------------------- battles


def battle_problem(state: State, unit: Unit, order: Order | None, target_hex: Hex) -> tuple[str, Message] | None:
    """(rule id, reason) why `unit` cannot battle `target_hex` now, or None."""
    assert unit.hex is not None
    if order is None:
        return "M44-6", _("only an ordered unit battles")
    if order.battles >= battles_allowed(state, unit, order):
        return "M44-6", _("this unit has no battle left this turn")
    if order.moved > battle_after_move(state, unit):
        return "M44-2", _.ngettext(
            "{kind} that moved {count} hex cannot battle",
            "{kind} that moved {count} hexes cannot battle",
            order.moved,
            kind=kind_name(unit.kind),
        )
    if order.stopped:
        return "M44-4", _("a unit that entered this terrain cannot battle this turn")
    if state.board.terrain[unit.hex].no_battle_from:
        return "M44-4", _("no battle from the ocean")
    target = unit_at(state, target_hex)
    if target is None or target.camp == unit.camp:
        return "M44-2", _("there is no enemy unit at {hex}", hex=hex_name(target_hex))
    rng = distance(unit.hex, target_hex)
    reach = len(UNIT_TYPES[unit.kind].dice)
    if rng > reach:
        return "M44-2", _(
            "{hex} is {range} hexes away; {kind} reaches {reach}",
            hex=hex_name(target_hex),
            range=rng,
            kind=kind_name(unit.kind),
            reach=reach,
        )
    if rng > 1 and adjacent_enemies(state, unit):
        return "M44-2", _("a unit next to an enemy must battle an adjacent enemy (close assault)")
    if rng == 1 and (order.card if state.teams else state.effective) == "firefight":
        return "M44-5", _("{card}: ordered units open fire, not close assault", card=card_name("firefight"))
    if rng > 1 and state.expansions.reduced_visibility:
        return "M44-WX-2", _(
            "in {weather} a unit battles only an enemy next to it", weather=weather_name(state.expansions.weather)
        )
    if not full_day(state) and rng > state.visibility:
        light = state.visibility
        return "M44-NT-1", _.ngettext(
            "at night visibility level {count} a unit battles at most {count} hex away",
            "at night visibility level {count} a unit battles at most {count} hexes away",
            light,
        )
    if rng > 1 and unit.kind != ARTILLERY and not in_sight(state, unit.hex, target_hex):
        # M44-7: whether artillery needs line of sight is unsure, so its battles are accepted.
        return "M44-4", _(
            "no line of sight from {hex} to {target}", hex=hex_name(unit.hex), target=hex_name(target_hex)
        )
    return None


def card_battle_problem(state: State, camp: int, target_hex: Hex) -> tuple[str, Message] | None:
    """(code, reason) why Air Power or Barrage cannot hit `target_hex` now, or None."""
    target = unit_at(state, target_hex)
    if target is None or target.camp == camp:
        return "no_target", _("There is no enemy unit at {hex}.", hex=hex_name(target_hex))
    if state.effective == "barrage" and state.card_targets:
        return "one_barrage", _("{card} targets one enemy unit.", card=card_name("barrage"))
    if state.effective == "air_power":
        if len(state.card_targets) >= 4 or target_hex in state.card_targets:
            return "air_power_group", _("{card} targets up to 4 different units.", card=card_name("air_power"))
        if state.card_targets and not any(distance(h, target_hex) == 1 for h in state.card_targets):
            return "air_power_group", _(
                "{card} targets a group of units next to each other.", card=card_name("air_power")
            )
    return None


def in_sight(state: State, a: Hex, b: Hex) -> bool:
    """Line of sight from `a` to `b`: blocked by units and by blocking terrain between them; a line
    along hex edges is blocked only when both sides are (M44-4)."""
    board = state.board

    def blocked(hex_: Hex) -> bool:
        if hex_ not in board.hexes:
            return False
        return hex_ in state.occupant or board.blocks_sight(hex_, a, b)

    return not any(blocked(left) and (left == right or blocked(right)) for left, right in sight_line(a, b))


def retreat_depth(state: State, unit: Unit, start: Hex, steps: int) -> int:
    """The longest retreat (up to `steps` hexes) a unit can make from `start` (M44-3)."""
    if steps == 0:
        return 0
    best = 0
    for hex_ in retreat_steps(state, unit, start):
        best = max(best, 1 + retreat_depth(state, unit, hex_, steps - 1))
        if best == steps:
            break
    return best


def retreat_steps(state: State, unit: Unit, start: Hex) -> list[Hex]:
    """Hexes a retreating unit may step into from `start`: one row towards its edge, free, passable
    (terrain does not stop a retreat, M44-3)."""
    row, col = start
    step = toward_home(unit.camp)
    found = []
    for hex_ in ((row + step, col - 1), (row + step, col + 1)):
        if hex_ not in state.board.hexes or not state.board.passable(hex_):
            continue
        if hex_ in state.occupant and state.occupant[hex_] != unit.uid:
            continue
        if state.obstacles.get(hex_) == "hedgehog" and unit.kind != INFANTRY:
            continue
        found.append(hex_)
    return found


# ---------------------------------------------------------------- validate


def _check_turn_done(state: State, camp: int) -> None:
    """What must happen before the active side ends its turn, with its draw or without one (M44-6)."""
    if state.ambush_target is not None:
        raise refuse("M44-5", "ambush_first", AMBUSH_FIRST)
    check_hooks(state, camp, before_turn_end)


def _validate_drawn(state: State, event: CardDrawn, camp: int) -> None:
    check_nothing_to_take(state)
    if state.phase in ("deal", "draw"):
        if state.draws_due[camp] == 0:
            raise refuse("M44-6", "no_draw_due", _("This side has no card to draw now."))
    elif state.phase in ("move", "battle") and camp == state.active:
        ruled = expansion_draws(state)
        if ruled is not None and ruled[0] == 0:
            raise ruled[1]
        _check_turn_done(state, camp)
    else:
        raise refuse("M44-6", "not_drawing", _("Cards are drawn at the end of the turn."), phase=state.phase)
    if pile_size(state) == 0 or state.reshuffle_due:
        raise refuse("G-4", "reshuffle_first", _("The discards must be reshuffled into a new draw pile first."))
    if event.card is not None:
        check_unplaced(state, event.card)


def _validate_played(state: State, event: CardPlayed, camp: int) -> None:
    check_nothing_to_take(state)
    if any(x.validate_play and x.validate_play(state, event, camp, _effective_card) for x in in_play(state)):
        return
    if event.card == "ambush":
        _validate_ambush(state, event, camp)
        return
    if camp != state.active or state.phase != "card":
        raise refuse("M44-6", "not_your_card", _("A command card is played at the start of its side's turn."))
    if visibility_roll_due(state, camp):
        raise refuse("M44-NT-1", "roll_for_light", ROLL_FOR_LIGHT)
    if plays_from_token(state, camp):
        older = state.token[0]
        if older is not None and event.card != older:
            raise refuse(
                "M44-RU-2",
                "token_card",
                _("The commissar's card is played: {card}, placed under the token last turn.", card=card_name(older)),
                card=event.card,
            )
        if older is None:
            check_unplaced(state, event.card)
    elif camp == commissar_camp(state) and not state.committed and event.card not in COMMISSAR_FREE:
        raise refuse(
            "M44-RU-1",
            "commit_first",
            _(
                "The commissar's side first places a card under the token; only Recon 1, {counter_attack} and "
                "{ambush} are played at once.",
                counter_attack=card_name("counter_attack"),
                ambush=card_name("ambush"),
            ),
            card=event.card,
        )
    else:
        check_hand(state, camp, event.card)
    effective = _effective_card(state, event, camp)
    if effective == "infantry_assault":
        if event.section not in SECTIONS:
            raise refuse(
                "M44-5",
                "section_needed",
                _("{card} names a section ({sections}).", card=card_name("infantry_assault"), sections=_SECTION_LIST),
            )
    elif event.section is not None and effective != "counter_attack":
        raise refuse("M44-5", "no_section_choice", _("{card} takes no section choice.", card=card_name(event.card)))
    if effective == "ambush":
        raise refuse("M44-5", "ambush_in_turn", AMBUSH_IN_TURN)


def _validate_turn_ended(state: State, event: TurnEnded, camp: int) -> None:
    check_nothing_to_take(state)
    if camp != state.active or state.phase not in ("move", "battle"):
        raise refuse("M44-6", "not_ending", _("A side ends its own turn, after its card's orders."), phase=state.phase)
    ruled = expansion_draws(state)
    if not (ruled is not None and ruled[0] == 0):
        raise refuse(
            "M44-6",
            "draw_to_end",
            _(
                "A turn ends with its draw; only a lone Air Sortie's turn (M44-AIR-15), or at a team table a turn "
                "ending with the commander-in-chief's hand full (M44-OV-4), draws nothing."
            ),
        )
    _check_turn_done(state, camp)


def _effective_card(state: State, event: CardPlayed, camp: int) -> str:
    """The card a played card acts as: a Recon 1 played as another card, or the card Counter-Attack copies."""
    effective = event.card
    if event.as_card is not None:
        if event.as_card not in recon_played_as(state, camp, event.card):
            raise refuse(
                "M44-DD-5" if event.as_card == "barrage" else "M44-BL-1",
                "not_as_card",
                _(
                    "A Recon 1 card is played as {air_power} (or as an Air Sortie where the scenario deals them) "
                    "only by the German side under the Blitz rules, and as {barrage} only by the side with "
                    "off-board artillery.",
                    air_power=card_name("air_power"),
                    barrage=card_name("barrage"),
                ),
                card=event.card,
                as_card=event.as_card,
            )
        effective = event.as_card
    effective = played_as(state, effective)
    if event.card == "counter_attack":
        answered = state.last_played[1 - camp]
        if answered is None:
            raise refuse(
                "M44-5",
                "nothing_to_counter",
                _("{card} copies a card the enemy has played.", card=card_name("counter_attack")),
            )
        effective = answered[0]
    return effective


def ambush_problem(state: State, camp: int, target: Hex | None) -> tuple[str, Message] | None:
    """(code, reason) why `camp` cannot answer the unit at `target` with Ambush now, or None."""
    ambush = card_name("ambush")
    if camp == state.active or state.phase not in ("move", "battle") or state.ambush is not None:
        return "ambush_timing", _("{card} answers an enemy's close assault, once a turn.", card=ambush)
    if state.pending is not None and state.pending.kind == "retreat":
        return "ambush_timing", _("A retreat is still to be reported.")
    attacker = unit_at(state, target) if target is not None else None
    if attacker is None or attacker.camp != state.active:
        return "ambush_target", _("{card} names the hex of the enemy unit assaulting.", card=ambush)
    order = state.order_of(attacker.uid)
    if order is None or order.battles > 0 or not adjacent_enemies(state, attacker):
        return "ambush_target", _(
            "{card} answers an ordered enemy unit, next to yours, that has not battled yet.", card=ambush
        )
    return None


def _validate_ambush(state: State, event: CardPlayed, camp: int) -> None:
    check_hand(state, camp, "ambush")
    problem = ambush_problem(state, camp, event.target)
    if problem is not None:
        raise refuse("M44-5", problem[0], problem[1])


def _validate_rolled(state: State, event: DiceRolled, camp: int) -> None:
    if camp != state.active or state.phase != "roll":
        raise refuse("M44-5", "no_roll", _("No tactic card is waiting for its roll."))
    expected = cards_held(state, camp) + 1
    if len(event.faces) != expected or not set(event.faces) <= FACE_NAMES:
        raise refuse(
            "M44-5",
            "wrong_roll",
            _(
                "{card} rolls one die per card in hand, this one included: {count} dice.",
                card=card_name(str(state.card)),
                count=expected,
            ),
            expected=expected,
            reported=len(event.faces),
        )


def _validate_ordered(state: State, event: UnitsOrdered, camp: int) -> None:
    if camp != state.active or state.phase != "order":
        raise refuse("M44-6", "not_ordering", _("Units are ordered after the card is played."), phase=state.phase)
    check_hooks(state, camp, before_orders)
    if len(set(event.units)) != len(event.units) or any(state.order_of(uid) for uid in event.units):
        raise refuse("M44-6", "ordered_twice", _("A unit is ordered once a turn."))
    for x in in_play(state):
        if x.validate_orders is not None:
            x.validate_orders(state, event, camp)
    for uid in event.units:
        if not 0 <= uid < len(state.units) or state.units[uid].camp != camp or state.units[uid].hex is None:
            raise refuse(
                "M44-6",
                "not_your_unit",
                _("Unit {unit} is not one of this side's units on the board.", unit=str(uid)),
                unit=uid,
            )
    problem = may_order(state, camp, event.units)
    # M44-OV-9: one more unit than the card allows, of any kind, in the same section.
    if (
        problem is not None
        and any(x.extra_order is not None and x.extra_order(state, camp) for x in in_play(state))
        and any(may_order(state, camp, tuple(u for u in event.units if u != extra)) is None for extra in event.units)
    ):
        problem = None
    if problem is not None:
        raise refuse(
            "M44-5",
            "wrong_order",
            _("{card}: {problem}.", card=card_name(str(state.effective)), problem=problem),
            card=state.effective,
            units=list(event.units),
        )


def _validate_moved(state: State, event: UnitMoved, camp: int) -> None:
    if camp != state.active or state.phase not in ("move", "battle"):
        raise refuse("M44-6", "not_moving", _("Units move after they are ordered."), phase=state.phase)
    unit, order = ordered_unit(state, event.unit, camp)
    if order.advance:
        # M44-NA-1: armour that took ground in the desert advances one more hex before its overrun.
        problem = path_problem(state, unit, event.path, 1)
        if problem is not None:
            raise refuse(
                "M44-NA-1",
                "illegal_advance",
                _("Desert advance refused: {problem}.", problem=problem[1]),
                unit=event.unit,
            )
        return
    second = card_for(state, unit.uid) == "behind_enemy_lines" and order.moves == 1 and order.battles == 1
    if state.phase == "battle" and not second:
        raise refuse("M44-6", "moves_before_battles", _("All moves come before the first battle."))
    if order.moves >= moves_allowed(state, unit) or (order.moves == 1 and not second):
        raise refuse("M44-6", "moved_already", _("This unit has already moved this turn."))
    allowance = move_allowance(state, unit)
    free = card_for(state, unit.uid) == "behind_enemy_lines" and unit.kind == INFANTRY
    problem = path_problem(state, unit, event.path, allowance, free)
    if problem is not None:
        raise refuse(
            problem[0],
            "illegal_move",
            _("Move refused: {problem}.", problem=problem[1]),
            unit=event.unit,
            path=[list(h) for h in event.path],
        )


def _validate_wire(state: State, event: WireRemoved, camp: int) -> None:
    if camp != state.active or state.phase not in ("move", "battle"):
        raise refuse("M44-6", "not_battling", _("Wire is removed in place of a battle."))
    unit, order = ordered_unit(state, event.unit, camp)
    assert unit.hex is not None
    if unit.kind != INFANTRY or state.obstacles.get(unit.hex) != "wire":
        raise refuse("M44-4", "no_wire", _("Infantry removes the wire in its own hex."))
    if order.battles >= battles_allowed(state, unit, order):
        raise refuse("M44-4", "no_battle_left", _("Removing wire takes the unit's battle."))


def _validate_battle(state: State, event: Battle, camp: int) -> None:
    if state.phase not in ("move", "battle"):
        raise refuse("M44-6", "not_battling", _("Battles follow the moves."), phase=state.phase)
    target = unit_at(state, event.target)
    attacker = _battling_unit(state, event, camp, target)
    assert target is not None
    _check_battle_dice(state, event, attacker, target)


def _battling_unit(state: State, event: Battle, camp: int, target: Unit | None) -> Unit | None:
    """The unit battling (None for a card's own battle), once the battle is one `camp` may report now: a
    British battle back, an Ambush's answer, a card's battle or an ordered unit's."""
    pending = state.pending
    if pending is not None and pending.kind == "battle_back" and camp == state.units[pending.unit].camp:
        if event.unit != pending.unit or event.target != pending.hex or target is None:
            raise refuse(
                "M44-GB-1",
                "battle_back",
                _(
                    "The British unit battles back against the unit at {hex} that assaulted it.",
                    hex=hex_name(pending.hex),
                ),
            )
        return state.units[pending.unit]
    check_hooks(state, camp, before_battle)
    if state.ambush is not None and state.ambush_target is not None:
        return _ambushing_unit(state, event, camp)
    if camp != state.active:
        raise refuse("M44-6", "not_your_turn", _("Only the side whose turn it is battles."))
    if event.unit is None:
        _check_card_battle(state, event, camp)
        return None
    attacker, order = ordered_unit(state, event.unit, camp)
    if card_for(state, event.unit) in CARD_BATTLES:
        raise refuse("M44-5", "card_battle", _("{card} orders no units.", card=card_name(str(state.effective))))
    check_hooks(state, camp, before_unit_battle)
    problem = battle_problem(state, attacker, order, event.target)
    if problem is not None:
        raise refuse(
            problem[0],
            "illegal_battle",
            _("Battle refused: {problem}.", problem=problem[1]),
            unit=event.unit,
            target=list(event.target),
        )
    return attacker


def _ambushing_unit(state: State, event: Battle, camp: int) -> Unit:
    """Ambush: a unit of the ambushing side next to the assaulting unit battles it first (M44-5)."""
    if camp != state.ambush:
        raise refuse("M44-5", "ambush_first", AMBUSH_FIRST)
    attacker = state.units[event.unit] if event.unit is not None and 0 <= event.unit < len(state.units) else None
    if (
        attacker is None
        or attacker.camp != camp
        or attacker.hex is None
        or event.target != state.ambush_target
        or distance(attacker.hex, event.target) != 1
    ):
        raise refuse(
            "M44-5",
            "ambush_battle",
            _("{card}: a unit next to the assaulting unit battles it.", card=card_name("ambush")),
        )
    return attacker


def _check_card_battle(state: State, event: Battle, camp: int) -> None:
    """Air Power and Barrage battle with no unit, in full daylight (M44-5, M44-NT-2)."""
    if state.effective not in CARD_BATTLES:
        raise refuse(
            "M44-5", "no_card_battle", _("Only {air_power} and {barrage} battle without a unit.", **_CARD_BATTLES)
        )
    if not full_day(state):
        raise refuse(
            "M44-NT-2", "not_full_day", _("{air_power} and {barrage} battle only in full daylight.", **_CARD_BATTLES)
        )
    check_hooks(state, camp, before_orders)
    problem = card_battle_problem(state, camp, event.target)
    if problem is not None:
        raise refuse("M44-5", problem[0], problem[1])


def _in_english(counted: Sequence[Message]) -> list[str]:
    """A dice computation's steps for a refusal's details, which stay English as every machine field:
    told only when a battle is refused, never on the way of an accepted one."""
    return [english(step) for step in counted]


def _check_battle_dice(state: State, event: Battle, attacker: Unit | None, target: Unit) -> None:
    """The dice reported are the dice the battle gets (M44-2, M44-7), with their faces (M44-3)."""
    dice = battle_dice(state, attacker, target, explain=False)[0]
    if dice == 0 or (event.dice != dice and event.dice not in unsure_dice(state, attacker, target, dice)):
        counted = battle_dice(state, attacker, target)[1]  # the steps, told only with a refusal
        if dice == 0:
            raise refuse(
                "M44-4",
                "no_dice",
                _("This battle gets no dice ({steps}).", steps=listed(counted, sep="; ")),
                computation=_in_english(counted),
            )
        raise refuse(
            "M44-2",
            "wrong_dice_count",
            _.ngettext(
                "This battle gets {count} die, not {reported}: {steps}.",
                "This battle gets {count} dice, not {reported}: {steps}.",
                dice,
                reported=event.dice,
                steps=listed(counted, sep="; "),
            ),
            computed=dice,
            reported=event.dice,
            computation=_in_english(counted),
        )
    if len(event.faces) != event.dice or not set(event.faces) <= FACE_NAMES:
        raise refuse(
            "M44-3",
            "wrong_faces",
            _("Report the {count} faces rolled ({faces}).", count=dice, faces=ALL_FACES),
            faces=list(event.faces),
        )


def _validate_retreat(state: State, event: Retreated, camp: int) -> None:
    pending = state.pending
    if pending is None or pending.kind != "retreat" or pending.unit != event.unit:
        raise refuse("M44-3", "no_retreat", _("That unit has no retreat to make."))
    unit = state.units[event.unit]
    if unit.camp != camp:
        raise refuse("M44-3", "not_your_unit", _("A retreat is reported by the retreating unit's side."))
    here = pending.hex
    for hex_ in event.path:
        if hex_ not in retreat_steps(state, unit, here):
            raise refuse(
                "M44-3",
                "bad_retreat",
                _("{hex} is not a free hex one row back from {here}.", hex=hex_name(hex_), here=hex_name(here)),
            )
        here = hex_
    longest = pending.flags * retreat_reach(state, unit)
    if len(event.path) > longest:
        rule = "M44-IT-2" if longest > pending.flags else "M44-3"
        raise refuse(
            rule,
            "too_far",
            _.ngettext(
                "The unit retreats at most {count} hex, not {reported}.",
                "The unit retreats at most {count} hexes, not {reported}.",
                longest,
                reported=len(event.path),
            ),
        )
    if len(event.path) < pending.flags - pending.ignorable:
        best = retreat_depth(state, unit, pending.hex, pending.flags - pending.ignorable)
        if len(event.path) < best:
            raise refuse(
                "M44-3",
                "retreat_further",
                _.ngettext(
                    "The unit can retreat {count} hex; it takes a hit only for hexes it cannot.",
                    "The unit can retreat {count} hexes; it takes a hit only for hexes it cannot.",
                    best,
                ),
                possible=best,
            )


def _validate_ground(state: State, event: GroundTaken, camp: int) -> None:
    pending = state.pending
    if pending is None or pending.kind != "take_ground" or pending.unit != event.unit or pending.hex != event.to:
        raise refuse("M44-2", "no_ground", _("Ground is taken only into the hex a close assault just emptied."))
    if state.units[event.unit].camp != camp:
        raise refuse("M44-2", "not_your_unit", _("Ground is taken by the attacking unit."))
    unit = state.units[event.unit]
    if event.to in state.occupant or path_problem(state, unit, (event.to,), 1, free=True) is not None:
        raise refuse("M44-2", "no_ground", _("The unit cannot enter {hex}.", hex=hex_name(event.to)))


def _validate_discard(state: State, event: CardDiscarded, camp: int) -> None:
    if state.phase != "recon" or camp != state.active:
        raise refuse("M44-5", "no_recon", _("A card is discarded after the Recon draw only."))
    check_hand(state, camp, event.card)


def _validate_reshuffle(state: State, event: DeckReshuffled, camp: int) -> None:
    if not (pile_size(state) == 0 or state.reshuffle_due):
        raise refuse(
            "G-4",
            "no_reshuffle",
            _("The draw pile is reshuffled only when empty or by {card}.", card=card_name("their_finest_hour")),
        )


def _validate_taken(state: State, event: CardTaken, camp: int) -> None:
    italian = italian_camp(state)
    if not state.cards_to_take or italian is None:
        raise refuse("M44-IT-1", "nothing_to_take", _("No card is to be taken from an Italian hand now."))
    if camp == italian:
        raise refuse("M44-IT-1", "taker", _("The enemy of the Italian side takes the card."))
    check_hand(state, italian, event.card)


def _validate_committed(state: State, event: CardCommitted, camp: int) -> None:
    check_nothing_to_take(state)
    if camp != commissar_camp(state):
        raise refuse("M44-RU-1", "no_commissar", _("Only the side under the commissar rule places cards under it."))
    if not any(x.validate_commit is not None and x.validate_commit(state, event, camp) for x in in_play(state)):
        if camp != state.active or state.phase != "card" or state.committed:
            raise refuse(
                "M44-RU-1", "commit_timing", _("One card is placed under the token, at the start of the turn.")
            )
        if visibility_roll_due(state, camp):
            raise refuse("M44-NT-1", "roll_for_light", ROLL_FOR_LIGHT)
        if state.hands[camp].size == 0:
            raise refuse("M44-RU-1", "empty_hand", _("There is no card in hand to place under the token."))
    check_commit_card(state, event, camp)


def _validate_visibility(state: State, event: VisibilityRolled, camp: int) -> None:
    if camp != state.active or state.phase != "card" or not visibility_roll_due(state, camp):
        raise refuse("M44-NT-1", "no_light_roll", _("The Allied side rolls for the light at the start of its turn."))
    if len(event.faces) != NIGHT_DICE or not set(event.faces) <= FACE_NAMES:
        raise refuse(
            "M44-NT-1", "wrong_roll", _("The light roll is {count} dice.", count=NIGHT_DICE), reported=len(event.faces)
        )


def _validate_medal(state: State, event: MedalAwarded, camp: int) -> None:
    if event.medals < 1:
        raise refuse("M44-6", "no_medal", _("A medal award gives at least one medal."))


def _validate_end(state: State, event: GameEnded, camp: int | None) -> None:
    if event.winner is not None and not 0 <= event.winner < len(state.seat_camp):
        raise refuse("M44-6", "unknown_seat", _("Seat {seat} is not at this table.", seat=str(event.winner)))


VALIDATORS: Validators = validators(
    on_camp(CardDrawn, _validate_drawn),
    on_camp(TurnEnded, _validate_turn_ended),
    on_camp(CardPlayed, _validate_played),
    on_camp(DiceRolled, _validate_rolled),
    on_camp(UnitsOrdered, _validate_ordered),
    on_camp(UnitMoved, _validate_moved),
    on_camp(WireRemoved, _validate_wire),
    on_camp(Battle, _validate_battle),
    on_camp(Retreated, _validate_retreat),
    on_camp(GroundTaken, _validate_ground),
    on_camp(CardDiscarded, _validate_discard),
    on_camp(DeckReshuffled, _validate_reshuffle),
    on_camp(MedalAwarded, _validate_medal),
    on_camp(GameEnded, _validate_end),
    on_camp(CardTaken, _validate_taken),
    on_camp(VisibilityRolled, _validate_visibility),
    on_camp(CardCommitted, _validate_committed),
)


# ---------------------------------------------------------------- evolve


def _next_turn(state: State) -> State:
    for x in in_play(state):  # each expansion's turn state first, while `active` is still the side just done
        if x.next_turn is not None:
            state = x.next_turn(state)
    state = replace(
        state,
        phase="card",
        turn=state.turn + 1,
        active=1 - state.active,
        card=None,
        effective=None,
        section=None,
        roll=(),
        orders=(),
        card_targets=(),
        ambush=None,
        ambush_target=None,
        draws_due=(0, 0),
        visibility_rolled=False,
        committed=False,
    )
    return state


def _turn_over(state: State) -> State:
    """The active side's orders and battles are over: the draws the turn gives each side are due (M44-6)."""
    due = [0, 0]
    if (ruled := expansion_draws(state)) is not None:
        due[state.active] = ruled[0]
    else:
        due[state.active] = 2 if state.effective in RECON_CARDS else 1
    if state.ambush is not None:
        due[state.ambush] += 1
    return replace(state, phase="draw", draws_due=(due[0], due[1]), pending=None)


def _evolve_turn_ended(state: State, event: TurnEnded) -> State:
    state = _turn_over(state)
    # The enemy still draws for an Ambush it played against the plane (M44-AIR-12).
    return state if state.draws_due != (0, 0) else _next_turn(state)


def _evolve_drawn(state: State, event: CardDrawn) -> State:
    camp = state.seat_camp[event.seat]
    if state.phase in ("move", "battle"):
        state = _turn_over(state)
    hand = state.hands[camp]
    hand = (
        Hand(known=(*hand.known, event.card), unknown=hand.unknown)
        if event.card is not None
        else Hand(known=hand.known, unknown=hand.unknown + 1)
    )
    due = list(state.draws_due)
    due[camp] -= 1
    state = replace(state, hands=with_hand(state, camp, hand), draws_due=(due[0], due[1]))
    if due != [0, 0]:
        return state
    if state.phase == "deal":
        return replace(state, phase="card", turn=1)
    if state.effective in RECON_CARDS and not state.teams:
        return replace(state, phase="recon")
    return _next_turn(state)


def _evolve_discarded(state: State, event: CardDiscarded) -> State:
    camp = state.seat_camp[event.seat]
    hand = take_card(state.hands[camp], event.card)
    state = replace(state, hands=with_hand(state, camp, hand), discard=(*state.discard, event.card))
    return _next_turn(state)


def _evolve_played(state: State, event: CardPlayed) -> State:
    camp = state.seat_camp[event.seat]
    for x in in_play(state):
        if x.evolve_play is not None and (after := x.evolve_play(state, event, camp, _card_in_play)) is not None:
            return after
    if event.card != "ambush" and plays_from_token(state, camp):
        state = replace(state, token=state.token[1:], discard=(*state.discard, event.card))
    else:
        hand = take_card(state.hands[camp], event.card)
        state = replace(state, hands=with_hand(state, camp, hand), discard=(*state.discard, event.card))
    if event.card == "ambush":
        # Ambush answers a declared close assault: the moves are over, the ambushing unit battles first.
        return replace(state, ambush=camp, ambush_target=event.target, phase="battle")
    return _card_in_play(state, event, camp)


def _card_in_play(state: State, event: CardPlayed, camp: int) -> State:
    """The played card's effect on the turn: what it acts as, in which section, what comes next."""
    effective, section = played_as(state, event.as_card or event.card), event.section
    if event.card == "counter_attack":
        answered = state.last_played[1 - camp]
        assert answered is not None
        effective = answered[0]
        # Counter-Attack: the enemy's right flank is this side's left (M44-1 sections from each side).
        section = event.section if effective == "infantry_assault" else None
    spec = CARDS[effective]
    if spec.kind == "section" and len(spec.sections) == 1:
        own = spec.sections[0] if event.card != "counter_attack" else MIRROR[spec.sections[0]]
        effective = effective.rsplit("_", 1)[0] + "_" + own
        section = own
    last = list(state.last_played)
    last[camp] = (effective, section)
    phase = "battle" if effective in CARD_BATTLES else "roll" if effective in ROLL_CARDS else "order"
    for x in in_play(state):
        if x.card_in_play is not None:
            state = x.card_in_play(state, event, camp, effective)
    return replace(
        state,
        card=event.card,
        effective=effective,
        section=section,
        phase=phase,
        last_played=(last[0], last[1]),
        reshuffle_due=state.reshuffle_due or effective == "their_finest_hour",
        last_move=(),
        last_battle=None,
    )


def _evolve_rolled(state: State, event: DiceRolled) -> State:
    return replace(state, roll=event.faces, phase="order")


def _evolve_ordered(state: State, event: UnitsOrdered) -> State:
    if state.teams:  # M44-OV-5: each general's orders join the turn's, with the card that gave them
        orders = (*state.orders, *(Order(uid=uid, card=state.effective) for uid in event.units))
    else:
        orders = tuple(Order(uid=uid) for uid in event.units)
    state = replace(state, orders=orders, phase="move")
    if state.effective == "dig_in":
        obstacles = dict(state.obstacles)
        for uid in event.units:
            hex_ = state.units[uid].hex
            if hex_ is not None and hex_ not in obstacles:
                obstacles[hex_] = "sand"
        state = replace(state, obstacles=obstacles)
    if state.effective == "medics_and_mechanics":
        for uid in event.units:
            unit = state.units[uid]
            back = sum(1 for f in state.roll if f == unit.kind or f == "star")
            state = move_unit(state, unit, unit.hex, min(unit.size, unit.figures + back))
    return state


def _evolve_moved(state: State, event: UnitMoved) -> State:
    unit = state.units[event.unit]
    order = state.order_of(event.unit)
    assert order is not None
    end = event.path[-1]
    moved = (unit.hex, *event.path) if unit.hex is not None else event.path
    if order.advance:
        stopped = order.stopped or state.board.terrain[end].no_battle
        state = move_unit(state, unit, end)
        order = replace(order, advance=False, stopped=stopped)
        return recount(replace(state, orders=set_order(state.orders, order), last_move=moved))
    free = card_for(state, unit.uid) == "behind_enemy_lines" and unit.kind == INFANTRY
    stopped = order.stopped or (state.board.terrain[end].no_battle and not free)
    order = replace(order, moved=order.moved + len(event.path), moves=order.moves + 1, stopped=stopped)
    state = move_unit(state, unit, end)
    if unit.kind == ARMOUR and state.obstacles.get(end) == "wire":
        obstacles = dict(state.obstacles)
        del obstacles[end]  # M44-4: armour entering wire removes it
        state = replace(state, obstacles=obstacles)
    return recount(replace(state, orders=set_order(state.orders, order), last_move=moved))


def _evolve_wire(state: State, event: WireRemoved) -> State:
    unit = state.units[event.unit]
    order = state.order_of(event.unit)
    assert order is not None and unit.hex is not None
    obstacles = dict(state.obstacles)
    del obstacles[unit.hex]
    return replace(
        state,
        obstacles=obstacles,
        phase="battle",
        orders=set_order(state.orders, replace(order, battles=order.battles + 1)),
    )


def _evolve_battle(state: State, event: Battle) -> State:
    target = unit_at(state, event.target)
    assert target is not None
    attacker = state.units[event.unit] if event.unit is not None else None
    if is_battle_back(state, attacker):
        return _evolve_battle_back(state, event, target)
    card_battle = attacker is None
    hits, flags = hits_and_flags(event.faces, target.kind, stars_hit=card_battle)
    ambushing = (
        state.ambush is not None
        and state.ambush_target is not None
        and attacker is not None
        and attacker.camp == state.ambush
    )
    overrun_battle = False
    if ambushing:
        state = replace(state, ambush_target=None)
    elif attacker is not None:
        order = state.order_of(attacker.uid)
        assert order is not None
        overrun_battle = order.overrun and order.battles >= battles_allowed(state, attacker, order) - 1
        state = replace(state, orders=set_order(state.orders, replace(order, battles=order.battles + 1)))
    else:
        state = replace(state, card_targets=(*state.card_targets, event.target))
    # At a team table a card's own battle (Air Power, Barrage) leaves other generals' units free to move.
    phase = state.phase if attacker is None and state.teams else "battle"
    state = replace(state, phase=phase, last_battle=event.target)
    figures = max(0, target.figures - hits)
    state = move_unit(state, target, target.hex, figures)
    close = attacker is not None and attacker.hex is not None and distance(attacker.hex, event.target) == 1
    back = close and not ambushing and battles_back(state, target)
    if figures > 0 and flags:
        obstacle = state.obstacles.get(event.target)
        barrage = card_for(state, None if attacker is None else attacker.uid) == "barrage"
        ignorable = 1 if obstacle and OBSTACLES[obstacle].ignores_flag and not barrage else 0
        state = replace(
            state,
            pending=Pending(
                kind="retreat",
                unit=target.uid,
                hex=event.target,
                flags=flags,
                ignorable=ignorable,
                attacker=None if attacker is None else attacker.uid,
                close=close,
                overrun_battle=overrun_battle,
                battle_back=back,
                fixed=barrage,
            ),
        )
    elif figures == 0 and close:
        state = _offer_ground(state, attacker, event.target, overrun_battle)
    elif back and figures == 1:
        state = _offer_battle_back(state, target, attacker)
    return recount(state)


def _offer_battle_back(state: State, unit: Unit, attacker: Unit | None) -> State:
    """M44-GB-1: a British unit left with one figure in its hex after a close assault may battle back
    at once against the assaulting unit."""
    current = state.units[unit.uid]
    enemy = None if attacker is None else state.units[attacker.uid]
    if enemy is None or enemy.hex is None or current.hex is None or distance(current.hex, enemy.hex) != 1:
        return replace(state, pending=None)
    return replace(state, pending=Pending(kind="battle_back", unit=unit.uid, hex=enemy.hex, attacker=enemy.uid))


def _evolve_battle_back(state: State, event: Battle, target: Unit) -> State:
    """The British battle back: hits and flags as usual; it never takes ground (M44-GB-1)."""
    hits, flags = hits_and_flags(event.faces, target.kind, stars_hit=False)
    figures = max(0, target.figures - hits)
    state = move_unit(replace(state, pending=None, last_battle=event.target), target, target.hex, figures)
    if figures > 0 and flags:
        obstacle = state.obstacles.get(event.target)
        ignorable = 1 if obstacle and OBSTACLES[obstacle].ignores_flag else 0
        state = replace(
            state, pending=Pending(kind="retreat", unit=target.uid, hex=event.target, flags=flags, ignorable=ignorable)
        )
    return recount(state)


def _offer_ground(state: State, attacker: Unit | None, hex_: Hex, overrun_battle: bool) -> State:
    """After a close assault empties the target hex, infantry and armour may take ground (M44-2)."""
    if attacker is None or attacker.kind == ARTILLERY:
        return replace(state, pending=None)
    current = state.units[attacker.uid]
    if current.hex is None or path_problem(state, current, (hex_,), 1, free=True) is not None:
        return replace(state, pending=None)  # e.g. an enemy plane over the hex (M44-AIR-5)
    return replace(
        state, pending=Pending(kind="take_ground", unit=attacker.uid, hex=hex_, overrun_battle=overrun_battle)
    )


def _evolve_retreat(state: State, event: Retreated) -> State:
    pending = state.pending
    assert pending is not None
    unit = state.units[event.unit]
    missing = pending.flags - len(event.path)
    hits = max(0, missing - pending.ignorable)
    end = event.path[-1] if event.path else pending.hex
    state = move_unit(state, unit, end, max(0, unit.figures - hits))
    state = replace(state, pending=None)
    attacker = state.units[pending.attacker] if pending.attacker is not None else None
    if pending.close and state.units[event.unit].hex != pending.hex:
        state = _offer_ground(state, attacker, pending.hex, pending.overrun_battle)
    elif pending.battle_back and state.units[event.unit].figures == 1:
        state = _offer_battle_back(state, state.units[event.unit], attacker)
    return recount(state)


def _evolve_ground(state: State, event: GroundTaken) -> State:
    pending = state.pending
    assert pending is not None
    unit = state.units[event.unit]
    state = move_unit(replace(state, pending=None), unit, event.to)
    order = state.order_of(event.unit)
    # M44-2: armour that takes ground may overrun (battle again), once, unless the terrain forbids it.
    if (
        order is not None
        and unit.kind == ARMOUR
        and not pending.overrun_battle
        and not state.board.terrain[event.to].no_battle
    ):
        advance = state.expansions.north_africa  # M44-NA-1
        state = replace(state, orders=set_order(state.orders, replace(order, overrun=True, advance=advance)))
    return recount(state)


def _evolve_reshuffle(state: State, event: DeckReshuffled) -> State:
    return replace(state, discard=(), reshuffle_due=False)


def _evolve_taken(state: State, event: CardTaken) -> State:
    camp = italian_camp(state)
    assert camp is not None
    hand = take_card(state.hands[camp], event.card)
    return replace(
        state,
        hands=with_hand(state, camp, hand),
        discard=(*state.discard, event.card),
        cards_to_take=state.cards_to_take - 1,
    )


def _evolve_committed(state: State, event: CardCommitted) -> State:
    camp = state.seat_camp[event.seat]
    hand = state.hands[camp]
    hand = take_card(hand, event.card) if event.card is not None else Hand(known=hand.known, unknown=hand.unknown - 1)
    return replace(state, hands=with_hand(state, camp, hand), token=(*state.token, event.card), committed=True)


def _evolve_visibility(state: State, event: VisibilityRolled) -> State:
    light = min(FULL_DAY, state.visibility + event.faces.count("star"))
    return replace(state, visibility=light, visibility_rolled=True)


def _evolve_medal(state: State, event: MedalAwarded) -> State:
    camp = state.seat_camp[event.seat]
    special = list(state.special)
    special[camp] += event.medals
    return recount(replace(state, special=(special[0], special[1])))


def _evolve_end(state: State, event: GameEnded) -> State:
    winner = None if event.winner is None else state.seat_camp[event.winner]
    return replace(state, over=True, phase="over", winner=winner, end_reason=event.reason or "ended by the table")


EVOLVERS: Evolvers = dispatch(
    on(CardDrawn, _evolve_drawn),
    on(TurnEnded, _evolve_turn_ended),
    on(CardPlayed, _evolve_played),
    on(DiceRolled, _evolve_rolled),
    on(UnitsOrdered, _evolve_ordered),
    on(UnitMoved, _evolve_moved),
    on(WireRemoved, _evolve_wire),
    on(Battle, _evolve_battle),
    on(Retreated, _evolve_retreat),
    on(GroundTaken, _evolve_ground),
    on(CardDiscarded, _evolve_discarded),
    on(DeckReshuffled, _evolve_reshuffle),
    on(MedalAwarded, _evolve_medal),
    on(GameEnded, _evolve_end),
    on(CardTaken, _evolve_taken),
    on(VisibilityRolled, _evolve_visibility),
    on(CardCommitted, _evolve_committed),
)


def during_retreat(state: State) -> tuple[type[Memoire44Event], ...]:
    """Events the expansions in play report while a retreat is pending, beside the base game's."""
    return tuple(kind for x in in_play(state) for kind in x.during_retreat)
