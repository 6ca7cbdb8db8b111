"""Replay lines: "Allies (Bea) play Attack Centre, ordering 3 units", chapters (("turn", n),), as messages
the service tells in the reader's language (English as the templates say it).

A line is told as its viewer may know it (G-2): a drawn command card is named only to the side that drew
it (its seats, as the view shows them the hand) and in the full record; everyone else reads that a card
was drawn.

French and Spanish put the player first ("Bea (Alliés) joue Attaque au centre"): one player reports, so the
verb is singular whichever side he plays, where English says "Allies (Bea) play". A unit is "l'unité
d'infanterie", "la unidad blindada" (`words.unit`), so that a sentence agrees whatever the kind."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain.i18n import Arg, Catalogue, Message, joined
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
from domain.memoire44.words import FACES, SECTIONS, card, faces, kind, listed, side, unit
from domain.ruleset import HandledT, Narration, Viewer

_ = Catalogue("domain.memoire44")


def _side(state: State, seat: int) -> Message:
    return _("{side} ({player})", side=side(state.sides[state.seat_camp[seat]]), player=state.players[seat])


def _own(unit_: Unit, article: bool = True) -> Arg:
    """A unit named by its own side's line, which already says whose it is."""
    return unit(unit_.kind, hex_name(unit_.hex) if unit_.hex is not None else None, article=article)


def _unit(state: State, unit_: Unit, starts: bool = False) -> Arg:
    where = hex_name(unit_.hex) if unit_.hex is not None else None
    return unit(unit_.kind, where, state.sides[unit_.camp], starts=starts)


def _orders_text(card_id: str) -> Message | None:
    spec = CARDS[card_id]
    if spec.kind != "section":
        return None
    if spec.orders is None:
        return _(", ordering all units in the {section} section", section=SECTIONS[spec.sections[0]])
    count = spec.orders * len(spec.sections)
    return _.ngettext(", ordering {count} unit", ", ordering {count} units", count)


def narrate(before: State, event: Memoire44Event, after: State, viewer: Viewer) -> Narration:
    """One line for `event`, with its consequences (hits, eliminations, medals, victory)."""
    seat = getattr(event, "seat", None)
    who: Arg = _side(before, seat) if seat is not None else _("The table")
    parts = [_secret_text(before, event, who, viewer) or _text(before, event, after, who)]
    for camp in (0, 1):
        if after.medals[camp] != before.medals[camp]:
            parts.append(
                _.ngettext(
                    "{side} now have {count} medal.",
                    "{side} now have {count} medals.",
                    after.medals[camp],
                    side=side(after.sides[camp]),
                )
            )
    if after.over and not before.over:
        winner = _("nobody") if after.winner is None else side(after.sides[after.winner])
        parts.append(_("Game over: {reason}; winner {winner}.", reason=_end_reason(after), winner=winner))
    return Narration.told(joined(parts), seat, (("turn", max(before.turn, 1)),))


def _end_reason(state: State) -> Arg:
    """Why the game ended: a side reached its medals (M44-6), the table ended it, or the reason it gave."""
    reason = state.end_reason or ""
    if state.winner is not None:
        won = side(state.sides[state.winner])
        reached = f"{state.sides[state.winner].title()} reach {state.victory[state.winner]} medals"
        if reason == reached:
            return _("{side} reach {count} medals", side=won, count=state.victory[state.winner])
    if reason == "ended by the table":
        return _("ended by the table")
    return reason  # the table's own words, as it wrote them


def _sees_hand(state: State, viewer: Viewer, seat: int) -> bool:
    """Whether `viewer` sees the hand `seat` draws into: the full record, and every seat of that side (a
    side's generals share its hand, as the view shows it)."""
    if viewer.kind == "full":
        return True
    mine = viewer.seat
    camps = state.seat_camp
    return viewer.kind == "seat" and mine is not None and 0 <= mine < len(camps) and camps[mine] == camps[seat]


