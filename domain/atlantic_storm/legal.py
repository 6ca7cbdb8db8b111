"""The events a seat may report at a state (`legal_events`), so a random player can play whole games.

Choices are listed in full; chance is listed by form (G-2, G-4): draws face down, every die face, every
convoy that may be on top of the pile. A hand's known cards are offered in every play they can make. A
hand that holds face-down cards may also play any card the record has seen nowhere else (`unseen`):
each such card is offered alone, and `extensions` adds one card at a time to a play (a bonus, a special,
a supply, a second normal with an admiral), so the recorder names the cards the table saw by taps while
the choices stay few (issue 29).
"""

from __future__ import annotations

from itertools import combinations, product
from typing import Any, Literal

import msgspec

from domain.atlantic_storm.catalogue import Card
from domain.atlantic_storm.combat import fate_effects, pending_dice, restrictions, zone_now
from domain.atlantic_storm.events import (
    AtlanticStormEvent,
    Bonus,
    CardDiscarded,
    CardsDealt,
    CardsDrawn,
    CardsPlayed,
    ConvoysCut,
    ConvoyTurned,
    DeckReshuffled,
    DiceRolled,
    HandDiscarded,
    IntelligencePlayed,
    Share,
    SpoilsDivided,
    StormRolled,
    StormStruck,
    SupplyTaken,
    ZoneDeclared,
)
from domain.atlantic_storm.rules import HAND, draw_needed, storm_choices, supply_candidates, validate
from domain.atlantic_storm.state import Battle, State, Turn
from domain.i18n import Catalogue, Message
from domain.ruleset import RuleError

_ = Catalogue("domain.atlantic_storm")

SPOILS_LISTED = 2000


def legal_events(state: State, seat: int) -> list[AtlanticStormEvent]:
    """Everything `seat` may report now. The cut is listed once, by the first seat, with every convoy
    left to name (the recording page asks for each as the table shows it)."""
    phase = state.phase
    if phase == "cut":
        return [ConvoysCut(cuts=(None,) * state.players)] if seat == 0 else []
    if phase in ("over", "deal", "turn_convoy", "refill"):
        return _between_battles(state, seat)
    battle = state.battle
    assert battle is not None
    if phase == "declare_zone":
        if seat != battle.leader:
            return []
        return [ZoneDeclared(seat=seat, zone=z) for z in ("air", "surface", "submarine", "combined")]
    if phase == "play":
        turn = battle.queue[0]
        return _turn_events(state, turn) if seat == turn.seat else []
    if phase in ("storm_roll", "storm_choice"):
        return _storm_events(state, seat)
    if phase == "dice":
        out: list[AtlanticStormEvent] = []
        for owner, card, dice in pending_dice(state):
            if owner == seat:
                out += [DiceRolled(seat=seat, card=card, faces=f) for f in product(range(1, 7), repeat=dice)]
        return out
    return _outcome_events(state, seat)


def _between_battles(state: State, seat: int) -> list[AtlanticStormEvent]:
    """The game over, the deal, the convoy turned and the hands refilled."""
    phase = state.phase
    if phase == "over":
        return []
    if phase == "deal":
        if seat != state.dealer:
            return []
        return [CardsDealt(hands=tuple((None,) * HAND for _ in range(state.players)))]
    if phase == "turn_convoy":
        return _convoys(state) if seat == state.leader else []
    if seat != state.draw_queue[0]:  # refill
        return []
    if state.deck == 0:
        return [DeckReshuffled()]
    most = min(draw_needed(state, seat), state.deck)
    return [CardsDrawn(seat=seat, cards=(None,) * k) for k in range(1, most + 1)]


def _storm_events(state: State, seat: int) -> list[AtlanticStormEvent]:
    """The storm's holder rolls, then chooses what it strikes."""
    assert state.battle is not None
    storm = state.battle.storm
    if storm is None or storm.holder != seat:
        return []
    if state.phase == "storm_roll":
        return [StormRolled(seat=seat, face=f) for f in range(1, 7)]
    # AS-18: one strike per choice, each saying what it does (the half of a cancelled play too).
    struck: list[AtlanticStormEvent] = [StormStruck(seat=seat, target=None)]
    for target in range(state.players):
        struck += [
            StormStruck(seat=seat, target=target, effect=effect, half=half)
            for effect, half in storm_choices(state, target)
        ]
    return struck


def _outcome_events(state: State, seat: int) -> list[AtlanticStormEvent]:
    """After the battle: the supplies taken, then the spoils divided."""
    assert state.battle is not None
    outcome = state.battle.outcome
    assert outcome is not None
    if state.phase == "supply":
        owner, supply = outcome.supplies[0]
        if owner != seat:
            return []
        choices = (None, *supply_candidates(state, supply))
        return [SupplyTaken(seat=seat, supply=supply, card=c) for c in choices]
    if state.phase == "spoils":
        return _divisions(outcome.trick, outcome.eligible, seat) if seat == outcome.trick_winner else []
    return []


