"""Mémoire 44 base-game data: the command deck, units, terrain and obstacles, battle dice faces.

Sources: the published base game (M44-1 to M44-6 in `RULES.md`); the deck's composition is M44-5 (the
tests cross-check it with a published card list).
"""

from __future__ import annotations

import msgspec

SECTIONS: tuple[str, ...] = ("left", "centre", "right")

INFANTRY, ARMOUR, ARTILLERY = "infantry", "armour", "artillery"
UNIT_KINDS: tuple[str, ...] = (INFANTRY, ARMOUR, ARTILLERY)

# M44-3: the six faces of a battle die (infantry appears twice).
FACES: tuple[str, ...] = ("infantry", "infantry", "armour", "grenade", "star", "flag")
FACE_NAMES: frozenset[str] = frozenset(FACES)


class UnitType(msgspec.Struct, frozen=True, kw_only=True):
    """One kind of unit (M44-2): figures, movement, battle dice by range (index 0 = range 1)."""

    kind: str
    figures: int
    move: int
    move_and_battle: int
    dice: tuple[int, ...]


UNIT_TYPES: dict[str, UnitType] = {
    INFANTRY: UnitType(kind=INFANTRY, figures=4, move=2, move_and_battle=1, dice=(3, 2, 1)),
    ARMOUR: UnitType(kind=ARMOUR, figures=3, move=3, move_and_battle=3, dice=(3, 3, 3)),
    ARTILLERY: UnitType(kind=ARTILLERY, figures=2, move=1, move_and_battle=0, dice=(3, 3, 2, 2, 1, 1)),
}


class Terrain(msgspec.Struct, frozen=True, kw_only=True):
    """A base terrain (M44-4). `protection` is the dice taken off infantry and armour battling a unit
    in it (artillery ignores it); `stops` ends a move on entering; `no_battle` forbids battling on the
    turn the unit enters; `blocks_sight` blocks line of sight."""

    name: str
    protection: tuple[int, int] = (0, 0)
    stops: bool = False
    no_battle: bool = False
    blocks_sight: bool = False
    impassable: bool = False
    hill: bool = False
    hedgerow: bool = False
    beach: bool = False
    no_battle_from: bool = False


def _cover(name: str, hedgerow: bool = False) -> Terrain:
    """Forest, town, church, hedgerow: stop on entering, no battle that turn, −1/−2, block sight."""
    return Terrain(name=name, protection=(1, 2), stops=True, no_battle=True, blocks_sight=True, hedgerow=hedgerow)


def _water(name: str) -> Terrain:
    return Terrain(name=name, impassable=True)


TERRAINS: dict[str, Terrain] = {
    "": Terrain(name="countryside"),
    "countryside": Terrain(name="countryside"),
    "woods": _cover("forest"),
    "forest": _cover("forest"),
    "buildings": _cover("town"),
    "town": _cover("town"),
    "village": _cover("town"),
    "church": _cover("church"),
    "hedgerow": _cover("hedgerow", hedgerow=True),
    "hedgerows": _cover("hedgerow", hedgerow=True),
    "hills": Terrain(name="hill", protection=(1, 1), blocks_sight=True, hill=True),
    "hill": Terrain(name="hill", protection=(1, 1), blocks_sight=True, hill=True),
    "river": _water("river"),
    "curve": _water("river"),
    "riverFL": _water("river"),
    "riverFR": _water("river"),
    "riverY": _water("river"),
    "pond": _water("pond"),
    "lake": _water("pond"),
    "ocean": Terrain(name="ocean", stops=True, no_battle_from=True),
    "beach": Terrain(name="beach", beach=True),
    "road": Terrain(name="road"),
    "roadcurve": Terrain(name="road"),
    "roadX": Terrain(name="road"),
    "roadY": Terrain(name="road"),
    "roadFL": Terrain(name="road"),
    "roadFR": Terrain(name="road"),
}

BRIDGES: frozenset[str] = frozenset({"bridge", "roadbridge", "railbridge", "pontoon"})


class Obstacle(msgspec.Struct, frozen=True, kw_only=True):
    """A base obstacle (M44-4). Wire (stops a move, armour clears it) and hedgehogs (no armour or
    artillery) are checked by their id in `rules`; these are the battle effects."""

    name: str
    protection: tuple[int, int] = (0, 0)
    ignores_flag: bool = False


