"""Air rules (Air Pack with the New Flight Plan update, M44-AIR-1 to M44-AIR-17): the air pack a club
imports, and the plain facts the rules read from it.

The rules summary relies on tables it does not print: the air combat deck (which cards, how many, the
plane symbol on each), each side's planes with their duel values, and air superiority by theatre and
date. They are a club resource (`air_pack`); the project ships none, having found no public source to
cite for the values. A game that turns the air rules on without a pack is refused at set-up, naming it;
a play that needs a value the pack leaves out (a plane's duel value, the superiority of a theatre) is
refused naming that value.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.i18n import Catalogue
from domain.memoire44.catalogue import CARDS
from domain.memoire44.imported import JsonTableKind, read_table, table_errors

_ = Catalogue("domain.memoire44")

DEAL = 2  # M44-AIR-2: two air combat cards each, one more for the side with air superiority, one fewer on a beach
GROUND_DICE = 3  # M44-AIR-8: a ground unit firing at an adjacent plane
ARTILLERY_DICE = 4  # M44-AIR-8: artillery at a plane up to two hexes away
ARTILLERY_REACH = 2
MAX_MARKERS = 3  # M44-AIR-6: at most three hexes of ground units attacked in one flight
MAX_MOVE_ORDERS = 6  # M44-AIR-14: a sanity bound on the air pack's move orders per command card


class AirCard(msgspec.Struct, frozen=True, kw_only=True):
    """An air combat card: its name, copies, and the plane symbol printed on it (M44-AIR-3)."""

    name: str
    count: int
    symbol: str


class PlaneSpec(msgspec.Struct, frozen=True, kw_only=True):
    """One plane of a side's lot: its name, side, symbol (type) and duel value (dice in a dogfight;
    None when the club's source does not give it)."""

    name: str
    side: str
    symbol: str
    duel: int | None = None


class AirPack(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The air pack: the air combat deck, the planes of each side, air superiority by theatre, the move
    orders each command card gives on a Breakthrough board, with where the values come from. Empty tables
    are left out of its JSON form, so a pack imported before a table was added reads back the same."""

    source: str
    cards: dict[str, AirCard]
    planes: dict[str, PlaneSpec]
    superiority: dict[str, str] = {}
    move_orders: dict[str, int] = {}  # M44-AIR-14: move orders a command card gives on a Breakthrough board

    @property
    def size(self) -> int:
        return sum(card.count for card in self.cards.values())


def parse_air_pack(content: Any) -> AirPack:
    """The pack from its JSON form; ResourceError naming each bad row."""
    pack, errors = read_table(content, AirPack, AirPackKind.what)
    if not pack.cards:
        errors.append({"field": "cards", "message": _("the air combat deck has cards")})
    for card_id, card in sorted(pack.cards.items()):
        if not 1 <= card.count <= 20:
            errors.append({"field": f"cards.{card_id}.count", "message": _("1 to 20 copies")})
        if not card.symbol.strip():
            errors.append(
                {"field": f"cards.{card_id}.symbol", "message": _("name the plane symbol printed on the card")}
            )
    for plane_id, plane in sorted(pack.planes.items()):
        if plane.side not in ("ALLIES", "AXIS"):
            errors.append({"field": f"planes.{plane_id}.side", "message": _("ALLIES or AXIS")})
        if plane.duel is not None and not 1 <= plane.duel <= 6:
            errors.append({"field": f"planes.{plane_id}.duel", "message": _("1 to 6 dice, or null when unknown")})
    for command, orders in sorted(pack.move_orders.items()):
        if command not in CARDS:
            errors.append({"field": f"move_orders.{command}", "message": _("a command card of the deck")})
        elif not 0 <= orders <= MAX_MOVE_ORDERS:
            errors.append(
                {"field": f"move_orders.{command}", "message": _("0 to {most} move orders", most=MAX_MOVE_ORDERS)}
            )
    for theatre, side in sorted(pack.superiority.items()):
        if side not in ("ALLIES", "AXIS"):
            errors.append({"field": f"superiority.{theatre}", "message": _("ALLIES or AXIS")})
    if errors:
        raise table_errors(AirPackKind.what, errors)
    return pack


class AirPackKind(JsonTableKind):
    """The `air_pack` resource kind: a JSON file of the air combat deck, the planes with their duel
    values and air superiority by theatre. The project ships none: no public source of the values was
    found to cite."""

    name = "air_pack"
    what = _("The air pack")

    def check(self, content: Any) -> msgspec.Struct:
        return parse_air_pack(content)


def duel_faces_result(faces: tuple[str, ...]) -> str:
    """What a dogfight or a shot at a plane does (M44-AIR-7, M44-AIR-8): a grenade destroys the plane,
    otherwise a flag drives it off the battlefield; other faces miss."""
    if "grenade" in faces:
        return "destroyed"
    if "flag" in faces:
        return "driven_off"
    return "missed"


def strike_hits(faces: tuple[str, ...], kind: str) -> tuple[int, int]:
    """Hits and flags of a plane's standard attack on a ground unit of `kind` (M44-AIR-6): only the
    unit's own symbol hits (a grenade does not); flags make it retreat."""
    return sum(1 for f in faces if f == kind), faces.count("flag")