def _secret_text(before: State, event: Memoire44Event, who: Arg, viewer: Viewer) -> Message | None:
    """The line of an event whose card only its side sees (G-2): named to that side's seats and in the
    full record, "a card" to everyone else (the enemy and the spectators); the cards a commander-in-chief
    hands out likewise, and a combat card to the seat that draws it."""
    if isinstance(event, AirCardDrawn):
        seen = _sees_hand(before, viewer, event.seat) and before.air is not None and event.card is not None
        drawn: Arg = before.air.pack.cards[str(event.card)].name if seen and before.air else _("an air combat card")
        return _("{player} draw {card}.", player=who, card=drawn)
    if isinstance(event, CardDrawn | CardCommitted):
        if not _sees_hand(before, viewer, event.seat):
            name: Arg = _.pgettext("card", "a card")
        else:  # the full record says when it does not know the card either
            name = card(event.card) if event.card else _("a card (face down)")
        if isinstance(event, CardDrawn):
            return _("{player} draw {card}.", player=who, card=name)
        return _("{player} place {card} under the commissar token for their next turn.", player=who, card=name)
    if isinstance(event, CardsGiven) and not event.gifts:  # M44-OV-3: everyone may read this
        return _("{player} hand out no card as commander-in-chief: none of theirs may go out this turn.", player=who)
    if isinstance(event, CardsGiven) and _sees_hand(before, viewer, event.seat):
        # M44-OV-3: the side's seats (who share its cards) and the full record read which card went to whom.
        given: dict[int, list[Arg]] = {}
        for gift in event.gifts:
            given.setdefault(gift.general, []).append(card(gift.card) if gift.card else _("a card (face down)"))
        shares = listed(
            [
                _("{cards} to {general}", cards=listed(names, sep=" and "), general=before.players[g])
                for g, names in given.items()
            ]
        )
        return _handed_out(before, event, who, shares)
    if isinstance(event, CombatCardDrawn) and (
        viewer.kind == "full" or (viewer.kind == "seat" and viewer.seat == event.seat)
    ):
        # M44-CC-1: a combat card is seen by the seat holding it (as the view shows it) and in the full record.
        deck = before.combat_deck
        combat = deck.cards.get(event.card) if deck is not None and event.card is not None else None
        if combat:
            return _("{player} draw the combat card {card}.", player=who, card=combat.name)
        return _("{player} draw a combat card (face down).", player=who)
    return None


def _gifts_source(before: State, event: CardsGiven) -> Message:
    """Where the cards a commander-in-chief hands out come from: his hand, or under the Eastern Front the
    commissar token and, beside its cards, Counter-Attack from the hand (M44-OV-8, M44-OV-10). Only counts,
    which the public sees anyway (G-2)."""
    if not hands_out_token(before, before.seat_camp[event.seat]):
        return _("command cards")
    under = len(before.token)
    extra = len(event.gifts) - under
    token = _.ngettext(
        "the card from under the commissar token", "the {count} cards from under the commissar token", under
    )
    if not extra:
        return token
    return _.ngettext(
        "{token} and {count} card at once from the hand",
        "{token} and {count} cards at once from the hand",
        extra,
        token=token,
    )


def _text(before: State, event: Memoire44Event, after: State, who: Arg) -> Message:
    if isinstance(event, AIR_EVENTS):
        return _air_text(before, event, after, who)
    told = _TEXTS.get(type(event))
    return (
        told(before, event, after, who)
        if told is not None
        else _("{player}: {event}.", player=who, event=type(event).__name__)
    )


