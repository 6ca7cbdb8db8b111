"""The events a seat may report now, for random players and for a club's entry form.

Chance is listed by form (G-1: the service never invents a draw or a roll): a draw as `CardDrawn(card=None)`
(the table or a harness says which card), a battle as `Battle(faces=())` with the dice it gets, a tactic
roll as `DiceRolled` with as many "star" placeholders as dice. Orders are listed at the most units the
card allows (ordering fewer is legal too, but an ordered unit never has to move or battle).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations, product
from typing import Any

from domain.memoire44.battlefield import (
    adjacent_enemies,
    battles_allowed,
    card_for,
    cards_held,
    commissar_camp,
    full_day,
    given_left,
    italian_camp,
    unit_at,
)
from domain.memoire44.board import distance
from domain.memoire44.catalogue import ARMOUR, ARTILLERY, CARDS, INFANTRY, NIGHT_DICE, SECTIONS
from domain.memoire44.events import (
    Battle,
    CardCommitted,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardTaken,
    DeckReshuffled,
    DiceRolled,
    GroundTaken,
    InitiativeTaken,
    Memoire44Event,
    Retreated,
    TurnEnded,
    UnitMoved,
    UnitsOrdered,
    VisibilityRolled,
    WireRemoved,
)
from domain.memoire44.rules.base import (
    COMMISSAR_FREE,
    ambush_problem,
    battle_dice,
    battle_problem,
    card_battle_problem,
    move_allowance,
    moves_allowed,
    path_problem,
    plays_from_token,
    reachable,
    recon_played_as,
    retreat_depth,
    retreat_reach,
    retreat_steps,
)
from domain.memoire44.rules.common import CARD_BATTLES, alive, known_copies, pile_size, visibility_roll_due
from domain.memoire44.rules.joined import before_battle, before_orders, expansion_draws, first_due, in_play
from domain.memoire44.rules.orders import FOUR_OF_A_KIND, orderable
from domain.memoire44.rules.overlord import (
    TEAM_TURN,
    can_act_now,
    gift_events,
    hand_full,
    leaves_room,
    marines_extra,
    placement_due,
    play_sections,
    token_placements,
)
from domain.memoire44.state import State, Unit


def legal_events(state: State, seat: int) -> list[Memoire44Event]:
    """Every event (or event form) `seat` may report at `state`."""
    if state.over or not 0 <= seat < len(state.seat_camp):
        return []
    events = _game_events(state, seat)
    for x in in_play(state):
        if x.legal is not None:
            events += x.legal(state, seat)
    return events


def _game_events(state: State, seat: int) -> list[Memoire44Event]:
    camp = state.seat_camp[seat]
    interrupt = _interrupts(state, seat, camp)
    if interrupt is not None:
        return interrupt
    pending = state.pending
    ground: list[Memoire44Event] = []
    if pending is not None and pending.kind == "take_ground" and state.units[pending.unit].camp == camp:
        ground.append(GroundTaken(seat=seat, unit=pending.unit, to=pending.hex))
    if state.ambush_target is not None:
        return _ambush_battles(state, seat) if camp == state.ambush else []
    if camp != state.active:
        return ground + _ambushes(state, seat, camp)
    if state.teams:
        return ground + _team_events(state, seat, camp)
    if state.phase == "card":
        if visibility_roll_due(state, camp):
            return [VisibilityRolled(seat=seat, faces=("star",) * NIGHT_DICE)]
        return _cards(state, seat, camp)
    if state.phase == "roll":
        return [DiceRolled(seat=seat, faces=("star",) * (cards_held(state, camp) + 1))]
    if first_due(state, camp, before_orders) is not None:  # an expansion's roll first (M44-DD-6)
        return []
    if state.phase == "order":
        return [UnitsOrdered(seat=seat, units=units) for units in _orders(state, camp)]
    return ground + _moves_to_draw(state, seat, camp)


def _interrupts(state: State, seat: int, camp: int) -> list[Memoire44Event] | None:
    """What comes before anything else, when something does: a retreat, a card taken from the Italian hand,
    a British battle back, the draws, the Recon discard."""
    pending = state.pending
    if pending is not None and pending.kind == "retreat":
        unit = state.units[pending.unit]
        return _retreats(state, seat, unit) if unit.camp == camp else []
    if state.cards_to_take:
        # M44-IT-1: the enemy takes the card at once; nothing else is offered meanwhile.
        italian = italian_camp(state)
        if italian is None or camp == italian:
            return []
        return [CardTaken(seat=seat, card=c) for c in sorted(_possible_cards(state, italian))]
    if pending is not None and pending.kind == "battle_back" and state.units[pending.unit].camp == camp:
        back = state.units[pending.unit]
        target = unit_at(state, pending.hex)
        assert target is not None
        dice = battle_dice(state, back, target, explain=False)[0]
        return [Battle(seat=seat, unit=back.uid, target=pending.hex, dice=dice, faces=())]
    if state.phase == "deal" or state.phase == "draw":
        if state.draws_due[camp] == 0:
            return []
        return [DeckReshuffled(seat=seat)] if _needs_reshuffle(state) else [CardDrawn(seat=seat)]
    if state.phase == "recon":
        cards = _possible_cards(state, camp) if camp == state.active else set()
        return [CardDiscarded(seat=seat, card=c) for c in sorted(cards)]
    return None


def _moves_to_draw(state: State, seat: int, camp: int) -> list[Memoire44Event]:
    """The active side's moves and battles, and the draw (or the end with none) that closes its turn."""
    events: list[Memoire44Event] = []
    if state.phase == "move":
        events.extend(_moves(state, seat))
    events.extend(_advances(state, seat))
    events.extend(_battles(state, seat, camp))
    ruled = expansion_draws(state)
    if ruled is not None and ruled[0] == 0:  # e.g. a lone Air Sortie is not replaced (M44-AIR-15)
        events.append(TurnEnded(seat=seat))
    else:
        events.append(DeckReshuffled(seat=seat) if _needs_reshuffle(state) else CardDrawn(seat=seat))
    return events


