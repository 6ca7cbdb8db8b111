"""Mémoire 44 events: one frozen struct each, explicit tags never renamed.

The set-up comes from the generic `GameStarted` (its `Setup.resources["scenario"]` names the scenario,
its content hash and content; `Setup.options["sides"]` which seat commands which side). Hexes are
`(row, col)` in the scenario editor's doubled columns; units are numbered in scenario order.
Eliminations, hits, objective medals and the victory are consequences `evolve` computes.
"""

from __future__ import annotations

from typing import Union

import msgspec

from domain.memoire44.board import Hex
from domain.ruleset import Event


class CardDrawn(Event, tag="memoire44.card_drawn", kw_only=True, frozen=True):
    """A command card drawn, into the opening hand or at the end of a turn; `card` is None when the
    record does not know it (face-down, G-2)."""

    seat: int
    card: str | None = None


class TurnEnded(Event, tag="memoire44.turn_ended", kw_only=True, frozen=True):
    """The active side ends a turn that draws it no command card: one whose only card was an Air Sortie
    held apart from the hand, which is never replaced (M44-AIR-15), or at a team table one in which the
    commander-in-chief handed out nothing and his hand is still full (M44-OV-3, M44-OV-4). Every other
    turn ends with its draw."""

    seat: int


class CardPlayed(Event, tag="memoire44.card_played", kw_only=True, frozen=True):
    """A command card played face up. `card` is the card played. `section` is the tactic-card choice of
    a section (Infantry Assault); `target` the ordered enemy unit's hex an Ambush answers. `as_card` is
    the card it is played as (a German Recon 1 as Air Power, M44-BL-1)."""

    seat: int
    card: str
    section: str | None = None
    target: Hex | None = None
    as_card: str | None = None  # M44-BL-1: a Recon 1 the German side plays as Air Power


class CardTaken(Event, tag="memoire44.card_taken", kw_only=True, frozen=True):
    """Italian High Command (M44-IT-1): after an Italian unit is lost, the enemy (`seat`) takes one of
    the Italian hand's cards at random (`card`); it is shown and discarded."""

    seat: int
    card: str


class CardCommitted(Event, tag="memoire44.card_committed", kw_only=True, frozen=True):
    """Russian commissar (M44-RU-1): a command card placed under the commissar token, to be played on
    the side's next turn; `card` is None when placed face down (G-2)."""

    seat: int
    card: str | None = None


class VisibilityRolled(Event, tag="memoire44.visibility_rolled", kw_only=True, frozen=True):
    """Night attacks (M44-NT-1): the Allied side's four dice at the start of its turn; each star raises
    the light one level."""

    seat: int
    faces: tuple[str, ...]


class CardDiscarded(Event, tag="memoire44.card_discarded", kw_only=True, frozen=True):
    """After a Recon card, the one of the two cards drawn that is not kept (`card`)."""

    seat: int
    card: str


class DeckReshuffled(Event, tag="memoire44.deck_reshuffled", kw_only=True, frozen=True):
    """The discards shuffled into a new draw pile (G-4): when the pile runs out, or Their Finest Hour."""

    seat: int


class DiceRolled(Event, tag="memoire44.dice_rolled", kw_only=True, frozen=True):
    """Dice a tactic card rolls outside a battle (Their Finest Hour, Medics & Mechanics)."""

    seat: int
    faces: tuple[str, ...]


class UnitsOrdered(Event, tag="memoire44.units_ordered", kw_only=True, frozen=True):
    """The `units` the played card orders, by number."""

    seat: int
    units: tuple[int, ...]


class UnitMoved(Event, tag="memoire44.unit_moved", kw_only=True, frozen=True):
    """An ordered unit's move: the hexes it enters, in order."""

    seat: int
    unit: int
    path: tuple[Hex, ...]


class WireRemoved(Event, tag="memoire44.wire_removed", kw_only=True, frozen=True):
    """An ordered infantry unit spends its battle removing the wire in its hex (M44-4)."""

    seat: int
    unit: int