def _played_text(before: State, event: CardPlayed, after: State, who: Arg) -> Message:
    if event.card == "ambush" and before.air is not None and event.target in before.air.markers:
        own = _own(before.units[before.occupant[event.target]])
        return _("{player} play Ambush: {unit} fires at the enemy plane dropping a marker on it.", player=who, unit=own)
    if event.card == "ambush":
        if event.target in before.occupant:
            target = _unit(before, before.units[before.occupant[event.target]])
            return _("{player} play Ambush against {unit}.", player=who, unit=target)
        return _("{player} play Ambush against the assault.", player=who)
    if event.card == AIR_SORTIE and before.phase == "card":  # M44-AIR-15: alone, as the turn's card
        return _("{player} play an Air Sortie alone: it orders their plane and is not replaced.", player=who)
    if event.card == AIR_SORTIE:  # M44-AIR-15
        return _(
            "{player} play an Air Sortie beside {card}: it orders their plane.",
            player=who,
            card=card(str(before.effective)),
        )
    name: Arg = card(event.card)
    if event.card == "air_power" and after.effective == AIR_SORTIE:
        name = _("{card} as an Air Sortie", card=name)
    if event.card == "counter_attack" and after.effective:
        name = _("{card} as {other}", card=name, other=card(after.effective))
    elif event.as_card:
        name = _("{card} as {other} (Blitz)", card=name, other=card(event.as_card))
    if plays_from_token(before, before.seat_camp[event.seat]):
        name = _("{card} from under the commissar token", card=name)
    orders = _orders_text(str(after.effective))
    if event.section:
        section = SECTIONS.get(event.section, event.section)
        if orders is not None:
            return _(
                "{player} play {card} on the {section}{orders}.", player=who, card=name, section=section, orders=orders
            )
        return _("{player} play {card} on the {section}.", player=who, card=name, section=section)
    if orders is not None:
        return _("{player} play {card}{orders}.", player=who, card=name, orders=orders)
    return _("{player} play {card}.", player=who, card=name)


def _turn_ended_text(before: State, event: TurnEnded, after: State, who: Arg) -> Message:
    if before.teams and not lone_sortie(before):  # M44-OV-4
        return _("{player} end their turn without drawing: the commander-in-chief's hand is full.", player=who)
    return _("{player} end their turn without drawing: the Air Sortie is not replaced.", player=who)  # M44-AIR-15


def _ordered_text(before: State, event: UnitsOrdered, after: State, who: Arg) -> Message:
    if not event.units:
        return _("{player} order no units.", player=who)
    units = listed([_own(before.units[u], article=False) for u in event.units])
    return _.ngettext(
        "{player} order {count} unit: {units}.",
        "{player} order {count} units: {units}.",
        len(event.units),
        player=who,
        units=units,
    )


def _path(hexes: Sequence[tuple[int, int]]) -> Arg:
    """Hexes one after the other: "C3 → C4 → D4" (hexes are shown as they are in every language)."""
    return " → ".join(hex_name(h) for h in hexes)


def _moved_text(before: State, event: UnitMoved, after: State, who: Arg) -> Message:
    order = before.order_of(event.unit)
    moved = _own(before.units[event.unit])
    if order is not None and order.advance:
        return _(
            "{player} move {unit} → {path} (desert advance before the overrun).",
            player=who,
            unit=moved,
            path=_path(event.path),
        )
    return _("{player} move {unit} → {path}.", player=who, unit=moved, path=_path(event.path))


def _taken_text(before: State, event: CardTaken, after: State, who: Arg) -> Message:
    return _(
        "{player} take {card} at random from the Italian hand (Italian High Command); "
        "it is discarded and the Italian hand is now {count} cards.",
        player=who,
        card=card(event.card),
        count=after.hand_limit[1 - before.seat_camp[event.seat]],
    )


def _light_text(before: State, event: VisibilityRolled, after: State, who: Arg) -> Message:
    light = _("full daylight") if after.visibility >= FULL_DAY else _("visibility {level}", level=after.visibility)
    return _("{player} roll {faces} for the light: {light}.", player=who, faces=faces(event.faces), light=light)


def _gifts_text(before: State, event: CardsGiven, after: State, who: Arg) -> Message:
    # M44-OV-3: how many cards each general gets, never which (G-2).
    counts: dict[int, int] = {}
    for gift in event.gifts:
        counts[gift.general] = counts.get(gift.general, 0) + 1
    shares = listed(
        [
            _.ngettext("{count} card to {general}", "{count} cards to {general}", n, general=before.players[g])
            for g, n in counts.items()
        ]
    )
    return _handed_out(before, event, who, shares)


def _handed_out(before: State, event: CardsGiven, who: Arg, shares: Arg) -> Message:
    """A commander-in-chief's cards handed out (M44-OV-3): where from, and each general's share."""
    return _(
        "{player} hand out {cards} as commander-in-chief: {shares}.",
        player=who,
        cards=_gifts_source(before, event),
        shares=shares,
    )