def _team_events(state: State, seat: int, camp: int) -> list[Memoire44Event]:
    """At an Overlord team table (M44-OV-3 to M44-OV-7): the commander-in-chief hands out cards and
    reports the side's moves, battles and draws (any seat of the side may; they are listed once, under
    his seat); each general plays his cards, takes the initiative, and orders his units."""
    commander = seat == state.commanders[camp]
    if state.phase == "card":
        if not commander:
            return []
        if visibility_roll_due(state, camp):
            return [VisibilityRolled(seat=seat, faces=("star",) * NIGHT_DICE)]
        return gift_events(state, seat, camp)
    events: list[Memoire44Event] = []
    if state.commands[seat] and can_act_now(state):
        events += _general_plays(state, seat, camp)
    if seat == state.general and state.phase == "roll":
        events.append(DiceRolled(seat=seat, faces=("star",) * (cards_held(state, camp) + 1)))
    if seat == state.general and state.phase == "order":
        choices = _orders(state, camp)
        if marines_extra(state, camp):  # M44-OV-9: one more unit of the section
            spare = [u.uid for u in orderable(state, camp)]
            choices = [tuple(sorted((*c, extra))) for c in choices for extra in spare if extra not in c] or choices
        events.extend(UnitsOrdered(seat=seat, units=units) for units in dict.fromkeys(choices))
    if commander and state.phase in TEAM_TURN and camp == commissar_camp(state):
        events.extend(token_placements(state, seat, camp))  # M44-OV-8
    if commander and state.phase in ("move", "battle"):
        events += _commander_moves(state, seat, camp)
    return events


