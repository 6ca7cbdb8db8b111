"""Replay lines: "Allies (Bea) play Attack Centre, ordering 3 units", chapters (("turn", n),).

A line is told as its viewer may know it (G-2): a drawn command card is named only to the side that drew
it (its seats, as the view shows them the hand) and in the full record; everyone else reads that a card
was drawn."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.memoire44.board import hex_name
from domain.memoire44.catalogue import AIR_SORTIE, CARDS, FULL_DAY
from domain.memoire44.events import (
    AirCardDrawn,
    AirStrike,
    AntiAircraft,
    Battle,
    Bombing,
    CardCommitted,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardsGiven,
    CardTaken,
    CombatCardDrawn,
    CombatCardPlayed,
    DeckReshuffled,
    DiceRolled,
    Dogfight,
    GameEnded,
    GroundTaken,
    InitiativeTaken,
    MedalAwarded,
    Memoire44Event,
    PlaneDeployed,
    PlaneMoved,
    PlaneOrdered,
    ReinforcementPlaced,
    ReinforcementsRolled,
    Retreated,
    TurnEnded,
    UnitMoved,
    UnitsOrdered,
    VisibilityRolled,
    WireRemoved,
)
from domain.memoire44.rules.air import AIR_EVENTS, lone_sortie
from domain.memoire44.rules.base import is_battle_back, plays_from_token
from domain.memoire44.rules.overlord import hands_out_token
from domain.memoire44.state import State, Unit
from domain.ruleset import Narration, Viewer


def _side(state: State, seat: int) -> str:
    return f"{state.sides[state.seat_camp[seat]].title()} ({state.players[seat]})"


def _own(unit: Unit) -> str:
    """A unit named by its own side's line, which already says whose it is."""
    return f"{unit.kind} at {hex_name(unit.hex)}" if unit.hex is not None else unit.kind


def _unit(state: State, unit: Unit) -> str:
    where = f" at {hex_name(unit.hex)}" if unit.hex is not None else ""
    return f"{state.sides[unit.camp].title()} {unit.kind}{where}"


def _orders_text(card: str) -> str:
    spec = CARDS[card]
    if spec.kind != "section":
        return ""
    if spec.orders is None:
        return f", ordering all units in the {spec.sections[0]} section"
    count = spec.orders * len(spec.sections)
    return f", ordering {count} unit{'s' if count > 1 else ''}"


def narrate(before: State, event: Memoire44Event, after: State, viewer: Viewer) -> Narration:
    """One plain-English line for `event`, with its consequences (hits, eliminations, medals, victory)."""
    seat = getattr(event, "seat", None)
    who = _side(before, seat) if seat is not None else "The table"
    text = _secret_text(before, event, who, viewer) or _text(before, event, after, who)
    for camp in (0, 1):
        if after.medals[camp] != before.medals[camp]:
            text += f" {after.sides[camp].title()} now have {_count(after.medals[camp], 'medal')}."
    if after.over and not before.over:
        winner = "nobody" if after.winner is None else after.sides[after.winner].title()
        text += f" Game over: {after.end_reason}; winner {winner}."
    return Narration(text=text, seat=seat, chapters=(("turn", max(before.turn, 1)),))


def _sees_hand(state: State, viewer: Viewer, seat: int) -> bool:
    """Whether `viewer` sees the hand `seat` draws into: the full record, and every seat of that side (a
    side's generals share its hand, as the view shows it)."""
    if viewer.kind == "full":
        return True
    mine = viewer.seat
    camps = state.seat_camp
    return viewer.kind == "seat" and mine is not None and 0 <= mine < len(camps) and camps[mine] == camps[seat]


