"""The Milles Nautiques deck as data.

Source: the French rulebook ("COMPOSITION DU JEU"), read with MN-1: the itemised list is
authoritative and adds up to 106 cards (the "110 cartes" of the heading is not used). Strengths are the
number of ship silhouettes on each warship card (MN-6); the two-submarine pair is worth 6.
"""

from __future__ import annotations

import msgspec

from domain.i18n import Catalogue, Message

_ = Catalogue("domain.milles_nautiques")


class CardKind(msgspec.Struct, frozen=True, kw_only=True):
    """One kind of card: its stable name (used in events), category, how many the deck holds, the
    words a replay uses ("a cruiser", a message: "un croiseur" as the French cards print it), and its
    value where it has one."""

    name: str
    category: str
    count: int
    label: Message
    tons: int = 0
    miles: int = 0
    strength: int = 0


CONVOY = "convoy"
MILES = "miles"
WARSHIP = "warship"

CARDS: tuple[CardKind, ...] = (
    CardKind(name="convoy_2500", category=CONVOY, count=3, label=_.pgettext("card", "a 2,500-ton convoy"), tons=2500),
    CardKind(name="convoy_5000", category=CONVOY, count=3, label=_.pgettext("card", "a 5,000-ton convoy"), tons=5000),
    CardKind(
        name="convoy_10000", category=CONVOY, count=4, label=_.pgettext("card", "a 10,000-ton convoy"), tons=10000
    ),
    CardKind(
        name="convoy_20000", category=CONVOY, count=2, label=_.pgettext("card", "a 20,000-ton convoy"), tons=20000
    ),
    # MN-3: the trawler is a convoy card worth nothing anywhere (a decoy).
    CardKind(name="trawler", category=CONVOY, count=1, label=_.pgettext("card", "the trawler"), tons=0),
    CardKind(name="miles_200", category=MILES, count=7, label=_.pgettext("card", "200 miles"), miles=200),
    CardKind(name="miles_400", category=MILES, count=7, label=_.pgettext("card", "400 miles"), miles=400),
    CardKind(name="miles_600", category=MILES, count=7, label=_.pgettext("card", "600 miles"), miles=600),
    CardKind(name="miles_1000", category=MILES, count=8, label=_.pgettext("card", "1,000 miles"), miles=1000),
    CardKind(name="miles_2000", category=MILES, count=3, label=_.pgettext("card", "2,000 miles"), miles=2000),
    CardKind(name="submarine", category=WARSHIP, count=4, label=_.pgettext("card", "a submarine"), strength=1),
    CardKind(name="frigate", category=WARSHIP, count=4, label=_.pgettext("card", "a frigate"), strength=2),
    CardKind(name="destroyer", category=WARSHIP, count=4, label=_.pgettext("card", "a destroyer"), strength=3),
    CardKind(name="cruiser", category=WARSHIP, count=4, label=_.pgettext("card", "a cruiser"), strength=4),
    CardKind(name="carrier", category=WARSHIP, count=4, label=_.pgettext("card", "an aircraft carrier"), strength=5),
    CardKind(name="plane", category="plane", count=4, label=_.pgettext("card", "a plane")),
    CardKind(name="plane_hit", category="plane", count=4, label=_.pgettext("card", "a plane-hit")),
    CardKind(name="mine", category="mine", count=2, label=_.pgettext("card", "a mine")),
    CardKind(name="minesweeper", category="mine", count=4, label=_.pgettext("card", "a minesweeper")),
    CardKind(name="radar", category="radar", count=6, label=_.pgettext("card", "a radar")),
    CardKind(name="alert", category="alert", count=10, label=_.pgettext("card", "an alert")),
    CardKind(name="end_of_alert", category="alert", count=4, label=_.pgettext("card", "an end of alert")),
    CardKind(name="storm", category="sea", count=2, label=_.pgettext("card", "a storm")),
    CardKind(name="fair_sea", category="sea", count=4, label=_.pgettext("card", "a fair sea")),
    CardKind(name="neutral_flag", category="flag", count=1, label=_.pgettext("card", "the neutral flag")),
)

DECK_SIZE = sum(card.count for card in CARDS)
BY_NAME: dict[str, CardKind] = {card.name: card for card in CARDS}
INDEX: dict[str, int] = {card.name: i for i, card in enumerate(CARDS)}
COUNTS: tuple[int, ...] = tuple(card.count for card in CARDS)
CONVOY_CARDS: frozenset[str] = frozenset(card.name for card in CARDS if card.category == CONVOY)
MILES_CARDS: frozenset[str] = frozenset(card.name for card in CARDS if card.category == MILES)
WARSHIPS: frozenset[str] = frozenset(card.name for card in CARDS if card.category == WARSHIP)
CONVOY_COUNT = sum(card.count for card in CARDS if card.category == CONVOY)

# MN-3, MN-20: the false convoy, laid and attacked like any other but never an arrived convoy.
TRAWLER = "trawler"
# MN-6: two submarines played together as one play.
PAIRED_SUBMARINES_STRENGTH = 6
# MN-4: a convoy has arrived at 4,000 miles or more; MN-10: a convoy in a storm takes at most 600.
ARRIVAL_MILES = 4000
STORM_MAX_MILES = 600
# MN-2: six cards in hand.
HAND_SIZE = 6


def grouped(number: int) -> int | Message:
    """A number of miles as people write it, its thousands apart ("4,200"; "4 200" in French). A plain
    number argument is told in English without them, so from 1,000 up the number is a message of its
    own: its thousands (a number each language writes) and the three figures after them."""
    if number < 1000:
        return number
    return _.pgettext("number", "{thousands},{units}", thousands=number // 1000, units=f"{number % 1000:03d}")