def _convoys(state: State) -> list[AtlanticStormEvent]:
    left = sorted(
        (n for n, c in state.cards.items() if c.category == "convoy" and n not in state.convoys_seen),
        key=lambda n: int(n[1:]),
    )
    seat = state.leader
    if state.variant == "basic":
        return [ConvoyTurned(seat=seat, convoy=c) for c in left]
    return [ConvoyTurned(seat=seat, convoy=a, discarded=b) for a in left for b in left if a != b]


def _turn_events(state: State, turn: Turn) -> list[AtlanticStormEvent]:
    seat = turn.seat
    out: list[AtlanticStormEvent] = []
    if turn.intelligence is not None:
        out.append(CardDiscarded(seat=seat, card=turn.intelligence))
    else:
        out += [CardDiscarded(seat=seat, card=c) for c in state.hands[seat]]
        if state.unknown[seat]:  # one of the face-down cards, onto the face-down pile (G-2)
            out.append(CardDiscarded(seat=seat, card=None))
        if state.variant == "advanced" and state.hand_count(seat):  # its face-down cards unnamed (G-2)
            out.append(HandDiscarded(seat=seat, cards=(*state.hands[seat], *(None,) * state.unknown[seat])))
    out += _plays(state, turn)
    out += _unseen_plays(state, turn)
    return out


def unseen(state: State, seat: int) -> list[Card]:
    """The force cards the record has seen nowhere (G-2), in catalogue order: any of them may be one of
    `seat`'s face-down cards (none when the hand holds no face-down card)."""
    if not state.unknown[seat]:
        return []
    located = state.located
    return [c for n, c in state.cards.items() if c.category != "convoy" and n not in located]


def _sails(state: State, card: Card) -> bool:
    """Documented enough to play, in this battle's ocean and year (AS-4)."""
    battle = state.battle
    assert battle is not None
    convoy = state.cards[battle.convoy]
    return bool(card.years and card.side and card.category) and (
        card.ocean in ("any", convoy.ocean) and convoy.years[0] in card.years
    )


def _legal(state: State, event: AtlanticStormEvent) -> bool:
    try:
        validate(state, event)
    except RuleError:
        return False
    return True


def _announced(state: State, play: CardsPlayed) -> CardsPlayed:
    """`play` with the fate victims its cards announce (AS-6)."""
    battle = state.battle
    assert battle is not None
    numbers = (*play.normals, *(b.card for b in play.bonuses), *play.specials, *play.supplies)
    doubled, destroyed = fate_effects(state, battle, play.seat, numbers)
    victims = tuple(sorted(set(destroyed) | ({battle.convoy} if doubled else set())))
    return msgspec.structs.replace(play, victims=victims)


def _unseen_plays(state: State, turn: Turn) -> list[AtlanticStormEvent]:
    """A hand with face-down cards: each unseen card the rules let this seat play alone now, as a normal
    card, a bonus standing alone, a special, a supply, or an intelligence card instead of a play. The
    cards it may add are `extensions` of that play."""
    seat = turn.seat
    out: list[AtlanticStormEvent] = []
    for card in unseen(state, seat):
        if not _sails(state, card):
            continue
        number = card.number
        candidates: list[CardsPlayed] = []
        if card.category == "normal":
            candidates.append(CardsPlayed(seat=seat, normals=(number,)))
        elif card.category == "bonus" and card.special == "standalone":
            candidates.append(CardsPlayed(seat=seat, bonuses=(Bonus(card=number),)))
        elif card.category == "special" and card.special == "intelligence":
            if turn.intelligence is None:
                out += [e for e in (IntelligencePlayed(seat=seat, card=number),) if _legal(state, e)]
        elif card.category == "special":
            candidates.append(CardsPlayed(seat=seat, specials=(number,)))
        elif card.category == "supply":
            candidates.append(CardsPlayed(seat=seat, supplies=(number,)))
        out += [e for e in map(lambda c: _announced(state, c), candidates) if _legal(state, e)]
    return out