def _secret_text(before: State, event: Memoire44Event, who: str, viewer: Viewer) -> str | None:
    """The line of an event whose card only its side sees (G-2): named to that side's seats and in the
    full record, "a card" to everyone else (the enemy and the spectators); the cards a commander-in-chief
    hands out likewise, and a combat card to the seat that draws it."""
    if isinstance(event, AirCardDrawn):
        seen = _sees_hand(before, viewer, event.seat) and before.air is not None and event.card is not None
        card = before.air.pack.cards[str(event.card)].name if seen and before.air else "an air combat card"
        return f"{who} draw {card}."
    if isinstance(event, CardDrawn | CardCommitted):
        if not _sees_hand(before, viewer, event.seat):
            card = "a card"
        else:  # the full record says when it does not know the card either
            card = CARDS[event.card].name if event.card else "a card (face down)"
        if isinstance(event, CardDrawn):
            return f"{who} draw {card}."
        return f"{who} place {card} under the commissar token for their next turn."
    if isinstance(event, CardsGiven) and not event.gifts:  # M44-OV-3: everyone may read this
        return f"{who} hand out no card as commander-in-chief: none of theirs may go out this turn."
    if isinstance(event, CardsGiven) and _sees_hand(before, viewer, event.seat):
        # M44-OV-3: the side's seats (who share its cards) and the full record read which card went to whom.
        given: dict[int, list[str]] = {}
        for gift in event.gifts:
            name = CARDS[gift.card].name if gift.card else "a card (face down)"
            given.setdefault(gift.general, []).append(name)
        shares = ", ".join(f"{' and '.join(names)} to {before.players[g]}" for g, names in given.items())
        return f"{who} hand out {_gifts_source(before, event)} as commander-in-chief: {shares}."
    if isinstance(event, CombatCardDrawn) and (
        viewer.kind == "full" or (viewer.kind == "seat" and viewer.seat == event.seat)
    ):
        # M44-CC-1: a combat card is seen by the seat holding it (as the view shows it) and in the full record.
        deck = before.combat_deck
        drawn = deck.cards.get(event.card) if deck is not None and event.card is not None else None
        return f"{who} draw the combat card {drawn.name}." if drawn else f"{who} draw a combat card (face down)."
    return None


def _gifts_source(before: State, event: CardsGiven) -> str:
    """Where the cards a commander-in-chief hands out come from: his hand, or under the Eastern Front the
    commissar token and, beside its cards, Counter-Attack from the hand (M44-OV-8, M44-OV-10). Only counts,
    which the public sees anyway (G-2)."""
    if not hands_out_token(before, before.seat_camp[event.seat]):
        return "command cards"
    under = len(before.token)
    extra = len(event.gifts) - under
    more = f" and {_count(extra, 'card')} at once from the hand" if extra else ""
    return f"the {'card' if under == 1 else f'{under} cards'} from under the commissar token{more}"


def _text(before: State, event: Memoire44Event, after: State, who: str) -> str:
    if isinstance(event, AIR_EVENTS):
        return _air_text(before, event, after, who)
    told = _TEXTS.get(type(event))
    return told(before, event, after, who) if told is not None else f"{who}: {type(event).__name__}."


def _played_text(before: State, event: CardPlayed, after: State, who: str) -> str:
    if event.card == "ambush" and before.air is not None and event.target in before.air.markers:
        own = _own(before.units[before.occupant[event.target]])
        return f"{who} play Ambush: the {own} fires at the enemy plane dropping a marker on it."
    if event.card == "ambush":
        target = before.units[before.occupant[event.target]] if event.target in before.occupant else None
        return f"{who} play Ambush against the {_unit(before, target) if target else 'assault'}."
    if event.card == AIR_SORTIE and before.phase == "card":  # M44-AIR-15: alone, as the turn's card
        return f"{who} play an Air Sortie alone: it orders their plane and is not replaced."
    if event.card == AIR_SORTIE:  # M44-AIR-15
        return f"{who} play an Air Sortie beside {CARDS[str(before.effective)].name}: it orders their plane."
    name = CARDS[event.card].name
    if event.card == "air_power" and after.effective == AIR_SORTIE:
        name += " as an Air Sortie"
    if event.card == "counter_attack" and after.effective:
        name += f" as {CARDS[after.effective].name}"
    elif event.as_card:
        name += f" as {CARDS[event.as_card].name} (Blitz)"
    if plays_from_token(before, before.seat_camp[event.seat]):
        name += " from under the commissar token"
    section = f" on the {event.section}" if event.section else ""
    return f"{who} play {name}{section}{_orders_text(str(after.effective))}."


