"""Replay lines: plain English a club member would write, in chapters (round, turn)."""

from __future__ import annotations

from collections.abc import Iterable
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
    MillesNautiquesEvent,
    MineLaid,
    MinesweeperPlayed,
    NeutralFlagPlayed,
    PlaneHit,
    PlanePlayed,
    RadarPlayed,
    StormPlayed,
    WarshipPlayed,
)
from domain.milles_nautiques.scoring import arrived_sides, points, points_text, round_winners
from domain.milles_nautiques.state import Consequence, State, seen_by
from domain.ruleset import Narration, Viewer

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


def convoy_name(state: State, number: int) -> str:
    """ "Alain's second convoy": the second convoy Alain laid this round. Convoys are named by the order
    their layer laid them, which never changes, not by their place in the row, which shifts as convoys
    are slipped in, arrive or sink."""
    convoy = state.convoys[number - 1]
    laid_before = sum(1 for other in state.convoys[: number - 1] if other.seat == convoy.seat)
    return f"{possessive(state.names[convoy.seat])} {ORDINALS[laid_before]} convoy"


def _where_laid(before: State, event: ConvoyPlaced) -> str:
    """Where a convoy is laid in its row (MN-3: at either end or between two convoys), told from the row
    as it was: a convoy sunk at the start of the next turn must not move it."""
    row = before.rows[before.side_of[event.seat]]
    place = event.position
    if not row:
        return "to open the row"
    if place == 0:
        return "at the port end of the row"
    if place == len(row):
        return "at the starboard end of the row"
    return f"between {convoy_name(before, row[place - 1])} and {convoy_name(before, row[place])}"


def _label(card: str | None) -> str:
    return BY_NAME[card].label if card is not None else "a card"


def _miles(distance: int) -> str:
    return f"{distance:,} miles"


def _event_text(before: State, event: Any, after: State, viewer: Viewer) -> str:
    names = before.names
    if isinstance(event, Dealt):
        first = names[(event.dealer + 1) % len(names)]
        return f"{names[event.dealer]} deals six cards to each player; {first} plays first."
    if isinstance(event, ConvoysRevealed):
        shown = ", ".join(f"{convoy_name(before, item.convoy)} is {_label(item.card)}" for item in event.convoys)
        return f"The table reveals convoys: {shown}."
    who = names[event.seat]
    # A drawn card and a convoy laid face down are told as the viewer knows them (G-2): the drawer's own
    # draw, his side's convoys (MN-18) and the full record name the card; everyone else reads "a card".
    if isinstance(event, Drew):
        return f"{who} draws {_label(event.card) if viewer.sees(event.seat) else 'a card'}."
    if isinstance(event, Discarded):
        return f"{who} discards {_label(event.card)}."
    if isinstance(event, ConvoyPlaced):
        laid = seen_by(after, viewer).convoys[-1].card
        what = f"{_label(laid)} face down" if laid is not None else "a convoy face down"
        return f"{who} lays {what} {_where_laid(before, event)}: {convoy_name(after, len(after.convoys))}."
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


def _sides_text(state: State, sides: Iterable[int]) -> str:
    """ "Alain", "Alain and Bea", or in team play "Alain and Claire" (one side) and
    "Alain and Claire, Bea and Damien" (two)."""
    names = [state.side_name(side) for side in sides]
    joiner = ", " if len(state.side_seats[0]) > 1 else " and "
    return joiner.join(names)


def _round_outcome(state: State) -> str:
    """Who won a scored round and why (MN-15, MN-20): the side that reached 40 points, else the best
    score among the sides with a convoy in port; sides level at the top share it; a void round."""
    winners = round_winners(state)
    if not winners:
        return "no convoy that counts is in port (the trawler never counts), so the round is void and nobody scores."
    totals = [convoy + capture for convoy, capture in points(state)]
    best = points_text(totals[winners[0]])
    team = len(state.side_seats[winners[0]]) > 1
    several = len(winners) > 1 or team
    who = _sides_text(state, winners)
    win = "share the round" if len(winners) > 1 else "win the round" if team else "wins the round"
    if state.ended == "forty":
        if set(winners) == set(state.forty_sides):
            reach = "reach" if several else "reaches"
            each = " each" if len(winners) > 1 else ""
            past = "" if best == "40" else ", past the 40 that end the round,"
            return f"{who} {reach} {best} points{each}{past} and {win}."
        return f"{_sides_text(state, state.forty_sides)} reach 40 points; {who} {win} with {best} points."
    each = " each" if len(winners) > 1 else ""
    kind = "team" if team else "player"
    arrived = arrived_sides(state)
    reason = (
        f"the only {kind} with a convoy in port"
        if len(arrived) == 1
        else f"the best score among the {kind}s with a convoy in port"
    )
    return f"{who} {win} with {best} points{each}, {reason}."


_REVEAL_FIRST = "the face-down convoys are shown before the round is scored."


def _round_text(after: State, kind: str) -> str:
    """The end of the round: who won and why, or that the face-down convoys must be shown first."""
    if kind == "round_void":
        return "Round over, the cards have run out with no convoy in port: the round is void and nobody scores."
    if kind == "round_scored":
        return f"Every convoy is face up: {_round_outcome(after)}"
    if kind == "round_over_forty":
        if after.phase == "over":
            return f"Round over: {_round_outcome(after)}"
        reached = _sides_text(after, after.forty_sides)
        reach = "reaches" if len(after.forty_sides) == 1 and len(after.side_seats[0]) == 1 else "reach"
        return f"Round over: {reached} {reach} 40 points; {_REVEAL_FIRST}"
    if after.phase == "over":  # "round_over_cards"
        return f"Round over, the cards have run out: {_round_outcome(after)}"
    return f"Round over, the cards have run out: {_REVEAL_FIRST}"


def _consequence_text(after: State, consequence: Consequence) -> str:
    if consequence.kind.startswith("round_"):
        return _round_text(after, consequence.kind)
    target = convoy_name(after, consequence.convoy)
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


def narrate(before: State, event: MillesNautiquesEvent, after: State, viewer: Viewer) -> Narration:
    """One replay line for `event` as `viewer` may know it, followed by what the rules did on their own."""
    parts = [_event_text(before, event, after, viewer)]
    parts.extend(_consequence_text(after, c) for c in after.consequences)
    seat = getattr(event, "seat", None)
    if isinstance(event, Dealt | ConvoysRevealed) or before.phase == "reveal":
        chapters: tuple[tuple[str, int], ...] = (("round", before.round_number),)
    else:
        chapters = (("round", before.round_number), ("turn", before.turn))
    return Narration(text=" ".join(parts), seat=seat, chapters=chapters)
