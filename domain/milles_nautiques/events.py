"""Everything that happens at a Milles Nautiques table, one frozen struct per event.

Tags are namespaced and never renamed. Convoys are named by their number in the round (1 = the first
convoy laid), which never changes; the replay names a convoy by the order its layer laid it ("Alain's
second convoy").
Cards are named by their catalogue name (`catalogue.CARDS`). A card the record does not know is `None`
(G-2). Corrections are the generic `domain.record.Correction` (G-3).
"""

from __future__ import annotations

import msgspec

from domain.ruleset import Event


class Dealt(Event, tag="milles_nautiques.dealt", kw_only=True, frozen=True):
    """The dealer deals six cards to each player, one at a time from his left (MN-2, MN-19). `dealer` is
    the dealer's seat. `hands` optionally gives, seat by seat, the cards the record knows (the rest are
    face down)."""

    dealer: int
    hands: tuple[tuple[str, ...], ...] = ()


class Drew(Event, tag="milles_nautiques.drew", kw_only=True, frozen=True):
    """A player draws the top card of the stock. `card` is the card drawn, or None when it is drawn face
    down (G-2)."""

    seat: int
    card: str | None = None


class ConvoyPlaced(Event, tag="milles_nautiques.convoy_placed", kw_only=True, frozen=True):
    """A convoy laid face down in the player's (team's) row at `position` (0 = port end), MN-3.
    `card` is None when the record does not know its tonnage (G-2)."""

    seat: int
    position: int
    card: str | None = None


class MilesPlayed(Event, tag="milles_nautiques.miles_played", kw_only=True, frozen=True):
    """A miles `card` laid on one of the player's (team's) convoys, `convoy` (MN-4)."""

    seat: int
    convoy: int
    card: str


class AlertPlayed(Event, tag="milles_nautiques.alert_played", kw_only=True, frozen=True):
    """An alert laid on an opponent's convoy (MN-5)."""

    seat: int
    convoy: int


class AlertEnded(Event, tag="milles_nautiques.alert_ended", kw_only=True, frozen=True):
    """An end-of-alert laid on the player's (team's) alerted convoy: the alert and any battle go (MN-5)."""

    seat: int
    convoy: int


class WarshipPlayed(Event, tag="milles_nautiques.warship_played", kw_only=True, frozen=True):
    """A warship laid in a naval battle, attacking or defending (MN-6). `paired` is two submarines
    played together (`ship` is then "submarine"); the player draws one extra card (MN-2)."""

    seat: int
    convoy: int
    ship: str
    paired: bool = False


class PlanePlayed(Event, tag="milles_nautiques.plane_played", kw_only=True, frozen=True):
    """A plane laid on an opponent's convoy; the same player's second plane destroys it (MN-7)."""

    seat: int
    convoy: int


class PlaneHit(Event, tag="milles_nautiques.plane_hit", kw_only=True, frozen=True):
    """A plane-hit answering a lone first plane on the player's (team's) convoy (MN-7)."""

    seat: int
    convoy: int


class MineLaid(Event, tag="milles_nautiques.mine_laid", kw_only=True, frozen=True):
    """A mine laid on an opponent's convoy; it explodes at the start of the layer's next turn (MN-8)."""

    seat: int
    convoy: int


class MinesweeperPlayed(Event, tag="milles_nautiques.minesweeper_played", kw_only=True, frozen=True):
    """A minesweeper clearing a mine from the player's (team's) convoy (MN-8)."""

    seat: int
    convoy: int


class RadarPlayed(Event, tag="milles_nautiques.radar_played", kw_only=True, frozen=True):
    """A radar detecting the port-most or starboard-most convoy of another row (MN-9). The convoy is
    turned face up: `revealed` is its card when the record did not know it."""

    seat: int
    convoy: int
    revealed: str | None = None


class StormPlayed(Event, tag="milles_nautiques.storm_played", kw_only=True, frozen=True):
    """A storm laid on any convoy at sea (MN-10)."""

    seat: int
    convoy: int


class FairSeaPlayed(Event, tag="milles_nautiques.fair_sea_played", kw_only=True, frozen=True):
    """A fair sea ending a storm (MN-10)."""

    seat: int
    convoy: int


class NeutralFlagPlayed(Event, tag="milles_nautiques.neutral_flag_played", kw_only=True, frozen=True):
    """The neutral flag laid on one of the player's (team's) convoys (MN-11)."""

    seat: int
    convoy: int


class Discarded(Event, tag="milles_nautiques.discarded", kw_only=True, frozen=True):
    """A `card` discarded face up instead of a play (MN-2)."""

    seat: int
    card: str


class RevealedConvoy(msgspec.Struct, frozen=True, kw_only=True):
    """One convoy turned face up. `convoy` is its number in the round; `card` is its card."""

    convoy: int
    card: str


class ConvoysRevealed(Event, tag="milles_nautiques.convoys_revealed", kw_only=True, frozen=True):
    """The table tells the record the cards of convoys it did not know (G-2): at the end of the round
    to complete the score, or during it (a player showing his convoys to claim 40 points, MN-15).
    `convoys` lists each convoy turned face up with its card."""

    convoys: tuple[RevealedConvoy, ...]


MillesNautiquesEvent = (
    Dealt
    | Drew
    | ConvoyPlaced
    | MilesPlayed
    | AlertPlayed
    | AlertEnded
    | WarshipPlayed
    | PlanePlayed
    | PlaneHit
    | MineLaid
    | MinesweeperPlayed
    | RadarPlayed
    | StormPlayed
    | FairSeaPlayed
    | NeutralFlagPlayed
    | Discarded
    | ConvoysRevealed
)

CardOnConvoy = (
    AlertPlayed
    | AlertEnded
    | PlanePlayed
    | PlaneHit
    | MineLaid
    | MinesweeperPlayed
    | RadarPlayed
    | StormPlayed
    | FairSeaPlayed
    | NeutralFlagPlayed
)
"""The events that target a convoy with one card from the hand."""

# The card each event of `CardOnConvoy` lays.
CARD_OF_EVENT: dict[type[CardOnConvoy], str] = {
    AlertPlayed: "alert",
    AlertEnded: "end_of_alert",
    PlanePlayed: "plane",
    PlaneHit: "plane_hit",
    MineLaid: "mine",
    MinesweeperPlayed: "minesweeper",
    RadarPlayed: "radar",
    StormPlayed: "storm",
    FairSeaPlayed: "fair_sea",
    NeutralFlagPlayed: "neutral_flag",
}