def _initiative_text(before: State, event: InitiativeTaken, after: State, who: Arg) -> Message:
    table = before.initiative_table
    row = table.faces.get(event.face) if table is not None else None
    face = FACES.get(event.face, event.face)
    if row and row.orders:
        return _.ngettext(
            "{player} take the initiative with no card, rolling {face}, ordering up to {count} unit in their sections.",
            "{player} take the initiative with no card, rolling {face}, ordering up to {count} units in their "
            "sections.",
            row.orders,
            player=who,
            face=face,
        )
    return _("{player} take the initiative with no card, rolling {face}.", player=who, face=face)


def _combat_played_text(before: State, event: CombatCardPlayed, after: State, who: Arg) -> Message:
    deck = before.combat_deck
    name = deck.cards[event.card].name if deck is not None and event.card in deck.cards else event.card
    if event.unit is not None:
        return _(
            "{player} play the combat card {card} on {unit}.",
            player=who,
            card=name,
            unit=_own(before.units[event.unit]),
        )
    return _("{player} play the combat card {card}.", player=who, card=name)


def _placed_text(before: State, event: ReinforcementPlaced, after: State, who: Arg) -> Message:
    left = after.reserve[before.seat_camp[event.seat]].get(event.kind, 0)
    return _.ngettext(
        "{player} bring in a reinforcement {kind} unit at {hex} ({count} figure of {kind} left in reserve).",
        "{player} bring in a reinforcement {kind} unit at {hex} ({count} figures of {kind} left in reserve).",
        left,
        player=who,
        kind=kind(event.kind),
        hex=hex_name(event.hex),
    )


def _rolled_for_reinforcements(before: State, event: ReinforcementsRolled, after: State, who: Arg) -> Message:
    brought = listed([kind(k) for k in after.reinforcements]) if after.reinforcements else _("nothing")
    return _(
        "{player} roll {faces} for reinforcements (D-Day): {units}.",
        player=who,
        faces=faces(event.faces),
        units=brought,
    )


def _medal_text(before: State, event: MedalAwarded, after: State, who: Arg) -> Message:
    reason: Arg = event.reason or _("no reason given")
    return _.ngettext(
        "{player} receive {count} medal under the scenario's rules: {reason}.",
        "{player} receive {count} medals under the scenario's rules: {reason}.",
        event.medals,
        player=who,
        reason=reason,
    )


# A line's text: (state before, event, state after, who reports it) -> message.
_Text = Callable[[State, Any, State, Arg], Message]


def _on(kind: type[HandledT], text: Callable[[State, HandledT, State, Arg], Message]) -> tuple[type[Any], _Text]:
    """One entry of `_TEXTS`: `text` tells the events of type `kind` (mypy checks that it takes them; a lambda's
    event is typed by `kind`)."""
    return kind, text


# Each event's line, by type; `_text` gives a text only the events of its key's type.
_TEXTS: dict[type[Memoire44Event], _Text] = dict(
    (
        _on(CardPlayed, _played_text),
        _on(TurnEnded, _turn_ended_text),
        _on(
            CardDiscarded,
            lambda before, event, after, who: _(
                "{player} keep one card and discard {card}.", player=who, card=card(event.card)
            ),
        ),
        _on(
            DeckReshuffled,
            lambda before, event, after, who: _("{player} reshuffle the discards into a new draw pile.", player=who),
        ),
        _on(
            DiceRolled,
            lambda before, e, after, who: _(
                "{player} roll {faces} for {card}.", player=who, faces=faces(e.faces), card=card(str(before.card))
            ),
        ),
        _on(UnitsOrdered, _ordered_text),
        _on(UnitMoved, _moved_text),
        _on(CardTaken, _taken_text),
        _on(VisibilityRolled, _light_text),
        _on(
            WireRemoved,
            lambda before, e, after, who: _(
                "{player} clear the wire under {unit}.", player=who, unit=_own(before.units[e.unit])
            ),
        ),
        _on(Battle, lambda before, event, after, who: _battle_text(before, event, after, who)),
        _on(Retreated, lambda before, event, after, who: _retreat_text(before, event, after)),
        _on(
            GroundTaken,
            lambda before, e, after, who: _(
                "{player} take ground: {unit} moves into {hex}.",
                player=who,
                unit=_own(before.units[e.unit]),
                hex=hex_name(e.to),
            ),
        ),
        _on(MedalAwarded, _medal_text),
        _on(
            GameEnded,
            lambda before, e, after, who: _(
                "{player} ends the game: {reason}.", player=who, reason=e.reason or _("no reason given")
            ),
        ),
        _on(CardsGiven, _gifts_text),
        _on(InitiativeTaken, _initiative_text),
        # which card is hidden (G-2)
        _on(CombatCardDrawn, lambda before, event, after, who: _("{player} draw a combat card.", player=who)),
        _on(CombatCardPlayed, _combat_played_text),
        _on(ReinforcementsRolled, _rolled_for_reinforcements),
        _on(ReinforcementPlaced, _placed_text),
    )
)


