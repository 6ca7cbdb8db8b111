"""Combat cards (M44-CC-1 to M44-CC-3): the deck a club imports, and the effects the rules summary names.

The rules summary names four effects (Tenacity, Street Fighting, Tropical Fury, Ardour) but not the deck
(which cards, how many of each), so the deck is a club resource (`combat_deck`) and a scenario that turns
the combat cards on is refused without one, naming it. The project ships none: no public list of the
deck's cards and counts was found to cite. A card whose effect is its own printed text (`text`) is
recorded as played with no computed effect (M44-7).
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.i18n import Catalogue
from domain.memoire44.imported import JsonTableKind, read_table, table_errors

_ = Catalogue("domain.memoire44")

# The effects the rules summary names, and a card's own printed text.
TENACITY, STREET_FIGHTING, TROPICAL_FURY, ARDOUR, TEXT = (
    "tenacity",
    "street_fighting",
    "tropical_fury",
    "ardour",
    "text",
)
EFFECTS: tuple[str, ...] = (TENACITY, STREET_FIGHTING, TROPICAL_FURY, ARDOUR, TEXT)
# +1 battle die: for close assaults only, or for fire at range only.
CLOSE_DIE: frozenset[str] = frozenset({STREET_FIGHTING, TROPICAL_FURY})
RANGED_DIE: frozenset[str] = frozenset({ARDOUR})
DEAL_PER_PLAYER = 2  # M44-CC-1: two each, or one to each general at a team table
DEAL_PER_GENERAL = 1


class CombatCard(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    count: int
    effect: str


class CombatDeck(msgspec.Struct, frozen=True, kw_only=True):
    """The combat deck: cards by id, with where the list comes from."""

    source: str
    cards: dict[str, CombatCard]

    @property
    def size(self) -> int:
        return sum(card.count for card in self.cards.values())


def parse_combat_deck(content: Any) -> CombatDeck:
    """The deck from its JSON form; ResourceError naming each bad row."""
    deck, errors = read_table(content, CombatDeck, CombatDeckKind.what)
    if not deck.cards:
        errors.append({"field": "cards", "message": _("the deck has cards")})
    for card_id, card in sorted(deck.cards.items()):
        if card.effect not in EFFECTS:
            errors.append(
                {"field": f"cards.{card_id}.effect", "message": _("one of {effects}", effects=str(list(EFFECTS)))}
            )
        if not 1 <= card.count <= 20:
            errors.append({"field": f"cards.{card_id}.count", "message": _("1 to 20 copies")})
    if errors:
        raise table_errors(CombatDeckKind.what, errors)
    return deck


class CombatDeckKind(JsonTableKind):
    """The `combat_deck` resource kind: a JSON list of the combat cards, their counts and effects. The
    project ships none: no public list of the deck's cards and counts was found."""

    name = "combat_deck"
    what = _("The combat deck")

    def check(self, content: Any) -> msgspec.Struct:
        return parse_combat_deck(content)