def _turn_ended_text(before: State, event: TurnEnded, after: State, who: str) -> str:
    if before.teams and not lone_sortie(before):  # M44-OV-4
        return f"{who} end their turn without drawing: the commander-in-chief's hand is full."
    return f"{who} end their turn without drawing: the Air Sortie is not replaced."  # M44-AIR-15


def _ordered_text(before: State, event: UnitsOrdered, after: State, who: str) -> str:
    if not event.units:
        return f"{who} order no units."
    units = ", ".join(_own(before.units[u]) for u in event.units)
    return f"{who} order {len(event.units)} unit{'s' if len(event.units) != 1 else ''}: {units}."


def _moved_text(before: State, event: UnitMoved, after: State, who: str) -> str:
    path = " → ".join(hex_name(h) for h in event.path)
    order = before.order_of(event.unit)
    advance = " (desert advance before the overrun)" if order is not None and order.advance else ""
    return f"{who} move the {_own(before.units[event.unit])} → {path}{advance}."


def _taken_text(before: State, event: CardTaken, after: State, who: str) -> str:
    return (
        f"{who} take {CARDS[event.card].name} at random from the Italian hand (Italian High Command); "
        f"it is discarded and the Italian hand is now {after.hand_limit[1 - before.seat_camp[event.seat]]} cards."
    )


def _light_text(before: State, event: VisibilityRolled, after: State, who: str) -> str:
    light = "full daylight" if after.visibility >= FULL_DAY else f"visibility {after.visibility}"
    return f"{who} roll {', '.join(event.faces)} for the light: {light}."


def _gifts_text(before: State, event: CardsGiven, after: State, who: str) -> str:
    # M44-OV-3: how many cards each general gets, never which (G-2).
    counts: dict[int, int] = {}
    for gift in event.gifts:
        counts[gift.general] = counts.get(gift.general, 0) + 1
    shares = ", ".join(f"{_count(n, 'card')} to {before.players[g]}" for g, n in counts.items())
    return f"{who} hand out {_gifts_source(before, event)} as commander-in-chief: {shares}."


def _initiative_text(before: State, event: InitiativeTaken, after: State, who: str) -> str:
    table = before.initiative_table
    row = table.faces.get(event.face) if table is not None else None
    orders = f", ordering up to {_count(row.orders, 'unit')} in their sections" if row and row.orders else ""
    return f"{who} take the initiative with no card, rolling {event.face}{orders}."


def _combat_played_text(before: State, event: CombatCardPlayed, after: State, who: str) -> str:
    deck = before.combat_deck
    name = deck.cards[event.card].name if deck is not None and event.card in deck.cards else event.card
    on = f" on the {_own(before.units[event.unit])}" if event.unit is not None else ""
    return f"{who} play the combat card {name}{on}."


def _placed_text(before: State, event: ReinforcementPlaced, after: State, who: str) -> str:
    left = after.reserve[before.seat_camp[event.seat]].get(event.kind, 0)
    return (
        f"{who} bring in a reinforcement {event.kind} unit at {hex_name(event.hex)} "
        f"({_count(left, 'figure')} of {event.kind} left in reserve)."
    )


def _rolled_for_reinforcements(before: State, event: ReinforcementsRolled, after: State, who: str) -> str:
    brought = ", ".join(after.reinforcements) or "nothing"
    return f"{who} roll {', '.join(event.faces)} for reinforcements (D-Day): {brought}."