def _battle_text(before: State, event: Battle, after: State, who: Arg) -> Message:
    target = before.units[before.occupant[event.target]]
    source: Arg = card(str(before.effective)) if event.unit is None else _own(before.units[event.unit])
    if is_battle_back(before, before.units[event.unit] if event.unit is not None else None):
        source = _("{unit} battling back (British Commonwealth, 1 die, terrain ignored)", unit=source)
    if event.unit is not None:
        order = before.order_of(event.unit)
        if order is not None and order.overrun:
            source = _("{unit} (armour overrun)", unit=source)
    if not event.faces:  # listed before its dice are rolled: the count only, no empty list of faces
        line = _.ngettext(
            "{player} battle with {source} against {unit}: {count} die.",
            "{player} battle with {source} against {unit}: {count} dice.",
            event.dice,
            player=who,
            source=source,
            unit=_unit(before, target),
        )
    else:
        line = _.ngettext(
            "{player} battle with {source} against {unit}: {count} die, {faces}.",
            "{player} battle with {source} against {unit}: {count} dice, {faces}.",
            event.dice,
            player=who,
            source=source,
            unit=_unit(before, target),
            faces=faces(event.faces),
        )
    return joined([line, *_hit_text(before, target, after)])


def _retreat_text(before: State, event: Retreated, after: State) -> Message:
    """A retreat as reported: the hexes it went back, the flags it ignored (sandbags, a bunker, Tenacity: M44-4,
    M44-CC-3), the figures lost for the hexes it could not go back."""
    unit_ = before.units[event.unit]
    pending = before.pending
    short = pending.flags - len(event.path) if pending is not None else 0
    ignored = min(short, pending.ignorable) if pending is not None else 0
    hexes = [hex_name(h) for h in event.path]
    moved: Message
    if len(hexes) > 1:
        moved = _("retreats through {hexes} to {hex}", hexes=listed(list(hexes[:-1])), hex=hexes[-1])
    elif hexes:
        moved = _("retreats to {hex}", hex=hexes[-1])
    else:
        moved = _("holds its ground") if ignored else _("cannot retreat")
    if ignored:
        moved = _.ngettext("{moved}, ignoring {count} flag", "{moved}, ignoring {count} flags", ignored, moved=moved)
    lost = unit_.figures - after.units[event.unit].figures
    if lost:
        moved = _.ngettext(
            "{moved}, losing {count} figure for the hexes it could not retreat",
            "{moved}, losing {count} figures for the hexes it could not retreat",
            lost,
            moved=moved,
        )
    if after.units[event.unit].figures == 0:
        return _("{unit} {moved} and is eliminated.", unit=_unit(before, unit_, starts=True), moved=moved)
    return _("{unit} {moved}.", unit=_unit(before, unit_, starts=True), moved=moved)


def _hit_text(before: State, target: Unit, after: State) -> list[Message]:
    """What a battle or an air strike did to its target: figures lost, elimination, a retreat due."""
    said: list[Message] = []
    lost = target.figures - after.units[target.uid].figures
    if after.units[target.uid].figures == 0:
        said.append(_("{unit} is eliminated.", unit=unit(target.kind, None, before.sides[target.camp], starts=True)))
    elif lost:
        said.append(_.ngettext("{count} figure lost.", "{count} figures lost.", lost))
    pending = after.pending
    if pending is not None and pending.kind == "retreat":
        flags, may = pending.flags, pending.ignorable
        if not may:
            said.append(_.ngettext("It must retreat {count} hex.", "It must retreat {count} hexes.", flags))
        elif may >= flags:  # sandbags or a bunker (M44-4): the flag need not be obeyed
            said.append(
                _.ngettext(
                    "It may ignore the {count} flag rather than retreat.",
                    "It may ignore the {count} flags rather than retreat.",
                    flags,
                )
            )
        else:
            said.append(
                _.ngettext(
                    "It must retreat {count} hex but may ignore {flags}.",
                    "It must retreat {count} hexes but may ignore {flags}.",
                    flags,
                    flags=_.ngettext("{count} flag", "{count} flags", may),
                )
            )
    return said


