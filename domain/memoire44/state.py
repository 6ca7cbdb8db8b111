"""Mémoire 44 state: frozen structs. Camps are the scenario's players: camp 0 (player 1, at row 0) and
camp 1 (player 2, at the last row); `seat_camp` says which seat commands which camp."""

from __future__ import annotations

import msgspec

from domain.memoire44.air import AirPack
from domain.memoire44.board import Board, BoardSpec, Hex, board_from
from domain.memoire44.combat import CombatDeck
from domain.memoire44.dday import DDay, ReinforcementTable
from domain.memoire44.expansions import BASE, Expansions
from domain.memoire44.overlord import InitiativeTable
from domain.memoire44.scenario import Objective


class Unit(msgspec.Struct, frozen=True, kw_only=True):
    """A unit on the board (`hex` None once eliminated); `size` is its figures at the start."""

    uid: int
    camp: int
    kind: str
    size: int
    figures: int
    hex: Hex | None
    badge: str = ""
    nation: str = ""


class Hand(msgspec.Struct, frozen=True, kw_only=True):
    """A camp's command cards: those the record knows, and a count of face-down ones (G-2)."""

    known: tuple[str, ...] = ()
    unknown: int = 0

    @property
    def size(self) -> int:
        return len(self.known) + self.unknown


class Order(msgspec.Struct, frozen=True, kw_only=True):
    """An ordered unit this turn: hexes moved, moves and battles made, whether it entered terrain that
    forbids battling (M44-4), an armour overrun it has earned (M44-2), and the one-hex advance North
    African armour may make before that overrun (M44-NA-1)."""

    uid: int
    moved: int = 0
    moves: int = 0
    battles: int = 0
    stopped: bool = False
    overrun: bool = False
    advance: bool = False
    card: str | None = None  # Overlord (M44-OV-5): the card that ordered it, when several are played a turn


class Pending(msgspec.Struct, frozen=True, kw_only=True):
    """What a battle left to report: the target's retreat (`flags` hexes, `ignorable` of them it may
    ignore; `battle_back` if a British unit left with one figure may then battle back, M44-GB-1), the
    attacker's take-ground into `hex`, or a British unit's battle back against the unit at `hex`."""

    kind: str
    unit: int
    hex: Hex
    flags: int = 0
    ignorable: int = 0
    attacker: int | None = None
    close: bool = False
    overrun_battle: bool = False
    battle_back: bool = False
    fixed: bool = False  # a Barrage's flags: none may be ignored, not even by Tenacity (M44-DD-5)


class Plane(msgspec.Struct, frozen=True, kw_only=True):
    """A plane of a side's lot (M44-AIR-1): `plane` is its id in the air pack; `hex` is where it flies
    (None off the board); `lost` once destroyed, never to return (M44-AIR-7, M44-AIR-8)."""

    plane: str
    camp: int
    hex: Hex | None = None
    lost: bool = False
    grounded: bool = False  # on the ground where the scenario put it, until ordered (M44-AIR-13)


class AirState(msgspec.Struct, frozen=True, kw_only=True):
    """The air rules in play (M44-AIR-1 to M44-AIR-9): the pack, the side with air superiority, the
    planes, each side's air combat cards (G-2), and what the planes did this turn."""

    pack: AirPack
    superiority: int
    planes: tuple[Plane, ...]
    hands: tuple[Hand, Hand] = (Hand(), Hand())
    discard: tuple[str, ...] = ()
    due: tuple[int, int] = (0, 0)  # air combat cards each side may draw now
    kills: tuple[int, int] = (0, 0)  # medals each side scored by destroying planes (M44-AIR-7)
    card_played: bool = False  # the active side played its air combat card this turn
    activated: tuple[int, ...] = ()  # planes (index) deployed or ordered this turn
    sorties: tuple[int, int] | None = (
        None  # Air Sortie cards each side holds, when the scenario deals them (M44-AIR-15)
    )
    sortie_played: bool = False  # the active side played an Air Sortie beside its section card this turn
    move_ordered: tuple[int, ...] = ()  # planes on a Breakthrough move order this turn: no fight (M44-AIR-14)
    moved: tuple[int, ...] = ()
    fought: tuple[int, ...] = ()  # planes that made their one attack this turn
    battled: bool = False  # a plane struck, duelled or bombed this turn: the battles have begun (M44-OV-6)
    effect: tuple[int, ...] = ()  # planes using their air combat card's printed effect this turn
    markers: tuple[Hex, ...] = ()  # ammunition markers still to be rolled for (M44-AIR-6)
    shot: tuple[int, ...] = ()  # ground units that fired at a plane this turn
    bomb: int | None = None  # the objective a bomb token lies on, still to be rolled for (M44-AIR-11)
    bomb_markers: int = 0  # ammunition markers of the bombing flight (M44-7: one die, or one per marker)
    # (objective, camp): objectives a successful bombing holds for `camp` (M44-AIR-11, M44-AIR-16)
    bombed: tuple[tuple[int, int], ...] = ()
    retaken: tuple[int, ...] = ()  # objectives the enemy retook from a bombing: no second bombing