# Each event's line, by type: (state before, event, state after, who reports it) -> text.
_TEXTS: dict[type[Memoire44Event], Callable[[State, Any, State, str], str]] = {
    CardPlayed: _played_text,
    TurnEnded: _turn_ended_text,
    CardDiscarded: lambda before, event, after, who: f"{who} keep one card and discard {CARDS[event.card].name}.",
    DeckReshuffled: lambda before, event, after, who: f"{who} reshuffle the discards into a new draw pile.",
    DiceRolled: lambda before, e, after, who: f"{who} roll {', '.join(e.faces)} for {CARDS[str(before.card)].name}.",
    UnitsOrdered: _ordered_text,
    UnitMoved: _moved_text,
    CardTaken: _taken_text,
    VisibilityRolled: _light_text,
    WireRemoved: lambda before, e, after, who: f"{who} clear the wire under the {_own(before.units[e.unit])}.",
    Battle: lambda before, event, after, who: _battle_text(before, event, after, who),
    Retreated: lambda before, event, after, who: _retreat_text(before, event, after),
    GroundTaken: lambda before, e, after, who: (
        f"{who} take ground: the {_own(before.units[e.unit])} moves into {hex_name(e.to)}."
    ),
    MedalAwarded: lambda before, e, after, who: (
        f"{who} receive {_count(e.medals, 'medal')} under the scenario's rules: {e.reason or 'no reason given'}."
    ),
    GameEnded: lambda before, e, after, who: f"{who} ends the game: {e.reason or 'no reason given'}.",
    CardsGiven: _gifts_text,
    InitiativeTaken: _initiative_text,
    CombatCardDrawn: lambda before, event, after, who: f"{who} draw a combat card.",  # which one stays hidden (G-2)
    CombatCardPlayed: _combat_played_text,
    ReinforcementsRolled: _rolled_for_reinforcements,
    ReinforcementPlaced: _placed_text,
}


def _battle_text(before: State, event: Battle, after: State, who: str) -> str:
    target = before.units[before.occupant[event.target]]
    source = CARDS[str(before.effective)].name if event.unit is None else f"the {_own(before.units[event.unit])}"
    if is_battle_back(before, before.units[event.unit] if event.unit is not None else None):
        source += " battling back (British Commonwealth, 1 die, terrain ignored)"
    overrun = ""
    if event.unit is not None:
        order = before.order_of(event.unit)
        if order is not None and order.overrun:
            overrun = " (armour overrun)"
    text = (
        f"{who} battle with {source}{overrun} against the {_unit(before, target)}: "
        f"{_count(event.dice, 'die', 'dice')}, {', '.join(event.faces)}."
    )
    return text + _hit_text(before, target, after)


def _retreat_text(before: State, event: Retreated, after: State) -> str:
    """A retreat as reported: the hexes it went back, the flags it ignored (sandbags, a bunker, Tenacity: M44-4,
    M44-CC-3), the figures lost for the hexes it could not go back."""
    unit = before.units[event.unit]
    pending = before.pending
    short = pending.flags - len(event.path) if pending is not None else 0
    ignored = min(short, pending.ignorable) if pending is not None else 0
    hexes = [hex_name(h) for h in event.path]
    if hexes:
        via = f"through {', '.join(hexes[:-1])} " if len(hexes) > 1 else ""
        moved = f"retreats {via}to {hexes[-1]}"
    else:
        moved = "holds its ground" if ignored else "cannot retreat"
    if ignored:
        moved += f", ignoring {_count(ignored, 'flag')}"
    lost = unit.figures - after.units[event.unit].figures
    extra = f", losing {_count(lost, 'figure')} for the hexes it could not retreat" if lost else ""
    gone = " and is eliminated" if after.units[event.unit].figures == 0 else ""
    return f"The {_unit(before, unit)} {moved}{extra}{gone}."