def extensions(state: State, event: AtlanticStormEvent) -> list[AtlanticStormEvent]:
    """The plays that are `event` with one card more, each legal now: a normal card (a second one beside
    an admiral), a bonus attached to one of its normals or standing alone, a special, a supply (AS-4,
    AS-7, AS-8). The card comes from the seat's known hand, or from the unseen cards while the hand
    holds face-down cards not yet named in the play. Empty for anything but a play."""
    if not isinstance(event, CardsPlayed) or state.phase != "play" or state.battle is None:
        return []
    seat = event.seat
    if not 0 <= seat < state.players:
        return []
    held = set((*event.normals, *(b.card for b in event.bonuses), *event.specials, *event.supplies))
    pool = [state.cards[n] for n in state.hands[seat] if n in state.cards] + unseen(state, seat)
    admirals = sum(state.cards[n].special == "admiral" for n in event.specials if n in state.cards)
    out: list[AtlanticStormEvent] = []
    for card in pool:
        number = card.number
        if number in held or not _sails(state, card):
            continue
        candidates: list[CardsPlayed] = []
        if card.category == "normal" and len(event.normals) < 2:
            use = event.admiral if len(event.normals) == 0 else "two_normals"
            candidates.append(msgspec.structs.replace(event, normals=(*event.normals, number), admiral=use))
        elif card.category == "bonus":
            parents: list[str | None] = [None, *event.normals]
            candidates += [
                msgspec.structs.replace(event, bonuses=(*event.bonuses, Bonus(card=number, parent=p))) for p in parents
            ]
        elif card.category == "special" and card.special != "intelligence":
            admiral = event.admiral
            if card.special == "admiral" and not admirals:
                admiral = "two_normals" if len(event.normals) == 2 else "combined"
            candidates.append(msgspec.structs.replace(event, specials=(*event.specials, number), admiral=admiral))
        elif card.category == "supply":
            candidates.append(msgspec.structs.replace(event, supplies=(*event.supplies, number)))
        out += [e for e in (_announced(state, c) for c in candidates) if _legal(state, e)]
    return out


def extensible(event: AtlanticStormEvent) -> bool:
    """Whether `event` may hold more (a play may gain cards, see `extensions`)."""
    return isinstance(event, CardsPlayed)


Admiral = Literal["combined", "two_normals"] | None
Plays = dict[tuple[Any, ...], Any]
"""The plays found so far, each once, by what it holds (in the order they were found)."""


def _plays(state: State, turn: Turn) -> list[AtlanticStormEvent]:
    battle = state.battle
    assert battle is not None
    only, black_gap = restrictions(state, battle)
    playable = _playable(state, battle, turn.seat)
    sides: tuple[str, ...] = ("allied", "german") if turn.side is None else (turn.side,)
    out: Plays = {}
    for side in sides:
        mine = [c for c in playable if c.side == side] if only in (None, side) else []
        storms = [c for c in playable if c.special == "storm" and battle.storm is None]
        if turn.intelligence is None:
            out.update(_intelligence(state, turn.seat, mine))
        normals = [
            c
            for c in mine
            if c.category == "normal" and c.type and not (black_gap and side == "allied" and c.type == "air")
        ]
        specials = [c for c in mine if c.category == "special" and c.special in ("admiral", "raid", "happy_time")]
        _side_plays(state, turn.seat, normals, mine, specials + storms, out)
    return list(out.values())


def _playable(state: State, battle: Battle, seat: int) -> list[Card]:
    """The cards of `seat`'s hand known enough to play in this battle's ocean and year."""
    convoy = state.cards[battle.convoy]
    year = convoy.years[0]
    playable = []
    for number in state.hands[seat]:
        card = state.cards[number]
        if not card.years or not card.ocean or not card.side or not card.category:
            continue
        if (card.ocean in ("any", convoy.ocean)) and year in card.years:
            playable.append(card)
    return playable


def _side_plays(state: State, seat: int, normals: list[Any], mine: list[Any], specials: list[Any], out: Plays) -> None:
    """Every play of one side's cards: no normal, one, or two with an admiral; any specials; any bonuses
    attached; any supplies."""
    bonuses = [c for c in mine if c.category == "bonus" and c.type]
    supplies = [c.number for c in mine if c.category == "supply"]
    normal_sets: list[tuple[str, ...]] = [()]
    normal_sets += [(c.number,) for c in normals]
    if any(c.special == "admiral" for c in specials):
        normal_sets += [tuple(pair) for pair in combinations([c.number for c in normals], 2)]
    battle = state.battle
    assert battle is not None
    for chosen in normal_sets:
        for extra in _subsets([c.number for c in specials]):
            for use in _admiral_uses(state, chosen, extra):
                if _raids_ok(state, battle, chosen, extra, use):
                    _add_plays(state, seat, (chosen, extra, use), bonuses, supplies, out)


def _admiral_uses(state: State, chosen: tuple[str, ...], extra: tuple[str, ...]) -> list[Admiral]:
    """How an admiral among `extra` is used with the normals `chosen` (none when they cannot go together)."""
    if any(state.cards[n].special == "admiral" for n in extra):
        if not chosen:
            return []
        return ["two_normals"] if len(chosen) == 2 else ["combined"]
    return [] if len(chosen) == 2 else [None]


