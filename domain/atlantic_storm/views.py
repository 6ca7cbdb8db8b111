"""What each viewer may see of a table (G-2): the public, one seat, or the full record."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.atlantic_storm.combat import play_value, zone_now
from domain.atlantic_storm.events import AtlanticStormEvent, CardDiscarded, CardsDealt, CardsDrawn, HandDiscarded
from domain.atlantic_storm.scoring import card_vp, convoy_vp
from domain.atlantic_storm.state import State
from domain.ruleset import Viewer


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """Public: hand sizes only, captured cards face down (counted) until the game ends, the discard pile
    counted (nobody may look through it). A seat also sees its own hand and its own captured cards.
    Full: everything the record knows, including each hand's face-down count."""
    full = viewer.kind == "full"
    over = state.phase == "over"
    seats = []
    for seat, name in enumerate(state.names):
        mine = full or (viewer.kind == "seat" and viewer.seat == seat)
        entry: dict[str, Any] = {
            "seat": seat,
            "name": name,
            "hand_count": state.hand_count(seat),
            "hand_size": state.hand_sizes[seat],
            "convoys": list(state.convoys_won[seat]),
            "convoy_vp": convoy_vp(state, seat),
            "captured_count": len(state.captured[seat]),
        }
        if mine:
            entry["hand"] = list(state.hands[seat])
            entry["hand_face_down"] = state.unknown[seat]
        if mine or over:
            entry["captured"] = list(state.captured[seat])
            entry["card_vp"] = card_vp(state, seat)
        seats.append(entry)
    battle = state.battle
    data: dict[str, Any] = {
        "variant": state.variant,
        "phase": state.phase,
        "dealer": state.dealer,
        "leader": state.leader,
        "battles_fought": state.battles_fought,
        "battles": state.pile_size,
        "deck": state.deck,
        "discard_count": len(state.discard) + state.discard_face_down,
        "convoy_discard": list(state.convoy_discard),
        "players": seats,
        "battle": msgspec.to_builtins(battle) if battle is not None else None,
        "decision": msgspec.to_builtins(state.decision) if state.decision is not None else None,
        "draw_queue": list(state.draw_queue),
    }
    if full:
        data["discard"] = list(state.discard)
        data["located"] = sorted(state.located)
    if battle is not None:
        # What the picture and a reader need beside the card numbers: the zone in force and each
        # play's combat value in it (AS-9), dice not yet rolled counting 0.
        zone = zone_now(battle)
        data["battle"]["zone_now"] = zone
        for play, shown in zip(battle.plays, data["battle"]["plays"], strict=True):
            shown["value"] = play_value(state, play, zone)
    data["cards"] = _cards_shown(state, data)
    return data


def _cards_shown(state: State, data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The printed facts (name, side, category, VP) of every card number this view shows, so a reader
    sees "SC 42 (7 VP)" rather than "C1"; a number the view hides is not listed."""
    numbers: set[str] = set(data["convoy_discard"])
    for entry in data["players"]:
        numbers.update(entry["convoys"])
        numbers.update(entry.get("hand", ()))
        numbers.update(entry.get("captured", ()))
    numbers.update(data.get("discard", ()))
    battle = state.battle
    if battle is not None:
        numbers.add(battle.convoy)
        numbers.update(number for _, number in battle.under)
        for play in battle.plays:
            numbers.update(play.cards())
            numbers.update(play.lost)
            numbers.update(play.took)
        numbers.update(turn.intelligence for turn in battle.queue if turn.intelligence)
        if battle.storm is not None:
            numbers.add(battle.storm.card)
        outcome = battle.outcome
        if outcome is not None:
            numbers.update((*outcome.trick, *outcome.to_discard, *outcome.candidates))
            numbers.update(number for _, number in outcome.supplies)
    if state.decision is not None:
        numbers.add(state.decision.convoy)
    cards = state.cards
    return {
        number: {"name": card.name, "side": card.side, "category": card.category, "vp": card.vp}
        for number in sorted(numbers)
        if (card := cards.get(number)) is not None
    }


def known(state: State, event: AtlanticStormEvent, after: State, viewer: Viewer) -> tuple[AtlanticStormEvent, ...]:
    """`event` as `viewer` knew it (`Ruleset.known`; a step shows nothing more): a card dealt, drawn or
    discarded is None unless it is the viewer's own (a hand is dealt and refilled face down, and the
    discard pile is face down, AS-3)."""
    if viewer.kind == "full":
        return (event,)

    def hidden(seat: int) -> bool:
        return not viewer.sees(seat)

    if isinstance(event, CardsDealt):
        hands = tuple(tuple(None for _ in hand) if hidden(seat) else hand for seat, hand in enumerate(event.hands))
        return (msgspec.structs.replace(event, hands=hands),)
    if isinstance(event, CardsDrawn | HandDiscarded) and hidden(event.seat):
        return (msgspec.structs.replace(event, cards=tuple(None for _ in event.cards)),)
    if isinstance(event, CardDiscarded) and hidden(event.seat):
        return (msgspec.structs.replace(event, card=None),)
    return (event,)
