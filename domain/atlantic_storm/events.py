"""What an Atlantic Storm table reports, one frozen struct per event.

Tags are namespaced and never renamed. Card numbers (C12, A51, G7, S1) name the cards; a card drawn
face down is `None` (G-2). Corrections are the generic `domain.record.Correction` (G-3).
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from domain.ruleset import Event

Zone = Literal["air", "surface", "submarine", "combined"]
StormEffect = Literal["cancel", "skip"]


class ConvoysCut(Event, tag="atlantic_storm.convoys_cut", frozen=True, kw_only=True, gc=False):
    """Each player cut the convoy deck and showed a convoy; the lowest number deals (AS-2). `cuts` holds the
    convoy each seat showed, by seat. The choices list the cut with every convoy left null, for the
    scorekeeper to name each one as the table shows it: the rules accept a cut only with all of them named."""

    cuts: tuple[str | None, ...]


class CardsDealt(Event, tag="atlantic_storm.cards_dealt", frozen=True, kw_only=True, gc=False):
    """The dealer dealt six force cards to each player (AS-2). `hands` holds each seat's cards, by seat;
    None is a card dealt face down (G-2)."""

    hands: tuple[tuple[str | None, ...], ...]


class ConvoyTurned(Event, tag="atlantic_storm.convoy_turned", frozen=True, kw_only=True, gc=False):
    """The round leader turned the top convoy (AS-3). Advanced game: he took two, kept `convoy` and put
    `discarded` on the convoy discard."""

    seat: int
    convoy: str
    discarded: str | None = None


class ZoneDeclared(Event, tag="atlantic_storm.zone_declared", frozen=True, kw_only=True, gc=False):
    """The round leader declared the `zone` of the battle (AS-3): air, surface, submarine or combined."""

    seat: int
    zone: Zone


class Bonus(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A bonus card in a play (AS-4). `card` is the bonus card; `parent` the normal card of the play it
    is attached to, or None when it stands alone."""

    card: str
    parent: str | None = None


class CardsPlayed(Event, tag="atlantic_storm.cards_played", frozen=True, kw_only=True, gc=False):
    """A play (AS-3): normal card(s) with bonus, special and supply cards, all of one side.

    Cards are named by number. `normals` are the play's normal cards (one, or two with an admiral).
    `bonuses` are its bonus cards. `specials` are its special cards. `supplies` are its supply cards.
    `admiral` says how an admiral in the play is used (AS-7): `combined` changes the zone for the round,
    `two_normals` lets the play hold two normal cards. `victims` announces the fate victims of the play's
    fate cards (AS-6): the convoy (its value doubles) or cards played earlier this round (destroyed)."""

    seat: int
    normals: tuple[str, ...] = ()
    bonuses: tuple[Bonus, ...] = ()
    specials: tuple[str, ...] = ()
    supplies: tuple[str, ...] = ()
    admiral: Literal["combined", "two_normals"] | None = None
    victims: tuple[str, ...] = ()


class IntelligencePlayed(Event, tag="atlantic_storm.intelligence_played", frozen=True, kw_only=True, gc=False):
    """Ultra or B-Dienst (`card`) played instead of a play or discard; the player's turn moves to the end
    of the round (AS-7)."""

    seat: int
    card: str


class CardDiscarded(Event, tag="atlantic_storm.card_discarded", frozen=True, kw_only=True, gc=False):
    """A player discarded one `card` instead of playing (AS-3); after an intelligence card, that card. The
    discard pile is face down: `card` is None for one of the hand's face-down cards, discarded unseen (G-2)."""

    seat: int
    card: str | None


class HandDiscarded(Event, tag="atlantic_storm.hand_discarded", frozen=True, kw_only=True, gc=False):
    """Advanced game: a player discarded his whole hand instead of playing (AS-3). `cards` are the cards
    of that hand; None is one of its face-down cards, discarded unseen (G-2)."""

    seat: int
    cards: tuple[str | None, ...]


class StormRolled(Event, tag="atlantic_storm.storm_rolled", frozen=True, kw_only=True, gc=False):
    """The storm's holder rolled its die at the end of his turn (AS-7). `face` is the face it showed (1 to 6)."""

    seat: int
    face: int


class StormStruck(Event, tag="atlantic_storm.storm_struck", frozen=True, kw_only=True, gc=False):
    """After a 1-3, the storm's holder used it on `target`, or on nobody (`target` None) (AS-7).

    `effect` is his choice, one of the two, never both (AS-18): `cancel` a play the target has made in
    this battle, or `skip` the target's next play in this battle. With two players, `half` names the
    round of play (1 or 2) whose play is cancelled; it may be left out when the target has played in
    one round only. `effect` may be left out when only one effect is possible; a strike recorded before
    the field existed folds as it then did (RULES.md, AS-18)."""

    schema_version: ClassVar[int] = 2  # 2: effect and half (AS-18); version 1 records have neither

    seat: int
    target: int | None
    effect: StormEffect | None = None
    half: int | None = None


class DiceRolled(Event, tag="atlantic_storm.dice_rolled", frozen=True, kw_only=True, gc=False):
    """The dice for a card's '?' values, rolled by the card's player after every play (AS-5). `card` is the
    card the dice are for; `faces` the faces they showed, one per die."""

    seat: int
    card: str
    faces: tuple[int, ...]


class SupplyTaken(Event, tag="atlantic_storm.supply_taken", frozen=True, kw_only=True, gc=False):
    """A supply card (`supply`) on the winning side refuelled `card` into its player's hand, or nothing (AS-8)."""

    seat: int
    supply: str
    card: str | None = None


class Share(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The spoils one player receives: `cards`, the convoy and captured cards given to that `seat`."""

    seat: int
    cards: tuple[str, ...]


class SpoilsDivided(Event, tag="atlantic_storm.spoils_divided", frozen=True, kw_only=True, gc=False):
    """Advanced game: the trick winner's division of the convoy and captured cards (AS-15). `shares` holds
    what each player receives."""

    seat: int
    shares: tuple[Share, ...]


class CardsDrawn(Event, tag="atlantic_storm.cards_drawn", frozen=True, kw_only=True, gc=False):
    """A player drew force cards while refilling his hand (AS-12). `cards` are the cards drawn; None is a
    card drawn face down (G-2)."""

    seat: int
    cards: tuple[str | None, ...]


class DeckReshuffled(Event, tag="atlantic_storm.deck_reshuffled", frozen=True, kw_only=True, gc=False):
    """The force deck ran out: the discard pile was shuffled into a new deck (AS-12, G-4)."""


AtlanticStormEvent = (
    ConvoysCut
    | CardsDealt
    | ConvoyTurned
    | ZoneDeclared
    | CardsPlayed
    | IntelligencePlayed
    | CardDiscarded
    | HandDiscarded
    | StormRolled
    | StormStruck
    | DiceRolled
    | SupplyTaken
    | SpoilsDivided
    | CardsDrawn
    | DeckReshuffled
)
