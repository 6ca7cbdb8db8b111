"""The words Atlantic Storm gives its own things (sides, zones, oceans, cargoes, frames, phases, the cards of
the `documented` catalogue) and the joins of its lists, as messages told in the reader's language.

Ids never change: a side is `allied` on the wire in every language; these are only the words a person
reads. A club's own catalogue names its cards in its own language and is shown as it is; only the rows of
the shipped `documented` catalogue are named as the Spanish rulebook (002) and the French summary (000)
print them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from domain.atlantic_storm.catalogue import Card, CatalogueKind, parse_catalogue
from domain.i18n import Arg, Catalogue, Message

_ = Catalogue("domain.atlantic_storm")

SIDES: dict[str, Message] = {"allied": _("the Allies"), "german": _("the Germans")}
"""A side as the subject or object of a sentence ("for the Allies")."""

OCEANS: dict[str, Message] = {"north_atlantic": _("North Atlantic"), "arctic": _("Arctic")}

CARGOES: dict[str, Message] = {"full": _("full cargo"), "half": _("half cargo"), "empty": _("empty cargo")}

FRAMES: dict[str, Message] = {
    "air": _.pgettext("frame", "air"),
    "surface": _.pgettext("frame", "surface"),
    "submarine": _.pgettext("frame", "submarine"),
    "any": _.pgettext("frame", "any"),
}
"""A card's frame (its type), as a refusal names it: English keeps the catalogue's word."""

PHASES: dict[str, Message] = {
    "cut": _.pgettext("phase", "cut"),
    "deal": _.pgettext("phase", "deal"),
    "turn_convoy": _.pgettext("phase", "turn_convoy"),
    "declare_zone": _.pgettext("phase", "declare_zone"),
    "play": _.pgettext("phase", "play"),
    "storm_roll": _.pgettext("phase", "storm_roll"),
    "storm_choice": _.pgettext("phase", "storm_choice"),
    "dice": _.pgettext("phase", "dice"),
    "supply": _.pgettext("phase", "supply"),
    "spoils": _.pgettext("phase", "spoils"),
    "refill": _.pgettext("phase", "refill"),
    "over": _.pgettext("phase", "over"),
}
"""What the table reports next, as a refusal names it: English keeps the state's word for it."""

DOCUMENTED_NAMES: dict[str, Message] = {
    "Admiral Tovey": _.pgettext("card", "Admiral Tovey"),
    "Admiral Dönitz": _.pgettext("card", "Admiral Dönitz"),
    "Atlantic Storm": _.pgettext("card", "Atlantic Storm"),
    "Arctic Storm": _.pgettext("card", "Arctic Storm"),
    "Escort Group 36": _.pgettext("card", "Escort Group 36"),
    "Escort Group B7": _.pgettext("card", "Escort Group B7"),
}
"""The `documented` cards whose printed name differs between the rule texts (the Spanish rulebook prints
"Almirante Tovey", "Tormenta Atlántica", "Grupo de Escolta 36"); the others are printed alike in both."""


@cache
def _documented() -> frozenset[Card]:
    """The rows of the shipped `documented` catalogue, read once."""
    return frozenset(parse_catalogue(CatalogueKind().builtin()["documented"]).cards)


def card_name(card: Card) -> str | Message:
    """A card's name as the reader's rule text prints it, for a row of the `documented` catalogue; a club's
    own row as the club wrote it."""
    printed = DOCUMENTED_NAMES.get(card.name)
    return printed if printed is not None and card in _documented() else card.name


def listed(items: Sequence[Arg]) -> Arg:
    """ "A", "A and B", "A, B and C", in the reader's language."""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return _("{first} and {last}", first=items[0], last=items[1])
    if not items:
        return ""
    return _("{first}, {rest}", first=items[0], rest=listed(items[1:]))


def commas(items: Sequence[Arg]) -> Arg:
    """ "A, B, C": names one after the other."""
    line = items[0] if items else ""
    for item in items[1:]:
        line = _("{first}, {rest}", first=line, rest=item)
    return line


def chained(items: Sequence[Arg], *, either: bool = False) -> Arg:
    """ "A and B and C" (or "A or B or C"): each pair joined, as dice faces and halves are told."""
    line = items[0] if items else ""
    for item in items[1:]:
        line = (
            _("{first} or {last}", first=line, last=item) if either else _("{first} and {last}", first=line, last=item)
        )
    return line


def semicolons(parts: Sequence[Arg]) -> Arg:
    """ "A; B; C": clauses told one after the other (each cut, each share of the spoils)."""
    line = parts[0] if parts else ""
    for part in parts[1:]:
        line = _("{first}; {then}", first=line, then=part)
    return line
