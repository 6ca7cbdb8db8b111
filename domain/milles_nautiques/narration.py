"""Replay lines: plain English a club member would write, in chapters (round, turn)."""

from __future__ import annotations

from typing import Any

from domain.milles_nautiques.catalogue import BY_NAME
from domain.milles_nautiques.events import (
    AlertEnded,
    AlertPlayed,
    ConvoyPlaced,
    ConvoysRevealed,
    Dealt,
    Discarded,
    Drew,
    FairSeaPlayed,
    MilesPlayed,
    MineLaid,
    MinesweeperPlayed,
    NeutralFlagPlayed,
    PlaneHit,
    PlanePlayed,
    RadarPlayed,
    StormPlayed,
    WarshipPlayed,
)
from domain.milles_nautiques.state import Consequence, State
from domain.ruleset import Narration

ORDINALS = (
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
)


def possessive(name: str) -> str:
    """ "Alain" -> "Alain's"; "Alain and Claire" -> "Alain and Claire's"."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def convoy_name(state: State, number: int, position: int = -1) -> str:
    """ "Alain's second convoy" (its place in the row, counted from port: `position`, or where it lies
    in `state`), or "Alain's convoy 4" once it has left the row."""
    convoy = state.convoys[number - 1]
    owner = possessive(state.side_name(convoy.side))
    row = state.rows[convoy.side]
    if position < 0 and number in row:
        position = row.index(number)
    return f"{owner} {ORDINALS[position]} convoy" if position >= 0 else f"{owner} convoy {number}"


def _label(card: str | None) -> str:
    return BY_NAME[card].label if card is not None else "a card"


def _miles(distance: int) -> str:
    return f"{distance:,} miles"


def _event_text(before: State, event: Any, after: State) -> str:
    names = before.names
    if isinstance(event, Dealt):
        first = names[(event.dealer + 1) % len(names)]
        return f"{names[event.dealer]} deals six cards to each player; {first} plays first."
    if isinstance(event, ConvoysRevealed):
        shown = ", ".join(f"{convoy_name(before, item.convoy)} is {_label(item.card)}" for item in event.convoys)
        return f"The table reveals convoys: {shown}."
    who = names[event.seat]
    if isinstance(event, Drew):
        return f"{who} draws {_label(event.card)}." if event.card else f"{who} draws a card."
    if isinstance(event, Discarded):
        return f"{who} discards {_label(event.card)}."
    if isinstance(event, ConvoyPlaced):
        what = _label(event.card) if event.card else "a convoy"
        return f"{who} lays {what} face down as {convoy_name(after, len(after.convoys))}."
    target = convoy_name(before, event.convoy)
    if isinstance(event, MilesPlayed):
        distance = after.convoys[event.convoy - 1].distance
        return f"{who} lays {_label(event.card)} on {target} ({_miles(distance)} sailed)."
    if isinstance(event, WarshipPlayed):
        ship = "two submarines together" if event.paired else _label(event.ship)
        if before.side_of[event.seat] == before.convoys[event.convoy - 1].side:
            return f"{who} defends {target} with {ship}."
        return f"{who} lays {ship} against {target}."
    if isinstance(event, AlertPlayed):
        return f"{who} lays an alert against {target}."
    if isinstance(event, AlertEnded):
        return f"{who} lays an end of alert on {target}: the alert and any battle go to the discard."
    if isinstance(event, PlanePlayed):
        second = before.convoys[event.convoy - 1].plane is not None
        return f"{who} sends {'a second' if second else 'a'} plane against {target}."
    if isinstance(event, PlaneHit):
        return f"{who} shoots down the plane over {target}."
    if isinstance(event, MineLaid):
        return f"{who} lays a mine against {target}."
    if isinstance(event, MinesweeperPlayed):
        return f"{who} sweeps the mine from {target}."
    if isinstance(event, RadarPlayed):
        card = after.convoys[event.convoy - 1].card
        found = f": it is {_label(card)}" if card else ""
        return f"{who}'s radar detects {target}{found}."
    if isinstance(event, StormPlayed):
        return f"{who} lays a storm on {target}."
    if isinstance(event, FairSeaPlayed):
        return f"{who} lays a fair sea on {target}: the storm is over."
    if isinstance(event, NeutralFlagPlayed):
        return f"{who} flies the neutral flag on {target}."
    return f"{who} plays."


_ROUND_TEXTS = {
    "round_over_forty": "A side reaches 40 points: the round is over.",
    "round_over_cards": "The cards have run out: the round is over.",
    "round_void": "The cards have run out with no convoy in port: the round is void.",
    "round_scored": "Every convoy is face up: the round is scored.",
}


def _consequence_text(after: State, consequence: Consequence) -> str:
    if consequence.kind in _ROUND_TEXTS:
        return _ROUND_TEXTS[consequence.kind]
    target = convoy_name(after, consequence.convoy, consequence.position)
    who = after.names[consequence.seat] if consequence.seat is not None else ""
    if consequence.kind == "arrived":
        return f"{target[0].upper()}{target[1:]} arrives in port."
    if consequence.kind == "bombed":
        return f"{target[0].upper()}{target[1:]} is destroyed and captured by {who}."
    start = f"At the start of {who}'s turn,"
    if consequence.kind == "saved":
        return f"{start} {who}'s ship has held: {target} is saved and sails on."
    if consequence.kind == "sunk":
        return f"{start} {who}'s ship has held: {target} is sunk and captured by {who}."
    return f"{start} {who}'s mine explodes: {target} is sunk and captured by {who}."  # "mined"


def narrate(before: State, event: Any, after: State) -> Narration:
    """One replay line for `event`, followed by what the rules did on their own."""
    parts = [_event_text(before, event, after)]
    parts.extend(_consequence_text(after, c) for c in after.consequences)
    seat = getattr(event, "seat", None)
    if isinstance(event, Dealt | ConvoysRevealed) or before.phase == "reveal":
        chapters: tuple[tuple[str, int], ...] = (("round", before.round_number),)
    else:
        chapters = (("round", before.round_number), ("turn", before.turn))
    return Narration(text=" ".join(parts), seat=seat, chapters=chapters)
