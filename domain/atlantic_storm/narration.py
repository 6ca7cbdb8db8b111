"""Replay lines in plain English, chaptered by battle and round."""

from __future__ import annotations

from typing import Any

from domain.atlantic_storm.events import (
    AtlanticStormEvent,
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
    SpoilsDivided,
    StormRolled,
    StormStruck,
    SupplyTaken,
    ZoneDeclared,
)
from domain.atlantic_storm.rules import storm_hit
from domain.atlantic_storm.state import State
from domain.ruleset import Narration, Viewer

SIDE = {"allied": "the Allies", "german": "the Germans"}
ZONE = {"air": "an air", "surface": "a surface", "submarine": "a submarine", "combined": "a combined"}
OCEAN = {"north_atlantic": "North Atlantic", "arctic": "Arctic"}
HALF = {1: "first-round ", 2: "second-round "}


def _names(state: State, numbers: tuple[str, ...] | list[str]) -> str:
    return _listed([state.cards[n].name for n in numbers])


def _listed(names: list[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _chapters(state: State) -> tuple[tuple[str, int], ...]:
    battle = state.battle
    if battle is None:
        if state.phase == "refill":  # the refill after a battle belongs to it (AS-12)
            return (("battle", state.battles_fought),)
        return (("battle", state.battles_fought + 1),) if state.phase == "turn_convoy" else ()
    chapters: tuple[tuple[str, int], ...] = (("battle", battle.number), ("round", battle.round))
    if state.players == 2:
        chapters += (("half", battle.half),)
    return chapters


def narrate(before: State, event: AtlanticStormEvent, after: State, viewer: Viewer) -> Narration:
    """One line for `event` as `viewer` may know it; it also tells what the event decided (a battle won,
    a tie, the end)."""
    seat: int | None = getattr(event, "seat", None)
    who = before.names[seat] if seat is not None else ""
    text = _secret_text(before, event, who, viewer) or _text(before, event, after, who)
    decision = after.decision
    if decision is not None and decision is not before.decision:
        convoy = before.cards[decision.convoy].name
        if decision.kind == "no_combat":
            text += f" No combat: nobody wins {convoy}, which is discarded."
        elif decision.kind == "tie":
            text += (
                f" The sides tie {decision.allied} to {decision.allied}: the battle for {convoy} "
                "goes on with a new round."
            )
        else:
            high, low = (
                (decision.allied, decision.german) if decision.kind == "allied" else (decision.german, decision.allied)
            )
            winner = before.names[decision.trick_winner] if decision.trick_winner is not None else "nobody"
            text += f" T{SIDE[decision.kind][1:]} win {high} to {low}; {winner} takes the trick ({convoy})."
    if after.phase == "over" and before.phase != "over":
        text += " That was the last convoy: the game is over."
    return Narration(text=text, seat=seat, chapters=_chapters(before))


def _secret_text(before: State, event: Any, who: str, viewer: Viewer) -> str | None:
    """The line of an event whose cards only its seat sees (G-2): cards drawn into a hand, and a card
    discarded instead of a play, which goes face down to a pile nobody looks through (AS-3, AS-12).
    They are named to that seat and in the full record; everyone else reads how many. An intelligence
    card discarded after its turn was played face up, so it is named to all."""
    if isinstance(event, CardsDrawn):
        count = len(event.cards)
        if viewer.sees(event.seat) and any(event.cards):
            drawn = [before.cards[c].name if c is not None else "a card face down" for c in event.cards]
            return f"{who} draws {_listed(drawn)}."
        return f"{who} draws {count} card{'s' if count != 1 else ''}."
    if isinstance(event, CardDiscarded):
        battle = before.battle
        shown = battle is not None and bool(battle.queue) and battle.queue[0].intelligence == event.card
        return f"{who} discards {before.cards[event.card].name if shown or viewer.sees(event.seat) else 'a card'}."
    return None


def _text(before: State, event: Any, after: State, who: str) -> str:
    cards = before.cards
    if isinstance(event, ConvoysCut):
        cuts = "; ".join(f"{before.names[s]} cuts {cards[c].name} ({c})" for s, c in enumerate(event.cuts))
        dealer = after.dealer if after.dealer is not None else 0
        return f"{cuts}. {after.names[dealer]} cut the lowest number and deals."
    if isinstance(event, CardsDealt):
        dealer = before.dealer if before.dealer is not None else 0
        return f"{before.names[dealer]} deals six force cards to each player."
    if isinstance(event, ConvoyTurned):
        convoy = cards[event.convoy]
        facts = (
            f"{convoy.years[0] if convoy.years else '?'}, {OCEAN.get(convoy.ocean, convoy.ocean)}, "
            f"{convoy.cargo or 'unknown'} cargo, {convoy.vp} VP"
        )
        if event.discarded is not None:
            return (
                f"{who} takes {convoy.name} and {cards[event.discarded].name}, keeps {convoy.name} "
                f"({facts}) and discards {cards[event.discarded].name}."
            )
        return f"{who} turns {convoy.name} ({facts})."
    if isinstance(event, ZoneDeclared):
        return f"{who} declares {ZONE[event.zone]} battle."
    if isinstance(event, CardsPlayed):
        return _play_text(before, event, who)
    if isinstance(event, IntelligencePlayed):
        card = cards[event.card]
        return f"{who} plays {card.name} and will play last this round, for {SIDE.get(card.side, card.side)}."
    if isinstance(event, HandDiscarded):
        return f"{who} discards the whole hand ({len(event.cards)} cards)."
    if isinstance(event, StormRolled):
        if event.face <= 3:
            return f"{who} rolls a {event.face} for the storm: it may cancel a play or make a player skip."
        battle = after.battle
        storm = battle.storm if battle is not None else None
        if storm is None:
            return f"{who} rolls a {event.face} for the storm, which blows itself out."
        return f"{who} rolls a {event.face} for the storm, which passes to {after.names[storm.holder]}."
    if isinstance(event, StormStruck):
        if event.target is None:
            return f"{who} lets the storm pass without using it."
        return _storm_text(before, event, who)
    if isinstance(event, DiceRolled):
        faces = " and ".join(str(f) for f in event.faces)
        return f"{who} rolls {faces} for {cards[event.card].name}."
    if isinstance(event, SupplyTaken):
        if event.card is None:
            return f"{who}'s {cards[event.supply].name} refuels nothing."
        return f"{who}'s {cards[event.supply].name} refuels {cards[event.card].name} into {who}'s hand."
    if isinstance(event, SpoilsDivided):
        parts = [f"{before.names[s.seat]} gets {_names(before, list(s.cards)) or 'nothing'}" for s in event.shares]
        return f"{who} divides the spoils: " + "; ".join(parts) + "."
    if isinstance(event, DeckReshuffled):
        return f"The deck has run out: the discard pile ({len(before.discard)} cards) is shuffled into a new deck."
    return f"{who} reports {type(event).__name__}."


def _storm_text(before: State, event: StormStruck, who: str) -> str:
    """What the strike did (AS-7, AS-18): the play it cancelled, with its round of play in the two-player
    game, or the play it took away; a strike recorded before AS-18 may have done both."""
    battle = before.battle
    target = event.target
    assert battle is not None and target is not None
    name = before.names[target]
    cancels, skip = storm_hit(before, event)
    two = before.players == 2
    parts: list[str] = []
    for half in cancels:
        lost = [n for p in battle.plays if p.seat == target and p.half == half and not p.cancelled for n in p.cards()]
        which = HALF.get(half, "") if two else ""
        parts.append(f"cancels {name}'s {which}play" + (f" ({_names(before, lost)})" if lost else ""))
    if skip:
        waiting = any(t.seat == target and t.intelligence is None for t in battle.queue)
        parts.append(f"makes {name} skip the turn" if waiting else f"makes {name} skip the play in the second round")
    return f"{who}'s storm " + " and ".join(parts) + "."


def _play_text(before: State, event: CardsPlayed, who: str) -> str:
    cards = before.cards
    battle = before.battle
    parts: list[str] = []
    for normal in event.normals:
        attached = [b.card for b in event.bonuses if b.parent == normal]
        parts.append(cards[normal].name + (f" with {_names(before, attached)}" if attached else ""))
    parts += [cards[b.card].name for b in event.bonuses if b.parent is None]
    parts += [cards[n].name for n in event.specials + event.supplies]
    sides = {cards[n].side for n in event.normals + event.specials + event.supplies} - {"either"}
    sides |= {cards[b.card].side for b in event.bonuses}
    side = f" for {SIDE[next(iter(sides))]}" if len(sides) == 1 else ""
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    text = f"{who} plays {listed}{side}"
    if event.admiral == "combined":
        text += "; the admiral makes the battle combined"
    text += "."
    convoy = battle.convoy if battle is not None else ""
    for victim in event.victims:
        if victim == convoy:
            text += f" {cards[victim].name} is this play's fate victim: the fate card's value doubles."
        else:
            owner = next((before.names[p.seat] for p in (battle.plays if battle else ()) if victim in p.cards()), "")
            text += f" Fate: {cards[victim].name} ({owner}'s) is destroyed" + (
                f" and goes face down to {who}." if cards[victim].category == "normal" else "."
            )
    return text