def _plane_name(state: State, plane: str) -> str:
    return state.air.pack.planes[plane].name if state.air is not None else plane


def _plane_fate(before: State, after: State) -> list[Message]:
    """What happened to the planes hit (M44-AIR-7, M44-AIR-8)."""
    if before.air is None or after.air is None:
        return []
    for old, new in zip(before.air.planes, after.air.planes, strict=True):
        if old.hex is not None and new.hex is None:
            name = _plane_name(before, old.plane)
            if new.lost:
                return [_("The {plane} is shot down.", plane=name)]
            return [_("The {plane} is driven off the board.", plane=name)]
    return [_("It misses.")]


def _air_text(before: State, event: Memoire44Event, after: State, who: Arg) -> Message:
    """The air events' lines (M44-AIR-3 to M44-AIR-8); the air combat card played is shown to all."""
    if isinstance(event, PlaneDeployed):
        assert before.air is not None
        args: dict[str, Arg] = {
            "player": who,
            "plane": _plane_name(before, event.plane),
            "hex": hex_name(event.hex),
            "card": before.air.pack.cards[event.card].name,
        }
        if event.use_effect:
            return _("{player} deploy the {plane} at {hex} with {card}, using the card's own effect.", **args)
        return _("{player} deploy the {plane} at {hex} with {card}.", **args)
    if isinstance(event, PlaneOrdered):
        plane = _plane_name(before, event.plane)
        if event.move_order:
            return _(
                "{player} order the {plane} on a move order: it flies but does not fight this turn.",
                player=who,
                plane=plane,
            )
        return _("{player} order the {plane}.", player=who, plane=plane)
    if isinstance(event, PlaneMoved):
        flown: Message = _(
            "{player} fly the {plane} → {path}",
            player=who,
            plane=_plane_name(before, event.plane),
            path=_path(event.path),
        )
        if event.markers:
            flown = _(
                "{flown}, dropping ammunition on {hexes}",
                flown=flown,
                hexes=listed([hex_name(h) for h in event.markers]),
            )
        if event.bomb:
            flown = _("{flown}, laying a bomb token to take the objective", flown=flown)
        return _("{flown}.", flown=flown)
    if isinstance(event, AirStrike):
        target = before.units[before.occupant[event.target]]
        line = _(
            "{player} strike {unit} from the air: {faces}.",
            player=who,
            unit=_unit(before, target),
            faces=faces(event.faces),
        )
        return joined([line, *_hit_text(before, target, after)])
    if isinstance(event, Dogfight):
        line = _(
            "{player} dogfight with the {plane}: {faces}.",
            player=who,
            plane=_plane_name(before, event.plane),
            faces=faces(event.faces),
        )
        return joined([line, *_plane_fate(before, after)])
    if isinstance(event, Bombing):
        took = any(i not in before.permanent for i in after.permanent) or (
            after.air is not None and before.air is not None and after.air.bombed != before.air.bombed
        )
        result = _("the objective is taken") if took else _("it misses")
        return _(
            "{player} roll {faces} for the strategic bombing: {result}.",
            player=who,
            faces=faces(event.faces),
            result=result,
        )
    assert isinstance(event, AntiAircraft)
    gun = _own(before.units[event.unit])
    if event.plane is None:
        line = _(
            "{player} fire at the enemy plane with {unit}: {faces}.", player=who, unit=gun, faces=faces(event.faces)
        )
    else:
        line = _(
            "{player} fire at the {plane} on the ground with {unit}: {faces}.",
            player=who,
            plane=_plane_name(before, event.plane),
            unit=gun,
            faces=faces(event.faces),
        )
    return joined([line, *_plane_fate(before, after)])