OBSTACLES: dict[str, Obstacle] = {
    "sand": Obstacle(name="sandbags", protection=(1, 1), ignores_flag=True),
    "sandbags": Obstacle(name="sandbags", protection=(1, 1), ignores_flag=True),
    "wire": Obstacle(name="wire"),
    "bunker": Obstacle(name="bunker", protection=(1, 2), ignores_flag=True),
    "hedgehog": Obstacle(name="hedgehog"),
}

# The scenario editor's unit names: prefix gives the kind, suffix the nation.
UNIT_PREFIXES: dict[str, str] = {"inf": INFANTRY, "tank": ARMOUR, "gun": ARTILLERY}
NATIONS: dict[str, str] = {
    "ger": "AXIS",
    "ita": "AXIS",
    "jap": "AXIS",
    "jp": "AXIS",
    "us": "ALLIES",
    "brit": "ALLIES",
    "ru": "ALLIES",
    "fr": "ALLIES",
    "ch": "ALLIES",
}


class Card(msgspec.Struct, frozen=True, kw_only=True):
    """A command card (M44-5). Section cards order `orders` units in each of `sections` (None: all of
    them); tactic cards carry their own order rule in `rules.order_rule`."""

    card_id: str
    name: str
    kind: str
    count: int
    sections: tuple[str, ...] = ()
    orders: int | None = 0


def _section_cards() -> list[Card]:
    cards: list[Card] = []
    plain = (
        ("recon_1", "Recon 1", 1, (2, 2, 2)),
        ("probe", "Probe", 2, (4, 5, 4)),
        ("attack", "Attack", 3, (3, 4, 3)),
        ("assault", "Assault", None, (2, 2, 2)),
    )
    for prefix, name, orders, counts in plain:
        for section, count in zip(SECTIONS, counts, strict=True):
            cards.append(
                Card(
                    card_id=f"{prefix}_{section}",
                    name=f"{name} {section.title()}",
                    kind="section",
                    count=count,
                    sections=(section,),
                    orders=orders,
                )
            )
    cards.append(
        Card(
            card_id="general_advance",
            name="General Advance",
            kind="section",
            count=1,
            sections=SECTIONS,
            orders=2,
        )
    )
    cards.append(
        Card(
            card_id="pincer_move",
            name="Pincer Move",
            kind="section",
            count=1,
            sections=("left", "right"),
            orders=2,
        )
    )
    cards.append(
        Card(
            card_id="recon_in_force",
            name="Recon in Force",
            kind="section",
            count=3,
            sections=SECTIONS,
            orders=1,
        )
    )
    return cards


_TACTICS = (
    ("air_power", "Air Power", 1),
    ("ambush", "Ambush", 1),
    ("armor_assault", "Armor Assault", 2),
    ("artillery_bombard", "Artillery Bombard", 1),
    ("barrage", "Barrage", 1),
    ("behind_enemy_lines", "Behind Enemy Lines", 1),
    ("close_assault", "Close Assault", 1),
    ("counter_attack", "Counter-Attack", 2),
    ("dig_in", "Dig In", 1),
    ("direct_from_hq", "Direct from HQ", 2),
    ("firefight", "Firefight", 1),
    ("infantry_assault", "Infantry Assault", 2),
    ("medics_and_mechanics", "Medics & Mechanics", 1),
    ("move_out", "Move Out!", 2),
    ("their_finest_hour", "Their Finest Hour", 1),
)

CARDS: dict[str, Card] = {
    card.card_id: card
    for card in (
        *_section_cards(),
        *(Card(card_id=i, name=n, kind="tactic", count=c) for i, n, c in _TACTICS),
    )
}
# M44-AIR-15: the Air Pack's Air Sortie is a command card a side holds apart from its hand, never in the
# deck (so no copies count towards it); Air Power, and a German Recon 1 under Blitz, may be played as one.
AIR_SORTIE = "air_sortie"
CARDS[AIR_SORTIE] = Card(card_id=AIR_SORTIE, name="Air Sortie", kind="tactic", count=0)
DECK_SIZE = sum(card.count for card in CARDS.values())
RECON_CARDS: frozenset[str] = frozenset(f"recon_1_{section}" for section in SECTIONS)


# M44-NT-1: the night visibility track. Level n lets a unit battle at most n hexes away; the light
# starts at level 1 and full daylight is level 6, when the track is set aside. Source: the Night
# Attacks visibility chart of Memoir '44 as the public Board Game Arena adaptation encodes it
# (range = level, full day at 6); the French crib sheet says only that the visibility card sets the range.
NIGHT_START = 1
FULL_DAY = 6
NIGHT_DICE = 4