def _general_plays(state: State, seat: int, camp: int) -> list[Memoire44Event]:
    """A general's card plays in his sections, and his initiative (M44-OV-5, M44-OV-7)."""
    events: list[Memoire44Event] = []
    given = state.given[seat]
    cards = set(given.known) | (
        {c for c, spec in CARDS.items() if known_copies(state, c) < spec.count} if given.unknown else set()
    )
    cards.discard("ambush")
    if state.last_played[1 - camp] is None:
        cards.discard("counter_attack")
    for card in sorted(cards):
        for as_card in (None, *recon_played_as(state, camp, card)):
            effective = as_card or card
            if card == "counter_attack":
                answered = state.last_played[1 - camp]
                assert answered is not None
                effective = answered[0]
            if effective == "ambush":
                continue
            for section in play_sections(state, seat, effective, counter=card == "counter_attack"):
                if leaves_room(state, seat, card, section):
                    events.append(CardPlayed(seat=seat, card=card, section=section, as_card=as_card))
    if state.initiative_table is not None and seat not in state.gifted and seat not in state.initiative:
        events.append(InitiativeTaken(seat=seat, face="star"))
    return events


def _commander_moves(state: State, seat: int, camp: int) -> list[Memoire44Event]:
    """The side's moves and battles at a team table, listed under the commander-in-chief, and the draw once
    every card is played (M44-OV-4, M44-OV-6)."""
    events: list[Memoire44Event] = []
    if state.phase == "move":
        events.extend(_moves(state, seat))
    events.extend(_advances(state, seat))
    battles = _battles(state, seat, camp)
    if given_left(state):  # M44-OV-6: no unit battles while a general still has a card to play
        battles = [b for b in battles if b.unit is None]
    events.extend(battles)
    if not given_left(state) and not placement_due(state, camp):
        if hand_full(state):  # M44-OV-4: he handed out nothing and draws nothing
            events.append(TurnEnded(seat=seat))
        else:
            events.append(DeckReshuffled(seat=seat) if _needs_reshuffle(state) else CardDrawn(seat=seat))
    return events


def _needs_reshuffle(state: State) -> bool:
    return pile_size(state) == 0 or state.reshuffle_due


def _retreats(state: State, seat: int, unit: Unit) -> list[Memoire44Event]:
    pending = state.pending
    assert pending is not None
    best = retreat_depth(state, unit, pending.hex, pending.flags * retreat_reach(state, unit))
    shortest = min(best, pending.flags - pending.ignorable)
    paths: list[tuple[Any, ...]] = [()]
    found: list[tuple[Any, ...]] = [()] if shortest == 0 else []
    for _ in range(best):
        paths = [(*p, h) for p in paths for h in retreat_steps(state, unit, p[-1] if p else pending.hex)]
        found.extend(p for p in paths if len(p) >= shortest)
    return [Retreated(seat=seat, unit=unit.uid, path=p) for p in found]


def _possible_cards(state: State, camp: int) -> set[str]:
    """The cards a hand may hold: its known ones and, for face-down ones, any card with copies unplaced."""
    hand = state.hands[camp]
    cards = set(hand.known)
    if hand.unknown:
        cards |= {c for c, spec in CARDS.items() if known_copies(state, c) < spec.count}
    return cards


def _cards(state: State, seat: int, camp: int) -> list[Memoire44Event]:
    commits: list[Memoire44Event] = []
    if plays_from_token(state, camp):
        # M44-RU-2: the card placed under the token last turn, whatever the record knows of it.
        older = state.token[0]
        cards = {older} if older is not None else {c for c, s in CARDS.items() if known_copies(state, c) < s.count}
    else:
        cards = _possible_cards(state, camp)
        if camp == commissar_camp(state) and not state.committed:
            # M44-RU-1: place a card under the token first, or play a card exempt from the delay.
            hand = state.hands[camp]
            commits = [CardCommitted(seat=seat, card=c) for c in sorted(set(hand.known) - {"ambush"})]
            commits += [CardCommitted(seat=seat)] if hand.unknown else []
            cards &= COMMISSAR_FREE
    cards.discard("ambush")
    if state.last_played[1 - camp] is None:
        cards.discard("counter_attack")
    events: list[Memoire44Event] = []
    for card in sorted(cards):
        effective = card
        if card == "counter_attack":
            answered = state.last_played[1 - camp]
            assert answered is not None
            effective = answered[0]
        if effective == "infantry_assault":
            events.extend(CardPlayed(seat=seat, card=card, section=s) for s in SECTIONS)
        elif effective != "ambush":
            events.append(CardPlayed(seat=seat, card=card))
        events.extend(CardPlayed(seat=seat, card=card, as_card=other) for other in recon_played_as(state, camp, card))
    return commits + events


