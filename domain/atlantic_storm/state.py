"""Atlantic Storm's state: frozen structs of tuples, cheap to copy with `msgspec.structs.replace`.

Where every force card is: in a hand (known, or one of the hand's face-down cards, G-2), in the deck
(a count), in play, under the convoy, on the discard pile, or face down in front of a player (captured).
`located` is the set of cards whose place the record knows; the others are in the deck, face down in
hands or discarded unnamed, which is what conservation checks against (G-2).
"""

from __future__ import annotations

import msgspec

from domain.atlantic_storm.catalogue import Card
from domain.atlantic_storm.events import Bonus


class Play(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A play in the battle's current round (AS-3), in order of play (`order`, for the AS-9 tie-break).

    `doubled` lists the play's fate cards whose victim is the convoy (AS-5); `lost` the play's cards a
    later fate card destroyed (AS-6); `cancelled` a play a storm cancelled (AS-7); `intelligence` the
    Ultra / B-Dienst card laid in place of a play; `dice` the faces rolled per card."""

    seat: int
    order: int
    half: int
    side: str | None
    normals: tuple[str, ...] = ()
    bonuses: tuple[Bonus, ...] = ()
    specials: tuple[str, ...] = ()
    supplies: tuple[str, ...] = ()
    admiral: str | None = None
    doubled: tuple[str, ...] = ()
    intelligence: str | None = None
    cancelled: bool = False
    lost: tuple[str, ...] = ()
    took: tuple[str, ...] = ()
    dice: tuple[tuple[str, tuple[int, ...]], ...] = ()

    def cards(self) -> tuple[str, ...]:
        """Every card of the play still on the table."""
        # A list comprehension, not a generator: this runs for every standing play of every play checked.
        bonuses = [b.card for b in self.bonuses]
        if self.intelligence:
            return (*self.normals, *bonuses, *self.specials, *self.supplies, self.intelligence)
        return (*self.normals, *bonuses, *self.specials, *self.supplies)


class Turn(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A turn yet to be taken this round; `intelligence` names the card of a delayed turn (AS-7)."""

    seat: int
    intelligence: str | None = None
    side: str | None = None


class Storm(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The storm in play: its card and the player who must roll it at the end of his turn (AS-7)."""

    card: str
    holder: int


class Outcome(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A decided battle waiting for supply choices (AS-8) or the division of spoils (AS-15)."""

    side: str
    totals: tuple[int, int]
    trick_winner: int
    trick: tuple[str, ...]
    to_discard: tuple[str, ...]
    supplies: tuple[tuple[int, str], ...]
    candidates: tuple[str, ...]
    eligible: tuple[int, ...]


class Decision(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """How the latest battle round was decided: `allied` or `german` won, `tie` (AS-10), `no_combat`
    (AS-11); the totals and the trick winner."""

    kind: str
    battle: int
    round: int
    convoy: str
    allied: int
    german: int
    trick_winner: int | None = None


class Battle(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The battle for one convoy: its rounds (AS-10), two halves each in the two-player game (AS-14).
    `skips` holds the seats a first-half storm made skip their second-half play (AS-18)."""

    number: int
    convoy: str
    leader: int
    round: int = 1
    half: int = 1
    zone: str | None = None
    plays: tuple[Play, ...] = ()
    under: tuple[tuple[int, str], ...] = ()
    queue: tuple[Turn, ...] = ()
    storm: Storm | None = None
    next_order: int = 0
    outcome: Outcome | None = None
    skips: tuple[int, ...] = ()


class State(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The whole table. `phase` says what the table reports next:
    cut, deal, turn_convoy, declare_zone, play, storm_roll, storm_choice, dice, supply, spoils,
    refill, over."""

    variant: str
    names: tuple[str, ...]
    cards: dict[str, Card]
    victims: dict[str, str]
    force_total: int
    pile_size: int
    phase: str = "cut"
    dealer: int | None = None
    leader: int = 0
    hands: tuple[tuple[str, ...], ...] = ()
    unknown: tuple[int, ...] = ()
    hand_sizes: tuple[int, ...] = ()
    deck: int = 0
    discard: tuple[str, ...] = ()
    discard_face_down: int = 0
    """Cards discarded from a hand's face-down cards, unnamed: the pile is face down, and the table never
    sees them (AS-3, G-2); they go back into the deck with the pile (AS-12)."""
    located: frozenset[str] = frozenset()
    convoys_seen: frozenset[str] = frozenset()
    convoy_discard: tuple[str, ...] = ()
    battles_fought: int = 0
    battle: Battle | None = None
    convoys_won: tuple[tuple[str, ...], ...] = ()
    captured: tuple[tuple[str, ...], ...] = ()
    draw_queue: tuple[int, ...] = ()
    after_refill: str = ""
    decision: Decision | None = None

    @property
    def players(self) -> int:
        """How many players sit at the table."""
        return len(self.names)

    def hand_count(self, seat: int) -> int:
        """Cards in a seat's hand, known and face down."""
        return len(self.hands[seat]) + self.unknown[seat]