def _hit_text(before: State, target: Unit, after: State) -> str:
    """What a battle or an air strike did to its target: figures lost, elimination, a retreat due."""
    text = ""
    lost = target.figures - after.units[target.uid].figures
    if after.units[target.uid].figures == 0:
        text += f" The {before.sides[target.camp].title()} {target.kind} is eliminated."
    elif lost:
        text += f" {_count(lost, 'figure')} lost."
    pending = after.pending
    if pending is not None and pending.kind == "retreat":
        flags, may = pending.flags, pending.ignorable
        if not may:
            text += f" It must retreat {_count(flags, 'hex', 'hexes')}."
        elif may >= flags:  # sandbags or a bunker (M44-4): the flag need not be obeyed
            text += f" It may ignore the {_count(flags, 'flag')} rather than retreat."
        else:
            text += f" It must retreat {_count(flags, 'hex', 'hexes')} but may ignore {_count(may, 'flag')}."
    return text


def _plane_name(state: State, plane: str) -> str:
    return state.air.pack.planes[plane].name if state.air is not None else plane


def _plane_fate(before: State, after: State) -> str:
    """What happened to the planes hit (M44-AIR-7, M44-AIR-8)."""
    if before.air is None or after.air is None:
        return ""
    for old, new in zip(before.air.planes, after.air.planes, strict=True):
        if old.hex is not None and new.hex is None:
            name = _plane_name(before, old.plane)
            return f" The {name} is shot down." if new.lost else f" The {name} is driven off the board."
    return " It misses."


def _air_text(before: State, event: Memoire44Event, after: State, who: str) -> str:
    """The air events' lines (M44-AIR-3 to M44-AIR-8); the air combat card played is shown to all."""
    if isinstance(event, PlaneDeployed):
        assert before.air is not None
        card = before.air.pack.cards[event.card].name
        use = ", using the card's own effect" if event.use_effect else ""
        return f"{who} deploy the {_plane_name(before, event.plane)} at {hex_name(event.hex)} with {card}{use}."
    if isinstance(event, PlaneOrdered):
        how = " on a move order: it flies but does not fight this turn" if event.move_order else ""
        return f"{who} order the {_plane_name(before, event.plane)}{how}."
    if isinstance(event, PlaneMoved):
        path = " → ".join(hex_name(h) for h in event.path)
        marks = ", ".join(hex_name(h) for h in event.markers)
        dropped = f", dropping ammunition on {marks}" if marks else ""
        bomb = ", laying a bomb token to take the objective" if event.bomb else ""
        return f"{who} fly the {_plane_name(before, event.plane)} → {path}{dropped}{bomb}."
    if isinstance(event, AirStrike):
        target = before.units[before.occupant[event.target]]
        text = f"{who} strike the {_unit(before, target)} from the air: {', '.join(event.faces)}."
        return text + _hit_text(before, target, after)
    if isinstance(event, Dogfight):
        faces = ", ".join(event.faces)
        return f"{who} dogfight with the {_plane_name(before, event.plane)}: {faces}.{_plane_fate(before, after)}"
    if isinstance(event, Bombing):
        took = any(i not in before.permanent for i in after.permanent) or (
            after.air is not None and before.air is not None and after.air.bombed != before.air.bombed
        )
        result = "the objective is taken" if took else "it misses"
        return f"{who} roll {', '.join(event.faces)} for the strategic bombing: {result}."
    assert isinstance(event, AntiAircraft)
    faces = ", ".join(event.faces)
    aim = "the enemy plane" if event.plane is None else f"the {_plane_name(before, event.plane)} on the ground"
    return f"{who} fire at {aim} with the {_own(before.units[event.unit])}: {faces}.{_plane_fate(before, after)}"


def _count(number: int, one: str, many: str | None = None) -> str:
    """`1 figure`, `2 figures`: replays read as sentences, never `figure(s)`."""
    return f"{number} {one if number == 1 else many or one + 's'}"
