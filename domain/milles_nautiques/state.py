"""The state of a Milles Nautiques round: frozen structs and tuples, cheap to replace.

A "side" owns a row of convoys and scores: a seat in individual play, a team of two partners in team
play (MN-18). Convoys are numbered in the order they were laid (1, 2, ...) and kept in `convoys` by
number, whatever became of them; `rows` holds the numbers of each side's convoys at sea, port to starboard.
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec.structs import replace

from domain.ruleset import Viewer

Phase = Literal["deal", "draw", "play", "extra_draw", "reveal", "over"]
Status = Literal["at_sea", "arrived", "destroyed"]


class Ship(msgspec.Struct, frozen=True, kw_only=True):
    """One play in a naval battle (MN-6): one warship, or two submarines played together."""

    seat: int
    cards: tuple[str, ...]
    strength: int
    attacking: bool


class Convoy(msgspec.Struct, frozen=True, kw_only=True):
    """A convoy and the cards laid on it. `card` is None while the record does not know it (G-2).
    `plane` and `mine` hold the seat that laid a lone first plane or a mine."""

    number: int
    side: int
    seat: int
    card: str | None
    status: Status = "at_sea"
    miles: tuple[str, ...] = ()
    distance: int = 0
    fast: bool = False
    detected: bool = False
    alert: bool = False
    storm: bool = False
    neutral: bool = False
    plane: int | None = None
    mine: int | None = None
    battle: tuple[Ship, ...] = ()
    captor: int | None = None


class Hand(msgspec.Struct, frozen=True, kw_only=True):
    """A hand as the record knows it (G-2): the known cards and how many face-down ones."""

    known: tuple[str, ...] = ()
    unknown: int = 0

    @property
    def size(self) -> int:
        return len(self.known) + self.unknown


class Consequence(msgspec.Struct, frozen=True, kw_only=True):
    """Something the rules did on their own after the last event (for replays): a convoy arrived,
    a battle was decided, a mine exploded, planes destroyed a convoy, the round ended."""

    kind: str
    convoy: int = 0
    seat: int | None = None


class State(msgspec.Struct, frozen=True, kw_only=True):
    """A round of Milles Nautiques as the record knows it."""

    names: tuple[str, ...]
    player_ids: tuple[str, ...]
    side_of: tuple[int, ...]
    side_seats: tuple[tuple[int, ...], ...]
    round_number: int = 1
    dealer: int | None = None
    phase: Phase = "deal"
    to_play: int = 0
    turn: int = 0
    stock: int = 0
    hands: tuple[Hand, ...] = ()
    rows: tuple[tuple[int, ...], ...] = ()
    convoys: tuple[Convoy, ...] = ()
    discard: tuple[int, ...] = ()
    seen: tuple[int, ...] = ()
    ended: Literal["", "forty", "cards"] = ""
    forty_sides: tuple[int, ...] = ()
    consequences: tuple[Consequence, ...] = ()

    def convoy(self, number: int) -> Convoy | None:
        """Convoy `number` of this round, if it was laid."""
        if 1 <= number <= len(self.convoys):
            return self.convoys[number - 1]
        return None

    def side_name(self, side: int) -> str:
        """How a replay names a side: "Alain", or "Alain and Claire" in team play."""
        return " and ".join(self.names[seat] for seat in self.side_seats[side])


def sees_card(state: State, convoy: Convoy, side: int | None) -> bool:
    """Whether a side (None: the public) knows the card of a convoy (G-2): once detected by radar (MN-9)
    or the round is over; a side also knows its own convoys (MN-18: partners show each other theirs) and
    the convoys it captured."""
    if convoy.detected or state.phase == "over":
        return True
    if side is None:
        return False
    if convoy.status == "destroyed" and convoy.captor is not None:
        return state.side_of[convoy.captor] == side
    return convoy.side == side


def as_seen_by(state: State, side: int | None) -> State:
    """The round with the convoy cards `side` (None: the public) does not know turned face down, so a
    score computed from it tells nothing the viewer has not seen."""
    if all(convoy.card is None or sees_card(state, convoy, side) for convoy in state.convoys):
        return state
    convoys = tuple(
        convoy if sees_card(state, convoy, side) else replace(convoy, card=None) for convoy in state.convoys
    )
    return replace(state, convoys=convoys)


def seen_by(state: State, viewer: Viewer) -> State:
    """The round as `viewer` knows it: `as_seen_by` the viewer's side, the public's for the public or a
    seat not at this table, the round itself for the full record."""
    if viewer.kind == "full":
        return state
    seat = viewer.seat
    if viewer.kind == "seat" and seat is not None and 0 <= seat < len(state.side_of):
        return as_seen_by(state, state.side_of[seat])
    return as_seen_by(state, None)