def _add_plays(
    state: State,
    seat: int,
    play: tuple[tuple[str, ...], tuple[str, ...], Admiral],
    bonuses: list[Any],
    supplies: list[str],
    out: Plays,
) -> None:
    """The plays of these normals, specials and admiral's use with each choice of bonuses and supplies."""
    chosen, extra, use = play
    battle = state.battle
    assert battle is not None
    for attached in _attachments(state, chosen, bonuses):
        for fuel in _subsets(supplies):
            numbers = chosen + tuple(b.card for b in attached) + extra + fuel
            key = (chosen, attached, extra, fuel, use)
            if not numbers or key in out:
                continue
            doubled, destroyed = fate_effects(state, battle, seat, numbers)
            victims = tuple(sorted(set(destroyed) | ({battle.convoy} if doubled else set())))
            out[key] = CardsPlayed(
                seat=seat,
                normals=chosen,
                bonuses=attached,
                specials=extra,
                supplies=fuel,
                admiral=use,
                victims=victims,
            )


def _intelligence(state: State, seat: int, mine: list[Any]) -> dict[tuple[Any, ...], Any]:
    return {
        ("intelligence", c.number): IntelligencePlayed(seat=seat, card=c.number)
        for c in mine
        if c.special == "intelligence"
    }


def _subsets(items: list[str]) -> list[tuple[str, ...]]:
    return [tuple(c) for k in range(len(items) + 1) for c in combinations(items, k)]


def _raids_ok(
    state: State, battle: Battle, normals: tuple[str, ...], specials: tuple[str, ...], use: str | None
) -> bool:
    zone = "combined" if use == "combined" else zone_now(battle)
    for number in specials:
        special = state.cards[number].special
        if special in ("raid", "happy_time"):
            needed = "surface" if special == "raid" else "submarine"
            if zone not in (needed, "combined") or any(state.cards[n].type != needed for n in normals):
                return False
    return True


def _attachments(state: State, normals: tuple[str, ...], bonuses: list[Any]) -> list[tuple[Bonus, ...]]:
    options: list[list[Bonus | None]] = []
    for bonus in bonuses:
        choice: list[Bonus | None] = [None]
        if bonus.special == "standalone":
            choice.append(Bonus(card=bonus.number))
        for parent in normals:
            if bonus.type == "any" or bonus.type == state.cards[parent].type:
                choice.append(Bonus(card=bonus.number, parent=parent))
        options.append(choice)
    return [tuple(b for b in combo if b is not None) for combo in product(*options)]


def _divisions(trick: tuple[str, ...], eligible: tuple[int, ...], seat: int) -> list[AtlanticStormEvent]:
    """Balanced divisions of the spoils among the eligible seats (AS-15), at most SPOILS_LISTED."""
    out: list[AtlanticStormEvent] = []
    k = len(eligible)
    for assignment in product(range(k), repeat=len(trick)):
        counts = [assignment.count(i) for i in range(k)]
        if max(counts) - min(counts) > 1:
            continue
        shares = tuple(
            Share(seat=eligible[i], cards=tuple(c for c, a in zip(trick, assignment, strict=True) if a == i))
            for i in range(k)
        )
        out.append(SpoilsDivided(seat=seat, shares=shares))
        if len(out) >= SPOILS_LISTED:
            break
    return out


def field_names(state: State) -> dict[str, tuple[tuple[str, str], ...]]:
    """The catalogue's card numbers, with their names, for the fields that name a force card or a convoy
    (the recording page offers them where a deal, a draw or a cut is reported)."""
    cards = sorted(state.cards.items())
    forces = tuple((number, f"{number} {card.name}") for number, card in cards if card.category != "convoy")
    convoys = tuple((number, f"{number} {card.name}") for number, card in cards if card.category == "convoy")
    return {"hands": forces, "cards": forces, "cuts": convoys}


_GROUPS = {
    "air": (0, _("Air plays")),
    "surface": (0, _("Surface plays")),
    "submarine": (0, _("Submarine plays")),
    "any": (0, _("Plays")),
    "cards": (1, _("Special, bonus and supply cards")),
    "discard": (2, _("Discards")),
    "other": (0, _("What happens now")),
}


def choice_group(state: State, event: AtlanticStormEvent) -> tuple[int, Message]:
    """What the table is doing with `event`, for the recording page's groups: a play by the zone of its
    normal card (its frame, AS-4), the plays of special, bonus or supply cards alone, then the discards."""
    if isinstance(event, CardsPlayed):
        card = state.cards.get(event.normals[0]) if event.normals else None
        return _GROUPS.get(card.type, _GROUPS["any"]) if card is not None else _GROUPS["cards"]
    if isinstance(event, IntelligencePlayed):
        return _GROUPS["cards"]
    if isinstance(event, CardDiscarded | HandDiscarded):
        return _GROUPS["discard"]
    return _GROUPS["other"]