def _ambushes(state: State, seat: int, camp: int) -> list[Memoire44Event]:
    """Ambush answers an ordered enemy unit next to one of ours that has not battled yet."""
    if "ambush" not in state.hands[camp].known:
        return []
    hexes = [state.units[o.uid].hex for o in state.orders]
    return [
        CardPlayed(seat=seat, card="ambush", target=h)
        for h in hexes
        if h is not None and ambush_problem(state, camp, h) is None
    ]


def _ambush_battles(state: State, seat: int) -> list[Memoire44Event]:
    """After Ambush, the ambushing side's units next to the assaulting unit may battle it."""
    target_hex = state.ambush_target
    assert target_hex is not None
    if first_due(state, state.seat_camp[seat], before_battle) is not None:
        return []  # e.g. an ambush against a plane fires at it, as the air events offer (M44-AIR-12)
    target = unit_at(state, target_hex)
    assert target is not None
    events: list[Memoire44Event] = []
    for unit in adjacent_enemies(state, target):
        dice = battle_dice(state, unit, target, explain=False)[0]
        events.append(Battle(seat=seat, unit=unit.uid, target=target_hex, dice=dice, faces=()))
    return events


def _orders(state: State, camp: int) -> list[tuple[int, ...]]:
    """The order choices; ordering no unit is left when the card finds none (a general's empty section)."""
    return _order_choices(state, camp) or [()]


def _order_choices(state: State, camp: int) -> list[tuple[int, ...]]:
    card = str(state.effective)
    units = orderable(state, camp)
    for x in in_play(state):
        if card in x.order_choices:
            return x.order_choices[card](state, units)
    if CARDS[card].kind == "section":
        return _section_choices(state, camp, units)
    if card in FOUR_OF_A_KIND or card == "behind_enemy_lines":
        kind = FOUR_OF_A_KIND.get(card, INFANTRY)
        limit = 1 if card == "behind_enemy_lines" else 4
        of_kind = [u.uid for u in units if u.kind == kind]
        if of_kind:
            return list(combinations(of_kind, min(limit, len(of_kind))))
        return [(u.uid,) for u in units]
    choose = _TACTIC_CHOICES.get(card)
    return choose(state, camp, units) if choose is not None else [()]


def _section_choices(state: State, camp: int, units: list[Unit]) -> list[tuple[int, ...]]:
    """A section card orders up to its count in each of its sections (the one it was played in, M44-OV-5)."""
    spec = CARDS[str(state.effective)]
    per = spec.orders
    choices: list[list[tuple[int, ...]]] = []
    for section in (state.section,) if state.teams else spec.sections:
        inside = [u.uid for u in units if u.hex is not None and section in state.board.sections(u.hex, camp)]
        size = len(inside) if per is None else min(per, len(inside))
        choices.append(list(combinations(inside, size)))
    found = {tuple(sorted({uid for part in parts for uid in part})) for parts in product(*choices)}
    return sorted(found)


def _bombard_choices(state: State, camp: int, units: list[Unit]) -> list[tuple[int, ...]]:
    guns = tuple(u.uid for u in units if u.kind == ARTILLERY)
    return [guns] if guns else [(u.uid,) for u in units]


