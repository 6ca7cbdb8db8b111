"""Atlantic Storm's set-up: the options a game takes and `initial`, the table before the dealer's cut
(AS-2), refusing a set-up the game cannot be played with."""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.atlantic_storm.catalogue import Card, load
from domain.atlantic_storm.rules import HAND
from domain.atlantic_storm.state import State
from domain.i18n import Catalogue
from domain.ruleset import RuleError, Setup

_ = Catalogue("domain.atlantic_storm")


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Set-up options. `pile_size` is how many convoys are fought for (AS-2: 20); a club may agree a
    shorter game (gap reading: the rest of the rules are unchanged)."""

    pile_size: Annotated[
        int, msgspec.Meta(description="How many convoys are fought for (AS-2: 20); fewer make a shorter game.")
    ] = 20


OPTION_WORDS = {
    "pile_size": (_("Convoys fought for"), _("How many convoys are fought for (AS-2: 20); fewer make a shorter game.")),
}
"""The start form's label and hint of each option, in the reader's language (the schema keeps English)."""


def initial(setup: Setup) -> State:
    """The table before the cut (AS-2); refuses a set-up the game cannot be played with."""
    players = len(setup.players)
    if not 2 <= players <= 6:
        raise RuleError("AS-2", "player_count", _("Atlantic Storm is for two to six players."), players=players)
    if sorted(p.seat for p in setup.players) != list(range(players)):
        raise RuleError("AS-2", "seats", _("Seats must be numbered 0 to n-1, clockwise."))
    if setup.variant not in ("basic", "advanced"):
        raise RuleError("AS-2", "variant", _("The variant is 'basic' or 'advanced'."), variant=setup.variant)
    if setup.variant == "advanced" and players == 2:
        raise RuleError(
            "AS-14",
            "advanced_two_players",
            _("The advanced rules are not used with two players (rulebook section 14)."),
        )
    try:
        options = msgspec.convert(setup.options, Options)
    except msgspec.ValidationError as error:
        raise RuleError("AS-2", "options", _("Bad set-up options: {error}.", error=str(error))) from None
    ref = setup.resources.get("catalogue")
    if ref is None:
        raise RuleError("AS-2", "no_catalogue", _("An Atlantic Storm game needs a card catalogue."))
    catalogue = load(ref.content)
    # One pass over the rows, every game start: numbered cards by number and by name (a later row wins).
    cards: dict[str, Card] = {}
    by_name: dict[str, str] = {}
    for card in catalogue.cards:
        if card.numbered:
            cards[card.number] = card
            by_name[card.name] = card.number
    convoys = sum([card.category == "convoy" for card in cards.values()])
    forces = len(cards) - convoys
    needed = options.pile_size * (2 if setup.variant == "advanced" else 1)
    if not 1 <= options.pile_size <= 20 or convoys < needed:
        raise RuleError(
            "AS-2",
            "pile_size",
            _(
                "The convoy pile needs {needed} convoys; the catalogue has {convoys} numbered ones (and a game is "
                "1 to 20 battles).",
                needed=needed,
                convoys=convoys,
            ),
            pile_size=options.pile_size,
            convoys=convoys,
        )
    if forces < HAND * players:
        raise RuleError(
            "AS-2", "small_deck", _("The catalogue has too few force cards to deal six each."), force_cards=forces
        )
    victims = {
        number: by_name[card.fate_victim]
        for number, card in cards.items()
        if card.fate_victim and card.fate_victim in by_name
    }
    names = tuple(p.name for p in sorted(setup.players, key=lambda p: p.seat))
    return State(
        variant=setup.variant,
        names=names,
        cards=cards,
        victims=victims,
        force_total=forces,
        pile_size=options.pile_size,
        deck=forces,
        hands=((),) * players,
        unknown=(0,) * players,
        hand_sizes=(HAND,) * players,
        convoys_won=((),) * players,
        captured=((),) * players,
    )