class Battle(Event, tag="memoire44.battle", kw_only=True, frozen=True):
    """A battle. `unit` is the attacking unit (None for Air Power and Barrage). `target` is the target
    hex. `dice` is the number of dice the table counted. `faces` are the faces rolled."""

    seat: int
    unit: int | None
    target: Hex
    dice: int
    faces: tuple[str, ...]


class Retreated(Event, tag="memoire44.retreated", kw_only=True, frozen=True):
    """The battled unit's retreat, reported by its side: the hexes it moves through. Each flag it could
    not retreat is a hit (M44-3)."""

    seat: int
    unit: int
    path: tuple[Hex, ...]


class GroundTaken(Event, tag="memoire44.ground_taken", kw_only=True, frozen=True):
    """After a close assault that emptied the target hex, the attacker moves into it (M44-2); armour
    may then overrun (battle again)."""

    seat: int
    unit: int
    to: Hex


class MedalAwarded(Event, tag="memoire44.medal_awarded", kw_only=True, frozen=True):
    """A medal the scenario's special rules give (written as text, so accepted as reported, M44-7).
    `medals` is how many; `reason` says what for."""

    seat: int
    medals: int = 1
    reason: str = ""


class GameEnded(Event, tag="memoire44.game_ended", kw_only=True, frozen=True):
    """The table ends the game other than by medals (a scenario's turn limit, a concession). `winner` is
    the winning seat (None: nobody wins). `reason` says why."""

    seat: int | None = None
    winner: int | None = None
    reason: str = ""


class Gift(msgspec.Struct, frozen=True, kw_only=True):
    """One command card the commander-in-chief hands to a general (`general`, his seat); `card` is None
    when it is handed face down (G-2)."""

    general: int
    card: str | None = None


class CardsGiven(Event, tag="memoire44.cards_given", kw_only=True, frozen=True):
    """Overlord (M44-OV-3): the commander-in-chief (`seat`) hands one to three command cards to his
    generals at the start of the side's turn: `gifts`, one per card. `marines` names the general who
    orders one more unit this turn (US Marines, M44-OV-9)."""

    seat: int
    gifts: tuple[Gift, ...]
    marines: int | None = None  # M44-OV-9: the general who orders one more unit this turn


class InitiativeTaken(Event, tag="memoire44.initiative_taken", kw_only=True, frozen=True):
    """Overlord (M44-OV-7): a general given no card this turn rolls one die and acts as the initiative
    table says for that face (`face`)."""

    seat: int
    face: str


class CombatCardDrawn(Event, tag="memoire44.combat_card_drawn", kw_only=True, frozen=True):
    """A combat card drawn (M44-CC-1): dealt at the start, after a Recon card, after Their Finest Hour;
    `card` None when face down (G-2)."""

    seat: int
    card: str | None = None


class CombatCardPlayed(Event, tag="memoire44.combat_card_played", kw_only=True, frozen=True):
    """A combat `card` played (M44-CC-2), on one of the seat's units (`unit`) or for the seat itself."""

    seat: int
    card: str
    unit: int | None = None


class AirCardDrawn(Event, tag="memoire44.air_card_drawn", kw_only=True, frozen=True):
    """An air combat card drawn (M44-AIR-2): in the deal, after a Recon card, after Their Finest Hour, or
    for destroying a plane; `card` is None when face down (G-2)."""

    seat: int
    card: str | None = None


class PlaneDeployed(Event, tag="memoire44.plane_deployed", kw_only=True, frozen=True):
    """A plane of the side's lot (`plane`, its id in the air pack) put on the board at `hex` with the air
    combat card `card` beside the command card (M44-AIR-3). `use_effect`: the card's printed effect is
    used this turn instead of a standard attack (only when its symbol matches the plane's)."""

    seat: int
    plane: str
    card: str
    hex: Hex
    use_effect: bool = False