class State(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the rules need between two events."""

    @property
    def board(self) -> Board:
        """The scenario's board (terrain never changes; built once from `board_spec`)."""
        return board_from(self.board_spec)

    board_spec: BoardSpec
    scenario_id: str
    scenario_name: str
    sides: tuple[str, str]
    players: tuple[str, ...]
    seat_camp: tuple[int, ...]
    hand_limit: tuple[int, int]
    victory: tuple[int, int]
    objectives: tuple[Objective, ...]
    units: tuple[Unit, ...]
    occupant: dict[Hex, int]
    obstacles: dict[Hex, str]
    hands: tuple[Hand, Hand]
    discard: tuple[str, ...] = ()
    phase: str = "deal"
    turn: int = 0
    active: int = 0
    card: str | None = None
    effective: str | None = None
    section: str | None = None
    last_played: tuple[tuple[str, str | None] | None, tuple[str, str | None] | None] = (None, None)
    roll: tuple[str, ...] = ()
    orders: tuple[Order, ...] = ()
    pending: Pending | None = None
    card_targets: tuple[Hex, ...] = ()
    ambush: int | None = None
    ambush_target: Hex | None = None
    draws_due: tuple[int, int] = (0, 0)
    reshuffle_due: bool = False
    permanent: tuple[int, ...] = ()
    special: tuple[int, int] = (0, 0)
    medals: tuple[int, int] = (0, 0)
    winner: int | None = None
    over: bool = False
    end_reason: str = ""
    expansions: Expansions = BASE
    cards_to_take: int = 0
    visibility: int = 0
    visibility_rolled: bool = False
    token: tuple[str | None, ...] = ()
    committed: bool = False
    villages: tuple[tuple[int, int], ...] = ()  # (objective index, camp) of villages that changed hands
    zones: tuple[tuple[Hex, ...], ...] = ()  # per objective, its hexes and their neighbours (M44-DD-2, M44-DD-3)
    # What the replay's picture marks: the hexes of the turn's latest move (its start, then its path) and
    # the hex of its latest battle; both cleared when the next command card is played.
    last_move: tuple[Hex, ...] = ()
    last_battle: Hex | None = None
    # Overlord team tables (M44-OV-2 to M44-OV-7); all empty at a two-player table.
    commanders: tuple[int, ...] = ()  # per camp, the seat of its commander-in-chief
    commands: tuple[tuple[str, ...], ...] = ()  # per seat, the sections it commands
    given: tuple[Hand, ...] = ()  # per seat, the cards handed to it this turn and not yet played
    gifted: tuple[int, ...] = ()  # seats given a card this turn
    played_in: tuple[str, ...] = ()  # sections the active side has played a card in this turn
    initiative: tuple[int, ...] = ()  # seats that took the initiative this turn
    general: int | None = None  # the seat whose card (or initiative) is being carried out
    marines: int | None = None  # the general the commander chose to order one more unit (M44-OV-9)
    initiative_table: InitiativeTable | None = None
    teams: bool = False  # an Overlord team table (kept as a field: the rules read it on every event)
    # Combat cards (M44-CC-1 to M44-CC-3); empty without the deck.
    combat_deck: CombatDeck | None = None
    combat_hands: tuple[Hand, ...] = ()  # per seat
    combat_discard: tuple[str, ...] = ()
    combat_due: tuple[int, ...] = ()  # per seat, combat cards it may draw
    combat_helped: tuple[int, ...] = ()  # units helped by a combat card this turn
    combat_players: tuple[int, ...] = ()  # seats helped by a combat card (not on a unit) this turn
    combat_boosts: tuple[tuple[int, str], ...] = ()  # (unit, effect) adding a battle die this turn
    air: AirState | None = None  # the air rules (M44-AIR-1); None without them
    # D-Day reinforcements (M44-DD-6 to M44-DD-9); None and empty without the D-Day rules.
    dday: DDay | None = None
    reinforcement_table: ReinforcementTable | None = None
    reserve: tuple[dict[str, int], ...] = ()  # per camp, figures in reserve by unit kind
    reinforced: bool = False  # the side has rolled for reinforcements this turn
    reinforcements: tuple[str, ...] = ()  # unit kinds the roll brought, not yet placed

    def seat_of(self, camp: int) -> int:
        """The seat commanding a camp (its commander-in-chief at a team table)."""
        return self.commanders[camp] if self.commanders else self.seat_camp.index(camp)

    def order_of(self, uid: int) -> Order | None:
        """The unit's order this turn, if ordered."""
        for order in self.orders:
            if order.uid == uid:
                return order
        return None