def _infantry_assault_choices(state: State, camp: int, units: list[Unit]) -> list[tuple[int, ...]]:
    section = str(state.section)
    board = state.board
    in_section = tuple(
        u.uid for u in units if u.kind == INFANTRY and u.hex is not None and section in board.sections(u.hex, camp)
    )
    return [in_section] if in_section else [(u.uid,) for u in units]


def _finest_hour_choices(state: State, camp: int, units: list[Unit]) -> list[tuple[int, ...]]:
    picks: list[int] = []
    stars = state.roll.count("star")
    for kind in (INFANTRY, ARMOUR):
        of_kind = [u.uid for u in units if u.kind == kind]
        picks += of_kind[: state.roll.count(kind)]
    rest = [u.uid for u in units if u.uid not in picks]
    return [tuple(sorted(picks + rest[:stars]))]


def _any_four(state: State, camp: int, units: list[Unit]) -> list[tuple[int, ...]]:
    return list(combinations([u.uid for u in units], min(4, len(units))))


_TACTIC_CHOICES: dict[str, Callable[[State, int, list[Unit]], list[tuple[int, ...]]]] = {
    "artillery_bombard": _bombard_choices,
    "infantry_assault": _infantry_assault_choices,
    "close_assault": lambda state, camp, units: [tuple(u.uid for u in units if adjacent_enemies(state, u))],
    "direct_from_hq": _any_four,
    "firefight": _any_four,
    "medics_and_mechanics": lambda state, camp, units: [(u.uid,) for u in units],
    "their_finest_hour": _finest_hour_choices,
}


def _moves(state: State, seat: int) -> list[Memoire44Event]:
    events: list[Memoire44Event] = []
    for order in state.orders:
        unit = state.units[order.uid]
        if unit.hex is None or order.moves >= 1 or moves_allowed(state, unit) == 0:
            continue
        allowance = move_allowance(state, unit)
        free = card_for(state, unit.uid) == "behind_enemy_lines" and unit.kind == INFANTRY
        for path in reachable(state, unit, allowance, free).values():
            events.append(UnitMoved(seat=seat, unit=unit.uid, path=path))
    return events


def _advances(state: State, seat: int) -> list[Memoire44Event]:
    """M44-NA-1: the one-hex advance of desert armour that took ground, before its overrun battle."""
    events: list[Memoire44Event] = []
    for order in state.orders:
        unit = state.units[order.uid]
        if order.advance and unit.hex is not None:
            for hex_ in state.board.neighbours(unit.hex):
                if path_problem(state, unit, (hex_,), 1) is None:
                    events.append(UnitMoved(seat=seat, unit=unit.uid, path=(hex_,)))
    return events


def _battles(state: State, seat: int, camp: int) -> list[Battle | WireRemoved]:
    events: list[Battle | WireRemoved] = []
    if state.effective in CARD_BATTLES:
        if full_day(state):
            for target in alive(state, 1 - camp):
                assert target.hex is not None
                if card_battle_problem(state, camp, target.hex) is not None:
                    continue
                dice = battle_dice(state, None, target, explain=False)[0]
                events.append(Battle(seat=seat, unit=None, target=target.hex, dice=dice, faces=()))
        if not state.teams:  # at a team table, units other generals ordered battle too (M44-OV-5)
            return events
    for order in state.orders:
        unit = state.units[order.uid]
        if unit.hex is None:
            continue
        if (
            unit.kind == INFANTRY
            and state.obstacles.get(unit.hex) == "wire"
            and order.battles < battles_allowed(state, unit, order)
        ):
            events.append(WireRemoved(seat=seat, unit=unit.uid))
        for target in alive(state, 1 - camp):
            assert target.hex is not None
            if distance(unit.hex, target.hex) > 6:
                continue
            if battle_problem(state, unit, order, target.hex) is None:
                dice = battle_dice(state, unit, target, explain=False)[0]
                if dice:
                    events.append(Battle(seat=seat, unit=unit.uid, target=target.hex, dice=dice, faces=()))
    return events