class PlaneOrdered(Event, tag="memoire44.plane_ordered", kw_only=True, frozen=True):
    """The side's plane (`plane`) ordered by the command card, as one of the units it orders (M44-AIR-4).
    `move_order`: on a Breakthrough board, ordered instead by one of the card's move orders, so it flies
    but does not fight this turn (M44-AIR-14)."""

    seat: int
    plane: str
    move_order: bool = False


class PlaneMoved(Event, tag="memoire44.plane_moved", kw_only=True, frozen=True):
    """The flight of the side's plane `plane` (M44-AIR-5): the hexes it enters, in order. `markers` are
    the hexes of enemy ground units it drops an ammunition marker on as it passes (M44-AIR-6). `bomb`: it
    lays a bomb token where it stops, an objective of its side (M44-AIR-11)."""

    seat: int
    plane: str
    path: tuple[Hex, ...]
    markers: tuple[Hex, ...] = ()
    bomb: bool = False  # M44-AIR-11: a bomb token on the hex it stops in, an objective of its side


class Bombing(Event, tag="memoire44.bombing", kw_only=True, frozen=True):
    """Strategic bombing (M44-AIR-11): the plane's roll for the bomb token it laid on an objective, with
    `dice` dice; a grenade takes the objective's medal."""

    seat: int
    dice: int
    faces: tuple[str, ...]


class AirStrike(Event, tag="memoire44.air_strike", kw_only=True, frozen=True):
    """A plane's standard attack on the ground unit under one ammunition marker (`target`): the dice
    counted (`dice`) and the faces rolled (M44-AIR-6)."""

    seat: int
    target: Hex
    dice: int
    faces: tuple[str, ...]


class Dogfight(Event, tag="memoire44.dogfight", kw_only=True, frozen=True):
    """The side's plane (`plane`) duels the enemy plane next to it, rolling its duel value as `dice` dice
    (M44-AIR-7)."""

    seat: int
    plane: str
    dice: int
    faces: tuple[str, ...]


class AntiAircraft(Event, tag="memoire44.anti_aircraft", kw_only=True, frozen=True):
    """An ordered ground unit (`unit`) fires at the enemy plane with `dice` dice (M44-AIR-8), or at the
    enemy plane `plane` standing on the ground (M44-AIR-13)."""

    seat: int
    unit: int
    dice: int
    faces: tuple[str, ...]
    plane: str | None = None


class ReinforcementsRolled(Event, tag="memoire44.reinforcements_rolled", kw_only=True, frozen=True):
    """D-Day (M44-DD-6): after showing its card, the side's reinforcement dice (one per command card held,
    the played one included, two more for a Recon card); the imported table says what each face brings."""

    seat: int
    faces: tuple[str, ...]


class ReinforcementPlaced(Event, tag="memoire44.reinforcement_placed", kw_only=True, frozen=True):
    """D-Day (M44-DD-7, M44-DD-8): a full unit of `kind` the roll brought, taken from the reserve and
    placed at `hex` (an Axis entry token, an empty Allied landing craft or a beach the Allies control)."""

    seat: int
    kind: str
    hex: Hex


Memoire44Event = Union[  # noqa: UP007 (a runtime union for msgspec)
    CardDrawn,
    TurnEnded,
    CardPlayed,
    CardDiscarded,
    DeckReshuffled,
    DiceRolled,
    UnitsOrdered,
    UnitMoved,
    WireRemoved,
    Battle,
    Retreated,
    GroundTaken,
    MedalAwarded,
    GameEnded,
    CardTaken,
    VisibilityRolled,
    CardCommitted,
    CardsGiven,
    InitiativeTaken,
    CombatCardDrawn,
    CombatCardPlayed,
    AirCardDrawn,
    PlaneDeployed,
    PlaneOrdered,
    PlaneMoved,
    AirStrike,
    Dogfight,
    AntiAircraft,
    Bombing,
    ReinforcementsRolled,
    ReinforcementPlaced,
]
